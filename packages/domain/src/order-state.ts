/**
 * An order's state and how one event changes it. `applyEvent(state, event)` looks up (status, event)
 * in ORDER_TRANSITIONS (order-transitions.ts, the lifecycle's table), checks the event's own conditions, and returns the next state together with the
 * message the broker must send (ExecutionReport ExecType/OrdStatus, or OrderCancelReject) — or a typed
 * refusal whose reason text goes to HTTP 409 or into an OrderCancelReject.
 *
 * While a cancel or replace request is pending the order keeps OrdStatus 6 / E (FIX 4.4 OrdStatus
 * precedence: Pending Cancel > Pending Replace > Filled > Partially Filled > New), yet it still executes:
 * fills are allowed and the quantities move. The status the order returns to when the request is
 * refused is derived from the quantities (`workingStatus`), so nothing extra has to be stored.
 */
import { AVG_PX_SCALE, Decimal, type DecimalInput } from './decimal';
import {
  CxlRejReason,
  CxlRejResponseTo,
  ExecType,
  OrdRejReason,
  OrdStatus,
  OrdType,
  type CxlRejReasonCode,
  type CxlRejResponseToCode,
  type ExecTypeCode,
  type OrdRejReasonCode,
  type OrdStatusCode,
  type OrdTypeCode,
  type SideCode,
} from './codes';
import { checkFillQuantity, limitViolation, FillText } from './fill-validation';
import { ordStatusLabel } from './order-status-labels';
import { TERMINAL_ORD_STATUSES, findTransition, type OrderEvent, type OrderEventType, type Transition } from './order-transitions';

// ───────────────────────────── state ─────────────────────────────

export interface OrderState {
  ordStatus: OrdStatusCode;
  side: SideCode;
  ordType: OrdTypeCode;
  orderQty: Decimal;
  /** Limit price; null for market orders. */
  price: Decimal | null;
  cumQty: Decimal;
  leavesQty: Decimal;
  /** Σ qty·px over every fill, exact; avgPx is derived from it so it never drifts. */
  fillNotional: Decimal;
  avgPx: Decimal;
  /** Of the last fill; 0 when the last report was not a fill. */
  lastQty: Decimal;
  lastPx: Decimal;
  /** The amendment waiting for the broker while the status is Pending Replace. */
  pendingReplace: PendingReplace | null;
  /**
   * The broker has not accepted the order yet: Pending New, or a cancel or replace request that came in
   * while it was (refusing the request returns the order to Pending New; it cannot be filled meanwhile).
   */
  awaitingAcceptance?: boolean;
}

export interface PendingReplace {
  orderQty: Decimal;
  price: Decimal | null;
  ordType: OrdTypeCode;
}

// ───────────────────────────── results ─────────────────────────────

export type OutboundReport =
  | { msgType: '8'; execType: ExecTypeCode; ordStatus: OrdStatusCode; ordRejReason?: OrdRejReasonCode; text?: string }
  | { msgType: '9'; ordStatus: OrdStatusCode; cxlRejResponseTo: CxlRejResponseToCode; cxlRejReason: CxlRejReasonCode; text: string };

export interface Applied {
  ok: true;
  state: OrderState;
  report: OutboundReport;
}

export type RefusalCode =
  | 'NOT_ALLOWED' // the event makes no sense in this status
  | 'TOO_LATE' // the order is done; nothing can change it
  | 'ALREADY_PENDING' // a cancel or replace is already waiting, or the order is not acknowledged yet
  | 'INVALID_QUANTITY'
  | 'INVALID_PRICE'
  | 'REASON_REQUIRED';

export interface Refused {
  ok: false;
  code: RefusalCode;
  /** Human text for the HTTP 409 body or the OrderCancelReject Text (58). */
  reason: string;
  /** For a client's cancel/replace request: CxlRejReason (102) of the OrderCancelReject to send. */
  cxlRejReason?: CxlRejReasonCode;
  ordStatus: OrdStatusCode;
}

export type ApplyResult = Applied | Refused;

// ───────────────────────────── construction ─────────────────────────────

export interface NewOrderTerms {
  side: SideCode;
  ordType: OrdTypeCode;
  orderQty: DecimalInput;
  price?: DecimalInput | null;
}

/** A freshly received order: Pending New, nothing executed. The first report to send is ExecType A / OrdStatus A. */
export function newOrderState(terms: NewOrderTerms): OrderState {
  const orderQty = Decimal.from(terms.orderQty);
  if (!orderQty.isPositive()) throw new RangeError(`Order quantity must be greater than 0, got ${orderQty.toString()}`);
  return {
    ordStatus: OrdStatus.PendingNew,
    side: terms.side,
    ordType: terms.ordType,
    orderQty,
    price: terms.ordType === OrdType.Limit && terms.price !== undefined && terms.price !== null ? Decimal.from(terms.price) : null,
    cumQty: Decimal.ZERO,
    leavesQty: orderQty,
    fillNotional: Decimal.ZERO,
    avgPx: Decimal.ZERO,
    lastQty: Decimal.ZERO,
    lastPx: Decimal.ZERO,
    pendingReplace: null,
    awaitingAcceptance: true,
  };
}

export const PENDING_NEW_REPORT: OutboundReport = { msgType: '8', execType: ExecType.PendingNew, ordStatus: OrdStatus.PendingNew };

/**
 * Whether the broker has yet to accept a stored order: Pending New, or a cancel or replace request that
 * came in before the broker accepted it (nothing filled, nobody accepted). Such an order takes no fill.
 */
export function isAwaitingAcceptance(order: { ordstatus: string; accepted_by: string | null; cumqty: DecimalInput }): boolean {
  if (order.ordstatus === OrdStatus.PendingNew) return true;
  return (
    (order.ordstatus === OrdStatus.PendingCancel || order.ordstatus === OrdStatus.PendingReplace) &&
    !order.accepted_by &&
    !Decimal.from(order.cumqty).isPositive()
  );
}

/**
 * The status an order has by its quantities alone, ignoring pending requests: what it returns to when a
 * cancel or replace is refused.
 */
export function workingStatus(state: Pick<OrderState, 'cumQty' | 'leavesQty' | 'awaitingAcceptance'>): OrdStatusCode {
  if (state.awaitingAcceptance) return OrdStatus.PendingNew;
  if (state.leavesQty.isZero() && state.cumQty.isPositive()) return OrdStatus.Filled;
  return state.cumQty.isPositive() ? OrdStatus.PartiallyFilled : OrdStatus.New;
}

// ───────────────────────────── applyEvent ─────────────────────────────

const EVENT_WORDING: Record<OrderEventType, string> = {
  accept: 'accept',
  reject: 'reject',
  fill: 'fill',
  legFill: 'fill a leg of',
  doneForDay: 'mark done for day',
  cancelRequest: 'cancel',
  cancelConfirm: 'confirm a cancel of',
  cancelRefuse: 'refuse a cancel of',
  replaceRequest: 'replace',
  replaceConfirm: 'confirm a replace of',
  replaceRefuse: 'refuse a replace of',
  brokerCancel: 'cancel',
  expire: 'expire',
};

function refuse(state: OrderState, code: RefusalCode, reason: string, cxlRejReason?: CxlRejReasonCode): Refused {
  return cxlRejReason === undefined
    ? { ok: false, code, reason, ordStatus: state.ordStatus }
    : { ok: false, code, reason, cxlRejReason, ordStatus: state.ordStatus };
}

/** Why an event is not in the table for this status, worded for the person or client who tried it. */
function notAllowed(state: OrderState, event: OrderEventType): Refused {
  const status = state.ordStatus;
  const label = ordStatusLabel(status);
  const isClientRequest = event === 'cancelRequest' || event === 'replaceRequest';
  if (isClientRequest) {
    if (status === OrdStatus.PendingCancel || status === OrdStatus.PendingReplace) {
      return refuse(
        state,
        'ALREADY_PENDING',
        `Order already has a ${label.toLowerCase()} request awaiting the broker`,
        CxlRejReason.AlreadyPending,
      );
    }
    return refuse(
      state,
      'TOO_LATE',
      `Too late to ${event === 'cancelRequest' ? 'cancel' : 'replace'}: order is ${label}`,
      CxlRejReason.TooLateToCancel,
    );
  }
  if ((event === 'fill' || event === 'legFill') && status === OrdStatus.PendingNew) {
    return refuse(state, 'NOT_ALLOWED', 'Order must be accepted before it can be filled');
  }
  if (event === 'fill' && status === OrdStatus.Filled) {
    return refuse(state, 'TOO_LATE', FillText.alreadyFullyFilled);
  }
  if (event === 'doneForDay' && status === OrdStatus.New) {
    return refuse(state, 'NOT_ALLOWED', 'Order has no fills: expire or cancel it instead of marking it done for day');
  }
  if (
    (event === 'doneForDay' || event === 'accept' || event === 'reject') &&
    (status === OrdStatus.PendingCancel || status === OrdStatus.PendingReplace)
  ) {
    return refuse(state, 'ALREADY_PENDING', `Order has a ${label.toLowerCase()} request: confirm or refuse it first`);
  }
  const code: RefusalCode = TERMINAL_ORD_STATUSES.includes(status) ? 'TOO_LATE' : 'NOT_ALLOWED';
  return refuse(state, code, `Cannot ${EVENT_WORDING[event]} an order that is ${label}`);
}

function toDecimal(value: DecimalInput | null | undefined): Decimal | null {
  return value === undefined || value === null ? null : Decimal.tryFrom(value);
}

/** Apply one event. Pure: the input state is never modified. */
export function applyEvent(state: OrderState, event: OrderEvent): ApplyResult {
  const transition = findTransition(state.ordStatus, event.type);
  if (!transition) return notAllowed(state, event.type);
  const clearedLast = { lastQty: Decimal.ZERO, lastPx: Decimal.ZERO };

  switch (event.type) {
    case 'accept':
      return applied({ ...state, ...clearedLast, ordStatus: OrdStatus.New, awaitingAcceptance: false }, transition, event.text);

    case 'reject': {
      const reason = typeof event.reason === 'string' ? event.reason.trim() : '';
      if (!reason) return refuse(state, 'REASON_REQUIRED', FillText.rejectReasonRequired);
      const next = { ...state, ...clearedLast, ordStatus: OrdStatus.Rejected, leavesQty: Decimal.ZERO };
      return {
        ok: true,
        state: next,
        report: {
          msgType: '8',
          execType: ExecType.Rejected,
          ordStatus: OrdStatus.Rejected,
          ordRejReason: event.ordRejReason ?? OrdRejReason.BrokerOption,
          text: reason,
        },
      };
    }

    case 'fill': {
      if (state.awaitingAcceptance) return refuse(state, 'NOT_ALLOWED', 'Order must be accepted before it can be filled');
      if (state.leavesQty.isZero()) return refuse(state, 'INVALID_QUANTITY', FillText.alreadyFullyFilled);
      const qtyCheck = checkFillQuantity(event.qty, { leavesQty: state.leavesQty, orderQty: state.orderQty });
      if (qtyCheck.level === 'error') return refuse(state, 'INVALID_QUANTITY', qtyCheck.message);
      const px = Decimal.tryFrom(event.px);
      if (!px) return refuse(state, 'INVALID_PRICE', FillText.priceRequired);
      const violation = limitViolation(px, { side: state.side, ordType: state.ordType, price: state.price });
      if (violation) return refuse(state, 'INVALID_PRICE', violation);
      const qty = Decimal.from(event.qty);
      const cumQty = state.cumQty.add(qty);
      const leavesQty = state.leavesQty.sub(qty);
      const fillNotional = state.fillNotional.add(qty.mul(px));
      const filled = { ...state, cumQty, leavesQty, fillNotional, avgPx: fillNotional.div(cumQty, AVG_PX_SCALE), lastQty: qty, lastPx: px };
      const ordStatus = transition.to === 'keep' ? state.ordStatus : workingStatus(filled);
      return applied({ ...filled, ordStatus }, transition);
    }

    case 'legFill': {
      if (state.awaitingAcceptance) return refuse(state, 'NOT_ALLOWED', 'Order must be accepted before it can be filled');
      const cumQty = Decimal.tryFrom(event.cumQty);
      if (!cumQty || cumQty.lt(state.cumQty) || cumQty.gt(state.orderQty)) {
        return refuse(
          state,
          'INVALID_QUANTITY',
          `The legs' executed strategy quantity must lie between ${state.cumQty.toString()} and ${state.orderQty.toString()}`,
        );
      }
      const lastQty = Decimal.tryFrom(event.lastQty);
      const lastPx = Decimal.tryFrom(event.lastPx);
      const avgPx = Decimal.tryFrom(event.avgPx);
      if (!lastQty || !lastQty.isPositive()) return refuse(state, 'INVALID_QUANTITY', 'Fill quantity must be greater than 0');
      if (!lastPx || !avgPx) return refuse(state, 'INVALID_PRICE', FillText.priceRequired);
      // The strategy's notional is not the sum of leg notionals: avgPx is the legs' implied price.
      const filled = { ...state, cumQty, leavesQty: state.orderQty.sub(cumQty), avgPx, lastQty, lastPx };
      const ordStatus = transition.to === 'keep' ? state.ordStatus : workingStatus(filled);
      return applied({ ...filled, ordStatus }, transition);
    }

    case 'doneForDay':
      return applied({ ...state, ...clearedLast, ordStatus: OrdStatus.DoneForDay, leavesQty: Decimal.ZERO }, transition);

    case 'cancelRequest':
      return applied({ ...state, ...clearedLast, ordStatus: OrdStatus.PendingCancel }, transition);

    case 'cancelConfirm':
      if (state.leavesQty.isZero())
        return refuse(state, 'TOO_LATE', 'Too late to cancel: order is fully filled', CxlRejReason.TooLateToCancel);
      return applied({ ...state, ...clearedLast, ordStatus: OrdStatus.Canceled, leavesQty: Decimal.ZERO }, transition);

    case 'cancelRefuse':
    case 'replaceRefuse': {
      const reason = typeof event.reason === 'string' ? event.reason.trim() : '';
      if (!reason) return refuse(state, 'REASON_REQUIRED', 'A reason is required to refuse the request');
      const ordStatus = workingStatus(state);
      return {
        ok: true,
        state: { ...state, ...clearedLast, ordStatus, pendingReplace: null },
        report: {
          msgType: '9',
          ordStatus,
          cxlRejResponseTo: event.type === 'cancelRefuse' ? CxlRejResponseTo.CancelRequest : CxlRejResponseTo.CancelReplaceRequest,
          cxlRejReason: CxlRejReason.BrokerOption,
          text: reason,
        },
      };
    }

    case 'replaceRequest': {
      const amendment = checkReplaceTerms(state, event);
      if ('code' in amendment) return refuse(state, amendment.code, amendment.reason, CxlRejReason.BrokerOption);
      return applied({ ...state, ...clearedLast, ordStatus: OrdStatus.PendingReplace, pendingReplace: amendment }, transition);
    }

    case 'replaceConfirm': {
      const amendment = state.pendingReplace;
      if (!amendment) return refuse(state, 'NOT_ALLOWED', 'No replace request is pending for this order');
      if (amendment.orderQty.lt(state.cumQty)) {
        return refuse(state, 'TOO_LATE', replaceBelowExecutedText(amendment.orderQty, state.cumQty), CxlRejReason.TooLateToCancel);
      }
      const replaced = {
        ...state,
        ...clearedLast,
        orderQty: amendment.orderQty,
        price: amendment.price,
        ordType: amendment.ordType,
        leavesQty: amendment.orderQty.sub(state.cumQty),
        pendingReplace: null,
      };
      return applied({ ...replaced, ordStatus: workingStatus(replaced) }, transition);
    }

    case 'brokerCancel':
      if (state.leavesQty.isZero()) return refuse(state, 'TOO_LATE', 'Too late to cancel: order is fully filled');
      return applied(
        { ...state, ...clearedLast, ordStatus: OrdStatus.Canceled, leavesQty: Decimal.ZERO, pendingReplace: null },
        transition,
        event.reason,
      );

    case 'expire':
      if (state.leavesQty.isZero()) return refuse(state, 'TOO_LATE', 'Order is fully filled: nothing left to expire');
      return applied({ ...state, ...clearedLast, ordStatus: OrdStatus.Expired, leavesQty: Decimal.ZERO, pendingReplace: null }, transition);
  }
}

function applied(state: OrderState, transition: Transition, text?: string): Applied {
  // Every transition that reaches here sends an ExecutionReport; the two OrderCancelReject rows return earlier.
  const execType = transition.execType as ExecTypeCode;
  const trimmed = text?.trim();
  return {
    ok: true,
    state,
    report: trimmed
      ? { msgType: '8', execType, ordStatus: state.ordStatus, text: trimmed }
      : { msgType: '8', execType, ordStatus: state.ordStatus },
  };
}

function replaceBelowExecutedText(newQty: Decimal, cumQty: Decimal): string {
  return `New order quantity ${newQty.toString()} is below the executed quantity ${cumQty.toString()}`;
}

/** The terms of a cancel/replace request, checked against what has already executed. */
function checkReplaceTerms(
  state: OrderState,
  event: Extract<OrderEvent, { type: 'replaceRequest' }>,
): PendingReplace | { code: RefusalCode; reason: string } {
  const orderQty = toDecimal(event.orderQty);
  if (!orderQty || !orderQty.isPositive()) return { code: 'INVALID_QUANTITY', reason: 'New order quantity must be greater than 0' };
  if (!orderQty.isInteger())
    return { code: 'INVALID_QUANTITY', reason: `New order quantity ${orderQty.toString()} must be a whole number of lots` };
  if (orderQty.lt(state.cumQty)) return { code: 'INVALID_QUANTITY', reason: replaceBelowExecutedText(orderQty, state.cumQty) };
  const ordType = event.ordType ?? state.ordType;
  if (ordType === OrdType.Market) {
    if (event.price !== undefined && event.price !== null) return { code: 'INVALID_PRICE', reason: 'Market orders carry no price' };
    return { orderQty, price: null, ordType };
  }
  const price = event.price === undefined || event.price === null ? state.price : toDecimal(event.price);
  if (!price) return { code: 'INVALID_PRICE', reason: 'Limit orders require a price' };
  return { orderQty, price, ordType };
}
