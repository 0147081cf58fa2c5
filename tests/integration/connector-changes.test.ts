// Client connector changes take effect without a restart (spec 001 "Client Connectors"): a new connector
// can log on at once; heartbeat, allowed IPs and schedule changes apply at the next logon; and the
// connector's secrets are shown to administrators only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { MemoryStoreFactory } from '@fixdesk/fix';
import { logonAttempt, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

const COMP = 'NEW_FIX_CLIENT';
const ALL_DAYS = 'M,T,W,T,F,S,S';
const DAY_LETTERS = ['S', 'M', 'T', 'W', 'T', 'F', 'S'];

interface Connector {
  comp_id: string;
  fix_password: string | null;
  tls_key: string | null;
  heartbeatint: number;
}

interface FixMessageRecord {
  direction: 'TX' | 'RX';
  msgtype: string;
  sender_comp_id: string;
  raw_fix: string;
}

for (const kind of TEST_DB_KINDS) {
  describe(`client connector changes without a restart on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    // The new client's sequence numbers, kept across its logons as a real client keeps them.
    const stores = new MemoryStoreFactory();
    const put = async (compId: string, json: unknown) => {
      const r = await t.api(`/api/client-connectors/${compId}`, { method: 'PUT', token: admin, json });
      assert.equal(r.status, 200, await r.text());
    };
    const refusedLogons = async (compId: string) =>
      (
        (await (await t.api(`/api/fix-messages?compId=${compId}&msgType=5&direction=TX`, { token: viewer })).json()) as {
          messages: FixMessageRecord[];
        }
      ).messages;

    before(async () => {
      // A TLS port: a certificate is issued only where a TLS logon can use it.
      t = await startTestServer(kind, { fixTlsPort: 0 });
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
    });
    after(async () => {
      await t?.stop();
    });

    it('lets a connector created through the API log on at once', async () => {
      const r = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: {
          comp_id: COMP,
          execution_id_prefix: 'NFX',
          timezone: 'UTC',
          trading_days: ALL_DAYS,
          start_time: '00:00',
          end_time: '23:59:59',
          whitelisted_ips: '127.0.0.1, ::1',
        },
      });
      assert.equal(r.status, 200, await r.text());
      const client = new TestFixClient(COMP, stores);
      try {
        await client.connect(t.server.ctx.fix.port, {}, 5000);
        assert.ok(client.isLoggedOn);
        // The logon is recorded just after our Logon answer leaves: poll briefly.
        let connected = false;
        for (let i = 0; i < 100 && !connected; i++) {
          const list = (
            (await (await t.api('/api/client-connectors', { token: viewer })).json()) as {
              data: { comp_id: string; is_connected: boolean }[];
            }
          ).data;
          connected = list.find((c) => c.comp_id === COMP)?.is_connected ?? false;
          if (!connected) await new Promise((res) => setTimeout(res, 20));
        }
        assert.equal(connected, true);
      } finally {
        await client.stop();
      }
    });

    it('refuses the next logon, telling the unauthenticated peer nothing, once the allowed IPs exclude the client', async () => {
      await put(COMP, { whitelisted_ips: '10.1.2.3, 192.168.0.0/16' });
      const before = (await refusedLogons(COMP)).length;
      const attempt = await logonAttempt(t.server.ctx.fix.port, COMP, stores);
      assert.equal(attempt.loggedOn, false);
      // The connection is closed with nothing sent: no Logout reaches the client, none is recorded.
      assert.ok(
        attempt.events.some((e) => e.startsWith('event: disconnected: ')),
        attempt.events.join('\n'),
      );
      assert.ok(!attempt.events.some((e) => e.startsWith('in: ')), attempt.events.join('\n'));
      assert.equal((await refusedLogons(COMP)).length, before);
      // The operator sees why in the client's session history.
      const { rows: history } = await t.database.db.query<{ disconnect_reason: string; remote_address: string }>(
        `SELECT disconnect_reason, remote_address FROM client_sessions WHERE comp_id = $1 ORDER BY id DESC LIMIT 1`,
        [COMP],
      );
      assert.equal(history[0]?.disconnect_reason, 'logon refused: Connection from 127.0.0.1 not allowed');
      assert.equal(history[0]?.remote_address, '127.0.0.1');
      // An empty list allows any address again.
      await put(COMP, { whitelisted_ips: '' });
      const ok = await logonAttempt(t.server.ctx.fix.port, COMP, stores);
      assert.equal(ok.loggedOn, true, ok.events.join('\n'));
    });

    it('refuses the next logon outside the trading days or hours once the schedule changes', async () => {
      const today = DAY_LETTERS[new Date().getUTCDay()]!;
      // Every day but today (by letter: Tuesday and Thursday share T, Saturday and Sunday share S).
      const otherDays = ['M', 'T', 'W', 'F', 'S'].filter((d) => d !== today).join(',');
      await put(COMP, { trading_days: otherDays, start_time: '00:00', end_time: '23:59:59' });
      const offDay = await logonAttempt(t.server.ctx.fix.port, COMP, stores);
      assert.equal(offDay.loggedOn, false);
      assert.ok(
        offDay.events.some((e) => e.includes('Logon outside of session time')),
        offDay.events.join('\n'),
      );

      // Today, but a one-minute window that ended two hours ago.
      const h = (new Date().getUTCHours() + 22) % 24;
      const hh = String(h).padStart(2, '0');
      await put(COMP, { trading_days: ALL_DAYS, start_time: `${hh}:00`, end_time: `${hh}:01` });
      const offHours = await logonAttempt(t.server.ctx.fix.port, COMP, stores);
      assert.equal(offHours.loggedOn, false);
      assert.ok(
        offHours.events.some((e) => e.includes('Logon outside of session time')),
        offHours.events.join('\n'),
      );
      const refusals = await refusedLogons(COMP);
      assert.ok(refusals.filter((m) => m.raw_fix.includes('\x0158=Logon outside of session time\x01')).length >= 2);

      await put(COMP, { trading_days: ALL_DAYS, start_time: '00:00', end_time: '23:59:59' });
      assert.equal((await logonAttempt(t.server.ctx.fix.port, COMP, stores)).loggedOn, true);
    });

    it("refuses a Logon whose HeartBtInt is outside the connector's range, saying why; 0 only where allowed", async () => {
      const attempt = (heartBtIntSec: number) => logonAttempt(t.server.ctx.fix.port, COMP, stores, { heartBtIntSec });
      for (const hb of [0, 4, 121, 999999]) {
        const refused = await attempt(hb);
        assert.equal(refused.loggedOn, false, `HeartBtInt ${hb}`);
        const reason = `HeartBtInt (108) of ${hb} is outside the allowed range 5-120 seconds`;
        assert.ok(
          refused.events.some((e) => e.includes(reason)),
          refused.events.join('\n'),
        );
        const { rows } = await t.database.db.query<{ disconnect_reason: string }>(
          `SELECT disconnect_reason FROM client_sessions WHERE comp_id = $1 ORDER BY id DESC LIMIT 1`,
          [COMP],
        );
        assert.equal(rows[0]?.disconnect_reason, `logon refused: ${reason}`);
      }
      assert.equal((await attempt(5)).loggedOn, true);
      assert.equal((await attempt(120)).loggedOn, true);
      // The connector's own interval stays inside its range, and the range is not empty.
      const bad = async (json: unknown, field: string, message: string) => {
        const r = await t.api(`/api/client-connectors/${COMP}`, { method: 'PUT', token: admin, json });
        assert.equal(r.status, 400);
        const body = (await r.json()) as { field?: string; error?: string; message?: string };
        assert.equal(body.field, field, JSON.stringify(body));
        assert.match(JSON.stringify(body), new RegExp(message));
      };
      await bad({ heartbeat_min_sec: 60 }, 'heartbeatint', 'Heartbeat interval 30 s is outside the allowed range 60-120 s');
      await bad({ heartbeat_min_sec: 90, heartbeat_max_sec: 60 }, 'heartbeat_min_sec', 'Minimum heartbeat 90 s is above the maximum 60 s');
      await put(COMP, { heartbeat_allow_zero: true, heartbeat_max_sec: 60 });
      assert.equal((await attempt(0)).loggedOn, true, 'HeartBtInt 0 once allowed');
      assert.equal((await attempt(61)).loggedOn, false, 'the new maximum applies at the next logon');
      await put(COMP, { heartbeat_allow_zero: false, heartbeat_max_sec: 120 });
    });

    it("applies a heartbeat interval change at the simulated client's next logon", async () => {
      const logonHeartBtInts = async () =>
        (
          (await (await t.api('/api/fix-messages?compId=SGX_CLIENT_1&msgType=A', { token: viewer })).json()) as {
            messages: FixMessageRecord[];
          }
        ).messages.map((m) => ({
          direction: m.direction,
          hb: /\x01108=(\d+)\x01/.exec(m.raw_fix)?.[1],
        }));
      // The latest logon's two messages (the Logon and our answer), in either order. The inbound
      // Logon's record is written once it was processed, which can trail the client's own view.
      // On timeout the last two seen, for the assertion that follows to show.
      const latest = async (want?: string) => {
        let two: Array<{ direction: string; hb: string | undefined }> = [];
        await until(
          `both logon records with HeartBtInt ${want}`,
          async () => {
            two = (await logonHeartBtInts()).slice(0, 2).sort((a, b) => a.direction.localeCompare(b.direction));
            return !want || two.every((m) => m.hb === want);
          },
          5000,
          25,
        ).catch(() => undefined);
        return two;
      };
      const connect = async () => {
        const r = await t.api('/test-client/SGX_CLIENT_1/connect', { method: 'POST', token: broker, json: {} });
        assert.equal(r.status, 200, await r.text());
        await until(
          'the simulated client to log on',
          async () =>
            ((await (await t.api('/test-client/SGX_CLIENT_1/status', { token: broker })).json()) as { fixConnected?: boolean })
              .fixConnected,
          10_000,
          25,
        );
      };
      const disconnect = async () => {
        const r = await t.api('/test-client/SGX_CLIENT_1/disconnect', { method: 'POST', token: broker, json: {} });
        assert.equal(r.status, 200, await r.text());
      };

      await put('SGX_CLIENT_1', { heartbeatint: 7 });
      await connect();
      // The acceptor's copy of the session: the client's Logon and our answer both say 7.
      assert.deepEqual(await latest('7'), [
        { direction: 'RX', hb: '7' },
        { direction: 'TX', hb: '7' },
      ]);
      // A change while logged on waits for the next logon.
      await put('SGX_CLIENT_1', { heartbeatint: 11 });
      assert.equal((await logonHeartBtInts()).filter((m) => m.hb === '11').length, 0);
      await disconnect();
      await connect();
      assert.deepEqual(await latest('11'), [
        { direction: 'RX', hb: '11' },
        { direction: 'TX', hb: '11' },
      ]);
      await disconnect();
      await put('SGX_CLIENT_1', { heartbeatint: 30 });
    });

    it('shows fix_password to administrators reading one connector only, never in a list; tls_key to no read at all', async () => {
      await put(COMP, { fix_password: 'N3w-secret-pw' });
      // The key exists once the desk's CA issues the client's certificate (a PUT cannot write it).
      const issued = await t.api(`/api/client-connectors/${COMP}/generate-certs`, {
        method: 'POST',
        token: admin,
        json: { commonName: 'new-fix-client.example', organization: 'New Fix Client Ltd', country: 'US' },
      });
      const issuedText = await issued.text();
      assert.equal(issued.status, 200, issuedText);
      // The key is in that answer, once.
      const tlsKey = (JSON.parse(issuedText) as { data: { privateKeyPem: string } }).data.privateKeyPem;
      assert.match(tlsKey, /^-----BEGIN PRIVATE KEY-----/);
      for (const token of [broker, viewer]) {
        const listed = ((await (await t.api('/api/client-connectors', { token })).json()) as { data: Connector[] }).data.find(
          (c) => c.comp_id === COMP,
        )!;
        const one = ((await (await t.api(`/api/client-connectors/${COMP}`, { token })).json()) as { data: Connector }).data;
        for (const c of [listed, one]) {
          assert.equal(c.fix_password, null);
          assert.equal(c.tls_key, null);
        }
        const raw = await (await t.api(`/api/client-connectors/${COMP}`, { token })).text();
        assert.ok(!raw.includes('N3w-secret-pw') && !raw.includes('PRIVATE KEY'), raw);
        const rawList = await (await t.api('/api/client-connectors', { token })).text();
        assert.ok(!rawList.includes('N3w-secret-pw') && !rawList.includes('PRIVATE KEY'));
      }
      // A list never carries them, not even an administrator's; reading the one connector gives
      // the FIX password, never the private key (it was on every administrator's read).
      const rawAdminList = await (await t.api('/api/client-connectors', { token: admin })).text();
      assert.ok(!rawAdminList.includes('N3w-secret-pw') && !rawAdminList.includes('PRIVATE KEY'));
      const rawOne = await (await t.api(`/api/client-connectors/${COMP}`, { token: admin })).text();
      const one = JSON.parse(rawOne) as { data: Connector };
      assert.equal(one.data.fix_password, 'N3w-secret-pw');
      assert.equal(one.data.tls_key, null);
      assert.ok(!rawOne.includes('PRIVATE KEY') && !rawOne.includes(tlsKey.split('\n')[1]!), "no private key in an administrator's read");
      // Nor does a non-administrator see them through the connector's write answer: it may not write at all.
      assert.equal((await t.api(`/api/client-connectors/${COMP}`, { method: 'PUT', token: broker, json: { notes: 'x' } })).status, 403);
    });
  });
}
