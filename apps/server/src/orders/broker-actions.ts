import {
  clOrdIdTakenByOtherOrder,
  decideOrderRequest,
  hasLegFills,
  insertExecReport,
  insertOrderAction,
  insertTrade,
  lockOrder,
  nextExecIds,
  orderFillTotals,
  pendingOrderRequest,
  updateLeg,
  updateOrder,
  type Db,
  type ExecReportRow,
  type OrderBundle,
  type OrderLegRow,
  type OrderRequestRow,
  type OrderRow,
  type RiskOrderRow,
  findSecurity,
  findTraderParty,
  type ExecutingTrader,
  type Queryable,
} from '@fixdesk/db';
import {
  applyEvent,
  AVG_PX_SCALE,
  checkFillPrice,
  checkFillPriceTick,
  checkLegFillPrice,
  checkLegFillQuantity,
  completedStrategyUnits,
  conflictError,
  CxlRejReason,
  CxlRejResponseTo,
  Decimal,
  ExecType,
  findTransition,
  impliedStrategyPrice,
  invalidError,
  limitViolation,
  maturityLabel,
  MultilegFillText,
  MsgType,
  notFoundError,
  OrdRejReason,
  OrdStatus,
  OrdType,
  refusalError,
  type OrderEvent,
  type OrdRejReasonCode,
  type OrdStatusCode,
  type DecimalInput,
} from '@fixdesk/domain';
import { TRADER_PARTY_ID_SOURCE, type ActionType, type SessionUser, type TraderIdSource } from '@fixdesk/protocol';
import { contractOf, orderState, stateColumns, type OrderWrites } from './order-writes';
import type { OrderPublisher } from './publisher';
import { riskRowFrom, type RiskState } from './risk-state';
import type { OrderReferenceData } from './reference-data';
import type { OrderReplies } from './replies';

/** Who acts when nobody does: end-of-day expiry. Not a user row (user_ref stays empty). */
export const SYSTEM_USER: SessionUser = { user_id: 0, username: 'SYSTEM', role: 'admin', first_name: null, last_name: null, email: null };

/**
 * The executing trader a broker-type user's action names on its report (PartyRole 12): their trader ID,
 * its source and their full name. Other users (and the system) name none.
 */
async function executingTraderOf(tx: Queryable, user: SessionUser): Promise<ExecutingTrader | undefined> {
  if (user.user_id <= 0) return undefined;
  const p = await findTraderParty(tx, user.user_id);
  if (!p) return undefined;
  return {
    id: p.trader_id,
    source: TRADER_PARTY_ID_SOURCE[(p.trader_party_id_source ?? 'PROPRIETARY') as TraderIdSource] ?? 'D',
    name: p.trader_full_name,
  };
}

/** What a broker action answers. */
export interface ActionOutcome {
  order: OrderRow;
  fullyFilled: boolean;
  message: string;
  /** The whole order as stored after the action, read once after the commit for the browsers (undefined if that read failed). */
  stored: Promise<OrderBundle | undefined>;
}

interface ActOptions {
  notes?: string | undefined;
  /** The user the action was taken through (a simulator acting for a broker). */
  via?: string | undefined;
  fill?: { qty: string; px: string };
  /** The client request the action decides. */
  request?: 'F' | 'G';
}

/** What one locked transaction of an action produced, for after its commit. */
interface Acted {
  order: OrderRow;
  er: ExecReportRow | null;
  legs: OrderLegRow[];
  actionId: number;
  /** The order as its client's risk counts it now (risk-state.ts). */
  risk: RiskOrderRow & { sendercompid: string };
}

/**
 * What brokers (and the day-expiry job) do to an order: accept, reject, fill (at the spread or on
 * one leg), done for day, cancel, expire, and confirm or refuse a client's request. Each runs in one
 * transaction with the order row locked: the state table decides, the order, its execution report
 * (or cancel reject) and the order action are written, and only after the commit are the client and
 * the browsers told. A refusal throws a DomainError (the HTTP layer maps it to a status code).
 */
export class BrokerActions {
  constructor(
    private readonly db: Db,
    private readonly refs: OrderReferenceData,
    private readonly writes: OrderWrites,
    private readonly replies: OrderReplies,
    private readonly publish: OrderPublisher,
    private readonly risk: RiskState,
    private readonly now: () => Date,
  ) {}

  /** clientText: the broker's message to the client, sent as Text (58) on the New report (and kept as the action's notes). */
  accept(ref: string, user: SessionUser, notes?: string, via?: string, clientText?: string) {
    return this.act(ref, user, 'ACCEPT', { type: 'accept', ...(clientText?.trim() ? { text: clientText } : {}) }, { notes, via });
  }

  reject(ref: string, user: SessionUser, reasonText: string, ordRejReason?: string, notes?: string, via?: string) {
    return this.act(
      ref,
      user,
      'REJECT',
      { type: 'reject', reason: reasonText, ordRejReason: (ordRejReason ?? OrdRejReason.BrokerOption) as OrdRejReasonCode },
      { notes: notes ?? reasonText, via },
    );
  }

  doneForDay(ref: string, user: SessionUser, notes?: string, via?: string) {
    return this.act(ref, user, 'DONE_FOR_DAY', { type: 'doneForDay' }, { notes, via });
  }

  /**
   * The end of the client's trading session passed with this Day order still open: it expires
   * (ExecType/OrdStatus C, nothing left). Recorded as an action of the system, not of a person.
   */
  expire(orderId: number, notes: string) {
    return this.act(String(orderId), SYSTEM_USER, 'EXPIRE', { type: 'expire' }, { notes });
  }

  brokerCancel(ref: string, user: SessionUser, reason: string, notes?: string, via?: string) {
    return this.act(ref, user, 'CANCEL', { type: 'brokerCancel', reason }, { notes: notes ?? reason, via });
  }

  decideRequest(ref: string, user: SessionUser, kind: 'cancel' | 'replace', decision: 'confirm' | 'refuse', reason?: string, via?: string) {
    const event: OrderEvent =
      kind === 'cancel'
        ? decision === 'confirm'
          ? { type: 'cancelConfirm' }
          : { type: 'cancelRefuse', reason: reason ?? '' }
        : decision === 'confirm'
          ? { type: 'replaceConfirm' }
          : { type: 'replaceRefuse', reason: reason ?? '' };
    const action: ActionType = `${kind === 'cancel' ? 'CANCEL' : 'REPLACE'}_${decision === 'confirm' ? 'CONFIRM' : 'REFUSE'}`;
    return this.act(ref, user, action, event, {
      notes: reason,
      via,
      request: kind === 'cancel' ? MsgType.OrderCancelRequest : MsgType.OrderCancelReplaceRequest,
    });
  }

  fill(ref: string, user: SessionUser, qty: string, px: string, legIndex: number | undefined, notes?: string, via?: string) {
    if (legIndex !== undefined) return this.legFill(ref, user, legIndex, qty, px, notes, via);
    return this.act(ref, user, 'FILL', { type: 'fill', qty, px }, { notes, via, fill: { qty, px } });
  }

  // ── one action: lock, decide, write, then tell ───────────────────────────────────────────────

  private async act(ref: string, user: SessionUser, actionType: ActionType, event: OrderEvent, opts: ActOptions): Promise<ActionOutcome> {
    const afterCommit: Array<() => void> = [];
    const out = await this.db.transaction(async (tx): Promise<Acted> => {
      const order = await lockOrder(tx, ref);
      if (!order) throw notFoundError(`Order ${ref} not found`);
      if (event.type === 'fill') await this.checkSpreadFill(tx, order, event.px);
      const connector = (await this.refs.connectorIn(tx, order.sendercompid))!;
      const applied = applyEvent(await this.writes.loadState(tx, order), event);
      if (!applied.ok) throw refusalError(applied);
      const request = opts.request ? await this.decidePendingRequest(tx, order, user, opts.request, event, opts.notes) : undefined;
      const answeredRequest = await this.answerWaitingRequest(tx, order, user, event, opts.notes, afterCommit);
      let er: ExecReportRow | null = null;
      let updated: OrderRow;
      if (applied.report.msgType === MsgType.ExecutionReport) {
        // A confirmed replace or cancel answers the request's ClOrdID; the order takes it on.
        const answered = request && event.type.endsWith('Confirm') ? request : answeredRequest;
        const ids = answered ? { clordid: answered.clordid, origclordid: answered.origclordid, keepClOrdId: false } : undefined;
        // A new order may have taken the request's ClOrdID meanwhile: the order cannot take it on.
        if (
          ids &&
          ids.clordid !== order.clordid &&
          (await clOrdIdTakenByOtherOrder(tx, order.sendercompid, order.session_date, ids.clordid, order.id))
        ) {
          throw conflictError(
            `The request's ClOrdID ${ids.clordid} is already used by another order of ${order.sendercompid} today: refuse the request`,
          );
        }
        ({ updated, er } = await this.writes.persist(
          tx,
          order,
          applied.state,
          applied.report,
          connector,
          ids,
          actionType === 'ACCEPT' ? user.username : undefined,
          await executingTraderOf(tx, user),
        ));
      } else {
        // Refused request: OrderCancelReject (35=9) and the order back to its working status.
        const report = applied.report;
        updated = await updateOrder(tx, order.id, { ...stateColumns(applied.state, order), ordstatus: applied.state.ordStatus });
        afterCommit.push(
          await this.replies.cancelReject(tx, {
            orderId: order.id,
            compId: order.sendercompid,
            connectorId: order.client_connector_id,
            clordid: request!.clordid,
            origclordid: request!.origclordid,
            orderid: order.brokerorderid,
            ordstatus: report.ordStatus,
            responseTo: report.cxlRejResponseTo,
            reason: Number(report.cxlRejReason),
            text: report.text,
          }),
        );
      }
      const finalType: ActionType = actionType === 'FILL' && !applied.state.leavesQty.isZero() ? 'PARTIAL_FILL' : actionType;
      const action = await insertOrderAction(tx, {
        orderId: order.id,
        brokerorderid: order.brokerorderid,
        clordid: order.clordid,
        sendercompid: order.sendercompid,
        symbol: order.symbol,
        side: order.side,
        orderqty: order.orderqty,
        price: order.price,
        actionType: finalType,
        userId: user.username,
        userRef: user.user_id > 0 ? user.user_id : null,
        notes: opts.notes?.trim() || null,
        actionData: {
          ...(opts.fill ? { fillQty: opts.fill.qty, fillPrice: opts.fill.px } : {}),
          ...(opts.via && opts.via !== user.username ? { via: opts.via } : {}),
          ordStatus: updated.ordstatus,
          execId: er?.execid,
        },
        fillQty: opts.fill?.qty ?? null,
        fillPrice: opts.fill?.px ?? null,
        legIndex: null,
      });
      if (er && er.exectype === ExecType.Trade) await this.recordSpreadTrade(tx, order, updated, er);
      const legs = await this.writes.reportLegs(tx, order);
      const risk = riskRowFrom(updated, legs, applied.state.pendingReplace?.orderQty.toString() ?? null);
      return { order: updated, er, legs: er ? legs : [], actionId: action.id, risk };
    });
    const stored = this.tell(out, afterCommit);
    return {
      stored,
      order: out.order,
      fullyFilled: Decimal.from(out.order.leavesqty).isZero() && Decimal.from(out.order.cumqty).isPositive(),
      message: `${actionType.replace(/_/g, ' ').toLowerCase()} done for ${out.order.brokerorderid}`,
    };
  }

  /** After the commit, before any await: reports to a client keep their commit order; then the browsers. */
  private tell(out: Acted, afterCommit: Array<() => void> = []): Promise<OrderBundle | undefined> {
    // The client's next order is decided on the order as it is now (a fill, a cancel), not as it was.
    this.risk.orderChanged(out.risk);
    if (out.er) this.replies.executionReport(out.order.sendercompid, out.order.client_connector_id, out.er, out.order, out.legs);
    for (const send of afterCommit) send();
    return this.publish.orderChanged(out.order.id, out.er, out.actionId);
  }

  /** A fill at the order's (or the strategy's spread) price: not on an order filled per leg, and at a price its limit allows. */
  private async checkSpreadFill(tx: Queryable, order: OrderRow, px: DecimalInput): Promise<void> {
    if (order.msg_type === MsgType.NewOrderMultileg && (await hasLegFills(tx, order.id))) {
      throw conflictError(MultilegFillText.legsFilling);
    }
    const check = checkFillPrice(px, {
      side: order.side,
      ordType: order.ordtype,
      price: order.price,
      isStrategy: order.msg_type === MsgType.NewOrderMultileg,
    });
    if (check.level === 'error') throw invalidError(check.message, 'fillPrice');
    // A strategy filled at its spread price is not checked: a strip's average need not be whole ticks.
    if (order.msg_type === MsgType.NewOrderSingle) await assertFillOnTick(tx, order.symbol, px);
  }

  /** The client request a broker decision answers, marked decided. */
  private async decidePendingRequest(
    tx: Queryable,
    order: OrderRow,
    user: SessionUser,
    kind: 'F' | 'G',
    event: OrderEvent,
    notes: string | undefined,
  ): Promise<OrderRequestRow> {
    const request = await pendingOrderRequest(tx, order.id);
    if (!request || request.request_type !== kind)
      throw conflictError(
        `No ${kind === MsgType.OrderCancelRequest ? 'cancel' : 'replace'} request is pending for order ${order.brokerorderid}`,
      );
    await decideOrderRequest(tx, request.id, event.type.endsWith('Confirm') ? 'CONFIRMED' : 'REFUSED', user.username, notes ?? null);
    return request;
  }

  /**
   * A broker cancel or an expiry answers a client request still waiting. A broker cancel does a cancel
   * request (returned: the report carries its ClOrdID) and refuses a replace request; an expiry
   * refuses either. A refusal is an OrderCancelReject, sent after the commit.
   */
  private async answerWaitingRequest(
    tx: Queryable,
    order: OrderRow,
    user: SessionUser,
    event: OrderEvent,
    notes: string | undefined,
    afterCommit: Array<() => void>,
  ): Promise<OrderRequestRow | undefined> {
    if (event.type !== 'brokerCancel' && event.type !== 'expire') return undefined;
    const waiting = await pendingOrderRequest(tx, order.id);
    if (!waiting) return undefined;
    if (event.type === 'brokerCancel' && waiting.request_type === MsgType.OrderCancelRequest) {
      await decideOrderRequest(tx, waiting.id, 'CONFIRMED', user.username, notes ?? null);
      return waiting;
    }
    if (event.type === 'brokerCancel' && waiting.request_type !== MsgType.OrderCancelReplaceRequest) return undefined;
    const [text, ordstatus] =
      event.type === 'expire'
        ? ['Order expired at the end of the trading day', OrdStatus.Expired]
        : ['Order canceled by the broker', OrdStatus.Canceled];
    await decideOrderRequest(tx, waiting.id, 'REFUSED', user.username, text);
    afterCommit.push(
      await this.replies.cancelReject(tx, {
        orderId: order.id,
        compId: order.sendercompid,
        connectorId: order.client_connector_id,
        clordid: waiting.clordid,
        origclordid: waiting.origclordid,
        orderid: order.brokerorderid,
        ordstatus,
        responseTo:
          waiting.request_type === MsgType.OrderCancelRequest ? CxlRejResponseTo.CancelRequest : CxlRejResponseTo.CancelReplaceRequest,
        reason: Number(CxlRejReason.TooLateToCancel),
        text,
      }),
    );
    return undefined;
  }

  /** The trade of a fill at the order's price; a strategy's fill executes every leg by its ratio. */
  private async recordSpreadTrade(tx: Queryable, order: OrderRow, updated: OrderRow, er: ExecReportRow): Promise<void> {
    const multileg = order.msg_type === MsgType.NewOrderMultileg;
    await insertTrade(tx, {
      orderId: order.id,
      execReportId: er.id,
      symbol: order.symbol,
      type: multileg ? 'multileg' : 'outright',
      contract: contractOf(order),
      side: order.side,
      price: er.lastpx!,
      quantity: er.lastqty!,
    });
    if (!multileg) return;
    // A fill at the spread price executes every leg: ratio × the strategy's executed quantity (the
    // legs' own prices are not known, so their average price is left as it was).
    for (const l of await this.writes.legs(tx, order.id)) {
      await updateLeg(tx, order.id, l.leg_index, Decimal.from(l.leg_ratio_qty).mul(updated.cumqty).toString(), l.leg_avgpx);
    }
  }

  // ── a fill on one leg ────────────────────────────────────────────────────────────────────────

  /** A fill on one leg of a multileg order (quantity in the leg's contracts, at the leg's outright price). */
  private async legFill(
    ref: string,
    user: SessionUser,
    legIndex: number,
    qtyText: string,
    pxText: string,
    notes?: string,
    via?: string,
  ): Promise<ActionOutcome> {
    const out = await this.db.transaction(async (tx): Promise<Acted> => {
      const order = await lockOrder(tx, ref);
      if (!order) throw notFoundError(`Order ${ref} not found`);
      if (order.msg_type !== MsgType.NewOrderMultileg) throw invalidError('legIndex applies to multileg orders only', 'legIndex');
      if (!findTransition(order.ordstatus as OrdStatusCode, 'legFill')) {
        throw conflictError(`Cannot fill an order that is ${order.ordstatus === OrdStatus.PendingNew ? 'awaiting acceptance' : 'closed'}`);
      }
      const spreadFills = await orderFillTotals(tx, order.id, null);
      const state = orderState(order, spreadFills.notional);
      if (state.awaitingAcceptance) throw conflictError('Order must be accepted before it can be filled');
      if (!Decimal.from(spreadFills.qty).isZero()) throw conflictError(MultilegFillText.spreadFilling);
      const legs = await this.writes.legs(tx, order.id);
      const qtyCheck = checkLegFillQuantity(
        qtyText,
        legs.map((l) => ({ side: l.leg_side, ratio: l.leg_ratio_qty, cumQty: l.leg_cumqty })),
        legIndex,
        order.orderqty,
      );
      if (qtyCheck.level === 'error') throw invalidError(qtyCheck.message, 'fillQty');
      const pxCheck = checkLegFillPrice(pxText);
      if (pxCheck.level === 'error') throw invalidError(pxCheck.message, 'fillPrice');
      const leg = legs[legIndex]!;
      await assertFillOnTick(tx, leg.leg_symbol, pxText);
      const qty = Decimal.from(qtyText);
      const px = Decimal.from(pxText);
      const legTotals = await orderFillTotals(tx, order.id, legIndex);
      const legCum = Decimal.from(legTotals.qty).add(qty);
      leg.leg_cumqty = legCum.toString();
      leg.leg_avgpx = Decimal.from(legTotals.notional).add(qty.mul(px)).div(legCum, AVG_PX_SCALE).stripTrailingZeros().toString();
      // The strategy has executed as many units as its legs complete, at the price the legs imply.
      const units = completedStrategyUnits(legs.map((l) => ({ ratio: l.leg_ratio_qty, cumQty: l.leg_cumqty })));
      const implied = impliedStrategyPrice(
        order.side,
        legs.map((l) => ({ side: l.leg_side, ratio: l.leg_ratio_qty, px: Decimal.from(l.leg_avgpx).isZero() ? px : l.leg_avgpx })),
      );
      if (units.gt(order.cumqty) && implied && order.ordtype === OrdType.Limit && order.price !== null) {
        const violation = limitViolation(implied, { side: order.side, ordType: OrdType.Limit, price: Decimal.from(order.price) });
        if (violation)
          throw invalidError(`Completing the strategy at the legs' prices gives ${implied.toString()}: ${violation}`, 'fillPrice');
      }
      const avgPx = units.isPositive() && implied ? implied : Decimal.ZERO;
      const applied = applyEvent(state, { type: 'legFill', cumQty: units, avgPx, lastQty: qty, lastPx: px });
      if (!applied.ok) throw refusalError(applied);
      const next = applied.state;
      await updateLeg(tx, order.id, legIndex, leg.leg_cumqty, leg.leg_avgpx);
      const updated = await updateOrder(tx, order.id, {
        ordstatus: next.ordStatus,
        cumqty: next.cumQty.toString(),
        leavesqty: next.leavesQty.toString(),
        avgpx: next.avgPx.toString(),
        lastqty: qty.toString(),
        lastpx: px.toString(),
      });
      const connector = (await this.refs.connectorIn(tx, order.sendercompid))!;
      const [execId] = await nextExecIds(tx, connector.executionIdPrefix, 1);
      const er = await insertExecReport(tx, {
        orderId: order.id,
        execid: execId!,
        sendercompid: order.sendercompid,
        clordid: order.clordid,
        origclordid: order.origclordid,
        orderid: order.brokerorderid,
        exectype: applied.report.msgType === MsgType.ExecutionReport ? applied.report.execType : ExecType.Trade,
        ordstatus: next.ordStatus,
        side: order.side,
        symbol: order.symbol,
        orderqty: order.orderqty,
        price: order.price,
        lastqty: qty.toString(),
        lastpx: px.toString(),
        cumqty: next.cumQty.toString(),
        avgpx: next.avgPx.toString(),
        leavesqty: next.leavesQty.toString(),
        legIndex,
        ordrejreason: null,
        text: null,
        transacttime: this.now(),
        executingTrader: await executingTraderOf(tx, user),
      });
      const legFullyFilled = legCum.gte(Decimal.from(leg.leg_ratio_qty).mul(order.orderqty));
      const action = await insertOrderAction(tx, {
        orderId: order.id,
        brokerorderid: order.brokerorderid,
        clordid: order.clordid,
        sendercompid: order.sendercompid,
        symbol: order.symbol,
        side: order.side,
        orderqty: order.orderqty,
        price: order.price,
        actionType: next.leavesQty.isZero() ? 'FILL' : 'PARTIAL_FILL',
        userId: user.username,
        userRef: user.user_id,
        notes: notes?.trim() || null,
        actionData: {
          legIndex,
          legSymbol: leg.leg_symbol,
          fillQty: qty.toString(),
          fillPrice: px.toString(),
          legFullyFilled,
          ...(via && via !== user.username ? { via } : {}),
          execId: er.execid,
        },
        fillQty: qty.toString(),
        fillPrice: px.toString(),
        legIndex,
      });
      await insertTrade(tx, {
        orderId: order.id,
        execReportId: er.id,
        symbol: leg.leg_symbol,
        type: 'outright',
        contract: maturityLabel(leg.leg_maturity_month_year) ?? leg.leg_maturity_month_year ?? '',
        side: leg.leg_side,
        price: px.toString(),
        quantity: qty.toString(),
      });
      const pending = await pendingOrderRequest(tx, order.id);
      const risk = riskRowFrom(updated, legs, pending?.request_type === MsgType.OrderCancelReplaceRequest ? pending.new_orderqty : null);
      return { order: updated, er, legs, actionId: action.id, risk };
    });
    const stored = this.tell(out);
    return {
      stored,
      order: out.order,
      fullyFilled: Decimal.from(out.order.leavesqty).isZero(),
      message: `leg ${legIndex + 1} fill done for ${out.order.brokerorderid}`,
    };
  }
}

/**
 * A manual fill price must be on the security's price grid (its price_tick_size, read in the fill's
 * transaction so a tick changed a moment ago applies).
 */
async function assertFillOnTick(tx: Queryable, symbol: string, px: DecimalInput): Promise<void> {
  const security = await findSecurity(tx, symbol);
  const offTick = checkFillPriceTick(px, security ? { symbol: security.symbol, priceTickSize: security.price_tick_size } : null);
  if (offTick) throw invalidError(offTick.message, 'fillPrice');
}
