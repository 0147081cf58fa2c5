import assert from 'node:assert/strict';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { startTestServer } from '/work/wt-20/tests/support/server';
import { newOrderSingle, TestFixClient } from '/work/wt-20/tests/support/fix-client';
setInterval(() => process.stderr.write('tick ' + new Date().toISOString() + '\n'), 3000).unref();
const METRICS_TOKEN = 'metrics-scraper-token-0123456789';
const kind = 'pglite';
const t = await startTestServer('pglite', { metricsToken: METRICS_TOKEN });
process.stderr.write('started\n');
try {
      assert.equal((await t.api('/metrics')).status, 401);
process.stderr.write('line 0\n');
      assert.equal((await t.api('/metrics', { token: 'not-the-token-at-all-000000' })).status, 401);
process.stderr.write('line 1\n');
      assert.equal((await t.api('/metrics', { token: await t.login('broker') })).status, 403);
process.stderr.write('line 2\n');
      const admin = await t.api('/metrics', { token: await t.login('admin') });
process.stderr.write('line 3\n');
      assert.equal(admin.status, 200);
process.stderr.write('line 4\n');

      // Something to count: a client logs on and sends an order.
      const client = new TestFixClient('EEX_CLIENT_1');
process.stderr.write('line 7\n');
      try {
        await client.connect(t.server.ctx.fix.port);
        await client.send('D', newOrderSingle('M-1'));
        await client.waitFor(() => client.received.find((m) => m.get(11) === 'M-1'), 'the Pending New');
      } finally {
        await client.stop();
      }
      await t.server.ctx.services.refresh();
process.stderr.write('line 15\n');

      const r = await t.api('/metrics', { token: METRICS_TOKEN });
process.stderr.write('line 17\n');
      assert.equal(r.status, 200);
process.stderr.write('line 18\n');
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
process.stderr.write('line 19\n');
      const families = parsePrometheusTextFormat(await r.text());
process.stderr.write('line 20\n');
      const family = (name: string) => {
        const f = families.find((x) => x.name === name);
        assert.ok(f, `${name} is exported`);
        return f;
      };
process.stderr.write('line 25\n');
      const value = (name: string, labels: Record<string, string>) =>
        family(name).metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

      assert.equal(family('fixdesk_orders_received_total').type, 'COUNTER');
process.stderr.write('line 29\n');
      assert.equal(Number(value('fixdesk_orders_received_total', { client: 'EEX_CLIENT_1' })?.value), 1);
process.stderr.write('line 30\n');
      assert.ok(Number(value('fixdesk_fix_messages_total', { client: 'EEX_CLIENT_1', direction: 'in', msg_type: 'A' })?.value) >= 1);
process.stderr.write('line 31\n');
      assert.equal(family('fixdesk_order_intake_seconds').type, 'HISTOGRAM');
process.stderr.write('line 32\n');
      const intake = family('fixdesk_order_intake_seconds').metrics[0] as { count: string };
process.stderr.write('line 33\n');
      assert.equal(Number(intake.count), 1);
process.stderr.write('line 34\n');
      assert.equal(family('fixdesk_http_request_duration_seconds').type, 'HISTOGRAM');
process.stderr.write('line 35\n');
      assert.ok(family('fixdesk_http_request_duration_seconds').metrics.some((m) => m.labels?.route === '/api/auth/login'));
process.stderr.write('line 36\n');
      assert.equal(Number(value('fixdesk_service_healthy', { service: 'database' })?.value), 1);
process.stderr.write('line 37\n');
      assert.equal(Number(value('fixdesk_fix_session_logged_on', { client: 'EEX_CLIENT_1' })?.value), 0);
process.stderr.write('line 38\n');
      assert.equal(Number(value('fixdesk_fix_session_in_schedule', { client: 'EEX_CLIENT_1' })?.value), 1);
process.stderr.write('line 39\n');
      assert.ok(family('fixdesk_websocket_clients'));
process.stderr.write('line 40\n');
      assert.equal(Number(value('fixdesk_db_pool_connections', { state: 'max' })?.value), kind === 'pglite' ? 1 : 5);
process.stderr.write('line 41\n');
      assert.ok(family('fixdesk_process_cpu_user_seconds_total'));
process.stderr.write('line 42\n');
process.stderr.write('body done\n');
} catch (e) { console.log('FAILED', e); }
await t.stop();
process.stderr.write('stopped\n');
