import { getOrderAction, getOrderBundle, type Db, type ExecReportRow, type OrderBundle } from '@fixdesk/db';
import type { Order } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { WsHub } from '../ws/hub';
import { presentAction, presentExecReport, presentOrders } from './present';

/** Tells the browsers about order changes: the whole order, then the report and the action. */
export class OrderPublisher {
  constructor(
    private readonly db: Db,
    private readonly hub: WsHub,
    private readonly log: FastifyBaseLogger,
    /** Sees every report of an order change as it is published (the metrics count accepts and fills). */
    private readonly observeReport?: (er: ExecReportRow) => void,
  ) {}

  newOrder(orderId: number, er: ExecReportRow): void {
    void this.publish(orderId, er, null, true).catch((err) => this.log.error({ err, orderId }, 'publish new order failed'));
  }

  /** Whether anybody would hear a publication (callers may skip preparing one). */
  hasAudience(): boolean {
    return this.hub.hasSubscribers();
  }

  /** A new order whose rows the caller already holds. */
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
    void this.publish(orderId, er, actionId, false).catch((err) => this.log.error({ err, orderId }, 'publish order update failed'));
  }

  private async publish(orderId: number, er: ExecReportRow | null, actionId: number | null, isNew: boolean): Promise<void> {
    const bundle = await getOrderBundle(this.db, orderId);
    if (!bundle) return;
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
