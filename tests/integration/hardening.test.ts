// Findings of an outside probe, kept fixed: a NUL character in a JSON text is a
// 400 naming the field (it was a 500 from the database, even on the unauthenticated sign-in), and a
// link or logo address must be http(s) (javascript:, data:, file: and protocol-relative ones refused).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { startTestServer, type TestServer } from '../support/server';

for (const kind of TEST_DB_KINDS) {
  describe(`hardening on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    before(async () => {
      t = await startTestServer(kind);
      admin = await t.login('admin');
    });
    after(async () => {
      await t?.stop();
    });

    it('answers a NUL character in any JSON text with a 400 naming the field, signed in or not', async () => {
      const login = await t.api('/api/auth/login', { method: 'POST', json: { username: 'admin\u0000', password: 'x' } });
      assert.equal(login.status, 400);
      const body = (await login.json()) as { field?: string; message: string };
      assert.equal(body.field, 'username');
      assert.match(body.message, /NUL/);
      const put = await t.api('/api/client-connectors/SGX_CLIENT_1', { method: 'PUT', token: admin, json: { notes: 'a\u0000b' } });
      assert.equal(put.status, 400);
      assert.equal(((await put.json()) as { field?: string }).field, 'notes');
      const nested = await t.api('/api/auth/login', { method: 'POST', json: { username: 'admin', password: 'x', ['k\u0000']: 1 } });
      assert.equal(nested.status, 400);
    });

    it('takes only http(s) addresses for a company website, https for a logo', async () => {
      for (const bad of [
        'javascript:alert(1)',
        'data:image/svg+xml,<svg/onload=alert(1)>',
        'file:///etc/passwd',
        '//evil.example/logo.png',
        'ftp://x.example/a',
      ]) {
        for (const field of ['company_website', 'logo_url']) {
          const r = await t.api('/api/client-connectors/SGX_CLIENT_1', { method: 'PUT', token: admin, json: { [field]: bad } });
          assert.equal(r.status, 400, `${field} = ${bad}`);
          assert.equal(((await r.json()) as { field?: string }).field, field);
        }
      }
      const ok = await t.api('/api/client-connectors/SGX_CLIENT_1', {
        method: 'PUT',
        token: admin,
        json: { company_website: 'https://client.example' },
      });
      assert.equal(ok.status, 200, await ok.text());
      // A logo is https only: the server fetches it (tests/integration/connector-logos.test.ts).
      const plain = await t.api('/api/client-connectors/SGX_CLIENT_1', {
        method: 'PUT',
        token: admin,
        json: { logo_url: 'http://client.example/logo.svg' },
      });
      assert.equal(plain.status, 400);
      assert.equal(((await plain.json()) as { field?: string }).field, 'logo_url');
    });
  });
}
