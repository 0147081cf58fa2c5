// Pre-trade risk held in memory and the kill switch, over FIX with our initiator, on both
// databases: worst-case exposure (working orders count as if filled), orders decided in order (the
// second of two orders in one batch sees the first working), a replace that raises the quantity,
// expired contracts leaving the position, and the kill switch end to end.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { ClientConnector, OrderAction } from '@fixdesk/protocol';
import { calendarSpread, maturity, newOrderSingle, TestFixClient, ts } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

const COMP = 'RISK_1';
const label = (yyyymm: string) =>
  `C5TC ${new Date(Date.UTC(Number(yyyymm.slice(0, 4)), Number(yyyymm.slice(4)) - 1, 1)).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })}-${yyyymm.slice(2, 4)}`;

for (const kind of TEST_DB_KINDS) {
  describe(`pre-trade risk and the kill switch on ${kind}`, () => {
    let t: TestServer;
    let broker: string;
    let admin: string;
    let viewer: string;
    let client: TestFixClient;
    let capId: number;
    let seq = 0;

    const call = async (method: string, path: string, token: string, json?: unknown) => {
      const r = await t.api(path, { method, token, ...(json === undefined ? {} : { json }) });
      return { status: r.status, body: (await r.json()) as { data: never; message?: string; error?: string; field?: string } };
    };
    const send = (o: { side?: string; qty?: string; month?: string }) => {
      const clOrdId = `RK-${kind}-${++seq}`;
      const body = newOrderSingle(clOrdId, { side: o.side, qty: o.qty });
      if (o.month) for (const f of body) if (f[0] === 200) f[1] = o.month;
      void client.send('D', body);
      return clOrdId;
    };
    const firstReport = async (clOrdId: string) => {
      const r = await client.waitForReport(clOrdId, (m) => m.msgType === '8');
      return { clOrdId, execType: r.get(150), text: r.get(58) };
    };
    const order = (o: { side?: string; qty?: string; month?: string }) => firstReport(send(o));
    const orderId = async (clOrdId: string) =>
      (
        await t.server.ctx.db.query<{ id: string }>('SELECT id::text AS id FROM orders WHERE clordid = $1 AND sendercompid = $2', [
          clOrdId,
          COMP,
        ])
      ).rows[0]!.id;
    const fill = async (clOrdId: string, qty: number) => {
      const id = await orderId(clOrdId);
      assert.equal((await call('POST', `/api/orders/${id}/accept`, broker, {})).status, 200);
      const r = await call('POST', `/api/orders/${id}/fill`, broker, { fillQty: qty, fillPrice: 27000 });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    };
    const capability = async (values: Record<string, unknown>) => {
      const r = await call('PUT', `/api/client-capabilities/${capId}`, admin, values);
      assert.equal(r.status, 200, JSON.stringify(r.body));
    };

    before(async () => {
      t = await startTestServer(kind);
      [broker, admin, viewer] = await Promise.all([t.login('broker'), t.login('admin'), t.login('viewer')]);
      const { rows } = await t.server.ctx.db.query<{ id: number }>(
        `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, max_orders_per_second)
         VALUES ($1, 'RK', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F,S,S', 1000) RETURNING id`,
        [COMP],
      );
      // The default capability: short selling barred.
      const cap = await t.server.ctx.db.query<{ id: number; can_short: boolean }>(
        `INSERT INTO client_capabilities (clientconnectors_id, asset_class, max_order_qty) VALUES ($1, 'FUTURES', 1000) RETURNING id, can_short`,
        [rows[0]!.id],
      );
      assert.equal(cap.rows[0]!.can_short, false);
      capId = cap.rows[0]!.id;
      // A fill long ago, in a contract whose month has ended: it leaves the position.
      await t.server.ctx.db.query(
        `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, maturity_month_year,
                             side, ordtype, price, orderqty, timeinforce, ordstatus, cumqty, leavesqty, avgpx, transacttime)
         VALUES ('RK-OLD-1', 'RK-OLD-1', $1, $2, 'FIXDESK', '2020-01-02', 'D', 'C5TC', '202001', '2', '2', 100, 40, '0', '2', 40, 0, 100, now())`,
        [rows[0]!.id, COMP],
      );
      client = new TestFixClient(COMP);
      await client.connect(t.server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    it('long 10 with short selling barred: of three sells of 10, one is acknowledged and two refused with the figures', async () => {
      const m = maturity(2);
      const bought = await order({ qty: '10', month: m });
      assert.equal(bought.execType, 'A', bought.text);
      await fill(bought.clOrdId, 10);
      const sells = await Promise.all([
        order({ side: '2', qty: '10', month: m }),
        order({ side: '2', qty: '10', month: m }),
        order({ side: '2', qty: '10', month: m }),
      ]);
      assert.deepEqual(
        sells.map((s) => s.execType),
        ['A', '8', '8'],
      );
      for (const s of sells.slice(1))
        assert.equal(
          s.text,
          `Client is not permitted to sell ${label(m)} short: position 10, working sells 10, this order 10 would leave -10`,
        );
      // The expired contract's old short of 40 counts nowhere.
      assert.equal(t.server.ctx.orders.riskExposure(COMP)!.get('C5TC|202001'), undefined);
      assert.deepEqual(t.server.ctx.orders.riskExposure(COMP)!.get(`C5TC|${m}`), { filled: '10', workingBuy: '0', workingSell: '10' });
    });

    it('long 10 with a long limit of 15: of three buys of 5, one is acknowledged and two refused', async () => {
      await capability({ max_position_long: '15' });
      const m = maturity(3);
      const bought = await order({ qty: '10', month: m });
      await fill(bought.clOrdId, 10);
      const buys = await Promise.all([order({ qty: '5', month: m }), order({ qty: '5', month: m }), order({ qty: '5', month: m })]);
      assert.deepEqual(
        buys.map((b) => b.execType),
        ['A', '8', '8'],
      );
      for (const b of buys.slice(1))
        assert.equal(
          b.text,
          `Net long position in ${label(m)} could reach 20 (position 10, working buys 5, this order 5), above the limit of 15`,
        );
    });

    it('20 sells of 1 sent at once from long 10: exactly 10 acknowledged, each decided after the one before', async () => {
      const m = maturity(4);
      const bought = await order({ qty: '10', month: m });
      await fill(bought.clOrdId, 10);
      const ids = Array.from({ length: 20 }, () => send({ side: '2', qty: '1', month: m }));
      const answers = await Promise.all(ids.map(firstReport));
      assert.deepEqual(
        answers.map((a) => a.execType),
        [...Array(10).fill('A'), ...Array(10).fill('8')],
      );
      assert.equal(
        answers[10]!.text,
        `Client is not permitted to sell ${label(m)} short: position 10, working sells 10, this order 1 would leave -1`,
      );
    });

    it('a fill, a cancel and a reject lower the exposure at once; a replace that raises the quantity past the limit is refused', async () => {
      const m = maturity(5);
      const bought = await order({ qty: '10', month: m });
      await fill(bought.clOrdId, 10);
      const sell = await order({ side: '2', qty: '10', month: m });
      assert.equal(sell.execType, 'A');
      // Canceled by the broker: its 10 no longer work, so another sale of 10 fits.
      assert.equal(
        (await call('POST', `/api/orders/${await orderId(sell.clOrdId)}/cancel`, broker, { reason: 'client asked by phone' })).status,
        200,
      );
      const again = await order({ side: '2', qty: '10', month: m });
      assert.equal(again.execType, 'A', again.text);
      // Rejected by the broker: the same.
      assert.equal(
        (await call('POST', `/api/orders/${await orderId(again.clOrdId)}/reject`, broker, { reason: 'price away from the market' })).status,
        200,
      );
      const third = await order({ side: '2', qty: '4', month: m });
      assert.equal(third.execType, 'A', third.text);
      assert.equal((await call('POST', `/api/orders/${await orderId(third.clOrdId)}/accept`, broker, {})).status, 200);
      // A replace raising the sale to 11 would leave -1: refused with an OrderCancelReject naming the figures.
      const repl = `RK-${kind}-${++seq}`;
      await client.send('G', [
        [11, repl],
        [38, '11'],
        [40, '2'],
        [41, third.clOrdId],
        [44, '27000'],
        [54, '2'],
        [55, 'C5TC'],
        [60, ts()],
        [167, 'FUT'],
        [200, m],
      ]);
      const refused = await client.waitForReport(repl, (x) => x.msgType === '9');
      assert.equal(
        refused.get(58),
        `Client is not permitted to sell ${label(m)} short: position 10, working sells 0, this order 11 would leave -1`,
      );
      // Raising it to 10 fits; while it waits for the broker the order counts at 10.
      const repl2 = `RK-${kind}-${++seq}`;
      await client.send('G', [
        [11, repl2],
        [38, '10'],
        [40, '2'],
        [41, third.clOrdId],
        [44, '27000'],
        [54, '2'],
        [55, 'C5TC'],
        [60, ts()],
        [167, 'FUT'],
        [200, m],
      ]);
      assert.equal((await client.waitForReport(repl2, (x) => x.msgType === '8')).get(150), 'E');
      assert.deepEqual(t.server.ctx.orders.riskExposure(COMP)!.get(`C5TC|${m}`), { filled: '10', workingBuy: '0', workingSell: '10' });
      assert.equal((await order({ side: '2', qty: '1', month: m })).execType, '8');
    });

    it('a multileg order counts each leg at its ratio in its own contract; a leg fill moves it from working to the position', async () => {
      const [near, far] = [maturity(6), maturity(7)];
      const bought = await order({ qty: '10', month: far });
      await fill(bought.clOrdId, 10);
      // Buy the near month, sell the far month twice over: 3 spreads sell 6 of the far month.
      const spread = (qty: string) => {
        const clOrdId = `RK-${kind}-${++seq}`;
        void client.send(
          'AB',
          calendarSpread(clOrdId, {
            qty,
            legs: [
              { maturity: near, side: '1' },
              { maturity: far, side: '2', ratio: '2' },
            ],
          }),
        );
        return firstReport(clOrdId);
      };
      const [first, second] = await Promise.all([spread('3'), spread('3')]);
      assert.equal(first.execType, 'A', first.text);
      assert.equal(second.execType, '8');
      assert.equal(
        second.text,
        `Leg 2: Client is not permitted to sell ${label(far)} short: position 10, working sells 6, this order 6 would leave -2`,
      );
      assert.deepEqual(t.server.ctx.orders.riskExposure(COMP)!.get(`C5TC|${near}`), { filled: '0', workingBuy: '3', workingSell: '0' });
      assert.deepEqual(t.server.ctx.orders.riskExposure(COMP)!.get(`C5TC|${far}`), { filled: '10', workingBuy: '0', workingSell: '6' });
      // The far leg filled in full (a leg fill counts in the leg's own lots: 3 spreads sell 6): the
      // position falls to 4 and nothing sells there any more.
      const id = await orderId(first.clOrdId);
      assert.equal((await call('POST', `/api/orders/${id}/accept`, broker, {})).status, 200);
      assert.equal((await call('POST', `/api/orders/${id}/fill`, broker, { fillQty: 6, fillPrice: 27000, legIndex: 1 })).status, 200);
      await t.server.ctx.orders.intakeIdle();
      for (let i = 0; i < 100 && t.server.ctx.orders.riskExposure(COMP)!.get(`C5TC|${far}`)!.workingSell !== '0'; i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(t.server.ctx.orders.riskExposure(COMP)!.get(`C5TC|${far}`), { filled: '4', workingBuy: '0', workingSell: '0' });
      assert.deepEqual(t.server.ctx.orders.riskExposure(COMP)!.get(`C5TC|${near}`), { filled: '0', workingBuy: '3', workingSell: '0' });
      assert.equal((await spread('2')).execType, 'A');
      assert.equal((await spread('1')).execType, '8');
    });

    it('the kill switch: working orders canceled at the client, new ones refused, recorded with who and why, resumed', async () => {
      await capability({ max_position_long: null, can_short: true });
      const working = await order({ qty: '3' });
      const accepted = await order({ qty: '4' });
      assert.equal((await call('POST', `/api/orders/${await orderId(accepted.clOrdId)}/accept`, broker, {})).status, 200);
      // A viewer may not; a reason is required.
      assert.equal((await call('POST', `/api/client-connectors/${COMP}/stop`, viewer, { reason: 'x' })).status, 403);
      const bad = await call('POST', `/api/client-connectors/${COMP}/stop`, broker, { reason: ' ' });
      assert.deepEqual([bad.status, bad.body.field], [400, 'reason']);

      const stopped = await call('POST', `/api/client-connectors/${COMP}/stop`, broker, { reason: 'algo sending duplicates' });
      assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
      const data = stopped.body.data as { canceled_orders: number; trading_stop: { stopped_by: string; reason: string } };
      assert.ok(data.canceled_orders >= 2, JSON.stringify(data));
      assert.deepEqual([data.trading_stop.stopped_by, data.trading_stop.reason], ['broker', 'algo sending duplicates']);
      for (const c of [working.clOrdId, accepted.clOrdId]) {
        const canceled = await client.waitForReport(c, (x) => x.get(150) === '4');
        assert.equal(canceled.get(39), '4');
      }
      const refused = await order({ qty: '1' });
      assert.deepEqual(
        [refused.execType, refused.text],
        ['8', 'Orders from this client are stopped by the desk (kill switch): algo sending duplicates'],
      );
      // Shown to every signed-in user; recorded in Order Actions with who and why.
      const listed = (await call('GET', '/api/client-connectors', viewer)).body.data as ClientConnector[];
      assert.equal(listed.find((c) => c.comp_id === COMP)!.trading_stop!.reason, 'algo sending duplicates');
      const actions = (await call('GET', `/api/order-actions?limit=50`, broker)).body.data as OrderAction[];
      const stop = actions.find((a) => a.action_type === 'CLIENT_STOP' && a.sendercompid === COMP);
      assert.deepEqual([stop?.user_id, stop?.notes], ['broker', 'algo sending duplicates']);
      assert.ok(
        actions.some(
          (a) => a.action_type === 'CANCEL' && a.clordid === working.clOrdId && a.notes === 'Kill switch: algo sending duplicates',
        ),
      );

      // It holds across a restart of the order core's caches.
      t.server.ctx.orders.invalidate();
      assert.equal((await order({ qty: '1' })).execType, '8');

      const resumed = await call('POST', `/api/client-connectors/${COMP}/resume`, broker, { reason: 'client fixed its algo' });
      assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
      const after = await order({ qty: '1' });
      assert.equal(after.execType, 'A', after.text);
      // The cancels stay.
      const st = await t.server.ctx.db.query<{ ordstatus: string }>(
        'SELECT ordstatus FROM orders WHERE clordid = $1 AND sendercompid = $2',
        [working.clOrdId, COMP],
      );
      assert.equal(st.rows[0]!.ordstatus, '4');
      assert.ok(
        ((await call('GET', `/api/order-actions?limit=50`, broker)).body.data as OrderAction[]).some(
          (a) => a.action_type === 'CLIENT_RESUME' && a.notes === 'client fixed its algo',
        ),
      );
    });
  });
}
