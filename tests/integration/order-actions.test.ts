import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { Order } from '@fixdesk/protocol';
import type { IncomingNewOrder } from '../../apps/server/src/orders/intake';
import { startTestServer, type TestServer } from '../support/server';

interface Sent {
  compId: string;
  msgType: string;
  fields: Map<number, string>;
  body: Array<[number, string]>;
}

function nextMonth(offset = 2): string {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() + offset);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

let clSeq = 0;
function nos(over: Partial<IncomingNewOrder> = {}): IncomingNewOrder {
  return {
    msgType: 'D',
    senderCompId: 'SGX_CLIENT_1',
    targetCompId: 'FIXDESK',
    clOrdId: `T-${Date.now()}-${++clSeq}`,
    side: '1',
    ordType: '2',
    orderQty: '10',
    price: '27000',
    symbol: 'C5TC',
    securityType: 'FUT',
    maturityMonthYear: nextMonth(),
    timeInForce: '0',
    exDestination: 'SGX',
    currency: 'USD',
    account: undefined,
    text: undefined,
    transactTime: new Date(),
    legs: [],
    parties: [{ partyId: 'TRADER1', partyIdSource: 'D', partyRole: 11, legIndex: null }],
    ...over,
  };
}

for (const kind of TEST_DB_KINDS) {
  describe(`order core on ${kind}`, () => {
    let t: TestServer;
    let broker: string;
    let viewer: string;
    const sent: Sent[] = [];
    let seq = 1;
    before(async () => {
      const sender = {
        send: async (compId: string, msg: { msgType: string; body: Array<[number, string]> }) => {
          sent.push({ compId, msgType: msg.msgType, fields: new Map(msg.body), body: msg.body });
          return seq++;
        },
      };
      t = await startTestServer(kind, {}, { clientSender: sender });
      [broker, viewer] = await Promise.all([t.login('broker'), t.login('viewer')]);
    });
    after(async () => {
      await t?.stop();
    });

    const lastFor = async (clOrdId: string) => {
      await t.server.ctx.outbox.idle();
      return sent.filter((m) => m.fields.get(11) === clOrdId).at(-1);
    };
    const post = (path: string, json?: unknown, token = broker) => t.api(path, { method: 'POST', token, json });
    const getOrder = async (id: string): Promise<Order> =>
      ((await (await t.api(`/api/orders/${id}`, { token: viewer })).json()) as { data: Order }).data;

    it('stores a valid order and answers Pending New after the commit', async () => {
      const o = nos();
      const r = await t.server.ctx.orders.receiveNewOrder(o);
      assert.equal(r.accepted, true);
      const er = await lastFor(o.clOrdId!);
      assert.ok(er);
      assert.equal(er.fields.get(150), 'A');
      assert.equal(er.fields.get(39), 'A');
      assert.equal(er.fields.get(37), r.brokerOrderId);
      assert.match(er.fields.get(17)!, /^SGX-\d{9}$/);
      assert.equal(er.fields.get(151), '10');
      // Client defaults: Account from %COMP_ID%, parties Entering Firm (7) with the LEI and the trader (11).
      assert.equal(er.fields.get(1), 'SGX_CLIENT_1');
      const parties = er.body.filter(([tag]) => tag === 452).map(([, v]) => v);
      assert.deepEqual(parties, ['7', '11']);
      assert.ok(er.body.some(([tag, v]) => tag === 448 && v === '549300STRAITS000SG15'));
      // Fields in tag order, as QuickFIX writes them.
      const topTags = er.body.map(([tag]) => tag).filter((tag) => ![448, 447, 452].includes(tag));
      assert.deepEqual(
        topTags,
        [...topTags].sort((a, b) => a - b),
      );
      const stored = await getOrder(r.brokerOrderId!);
      assert.equal(stored.ordstatus, 'A');
      assert.equal(stored.parties[0]!.partyID, 'TRADER1');
    });

    it('rejects invalid orders with 150=8 / 39=8, OrdRejReason and a clear text', async () => {
      const cases: [Partial<IncomingNewOrder>, string, RegExp][] = [
        [{ symbol: 'NOPE' }, '1', /Unknown symbol NOPE/],
        [{ side: '7' }, '11', /side must be/],
        [{ ordType: '2', price: undefined }, '99', /Limit orders require/],
        [{ orderQty: '0' }, '13', /greater than 0/],
        [{ orderQty: '5000' }, '3', /exceeds the maximum of 1000/],
      ];
      for (const [over, reason, text] of cases) {
        const o = nos(over);
        const r = await t.server.ctx.orders.receiveNewOrder(o);
        assert.equal(r.accepted, false, JSON.stringify(over));
        const er = await lastFor(o.clOrdId!);
        assert.equal(er?.fields.get(150), '8');
        assert.equal(er?.fields.get(39), '8');
        assert.equal(er?.fields.get(103), reason, `${JSON.stringify(over)}: ${er?.fields.get(58)}`);
        assert.match(er!.fields.get(58)!, text);
      }
      const first = nos();
      assert.equal((await t.server.ctx.orders.receiveNewOrder(first)).accepted, true);
      const dup = await t.server.ctx.orders.receiveNewOrder({ ...first });
      assert.equal(dup.accepted, false);
      assert.equal((await lastFor(first.clOrdId!))?.fields.get(103), '6');
    });

    it('runs accept, partial fill, fill and done for day with the right reports and audit', async () => {
      const o = nos({ side: '1', price: '27000', orderQty: '10' });
      const { brokerOrderId: id } = await t.server.ctx.orders.receiveNewOrder(o);
      let r = await post(`/api/orders/${id}/accept`, { notes: 'ok' });
      assert.equal(r.status, 200);
      assert.equal((await lastFor(o.clOrdId!))?.fields.get(150), '0');

      r = await post(`/api/orders/${id}/fill`, { fillQty: 4, fillPrice: 26950 });
      assert.equal(r.status, 200);
      let body = (await r.json()) as { fullyFilled: boolean; order: Order };
      assert.equal(body.fullyFilled, false);
      let er = await lastFor(o.clOrdId!);
      assert.deepEqual(
        [
          er?.fields.get(150),
          er?.fields.get(39),
          er?.fields.get(32),
          er?.fields.get(31),
          er?.fields.get(14),
          er?.fields.get(151),
          er?.fields.get(6),
        ],
        ['F', '1', '4', '26950', '4', '6', '26950'],
      );

      // Above the buy limit: refused by the server whatever the browser checked.
      r = await post(`/api/orders/${id}/fill`, { fillQty: 1, fillPrice: 27001 });
      assert.equal(r.status, 400);
      assert.match(((await r.json()) as { message: string }).message, /exceeds limit price/);
      // More than the leaves quantity.
      r = await post(`/api/orders/${id}/fill`, { fillQty: 7, fillPrice: 26900 });
      assert.equal(r.status, 400);
      assert.match(((await r.json()) as { message: string }).message, /exceeds remaining quantity 6/);

      r = await post(`/api/orders/${id}/fill`, { fillQty: '6', fillPrice: '27000' });
      body = (await r.json()) as { fullyFilled: boolean; order: Order };
      assert.equal(body.fullyFilled, true);
      er = await lastFor(o.clOrdId!);
      // avg = (4·26950 + 6·27000) / 10 = 26980, exact
      assert.deepEqual([er?.fields.get(39), er?.fields.get(14), er?.fields.get(151), er?.fields.get(6)], ['2', '10', '0', '26980']);

      r = await post(`/api/orders/${id}/done-for-day`);
      assert.equal(r.status, 200);
      er = await lastFor(o.clOrdId!);
      assert.deepEqual([er?.fields.get(150), er?.fields.get(39)], ['3', '3']);

      r = await post(`/api/orders/${id}/fill`, { fillQty: 1, fillPrice: 27000 });
      assert.equal(r.status, 409);

      const order = await getOrder(id!);
      assert.equal(order.ordstatus, '3');
      assert.equal(order.accepted_by, 'broker');
      assert.deepEqual(
        order.execReports!.map((e) => e.exectype),
        ['A', '0', 'F', 'F', '3'],
      );
      const actions = (
        (await (await t.api(`/api/order-actions?brokerorderid=${id}`, { token: viewer })).json()) as {
          actions: { id: number; action_type: string; user_id: string; fillQty: string | null }[];
        }
      ).actions;
      assert.deepEqual(actions.map((a) => a.action_type).reverse(), ['ACCEPT', 'PARTIAL_FILL', 'FILL', 'DONE_FOR_DAY']);
      assert.ok(actions.every((a) => a.user_id === 'broker'));
      // Keyset paging, newest first: the page below the smallest id shown holds the rest, none twice.
      const page = async (q: string) =>
        (
          (await (await t.api(`/api/order-actions?brokerorderid=${id}&${q}`, { token: viewer })).json()) as { actions: { id: number }[] }
        ).actions.map((a) => a.id);
      const first = await page('limit=3');
      assert.deepEqual(
        [...first, ...(await page(`limit=3&beforeId=${Math.min(...first)}`))],
        actions.map((a) => a.id),
      );
      assert.equal((await t.api('/api/order-actions?beforeId=0', { token: viewer })).status, 400);
      const answer = await t.api(`/api/order-actions?brokerorderid=${id}`, { token: viewer });
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      const answered = (await answer.json()) as { success: boolean; actions: unknown[]; data: unknown[] };
      assert.deepEqual([answered.success, answered.data], [true, answered.actions], 'the rows under their name and as data');
      const prices = (
        (await (await t.api('/api/trade-history/latest-prices', { token: viewer })).json()) as { data: { symbol: string; price: string }[] }
      ).data;
      assert.equal(prices.find((p) => p.symbol === 'C5TC')?.price, '27000');
    });

    it('rejects a pending order with a reason, and refuses actions in the wrong state', async () => {
      const o = nos();
      const { brokerOrderId: id } = await t.server.ctx.orders.receiveNewOrder(o);
      let r = await post(`/api/orders/${id}/fill`, { fillQty: 1, fillPrice: 27000 });
      assert.equal(r.status, 409);
      r = await post(`/api/orders/${id}/reject`, { rejectReason: '0', notes: '' });
      assert.equal(r.status, 400);
      r = await post(`/api/orders/${id}/reject`, { rejectReason: '0', text: 'Outside our credit limit' });
      assert.equal(r.status, 200);
      const er = await lastFor(o.clOrdId!);
      assert.deepEqual([er?.fields.get(150), er?.fields.get(39), er?.fields.get(58)], ['8', '8', 'Outside our credit limit']);
      // The report is no older than the order row it changed (to the microsecond): a browser drops a
      // report older than the order it holds, and the reject's reason would never show.
      const stamps = await t.server.ctx.db.query<{ newer: boolean }>(
        `SELECT max(e.created_at) >= o.updated_at AS newer FROM orders o JOIN execution_reports e ON e.order_id = o.id
          WHERE o.brokerorderid = $1 GROUP BY o.updated_at`,
        [id],
      );
      assert.equal(stamps.rows[0]?.newer, true, 'the reject report is stamped after its order change');
      r = await post(`/api/orders/${id}/accept`, {});
      assert.equal(r.status, 409);
      r = await post('/api/orders/BO99999999/accept', {});
      assert.equal(r.status, 404);
      r = await post(`/api/orders/${id}/accept`, {}, viewer);
      assert.equal(r.status, 403);
      r = await post(`/api/orders/${id}/fill`, { fillQty: 'lots', fillPrice: 1 });
      assert.equal(r.status, 400);
    });

    it('never overfills under concurrent fills', async () => {
      const o = nos({ orderQty: '20' });
      const { brokerOrderId: id } = await t.server.ctx.orders.receiveNewOrder(o);
      await post(`/api/orders/${id}/accept`, {});
      const results = await Promise.all(Array.from({ length: 50 }, () => post(`/api/orders/${id}/fill`, { fillQty: 1, fillPrice: 26000 })));
      const ok = results.filter((r) => r.status === 200).length;
      assert.equal(ok, 20);
      assert.ok(results.every((r) => r.status === 200 || r.status === 409 || r.status === 400));
      const order = await getOrder(id!);
      assert.equal(order.cumqty, '20');
      assert.equal(order.leavesqty, '0');
      assert.equal(order.execReports!.filter((e) => e.exectype === 'F').length, 20);
    });

    it('handles a client cancel request: confirmed, and a replace refused with an OrderCancelReject', async () => {
      const o = nos({ orderQty: '10' });
      const { brokerOrderId: id } = await t.server.ctx.orders.receiveNewOrder(o);
      await post(`/api/orders/${id}/accept`, {});
      await t.server.ctx.orders.receiveCancelOrReplace({
        kind: 'F',
        senderCompId: 'SGX_CLIENT_1',
        clOrdId: `${o.clOrdId}-C`,
        origClOrdId: o.clOrdId!,
        orderId: id,
        orderQty: '10',
        price: undefined,
        ordType: undefined,
        text: undefined,
      });
      let er = await lastFor(`${o.clOrdId}-C`);
      assert.deepEqual([er?.fields.get(150), er?.fields.get(39), er?.fields.get(41)], ['6', '6', o.clOrdId]);
      let order = await getOrder(id!);
      assert.equal(order.pendingRequest?.request_type, 'F');
      const r = await post(`/api/orders/${id}/cancel-request/confirm`, {});
      assert.equal(r.status, 200);
      er = await lastFor(`${o.clOrdId}-C`);
      assert.deepEqual([er?.fields.get(150), er?.fields.get(39), er?.fields.get(151)], ['4', '4', '0']);
      order = await getOrder(id!);
      assert.equal(order.ordstatus, '4');
      assert.equal(order.pendingRequest, null);

      const o2 = nos({ orderQty: '10', price: '27000' });
      const { brokerOrderId: id2 } = await t.server.ctx.orders.receiveNewOrder(o2);
      await post(`/api/orders/${id2}/accept`, {});
      await t.server.ctx.orders.receiveCancelOrReplace({
        kind: 'G',
        senderCompId: 'SGX_CLIENT_1',
        clOrdId: `${o2.clOrdId}-R`,
        origClOrdId: o2.clOrdId!,
        orderId: id2,
        orderQty: '15',
        price: '26900',
        ordType: '2',
        text: undefined,
      });
      assert.equal((await lastFor(`${o2.clOrdId}-R`))?.fields.get(39), 'E');
      assert.equal((await post(`/api/orders/${id2}/replace-request/refuse`, {})).status, 400);
      assert.equal((await post(`/api/orders/${id2}/replace-request/refuse`, { reason: 'Size not available' })).status, 200);
      const rej = await lastFor(`${o2.clOrdId}-R`);
      assert.equal(rej?.msgType, '9');
      assert.deepEqual([rej?.fields.get(434), rej?.fields.get(39), rej?.fields.get(58)], ['2', '0', 'Size not available']);

      // Replace confirmed: new quantity and price.
      await t.server.ctx.orders.receiveCancelOrReplace({
        kind: 'G',
        senderCompId: 'SGX_CLIENT_1',
        clOrdId: `${o2.clOrdId}-R2`,
        origClOrdId: o2.clOrdId!,
        orderId: id2,
        orderQty: '15',
        price: '26900',
        ordType: '2',
        text: undefined,
      });
      assert.equal((await post(`/api/orders/${id2}/replace-request/confirm`, {})).status, 200);
      er = await lastFor(`${o2.clOrdId}-R2`);
      assert.deepEqual([er?.fields.get(150), er?.fields.get(39), er?.fields.get(38), er?.fields.get(44)], ['5', '0', '15', '26900']);

      // Unknown order → OrderCancelReject.
      await t.server.ctx.orders.receiveCancelOrReplace({
        kind: 'F',
        senderCompId: 'SGX_CLIENT_1',
        clOrdId: 'X-C',
        origClOrdId: 'NEVER-SEEN',
        orderId: undefined,
        orderQty: undefined,
        price: undefined,
        ordType: undefined,
        text: undefined,
      });
      const unk = await lastFor('X-C');
      assert.equal(unk?.msgType, '9');
      assert.equal(unk?.fields.get(102), '1');
    });

    it('refuses what a review found slipping through: bad prices, duplicate request ids, bad replace terms, bad ids', async () => {
      const o = nos({ orderQty: '10', price: '27000' });
      const { brokerOrderId: id } = await t.server.ctx.orders.receiveNewOrder(o);
      await post(`/api/orders/${id}/accept`, {});
      for (const fillPrice of [0, -5]) {
        const r = await post(`/api/orders/${id}/fill`, { fillQty: 1, fillPrice });
        assert.equal(r.status, 400, `fill at ${fillPrice}`);
      }
      // A cancel request reusing an existing ClOrdID → OrderCancelReject with CxlRejReason 6.
      const other = nos();
      await t.server.ctx.orders.receiveNewOrder(other);
      await t.server.ctx.orders.receiveCancelOrReplace({
        kind: 'F',
        senderCompId: 'SGX_CLIENT_1',
        clOrdId: other.clOrdId!,
        origClOrdId: o.clOrdId!,
        orderId: id,
        orderQty: undefined,
        price: undefined,
        ordType: undefined,
        text: undefined,
      });
      await t.server.ctx.outbox.idle();
      const dup = sent.filter((m) => m.msgType === '9' && m.fields.get(41) === o.clOrdId).at(-1);
      assert.equal(dup?.fields.get(102), '6');
      // Replace terms get the intake rules: order type, size limit, positive outright price.
      for (const [terms, text] of [
        [{ ordType: '3', orderQty: '10', price: '27000' }, /order type/i],
        [{ ordType: '2', orderQty: '5000', price: '27000' }, /exceeds the maximum/],
        [{ ordType: '2', orderQty: '10', price: '-1' }, /price/i],
      ] as const) {
        const clOrdId = `${o.clOrdId}-R${Math.random().toString(36).slice(2, 7)}`;
        await t.server.ctx.orders.receiveCancelOrReplace({
          kind: 'G',
          senderCompId: 'SGX_CLIENT_1',
          clOrdId,
          origClOrdId: o.clOrdId!,
          orderId: id,
          text: undefined,
          ...terms,
        });
        const rej = await lastFor(clOrdId);
        assert.equal(rej?.msgType, '9', JSON.stringify(terms));
        assert.match(rej!.fields.get(58)!, text);
      }
      // A broker cancel answers a waiting client cancel request on the request's ClOrdID.
      await t.server.ctx.orders.receiveCancelOrReplace({
        kind: 'F',
        senderCompId: 'SGX_CLIENT_1',
        clOrdId: `${o.clOrdId}-CX`,
        origClOrdId: o.clOrdId!,
        orderId: id,
        orderQty: undefined,
        price: undefined,
        ordType: undefined,
        text: undefined,
      });
      assert.equal((await post(`/api/orders/${id}/cancel`, { reason: 'Desk closing' })).status, 200);
      const canceled = await lastFor(`${o.clOrdId}-CX`);
      assert.deepEqual([canceled?.fields.get(150), canceled?.fields.get(41)], ['4', o.clOrdId]);
      assert.equal((await getOrder(id!)).pendingRequest, null);

      assert.equal((await t.api('/api/orders/99999999999999999999', { token: viewer })).status, 400);
      assert.equal((await t.api('/api/orders?from=-100000-01-01', { token: viewer })).status, 400);
      assert.equal((await t.api('/api/fix-messages?start=%2B200000-01-01', { token: viewer })).status, 400);
      assert.equal((await post(`/api/orders/${id}/reject`, { rejectReason: 500, text: 'x' })).status, 400);
    });

    it('takes a multileg order and fills it per leg', async () => {
      const m1 = nextMonth(2);
      const m2 = nextMonth(3);
      const o = nos({
        msgType: 'AB',
        symbol: 'C5TC',
        securityType: 'MLEG',
        maturityMonthYear: undefined,
        price: '500',
        orderQty: '5',
        legs: [
          { symbol: 'C5TC', side: '1', ratio: '1', maturityMonthYear: m1, securityType: 'FUT' },
          { symbol: 'C5TC', side: '2', ratio: '1', maturityMonthYear: m2, securityType: 'FUT' },
        ],
      });
      const r0 = await t.server.ctx.orders.receiveNewOrder(o);
      assert.equal(r0.accepted, true, JSON.stringify(r0));
      const id = r0.brokerOrderId!;
      const ack = await lastFor(o.clOrdId!);
      assert.equal(ack?.fields.get(555), '2');
      await post(`/api/orders/${id}/accept`, {});
      let r = await post(`/api/orders/${id}/fill`, { fillQty: 5, fillPrice: 27500, legIndex: 0 });
      assert.equal(r.status, 200, await r.clone().text());
      let order = await getOrder(id);
      assert.equal(order.cumqty, '0');
      assert.equal(order.legs[0]!.legCumQty, '5');
      r = await post(`/api/orders/${id}/fill`, { fillQty: 6, fillPrice: 27000, legIndex: 1 });
      assert.equal(r.status, 400);
      r = await post(`/api/orders/${id}/fill`, { fillQty: 5, fillPrice: 27100, legIndex: 1 });
      assert.equal(r.status, 200, await r.clone().text());
      order = await getOrder(id);
      assert.equal(order.cumqty, '5');
      assert.equal(order.ordstatus, '2');
      assert.equal(order.avgpx, '400'); // 27500 − 27100 ≤ 500 limit
      const er = await lastFor(o.clOrdId!);
      assert.deepEqual([er?.fields.get(150), er?.fields.get(39), er?.fields.get(14)], ['F', '2', '5']);
      assert.ok(er?.body.some(([tag, v]) => tag === 637 && v === '27100'));
    });
  });
}
