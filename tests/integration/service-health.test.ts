// The Service Status list tells the truth: a FIX session whose client falls silent becomes Stale (its
// heartbeat is its last inbound message, measured against its HeartBtInt), the acceptor's heartbeat is a
// real probe of its port, and a database the server cannot reach is Offline. And GET /metrics: the
// Prometheus text format, read back with a parser of that format, behind a token or an admin sign-in.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS, TEST_POSTGRES_URL } from '@fixdesk/db/testing';
import type { ServiceStatusEntry, ServiceStatusResponse } from '@fixdesk/protocol';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import pg from 'pg';
import { newOrderSingle, TestFixClient, ts } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

/** A FIX message with its BodyLength and CheckSum. */
function fix(fields: Array<[number, string]>): string {
  const body = fields.map(([t, v]) => `${t}=${v}\x01`).join('');
  const head = `8=FIX.4.4\x019=${Buffer.byteLength(body, 'latin1')}\x01`;
  let sum = 0;
  for (const b of Buffer.from(head + body, 'latin1')) sum += b;
  return `${head}${body}10=${String(sum % 256).padStart(3, '0')}\x01`;
}

async function services(t: TestServer, token: string): Promise<Map<string, ServiceStatusEntry>> {
  const r = await t.api('/api/service-status', { token });
  assert.equal(r.status, 200);
  const body = (await r.json()) as ServiceStatusResponse;
  return new Map(body.data.services.map((s) => [s.name, s]));
}

for (const kind of TEST_DB_KINDS) {
  describe(`service health on ${kind}`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(kind, { metricsToken: METRICS_TOKEN });
    });
    after(async () => {
      await t?.stop();
    });

    it('a client that logs on and then says nothing becomes Stale past HeartBtInt x 1.5, with the TestRequest unanswered', async () => {
      const token = await t.login('viewer');
      // The connector allows a 2 s heartbeat (its default range starts at 5 s).
      const allowed = await t.api('/api/client-connectors/SGX_CLIENT_1', {
        method: 'PUT',
        token: await t.login('admin'),
        json: { heartbeat_min_sec: 2 },
      });
      assert.equal(allowed.status, 200, await allowed.text());
      // A raw client: Logon with HeartBtInt 2 (resetting both sequences), then silence.
      const socket: Socket = connect({ host: '127.0.0.1', port: t.server.ctx.fix.port });
      await new Promise((r) => socket.once('connect', r));
      let received = '';
      socket.on('data', (d) => (received += d.toString('latin1')));
      try {
        socket.write(
          fix([
            [35, 'A'],
            [34, '1'],
            [49, 'SGX_CLIENT_1'],
            [52, ts()],
            [56, 'FIXDESK'],
            [98, '0'],
            [108, '2'],
            [141, 'Y'],
          ]),
          'latin1',
        );
        await until('the Logon answer', async () => (received.includes('\x0135=A\x01') ? true : undefined), 15_000, 200);
        // The Logon answer can reach the client before the desk has recorded the logon (under load).
        const healthy = await until(
          'healthy after the logon',
          async () => {
            const entry = (await services(t, token)).get('fix-session:SGX_CLIENT_1');
            return entry?.status === 'healthy' ? entry : undefined;
          },
          15_000,
          200,
        );
        assert.equal(healthy.status, 'healthy');
        assert.equal(healthy.session?.heartBtIntSec, 2, "the client's HeartBtInt governs");

        const stale = await until(
          'Stale',
          async () => {
            const s = (await services(t, token)).get('fix-session:SGX_CLIENT_1')!;
            return s.status === 'stale' ? s : undefined;
          },
          15_000,
          200,
        );
        assert.equal(stale.isConnected, true, 'still logged on: silent, not gone');
        assert.ok(stale.staleDuration > 3_000, `silent for ${stale.staleDuration} ms`);
        // The engine sends a TestRequest at HeartBtInt x 1.2 of silence.
        const withTestRequest = await until(
          'the TestRequest counted',
          async () => {
            const s = (await services(t, token)).get('fix-session:SGX_CLIENT_1')!;
            return s.session && s.session.testRequests.sent > 0 ? s : undefined;
          },
          15_000,
          200,
        );
        assert.ok(received.includes('\x0135=1\x01'), 'a TestRequest reached the client');
        if (withTestRequest.session!.loggedOn)
          assert.ok(withTestRequest.session!.testRequests.unanswered >= 1, 'unanswered while logged on');
      } finally {
        socket.destroy();
      }
      // The engine gives up on the silent client; the list follows.
      const gone = await until(
        'logged off',
        async () => {
          const s = (await services(t, token)).get('fix-session:SGX_CLIENT_1')!;
          return s.isConnected ? undefined : s;
        },
        15_000,
        200,
      );
      assert.ok(['down', 'offline'].includes(gone.status), gone.status);
    });

    it("the acceptor's heartbeat is a probe of its port, not the clock", async () => {
      const token = await t.login('viewer');
      const a = (await services(t, token)).get('fix-acceptor')!;
      assert.equal(a.status, 'healthy');
      assert.equal(typeof a.metadata.probeMs, 'number');
      // Its heartbeat is when the last probe answered: it moves with the probes, once the list is
      // rebuilt (it is kept for a second) with a new one.
      await until(
        'the heartbeat moving with the probes',
        async () => {
          const e = (await services(t, token)).get('fix-acceptor')!;
          return e.lastHeartbeat && Date.parse(e.lastHeartbeat) > Date.parse(a.lastHeartbeat!) ? e : undefined;
        },
        15_000,
        200,
      );
      const api = (await services(t, token)).get('api')!;
      assert.equal(api.status, 'healthy');
      assert.equal(typeof api.metadata.probeMs, 'number');
    });

    it('GET /metrics: refused without a token, to a broker, and with a wrong token; the scraper token and an admin get the text format', async () => {
      assert.equal((await t.api('/metrics')).status, 401);
      assert.equal((await t.api('/metrics', { token: 'not-the-token-at-all-000000' })).status, 401);
      assert.equal((await t.api('/metrics', { token: await t.login('broker') })).status, 403);
      const admin = await t.api('/metrics', { token: await t.login('admin') });
      assert.equal(admin.status, 200);

      // Something to count: a client logs on and sends an order.
      const client = new TestFixClient('EEX_CLIENT_1');
      try {
        await client.connect(t.server.ctx.fix.port);
        await client.send('D', newOrderSingle('M-1'));
        await until('the Pending New', () => client.received.find((m) => m.get(11) === 'M-1'));
      } finally {
        await client.stop();
      }
      await t.server.ctx.services.refresh();

      const r = await t.api('/metrics', { token: METRICS_TOKEN });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await r.text();
      const families = parsePrometheusTextFormat(text);
      const family = (name: string) => {
        const f = families.find((x) => x.name === name);
        assert.ok(f, `${name} is exported`);
        return f;
      };
      const value = (name: string, labels: Record<string, string>) =>
        family(name).metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

      assert.equal(family('fixdesk_orders_received_total').type, 'COUNTER');
      assert.equal(Number(value('fixdesk_orders_received_total', { client: 'EEX_CLIENT_1' })?.value), 1);
      assert.ok(
        Number(value('fixdesk_fix_messages_total', { client: 'EEX_CLIENT_1', direction: 'in', msg_type: 'A' })?.value) >= 1,
        'the Logon counted',
      );
      assert.equal(family('fixdesk_order_intake_seconds').type, 'HISTOGRAM');
      const intake = family('fixdesk_order_intake_seconds').metrics[0] as { count: string };
      assert.equal(Number(intake.count), 1);
      assert.equal(family('fixdesk_http_request_duration_seconds').type, 'HISTOGRAM');
      // One series per method, route pattern and status (the parser keeps a histogram's buckets but drops its labels: they are read from the text).
      assert.match(
        text,
        /^fixdesk_http_request_duration_seconds_count\{method="POST",route="\/api\/auth\/login",status_code="200"\} \d+$/m,
      );
      assert.equal(Number(value('fixdesk_service_healthy', { service: 'database' })?.value), 1);
      assert.equal(Number(value('fixdesk_fix_session_logged_on', { client: 'EEX_CLIENT_1' })?.value), 0);
      assert.equal(Number(value('fixdesk_fix_session_in_schedule', { client: 'EEX_CLIENT_1' })?.value), 1);
      assert.ok(family('fixdesk_websocket_clients'), 'websocket clients');
      assert.equal(Number(value('fixdesk_db_pool_connections', { state: 'max' })?.value), kind === 'pglite' ? 1 : 5);
      assert.ok(family('fixdesk_process_cpu_user_seconds_total'), 'process metrics');
    });

    it("a drop copy session's queue: its unsent copies and the oldest one's age, in Service Status and /metrics", async () => {
      const admin = await t.login('admin');
      const made = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: { comp_id: 'HEALTH_COPIES', execution_id_prefix: 'HC1', session_type: 'drop_copy', drop_copy_of: ['SGX_CLIENT_1'] },
      });
      assert.equal(made.status, 200, await made.text());
      // The drop copy session is not logged on: the copy of the client's Pending New waits.
      const client = new TestFixClient('SGX_CLIENT_1');
      try {
        await client.connect(t.server.ctx.fix.port);
        await client.send('D', newOrderSingle('HC-1'));
        await until('the Pending New', () => client.received.find((m) => m.get(11) === 'HC-1'));
      } finally {
        await client.stop();
      }
      await t.server.ctx.services.refresh();
      const entry = (await services(t, admin)).get('fix-session:HEALTH_COPIES');
      assert.equal(entry?.description, 'Drop copy session with HEALTH_COPIES');
      assert.deepEqual(entry?.session?.dropCopy?.clients, ['SGX_CLIENT_1']);
      assert.equal(entry?.session?.dropCopy?.depth, 1);
      assert.equal(typeof entry?.session?.dropCopy?.lagSeconds, 'number');
      assert.equal((await services(t, admin)).get('fix-session:SGX_CLIENT_1')?.session?.dropCopy, undefined);

      // One scrape: its gauges are read from the list as it is now, not from the previous scrape's.
      const families = parsePrometheusTextFormat(await (await t.api('/metrics', { token: METRICS_TOKEN })).text());
      const gauge = (name: string) =>
        families.find((f) => f.name === name)?.metrics.find((m) => m.labels?.session === 'HEALTH_COPIES')?.value;
      assert.equal(Number(gauge('fixdesk_drop_copy_queue_depth')), 1);
      assert.ok(Number(gauge('fixdesk_drop_copy_lag_seconds')) >= 0);
    });

    if (kind === 'postgres') {
      it('the database going away makes it Offline (down), and Healthy again when it is back', async () => {
        const token = await t.login('viewer');
        const name = new URL(t.database.url!).pathname.slice(1);
        const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
        await admin.connect();
        try {
          // No new connections, and the server's are cut: the desk's database is gone.
          await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
          // Only idle connections: the pool replaces those quietly; cutting one in the middle of a query
          // would be another test (a checked-out client's error is not this one's subject).
          await admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND state = 'idle'",
            [name],
          );
          const down = await until(
            'database down',
            async () => {
              await t.server.ctx.services.refresh();
              const s = (await t.server.ctx.services.list(0)).services.find((x) => x.name === 'database')!;
              return s.status === 'down' ? s : undefined;
            },
            15_000,
            200,
          );
          assert.equal(down.isConnected, false);
          assert.equal(typeof down.metadata.error, 'string');
          assert.ok(down.lastHeartbeat, 'the last time it answered is kept');
        } finally {
          await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
          await admin.end();
        }
        const back = await until(
          'database back',
          async () => {
            const s = (await services(t, token)).get('database')!;
            return s.status === 'healthy' ? s : undefined;
          },
          15_000,
          200,
        );
        assert.equal(back.isConnected, true);
      });
    }
  });
}
