import { getOrderAction, getOrderBundle, type Db, type ExecReportRow, type OrderBundle } from '@fixdesk/db';
import type { Order } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { WsHub } from '../ws/hub';
import { presentAction, presentExecReport, presentOrders } from './present';

/** An order change by ids: what the other nodes are told (cluster/order-fan-out.ts). */
export type OrderChangeIds = (orderId: number, erId: number | null, actionId: number | null, isNew: boolean) => void;

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
    private readonly fanOut?: OrderChangeIds,
  ) {}

  newOrder(orderId: number, er: ExecReportRow): void {
    this.fanOut?.(orderId, er.id, null, true);
    void this.publish(orderId, er, null, true).catch((err) => this.log.error({ err, orderId }, 'publish new order failed'));
  }

  /** A change another node made (by ids): the order as stored now, to this node's browsers. */
  async publishStored(orderId: number, erId: number | null, actionId: number | null, isNew: boolean): Promise<void> {
    if (!this.hub.hasSubscribers()) return;
    const bundle = await getOrderBundle(this.db, orderId);
    if (!bundle) return;
    const er = erId === null ? null : (bundle.execReports.find((r) => r.id === erId) ?? null);
    await this.broadcast(bundle, er, actionId, isNew);
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
    this.fanOut?.(orderId, er.id, null, true);
  }

  /** A new order whose rows the caller already holds (this node's browsers; see newOrderToOtherNodes). */
  newOrderFrom(bundle: OrderBundle, er: ExecReportRow): void {
    // Nobody signed in to tell: nothing to present (a busy intake with no browser open).
    if (!this.hub.hasSubscribers()) return;
    const [order] = presentOrders(bundle, false);
    if (!order) return;
    this.hub.broadcast({ type: 'new_order', orderData: order });
    this.hub.broadcast({ type: 'execution_report', data: presentExecReport(er) });
  }

  /** An order refused at intake (never in the book's tables: its list row, presented). */
  refusedOrder(order: Order): void {
    this.hub.broadcast({ type: 'new_order', orderData: order });
  }

  orderChanged(orderId: number, er: ExecReportRow | null, actionId: number | null): void {
    if (er) this.observeReport?.(er);
    this.fanOut?.(orderId, er?.id ?? null, actionId, false);
    void this.publish(orderId, er, actionId, false).catch((err) => this.log.error({ err, orderId }, 'publish order update failed'));
  }

  private async publish(orderId: number, er: ExecReportRow | null, actionId: number | null, isNew: boolean): Promise<void> {
    const bundle = await getOrderBundle(this.db, orderId);
    if (!bundle) return;
    await this.broadcast(bundle, er, actionId, isNew);
  }

  private async broadcast(bundle: OrderBundle, er: ExecReportRow | null, actionId: number | null, isNew: boolean): Promise<void> {
    const [order] = presentOrders(bundle, false);
    if (!order) return;
    this.hub.broadcast(isNew ? { type: 'new_order', orderData: order } : { type: 'order_update', orderData: order });
    if (er) this.hub.broadcast({ type: 'execution_report', data: presentExecReport(er) });
    if (actionId !== null) {
      const action = await getOrderAction(this.db, actionId);
      if (action) this.hub.broadcast({ type: 'order_action', data: presentAction(action) });
    }
  }
}
