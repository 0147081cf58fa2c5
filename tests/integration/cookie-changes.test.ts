// Cross-site request forgery: a change signed in by the session cookie alone must come as
// JSON. A text/plain or form POST, or one with no body, that carries only the cookie is refused with a
// 403 naming the content type, before anything runs (the test client's control path among them); the
// same call as JSON, or with a Bearer token, goes through, and so do the web client's own calls when
// its only credential is the cookie.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { createApiClient, createSimulatorApi } from '@fixdesk/client';
import { COOKIE_CHANGE_NEEDS_JSON_MESSAGE, testClientPath, type TestClientStatus } from '@fixdesk/protocol';
import { ADMIN_PASSWORD, DEMO_PASSWORD, startTestServer, type TestServer } from '../support/server';

const COMP = 'SGX_CLIENT_1';

for (const kind of TEST_DB_KINDS) {
  describe(`cookie-signed changes on ${kind}`, () => {
    let t: TestServer;
    const cookies: Record<string, string> = {};

    /** Signs in as the browser does and keeps the session cookie (name=value). */
    const cookieOf = async (username: 'broker' | 'admin') => {
      const r = await t.api('/api/auth/login', {
        method: 'POST',
        json: { username, password: username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD },
      });
      assert.equal(r.status, 200);
      return (r.headers.get('set-cookie') ?? '').split(';')[0]!;
    };
    const status = async () =>
      (await (await t.api(testClientPath(COMP, 'status'), { headers: { cookie: cookies.broker! } })).json()) as TestClientStatus;

    before(async () => {
      t = await startTestServer(kind);
      cookies.broker = await cookieOf('broker');
      cookies.admin = await cookieOf('admin');
    });
    after(async () => {
      await t?.server.ctx.testClients.require(COMP).disconnect();
      await t?.stop();
    });

    it('refuses a text/plain, form or empty POST carrying only the cookie, with a 403 naming the content type, and changes nothing', async () => {
      const tries: [string, RequestInit][] = [
        ['text/plain connect', { method: 'POST', headers: { cookie: cookies.broker!, 'content-type': 'text/plain' }, body: '{}' }],
        [
          'form connect',
          { method: 'POST', headers: { cookie: cookies.broker!, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' },
        ],
        [
          'multipart connect',
          { method: 'POST', headers: { cookie: cookies.broker!, 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' },
        ],
        ['connect with no body', { method: 'POST', headers: { cookie: cookies.broker! } }],
        // Not a Bearer token: the cookie is what signs it in.
        [
          'connect with another Authorization',
          { method: 'POST', headers: { cookie: cookies.broker!, authorization: 'Basic eDp5', 'content-type': 'text/plain' }, body: 'x' },
        ],
      ];
      for (const [what, init] of tries) {
        const r = await t.api(testClientPath(COMP, 'connect'), init);
        assert.equal(r.status, 403, what);
        const body = (await r.json()) as { message: string; field: string };
        assert.equal(body.message, COOKIE_CHANGE_NEEDS_JSON_MESSAGE, what);
        assert.equal(body.field, 'content-type');
      }
      assert.equal((await status()).running, false, 'the client was not started');

      // Every state-changing method, on the API too.
      const before = (await (await t.api('/api/client-connectors/EEX_CLIENT_1', { headers: { cookie: cookies.admin! } })).json()) as {
        data: { notes: string | null };
      };
      for (const [method, path] of [
        ['PUT', '/api/client-connectors/EEX_CLIENT_1'],
        ['DELETE', '/api/client-connectors/EEX_CLIENT_1'],
        ['POST', '/api/client-connectors'],
      ] as const) {
        const r = await t.api(path, {
          method,
          headers: { cookie: cookies.admin!, 'content-type': 'text/plain' },
          body: '{"notes":"forged"}',
        });
        assert.equal(r.status, 403, method);
      }
      assert.equal(
        (await t.api('/api/client-connectors/EEX_CLIENT_1', { headers: { cookie: cookies.admin! } })).status,
        200,
        'not deleted',
      );
      const afterwards = (await (await t.api('/api/client-connectors/EEX_CLIENT_1', { headers: { cookie: cookies.admin! } })).json()) as {
        data: { notes: string | null };
      };
      assert.equal(afterwards.data.notes, before.data.notes);
      const logout = await t.api('/api/auth/logout', {
        method: 'POST',
        headers: { cookie: cookies.broker!, 'content-type': 'text/plain' },
      });
      assert.equal(logout.status, 403, 'signing out by a forged request too');
      assert.equal((await t.api('/api/auth/me', { headers: { cookie: cookies.broker! } })).status, 200, 'still signed in');
    });

    it('takes the same changes as JSON with the cookie, and in any form with a Bearer token', async () => {
      const json = await t.api('/api/client-connectors/EEX_CLIENT_1', {
        method: 'PUT',
        headers: { cookie: cookies.admin!, 'content-type': 'application/json; charset=utf-8' },
        body: '{"notes":"by JSON"}',
      });
      assert.equal(json.status, 200);
      const token = await t.login('broker');
      const bearer = await t.api(testClientPath(COMP, 'disconnect'), { method: 'POST', token });
      assert.equal(bearer.status, 200, 'no body, Bearer token');
      // Reads are never refused for their form.
      assert.equal((await t.api('/api/orders', { headers: { cookie: cookies.broker!, 'content-type': 'text/plain' } })).status, 200);
    });

    it("lets the web client's own calls through with the cookie as their only credential", async () => {
      const api = createApiClient({
        // What the browser adds: the cookie (the page has no token here).
        fetch: (input, init) =>
          fetch(`${t.url}${String(input)}`, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), cookie: cookies.broker! },
          }),
        baseUrl: '',
        getToken: () => null,
        onUnauthorized: () => assert.fail('signed out'),
      });
      const sim = createSimulatorApi(api);
      const started = await sim.startClient(COMP);
      assert.equal(started.success, true, JSON.stringify(started));
      assert.equal((await status()).running, true);
      const stopped = await sim.stopClient(COMP);
      assert.equal(stopped.success, true);
      assert.equal((await status()).running, false);
      // A body-less change of the API as well (signing out goes through, as the web client does it).
      await api.post('/api/auth/logout');
      assert.equal((await t.api('/api/auth/me', { headers: { cookie: cookies.broker! } })).status, 401);
    });
  });
}
