import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asConstraintViolation, CheckViolation, ConstraintViolation, ForeignKeyViolation, UniqueViolation } from './constraint-errors';

describe('constraint violations', () => {
  it('raises the kind and the constraint, from the error or its message', () => {
    const unique = asConstraintViolation({ code: '23505', constraint: 'users_email_key', message: 'duplicate key' });
    assert.ok(unique instanceof UniqueViolation && unique instanceof ConstraintViolation);
    assert.equal(unique.kind, 'unique');
    assert.equal(unique.constraint, 'users_email_key');
    assert.equal(unique.message, 'duplicate key');
    assert.equal(unique.code, '23505');

    const fk = asConstraintViolation({
      code: '23503',
      message: 'insert or update on table "x" violates foreign key constraint "x_security_fkey"',
    });
    assert.ok(fk instanceof ForeignKeyViolation);
    assert.equal(fk.constraint, 'x_security_fkey');

    const check = asConstraintViolation({ code: '23514' });
    assert.ok(check instanceof CheckViolation);
    assert.equal(check.constraint, '');
  });

  it('leaves every other error as it is, and a violation already raised too', () => {
    const other = { code: '42P01' };
    assert.equal(asConstraintViolation(other), other);
    const boom = new Error('boom');
    assert.equal(asConstraintViolation(boom), boom);
    assert.equal(asConstraintViolation(null), null);
    const raised = asConstraintViolation({ code: '23505', message: 'duplicate key value violates unique constraint "c"' });
    assert.equal(asConstraintViolation(raised), raised);
  });

  it('keeps the driver error as its cause', () => {
    const driver = { code: '23505', message: 'duplicate key value violates unique constraint "client_connectors_comp_id_key"' };
    const v = asConstraintViolation(driver) as UniqueViolation;
    assert.equal(v.constraint, 'client_connectors_comp_id_key');
    assert.equal(v.cause, driver);
  });
});
