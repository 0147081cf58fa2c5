// The other nodes' order changes wait in a queue bounded by merging an order's
// changes and, past a cap, by a resync; a resync past its limit tells the browsers to reload; orders
// refused at intake are read again after a gap like the others.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { OrderPublisher, StoredChange } from '../orders/publisher';
import type { NodeBus } from './node-bus';
import { ORDERS_CHANNEL, OrderFanOut, type OrderActivity } from './order-fan-out';

const log = pino({ level: 'silent' });

class FakeBus implements NodeBus {
  onMessage: ((body: Record<string, unknown>) => void) | undefined;
  onGap: (() => void) | undefined;
  readonly published: Array<{ channel: string; body: Record<string, unknown> }> = [];
  publish(channel: string, body: Record<string, unknown>): void {
    this.published.push({ channel, body });
  }
  async subscribe(channel: string, onMessage: (body: Record<string, unknown>) => void, onGap: () => void): Promise<void> {
    assert.equal(channel, ORDERS_CHANNEL);
    this.onMessage = onMessage;
    this.onGap = onGap;
  }
  async close(): Promise<void> {}
}

/** A publisher whose reads can be held (a slow database) and that records what it was asked to publish. */
class FakePublisher {
  readonly stored: StoredChange[][] = [];
  readonly refusals: number[][] = [];
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  hold(): void {
    this.gate = new Promise((r) => (this.open = r));
  }
  release(): void {
    this.open?.();
    this.gate = undefined;
  }
  async publishStored(changes: readonly StoredChange[]): Promise<void> {
    this.stored.push([...changes]);
    await this.gate;
  }
  async publishStoredRefusals(ids: readonly number[]): Promise<void> {
    this.refusals.push([...ids]);
    await this.gate;
  }
}

/** The database's answers, scripted; records where each resync started. */
class FakeActivity implements OrderActivity {
  latestIds = { er: 100, action: 50, refused: 1000 };
  changed: { orderIds: number[]; er: number; action: number; truncated: boolean } | undefined;
  refused: number[] = [];
  readonly asked: Array<{ er: number; action: number; refused: number }> = [];
  async latest() {
    return { ...this.latestIds };
  }
  async changedAfter(after: { er: number; action: number }) {
    this.asked.push({ ...after, refused: -1 });
    return this.changed ?? { orderIds: [], er: after.er, action: after.action, truncated: false };
  }
  async refusedAfter(after: number, limit: number) {
    this.asked[this.asked.length - 1]!.refused = after;
    const ids = this.refused.filter((id) => id > after).slice(0, limit);
    return { ids, last: ids.at(-1) ?? after };
  }
}

async function setUp(options: { queueCap?: number; resyncLimit?: number } = {}) {
  const bus = new FakeBus();
  const activity = new FakeActivity();
  const publisher = new FakePublisher();
  const reloads: string[] = [];
  const fanOut = new OrderFanOut(bus, activity, log, { reloadBrowsers: (reason) => reloads.push(reason), retryDelayMs: 1, ...options });
  await fanOut.start(publisher as unknown as OrderPublisher);
  return { bus, activity, publisher, reloads, fanOut };
}

const settle = () => new Promise((r) => setTimeout(r, 20));
/** A message of another node: [order, report, action, new]. */
const changes = (...c: Array<[number, number | null, number | null, 0 | 1]>) => ({ c });

describe("the other nodes' order changes", () => {
  it('merge by order while they wait: each order once per batch, with every report and action, new first', async () => {
    const { bus, publisher, fanOut } = await setUp();
    publisher.hold();
    bus.onMessage!(changes([1, 101, null, 1]));
    await settle();
    // Order 1's first change is being read; what comes meanwhile waits, merged by order.
    bus.onMessage!(changes([2, 102, null, 1], [1, 103, 51, 0]));
    bus.onMessage!(changes([2, 104, null, 0], [1, 105, null, 0], [3, null, 52, 0]));
    bus.onMessage!(changes([1, 106, 53, 0]));
    // Orders 2, 1 and 3 (3 ids), reports 102 104 103 105 106 (5), actions 51 52 53 (3).
    assert.equal(fanOut.queueSize(), 11);
    publisher.release();
    await settle();
    assert.equal(publisher.stored.length, 2);
    assert.deepEqual(publisher.stored[0], [{ orderId: 1, erId: 101, actionId: null, isNew: true }]);
    assert.deepEqual(publisher.stored[1], [
      { orderId: 2, erId: 102, actionId: null, isNew: true },
      { orderId: 2, erId: 104, actionId: null, isNew: false },
      { orderId: 1, erId: 103, actionId: 51, isNew: false },
      { orderId: 1, erId: 105, actionId: 53, isNew: false },
      { orderId: 1, erId: 106, actionId: null, isNew: false },
      { orderId: 3, erId: null, actionId: 52, isNew: false },
    ]);
    assert.equal(fanOut.queueSize(), 0);
  });

  it('past the cap, the queue is dropped and a resync reads again from before the oldest change it held', async () => {
    const { bus, activity, publisher, fanOut } = await setUp({ queueCap: 6 });
    publisher.hold();
    bus.onMessage!(changes([1, 101, null, 1]));
    await settle();
    bus.onMessage!(changes([2, 102, null, 1], [3, 103, 51, 1]));
    assert.equal(fanOut.queueSize(), 5);
    bus.onMessage!({ c: [[4, 110, 60, 1]], r: [1001] });
    // 5 + 3 + 1 ids is past the cap of 6: dropped.
    assert.equal(fanOut.queueSize(), 0);
    activity.changed = { orderIds: [2, 3, 4], er: 110, action: 60, truncated: false };
    activity.refused = [1001];
    publisher.release();
    await settle();
    // The resync starts just before the oldest report, action and refused order the queue held.
    assert.deepEqual(activity.asked, [{ er: 101, action: 50, refused: 1000 }]);
    assert.deepEqual(
      publisher.stored.at(-1),
      [2, 3, 4].map((orderId) => ({ orderId, erId: null, actionId: null, isNew: false })),
    );
    assert.deepEqual(publisher.refusals.at(-1), [1001]);
    assert.equal(fanOut.queueSize(), 0);
  });

  it('a resync that reaches its limit tells the browsers to reload and starts the next one from the latest', async () => {
    const { bus, activity, publisher, reloads } = await setUp({ resyncLimit: 3 });
    bus.onMessage!(changes([1, 101, null, 1]));
    await settle();
    activity.changed = { orderIds: [5, 6, 7], er: 140, action: 55, truncated: true };
    activity.latestIds = { er: 150, action: 70, refused: 1000 };
    const before = publisher.stored.length;
    bus.onGap!();
    await settle();
    assert.equal(reloads.length, 1);
    assert.match(reloads[0]!, /reloading/);
    assert.equal(publisher.stored.length, before, 'nothing published one by one: the browsers reload');
    activity.changed = undefined;
    bus.onGap!();
    await settle();
    assert.deepEqual(activity.asked.at(-1), { er: 150, action: 70, refused: 1000 });
    assert.equal(reloads.length, 1);
  });

  it('after a gap, orders refused at intake since the last heard of are published again; past the limit the browsers reload', async () => {
    const { bus, activity, publisher, reloads } = await setUp({ resyncLimit: 3 });
    bus.onMessage!({ c: [], r: [1001, 1002] });
    await settle();
    assert.deepEqual(publisher.refusals, [[1001, 1002]]);
    // 1003 and 1004 were refused at another node and their message was lost.
    activity.refused = [1001, 1002, 1003, 1004];
    bus.onGap!();
    await settle();
    assert.equal(activity.asked.at(-1)!.refused, 1002);
    assert.deepEqual(publisher.refusals.at(-1), [1003, 1004]);
    assert.deepEqual(reloads, []);
    activity.refused = [1001, 1002, 1003, 1004, 1005, 1006, 1007];
    activity.latestIds = { er: 100, action: 50, refused: 1007 };
    bus.onGap!();
    await settle();
    assert.equal(activity.asked.at(-1)!.refused, 1004);
    assert.equal(reloads.length, 1);
    assert.deepEqual(publisher.refusals.at(-1), [1003, 1004], 'the three missed are not sent one by one');
  });
});
