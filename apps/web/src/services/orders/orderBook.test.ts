import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '@fixdesk/protocol';
import { OrderBook, type BookDelta, type OrderMessage } from './orderBook';
import { anOrder, aReport } from '../../../test/orders';

function harness() {
  const flushes: (() => void)[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  const book = new OrderBook({
    schedule: (fn) => flushes.push(fn),
    now: () => 0,
    warn: (m) => warnings.push(m),
    error: (m) => errors.push(m),
  });
  const deltas: BookDelta[] = [];
  book.onDelta((d) => deltas.push(d));
  const runFlushes = () => {
    while (flushes.length) flushes.shift()!();
  };
  return { book, deltas, warnings, errors, runFlushes, pending: () => flushes.length };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const at = (minute: number) => `2026-03-02T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('order book: snapshot then deltas', () => {
  it('queues live messages while the snapshot loads and replays them in order', async () => {
    const h = harness();
    const snapshot = deferred<Order[]>();
    const loading = h.book.load(() => snapshot.promise);
    assert.equal(h.book.getView().status, 'loading');
    h.book.receive({ type: 'new_order', orderData: anOrder({ id: 2, clordid: 'C2', brokerorderid: 'BO2', updated_at: at(2) }) });
    h.book.receive({
      type: 'order_update',
      orderData: anOrder({ id: 2, clordid: 'C2', brokerorderid: 'BO2', ordstatus: '0', updated_at: at(3) }),
    });
    h.book.receive({ type: 'order_update', orderData: anOrder({ id: 1, ordstatus: '0', updated_at: at(4) }) });
    snapshot.resolve([anOrder({ id: 1, updated_at: at(1) })]);
    await loading;
    h.runFlushes();
    assert.equal(h.book.getView().status, 'ready');
    assert.equal(h.book.getOrder(1)!.ordstatus, '0', 'the queued update applies over the older snapshot');
    assert.equal(h.book.getOrder(2)!.ordstatus, '0', 'new then update, in order');
    assert.equal(h.deltas.length, 1, 'one batched change');
    assert.equal(h.deltas[0]!.reset, true);
  });

  it('a queued older copy does not regress a newer snapshot', async () => {
    const h = harness();
    const snapshot = deferred<Order[]>();
    const loading = h.book.load(() => snapshot.promise);
    h.book.receive({ type: 'order_update', orderData: anOrder({ ordstatus: '1', cumqty: '4', updated_at: at(2) }) });
    h.book.receive({ type: 'execution_report', data: aReport({ ordstatus: '1', cumqty: '4', timestamp: at(2) }) });
    snapshot.resolve([anOrder({ ordstatus: '2', cumqty: '10', leavesqty: '0', updated_at: at(5) })]);
    await loading;
    assert.equal(h.book.getOrder(1)!.ordstatus, '2');
    assert.equal(h.book.getOrder(1)!.cumqty, '10');
  });

  it('batches many updates of one order into one flush with the latest state', async () => {
    const h = harness();
    await h.book.load(async () => [anOrder()]);
    h.runFlushes();
    for (let i = 1; i <= 50; i++) {
      h.book.receive({
        type: 'order_update',
        orderData: anOrder({ ordstatus: '1', cumqty: String(i), updated_at: `2026-03-02T11:00:00.${String(i).padStart(3, '0')}Z` }),
      });
    }
    assert.equal(h.pending(), 1, 'one flush scheduled for 50 messages');
    h.runFlushes();
    const last = h.deltas.at(-1)!;
    assert.equal(last.update.length, 1);
    assert.equal(last.update[0]!.cumqty, '50');
  });

  it('execution reports are matched by clordid and recorded in a loaded history', async () => {
    const h = harness();
    await h.book.load(async () => [anOrder({ ordstatus: '0', updated_at: at(1) })]);
    h.book.applyOrderDetail({ ...anOrder({ ordstatus: '0', updated_at: at(1) }), execReports: [aReport({ id: 1 })] });
    h.book.receive({
      type: 'execution_report',
      data: aReport({
        id: 2,
        exectype: 'F',
        ordstatus: '1',
        cumqty: '3',
        leavesqty: '7',
        lastqty: '3',
        lastpx: '26950',
        avgpx: '26950',
        timestamp: at(2),
      }),
    });
    h.book.receive({ type: 'execution_report', data: aReport({ id: 9, clordid: 'UNKNOWN', order_id: 999 }) });
    h.book.receive({ type: 'execution_report', data: aReport({ id: 10, clordid: '' }) });
    h.runFlushes();
    assert.equal(h.book.getOrder(1)!.cumqty, '3');
    assert.deepEqual(
      h.book.getExecutionReports(1)!.map((r) => r.id),
      [1, 2],
    );
    assert.ok(h.warnings.some((w) => w.includes('without clordid')));
  });

  it('skips snapshot orders without id and rejects updates without id or new orders without brokerorderid', async () => {
    const h = harness();
    await h.book.load(async () => [anOrder(), { ...anOrder(), id: undefined } as unknown as Order]);
    assert.equal(h.book.getView().status, 'ready');
    h.runFlushes();
    assert.equal(h.book.getView().count, 1);
    h.book.receive({ type: 'order_update', orderData: { ...anOrder(), id: undefined } as unknown as Order });
    h.book.receive({ type: 'new_order', orderData: anOrder({ id: 5, brokerorderid: '' }) });
    h.runFlushes();
    assert.equal(h.book.getView().count, 1);
    assert.equal(h.errors.length, 2);
    assert.ok(h.warnings.some((w) => w.includes('without id')));
  });

  it('shows an order refused at intake as it arrives, and it takes no report of a working order with the same ClOrdID', async () => {
    const h = harness();
    await h.book.load(async () => [anOrder({ id: 1, clordid: 'DUP-1' })]);
    h.runFlushes();
    const refused = anOrder({
      id: 2,
      clordid: 'DUP-1',
      brokerorderid: '',
      ordstatus: '8',
      refusal: { ordRejReason: 6, text: 'Duplicate ClOrdID' } as Order['refusal'],
    });
    h.book.receive({ type: 'new_order', orderData: refused });
    h.runFlushes();
    assert.equal(h.book.getView().count, 2);
    assert.deepEqual(h.errors, []);
    h.book.receive({ type: 'execution_report', data: aReport({ clordid: 'DUP-1', order_id: 1, exectype: '0', ordstatus: '0' }) });
    h.runFlushes();
    const byId = new Map(h.book.getOrders().map((o) => [o.id, o]));
    assert.equal(byId.get(1)?.ordstatus, '0');
    assert.equal(byId.get(2)?.ordstatus, '8');
  });

  it('a reload after reconnect is applied as adds, updates and removes', async () => {
    const h = harness();
    await h.book.load(async () => [anOrder({ id: 1 }), anOrder({ id: 2, clordid: 'C2' })]);
    h.runFlushes();
    await h.book.load(async () => [
      anOrder({ id: 2, clordid: 'C2', ordstatus: '0', updated_at: at(9) }),
      anOrder({ id: 3, clordid: 'C3' }),
    ]);
    h.runFlushes();
    const d = h.deltas.at(-1)!;
    assert.equal(d.reset, false);
    assert.deepEqual(
      d.add.map((o) => o.id),
      [3],
    );
    assert.deepEqual(
      d.update.map((o) => o.id),
      [2],
    );
    assert.deepEqual(
      d.remove.map((o) => o.id),
      [1],
    );
  });

  it('reports a failed first load as an error with the message', async () => {
    const h = harness();
    await h.book.load(async () => {
      throw new Error('Request failed (500)');
    });
    assert.equal(h.book.getView().status, 'error');
    assert.equal(h.book.getView().error, 'Request failed (500)');
  });

  it('an action answer updates the order before the live echo', async () => {
    const h = harness();
    await h.book.load(async () => [anOrder()]);
    h.runFlushes();
    h.book.applyActionAnswer(anOrder({ ordstatus: '0', accepted_by: 'broker', updated_at: at(1), client_name: null }));
    h.runFlushes();
    assert.equal(h.book.getOrder(1)!.ordstatus, '0');
    assert.equal(h.book.getOrder(1)!.client_name, 'SGX Client');
    assert.deepEqual(
      h.deltas.at(-1)!.update.map((o) => o.id),
      [1],
    );
  });

  it('shows a chunked first snapshot progressively and replays live messages only once it is complete', async () => {
    const h = harness();
    const gate = deferred<void>();
    const loading = h.book.load(async (push) => {
      push([anOrder({ id: 3, clordid: 'C3' }), anOrder({ id: 2, clordid: 'C2' })]);
      await gate.promise;
      push([anOrder({ id: 1, clordid: 'C1' })]);
    });
    await Promise.resolve();
    h.runFlushes();
    assert.equal(h.book.getView().status, 'ready', 'the first chunk already shows');
    assert.equal(h.book.getView().loadingMore, true);
    assert.equal(h.deltas.at(-1)!.reset, true);
    h.book.receive({ type: 'order_update', orderData: anOrder({ id: 1, clordid: 'C1', ordstatus: '0', updated_at: at(5) }) });
    assert.equal(h.book.getOrder(1), undefined, 'queued until the snapshot is complete');
    gate.resolve();
    await loading;
    h.runFlushes();
    assert.equal(h.book.getView().loadingMore, false);
    assert.equal(h.book.getOrder(1)!.ordstatus, '0');
    assert.deepEqual(
      h.deltas.at(-1)!.add.map((o) => o.id),
      [1],
      'later chunks arrive as additions',
    );
    assert.equal(h.book.getView().count, 3);
  });

  it('spreads a large addition over several flushes when asked to', async () => {
    const flushes: (() => void)[] = [];
    const book = new OrderBook({ schedule: (fn) => flushes.push(fn), now: () => 0, warn: () => {}, error: () => {}, maxAddsPerFlush: 2 });
    const deltas: BookDelta[] = [];
    book.onDelta((d) => deltas.push(d));
    const gate = deferred<void>();
    const loading = book.load(async (push) => {
      push([anOrder({ id: 9, clordid: 'C9' })]);
      await gate.promise;
      push([1, 2, 3, 4, 5].map((id) => anOrder({ id, clordid: `C${id}` })));
    });
    await Promise.resolve();
    while (flushes.length) flushes.shift()!();
    gate.resolve();
    await loading;
    while (flushes.length) flushes.shift()!();
    assert.equal(deltas[0]!.reset, true);
    assert.deepEqual(
      deltas.slice(1).map((d) => d.add.map((o) => o.id)),
      [[1, 2], [3, 4], [5]],
    );
    assert.equal(book.getView().count, 6);
  });
});

// Spec 000 §4 and §7: order_data, and the order payload in orderData, data or the message itself.
describe('order book: order_data and where the order sits', () => {
  it('applies order_data like an update, and reads the order from orderData, data or the message itself', async () => {
    const h = harness();
    await h.book.load(async () => [
      anOrder({ id: 1, updated_at: at(1) }),
      anOrder({ id: 2, clordid: 'C2', brokerorderid: 'BO2', updated_at: at(1) }),
    ]);
    h.runFlushes();
    const info = { event: 'status_request' as const, comp_id: 'SGX_CLIENT_1', clordid: 'C1', timestamp: at(2) };
    h.book.receive({ type: 'order_data', orderData: anOrder({ id: 1, ordstatus: '0', updated_at: at(2) }), orderInfo: info });
    // Other producers: the order in data, or the message itself (typed loosely: our server sends orderData).
    h.book.receive({
      type: 'order_update',
      data: anOrder({ id: 2, clordid: 'C2', brokerorderid: 'BO2', ordstatus: '0', updated_at: at(3) }),
    } as unknown as OrderMessage);
    h.book.receive({
      type: 'new_order',
      ...anOrder({ id: 3, clordid: 'C3', brokerorderid: 'BO3', updated_at: at(4) }),
    } as unknown as OrderMessage);
    h.runFlushes();
    assert.equal(h.book.getOrder(1)!.ordstatus, '0', 'order_data (orderData)');
    assert.equal(h.book.getOrder(2)!.ordstatus, '0', 'order_update (data)');
    assert.equal(h.book.getOrder(3)!.brokerorderid, 'BO3', 'new_order (the message itself)');
    assert.equal((h.book.getOrder(3) as unknown as { type?: string }).type, undefined, 'without the envelope');
    assert.deepEqual(h.errors, []);
  });

  it('an order_data copy older than the book holds changes nothing', async () => {
    const h = harness();
    await h.book.load(async () => [anOrder({ id: 1, ordstatus: '1', cumqty: '4', updated_at: at(5) })]);
    h.runFlushes();
    h.book.receive({ type: 'order_data', orderData: anOrder({ id: 1, ordstatus: '0', updated_at: at(2) }) });
    h.runFlushes();
    assert.equal(h.book.getOrder(1)!.ordstatus, '1');
  });
});
