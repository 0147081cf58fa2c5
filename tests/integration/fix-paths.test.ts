// Every way an order can be refused, seen by a real client over a FIX session against the running server:
// the broker's reject, a refused replace and cancel, and each intake rule (spec 000 §5, spec 001 §5 and
// the client capabilities of spec 001 §3/§6). Each refusal must reach the client as an ExecutionReport
// 150=8/39=8 with the OrdRejReason (103) and a Text (58) a person can act on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { calendarSpread, newOrderSingle, TestFixClient, ts, type ReceivedMessage } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

const COMP = 'SGX_CLIENT_1';

/** A NewOrderMultileg calendar spread (buy the near month, sell the next) at a spread price. */
const spread = (clOrdId: string, price: string, qty = '5') => calendarSpread(clOrdId, { price, qty });

for (const kind of TEST_DB_KINDS) {
  describe(`refusals over a FIX session on ${kind}`, () => {
    let t: TestServer;
    let client: TestFixClient;
    let broker: string;
    let admin: string;
    let n = 0;
    const id = (what: string) => `${what}-${++n}`;

    const post = (path: string, json: unknown = {}) => t.api(path, { method: 'POST', token: broker, json });
    const putConnector = async (json: unknown) => {
      const r = await t.api(`/api/client-connectors/${COMP}`, { method: 'PUT', token: admin, json });
      assert.equal(r.status, 200, await r.text());
    };
    /** Changes the client's capability row directly (there is no write API yet) and drops the server's cache. */
    const setCapability = async (sql: string) => {
      await t.database.db.query(
        `UPDATE client_capabilities SET ${sql} WHERE clientconnectors_id = (SELECT id FROM client_connectors WHERE comp_id = $1)`,
        [COMP],
      );
      t.server.ctx.orders.invalidate();
    };
    const pendingNew = async (clOrdId: string, body = newOrderSingle(clOrdId)) => {
      await client.send('D', body);
      const ack = await client.waitForReport(clOrdId, (m) => m.get(150) === 'A');
      return ack.get(37)!;
    };
    /** Sends an order and returns the report that refuses it, checking 150/39 and that nothing was booked. */
    const refused = async (msgType: 'D' | 'AB', clOrdId: string, body: Array<[number, string]>): Promise<ReceivedMessage> => {
      await client.send(msgType, body);
      const er = await client.waitForReport(clOrdId, (m) => m.msgType === '8' && m.get(150) !== 'A', `refusal of ${clOrdId}`);
      assert.equal(er.get(150), '8', `${clOrdId}: ExecType`);
      assert.equal(er.get(39), '8', `${clOrdId}: OrdStatus`);
      assert.equal(er.get(37), 'NONE', `${clOrdId}: no broker order id`);
      assert.equal(er.get(151), '0');
      assert.equal(client.received.filter((m) => m.get(11) === clOrdId).length, 1, `${clOrdId}: exactly one report`);
      return er;
    };
    const expectRefusal = async (
      msgType: 'D' | 'AB',
      clOrdId: string,
      body: Array<[number, string]>,
      ordRejReason: string,
      text: string,
    ) => {
      const er = await refused(msgType, clOrdId, body);
      assert.deepEqual([er.get(103), er.get(58)], [ordRejReason, text], clOrdId);
    };

    before(async () => {
      t = await startTestServer(kind);
      [broker, admin] = await Promise.all([t.login('broker'), t.login('admin')]);
      client = new TestFixClient(COMP);
      await client.connect(t.server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    it('sends the broker reject with its reason in 58 and the OrdRejReason given', async () => {
      const c1 = id('REJ');
      const id1 = await pendingNew(c1);
      const r = await post(`/api/orders/${id1}/reject`, { text: 'Credit line exhausted for this client' });
      assert.equal(r.status, 200);
      const body = (await r.json()) as { success: boolean; order: { ordstatus: string; brokerorderid: string } };
      assert.equal(body.success, true);
      assert.equal(body.order.ordstatus, '8');
      const er = await client.waitForReport(c1, (m) => m.get(150) === '8');
      assert.deepEqual(
        [er.get(39), er.get(37), er.get(58), er.get(103), er.get(151), er.get(14)],
        ['8', id1, 'Credit line exhausted for this client', '0', '0', '0'],
      );

      const c2 = id('REJ');
      const id2 = await pendingNew(c2);
      assert.equal((await post(`/api/orders/${id2}/reject`, { rejectReason: 3, reason: 'Above the desk limit' })).status, 200);
      const er2 = await client.waitForReport(c2, (m) => m.get(150) === '8');
      assert.deepEqual([er2.get(39), er2.get(103), er2.get(58)], ['8', '3', 'Above the desk limit']);

      // A reject needs a reason: nothing is sent to the client without one.
      const c3 = id('REJ');
      const id3 = await pendingNew(c3);
      const blank = await post(`/api/orders/${id3}/reject`, { text: '   ' });
      assert.equal(blank.status, 400);
      assert.match(((await blank.json()) as { message: string }).message, /A rejection reason is required/);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(client.received.filter((m) => m.get(11) === c3).length, 1, 'only the Pending New');
    });

    it('answers a replace the broker refuses with an OrderCancelReject 434=2 carrying the reason', async () => {
      const orig = id('RPL');
      const orderId = await pendingNew(orig);
      assert.equal((await post(`/api/orders/${orderId}/accept`)).status, 200);
      await client.waitForReport(orig, (m) => m.get(150) === '0');
      const repl = `${orig}-R`;
      await client.send('G', [
        [11, repl],
        [37, orderId],
        [38, '20'],
        [40, '2'],
        [41, orig],
        [44, '27100'],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
      const pending = await client.waitForReport(repl, (m) => m.get(150) === 'E');
      assert.deepEqual([pending.get(39), pending.get(41)], ['E', orig]);

      const r = await post(`/api/orders/${orderId}/replace-request/refuse`, { reason: 'Market moved, call the desk' });
      assert.equal(r.status, 200);
      assert.equal(((await r.json()) as { order: { ordstatus: string; orderqty: string } }).order.ordstatus, '0');
      const rej = await client.waitForReport(repl, (m) => m.msgType === '9');
      assert.deepEqual(
        [rej.get(37), rej.get(41), rej.get(39), rej.get(434), rej.get(58)],
        [orderId, orig, '0', '2', 'Market moved, call the desk'],
      );
      assert.ok(rej.get(102) !== undefined, 'CxlRejReason present');
      // The order keeps its terms: a later report still says 10 at 27000.
      assert.equal((await post(`/api/orders/${orderId}/fill`, { fillQty: 1, fillPrice: 27000 })).status, 200);
      const fill = await client.waitForReport(orig, (m) => m.get(150) === 'F');
      assert.deepEqual([fill.get(38), fill.get(44), fill.get(151)], ['10', '27000', '9']);

      // Refusing needs a reason.
      const again = await post(`/api/orders/${orderId}/replace-request/refuse`, {});
      assert.equal(again.status, 400);
    });

    it('answers a cancel the broker refuses with an OrderCancelReject 434=1 carrying the reason', async () => {
      const orig = id('CXL');
      const orderId = await pendingNew(orig);
      assert.equal((await post(`/api/orders/${orderId}/accept`)).status, 200);
      await client.waitForReport(orig, (m) => m.get(150) === '0');
      const cxl = `${orig}-X`;
      await client.send('F', [
        [11, cxl],
        [37, orderId],
        [38, '10'],
        [41, orig],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
      await client.waitForReport(cxl, (m) => m.get(150) === '6');
      const r = await post(`/api/orders/${orderId}/cancel-request/refuse`, { reason: 'Already worked on the exchange' });
      assert.equal(r.status, 200);
      const rej = await client.waitForReport(cxl, (m) => m.msgType === '9');
      assert.deepEqual(
        [rej.get(37), rej.get(41), rej.get(39), rej.get(434), rej.get(58)],
        [orderId, orig, '0', '1', 'Already worked on the exchange'],
      );
      const order = ((await (await t.api(`/api/orders/${orderId}`, { token: broker })).json()) as { data: { ordstatus: string } }).data;
      assert.equal(order.ordstatus, '0');
    });

    it('refuses an unknown or inactive symbol with 103=1', async () => {
      const c1 = id('SYM');
      await expectRefusal('D', c1, newOrderSingle(c1, { symbol: 'ZZZ' }), '1', 'Unknown symbol ZZZ');
      await t.database.db.query("UPDATE security_master SET is_active = false WHERE symbol = 'P4TC'");
      t.server.ctx.orders.invalidate();
      try {
        const c2 = id('SYM');
        await expectRefusal('D', c2, newOrderSingle(c2, { symbol: 'P4TC' }), '1', 'Symbol P4TC is not active');
      } finally {
        await t.database.db.query("UPDATE security_master SET is_active = true WHERE symbol = 'P4TC'");
        t.server.ctx.orders.invalidate();
      }
      const c3 = id('SYM');
      await pendingNew(c3, newOrderSingle(c3, { symbol: 'P4TC' }));
    });

    it('refuses a side other than 1/2 and an order type other than 1/2 with 103=11', async () => {
      const c1 = id('SIDE');
      await expectRefusal('D', c1, newOrderSingle(c1, { side: '5' }), '11', "Invalid side '5': side must be '1' (Buy) or '2' (Sell)");
      const c2 = id('TYPE');
      // Stop (3) is a FIX value the session accepts; the desk does not take it.
      const body: Array<[number, string]> = newOrderSingle(c2, { ordType: '3' });
      await expectRefusal('D', c2, body, '11', 'Invalid order type: 3. Must be 1 (Market) or 2 (Limit)');
    });

    it('refuses a limit order without a positive price, but takes a spread at zero or below', async () => {
      const c1 = id('PX');
      await expectRefusal('D', c1, newOrderSingle(c1, { price: '0' }), '99', 'Limit orders require a valid price greater than zero');
      const c2 = id('PX');
      await expectRefusal('D', c2, newOrderSingle(c2, { price: '-100' }), '99', 'Limit orders require a valid price greater than zero');
      const c3 = id('PX');
      const noPrice = newOrderSingle(c3).filter(([tag]) => tag !== 44);
      await expectRefusal('D', c3, noPrice, '99', 'Limit orders require a valid price greater than zero');
      // A market order needs no price.
      const c4 = id('PX');
      await pendingNew(c4, newOrderSingle(c4, { ordType: '1' }));

      for (const px of ['0', '-250']) {
        const c = id('SPR');
        await client.send('AB', spread(c, px));
        const ack = await client.waitForReport(c, (m) => m.msgType === '8');
        assert.deepEqual([ack.get(150), ack.get(39), ack.get(44)], ['A', 'A', px], `spread at ${px}`);
      }
    });

    it('refuses a quantity of zero or below with 103=13', async () => {
      for (const qty of ['0', '-5']) {
        const c = id('QTY');
        await expectRefusal('D', c, newOrderSingle(c, { qty }), '13', 'Order quantity must be greater than 0');
      }
      const c = id('QTY');
      await expectRefusal('D', c, newOrderSingle(c, { qty: '2.5' }), '13', 'Order quantity 2.5 must be a whole number of lots');
    });

    it('refuses a ClOrdID the client already used today with 103=6, and the session stays up', async () => {
      const c = id('DUP');
      await pendingNew(c);
      const logons = client.logons;
      await client.send('D', newOrderSingle(c, { qty: '3' }));
      const er = await client.waitForReport(c, (m) => m.get(150) === '8');
      assert.deepEqual([er.get(39), er.get(103), er.get(58), er.get(37)], ['8', '6', `Duplicate ClOrdID ${c}`, 'NONE']);
      assert.equal(client.logons, logons);
      assert.ok(client.isLoggedOn);
    });

    it('refuses every order while trading is disabled for the client (103=2)', async () => {
      await putConnector({ trading_enabled: false });
      try {
        const c = id('OFF');
        await expectRefusal('D', c, newOrderSingle(c), '2', 'Trading is disabled for this client');
        const s = id('OFF');
        await expectRefusal('AB', s, spread(s, '100'), '2', 'Trading is disabled for this client');
      } finally {
        await putConnector({ trading_enabled: true });
      }
      const c = id('ON');
      await pendingNew(c);
    });

    it('refuses a side the client may not trade, and quantities outside its limits', async () => {
      await setCapability('can_buy = false');
      try {
        const c1 = id('CAP');
        await expectRefusal('D', c1, newOrderSingle(c1, { side: '1' }), '0', 'Client is not permitted to buy C5TC');
        const c2 = id('CAP');
        await pendingNew(c2, newOrderSingle(c2, { side: '2' }));
        // A spread buys one leg: refused on that leg.
        const s = id('CAP');
        await expectRefusal('AB', s, spread(s, '100'), '0', 'Leg 1: Client is not permitted to buy C5TC');
      } finally {
        await setCapability('can_buy = true');
      }
      await setCapability('can_sell = false');
      try {
        const c = id('CAP');
        await expectRefusal('D', c, newOrderSingle(c, { side: '2' }), '0', 'Client is not permitted to sell C5TC');
      } finally {
        await setCapability('can_sell = true');
      }
      await setCapability('is_enabled = false');
      try {
        const c = id('CAP');
        await expectRefusal('D', c, newOrderSingle(c), '0', 'Trading in C5TC is disabled for this client');
      } finally {
        await setCapability('is_enabled = true');
      }
      // Seeded limits: 1 to 1,000 lots.
      const big = id('LIM');
      await expectRefusal('D', big, newOrderSingle(big, { qty: '1001' }), '3', 'Order quantity 1001 exceeds the maximum of 1000 for C5TC');
      const top = id('LIM');
      await pendingNew(top, newOrderSingle(top, { qty: '1000' }));
      await setCapability('min_order_qty = 5');
      try {
        const small = id('LIM');
        await expectRefusal('D', small, newOrderSingle(small, { qty: '4' }), '13', 'Order quantity 4 is below the minimum of 5 for C5TC');
        const atMin = id('LIM');
        await pendingNew(atMin, newOrderSingle(atMin, { qty: '5' }));
      } finally {
        await setCapability('min_order_qty = 1');
      }
    });

    it("refuses the orders beyond the connector's max orders per second, set through the API", async () => {
      await putConnector({ max_orders_per_second: 3 });
      try {
        // Start at the beginning of a fresh second (no earlier order in its rate window), so the burst falls in one window.
        await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
        const second = Math.floor(Date.now() / 1000);
        const ids = Array.from({ length: 10 }, () => id('RATE'));
        await Promise.all(ids.map((c) => client.send('D', newOrderSingle(c))));
        const reports = await until('a report for every order of the burst', () => {
          const first = ids.map((c) => client.received.find((m) => m.get(11) === c));
          return first.every(Boolean) && (first as ReceivedMessage[]);
        });
        // Admitted within one second when every report is back before it ended (a report follows its admission).
        const sentInOneSecond = Math.floor(Date.now() / 1000) === second;
        const acked = reports.filter((m) => m.get(150) === 'A');
        const refusedOnes = reports.filter((m) => m.get(150) === '8');
        assert.equal(acked.length + refusedOnes.length, ids.length);
        if (sentInOneSecond) assert.equal(acked.length, 3, 'three orders in the second');
        else assert.ok(acked.length >= 3 && acked.length <= 6, `at most 3 per second over two seconds, got ${acked.length}`);
        // The first orders of the burst pass; the refusals come after them.
        assert.deepEqual(
          reports.slice(0, 3).map((m) => m.get(150)),
          ['A', 'A', 'A'],
        );
        for (const er of refusedOnes) {
          assert.deepEqual([er.get(39), er.get(103), er.get(58)], ['8', '99', 'Order rate limit of 3 orders per second exceeded']);
        }
      } finally {
        await putConnector({ max_orders_per_second: 100 });
      }
      await new Promise((r) => setTimeout(r, 1000));
      const c = id('RATE');
      await pendingNew(c);
    });
  });
}
