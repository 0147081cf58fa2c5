import {
  getExecReports,
  getOrderAction,
  getOrderActions,
  getOrderBundle,
  getOrderBundles,
  getRefusedOrderRows,
  presentExecReport,
  presentOrders,
  refusedOrdersFromRows,
  type Db,
  type ExecReportRow,
  type OrderBundle,
  type TextRow,
} from '@fixdesk/db';
import type { Order, OrderAction, WsOrderInfo } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { WsHub } from '../ws/hub';
import { riskRowOf, type RiskState } from './risk-state';

/** What the other nodes are told of this node's order changes, by ids (cluster/order-fan-out.ts). */
export interface OrderChangesOut {
  changed(orderId: number, erId: number | null, actionId: number | null, isNew: boolean): void;
  /** Orders refused at intake here (records of their own, never changed afterwards). */
  refused(ids: readonly number[]): void;
}

/** A change another node made, by ids. */
export interface StoredChange {
  readonly orderId: number;
  readonly erId: number | null;
  readonly actionId: number | null;
  readonly isNew: boolean;
}

/**
 * Tells the browsers about order changes: the whole order, then the report and the action. Each
 * change made on this node is also handed to `fanOut` (the other nodes' browsers), by ids.
 */
export class OrderPublisher {
  constructor(
    private readonly db: Db,
    private readonly hub: WsHub,
    private readonly log: FastifyBaseLogger,
    /** Sees every report of an order change as it is published (the metrics count accepts and fills). */
    private readonly observeReport?: (er: ExecReportRow) => void,
    private readonly fanOut?: OrderChangesOut,
    /** Pre-trade risk follows every change of an order, made here or on another node. */
    private readonly risk?: RiskState,
  ) {}

  newOrder(orderId: number, er: ExecReportRow): void {
    this.fanOut?.changed(orderId, er.id, null, true);
    void this.publish(orderId, er, null, true).catch((err) => this.log.error({ err, orderId }, 'publish new order failed'));
  }

  /**
   * Changes other nodes made (by ids), in their order: each order as stored now, with the report and
   * the action, to this node's browsers. Read in one batch (five statements, whatever their number):
   * another node's intake at hundreds of orders a second arrives as batches of changes.
   */
  async publishStored(changes: readonly StoredChange[]): Promise<void> {
    // A client's new orders come from the node that holds its session (and its risk): only changes count here.
    await this.risk?.ordersChangedElsewhere([...new Set(changes.filter((c) => !c.isNew).map((c) => c.orderId))]);
    if (!changes.length || !this.hub.hasSubscribers()) return;
    const erIds = changes.flatMap((c) => (c.erId === null ? [] : [c.erId]));
    const actionIds = changes.flatMap((c) => (c.actionId === null ? [] : [c.actionId]));
    const [bundle, ers, actions] = await Promise.all([
      getOrderBundles(this.db, [...new Set(changes.map((c) => c.orderId))]),
      erIds.length ? getExecReports(this.db, erIds) : [],
      actionIds.length ? getOrderActions(this.db, actionIds) : [],
    ]);
    const orders = new Map(presentOrders(bundle, false).map((o) => [o.id, o]));
    const erById = new Map(ers.map((er) => [er.id, er]));
    const actionById = new Map(actions.map((a) => [a.id, a]));
    for (const c of changes) {
      const order = orders.get(c.orderId);
      if (order)
        this.send(
          order,
          c.isNew,
          c.erId === null ? undefined : erById.get(c.erId),
          c.actionId === null ? undefined : actionById.get(c.actionId),
        );
    }
  }

  /** Whether anybody would hear a publication (callers may skip preparing one). */
  hasAudience(): boolean {
    return this.hub.hasSubscribers();
  }

  /**
   * A new order taken at intake, for the other nodes' browsers (by ids: they read it themselves),
   * whether or not this node has an audience for newOrderFrom.
   */
  newOrderToOtherNodes(orderId: number, er: ExecReportRow): void {
    this.fanOut?.changed(orderId, er.id, null, true);
  }

  /** A new order whose rows the caller already holds (this node's browsers; see newOrderToOtherNodes). */
  newOrderFrom(bundle: OrderBundle, er: ExecReportRow): void {
    // Nobody signed in to tell: nothing to present (a busy intake with no browser open).
    if (!this.hub.hasSubscribers()) return;
    const [order] = presentOrders(bundle, false);
    if (order) this.send(order, true, er);
  }

  /** Orders refused at intake here (never in the book's tables: their list rows), for every node's browsers. */
  refusedOrders(rows: TextRow[]): void {
    if (!rows.length) return;
    this.fanOut?.refused(rows.map((r) => Number(r[0])));
    this.broadcastRefused(rows);
  }

  /** Orders another node refused at intake (by id), to this node's browsers. */
  async publishStoredRefusals(ids: readonly number[]): Promise<void> {
    if (ids.length && this.hub.hasSubscribers()) this.broadcastRefused(await getRefusedOrderRows(this.db, ids));
  }

  private broadcastRefused(rows: TextRow[]): void {
    // Nobody signed in to tell: nothing to present.
    if (!this.hub.hasSubscribers()) return;
    for (const order of refusedOrdersFromRows(rows)) this.hub.broadcast({ type: 'new_order', orderData: order });
  }

  /**
   * An order changed here (committed): told to the other nodes by ids and to this node's browsers. Answers
   * the order as stored after the change, read once for the browsers, so that the caller answering its
   * own request need not read it again; undefined if that read failed (logged).
   */
  orderChanged(orderId: number, er: ExecReportRow | null, actionId: number | null): Promise<OrderBundle | undefined> {
    if (er) this.observeReport?.(er);
    this.fanOut?.changed(orderId, er?.id ?? null, actionId, false);
    const stored = this.storedOrder(orderId);
    void stored
      .then((bundle) => bundle && this.broadcast(bundle, er, actionId, false))
      .catch((err) => this.log.error({ err, orderId }, 'publish order update failed'));
    return stored.catch(() => undefined);
  }

  /**
   * Something happened to an order that did not change it (a client asked for its status): the order as
   * stored, with what happened, to this node's browsers (order_data). Not fanned out: the other nodes'
   * browsers miss nothing of the order's state.
   */
  orderInfo(orderId: number, info: WsOrderInfo): void {
    if (!this.hub.hasSubscribers()) return;
    void (async () => {
      const bundle = await getOrderBundle(this.db, orderId);
      const [order] = bundle ? presentOrders(bundle, false) : [];
      if (order) this.hub.broadcast({ type: 'order_data', orderData: order, orderInfo: info });
    })().catch((err) => this.log.error({ err, orderId }, 'publish order data failed'));
  }

  private async publish(orderId: number, er: ExecReportRow | null, actionId: number | null, isNew: boolean): Promise<void> {
    const bundle = await this.storedOrder(orderId);
    if (bundle) await this.broadcast(bundle, er, actionId, isNew);
  }

  /** The order as stored now; its client's risk follows it. */
  private async storedOrder(orderId: number): Promise<OrderBundle | undefined> {
    const bundle = await getOrderBundle(this.db, orderId);
    const row = bundle && riskRowOf(bundle);
    if (row) this.risk?.orderChanged(row);
    return bundle;
  }

  private async broadcast(bundle: OrderBundle, er: ExecReportRow | null, actionId: number | null, isNew: boolean): Promise<void> {
    // Nobody signed in to tell: the action need not be read.
    if (!this.hub.hasSubscribers()) return;
    const [order] = presentOrders(bundle, false);
    if (!order) return;
    const action = actionId === null ? undefined : await getOrderAction(this.db, actionId);
    this.send(order, isNew, er ?? undefined, action);
  }

  /** One change to the browsers: the order, then its report and its action when there are. */
  private send(order: Order, isNew: boolean, er?: ExecReportRow, action?: OrderAction): void {
    this.hub.broadcast(isNew ? { type: 'new_order', orderData: order } : { type: 'order_update', orderData: order });
    if (er) this.hub.broadcast({ type: 'execution_report', data: presentExecReport(er) });
    if (action) this.hub.broadcast({ type: 'order_action', data: action });
  }
}
