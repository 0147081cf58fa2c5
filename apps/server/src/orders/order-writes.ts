import {
  insertExecReport,
  type ExecutingTrader,
  listOrderLegs,
  nextExecIds,
  orderFillTotals,
  pendingOrderRequest,
  updateOrder,
  type ExecReportRow,
  type OrderLegRow,
  type OrderRow,
  type Queryable,
} from '@fixdesk/db';
import {
  Decimal,
  ExecType,
  isAwaitingAcceptance,
  maturityLabel,
  MsgType,
  type OrderState,
  type OrdStatusCode,
  type OrdTypeCode,
} from '@fixdesk/domain';
import type { ConnectorInfo } from './reference-data';

/** The ClOrdIDs an order's report answers (a client request's), and whether the order keeps its own. */
export interface AnsweredIds {
  clordid: string;
  origclordid: string;
  keepClOrdId: boolean;
}

/**
 * The order row and its execution report as the state table sees them: what the client-request and
 * broker-action flows share (load the state, write the new state with its report).
 */
export class OrderWrites {
  constructor(
    /** The intake's ClOrdID index learns an order's new key before it is written. */
    private readonly noteUsedClOrdId: (compId: string, sessionDate: string, clOrdId: string) => void,
    private readonly now: () => Date,
  ) {}

  legs(q: Queryable, orderId: number): Promise<OrderLegRow[]> {
    return listOrderLegs(q, orderId);
  }

  /** The legs a report on the order carries (none for an outright). */
  reportLegs(q: Queryable, order: OrderRow): Promise<OrderLegRow[]> {
    return order.msg_type === MsgType.NewOrderMultileg ? listOrderLegs(q, order.id) : Promise.resolve([]);
  }

  /** The state machine's view of a stored order; the fill notional comes from the stored fills. */
  async loadState(tx: Queryable, order: OrderRow): Promise<OrderState> {
    const totals = await orderFillTotals(tx, order.id, null);
    const pending = await pendingOrderRequest(tx, order.id);
    return {
      ...orderState(order, totals.notional),
      pendingReplace:
        pending?.request_type === MsgType.OrderCancelReplaceRequest
          ? {
              orderQty: Decimal.from(pending.new_orderqty ?? order.orderqty),
              price: pending.new_price === null ? null : Decimal.from(pending.new_price),
              ordType: (pending.new_ordtype ?? order.ordtype) as OrdTypeCode,
            }
          : null,
    };
  }

  /** Writes the new state and its execution report. */
  async persist(
    tx: Queryable,
    order: OrderRow,
    state: OrderState,
    report: { execType: string; ordStatus: string; ordRejReason?: string; text?: string },
    connector: ConnectorInfo,
    ids?: AnsweredIds,
    acceptedBy?: string,
    executingTrader?: ExecutingTrader,
  ): Promise<{ updated: OrderRow; er: ExecReportRow }> {
    const replaced = report.execType === ExecType.Replaced;
    // The intake's ClOrdID index learns the order's new key before it is written (see noteUsedClOrdId).
    if (ids && !ids.keepClOrdId) this.noteUsedClOrdId(order.sendercompid, order.session_date, ids.clordid);
    const updated = await updateOrder(tx, order.id, {
      ...stateColumns(state, order),
      ordstatus: state.ordStatus,
      ...(replaced ? { orderqty: state.orderQty.toString(), price: state.price?.toString() ?? null, ordtype: state.ordType } : {}),
      ...(ids && !ids.keepClOrdId ? { clordid: ids.clordid, origclordid: ids.origclordid } : {}),
      ...(acceptedBy ? { accepted_by: acceptedBy } : {}),
    });
    const [execId] = await nextExecIds(tx, connector.executionIdPrefix, 1);
    const er = await insertExecReport(tx, {
      orderId: order.id,
      execid: execId!,
      sendercompid: order.sendercompid,
      clordid: ids?.clordid ?? updated.clordid,
      origclordid: ids?.origclordid ?? null,
      orderid: order.brokerorderid,
      exectype: report.execType,
      ordstatus: report.ordStatus,
      side: order.side,
      symbol: order.symbol,
      orderqty: updated.orderqty,
      price: updated.price,
      lastqty: state.lastQty.toString(),
      lastpx: state.lastPx.toString(),
      cumqty: state.cumQty.toString(),
      avgpx: state.avgPx.stripTrailingZeros().toString(),
      leavesqty: state.leavesQty.toString(),
      legIndex: null,
      ordrejreason: report.ordRejReason !== undefined ? Number(report.ordRejReason) : null,
      text: report.text ?? null,
      transacttime: this.now(),
      executingTrader,
    });
    return { updated, er };
  }
}

/** A stored order as the state table's state, with no request pending (loadState adds it). */
export function orderState(order: OrderRow, fillNotional: string): OrderState {
  return {
    ordStatus: order.ordstatus as OrdStatusCode,
    side: order.side,
    ordType: order.ordtype,
    orderQty: Decimal.from(order.orderqty),
    price: order.price === null ? null : Decimal.from(order.price),
    cumQty: Decimal.from(order.cumqty),
    leavesQty: Decimal.from(order.leavesqty),
    fillNotional: Decimal.from(fillNotional),
    avgPx: Decimal.from(order.avgpx),
    lastQty: Decimal.from(order.lastqty ?? '0'),
    lastPx: Decimal.from(order.lastpx ?? '0'),
    pendingReplace: null,
    // Not accepted yet: Pending New, or a request that came in before the broker accepted it.
    awaitingAcceptance: isAwaitingAcceptance(order),
  };
}

/** The order columns a new state writes (the last fill's quantity and price stay when the event was no fill). */
export function stateColumns(state: OrderState, order: OrderRow) {
  return {
    cumqty: state.cumQty.toString(),
    leavesqty: state.leavesQty.toString(),
    avgpx: state.avgPx.stripTrailingZeros().toString(),
    lastqty: state.lastQty.isZero() ? order.lastqty : state.lastQty.toString(),
    lastpx: state.lastPx.isZero() ? order.lastpx : state.lastPx.toString(),
  };
}

/** The contract a trade names: the maturity's label, else the order's symbol. */
export function contractOf(order: OrderRow): string {
  return maturityLabel(order.maturity_month_year) ?? order.maturity_month_year ?? order.symbol;
}
