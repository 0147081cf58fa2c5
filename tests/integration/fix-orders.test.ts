import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { WebSocket } from 'ws';
import { startServer, type RunningServer } from '../../apps/server/src/server';
import { calendarSpread, newOrderSingle, TestFixClient, ts } from '../support/fix-client';
import { seededDatabase } from '../support/seeded-database';
import { DEMO_PASSWORD, signIn, testConfig } from '../support/server';
import { until } from '../support/until';

const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

for (const kind of TEST_DB_KINDS) {
  describe(`FIX order flow through the acceptor on ${kind}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let client: TestFixClient;
    let token: string;
    const config = testConfig();

    const api = (path: string, json?: unknown) =>
      fetch(server.url + path, {
        method: json === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: json === undefined ? undefined : JSON.stringify(json),
      });

    before(async () => {
      database = await createTestDatabase(kind, { template: seededDatabase() });
      server = await startServer(config, { db: database.db, logger: silent, testClient: { ports: 'off' } });
      token = await signIn(server.url, 'broker');
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await server?.close();
      await database?.dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    });

    it('shows the client as connected while logged on', async () => {
      // The logon is recorded just after our Logon answer leaves, so poll briefly.
      let list: { comp_id: string; is_connected: boolean }[] = [];
      for (let i = 0; i < 100; i++) {
        list = ((await (await api('/api/client-connectors')).json()) as { data: typeof list }).data;
        if (list.find((c) => c.comp_id === 'SGX_CLIENT_1')?.is_connected) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(list.find((c) => c.comp_id === 'SGX_CLIENT_1')?.is_connected, true);
      assert.equal(list.find((c) => c.comp_id === 'EEX_CLIENT_1')?.is_connected, false);
    });

    it('acknowledges a NewOrderSingle with Pending New and sends each broker decision as a report', async () => {
      await client.send('D', newOrderSingle('FIX-1', { qty: '10', price: '27000' }));
      const ack = await client.waitForReport('FIX-1', (m) => m.get(150) === 'A');
      assert.equal(ack.get(39), 'A');
      const id = ack.get(37)!;
      assert.match(id, /^BO\d{8}$/);

      assert.equal((await api(`/api/orders/${id}/accept`, {})).status, 200);
      await client.waitForReport('FIX-1', (m) => m.get(150) === '0');
      assert.equal((await api(`/api/orders/${id}/fill`, { fillQty: 3, fillPrice: 26990 })).status, 200);
      const partial = await client.waitForReport('FIX-1', (m) => m.get(150) === 'F' && m.get(39) === '1');
      assert.deepEqual([partial.get(32), partial.get(31), partial.get(14), partial.get(151)], ['3', '26990', '3', '7']);
      assert.equal((await api(`/api/orders/${id}/fill`, { fillQty: 7, fillPrice: 27000 })).status, 200);
      const full = await client.waitForReport('FIX-1', (m) => m.get(39) === '2');
      assert.equal(full.get(6), '26997');
      assert.equal((await api(`/api/orders/${id}/done-for-day`, {})).status, 200);
      await client.waitForReport('FIX-1', (m) => m.get(150) === '3');

      // Every message in and out is in the audit log with its sequence number and ids.
      const msgs = (
        (await (await api(`/api/fix-messages?clordid=FIX-1`)).json()) as {
          messages: { direction: string; msgtype: string; msgseqnum: number; brokerorderid: string | null }[];
        }
      ).messages;
      assert.ok(msgs.some((m) => m.direction === 'RX' && m.msgtype === 'D'));
      assert.equal(msgs.filter((m) => m.direction === 'TX' && m.msgtype === '8').length, 5);
      assert.ok(msgs.every((m) => m.msgseqnum > 0));
    });

    it('pushes new orders, updates, reports, actions and connection changes to signed-in browsers', async () => {
      const ws = new WebSocket(server.url.replace('http', 'ws') + '/ws');
      const got: {
        type: string;
        orderData?: { clordid: string; ordstatus: string; brokerorderid: string };
        orderInfo?: { event: string; comp_id: string; clordid: string };
        data?: { action_type?: string; exectype?: string; clordid?: string };
        comp_id?: string;
        is_connected?: boolean;
      }[] = [];
      ws.on('message', (d) => got.push(JSON.parse(String(d))));
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'authenticate', token }));
      await until('ws authenticated', () => got.some((m) => m.type === 'authenticated'));

      await client.send('D', newOrderSingle('FIX-WS'));
      const created = await until('new_order', () => got.find((m) => m.type === 'new_order' && m.orderData?.clordid === 'FIX-WS'));
      assert.equal(created.orderData!.ordstatus, 'A');
      await until('pending new report', () =>
        got.find((m) => m.type === 'execution_report' && m.data?.clordid === 'FIX-WS' && m.data.exectype === 'A'),
      );
      assert.equal((await api(`/api/orders/${created.orderData!.brokerorderid}/accept`, {})).status, 200);
      await until('order_update', () =>
        got.find((m) => m.type === 'order_update' && m.orderData?.clordid === 'FIX-WS' && m.orderData.ordstatus === '0'),
      );
      await until('order_action', () => got.find((m) => m.type === 'order_action' && m.data?.action_type === 'ACCEPT'));
      // Spec 000 §4, §7: a client's status request changes nothing; the desk gets the order
      // as stored in order_data, with the order info saying the client asked.
      const before = got.length;
      await client.send('H', [
        [11, 'FIX-WS'],
        [54, '1'],
        [55, 'C5TC'],
      ]);
      await client.waitForReport('FIX-WS', (m) => m.get(150) === 'I');
      const info = await until('order_data', () => got.find((m) => m.type === 'order_data' && m.orderData?.clordid === 'FIX-WS'));
      assert.equal(info.orderData!.ordstatus, '0', 'the order as stored');
      assert.deepEqual(
        { event: info.orderInfo?.event, comp_id: info.orderInfo?.comp_id, clordid: info.orderInfo?.clordid },
        { event: 'status_request', comp_id: 'SGX_CLIENT_1', clordid: 'FIX-WS' },
      );
      assert.ok(!got.slice(before).some((m) => m.type === 'order_update' || m.type === 'execution_report'), 'no change is announced');

      const other = new TestFixClient('EEX_CLIENT_1');
      await other.connect(server.ctx.fix.port);
      await until('connected status', () =>
        got.find((m) => m.type === 'client_connection_status' && m.comp_id === 'EEX_CLIENT_1' && m.is_connected),
      );
      await other.stop();
      await until('disconnected status', () =>
        got.find((m) => m.type === 'client_connection_status' && m.comp_id === 'EEX_CLIENT_1' && m.is_connected === false),
      );
      const sessions = (
        (await (await api('/api/client-sessions?comp_id=EEX_CLIENT_1')).json()) as {
          data?: { session_end: string | null; disconnect_reason: string | null }[];
        }
      ).data;
      if (sessions) assert.ok(sessions.some((s) => s.session_end !== null));
      ws.close();
    });

    it('logs a session out when its connector is deactivated, and refuses its next logon', async () => {
      const admin = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'admin-test-pw-1' }),
      });
      const adminToken = ((await admin.json()) as { token: string }).token;
      const put = (json: unknown) =>
        fetch(`${server.url}/api/client-connectors/EEX_CLIENT_1`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(json),
        });
      const other = new TestFixClient('EEX_CLIENT_1');
      await other.connect(server.ctx.fix.port);
      assert.equal((await put({ is_active: false })).status, 200);
      await until('logged out', () => !other.isLoggedOn);
      await other.stop();
      const again = new TestFixClient('EEX_CLIENT_1');
      await assert.rejects(again.connect(server.ctx.fix.port, {}, 1500), /timed out/);
      await again.stop();
      assert.equal((await put({ is_active: true })).status, 200);
    });

    it('checks the logon password and never shows it in the FIX message audit; sign-out closes live sockets', async () => {
      const admin = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'admin-test-pw-1' }),
      });
      const adminToken = ((await admin.json()) as { token: string }).token;
      const put = (json: unknown) =>
        fetch(`${server.url}/api/client-connectors/EEX_CLIENT_1`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(json),
        });
      assert.equal((await put({ fix_password: 'S3cret-pw' })).status, 200);
      const wrong = new TestFixClient('EEX_CLIENT_1');
      await assert.rejects(wrong.connect(server.ctx.fix.port, { password: 'guess' }, 1500), /timed out/);
      await wrong.stop();
      const right = new TestFixClient('EEX_CLIENT_1');
      await right.connect(server.ctx.fix.port, { password: 'S3cret-pw' });
      await right.stop();
      const logons = (
        (await (await api('/api/fix-messages?msgType=A&compId=EEX_CLIENT_1&limit=50')).json()) as { messages: { raw_fix: string }[] }
      ).messages;
      assert.ok(logons.some((m) => m.raw_fix.includes('554=********')));
      assert.ok(logons.every((m) => !m.raw_fix.includes('S3cret-pw') && !m.raw_fix.includes('554=guess')));
      assert.equal((await put({ fix_password: null })).status, 200);

      // A socket opened with a token is closed when that token signs out.
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'viewer', password: DEMO_PASSWORD }),
      });
      const viewerToken = ((await login.json()) as { token: string }).token;
      const ws = new WebSocket(server.url.replace('http', 'ws') + '/ws');
      const types: string[] = [];
      ws.on('message', (d) => types.push((JSON.parse(String(d)) as { type: string }).type));
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'authenticate', token: viewerToken }));
      await until('authenticated', () => types.includes('authenticated'));
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      await fetch(`${server.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${viewerToken}` } });
      assert.equal(await closed, 4003);
    });

    it('rejects a bad order with an execution report and keeps the session up', async () => {
      await client.send('D', newOrderSingle('FIX-BAD', { symbol: 'ZZZ' }));
      const rej = await client.waitForReport('FIX-BAD');
      assert.deepEqual([rej.get(150), rej.get(39), rej.get(103)], ['8', '8', '1']);
      assert.match(rej.get(58)!, /Unknown symbol ZZZ/);
      assert.ok(client.isLoggedOn);
    });

    it('answers an unsupported application message with a BusinessMessageReject', async () => {
      const seq = await client.send('R', [
        [131, 'QR-1'],
        [146, '1'],
        [55, 'C5TC'],
      ]);
      const j = await until('business reject', () => client.received.find((m) => m.msgType === 'j'));
      assert.equal(j.get(380), '3');
      assert.equal(j.get(45), String(seq));
    });

    it('takes a NewOrderMultileg and reports leg fills', async () => {
      await client.send('AB', calendarSpread('FIX-ML'));
      const ack = await client.waitForReport('FIX-ML', (m) => m.get(150) === 'A');
      const id = ack.get(37)!;
      assert.equal((await api(`/api/orders/${id}/accept`, {})).status, 200);
      assert.equal((await api(`/api/orders/${id}/fill`, { fillQty: 2, fillPrice: 27300, legIndex: 0 })).status, 200);
      assert.equal((await api(`/api/orders/${id}/fill`, { fillQty: 2, fillPrice: 27100, legIndex: 1 })).status, 200);
      const done = await client.waitForReport('FIX-ML', (m) => m.get(39) === '2');
      assert.equal(done.get(14), '2');
      assert.equal(done.get(6), '200');
      // MultiLegReportingType: the order-level reports say 3 (multileg), each leg fill 2 (one leg).
      assert.equal(ack.get(442), '3');
      const legFills = client.received.filter((m) => m.get(11) === 'FIX-ML' && m.get(150) === 'F');
      assert.equal(legFills.length, 2);
      for (const f of legFills) assert.equal(f.get(442), '2');
    });

    it('handles a cancel request confirmed by the broker', async () => {
      await client.send('D', newOrderSingle('FIX-C1'));
      const ack = await client.waitForReport('FIX-C1', (m) => m.get(150) === 'A');
      const id = ack.get(37)!;
      await api(`/api/orders/${id}/accept`, {});
      await client.send('F', [
        [11, 'FIX-C1-X'],
        [37, id],
        [38, '10'],
        [41, 'FIX-C1'],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
      await client.waitForReport('FIX-C1-X', (m) => m.get(150) === '6');
      assert.equal((await api(`/api/orders/${id}/cancel-request/confirm`, {})).status, 200);
      const canceled = await client.waitForReport('FIX-C1-X', (m) => m.get(150) === '4');
      assert.equal(canceled.get(41), 'FIX-C1');
      // The cancel's ClOrdID is now the order's: a new order under it is a duplicate, refused on a session that stays up.
      const logons = client.logons;
      await client.send('D', newOrderSingle('FIX-C1-X'));
      const refused = await client.waitForReport('FIX-C1-X', (m) => m.get(150) === '8');
      assert.equal(refused.get(103), '6', 'OrdRejReason 6: duplicate order');
      await client.send('D', newOrderSingle('FIX-C1-Y'));
      await client.waitForReport('FIX-C1-Y', (m) => m.get(150) === 'A');
      assert.equal(client.logons, logons, 'no reconnect');
      assert.ok(client.isLoggedOn);
    });

    it('survives a server restart: the order, the reports queued meanwhile and the sequence numbers carry on', async () => {
      await client.send('D', newOrderSingle('FIX-R1'));
      const ack = await client.waitForReport('FIX-R1', (m) => m.get(150) === 'A');
      const id = ack.get(37)!;
      const before = client.status();

      // The server stops (the client sees a Logout); the broker accepts on the restarted server before the client is back.
      await server.close();
      server = await startServer({ ...config, fixPort: config.fixPort }, { db: database.db, logger: silent, testClient: { ports: 'off' } });
      token = await signIn(server.url, 'broker');
      assert.equal((await api(`/api/orders/${id}/accept`, {})).status, 200);

      await client.stop();
      await client.connect(server.ctx.fix.port);
      const accepted = await client.waitForReport('FIX-R1', (m) => m.get(150) === '0');
      assert.equal(accepted.get(97), 'Y', 'a report sent after recovery is flagged PossResend');
      const afterStatus = client.status();
      assert.ok(afterStatus.nextSenderMsgSeqNum > before.nextSenderMsgSeqNum, 'client numbers carry on');
      assert.ok(afterStatus.nextTargetMsgSeqNum > before.nextTargetMsgSeqNum, 'server numbers carry on');
      const order = ((await (await api(`/api/orders/${id}`)).json()) as { data: { ordstatus: string } }).data;
      assert.equal(order.ordstatus, '0');
    });
  });
}
