import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimal } from '@fixdesk/domain';
import { ORDER_STATUS_UPDATED, type Order, type OrderActionResponse } from '@fixdesk/protocol';
import {
  BROKER_SIM_USER_ID,
  BrokerSimulator,
  chunkCount,
  delayProblem,
  jitteredPrice,
  splitQuantity,
  type BrokerSimApi,
} from './broker-simulator';

function order(o: Partial<Order> = {}): Order {
  return {
    id: 1,
    brokerorderid: 'BO00000001',
    orderid: 'BO00000001',
    clordid: 'SGX-1.1',
    origclordid: null,
    client_connector_id: 1,
    sendercompid: 'SGX_CLIENT_1',
    targetcompid: 'FIXDESK',
    client_name: 'Straits',
    client_phone: null,
    company_name: null,
    msg_type: 'D',
    symbol: 'C5TC',
    security_type: 'FUT',
    maturity_month_year: '202612',
    side: '1',
    ordtype: '2',
    price: '27000',
    orderqty: '10',
    order_qty: '10',
    timeinforce: '0',
    exchange: null,
    currency: 'USD',
    account: null,
    text: null,
    ordstatus: 'A',
    cumqty: '0',
    leavesqty: '10',
    avgpx: '0',
    lastqty: null,
    lastpx: null,
    transacttime: '2026-01-05T10:00:00Z',
    accepted_by: null,
    created_at: '2026-01-05T10:00:00Z',
    updated_at: new Date().toISOString(),
    legs: [],
    parties: [],
    pendingRequest: null,
    ...o,
  };
}

/** Fake timers and a fake desk that applies the simulator's calls like the server would. */
function harness(random = () => 0.5) {
  let now = Date.now();
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  const calls: Array<{ what: string; body: Record<string, string | undefined> }> = [];
  let current = order();
  const answer = (fullyFilled = false): OrderActionResponse => ({
    success: true,
    order: { ...current, legs: [] },
    fullyFilled,
    message: '',
  });
  const api: BrokerSimApi = {
    accept: async (_id, body) => {
      calls.push({ what: 'accept', body });
      current = { ...current, ordstatus: '0' };
      return answer();
    },
    fill: async (_id, body) => {
      calls.push({ what: 'fill', body });
      const cum = Decimal.from(current.cumqty).add(body.fillQty);
      const leaves = Decimal.from(current.orderqty).sub(cum);
      current = { ...current, cumqty: cum.toString(), leavesqty: leaves.toString(), ordstatus: leaves.isZero() ? '2' : '1' };
      return answer(leaves.isZero());
    },
    doneForDay: async (_id, body) => {
      calls.push({ what: 'done', body });
      current = { ...current, ordstatus: '3' };
      return answer();
    },
  };
  const sim = new BrokerSimulator({
    api,
    random,
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = next++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (h) => timers.delete(h as number),
    tickSize: () => '1',
  });
  async function advance(ms: number) {
    const until = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    }
    now = until;
  }
  return {
    sim,
    calls,
    advance,
    get current() {
      return current;
    },
    pendingTimers: () => timers.size,
  };
}

describe('broker simulator auto mode', () => {
  it('accepts after the accept delay, fills in 2-4 chunks 2 s apart within the limit, then done for day 1 s later', async () => {
    const h = harness();
    h.sim.setSettings({ auto: true, acceptDelaySec: 2, fillDelaySec: 3 });
    h.sim.onOrder(order());
    await h.advance(1999);
    assert.equal(h.calls.length, 0, 'nothing before the accept delay');
    await h.advance(1);
    assert.deepEqual(
      h.calls.map((c) => c.what),
      ['accept'],
    );
    assert.equal(h.calls[0]!.body.userId, BROKER_SIM_USER_ID);
    await h.advance(2999);
    assert.equal(h.calls.length, 1, 'no fill before the fill delay');
    await h.advance(1);
    assert.deepEqual(
      h.calls.map((c) => c.what),
      ['accept', 'fill'],
    );
    await h.advance(1999);
    assert.equal(h.calls.length, 2, 'fills are 2 s apart');
    await h.advance(30_000);
    const fills = h.calls.filter((c) => c.what === 'fill');
    assert.ok(fills.length >= 2 && fills.length <= 4, `${fills.length} fills`);
    assert.equal(fills.reduce((s, f) => s.add(f.body.fillQty!), Decimal.ZERO).toString(), '10');
    for (const f of fills) {
      const px = Decimal.from(f.body.fillPrice!);
      assert.ok(px.lte('27000') && px.gte('26460'), `buy fill at ${f.body.fillPrice}`);
      assert.ok(px.isInteger(), 'on the 1-dollar tick');
    }
    assert.equal(h.calls.at(-1)!.what, 'done');
    assert.equal(h.current.ordstatus, '3');
    const state = h.sim.getState();
    assert.equal(state.recent[0]!.phase, 'done');
    assert.equal(state.counters.processed, 1);
    assert.equal(state.counters.completedToday, 1);
  });

  it('leaves orders alone while auto mode is off and picks up pending ones when it is turned on', async () => {
    const h = harness();
    h.sim.loadOrders([order(), order({ id: 2, brokerorderid: 'BO00000002', ordstatus: '0' })]);
    await h.advance(10_000);
    assert.equal(h.calls.length, 0);
    assert.deepEqual(h.sim.getState().counters, { pending: 1, active: 1, completedToday: 0, processed: 0 });
    h.sim.setSettings({ auto: true });
    await h.advance(2000);
    assert.deepEqual(
      h.calls.map((c) => c.what),
      ['accept'],
      'only the pending order, not the one a person accepted',
    );
  });

  it('does not count or work orders refused at intake (records without a broker order id)', async () => {
    const h = harness();
    const refused = (id: number) =>
      order({ id, brokerorderid: '', ordstatus: '8', refusal: { ordRejReason: 1, text: 'Unknown symbol X' } });
    h.sim.loadOrders([order(), refused(7)]);
    h.sim.onOrder(refused(8));
    assert.deepEqual(h.sim.getState().counters, { pending: 1, active: 0, completedToday: 0, processed: 0 });
  });

  it('stops an order when the desk refuses a call, and stops everything when auto mode is turned off', async () => {
    const h = harness();
    h.sim.setSettings({ auto: true, acceptDelaySec: 1, fillDelaySec: 1 });
    h.sim.onOrder(order());
    await h.advance(2000);
    h.sim.setSettings({ auto: false });
    assert.equal(h.pendingTimers(), 0);
    assert.equal(h.sim.getState().recent[0]!.phase, 'stopped');
    assert.equal(h.sim.getState().recent[0]!.note, 'Auto mode turned off');
  });

  it('validates the delays (1 to 10 seconds)', () => {
    assert.equal(delayProblem('Accept delay', 1), null);
    assert.equal(delayProblem('Accept delay', 10), null);
    assert.equal(delayProblem('Accept delay', 0), 'Accept delay must be between 1 and 10 seconds');
    assert.equal(delayProblem('Fill delay', 11), 'Fill delay must be between 1 and 10 seconds');
    assert.equal(delayProblem('Fill delay', ''), 'Fill delay must be between 1 and 10 seconds');
    const h = harness();
    assert.throws(() => h.sim.setSettings({ acceptDelaySec: 0 }), /Accept delay must be between 1 and 10 seconds/);
  });
});

describe('fill planning', () => {
  it('splits a quantity into whole positive chunks that add up', () => {
    for (const seed of [0, 0.3, 0.99]) {
      for (const [total, count] of [
        [10, 2],
        [10, 4],
        [3, 4],
        [1, 3],
        [1000, 3],
      ] as const) {
        const chunks = splitQuantity(Decimal.from(total), count, () => seed);
        assert.equal(chunks.length, Math.min(count, total));
        assert.ok(chunks.every((c) => c.isInteger() && c.isPositive()));
        assert.equal(Decimal.sum(chunks).toString(), String(total));
      }
    }
    assert.equal(
      chunkCount(() => 0),
      2,
    );
    assert.equal(
      chunkCount(() => 0.999),
      4,
    );
  });

  it('prices on the client side of the limit, within 2 %, on the tick, for spreads too', () => {
    const r = () => 0.999;
    assert.equal(jitteredPrice(Decimal.from('27000'), '1', r, Decimal.from('1')).toString(), '26462');
    assert.equal(jitteredPrice(Decimal.from('27000'), '2', r, Decimal.from('1')).toString(), '27538');
    assert.equal(jitteredPrice(Decimal.from('12.5'), '1', r, Decimal.from('0.01')).toString(), '12.25');
    assert.equal(jitteredPrice(Decimal.from('-100'), '1', r, null).toString(), '-101.99');
    assert.equal(jitteredPrice(Decimal.from('0'), '2', r, null).toString(), '0');
    assert.equal(jitteredPrice(Decimal.from('27000'), '1', () => 0, Decimal.from('1')).toString(), '27000');
  });
});

// Spec 000 §4: "The simulator also sets a synthetic status UPDATED when an update message
// carries order info."
describe('broker simulator: order info', () => {
  const info = { event: 'status_request' as const, comp_id: 'SGX_CLIENT_1', clordid: 'SGX-1.1', timestamp: '2026-01-05T10:01:00Z' };

  it('shows UPDATED while the last message carried order info, the order status again after the next change', async () => {
    const h = harness();
    h.sim.onOrder(order({ ordstatus: '0' }));
    assert.equal(h.sim.getState().recent[0]!.status, '0');
    h.sim.onOrder(order({ ordstatus: '0' }), info);
    assert.equal(h.sim.getState().recent[0]!.status, ORDER_STATUS_UPDATED);
    assert.match(h.sim.getState().activity[0]!.text, /SGX_CLIENT_1 asked for the status of SGX-1\.1/);
    h.sim.onOrder(order({ ordstatus: '1', cumqty: '4', leavesqty: '6' }));
    assert.equal(h.sim.getState().recent[0]!.status, '1');
  });

  it('still works a pending order first seen with order info (the real status drives auto mode)', async () => {
    const h = harness();
    h.sim.setSettings({ auto: true, acceptDelaySec: 1, fillDelaySec: 1 });
    h.sim.onOrder(order(), info);
    assert.equal(h.sim.getState().recent[0]!.status, ORDER_STATUS_UPDATED);
    await h.advance(1000);
    assert.deepEqual(
      h.calls.map((c) => c.what),
      ['accept'],
    );
    assert.equal(h.sim.getState().recent[0]!.status, '0', 'the accept answer is a change: its status shows');
  });
});
