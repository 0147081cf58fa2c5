import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { AUTH_REQUIRED_MESSAGE, WS_CLOSE } from '@fixdesk/protocol';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from '../support/server';
import { FREE_FAILURES_PER_PAIR, pairDelayMs } from '../../apps/server/src/auth/sign-in-throttle';

for (const kind of TEST_DB_KINDS) {
  describe(`HTTP API foundation on ${kind}`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(kind);
    });
    after(async () => {
      await t?.stop();
    });

    it('answers health with the database kind', async () => {
      const r = await t.api('/api/health');
      assert.equal(r.status, 200);
      const body = (await r.json()) as { status: string; database: string };
      assert.equal(body.status, 'ok');
      assert.equal(body.database, kind);
    });

    it('signs in each demo user with its role, by bearer token and by cookie', async () => {
      for (const [username, role] of [
        ['admin', 'admin'],
        ['broker', 'broker'],
        ['viewer', 'viewer'],
      ] as const) {
        const r = await t.api('/api/auth/login', {
          method: 'POST',
          json: { username, password: username === 'admin' ? 'admin-test-pw-1' : 'demo-test-pw-1' },
        });
        assert.equal(r.status, 200);
        const body = (await r.json()) as { success: boolean; token: string; user: { role: string; username: string } };
        assert.equal(body.success, true);
        assert.equal(body.user.role, role);
        assert.ok(body.token.length >= 40);
        const cookie = r.headers.get('set-cookie') ?? '';
        assert.match(cookie, /authToken=/);
        assert.match(cookie, /HttpOnly/i);
        assert.match(cookie, /SameSite=Strict/i);

        const byBearer = await t.api('/api/auth/me', { token: body.token });
        assert.equal(byBearer.status, 200);
        assert.equal(((await byBearer.json()) as { user: { username: string } }).user.username, username);
        const byCookie = await t.api('/api/auth/me', { headers: { cookie: cookie.split(';')[0]! } });
        assert.equal(byCookie.status, 200);
      }
    });

    it('stores only a hash of the token and an argon2id hash of the password', async () => {
      const token = await t.login('viewer');
      const { rows } = await t.database.db.query<{ token_hash: string }>('SELECT token_hash FROM auth_sessions');
      assert.ok(rows.length > 0);
      assert.ok(rows.every((r) => r.token_hash !== token && /^[0-9a-f]{64}$/.test(r.token_hash)));
      const users = await t.database.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'viewer'");
      assert.match(users.rows[0]!.password_hash, /^\$argon2id\$/);
    });

    it('refuses a wrong password and an unknown user with the same message', async () => {
      for (const username of ['broker', 'nobody']) {
        const r = await t.api('/api/auth/login', { method: 'POST', json: { username, password: 'wrong' } });
        assert.equal(r.status, 401);
        assert.deepEqual(await r.json(), {
          success: false,
          message: 'Invalid username or password',
          error: 'Invalid username or password',
        });
      }
    });

    it('rate-limits repeated failures for a username with 429 and a clear message', async () => {
      // The free failures, then the earned delay (2 s, then 4 s, ...): the next attempt waits unless the
      // delay already ran out, which a loaded host answering slowly can make happen once or twice.
      let last: Response | undefined;
      const statuses: number[] = [];
      for (let i = 0; i < 10 && last?.status !== 429; i++) {
        last = await t.api('/api/auth/login', { method: 'POST', json: { username: 'ratelimited', password: `bad-${i}` } });
        statuses.push(last.status);
      }
      assert.deepEqual(statuses.slice(0, FREE_FAILURES_PER_PAIR), [401, 401, 401, 401, 401], 'the free failures are checked');
      assert.equal(last!.status, 429, JSON.stringify(statuses));
      const body = (await last!.json()) as { message: string };
      assert.match(body.message, /^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/);
      assert.ok(Number(last!.headers.get('retry-after')) > 0);
      // Other usernames from the same address are not locked by it.
      const other = await t.api('/api/auth/login', { method: 'POST', json: { username: 'viewer', password: 'demo-test-pw-1' } });
      assert.equal(other.status, 200);
    });

    it('throttles one address and username pair without locking the account out elsewhere', async () => {
      // The admin's password guessed wrong from one address, well past its free failures.
      for (let i = 0; i < 7; i++) await t.api('/api/auth/login', { method: 'POST', json: { username: 'admin', password: `guess-${i}` } });
      const here = await t.api('/api/auth/login', { method: 'POST', json: { username: 'admin', password: 'admin-test-pw-1' } });
      assert.equal(here.status, 429, 'the guessing pair waits, even with the right password');
      assert.ok(Number(here.headers.get('retry-after')) >= 1);
      // The same account from another address (through a trusted proxy) signs in at once.
      const p = await startTestServer(kind, { trustProxy: ['127.0.0.1'] });
      try {
        const guess = (i: number) =>
          p.api('/api/auth/login', {
            method: 'POST',
            headers: { 'x-forwarded-for': '203.0.113.9' },
            json: { username: 'admin', password: `guess-${i}` },
          });
        for (let i = 0; i < 7; i++) await guess(i);
        assert.equal((await guess(8)).status, 429);
        const elsewhere = await p.api('/api/auth/login', {
          method: 'POST',
          headers: { 'x-forwarded-for': '198.51.100.7' },
          json: { username: 'admin', password: 'admin-test-pw-1' },
        });
        assert.equal(elsewhere.status, 200, 'the admin is not locked out by a stranger');
      } finally {
        await p.stop();
      }
      // Once its wait is over the right password signs the pair in (and clears it for the tests that
      // sign in as the admin from here next): waited as the server says, however long this host took.
      let signedIn = here;
      for (const deadline = Date.now() + 60_000; signedIn.status === 429 && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, Number(signedIn.headers.get('retry-after') ?? 1) * 1000));
        signedIn = await t.api('/api/auth/login', { method: 'POST', json: { username: 'admin', password: 'admin-test-pw-1' } });
      }
      assert.equal(signedIn.status, 200, 'the right password after the wait');
    });

    it('checks the throttle and records the failure as one step: of 50 parallel wrong passwords only the free ones are checked', async () => {
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.api('/api/auth/login', { method: 'POST', json: { username: 'racer', password: `bad-${i}` } }).then((r) => r.status),
        ),
      );
      // The five free ones, plus one more each time the earned delay (2 s, 4 s, ...) ran out while the
      // burst was still being answered (a loaded host answers fifty checks slowly); never the 28 of a race.
      const elapsedMs = Date.now() - started;
      let later = 0;
      for (let waited = 0, n = FREE_FAILURES_PER_PAIR; (waited += pairDelayMs(n)) <= elapsedMs; n++) later++;
      const checked = results.filter((s) => s === 401).length;
      assert.ok(
        checked >= FREE_FAILURES_PER_PAIR && checked <= FREE_FAILURES_PER_PAIR + later,
        `${checked} checked in ${elapsedMs} ms: ${JSON.stringify(results)}`,
      );
      assert.equal(results.filter((s) => s === 429).length, 50 - checked);
    });

    it('logout revokes the token', async () => {
      const token = await t.login('broker');
      assert.equal((await t.api('/api/auth/me', { token })).status, 200);
      const out = await t.api('/api/auth/logout', { method: 'POST', token });
      assert.equal(out.status, 200);
      assert.equal((await t.api('/api/auth/me', { token })).status, 401);
    });

    it('refuses an expired token', async () => {
      const token = await t.login('viewer');
      await t.database.db.query("UPDATE auth_sessions SET expires_at = now() - interval '1 second'");
      const r = await t.api('/api/auth/me', { token });
      assert.equal(r.status, 401);
    });

    it('answers 401 without a session and 403 for the wrong role', async () => {
      const anon = await t.api('/api/users');
      assert.equal(anon.status, 401);
      assert.deepEqual(await anon.json(), { success: false, message: AUTH_REQUIRED_MESSAGE, error: AUTH_REQUIRED_MESSAGE });
      const forged = await t.api('/api/users', { token: 'not-a-real-token' });
      assert.equal(forged.status, 401);
      for (const who of ['viewer', 'broker'] as const) {
        const r = await t.api('/api/users', { token: await t.login(who) });
        assert.equal(r.status, 403, `${who} must not list users`);
      }
      const admin = await t.api('/api/users', { token: await t.login('admin') });
      assert.equal(admin.status, 200);
      const body = (await admin.json()) as { users: { username: string; password_hash?: string }[] };
      assert.deepEqual(body.users.map((u) => u.username).sort(), ['admin', 'broker', 'viewer']);
      assert.ok(body.users.every((u) => u.password_hash === undefined));
    });

    it('answers bad bodies with 400 naming the field, and oversized bodies with 413', async () => {
      const cases: [unknown, string][] = [
        [{ username: 'a' }, 'password'],
        [{ username: 5, password: 'x' }, 'username'],
        [{ username: 'a', password: 'x', role: 'admin' }, 'role'],
        [{ username: 'x'.repeat(10_000), password: 'x' }, 'username'],
        [[1, 2], 'body'],
      ];
      for (const [json, field] of cases) {
        const r = await t.api('/api/auth/login', { method: 'POST', json });
        assert.equal(r.status, 400, JSON.stringify(json).slice(0, 80));
        const body = (await r.json()) as { success: boolean; field: string; message: string };
        assert.equal(body.success, false);
        assert.equal(body.field, field);
        // The message names the field in words ("Password is required", "The request's body …").
        assert.match(body.message, new RegExp(field, 'i'));
      }
      const malformed = await t.api('/api/auth/login', {
        method: 'POST',
        body: '{"username":',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(malformed.status, 400);
      const huge = await t.api('/api/auth/login', { method: 'POST', json: { username: 'a', password: 'p'.repeat(400_000) } });
      assert.equal(huge.status, 413);
      const noBody = await t.api('/api/auth/login', { method: 'POST' });
      assert.equal(noBody.status, 400);
    });

    it('answers unknown API routes with a JSON 404', async () => {
      const r = await t.api('/api/does-not-exist');
      assert.equal(r.status, 404);
      const body = (await r.json()) as { success: boolean; message: string };
      assert.equal(body.success, false);
      assert.match(body.message, /No such API route/);
    });

    it('WebSocket: welcome, then a bad token is closed with a reason and a good one is authenticated', async () => {
      const wsUrl = t.url.replace('http', 'ws') + '/ws';
      const bad = new WebSocket(wsUrl);
      const badMessages: { type: string }[] = [];
      bad.on('message', (d) => badMessages.push(JSON.parse(String(d))));
      await new Promise((r) => bad.once('open', r));
      bad.send(JSON.stringify({ type: 'authenticate', token: 'nope' }));
      const [code, reason] = await new Promise<[number, string]>((r) => bad.once('close', (c, why) => r([c, String(why)])));
      assert.equal(code, WS_CLOSE.authFailed);
      assert.match(reason, /Invalid or expired token/);
      assert.equal(badMessages[0]?.type, 'welcome');

      const token = await t.login('broker');
      const good = new WebSocket(wsUrl);
      const got: { type: string; connectedUsers?: number; activeUsers?: { username: string }[]; timestamp?: number }[] = [];
      const waitFor = (type: string) =>
        new Promise<(typeof got)[number]>((resolve) => {
          const check = () => {
            const m = got.find((x) => x.type === type);
            if (m) resolve(m);
            else setTimeout(check, 10);
          };
          check();
        });
      good.on('message', (d) => got.push(JSON.parse(String(d))));
      await new Promise((r) => good.once('open', r));
      good.send(JSON.stringify({ type: 'authenticate', token }));
      const auth = await waitFor('authenticated');
      assert.equal(auth.connectedUsers, 1);
      assert.deepEqual(
        auth.activeUsers?.map((u) => u.username),
        ['broker'],
      );
      good.send(JSON.stringify({ type: 'ping', timestamp: 42 }));
      const pong = await waitFor('pong');
      assert.equal(pong.timestamp, 42);
      good.send('not json');
      const err = await waitFor('error');
      assert.ok(err);
      good.close();
    });
  });
}
