// Multileg fills over HTTP (spec 000 "Multileg Trade Capture modal", §5 fill rules): a leg fill that
// breaks the leg or spread limits is refused with 400 and the reason; a spread-level fill; and the two
// ways of filling are not mixed on one order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { MultilegFillText } from '@fixdesk/domain';
import { calendarSpread, newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

interface Leg {
  legIndex: number;
  legSide: string;
  legCumQty: string;
  legAvgPx: string;
  orderQty: string;
}
interface Order {
  ordstatus: string;
  cumqty: string;
  leavesqty: string;
  avgpx: string;
  legs: Leg[];
}

for (const kind of TEST_DB_KINDS) {
  describe(`multileg fills over HTTP on ${kind}`, () => {
    let t: TestServer;
    let client: TestFixClient;
    let broker: string;
    let n = 0;

    const fill = (orderId: string, json: unknown) => t.api(`/api/orders/${orderId}/fill`, { method: 'POST', token: broker, json });
    const order = async (orderId: string) =>
      ((await (await t.api(`/api/orders/${orderId}`, { token: broker })).json()) as { data: Order }).data;
    const refusedWith = async (r: Response, status: number, message: string) => {
      const body = (await r.json()) as { success?: boolean; message: string };
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(body.message, message);
    };
    const pending = async (body: (id: string) => Array<[number, string]>, msgType = 'AB') => {
      const clOrdId = `ML-${++n}`;
      await client.send(msgType, body(clOrdId));
      const ack = await client.waitForReport(clOrdId, (m) => m.get(150) === 'A');
      return { clOrdId, orderId: ack.get(37)! };
    };
    const accepted = async (body: (id: string) => Array<[number, string]> = (id) => calendarSpread(id), msgType = 'AB') => {
      const o = await pending(body, msgType);
      assert.equal((await t.api(`/api/orders/${o.orderId}/accept`, { method: 'POST', token: broker, json: {} })).status, 200);
      await client.waitForReport(o.clOrdId, (m) => m.get(150) === '0');
      return o;
    };

    before(async () => {
      t = await startTestServer(kind);
      broker = await t.login('broker');
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(t.server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    it('refuses leg fills that break the leg quantity rules with 400 and the reason', async () => {
      const waiting = await pending((id) => calendarSpread(id));
      await refusedWith(
        await fill(waiting.orderId, { fillQty: 1, fillPrice: 27300, legIndex: 0 }),
        409,
        'Cannot fill an order that is awaiting acceptance',
      );

      const { orderId } = await accepted();
      await refusedWith(
        await fill(orderId, { fillQty: 1, fillPrice: 27300, legIndex: 2 }),
        400,
        'Leg 2 does not exist: the order has 2 leg(s)',
      );
      await refusedWith(
        await fill(orderId, { fillQty: 3, fillPrice: 27300, legIndex: 0 }),
        400,
        'Total fills (3) would exceed order quantity (2)',
      );
      await refusedWith(await fill(orderId, { fillQty: 0, fillPrice: 27300, legIndex: 0 }), 400, 'Fill quantity must be greater than 0');
      await refusedWith(
        await fill(orderId, { fillQty: 1.5, fillPrice: 27300, legIndex: 0 }),
        400,
        'Fill quantity 1.5 must be a whole number of lots',
      );
      await refusedWith(await fill(orderId, { fillQty: 1, fillPrice: 0, legIndex: 0 }), 400, 'Fill price must be greater than 0');

      assert.equal((await fill(orderId, { fillQty: 1, fillPrice: 27300, legIndex: 0 })).status, 200);
      await refusedWith(
        await fill(orderId, { fillQty: 2, fillPrice: 27300, legIndex: 0 }),
        400,
        'Total fills (3) would exceed order quantity (2)',
      );
      assert.equal((await fill(orderId, { fillQty: 1, fillPrice: 27300, legIndex: 0 })).status, 200);
      await refusedWith(await fill(orderId, { fillQty: 1, fillPrice: 27300, legIndex: 0 }), 400, 'Order is already fully filled');

      // Nothing refused changed the order: leg 0 has its 2, leg 1 none, no spread completed.
      const o = await order(orderId);
      assert.deepEqual(
        o.legs.map((l) => [l.legCumQty, l.legAvgPx]),
        [
          ['2', '27300'],
          ['0', '0'],
        ],
      );
      assert.deepEqual([o.ordstatus, o.cumqty, o.leavesqty], ['0', '0', '2']);
    });

    it("refuses a leg fill that would complete the spread beyond the order's limit, and takes one within it", async () => {
      const { clOrdId, orderId } = await accepted();
      assert.equal((await fill(orderId, { fillQty: 2, fillPrice: 27300, legIndex: 0 })).status, 200);
      // Buying the spread at most 300: 27300 - 26900 = 400 is above the limit.
      await refusedWith(
        await fill(orderId, { fillQty: 1, fillPrice: 26900, legIndex: 1 }),
        400,
        "Completing the strategy at the legs' prices gives 400: Buy order fill price 400 exceeds limit price 300 (must be ≤)",
      );
      const r = await fill(orderId, { fillQty: 2, fillPrice: 27000, legIndex: 1 });
      assert.equal(r.status, 200);
      const body = (await r.json()) as { fullyFilled: boolean; order: { ordstatus: string; cumqty: string; avgpx: string } };
      assert.equal(body.fullyFilled, true);
      assert.deepEqual([body.order.ordstatus, body.order.cumqty, body.order.avgpx], ['2', '2', '300']);
      const done = await client.waitForReport(clOrdId, (m) => m.get(39) === '2');
      assert.deepEqual([done.get(150), done.get(14), done.get(151), done.get(6), done.get(442)], ['F', '2', '0', '300', '2']);
      // A leg fill on an outright order is refused.
      const outright = await accepted((id) => newOrderSingle(id), 'D');
      await refusedWith(
        await fill(outright.orderId, { fillQty: 1, fillPrice: 27000, legIndex: 0 }),
        400,
        'legIndex applies to multileg orders only',
      );
    });

    it('fills a spread at the spread price, within its limit, reported to the client', async () => {
      const { clOrdId, orderId } = await accepted((id) => calendarSpread(id, { qty: '4', price: '300' }));
      await refusedWith(
        await fill(orderId, { fillQty: 1, fillPrice: 310 }),
        400,
        'Buy order fill price 310 exceeds limit price 300 (must be ≤)',
      );
      await refusedWith(await fill(orderId, { fillQty: 5, fillPrice: 290 }), 400, 'Fill quantity 5 exceeds remaining quantity 4');
      const r = await fill(orderId, { fillQty: 1, fillPrice: 290 });
      assert.equal(r.status, 200);
      const body = (await r.json()) as { fullyFilled: boolean; order: { ordstatus: string; cumqty: string; leavesqty: string } };
      assert.deepEqual([body.fullyFilled, body.order.ordstatus, body.order.cumqty, body.order.leavesqty], [false, '1', '1', '3']);
      const er = await client.waitForReport(clOrdId, (m) => m.get(150) === 'F');
      assert.deepEqual(
        [er.get(39), er.get(32), er.get(31), er.get(14), er.get(151), er.get(6), er.get(442)],
        ['1', '1', '290', '1', '3', '290', '3'],
      );
      // Once filled at the spread price, the order is not filled per leg, and the reverse.
      await refusedWith(await fill(orderId, { fillQty: 1, fillPrice: 27000, legIndex: 0 }), 409, MultilegFillText.spreadFilling);
      const perLeg = await accepted();
      assert.equal((await fill(perLeg.orderId, { fillQty: 1, fillPrice: 27300, legIndex: 0 })).status, 200);
      await refusedWith(await fill(perLeg.orderId, { fillQty: 1, fillPrice: 290 }), 409, MultilegFillText.legsFilling);
    });

    it('takes a spread fill at zero or a negative price, as a spread may trade there', async () => {
      const { orderId } = await accepted((id) => calendarSpread(id, { qty: '2', price: '0' }));
      assert.equal((await fill(orderId, { fillQty: 1, fillPrice: -50 })).status, 200);
      assert.equal((await fill(orderId, { fillQty: 1, fillPrice: 0 })).status, 200);
      const o = await order(orderId);
      assert.deepEqual([o.ordstatus, o.cumqty, o.avgpx], ['2', '2', '-25']);
      // Every leg executed ratio × the spread's quantity.
      assert.deepEqual(
        o.legs.map((l) => l.legCumQty),
        ['2', '2'],
      );
      await refusedWith(await fill(orderId, { fillQty: 1, fillPrice: 0 }), 409, 'Order is already fully filled');
    });
  });
}
