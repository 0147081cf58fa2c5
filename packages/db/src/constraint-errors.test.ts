import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { constraintViolation, isUniqueViolation } from './constraint-errors';

describe('constraint violations', () => {
  it('reads the kind and the constraint, from the error or its message', () => {
    assert.deepEqual(constraintViolation({ code: '23505', constraint: 'users_email_key' }), {
      kind: 'unique',
      constraint: 'users_email_key',
    });
    assert.deepEqual(
      constraintViolation({ code: '23503', message: 'insert or update on table "x" violates foreign key constraint "x_security_fkey"' }),
      { kind: 'foreign-key', constraint: 'x_security_fkey' },
    );
    assert.deepEqual(constraintViolation({ code: '23514' }), { kind: 'check', constraint: '' });
    assert.equal(constraintViolation({ code: '42P01' }), undefined);
    assert.equal(constraintViolation(new Error('boom')), undefined);
    assert.equal(constraintViolation(null), undefined);
  });

  it('tells a unique violation, of a named constraint or any', () => {
    const err = { code: '23505', message: 'duplicate key value violates unique constraint "client_connectors_comp_id_key"' };
    assert.equal(isUniqueViolation(err), true);
    assert.equal(isUniqueViolation(err, 'client_connectors_comp_id_key'), true);
    assert.equal(isUniqueViolation(err, 'client_connectors_execution_id_prefix_key'), false);
    assert.equal(isUniqueViolation({ code: '23503' }), false);
  });
});
