import { Decimal, ExecType, MsgType, OrdStatus, PartyRole, Tag } from '@fixdesk/domain';
import type { ClientExecution, ClientOrder, ClientOrderLeg, ClientOrderParty, TestClientCounters } from '@fixdesk/protocol';

/**
 * The simulated client's own order book: what it sent (D, AB, F, G) folded with what it received (8, 9,
 * and rejects of its messages), as a client OMS would keep it. Built from the session's messages in
 * the fix_messages table at start, then kept up to date message by message.
 */

/** What the blotter reads of a FIX message (the engine's FixMessage has it). */
export interface MessageView {
  readonly msgType: string;
  get(tag: number): string | undefined;
  getGroup(countTag: number): ReadonlyArray<{ get(tag: number): string | undefined }>;
}

const T = Tag;

const TRADER_ROLE = PartyRole.OrderOriginationTrader;
/** BusinessMessageReject (j): not one of the desk's own message types. */
const BUSINESS_MESSAGE_REJECT = 'j';
const FINISHED: ReadonlySet<string> = new Set([
  OrdStatus.DoneForDay,
  OrdStatus.Canceled,
  OrdStatus.Rejected,
  OrdStatus.Expired,
  OrdStatus.Replaced,
]);
/** Most executions kept in memory per client; the oldest go first. */
const MAX_EXECUTIONS = 20_000;

const text = (m: { get(tag: number): string | undefined }, tag: number): string | null => {
  const v = m.get(tag);
  return v === undefined || v === '' ? null : v;
};

function legQty(ratio: string, orderQty: string): string | null {
  const r = Decimal.tryFrom(ratio);
  const q = Decimal.tryFrom(orderQty);
  return r && q ? r.mul(q).stripTrailingZeros().toString() : null;
}

/** 'YYYYMMDD-HH:MM:SS(.sss)' → ISO; anything else as given. */
export function fixTimeToIso(value: string | null): string | null {
  if (!value) return null;
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?$/.exec(value);
  if (!m) return value;
  const ms = m[7] ? Math.round(Number(`0${m[7]}`) * 1000) : 0;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, ms)).toISOString();
}

export interface BlotterChange {
  order: ClientOrder;
  execution?: ClientExecution;
}

export class ClientBlotter {
  private readonly orders = new Map<string, ClientOrder>();
  /** Every ClOrdID this client used (orders, cancels, replaces) → the order's key. */
  private readonly byClOrdId = new Map<string, string>();
  /** Our MsgSeqNum of each order-related message sent → the order's key and what it was. */
  private readonly bySentSeq = new Map<number, { key: string; msgType: string }>();
  private readonly executions: ClientExecution[] = [];
  private readonly execIds = new Set<string>();

  /** Orders, newest first. */
  listOrders(): ClientOrder[] {
    return [...this.orders.values()].sort((a, b) =>
      a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : b.msgSeqNum - a.msgSeqNum,
    );
  }

  /** Executions in arrival order. */
  listExecutions(): ClientExecution[] {
    return [...this.executions];
  }

  order(clOrdId: string): ClientOrder | undefined {
    const key = this.byClOrdId.get(clOrdId);
    return key === undefined ? undefined : this.orders.get(key);
  }

  hasClOrdId(clOrdId: string): boolean {
    return this.byClOrdId.has(clOrdId);
  }

  counters(): TestClientCounters {
    const c: TestClientCounters = { sent: this.orders.size, pending: 0, filled: 0, completed: 0 };
    for (const o of this.orders.values()) {
      if (o.ordstatus === OrdStatus.Filled) c.filled++;
      else if (o.ordstatus !== null && FINISHED.has(o.ordstatus)) c.completed++;
      else c.pending++;
    }
    return c;
  }

  /** A message this client sent (D, AB, F, G); other types are ignored. */
  applySent(m: MessageView, msgSeqNum: number, sentAt: Date): BlotterChange | null {
    const clOrdId = text(m, T.ClOrdID);
    if (!clOrdId) return null;
    if (m.msgType === MsgType.NewOrderSingle || m.msgType === MsgType.NewOrderMultileg) {
      if (this.byClOrdId.has(clOrdId)) {
        const existing = this.order(clOrdId)!;
        if (existing.msgSeqNum === 0) existing.msgSeqNum = msgSeqNum;
        this.bySentSeq.set(msgSeqNum, { key: existing.id, msgType: m.msgType });
        return { order: existing };
      }
      const order = this.orderFromNew(m, clOrdId, msgSeqNum, sentAt);
      this.orders.set(order.id, order);
      this.byClOrdId.set(clOrdId, order.id);
      this.bySentSeq.set(msgSeqNum, { key: order.id, msgType: m.msgType });
      return { order };
    }
    if (
      m.msgType === MsgType.OrderCancelRequest ||
      m.msgType === MsgType.OrderCancelReplaceRequest ||
      m.msgType === MsgType.MultilegOrderCancelReplace
    ) {
      const orig = text(m, T.OrigClOrdID);
      const key = orig ? this.byClOrdId.get(orig) : undefined;
      const order = key === undefined ? undefined : this.orders.get(key);
      if (!order) return null;
      this.byClOrdId.set(clOrdId, order.id);
      this.bySentSeq.set(msgSeqNum, { key: order.id, msgType: m.msgType });
      order.pendingRequest = {
        type: m.msgType === MsgType.OrderCancelRequest ? MsgType.OrderCancelRequest : MsgType.OrderCancelReplaceRequest,
        clOrdId,
        sentAt: sentAt.toISOString(),
      };
      return { order };
    }
    return null;
  }

  /** The session numbered a message recorded before it was sent. */
  setSentSeq(clOrdId: string, msgSeqNum: number, msgType: string): void {
    const key = this.byClOrdId.get(clOrdId);
    if (key === undefined) return;
    const order = this.orders.get(key);
    if (order && key === clOrdId && order.msgSeqNum === 0) order.msgSeqNum = msgSeqNum;
    this.bySentSeq.set(msgSeqNum, { key, msgType });
  }

  /** Forgets an order whose sending failed before it reached the session. */
  forget(clOrdId: string): void {
    const key = this.byClOrdId.get(clOrdId);
    if (key === clOrdId) this.orders.delete(key);
    else if (key !== undefined) {
      const order = this.orders.get(key);
      if (order?.pendingRequest?.clOrdId === clOrdId) order.pendingRequest = null;
    }
    this.byClOrdId.delete(clOrdId);
  }

  /** A message this client received: 8, 9, a session Reject (3) or a BusinessMessageReject (j). */
  applyReceived(m: MessageView, msgSeqNum: number, receivedAt: Date): BlotterChange | null {
    switch (m.msgType) {
      case MsgType.ExecutionReport:
        return this.executionReport(m, msgSeqNum, receivedAt);
      case MsgType.OrderCancelReject:
        return this.cancelReject(m, msgSeqNum, receivedAt);
      case MsgType.Reject:
      case BUSINESS_MESSAGE_REJECT:
        return this.rejectOfOurs(m, receivedAt);
      default:
        return null;
    }
  }

  private orderFromNew(m: MessageView, clOrdId: string, msgSeqNum: number, sentAt: Date): ClientOrder {
    const orderQty = text(m, T.OrderQty) ?? '0';
    const parties: ClientOrderParty[] = m.getGroup(T.NoPartyIDs).map((p) => ({
      partyID: p.get(T.PartyID) ?? '',
      partyIDSource: p.get(T.PartyIDSource) ?? null,
      partyRole: p.get(T.PartyRole) ?? '',
    }));
    const legs: ClientOrderLeg[] = m.getGroup(T.NoLegs).map((l) => {
      const ratio = l.get(T.LegRatioQty) ?? '1';
      return {
        legSymbol: l.get(T.LegSymbol) ?? '',
        legSide: l.get(T.LegSide) ?? '',
        legMaturityMonthYear: l.get(T.LegMaturityMonthYear) ?? null,
        legRatioQty: ratio,
        legSecurityType: l.get(T.LegSecurityType) ?? null,
        orderQty: legQty(ratio, orderQty),
      };
    });
    return {
      id: clOrdId,
      clordid: clOrdId,
      origclordid: null,
      msgtype: m.msgType === MsgType.NewOrderMultileg ? MsgType.NewOrderMultileg : MsgType.NewOrderSingle,
      ordstatus: null,
      timestamp: sentAt.toISOString(),
      transacttime: fixTimeToIso(text(m, T.TransactTime)),
      tradername: parties.find((p) => p.partyRole === TRADER_ROLE)?.partyID ?? null,
      side: text(m, T.Side) ?? '',
      orderqty: orderQty,
      symbol: text(m, T.Symbol) ?? '',
      maturity: text(m, T.MaturityMonthYear),
      ordtype: text(m, T.OrdType) ?? '',
      price: text(m, T.Price),
      timeinforce: text(m, T.TimeInForce),
      exchange: text(m, T.ExDestination) ?? text(m, T.SecurityExchange),
      lastqty: null,
      lastpx: null,
      cumqty: '0',
      avgpx: '0',
      leavesqty: orderQty,
      text: text(m, T.Text),
      brokerorderid: null,
      orderid: null,
      legs,
      parties,
      pendingRequest: null,
      msgSeqNum,
    };
  }

  /** A report about an order this blotter never saw sent (sent before the history window): a row from the report. */
  private orderFromReport(m: MessageView, clOrdId: string, receivedAt: Date): ClientOrder {
    const orderQty = text(m, T.OrderQty) ?? '0';
    const order: ClientOrder = {
      ...this.orderFromNew(m, clOrdId, 0, receivedAt),
      msgtype: m.getGroup(T.NoLegs).length > 0 ? 'AB' : 'D',
      leavesqty: text(m, T.LeavesQty) ?? orderQty,
      text: null,
    };
    this.orders.set(order.id, order);
    this.byClOrdId.set(clOrdId, order.id);
    return order;
  }

  private recordExecution(e: ClientExecution): boolean {
    if (this.execIds.has(e.id)) return false;
    this.execIds.add(e.id);
    this.executions.push(e);
    if (this.executions.length > MAX_EXECUTIONS) {
      const dropped = this.executions.splice(0, this.executions.length - MAX_EXECUTIONS);
      for (const d of dropped) this.execIds.delete(d.id);
    }
    return true;
  }

  private executionReport(m: MessageView, msgSeqNum: number, receivedAt: Date): BlotterChange | null {
    const clOrdId = text(m, T.ClOrdID);
    if (!clOrdId) return null;
    const orig = text(m, T.OrigClOrdID);
    const key = this.byClOrdId.get(clOrdId) ?? (orig ? this.byClOrdId.get(orig) : undefined);
    const order = (key !== undefined ? this.orders.get(key) : undefined) ?? this.orderFromReport(m, clOrdId, receivedAt);
    const execType = text(m, T.ExecType);
    const execution: ClientExecution = {
      id: text(m, T.ExecID) ?? `8:${msgSeqNum}:${receivedAt.getTime()}`,
      orderKey: order.id,
      msgtype: '8',
      clordid: clOrdId,
      origclordid: orig,
      execid: text(m, T.ExecID),
      exectype: execType,
      ordstatus: text(m, T.OrdStatus),
      transacttime: fixTimeToIso(text(m, T.TransactTime)),
      timestamp: receivedAt.toISOString(),
      symbol: text(m, T.Symbol),
      side: text(m, T.Side),
      orderqty: text(m, T.OrderQty),
      price: text(m, T.Price),
      lastpx: text(m, T.LastPx),
      lastqty: text(m, T.LastQty),
      cumqty: text(m, T.CumQty),
      avgpx: text(m, T.AvgPx),
      leavesqty: text(m, T.LeavesQty),
      text: text(m, T.Text),
      orderid: text(m, T.OrderID),
      msgSeqNum,
    };
    if (!this.recordExecution(execution)) return null;
    // A status answer (I) or a restatement describes the order without changing it.
    if (execution.ordstatus) order.ordstatus = execution.ordstatus;
    if (execution.orderid) {
      order.brokerorderid = execution.orderid;
      order.orderid = execution.orderid;
    }
    if (execution.cumqty !== null) order.cumqty = execution.cumqty;
    if (execution.avgpx !== null) order.avgpx = execution.avgpx;
    if (execution.leavesqty !== null) order.leavesqty = execution.leavesqty;
    if (execution.transacttime) order.transacttime = execution.transacttime;
    if (execution.lastqty !== null && execution.lastqty !== '0') order.lastqty = execution.lastqty;
    if (execution.lastpx !== null && execution.lastqty !== '0') order.lastpx = execution.lastpx;
    if (execution.text) order.text = execution.text;
    switch (execType) {
      case ExecType.Replaced:
        order.clordid = clOrdId;
        order.origclordid = orig;
        if (execution.orderqty) {
          order.orderqty = execution.orderqty;
          for (const leg of order.legs) leg.orderQty = legQty(leg.legRatioQty, execution.orderqty);
        }
        if (execution.price) order.price = execution.price;
        order.pendingRequest = null;
        break;
      case ExecType.Canceled:
      case ExecType.Rejected:
      case ExecType.DoneForDay:
      case ExecType.Expired:
        order.pendingRequest = null;
        break;
      default:
        // A New after a refused replace or a fill during a pending cancel keeps the request pending
        // until its own answer (Replaced, Canceled or a cancel reject) arrives.
        break;
    }
    return { order, execution };
  }

  private cancelReject(m: MessageView, msgSeqNum: number, receivedAt: Date): BlotterChange | null {
    const clOrdId = text(m, T.ClOrdID);
    const orig = text(m, T.OrigClOrdID);
    const key = (orig ? this.byClOrdId.get(orig) : undefined) ?? (clOrdId ? this.byClOrdId.get(clOrdId) : undefined);
    const order = key === undefined ? undefined : this.orders.get(key);
    if (!order) return null;
    const execution: ClientExecution = {
      id: `9:${clOrdId ?? ''}:${msgSeqNum}`,
      orderKey: order.id,
      msgtype: '9',
      clordid: clOrdId ?? '',
      origclordid: orig,
      execid: null,
      exectype: null,
      ordstatus: text(m, T.OrdStatus),
      transacttime: fixTimeToIso(text(m, T.TransactTime)),
      timestamp: receivedAt.toISOString(),
      symbol: order.symbol,
      side: order.side,
      orderqty: null,
      price: null,
      lastpx: null,
      lastqty: null,
      cumqty: null,
      avgpx: null,
      leavesqty: null,
      text: text(m, T.Text),
      orderid: text(m, T.OrderID),
      msgSeqNum,
    };
    if (!this.recordExecution(execution)) return null;
    if (order.pendingRequest && (!clOrdId || order.pendingRequest.clOrdId === clOrdId)) order.pendingRequest = null;
    // The reject's OrdStatus (39) is the order's status now: a refused request leaves Pending Cancel or
    // Pending Replace (back to Pending New, New or Partially Filled).
    const status = text(m, T.OrdStatus);
    if (status && (order.ordstatus === OrdStatus.PendingCancel || order.ordstatus === OrdStatus.PendingReplace)) order.ordstatus = status;
    return { order, execution };
  }

  /** A session or business reject of a message we sent: a refused order is rejected, a refused request is dropped. */
  private rejectOfOurs(m: MessageView, receivedAt: Date): BlotterChange | null {
    const refSeq = Number(m.get(T.RefSeqNum));
    const refId = text(m, T.BusinessRejectRefID);
    const sent = Number.isInteger(refSeq) ? this.bySentSeq.get(refSeq) : undefined;
    const key = sent?.key ?? (refId ? this.byClOrdId.get(refId) : undefined);
    const order = key === undefined ? undefined : this.orders.get(key);
    if (!order) return null;
    const reason = `${m.msgType === MsgType.Reject ? 'Session Reject' : 'Business Reject'}: ${text(m, T.Text) ?? 'no reason given'}`;
    const refType = sent?.msgType ?? text(m, T.RefMsgType);
    if (refType === MsgType.NewOrderSingle || refType === MsgType.NewOrderMultileg) {
      if (order.ordstatus === null) order.ordstatus = OrdStatus.Rejected;
      order.leavesqty = '0';
    } else {
      order.pendingRequest = null;
    }
    order.text = reason;
    order.transacttime = receivedAt.toISOString();
    return { order };
  }
}
