// Order intake under pipelining and batching: what must not change when orders overlap (acks after the
// commit and in order, a cancel sees the order sent just before it), and the resend of an order the
// server already holds (a crash between the order's commit and the persisting of its MsgSeqNum).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { IncomingNewOrder } from '../../apps/server/src/orders/intake';
import { maturity, newOrderSingle, TestFixClient, ts } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

let clSeq = 0;
function nos(over: Partial<IncomingNewOrder> = {}): IncomingNewOrder {
  return {
    msgType: 'D',
    senderCompId: 'EEX_CLIENT_1',
    targetCompId: 'FIXDESK',
    clOrdId: `IN-${Date.now()}-${++clSeq}`,
    side: '1',
    ordType: '2',
    orderQty: '10',
    price: '27000',
    symbol: 'C5TC',
    securityType: 'FUT',
    maturityMonthYear: maturity(2),
    timeInForce: '0',
    exDestination: undefined,
    currency: 'USD',
    account: undefined,
    text: undefined,
    transactTime: new Date(),
    legs: [],
    parties: [],
    ...over,
  };
}

for (const kind of TEST_DB_KINDS) {
  describe(`order intake on ${kind}`, () => {
    let t: TestServer;
    let client: TestFixClient;
    const state = async () =>
      (
        await t.database.db.query<{ next_target_seq: number }>(
          "SELECT next_target_seq FROM fix_session_state WHERE sender_comp_id = 'FIXDESK' AND target_comp_id = 'SGX_CLIENT_1'",
        )
      ).rows[0]!;
    const ordersWith = async (clOrdId: string) =>
      (await t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE clordid = $1', [clOrdId])).rows[0]!.n;

    before(async () => {
      t = await startTestServer(kind);
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(t.server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    it('acknowledges a burst of pipelined orders in the order they were sent, each after its commit', async () => {
      const ids = Array.from({ length: 60 }, (_, i) => `BURST-${i}`);
      await Promise.all(ids.map((id) => client.send('D', newOrderSingle(id))));
      await until('all Pending News', () => ids.every((id) => client.received.some((m) => m.get(11) === id && m.get(150) === 'A')));
      const acks = client.received.filter((m) => m.get(150) === 'A' && ids.includes(m.get(11)!));
      assert.deepEqual(
        acks.map((m) => m.get(11)),
        ids,
        'Pending News in sequence order',
      );
      const brokerIds = acks.map((m) => Number(m.get(37)!.slice(2)));
      assert.deepEqual(
        brokerIds,
        [...brokerIds].sort((a, b) => a - b),
        'orders stored in sequence order',
      );
      // Every acknowledged order is in the database (the ack followed its commit).
      const { rows } = await t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE clordid = ANY($1::text[])', [
        ids,
      ]);
      assert.equal(rows[0]!.n, ids.length);
      await until('inbound numbers persisted', async () => (await state()).next_target_seq === client.status().nextSenderMsgSeqNum);
    });

    it('a cancel sent right behind its order waits for that order: it is found, not refused as unknown', async () => {
      void client.send('D', newOrderSingle('CHASE-1'));
      void client.send('F', [
        [11, 'CHASE-1-X'],
        [38, '10'],
        [41, 'CHASE-1'],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
      const answer = await until('answer to the cancel', () => client.received.find((m) => m.get(11) === 'CHASE-1-X'));
      // The order was found (never refused as unknown): it goes Pending Cancel for the broker to decide.
      assert.equal(answer.msgType, '8', answer.get(58));
      assert.equal(`${answer.get(150)}/${answer.get(39)}`, '6/6');
      assert.equal(answer.get(41), 'CHASE-1');
      assert.ok(
        client.received.findIndex((m) => m.get(11) === 'CHASE-1' && m.get(150) === 'A') < client.received.indexOf(answer),
        'Pending New first',
      );
    });

    it('a resend (PossDupFlag=Y) of an order already stored creates no second order and is not refused', async () => {
      const seq = await client.send('D', newOrderSingle('CRASHED-1'));
      await client.waitForReport('CRASHED-1', (m) => m.get(150) === 'A');
      await client.stop();
      // The crash this stands for: the order committed, its MsgSeqNum never persisted. The server then
      // expects that number again, asks for it at the next logon and the client resends the order.
      await t.database.db.query(
        "UPDATE fix_session_state SET next_target_seq = $1 WHERE sender_comp_id = 'FIXDESK' AND target_comp_id = 'SGX_CLIENT_1'",
        [seq],
      );
      await client.connect(t.server.ctx.fix.port);
      await until('the resent messages processed', async () => (await state()).next_target_seq >= client.status().nextSenderMsgSeqNum);
      const audit = await t.database.db.query<{ poss_dup: boolean }>(
        "SELECT poss_dup FROM fix_messages WHERE direction = 'RX' AND msg_type = 'D' AND clordid = 'CRASHED-1' ORDER BY id",
      );
      assert.deepEqual(
        audit.rows.map((r) => r.poss_dup),
        [false, true],
        'the order did arrive a second time, flagged',
      );
      await t.server.ctx.outbox.idle();
      assert.equal(await ordersWith('CRASHED-1'), 1);
      const reports = client.received.filter((m) => m.get(11) === 'CRASHED-1');
      assert.deepEqual(
        reports.map((m) => m.get(150)),
        ['A'],
        'no refusal, no second Pending New',
      );
      // The session goes on normally.
      await client.send('D', newOrderSingle('AFTER-CRASH'));
      await client.waitForReport('AFTER-CRASH', (m) => m.get(150) === 'A');
    });

    it('order core: a possible resend is stored when it is new, ignored when held, refused when it differs', async () => {
      const orders = t.server.ctx.orders;
      const fresh = nos({ possibleDuplicate: true });
      const first = await orders.receiveNewOrder(fresh);
      assert.equal(first.accepted, true, 'a resend of an order the crash lost is taken');
      assert.equal(first.alreadyReceived, undefined);

      const again = await orders.receiveNewOrder({ ...fresh, possibleDuplicate: true });
      assert.deepEqual(again, { accepted: true, alreadyReceived: true, brokerOrderId: first.brokerOrderId });

      const differs = await orders.receiveNewOrder({ ...fresh, side: '2', possibleDuplicate: true });
      assert.equal(differs.accepted, false);
      assert.match(differs.text!, /Duplicate ClOrdID/);

      const plain = await orders.receiveNewOrder({ ...fresh, possibleDuplicate: false });
      assert.equal(plain.accepted, false, 'without the flag a reused ClOrdID is a duplicate');
      assert.equal(await ordersWith(fresh.clOrdId!), 1);
    });

    it('refuses in the documented order: a duplicate ClOrdID before the capabilities and the rate, reports in sequence order', async () => {
      const sgx = (await t.database.db.query<{ id: number }>("SELECT id FROM client_connectors WHERE comp_id = 'SGX_CLIENT_1'")).rows[0]!
        .id;
      await t.database.db.query('UPDATE client_capabilities SET max_order_qty = 50 WHERE clientconnectors_id = $1', [sgx]);
      t.server.ctx.events.emit('connector-changed', 'SGX_CLIENT_1');
      try {
        await client.send('D', newOrderSingle('CAP-1'));
        await client.waitForReport('CAP-1', (m) => m.get(150) === 'A');
        const before = client.received.length;
        // One burst: a duplicate over the maximum, a fresh order over the maximum, a good order, and a
        // ClOrdID reused (over the maximum) right behind its first use, still in flight.
        await Promise.all([
          client.send('D', newOrderSingle('CAP-1', { qty: '100' })),
          client.send('D', newOrderSingle('CAP-2', { qty: '100' })),
          client.send('D', newOrderSingle('CAP-3')),
          client.send('D', newOrderSingle('CAP-4')),
          client.send('D', newOrderSingle('CAP-4', { qty: '100' })),
        ]);
        await until('five answers', () => client.received.length >= before + 5);
        const answers = client.received.slice(before, before + 5).map((m) => `${m.get(11)} ${m.get(150)}/${m.get(103) ?? '-'}`);
        assert.deepEqual(answers, ['CAP-1 8/6', 'CAP-2 8/3', 'CAP-3 A/-', 'CAP-4 A/-', 'CAP-4 8/6']);
        const cap2 = client.received.slice(before).find((m) => m.get(11) === 'CAP-2')!;
        assert.equal(cap2.get(58), 'Order quantity 100 exceeds the maximum of 50 for C5TC');
        assert.equal(await ordersWith('CAP-1'), 1);
        assert.equal(await ordersWith('CAP-2'), 0);
        // After a logon the node knows none of the client's ClOrdIDs: the database answers, once the
        // client's earlier orders settled.
        t.server.ctx.orders.clientLoggedOn('SGX_CLIENT_1');
        const mark = client.received.length;
        await Promise.all([
          client.send('D', newOrderSingle('CAP-5')),
          client.send('D', newOrderSingle('CAP-5', { qty: '100' })),
          client.send('D', newOrderSingle('CAP-1', { qty: '100' })),
        ]);
        await until('three answers', () => client.received.length >= mark + 3);
        assert.deepEqual(
          client.received.slice(mark, mark + 3).map((m) => `${m.get(11)} ${m.get(150)}/${m.get(103) ?? '-'}`),
          ['CAP-5 A/-', 'CAP-5 8/6', 'CAP-1 8/6'],
        );
      } finally {
        await t.database.db.query('UPDATE client_capabilities SET max_order_qty = NULL WHERE clientconnectors_id = $1', [sgx]);
        t.server.ctx.events.emit('connector-changed', 'SGX_CLIENT_1');
      }
    });

    it("refuses orders over the connector's max orders per second (103=99), a duplicate among them as a duplicate", async () => {
      const admin = await t.login('admin');
      const put = (max: number) =>
        t.api('/api/client-connectors/SGX_CLIENT_1', { method: 'PUT', token: admin, json: { max_orders_per_second: max } });
      assert.equal((await put(3)).status, 200);
      try {
        // A fresh one-second window (earlier tests' orders counted in theirs).
        await new Promise((r) => setTimeout(r, 1_020 - (Date.now() % 1_000)));
        const before = client.received.length;
        const ids = Array.from({ length: 10 }, (_, i) => `RATE-${i}`);
        // The last one reuses the first one's ClOrdID.
        await Promise.all([...ids, 'RATE-0'].map((id) => client.send('D', newOrderSingle(id))));
        await until('eleven answers', () => client.received.length >= before + 11);
        const answers = client.received.slice(before, before + 11);
        const accepted = answers.filter((m) => m.get(150) === 'A');
        const overRate = answers.filter((m) => m.get(150) === '8' && m.get(103) === '99');
        assert.ok(
          accepted.length >= 3 && accepted.length <= 6,
          `3 a second (the burst may straddle two seconds): ${accepted.length} accepted`,
        );
        assert.ok(overRate.length >= 4, `${overRate.length} refused for the rate`);
        for (const m of overRate) assert.equal(m.get(58), 'Order rate limit of 3 orders per second exceeded');
        assert.deepEqual(
          answers.map((m) => m.get(11)),
          [...ids, 'RATE-0'],
          'answers in sequence order',
        );
        const last = answers.at(-1)!;
        assert.equal(`${last.get(150)}/${last.get(103)}`, '8/6', 'a duplicate, whatever the rate');
      } finally {
        assert.equal((await put(100)).status, 200);
      }
    });

    it('possible resends of held orders do not use up the rate; a possible resend that is a new order does', async () => {
      const admin = await t.login('admin');
      const put = (max: number) =>
        t.api('/api/client-connectors/EEX_CLIENT_1', { method: 'PUT', token: admin, json: { max_orders_per_second: max } });
      assert.equal((await put(3)).status, 200);
      const orders = t.server.ctx.orders;
      try {
        // The rate counts per second of the server's clock: the whole sequence must fall in one second.
        // On a busy machine it may not (each order is a commit); then it is tried again in the next.
        let inOneSecond = false;
        for (let attempt = 1; attempt <= 5 && !inOneSecond; attempt++) {
          await new Promise((r) => setTimeout(r, 1_020 - (Date.now() % 1_000)));
          const second = Math.floor(Date.now() / 1_000);
          const held = [nos(), nos()];
          const accepted = [];
          for (const o of held) accepted.push((await orders.receiveNewOrder(o)).accepted);
          // After a crash the client resends what it sent, flagged: held orders, ignored and not counted.
          const ignored = [];
          for (const o of held) {
            for (let i = 0; i < 3; i++) ignored.push((await orders.receiveNewOrder({ ...o, possibleDuplicate: true })).alreadyReceived);
          }
          const third = await orders.receiveNewOrder(nos());
          const flaggedButNew = await orders.receiveNewOrder(nos({ possibleDuplicate: true }));
          if (Math.floor(Date.now() / 1_000) !== second) continue;
          inOneSecond = true;
          assert.deepEqual(accepted, [true, true]);
          assert.deepEqual(ignored, [true, true, true, true, true, true]);
          assert.equal(third.accepted, true, 'the third order of the second is within the rate');
          assert.equal(flaggedButNew.accepted, false, 'a flagged order the desk never had is a new order and counts');
          assert.equal(flaggedButNew.text, 'Order rate limit of 3 orders per second exceeded');
        }
        assert.ok(inOneSecond, 'five tries, and the sequence never fell within one second');
      } finally {
        assert.equal((await put(100)).status, 200);
      }
    });

    it("a new order may not take the ClOrdID of the client's cancel request of the same day: refused 103=6, and the request confirms", async () => {
      const broker = await t.login('broker');
      await client.send('D', newOrderSingle('RQ-1'));
      const ack = await client.waitForReport('RQ-1', (m) => m.get(150) === 'A');
      const id = ack.get(37)!;
      assert.equal((await t.api(`/api/orders/${id}/accept`, { method: 'POST', token: broker, json: {} })).status, 200);
      await client.send('F', [
        [11, 'RQ-2'],
        [38, '10'],
        [41, 'RQ-1'],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
      await client.waitForReport('RQ-2', (m) => m.get(150) === '6');
      // Right behind the request (the node knows its ClOrdID), and again after a logon (the index reloads
      // from the database, requests included).
      await client.send('D', newOrderSingle('RQ-2'));
      const refused = await client.waitForReport('RQ-2', (m) => m.get(150) === '8');
      assert.equal(`${refused.get(39)}/${refused.get(103)}`, '8/6');
      assert.equal(refused.get(58), 'Duplicate ClOrdID RQ-2');
      t.server.ctx.orders.clientLoggedOn('SGX_CLIENT_1');
      const mark = client.received.length;
      await client.send('D', newOrderSingle('RQ-2', { qty: '3' }));
      const again = await until('the second refusal', () =>
        client.received.slice(mark).find((m) => m.get(11) === 'RQ-2' && m.get(150) === '8'),
      );
      assert.equal(again.get(103), '6');
      assert.equal(await ordersWith('RQ-2'), 0);
      const confirm = await t.api(`/api/orders/${id}/cancel-request/confirm`, { method: 'POST', token: broker, json: {} });
      assert.equal(confirm.status, 200, await confirm.text());
      const canceled = await client.waitForReport('RQ-2', (m) => m.get(150) === '4');
      assert.equal(canceled.get(41), 'RQ-1');
    });

    it('order core: the same ClOrdID twice in one burst is stored once and refused once, in order', async () => {
      const o = nos();
      const [a, b] = await Promise.all([t.server.ctx.orders.receiveNewOrder(o), t.server.ctx.orders.receiveNewOrder({ ...o })]);
      assert.equal(a.accepted, true);
      assert.equal(b.accepted, false);
      assert.equal(await ordersWith(o.clOrdId!), 1);
    });
  });
}
