/**
 * The blotter's state of the world (STYLE: snapshot first, then deltas). One map of orders by id,
 * rebuilt from GET /api/orders and patched by live messages. Messages that arrive while a snapshot
 * loads are queued and replayed in arrival order afterwards (spec 000 §4), and an older copy of an
 * order never replaces a newer one, so nothing is lost or reordered.
 *
 * Changes are batched: subscribers (the grid, the panels) hear about them once per flush, as the
 * ids added, updated and removed since the last flush, never once per message.
 */
import {
  orderOfMessage,
  type ExecutionReport,
  type Order,
  type WsExecutionReportMessage,
  type WsNewOrder,
  type WsOrderData,
  type WsOrderUpdate,
} from '@fixdesk/protocol';
import { applyActionAnswer, applyExecutionReport, isAtLeastAsNew, mergeExecutionReports } from './orderUpdates';

type BookStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface BookDelta {
  /** The whole set was replaced (first snapshot): redraw from getOrders(). */
  reset: boolean;
  add: Order[];
  update: Order[];
  remove: Order[];
  /** performance.now() of the earliest message folded into this flush (for latency measurement). */
  firstReceivedAt: number | null;
}

export type OrderMessage = WsNewOrder | WsOrderUpdate | WsOrderData | WsExecutionReportMessage;

export interface OrderBookDeps {
  /** Schedules one flush; the browser uses requestAnimationFrame with a timeout fallback. */
  schedule: (flush: () => void) => void;
  now: () => number;
  warn: (message: string, detail?: unknown) => void;
  error: (message: string, detail?: unknown) => void;
  /**
   * At most this many added orders per flush (the rest follow in the next flushes), so a snapshot
   * arriving in big chunks becomes many short grid updates instead of one long one. Default: no limit.
   */
  maxAddsPerFlush?: number;
}

/** Hands the snapshot over in chunks through `push`, or returns it whole. */
export type SnapshotSource = (push: (orders: readonly Order[]) => void) => Promise<readonly Order[] | void>;

export interface OrderBookView {
  status: BookStatus;
  /** The first load's failure, or why the last reload stopped (the blotter keeps what it has). */
  error: string | null;
  /** A first snapshot is still arriving in chunks (the grid already shows the first ones). */
  loadingMore: boolean;
  count: number;
  /** Bumped on every flush; React reads it to re-render counts and panels. */
  version: number;
}

export class OrderBook {
  private readonly orders = new Map<number, Order>();
  /** ClOrdID (and OrigClOrdID) → order id, for execution reports (spec 000 §4 "matched by clordid"). */
  private readonly byClOrdId = new Map<string, number>();
  private readonly byBrokerOrderId = new Map<string, number>();
  /** Execution reports of the orders whose history has been loaded (a selected order). */
  private readonly execs = new Map<number, ExecutionReport[]>();
  private queue: { message: OrderMessage; receivedAt: number }[] | null = null;
  private loadGeneration = 0;

  private pendingAdd = new Set<number>();
  private pendingUpdate = new Set<number>();
  private pendingRemove = new Map<number, Order>();
  private pendingReset = false;
  private pendingSince: number | null = null;
  private flushScheduled = false;

  private view: OrderBookView = { status: 'idle', error: null, loadingMore: false, count: 0, version: 0 };
  private readonly deltaListeners = new Set<(delta: BookDelta) => void>();
  private readonly viewListeners = new Set<() => void>();

  constructor(private readonly deps: OrderBookDeps) {}

  // ───────────── reading ─────────────

  getView = (): OrderBookView => this.view;
  getOrder = (id: number | null | undefined): Order | undefined => (id === null || id === undefined ? undefined : this.orders.get(id));
  getOrders(): Order[] {
    return [...this.orders.values()];
  }
  findByBrokerOrderId(brokerOrderId: string): Order | undefined {
    const id = this.byBrokerOrderId.get(brokerOrderId);
    return id === undefined ? undefined : this.orders.get(id);
  }
  /** Null while the order's history has not been loaded. */
  getExecutionReports = (orderId: number | null | undefined): ExecutionReport[] | null =>
    orderId === null || orderId === undefined ? null : (this.execs.get(orderId) ?? null);

  onDelta(listener: (delta: BookDelta) => void): () => void {
    this.deltaListeners.add(listener);
    return () => this.deltaListeners.delete(listener);
  }
  onView = (listener: () => void): (() => void) => {
    this.viewListeners.add(listener);
    return () => this.viewListeners.delete(listener);
  };

  // ───────────── snapshot ─────────────

  /**
   * Loads (or reloads after a reconnect) the state of the world. The source hands over the orders in
   * one or more chunks (or returns them); the first chunk of a first load already shows, the others
   * follow as additions. Live messages received meanwhile are queued and replayed in arrival order
   * once the whole snapshot is in. A reload is applied as adds, updates and removes so the grid keeps
   * its scroll and selection.
   */
  async load(source: SnapshotSource): Promise<void> {
    const generation = ++this.loadGeneration;
    const first = this.view.status !== 'ready';
    this.queue = this.queue ?? [];
    if (first) this.setView({ status: 'loading', error: null, loadingMore: false });
    const seen = new Set<number>();
    let chunks = 0;
    const push = (orders: readonly Order[]) => {
      if (generation !== this.loadGeneration) return;
      const resetting = first && chunks === 0;
      chunks += 1;
      if (resetting) {
        this.orders.clear();
        this.byClOrdId.clear();
        this.byBrokerOrderId.clear();
        this.pendingAdd.clear();
        this.pendingUpdate.clear();
        this.pendingRemove.clear();
        this.pendingReset = true;
      }
      for (const order of orders) {
        if (typeof order?.id !== 'number') {
          // Spec 000 §5: orders without id are skipped with a warning.
          this.deps.warn('orders: skipped an order without id', order);
          continue;
        }
        seen.add(order.id);
        this.upsert(order, resetting ? 'snapshot' : 'reload');
      }
      if (first) this.setView({ status: 'ready', error: null, loadingMore: true }, false);
      this.scheduleFlush();
    };
    try {
      const returned = await source(push);
      if (returned) push(returned);
      else if (chunks === 0) push([]);
    } catch (error) {
      if (generation !== this.loadGeneration) return;
      const queued = this.queue ?? [];
      this.queue = null;
      if (first && chunks === 0) {
        this.setView({ status: 'error', error: error instanceof Error ? error.message : String(error), loadingMore: false });
        return;
      }
      // A failed reload (or a first load cut short) keeps what is on screen and still applies what arrived meanwhile.
      this.deps.warn('orders: snapshot incomplete; keeping the current blotter', error);
      for (const item of queued) this.applyMessage(item.message, item.receivedAt);
      this.setView({ loadingMore: false, error: error instanceof Error ? error.message : String(error) }, false);
      this.scheduleFlush();
      return;
    }
    if (generation !== this.loadGeneration) return;
    if (!first) {
      for (const [id, order] of this.orders) {
        if (!seen.has(id)) this.remove(id, order);
      }
    }
    const queued = this.queue ?? [];
    this.queue = null;
    for (const item of queued) this.applyMessage(item.message, item.receivedAt);
    this.setView({ status: 'ready', error: null, loadingMore: false }, false);
    this.scheduleFlush();
  }

  // ───────────── live messages ─────────────

  /** Entry point for new_order, order_update, order_data and execution_report, in arrival order. */
  receive(message: OrderMessage, receivedAt = this.deps.now()): void {
    if (this.queue) {
      this.queue.push({ message, receivedAt });
      return;
    }
    if (this.view.status !== 'ready') return; // nothing to patch yet, and no load under way to queue for
    this.applyMessage(message, receivedAt);
    this.scheduleFlush();
  }

  /** The answer to a broker action: applied at once so the panel does not wait for the live echo. */
  applyActionAnswer(answer: Order): void {
    const cached = this.orders.get(answer.id);
    if (!cached) return;
    const next = applyActionAnswer(cached, answer);
    if (next !== cached) {
      this.orders.set(next.id, next);
      this.markUpdated(next.id, this.deps.now());
      this.scheduleFlush();
    }
  }

  /** A fetched full order with its execution reports (row selection, order detail). */
  applyOrderDetail(order: Order & { execReports?: ExecutionReport[] }): void {
    const { execReports, ...rest } = order;
    const full = rest as Order;
    if (this.view.status === 'ready' || this.orders.has(full.id)) this.upsert(full, 'live', this.deps.now());
    if (execReports) this.execs.set(full.id, mergeExecutionReports(this.execs.get(full.id) ?? [], execReports));
    this.bumpVersionSoon();
  }

  private applyMessage(message: OrderMessage, receivedAt: number): void {
    switch (message.type) {
      case 'new_order':
      case 'order_update':
      // The order as stored, sent for something that did not change it (a client's status request): the
      // book keeps what it has unless this copy is newer.
      case 'order_data': {
        const order = orderOfMessage(message);
        if (!order || typeof order.id !== 'number') {
          // Spec 000 §5 calls an update without id fatal; one bad message must not take the desk down.
          this.deps.error(`orders: ${message.type} without an order id ignored`, message);
          return;
        }
        // Spec 000 §5: a new order needs its broker order id; one refused at intake has none
        // and says so, and is shown as the record it is.
        if (message.type === 'new_order' && !order.brokerorderid && !order.refusal) {
          this.deps.error('orders: new_order without brokerorderid ignored', message);
          return;
        }
        this.upsert(order, 'live', receivedAt);
        return;
      }
      case 'execution_report': {
        const report = message.data;
        if (!report?.clordid) {
          this.deps.warn('orders: execution report without clordid ignored', message);
          return;
        }
        const id =
          this.byClOrdId.get(report.clordid) ??
          (typeof report.order_id === 'number' && this.orders.has(report.order_id) ? report.order_id : undefined);
        if (id === undefined) return;
        const history = this.execs.get(id);
        if (history) this.execs.set(id, mergeExecutionReports(history, [report]));
        const cached = this.orders.get(id)!;
        const next = applyExecutionReport(cached, report);
        if (next !== cached) {
          this.orders.set(id, next);
          this.markUpdated(id, receivedAt);
        } else if (history) {
          this.bumpVersionSoon(receivedAt);
        }
        return;
      }
    }
  }

  private upsert(order: Order, origin: 'snapshot' | 'reload' | 'live', receivedAt?: number): void {
    const cached = this.orders.get(order.id);
    if (cached && !isAtLeastAsNew(order, cached)) return;
    // A snapshot chunk repeating what the book already holds (the head fetched first, a reload) changes nothing.
    if (cached && origin !== 'live' && cached.updated_at === order.updated_at) return;
    if (cached && cached.clordid !== order.clordid) this.byClOrdId.set(cached.clordid, order.id);
    // A full order from the server carries the client's text only; a cancel or reject report's text seen live stays.
    if (cached?.reportText != null && order.reportText === undefined) order = { ...order, reportText: cached.reportText };
    this.orders.set(order.id, order);
    // Reports find their order by ClOrdID. An order refused at intake gets none, and its ClOrdID may be
    // a working order's (a duplicate refused): it must not take that order's reports.
    if (!order.refusal) {
      this.byClOrdId.set(order.clordid, order.id);
      if (order.origclordid) this.byClOrdId.set(order.origclordid, order.id);
    }
    if (order.brokerorderid) this.byBrokerOrderId.set(order.brokerorderid, order.id);
    if (origin === 'snapshot') return; // covered by the reset
    if (cached) this.markUpdated(order.id, receivedAt);
    else this.markAdded(order.id, receivedAt);
  }

  private remove(id: number, order: Order): void {
    this.orders.delete(id);
    this.execs.delete(id);
    this.pendingAdd.delete(id);
    this.pendingUpdate.delete(id);
    this.pendingRemove.set(id, order);
  }

  private noteTime(receivedAt: number | undefined): void {
    const t = receivedAt ?? this.deps.now();
    if (this.pendingSince === null || t < this.pendingSince) this.pendingSince = t;
  }

  private markAdded(id: number, receivedAt?: number): void {
    this.noteTime(receivedAt);
    if (this.pendingRemove.delete(id)) this.pendingUpdate.add(id);
    else this.pendingAdd.add(id);
  }

  private markUpdated(id: number, receivedAt?: number): void {
    this.noteTime(receivedAt);
    if (!this.pendingAdd.has(id)) this.pendingUpdate.add(id);
  }

  private bumpVersionSoon(receivedAt?: number): void {
    this.noteTime(receivedAt);
    this.scheduleFlush();
  }

  // ───────────── flushing ─────────────

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.deps.schedule(() => this.flush());
  }

  /** Emits everything pending as one delta. Public for tests and for a synchronous flush before unmount. */
  flush(): void {
    this.flushScheduled = false;
    const resolve = (ids: Set<number>) => {
      const out: Order[] = [];
      for (const id of ids) {
        const order = this.orders.get(id);
        if (order) out.push(order);
      }
      return out;
    };
    let adds = this.pendingAdd;
    let later: Set<number> | null = null;
    const max = this.deps.maxAddsPerFlush;
    if (!this.pendingReset && max !== undefined && adds.size > max) {
      adds = new Set<number>();
      later = new Set<number>();
      for (const id of this.pendingAdd) (adds.size < max ? adds : later).add(id);
    }
    const delta: BookDelta = {
      reset: this.pendingReset,
      add: this.pendingReset ? [] : resolve(adds),
      update: this.pendingReset ? [] : resolve(this.pendingUpdate),
      remove: this.pendingReset ? [] : [...this.pendingRemove.values()],
      firstReceivedAt: this.pendingSince,
    };
    this.pendingReset = false;
    this.pendingAdd = later ?? new Set();
    this.pendingUpdate = new Set();
    this.pendingRemove = new Map();
    this.pendingSince = null;
    for (const listener of [...this.deltaListeners]) listener(delta);
    this.setView({ count: this.orders.size - this.pendingAdd.size, version: this.view.version + 1 });
    if (this.pendingAdd.size > 0) this.scheduleFlush();
  }

  private setView(patch: Partial<OrderBookView>, notify = true): void {
    this.view = { ...this.view, ...patch };
    if (notify) for (const listener of [...this.viewListeners]) listener();
  }
}
