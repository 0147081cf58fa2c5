// Beyond the spec: orders refused at intake are records (refused_orders; listed by GET
// /api/orders as Rejected with their reason, filterable), and an order's whole story in one place
// (GET /api/orders/{id}/timeline: FIX messages, state changes and user actions in time order, each
// state change and action linked to the message that told the client).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { Order, OrderTimeline } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient, ts } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

const MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

for (const kind of TEST_DB_KINDS) {
  describe(`refused orders and the order timeline on ${kind}`, () => {
    let t: TestServer;
    let viewer: string;
    let broker: string;
    let client: TestFixClient;

    const get = async <T>(path: string, token = viewer): Promise<T> => {
      const r = await t.api(path, { token });
      assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
      return (await r.json()) as T;
    };
    const list = (query = '') => get<Order[]>(`/api/orders?includeExecReports=false${query}`);
    /** The list once it shows what `ready` waits for: a refused order is recorded just after its refusal is sent. */
    const listWhen = async (ready: (orders: Order[]) => boolean, what: string): Promise<Order[]> => {
      for (let i = 0; ; i++) {
        const orders = await list();
        if (ready(orders)) return orders;
        assert.ok(i < 100, `the list never showed ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    before(async () => {
      t = await startTestServer(kind);
      viewer = await t.login('viewer');
      broker = await t.login('broker');
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(t.server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    it('keeps an order refused for an unknown symbol, lists it as Rejected with its reason, and filters it', async () => {
      await client.send('D', newOrderSingle('REF-SYM-1', { symbol: 'NOPE', price: '27000.50' }));
      const report = await client.waitForReport('REF-SYM-1');
      assert.equal(`${report.get(150)}/${report.get(39)}`, '8/8');
      const all = await listWhen((os) => os.some((o) => o.clordid === 'REF-SYM-1'), 'the refused order');
      const refused = all.find((o) => o.clordid === 'REF-SYM-1');
      assert.ok(refused, 'the refused order is listed');
      assert.equal(refused.ordstatus, '8');
      assert.equal(refused.brokerorderid, '');
      assert.equal(refused.symbol, 'NOPE');
      assert.equal(refused.price, '27000.5');
      assert.deepEqual(refused.refusal, { ordRejReason: Number(report.get(103)), text: report.get(58) });
      assert.ok(!(await list('&refused=exclude')).some((o) => o.clordid === 'REF-SYM-1'));
      const only = await list('&refused=only');
      assert.ok(only.length >= 1 && only.every((o) => o.refusal), 'only refused orders');
      assert.ok(!(await list('&status=0,A')).some((o) => o.clordid === 'REF-SYM-1'), 'off the working set');
      const one = await get<{ data: Order }>(`/api/orders/${refused.id}`);
      assert.equal(one.data.clordid, 'REF-SYM-1');
      assert.deepEqual(one.data.refusal, refused.refusal);
      const bad = await t.api('/api/orders?refused=maybe', { token: viewer });
      assert.equal(bad.status, 400);
    });

    it('a duplicate ClOrdID is kept apart from the original: both listed, the original untouched', async () => {
      await client.send('D', newOrderSingle('REF-DUP-1'));
      const ack = await client.waitForReport('REF-DUP-1', (m) => m.get(150) === 'A');
      await client.send('D', newOrderSingle('REF-DUP-1', { qty: '99' }));
      await client.waitForReport('REF-DUP-1', (m) => m.get(150) === '8');
      const both = (await listWhen((os) => os.filter((o) => o.clordid === 'REF-DUP-1').length >= 2, 'both orders')).filter(
        (o) => o.clordid === 'REF-DUP-1',
      );
      assert.equal(both.length, 2, JSON.stringify(both));
      const [dup, original] = both;
      assert.equal(original!.brokerorderid, ack.get(37));
      assert.equal(original!.ordstatus, 'A');
      assert.equal(dup!.ordstatus, '8');
      assert.equal(dup!.orderqty, '99');
      assert.equal(dup!.refusal?.ordRejReason, 6);
      assert.ok(dup!.id > original!.id, 'newest first, ids never shared');
      // The refused order's id comes from the orders' own block: the next order sorts above it.
      await client.send('D', newOrderSingle('REF-DUP-2'));
      await client.waitForReport('REF-DUP-2', (m) => m.get(150) === 'A');
      const ids = (await list()).filter((o) => o.clordid.startsWith('REF-DUP-')).map((o) => `${o.clordid}:${o.ordstatus}`);
      assert.deepEqual(ids, ['REF-DUP-2:A', 'REF-DUP-1:8', 'REF-DUP-1:A'], 'newest first, in arrival order');
    });

    it('a burst over the rate: every refusal kept, in arrival order among the accepted orders, with its reason', async () => {
      const admin = await t.login('admin');
      const put = (max: number) =>
        t.api('/api/client-connectors/SGX_CLIENT_1', { method: 'PUT', token: admin, json: { max_orders_per_second: max } });
      assert.equal((await put(2)).status, 200);
      try {
        await new Promise((r) => setTimeout(r, 1_020 - (Date.now() % 1_000)));
        const ids = Array.from({ length: 30 }, (_, i) => `REF-RATE-${String(i).padStart(2, '0')}`);
        await Promise.all(ids.map((id) => client.send('D', newOrderSingle(id))));
        await until('thirty answers', () => ids.every((id) => client.received.some((m) => m.get(11) === id)));
        const refusedIds = ids.filter((id) => client.received.find((m) => m.get(11) === id)!.get(150) === '8');
        assert.ok(refusedIds.length >= 20, `${refusedIds.length} refused`);
        const rated = (os: Order[]) => os.filter((o) => o.clordid.startsWith('REF-RATE-'));
        const listed = rated(await listWhen((os) => rated(os).length >= ids.length, 'all thirty'));
        assert.deepEqual(
          listed.map((o) => o.clordid),
          [...ids].reverse(),
          'all thirty, newest first, refused among accepted',
        );
        for (const o of listed.filter((x) => x.refusal)) {
          assert.deepEqual(o.refusal, { ordRejReason: 99, text: 'Order rate limit of 2 orders per second exceeded' });
        }
        assert.deepEqual(
          listed
            .filter((o) => o.refusal)
            .map((o) => o.clordid)
            .sort(),
          refusedIds.sort(),
        );
      } finally {
        assert.equal((await put(100)).status, 200);
      }
    });

    it("tells an order's story: the D, its Pending New, the broker's accept with its note, each linked to its message", async () => {
      await client.send('D', newOrderSingle('TL-1'));
      const ack = await client.waitForReport('TL-1', (m) => m.get(150) === 'A');
      const order = (await list()).find((o) => o.clordid === 'TL-1')!;
      const accepted = await t.api(`/api/orders/${order.id}/accept`, {
        method: 'POST',
        token: broker,
        json: { notes: 'checked with desk' },
      });
      assert.equal(accepted.status, 200, await accepted.clone().text());
      await client.waitForReport('TL-1', (m) => m.get(150) === '0');
      // The inbound audit row of the next message is written once it was processed: wait for our report's row too.
      let tl: OrderTimeline | undefined;
      for (let i = 0; i < 100; i++) {
        tl = (await get<{ data: OrderTimeline }>(`/api/orders/${order.brokerorderid}/timeline`)).data;
        if (tl.entries.filter((e) => e.kind === 'fix').length >= 3) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(tl);
      assert.equal(tl.orderId, order.id);
      for (const e of tl.entries) assert.match(e.at, MICROS);
      const sorted = [...tl.entries].map((e) => e.at).sort();
      assert.deepEqual(
        tl.entries.map((e) => e.at),
        sorted,
        'in time order',
      );
      const fix = tl.entries.filter((e) => e.kind === 'fix');
      assert.deepEqual(
        fix.map((e) => `${e.message.direction} ${e.message.msgtype} ${e.fields['150'] ?? ''}`),
        ['RX D ', 'TX 8 A', 'TX 8 0'],
      );
      assert.equal(fix[1]!.message.brokerorderid, ack.get(37));
      const states = tl.entries.filter((e) => e.kind === 'state');
      assert.deepEqual(
        states.map((s) => `${s.previousStatus}→${s.ordStatus}`),
        ['null→A', 'A→0'],
      );
      assert.equal(states[0]!.fixMessageId, fix[1]!.message.id, 'the Pending New links to the message that carried it');
      const action = tl.entries.find((e) => e.kind === 'action');
      assert.ok(action && action.kind === 'action');
      assert.equal(action.actionType, 'ACCEPT');
      assert.equal(action.userId, 'broker');
      assert.equal(action.notes, 'checked with desk');
      assert.equal(action.fixMessageId, fix[2]!.message.id);
      // The numeric id answers the same story.
      const byId = (await get<{ data: OrderTimeline }>(`/api/orders/${order.id}/timeline`)).data;
      assert.equal(byId.entries.length, tl.entries.length);
    });

    it("a client's cancel request (without OrderID) and our cancel reject are in the story, with the broker's refusal", async () => {
      await client.send('D', newOrderSingle('TL-F-1'));
      await client.waitForReport('TL-F-1', (m) => m.get(150) === 'A');
      const order = (await list()).find((o) => o.clordid === 'TL-F-1')!;
      await client.send('F', [
        [11, 'TL-F-1-X'],
        [41, 'TL-F-1'],
        [38, '10'],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
      await until('pending cancel', () => client.received.find((m) => m.get(11) === 'TL-F-1-X' && m.get(150) === '6'));
      const refused = await t.api(`/api/orders/${order.id}/cancel-request/refuse`, {
        method: 'POST',
        token: broker,
        json: { reason: 'keep working it' },
      });
      assert.equal(refused.status, 200, await refused.clone().text());
      await until('cancel reject', () => client.received.find((m) => m.msgType === '9' && m.get(11) === 'TL-F-1-X'));
      let kinds: string[] = [];
      for (let i = 0; i < 100; i++) {
        const tl = (await get<{ data: OrderTimeline }>(`/api/orders/${order.id}/timeline`)).data;
        kinds = tl.entries.map((e) =>
          e.kind === 'fix'
            ? `${e.message.direction} ${e.message.msgtype}`
            : e.kind === 'state'
              ? `state ${e.ordStatus}`
              : `action ${e.actionType}`,
        );
        if (kinds.includes('TX 9') && kinds.includes('RX F')) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      for (const k of ['RX D', 'TX 8', 'RX F', 'state 6', 'action CANCEL_REFUSE', 'TX 9'])
        assert.ok(kinds.includes(k), `${k} in ${kinds.join(', ')}`);
      assert.ok(kinds.indexOf('RX F') < kinds.indexOf('TX 9'), 'request before its reject');
    });

    it("tells a refused order's story: the client's message and our refusal", async () => {
      await client.send('D', newOrderSingle('TL-REF-1', { symbol: 'UNKNOWN1' }));
      const refusal = await client.waitForReport('TL-REF-1');
      // A refused order is recorded just after its refusal is sent (it is no acknowledgement).
      const refused = (await listWhen((os) => os.some((o) => o.clordid === 'TL-REF-1'), 'the refused order')).find(
        (o) => o.clordid === 'TL-REF-1',
      )!;
      let tl: OrderTimeline | undefined;
      for (let i = 0; i < 100; i++) {
        tl = (await get<{ data: OrderTimeline }>(`/api/orders/${refused.id}/timeline`)).data;
        if (tl.entries.filter((e) => e.kind === 'fix').length >= 2) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(tl?.refused);
      const kinds = tl.entries.map((e) => (e.kind === 'fix' ? `${e.message.direction} ${e.message.msgtype}` : e.kind));
      assert.deepEqual(
        kinds.filter((k) => k !== 'state'),
        ['RX D', 'TX 8'],
      );
      const state = tl.entries.find((e) => e.kind === 'state');
      assert.ok(state && state.kind === 'state');
      assert.equal(state.ordStatus, '8');
      assert.equal(state.text, refusal.get(58));
      const reply = tl.entries.find((e) => e.kind === 'fix' && e.message.direction === 'TX');
      assert.equal(state.fixMessageId, reply && reply.kind === 'fix' ? reply.message.id : -1);
    });

    it('answers 400 for a malformed id and 404 for an unknown order', async () => {
      assert.equal((await t.api('/api/orders/%27%3B--/timeline', { token: viewer })).status, 400);
      assert.equal((await t.api('/api/orders/999999999/timeline', { token: viewer })).status, 404);
      assert.equal((await t.api('/api/orders/1/timeline')).status, 401);
    });
  });
}
