/**
 * The order lifecycle's table: every (status, event) move an order may make, where it lands and the
 * ExecType of the report it sends. Anything not listed is refused. `applyEvent` in order-state.ts
 * looks a move up here and checks the event's own conditions.
 */
import type { DecimalInput } from './decimal';
import type { ExecTypeCode, OrdRejReasonCode, OrdStatusCode, OrdTypeCode } from './codes';

/** Statuses in which the order is still working (can trade or is waiting for the broker). */
export const OPEN_ORD_STATUSES: readonly OrdStatusCode[] = ['A', '0', '1', '6', 'E'];
/** Statuses after which nothing more happens to the order. */
export const TERMINAL_ORD_STATUSES: readonly OrdStatusCode[] = ['2', '3', '4', '5', '8', 'C'];

// ───────────────────────────── events ─────────────────────────────

export type OrderEvent =
  /** text: the broker's message to the client, sent as Text (58) on the New report. */
  | { type: 'accept'; text?: string }
  | { type: 'reject'; reason: string; ordRejReason?: OrdRejReasonCode }
  | { type: 'fill'; qty: DecimalInput; px: DecimalInput }
  /**
   * A fill on one leg of a multileg order. The strategy's executed quantity is the number of whole
   * strategy units its legs complete (completedStrategyUnits) and its average price the price those
   * legs imply (impliedStrategyPrice); lastQty/lastPx are the leg fill's own.
   */
  | { type: 'legFill'; cumQty: DecimalInput; avgPx: DecimalInput; lastQty: DecimalInput; lastPx: DecimalInput }
  | { type: 'doneForDay' }
  | { type: 'cancelRequest' }
  | { type: 'cancelConfirm' }
  | { type: 'cancelRefuse'; reason: string }
  | { type: 'replaceRequest'; orderQty: DecimalInput; price?: DecimalInput | null; ordType?: OrdTypeCode }
  | { type: 'replaceConfirm' }
  | { type: 'replaceRefuse'; reason: string }
  | { type: 'brokerCancel'; reason?: string }
  | { type: 'expire' };

export type OrderEventType = OrderEvent['type'];
export const ORDER_EVENT_TYPES: readonly OrderEventType[] = [
  'accept',
  'reject',
  'fill',
  'legFill',
  'doneForDay',
  'cancelRequest',
  'cancelConfirm',
  'cancelRefuse',
  'replaceRequest',
  'replaceConfirm',
  'replaceRefuse',
  'brokerCancel',
  'expire',
];

// ───────────────────────────── the table ─────────────────────────────

/**
 * Where a transition lands. Most go to a fixed status; four are computed:
 * byFill → 1 or 2 by leaves; keep → stays (a fill during a pending request);
 * working → back to 0/1/2 by quantities; byReplace → 0/1/2 with the amended quantity.
 */
export type TransitionTarget = OrdStatusCode | 'byFill' | 'keep' | 'working' | 'byReplace';

export interface Transition {
  from: OrdStatusCode;
  event: OrderEventType;
  to: TransitionTarget;
  /** The ExecType of the ExecutionReport to send; null means the answer is an OrderCancelReject (35=9). */
  execType: ExecTypeCode | null;
}

const t = (from: OrdStatusCode, event: OrderEventType, to: TransitionTarget, execType: ExecTypeCode | null): Transition => ({
  from,
  event,
  to,
  execType,
});

/** Every allowed move. Anything not listed is refused. */
export const ORDER_TRANSITIONS: readonly Transition[] = [
  // from event              to           ExecType
  t('A', 'accept', '0', '0'),
  t('A', 'reject', '8', '8'),
  t('A', 'cancelRequest', '6', '6'), // the client changed its mind before the broker accepted
  t('A', 'replaceRequest', 'E', 'E'),
  t('0', 'fill', 'byFill', 'F'),
  t('1', 'fill', 'byFill', 'F'),
  t('6', 'fill', 'keep', 'F'),
  t('E', 'fill', 'keep', 'F'),
  t('0', 'legFill', 'byFill', 'F'),
  t('1', 'legFill', 'byFill', 'F'),
  t('6', 'legFill', 'keep', 'F'),
  t('E', 'legFill', 'keep', 'F'),
  t('1', 'doneForDay', '3', '3'), // the unfilled rest expires: leaves 0
  t('2', 'doneForDay', '3', '3'),
  t('0', 'cancelRequest', '6', '6'),
  t('1', 'cancelRequest', '6', '6'),
  t('6', 'cancelConfirm', '4', '4'),
  t('6', 'cancelRefuse', 'working', null),
  t('0', 'replaceRequest', 'E', 'E'),
  t('1', 'replaceRequest', 'E', 'E'),
  t('E', 'replaceConfirm', 'byReplace', '5'),
  t('E', 'replaceRefuse', 'working', null),
  t('A', 'brokerCancel', '4', '4'),
  t('0', 'brokerCancel', '4', '4'),
  t('1', 'brokerCancel', '4', '4'),
  t('6', 'brokerCancel', '4', '4'),
  t('E', 'brokerCancel', '4', '4'),
  t('A', 'expire', 'C', 'C'),
  t('0', 'expire', 'C', 'C'),
  t('1', 'expire', 'C', 'C'),
  t('6', 'expire', 'C', 'C'),
  t('E', 'expire', 'C', 'C'),
];

export function findTransition(from: OrdStatusCode, event: OrderEventType): Transition | undefined {
  return ORDER_TRANSITIONS.find((tr) => tr.from === from && tr.event === event);
}

/** The events a user may trigger on an order in this status (drives which buttons a screen offers). */
export function allowedEvents(status: OrdStatusCode): OrderEventType[] {
  return ORDER_TRANSITIONS.filter((tr) => tr.from === status).map((tr) => tr.event);
}
