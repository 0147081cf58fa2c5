import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generatePassword, hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hashes with argon2id (a standard PHC string) and verifies', async () => {
    const h = await hashPassword('correct horse');
    assert.match(h, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(await verifyPassword(h, 'correct horse'), true);
    assert.equal(await verifyPassword(h, 'wrong'), false);
    assert.notEqual(await hashPassword('correct horse'), h, 'a fresh salt each time');
  });
  it('treats a malformed hash as a failed check, not an error', async () => {
    assert.equal(await verifyPassword('not-a-hash', 'x'), false);
  });
  it('generates passwords without look-alike characters', () => {
    const p = generatePassword(64);
    assert.equal(p.length, 64);
    assert.doesNotMatch(p, /[0O1lI]/);
  });
});
