import {
  clordidUsedOnDay,
  findOrderByClOrdId,
  insertOrderRequest,
  nextExecIds,
  type Db,
  type ExecReportRow,
  type OrderRow,
  type Queryable,
} from '@fixdesk/db';
import {
  applyEvent,
  capabilityNeedsPosition,
  CxlRejReason,
  CxlRejResponseTo,
  ExecType,
  MsgType,
  OrdStatus,
  validateNewOrderMultileg,
  validateNewOrderSingle,
  type ContractExposure,
  type OrderEvent,
  type OrdTypeCode,
  type SecurityInfo,
} from '@fixdesk/domain';
import { buildExecutionReport, buildUnknownOrderStatus } from './fix-messages';
import type { OrderWrites } from './order-writes';
import type { OrderPublisher } from './publisher';
import { securityIn, tradingDay, type OrderReferenceData } from './reference-data';
import type { OrderReplies } from './replies';
import { riskRowFrom, type RiskState } from './risk-state';

/** An OrderCancelRequest (F) or OrderCancelReplaceRequest (G) as read from the wire. */
export interface IncomingCancel {
  kind: 'F' | 'G';
  senderCompId: string;
  clOrdId: string;
  origClOrdId: string;
  orderId: string | undefined;
  orderQty: string | undefined;
  price: string | undefined;
  ordType: string | undefined;
  text: string | undefined;
}

/** What a client asks of an order it sent: cancel (F), replace (G), its status (H). */
export class ClientRequests {
  constructor(
    private readonly db: Db,
    private readonly refs: OrderReferenceData,
    private readonly writes: OrderWrites,
    private readonly replies: OrderReplies,
    private readonly publish: OrderPublisher,
    private readonly risk: RiskState,
    /** A request's ClOrdID is used today: the intake must refuse a new order that takes it. */
    private readonly noteUsedClOrdId: (compId: string, sessionDate: string, clOrdId: string) => void,
    private readonly now: () => Date,
  ) {}

  /**
   * OrderCancelRequest (F) and OrderCancelReplaceRequest (G): the order waits for the broker's decision
   * (Pending Cancel / Pending Replace), or the request is refused with an OrderCancelReject.
   */
  async cancelOrReplace(r: IncomingCancel): Promise<void> {
    const connector = await this.refs.connector(r.senderCompId);
    const responseTo = r.kind === MsgType.OrderCancelRequest ? CxlRejResponseTo.CancelRequest : CxlRejResponseTo.CancelReplaceRequest;
    const result = await this.db.transaction(async (tx) => {
      const order = await findOrderByClOrdId(tx, r.senderCompId, r.origClOrdId, true);
      const refuse = async (reason: number, text: string) => ({
        kind: 'reject' as const,
        send: await this.replies.cancelReject(tx, {
          orderId: order?.id ?? null,
          compId: r.senderCompId,
          connectorId: connector?.id ?? 0,
          clordid: r.clOrdId,
          origclordid: r.origClOrdId,
          orderid: order?.brokerorderid ?? r.orderId ?? 'NONE',
          ordstatus: order?.ordstatus ?? OrdStatus.Rejected,
          responseTo,
          reason,
          text,
        }),
      });
      if (!order || (r.orderId && r.orderId !== order.brokerorderid)) {
        return {
          kind: 'reject' as const,
          send: await this.replies.cancelReject(tx, {
            orderId: order?.id ?? null,
            compId: r.senderCompId,
            connectorId: connector?.id ?? 0,
            clordid: r.clOrdId,
            origclordid: r.origClOrdId,
            orderid: r.orderId ?? 'NONE',
            sentOrderid: order?.brokerorderid ?? r.orderId ?? 'NONE',
            ordstatus: order?.ordstatus ?? OrdStatus.Rejected,
            responseTo,
            reason: Number(CxlRejReason.UnknownOrder),
            text: `Unknown order: no order with ClOrdID ${r.origClOrdId}`,
          }),
        };
      }
      // ClOrdIDs are unique per client and day, requests included (CxlRejReason 6: Duplicate ClOrdID).
      if (!r.clOrdId || (await clordidUsedOnDay(tx, r.senderCompId, order.session_date, r.clOrdId))) {
        return refuse(Number(CxlRejReason.DuplicateClOrdId), r.clOrdId ? `Duplicate ClOrdID ${r.clOrdId}` : 'ClOrdID (11) is required');
      }
      if (r.kind === MsgType.OrderCancelReplaceRequest) {
        const problem = await this.checkReplaceTerms(tx, order, r);
        if (problem) return refuse(Number(CxlRejReason.BrokerOption), problem);
      }
      const state = await this.writes.loadState(tx, order);
      const event: OrderEvent =
        r.kind === MsgType.OrderCancelRequest
          ? { type: 'cancelRequest' }
          : {
              type: 'replaceRequest',
              orderQty: r.orderQty ?? order.orderqty,
              price: r.price ?? null,
              ordType: (r.ordType as OrdTypeCode | undefined) ?? order.ordtype,
            };
      const applied = applyEvent(state, event);
      if (!applied.ok) return refuse(Number(applied.cxlRejReason ?? CxlRejReason.Other), applied.reason);
      const replace = r.kind === MsgType.OrderCancelReplaceRequest;
      await insertOrderRequest(tx, {
        orderId: order.id,
        type: r.kind,
        clordid: r.clOrdId,
        origclordid: r.origClOrdId,
        newOrderQty: replace ? (applied.state.pendingReplace?.orderQty.toString() ?? null) : null,
        newPrice: replace ? (applied.state.pendingReplace?.price?.toString() ?? null) : null,
        newOrdType: replace ? (applied.state.pendingReplace?.ordType ?? null) : null,
        text: r.text ?? null,
      });
      if (applied.report.msgType !== MsgType.ExecutionReport)
        throw new Error('a cancel or replace request answers with an execution report');
      const owner = (await this.refs.connectorIn(tx, order.sendercompid))!;
      const { updated, er } = await this.writes.persist(tx, order, applied.state, applied.report, owner, {
        clordid: r.clOrdId,
        origclordid: r.origClOrdId,
        keepClOrdId: true,
      });
      const legs = await this.writes.reportLegs(tx, order);
      return {
        kind: 'pending' as const,
        order: updated,
        er,
        legs,
        riskRow: riskRowFrom(updated, legs, replace ? (applied.state.pendingReplace?.orderQty.toString() ?? null) : null),
      };
    });
    if (result.kind === 'reject') {
      result.send();
      return;
    }
    // A replace that raises the quantity counts at once, before the next order of the client is decided.
    this.risk.orderChanged(result.riskRow);
    this.replies.executionReport(r.senderCompId, result.order.client_connector_id, result.er, result.order, result.legs);
    // The browsers are told; nobody here answers with the order (the promise never fails: logged).
    void this.publish.orderChanged(result.order.id, result.er, null);
    // The request's ClOrdID is used today: a new order may not take it (the client's next messages are
    // handed on only after this one's processing).
    if (connector) this.noteUsedClOrdId(r.senderCompId, tradingDay(this.now(), connector.timezone), r.clOrdId);
  }

  /**
   * The amended terms of a cancel/replace request get the intake rules a new order would: order type,
   * price (positive for an outright limit), whole positive quantity, tick size and the client's
   * capability for size and side. Null when they pass.
   */
  private async checkReplaceTerms(tx: Queryable, order: OrderRow, r: IncomingCancel): Promise<string | null> {
    const connector = await this.refs.connectorIn(tx, order.sendercompid);
    if (!connector) return 'Unknown client';
    const multileg = order.msg_type === MsgType.NewOrderMultileg;
    const legs = multileg ? await this.writes.legs(tx, order.id) : [];
    const symbols = multileg ? legs.map((l) => l.leg_symbol) : [order.symbol];
    const securities = new Map<string, SecurityInfo>();
    for (const sym of new Set(symbols.map((x) => x.toUpperCase()))) {
      const info = await securityIn(tx, sym);
      if (info) securities.set(sym, info);
    }
    const capabilities = await this.refs.capabilitiesIn(tx, connector.id);
    // Short selling and position limits, on the exposure held in memory: the replaced order counts at its
    // new quantity, as if new, so its own share (fills and working) is taken out first.
    let exposure: ((key: string) => ContractExposure) | undefined;
    if (capabilities.some(capabilityNeedsPosition)) {
      const book = await this.risk.hold(order.sendercompid);
      exposure = (key) => book.exposureWithout(key, String(order.id));
    }
    const ctx = {
      lookupSecurity: (sym: string) => securities.get(sym.toUpperCase()),
      capabilities,
      exposure,
      isDuplicateClOrdId: () => false,
    };
    const terms = {
      clOrdId: r.clOrdId,
      side: order.side,
      ordType: r.ordType ?? order.ordtype,
      orderQty: r.orderQty ?? order.orderqty,
      price: r.price ?? order.price ?? undefined,
      timeInForce: order.timeinforce,
      exDestination: order.exchange,
    };
    const verdict = multileg
      ? validateNewOrderMultileg(
          {
            ...terms,
            symbol: order.symbol,
            legs: legs.map((l) => ({
              symbol: l.leg_symbol,
              side: l.leg_side,
              ratio: l.leg_ratio_qty,
              maturityMonthYear: l.leg_maturity_month_year,
            })),
          },
          ctx,
        )
      : validateNewOrderSingle({ ...terms, symbol: order.symbol, maturityMonthYear: order.maturity_month_year }, ctx);
    return verdict.ok ? null : verdict.text;
  }

  /** OrderStatusRequest (H): an ExecutionReport with ExecType I for the order's current state. */
  async status(compId: string, clOrdId: string, orderId: string | undefined, side?: string, symbol?: string): Promise<void> {
    const order = await findOrderByClOrdId(this.db, compId, clOrdId);
    const connector = await this.refs.connector(compId);
    const [execId] = await nextExecIds(this.db, connector?.executionIdPrefix ?? 'REJ', 1);
    const now = this.now();
    // Behind whatever the outbox holds for the client: a status never overtakes the reports it describes.
    if (!order || (orderId && orderId !== order.brokerorderid)) {
      this.replies.unstored(compId, connector?.id, (profile) =>
        buildUnknownOrderStatus({ clOrdId, orderId, execId: execId!, side, symbol, transactTime: now }, profile),
      );
      return;
    }
    const legs = await this.writes.legs(this.db, order.id);
    const er = {
      id: 0,
      order_id: order.id,
      execid: execId!,
      clordid: order.clordid,
      origclordid: order.origclordid,
      orderid: order.brokerorderid,
      exectype: ExecType.OrderStatus,
      ordstatus: order.ordstatus,
      side: order.side,
      symbol: order.symbol,
      orderqty: order.orderqty,
      price: order.price,
      lastqty: null,
      lastpx: null,
      cumqty: order.cumqty,
      avgpx: order.avgpx,
      leavesqty: order.leavesqty,
      leg_index: null,
      ordrejreason: null,
      text: null,
      transacttime: now,
      created_at: now,
      sendercompid: compId,
      sent_seq_num: null,
      sent_at: null,
    } satisfies ExecReportRow;
    this.replies.unstored(compId, connector?.id, (profile) => buildExecutionReport(er, order, legs, profile));
    // The desk sees that the client asked (spec 000 §4: an update message carrying order info).
    this.publish.orderInfo(order.id, { event: 'status_request', comp_id: compId, clordid: clOrdId, timestamp: now.toISOString() });
  }
}
