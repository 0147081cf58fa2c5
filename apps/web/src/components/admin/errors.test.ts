import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '@fixdesk/client';
import { serverFieldErrors } from './errors';

const FIELDS = [
  { name: 'broker_branch_id', label: 'Broker Branch' },
  { name: 'trader_id', label: 'Trader ID' },
  { name: 'password', label: 'Password' },
];

describe('server refusals under their fields', () => {
  it("puts every listed issue of a field of the form under it, in the form's words", () => {
    const err = new ApiError('Broker branch is required for broker users', 400, {
      message: 'Broker branch is required for broker users',
      field: 'broker_branch_id',
      issues: [
        { path: 'broker_branch_id', message: 'Broker branch is required for broker users' },
        { path: 'trader_id', message: 'Trader ID is required for broker users' },
        { path: 'elsewhere', message: 'is not on this form' },
      ],
    });
    assert.deepEqual(serverFieldErrors(err, FIELDS, err.message), {
      broker_branch_id: 'Broker branch is required for broker users',
      trader_id: 'Trader ID is required for broker users',
    });
    const policy = new ApiError('Password is too common', 400, {
      field: 'password',
      issues: [{ path: 'password', message: 'is too common' }],
    });
    assert.deepEqual(serverFieldErrors(policy, FIELDS, policy.message), { password: 'Password is too common' });
  });

  it("falls back to the answer's one field, and to none (the top of the form) for another field or no answer", () => {
    const one = new ApiError('A user with username x already exists', 409, { field: 'password' });
    assert.deepEqual(serverFieldErrors(one, FIELDS, 'text'), { password: 'text' });
    assert.equal(serverFieldErrors(new ApiError('x', 409, { field: 'email' }), FIELDS, 'text'), null);
    assert.equal(serverFieldErrors(new Error('offline'), FIELDS, 'text'), null);
  });
});
