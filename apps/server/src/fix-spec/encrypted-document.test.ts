import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decryptDocument, encryptDocument, PBKDF2_ITERATIONS, renderEncryptedPage } from './encrypted-document';

describe('password-protected FIX specification', () => {
  const secret = '<h2>SGX_CLIENT_1</h2> TargetCompID FIXDESK — ünïcode';

  it('round-trips with the password and fails with any other', async () => {
    const p = await encryptDocument(secret, 'Kx7#mPq9!rTa');
    assert.equal(p.iterations, PBKDF2_ITERATIONS);
    assert.ok(PBKDF2_ITERATIONS >= 600_000);
    assert.equal(p.cipher, 'AES-256-GCM');
    assert.equal(Buffer.from(p.salt, 'base64').length, 16);
    assert.equal(Buffer.from(p.iv, 'base64').length, 12);
    assert.equal(await decryptDocument(p, 'Kx7#mPq9!rTa'), secret);
    assert.equal(await decryptDocument(p, 'Kx7#mPq9!rTb'), null);
    assert.equal(await decryptDocument(p, ''), null);
  });

  it('uses a fresh salt and IV every time, and detects tampering', async () => {
    const [a, b] = await Promise.all([encryptDocument(secret, 'same-password'), encryptDocument(secret, 'same-password')]);
    assert.notEqual(a.salt, b.salt);
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.ciphertext, b.ciphertext);
    const bytes = Buffer.from(a.ciphertext, 'base64');
    bytes[0] = bytes[0]! ^ 1;
    assert.equal(await decryptDocument({ ...a, ciphertext: bytes.toString('base64') }, 'same-password'), null);
  });

  it('refuses fewer than 600,000 iterations', async () => {
    await assert.rejects(encryptDocument(secret, 'password', 1000));
  });

  it('writes a file holding only the ciphertext, salt, IV and the decryption page', async () => {
    const p = await encryptDocument(secret, 'Kx7#mPq9!rTa');
    const html = renderEncryptedPage(p);
    assert.ok(!html.includes('SGX_CLIENT_1') && !html.includes('FIXDESK'), 'no plaintext in the file');
    assert.ok(!html.includes('Kx7#mPq9!rTa'), 'no password in the file');
    assert.ok(html.includes(p.ciphertext) && html.includes(p.salt) && html.includes(p.iv));
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/);
    assert.ok(!/\bsrc=|\bhref=|https?:\/\//.test(html), 'no external resource');
    assert.match(html, /crypto\.subtle|window\.crypto/);
  });
});
