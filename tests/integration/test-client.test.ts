// The test-client service (spec 000 §7): simulated clients logged on to our own acceptor, controlled
// over their localhost ports and through the signed-in proxy path, with the client's own blotter.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import {
  buildNewOrderMultileg,
  buildNewOrderSingle,
  contractMonthOptions,
  fixForDisplay,
  quarterOptions,
  serializeFixMessage,
  type ClientData,
} from '@fixdesk/domain';
import type {
  ClientBlotterResponse,
  SendOrderResponse,
  TestClientControlResponse,
  TestClientStatus,
  WsServerMessage,
} from '@fixdesk/protocol';
import pino from 'pino';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../apps/server/src/server';
import { ADMIN_PASSWORD, DEMO_PASSWORD, testConfig } from '../support/server';
import { until } from '../support/until';

const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const SGX: ClientData = {
  compId: 'SGX_CLIENT_1',
  targetCompId: 'FIXDESK',
  clientName: 'Straits Shipping Capital',
  clientLei: '549300STRAITS000SG15',
  clientContact: 'Mei Lin Tan',
};

type Json = Record<string, unknown>;

function outright(clOrdId: string, o: { qty?: number; price?: number; side?: string } = {}): string {
  const month = contractMonthOptions(new Date())[2]!.value;
  const built = buildNewOrderSingle(
    { symbol: 'C5TC', contractMonth: month, side: o.side ?? '1', quantity: o.qty ?? 10, orderType: '2', price: o.price ?? 27000, clOrdId },
    { client: SGX, now: new Date(), msgSeqNum: 1 },
  );
  return serializeFixMessage(built.fields);
}

for (const kind of TEST_DB_KINDS) {
  describe(`test-client service on ${kind}`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    const config = testConfig();
    const tokens: Record<string, string> = {};
    const pushes: WsServerMessage[] = [];
    let socket: WebSocket | undefined;

    const login = async (username: string) => {
      const r = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD }),
      });
      return ((await r.json()) as { token: string }).token;
    };
    const call = async (path: string, opts: { token?: string | null; json?: unknown; method?: string } = {}) => {
      const headers: Record<string, string> = {};
      const token = opts.token === undefined ? tokens.broker : opts.token;
      if (token) headers.authorization = `Bearer ${token}`;
      if (opts.json !== undefined) headers['content-type'] = 'application/json';
      const r = await fetch(server.url + path, {
        method: opts.method ?? (opts.json === undefined ? 'GET' : 'POST'),
        headers,
        body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
      });
      return { status: r.status, body: (await r.json()) as Json };
    };
    const tc = (compId: string, endpoint: string, json?: unknown) =>
      call(
        `/test-client/${compId}/${endpoint}`,
        json === undefined && endpoint !== 'connect' && endpoint !== 'disconnect' ? {} : { json: json ?? {} },
      );
    const blotter = async (compId = 'SGX_CLIENT_1') => (await tc(compId, 'orders')).body as unknown as ClientBlotterResponse;
    const brokerOrder = (clOrdId: string) =>
      until(`broker order ${clOrdId}`, async () => {
        const list = (await call('/api/orders?sendercompid=SGX_CLIENT_1')).body as unknown as Array<{
          clordid: string;
          brokerorderid: string;
          ordstatus: string;
          pendingRequest: unknown;
        }>;
        return list.find((o) => o.clordid === clOrdId);
      });
    const clientOrder = (clOrdId: string, pred: (o: ClientBlotterResponse['orders'][number]) => boolean, what: string) =>
      until(what, async () => (await blotter()).orders.find((o) => (o.id === clOrdId || o.clordid === clOrdId) && pred(o)));

    const start = async () => {
      server = await startServer(config, { db: database.db, logger: silent, testClient: { ports: 'auto' } });
      for (const u of ['admin', 'broker', 'viewer']) tokens[u] = await login(u);
      socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
      socket.on('message', (data) => {
        const m = JSON.parse(String(data)) as WsServerMessage;
        if (m.type === 'welcome') socket!.send(JSON.stringify({ type: 'authenticate', token: tokens.viewer }));
        pushes.push(m);
      });
      await until('ws authenticated', () => pushes.some((m) => m.type === 'authenticated'));
    };

    before(async () => {
      database = await createTestDatabase(kind, { migrate: false });
      await start();
    });
    after(async () => {
      socket?.close();
      await server?.close();
      await database?.dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    });

    it('serves the control API on a localhost port per connector: status, health, connect', async () => {
      const client = server.ctx.testClients.require('SGX_CLIENT_1');
      const port = client.port.listeningPort;
      assert.ok(port, 'the control port listens');
      const local = (path: string, method = 'GET') =>
        fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { authorization: `Bearer ${tokens.broker}` } }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as Json,
        }));

      const health = await local('/health');
      assert.deepEqual(health.body, { status: 'ok', compId: 'SGX_CLIENT_1', fixConnected: false, running: false });
      const status = (await local('/status')).body as unknown as TestClientStatus;
      assert.equal(status.state, 'stopped');
      assert.equal(status.nextClOrdId, 'SGX-1.1', 'client order id rule: prefix, orders from sender + 1, .1');
      assert.equal(status.listeningPort, port);
      assert.deepEqual(status.counters, { sent: 0, pending: 0, filled: 0, completed: 0 });

      const connected = (await local('/connect', 'POST')).body as unknown as TestClientControlResponse;
      assert.equal(connected.success, true, connected.error);
      assert.equal(connected.status.fixConnected, true);
      assert.equal(connected.status.state, 'logged_on');
      assert.equal((await local('/health')).body.fixConnected, true);

      // The acceptor sees the client: the connector shows connected and the browser is told. The
      // connector's row says so once the server's logon handling wrote it, a moment after the client
      // heard the Logon answer (the client's connect resolves then).
      await until('the connector shown connected', async () => {
        const connectors = (await call('/api/client-connectors')).body.data as Array<{ comp_id: string; is_connected: boolean }>;
        return connectors.find((c) => c.comp_id === 'SGX_CLIENT_1')?.is_connected === true;
      });
      await until('status push', () =>
        pushes.some((m) => m.type === 'test_client_status' && m.comp_id === 'SGX_CLIENT_1' && m.data.fixConnected),
      );
      await until('acceptor push', () =>
        pushes.some((m) => m.type === 'client_connection_status' && m.comp_id === 'SGX_CLIENT_1' && m.is_connected),
      );
    });

    it('guards the localhost control port like the proxy path, and against other sites and their addresses', async () => {
      const port = server.ctx.testClients.require('EEX_CLIENT_1').port.listeningPort;
      assert.ok(port);
      const order = outright('PORT-1').replace('SGX_CLIENT_1', 'EEX_CLIENT_1');
      const post = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}/send-order`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', ...headers },
          body: JSON.stringify({ fixMessage: order }),
        }).then((r) => r.status);
      assert.equal(await post({}), 401, 'no sign-in');
      assert.equal(await post({ authorization: `Bearer ${tokens.viewer}` }), 403, 'a viewer cannot trade');
      // A page of another site: a text/plain POST (no preflight) carries its Origin; DNS rebinding its own Host.
      assert.equal(await post({ authorization: `Bearer ${tokens.broker}`, origin: 'https://evil.example' }), 403);
      assert.equal(await post({ authorization: `Bearer ${tokens.broker}`, 'sec-fetch-site': 'cross-site' }), 403);
      // fetch will not set Host: a plain HTTP request does, as a rebinding browser would.
      const rebound = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: '/status', headers: { host: `evil.example:${port}`, authorization: `Bearer ${tokens.broker}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(rebound, 403, 'a Host other than the listening address');
      const status = await fetch(`http://127.0.0.1:${port}/status`, { headers: { authorization: `Bearer ${tokens.broker}` } });
      assert.equal(status.status, 200);
      assert.equal(((await status.json()) as TestClientStatus).counters.sent, 0, 'none of the refused orders was sent');
    });

    it('guards the proxy path: 401 without sign-in, 403 for a viewer, 404 for an unknown comp id', async () => {
      assert.equal((await call('/test-client/SGX_CLIENT_1/status', { token: null })).status, 401);
      const asViewer = await call('/test-client/SGX_CLIENT_1/send-order', { token: tokens.viewer, json: { fixMessage: outright('V-1') } });
      assert.equal(asViewer.status, 403);
      assert.equal((await call('/test-client/SGX_CLIENT_1/status', { token: tokens.viewer })).status, 403);
      assert.equal((await call('/test-client/SGX_CLIENT_1/health', { token: tokens.admin })).status, 200);
      const unknown = await call('/test-client/NOPE/status');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error, 'No test client proxy path configured for comp_id: NOPE');
      const noEndpoint = await call('/test-client/SGX_CLIENT_1/nothing-here');
      assert.equal(noEndpoint.status, 404);
      assert.match(String(noEndpoint.body.error), /No such test client endpoint/);
    });

    it('refuses bad messages with the reason, before anything is sent', async () => {
      const good = outright('BAD-0');
      const send = async (fixMessage: unknown) => {
        const r = await tc('SGX_CLIENT_1', 'send-order', { fixMessage });
        return { status: r.status, error: String(r.body.error ?? '') };
      };
      const badSum = good.replace(/10=\d{3}\u0001$/, '10=000\u0001');
      let r = await send(badSum);
      assert.equal(r.status, 400);
      assert.match(r.error, /^Invalid FIX message: CheckSum \(10\) is 000 but the message sums to \d{3}$/);

      const badLength = good.replace(/\u00019=(\d+)\u0001/, (_m, n: string) => `\u00019=${Number(n) + 5}\u0001`);
      r = await send(badLength);
      assert.equal(r.status, 400);
      assert.match(r.error, /BodyLength \(9\) is \d+ but the body is \d+ bytes/);

      // Side (54) left out: the dictionary names the missing tag.
      const fields = good
        .split('\u0001')
        .filter((f) => f && !/^(8|9|10|54)=/.test(f))
        .map((f) => f.split('=') as [string, string]);
      r = await send(serializeFixMessage(fields.map(([t, v]) => [Number(t), v])));
      assert.equal(r.status, 400);
      assert.equal(r.error, 'Required tag missing: tag 54 (Side)');

      r = await send(
        serializeFixMessage([
          [35, 'A'],
          [49, 'SGX_CLIENT_1'],
          [56, 'FIXDESK'],
          [34, '1'],
          [52, '20260101-00:00:00'],
          [98, '0'],
          [108, '30'],
        ]),
      );
      assert.equal(r.status, 400);
      assert.match(r.error, /MsgType \(35\) A cannot be sent here/);

      r = await send('not a fix message');
      assert.equal(r.status, 400);
      assert.match(r.error, /FIX message/);

      r = await send(undefined);
      assert.equal(r.status, 400);
      assert.match(r.error, /fixMessage/);

      // A client that is not running cannot send.
      const eex = await tc('EEX_CLIENT_1', 'send-order', { fixMessage: good });
      assert.equal(eex.status, 409);
      assert.equal(eex.body.error, 'FIX Client not running. Start client first.');

      assert.equal((await blotter()).orders.length, 0, 'nothing reached the blotter');
    });

    it('sends an order with its own session header and follows it through the broker to done for day', async () => {
      const before = (await tc('SGX_CLIENT_1', 'status')).body as unknown as TestClientStatus;
      // A preview built for another session and an old sequence number: the header is replaced.
      const raw = fixForDisplay(outright('SGX-1.1', { qty: 10, price: 27000 }).replace('49=SGX_CLIENT_1', '49=SOMEONE_ELSE'));
      const fixed = serializeFixMessage(
        raw
          .split('|')
          .filter(Boolean)
          .map((f) => [Number(f.slice(0, f.indexOf('='))), f.slice(f.indexOf('=') + 1)] as [number, string]),
      );
      const sent = (await tc('SGX_CLIENT_1', 'send-order', { fixMessage: fixForDisplay(fixed) })).body as unknown as SendOrderResponse;
      assert.equal(sent.success, true, sent.error);
      assert.equal(sent.clOrdId, 'SGX-1.1');
      assert.equal(sent.clOrderId, 'SGX-1.1');
      assert.equal(sent.msgSeqNum, before.nextSenderMsgSeqNum);

      const order = await brokerOrder('SGX-1.1');
      assert.equal(order.ordstatus, 'A');
      const id = order.brokerorderid;
      await clientOrder('SGX-1.1', (o) => o.ordstatus === 'A' && o.brokerorderid === id, 'pending new on the client');

      assert.equal((await call(`/api/orders/${id}/accept`, { json: {} })).status, 200);
      assert.equal((await call(`/api/orders/${id}/fill`, { json: { fillQty: 4, fillPrice: 26990 } })).status, 200);
      assert.equal((await call(`/api/orders/${id}/fill`, { json: { fillQty: 6, fillPrice: 27000 } })).status, 200);
      assert.equal((await call(`/api/orders/${id}/done-for-day`, { json: {} })).status, 200);

      const done = await clientOrder('SGX-1.1', (o) => o.ordstatus === '3', 'done for day on the client');
      assert.deepEqual([done.cumqty, done.leavesqty, done.avgpx, done.lastqty, done.lastpx], ['10', '0', '26996', '6', '27000']);
      assert.equal(done.tradername, 'Mei Lin Tan');
      const executions = (await blotter()).executions.filter((e) => e.orderKey === 'SGX-1.1');
      assert.deepEqual(
        executions.map((e) => e.exectype),
        ['A', '0', 'F', 'F', '3'],
      );

      // Every report reached the browser as it arrived, with the order as it then stood.
      await until(
        'five execution pushes',
        () => pushes.filter((m) => m.type === 'test_client_execution' && m.execution.orderKey === 'SGX-1.1').length === 5,
      );
      assert.ok(
        pushes.some((m) => m.type === 'test_client_order' && m.order.id === 'SGX-1.1'),
        'the order itself was pushed when sent',
      );

      const after = (await tc('SGX_CLIENT_1', 'status')).body as unknown as TestClientStatus;
      assert.equal(after.nextClOrdId, 'SGX-2.1');
      assert.deepEqual(after.counters, { sent: 1, pending: 0, filled: 0, completed: 1 });
      const again = await tc('SGX_CLIENT_1', 'send-order', { fixMessage: outright('SGX-1.1') });
      assert.equal(again.status, 409, 'a ClOrdID is used once');
    });

    it('sends a quarter strip as a NewOrderMultileg with its legs', async () => {
      const quarter = quarterOptions(new Date())[2]!.value;
      const built = buildNewOrderMultileg(
        {
          type: 'quarter',
          side: '2',
          stripSymbol: 'C5TC',
          quarterYear: quarter,
          quantity: 5,
          orderType: '2',
          price: 100,
          clOrdId: 'SGX-2.1',
        },
        { client: SGX, now: new Date() },
      );
      const sent = (await tc('SGX_CLIENT_1', 'send-order', { fixMessage: serializeFixMessage(built.fields) }))
        .body as unknown as SendOrderResponse;
      assert.equal(sent.success, true, sent.error);
      const o = await clientOrder('SGX-2.1', (x) => x.ordstatus === 'A', 'strip pending');
      assert.equal(o.msgtype, 'AB');
      assert.equal(o.symbol, `C5TC-${quarter}`);
      assert.equal(o.legs.length, 3);
      assert.deepEqual(
        o.legs.map((l) => [l.legSide, l.legRatioQty, l.orderQty]),
        [
          ['2', '1', '5'],
          ['2', '1', '5'],
          ['2', '1', '5'],
        ],
      );
    });

    it('cancels with a real OrderCancelRequest and replaces with a real OrderCancelReplaceRequest', async () => {
      await tc('SGX_CLIENT_1', 'send-order', { fixMessage: outright('SGX-3.1', { qty: 8, price: 26000 }) });
      const c = await brokerOrder('SGX-3.1');
      await call(`/api/orders/${c.brokerorderid}/accept`, { json: {} });
      await clientOrder('SGX-3.1', (o) => o.ordstatus === '0', 'accepted');
      const cancel = (await tc('SGX_CLIENT_1', 'cancel-order', { origClOrdId: 'SGX-3.1', text: 'changed my mind' }))
        .body as unknown as SendOrderResponse;
      assert.equal(cancel.success, true, cancel.error);
      assert.equal(cancel.msgType, 'F');
      assert.equal(cancel.clOrdId, 'SGX-3.2');
      await clientOrder('SGX-3.1', (o) => o.ordstatus === '6' && o.pendingRequest?.type === 'F', 'pending cancel on the client');
      const again = await tc('SGX_CLIENT_1', 'cancel-order', { origClOrdId: 'SGX-3.1' });
      assert.equal(again.status, 400);
      assert.match(String(again.body.error), /already has a cancel request \(SGX-3\.2\)/);
      assert.equal((await call(`/api/orders/${c.brokerorderid}/cancel-request/confirm`, { json: {} })).status, 200);
      const canceled = await clientOrder('SGX-3.1', (o) => o.ordstatus === '4', 'canceled on the client');
      assert.equal(canceled.pendingRequest, null);

      await tc('SGX_CLIENT_1', 'send-order', { fixMessage: outright('SGX-4.1', { qty: 8, price: 26000 }) });
      const r = await brokerOrder('SGX-4.1');
      await call(`/api/orders/${r.brokerorderid}/accept`, { json: {} });
      await clientOrder('SGX-4.1', (o) => o.ordstatus === '0', 'accepted');
      const replace = (await tc('SGX_CLIENT_1', 'replace-order', { origClOrdId: 'SGX-4.1', price: 26500, orderQty: 12 }))
        .body as unknown as SendOrderResponse;
      assert.equal(replace.success, true, replace.error);
      assert.equal(replace.msgType, 'G');
      await clientOrder('SGX-4.1', (o) => o.ordstatus === 'E', 'pending replace on the client');
      assert.equal((await call(`/api/orders/${r.brokerorderid}/replace-request/confirm`, { json: {} })).status, 200);
      const replaced = await clientOrder('SGX-4.1', (o) => o.clordid === 'SGX-4.2' && o.pendingRequest === null, 'replaced on the client');
      assert.deepEqual([replaced.price, replaced.orderqty, replaced.origclordid], ['26500', '12', 'SGX-4.1']);

      const unknown = await tc('SGX_CLIENT_1', 'cancel-order', { origClOrdId: 'NOT-MINE' });
      assert.equal(unknown.status, 404);
      const noChange = await tc('SGX_CLIENT_1', 'replace-order', { origClOrdId: 'SGX-4.1' });
      assert.equal(noChange.status, 400);
    });

    it('a cancel of an order the broker has not accepted yet goes Pending Cancel; refused, the order is pending again', async () => {
      await tc('SGX_CLIENT_1', 'send-order', { fixMessage: outright('SGX-5.1', { qty: 3 }) });
      await clientOrder('SGX-5.1', (o) => o.ordstatus === 'A', 'pending new');
      const cancel = (await tc('SGX_CLIENT_1', 'cancel-order', { origClOrdId: 'SGX-5.1' })).body as unknown as SendOrderResponse;
      assert.equal(cancel.success, true, cancel.error);
      await clientOrder('SGX-5.1', (o) => o.ordstatus === '6', 'pending cancel on the client');
      const held = await until('the request on the desk', async () => {
        const o = await brokerOrder('SGX-5.1');
        return o.ordstatus === '6' && o.pendingRequest ? o : undefined;
      });
      // It cannot be filled before it is accepted, request or not.
      assert.equal((await call(`/api/orders/${held.brokerorderid}/fill`, { json: { fillQty: '1', fillPrice: '27000' } })).status, 409);
      const refused = await call(`/api/orders/${held.brokerorderid}/cancel-request/refuse`, { json: { reason: 'Already working it' } });
      assert.equal(refused.status, 200, JSON.stringify(refused.body));
      const o = await clientOrder('SGX-5.1', (x) => x.pendingRequest === null && x.ordstatus === 'A', 'cancel refused');
      const reject = (await blotter()).executions.find((e) => e.orderKey === o.id && e.msgtype === '9');
      assert.ok(reject, 'the OrderCancelReject is on the client blotter');
      assert.equal(reject.clordid, 'SGX-5.2');
      assert.equal(reject.text, 'Already working it');
      assert.equal((await brokerOrder('SGX-5.1')).ordstatus, 'A', 'pending new again on the desk');
      assert.equal((await call(`/api/orders/${held.brokerorderid}/accept`, { json: {} })).status, 200);
    });

    it("logs on with the connector's FIX username and password, and follows deactivation", async () => {
      const put = await call('/api/client-connectors/EEX_CLIENT_1', {
        token: tokens.admin,
        method: 'PUT',
        json: { fix_username: 'eex-user', fix_password: 's3cret-pw' },
      });
      assert.equal(put.status, 200);
      // Connected right after the change: the client logs on with the credentials as stored (not the
      // copy its service updates after the change was answered; tests/integration/test-client-credentials.test.ts).
      const connected = (await tc('EEX_CLIENT_1', 'connect')).body as unknown as TestClientControlResponse;
      assert.equal(connected.success, true, connected.error);
      assert.equal(connected.status.fixConnected, true, 'the acceptor took the credentials');
      const off = await call('/api/client-connectors/EEX_CLIENT_1', { token: tokens.admin, method: 'PUT', json: { is_active: false } });
      assert.equal(off.status, 200);
      await until('test client removed', async () => (await tc('EEX_CLIENT_1', 'status')).status === 404);
      assert.equal(server.ctx.testClients.get('EEX_CLIENT_1'), undefined);
      await until('EEX session ended', async () => {
        const list = (await call('/api/client-connectors')).body.data as Array<{ comp_id: string; is_connected: boolean }>;
        return list.find((c) => c.comp_id === 'EEX_CLIENT_1')?.is_connected === false;
      });
      await call('/api/client-connectors/EEX_CLIENT_1', { token: tokens.admin, method: 'PUT', json: { is_active: true } });
      await until('test client back', async () => (await tc('EEX_CLIENT_1', 'status')).status === 200);
    });

    it('keeps its numbers and its blotter across a stop and a server restart', async () => {
      const stopped = (await tc('SGX_CLIENT_1', 'disconnect')).body as unknown as TestClientControlResponse;
      assert.equal(stopped.success, true);
      assert.equal(stopped.status.state, 'stopped');
      const nextSender = stopped.status.nextSenderMsgSeqNum;
      assert.ok(nextSender > 5, 'numbers were used');
      await until('connector disconnected', async () => {
        const list = (await call('/api/client-connectors')).body.data as Array<{ comp_id: string; is_connected: boolean }>;
        return list.find((c) => c.comp_id === 'SGX_CLIENT_1')?.is_connected === false;
      });

      socket?.close();
      await server.close();
      await start();
      const status = (await tc('SGX_CLIENT_1', 'status')).body as unknown as TestClientStatus;
      assert.equal(status.nextSenderMsgSeqNum, nextSender, 'durable sequence numbers');
      const orders = (await blotter()).orders;
      assert.deepEqual(orders.map((o) => o.id).sort(), ['SGX-1.1', 'SGX-2.1', 'SGX-3.1', 'SGX-4.1', 'SGX-5.1']);
      assert.equal(orders.find((o) => o.id === 'SGX-1.1')?.ordstatus, '3');
      const connected = (await tc('SGX_CLIENT_1', 'connect')).body as unknown as TestClientControlResponse;
      assert.equal(connected.success, true, connected.error);
      assert.ok(connected.status.nextSenderMsgSeqNum > nextSender, 'the logon continued the numbering');
      await tc('SGX_CLIENT_1', 'disconnect');
    });
  });
}
