// The words for order statuses, ExecTypes and OrdRejReasons on every screen and in texts: the broker's
// blotter, the client's, the audit screens. The lifecycle itself is order-state.ts.
import { Decimal, type DecimalInput } from './decimal';
import { OrdStatus, type ExecTypeCode, type OrdStatusCode } from './codes';
import { formatFilledProgress } from './format';

/** Full status names (spec 000 §4), used in the blotter's details, audit screens and texts. */
export const ORD_STATUS_LABELS: Record<OrdStatusCode, string> = {
  A: 'Pending',
  '0': 'Accepted',
  '1': 'Partially Filled',
  '2': 'Filled',
  '3': 'Done for Day',
  '4': 'Canceled',
  '5': 'Replaced',
  '6': 'Pending Cancel',
  '8': 'Rejected',
  C: 'Expired',
  E: 'Pending Replace',
};

/** The broker blotter's status cell (spec 000 §2): short words; pending orders show an Accept button instead. */
export const BLOTTER_STATUS_LABELS: Record<OrdStatusCode, string> = {
  A: 'Pending',
  '0': 'Accepted',
  '1': 'Partial',
  '2': 'Filled',
  '3': 'Done',
  '4': 'Canceled',
  '5': 'Replaced',
  '6': 'Pending Cancel',
  '8': 'Rejected',
  C: 'Expired',
  E: 'Pending Replace',
};

/** Shown for an order whose status is still empty (received, nothing sent back yet). */
const ORDER_RECEIVED_LABEL = 'Order Received';

/** Full status label for any value seen on the wire or in a row; 'F' is a legacy Done for Day. */
export function ordStatusLabel(code: string | null | undefined): string {
  if (code === null || code === undefined || code === '') return ORDER_RECEIVED_LABEL;
  if (code === 'F') return ORD_STATUS_LABELS['3'];
  return (ORD_STATUS_LABELS as Record<string, string>)[code] ?? code;
}

export function blotterStatusLabel(code: string | null | undefined): string {
  if (code === null || code === undefined || code === '') return ORDER_RECEIVED_LABEL;
  if (code === 'F') return BLOTTER_STATUS_LABELS['3'];
  return (BLOTTER_STATUS_LABELS as Record<string, string>)[code] ?? code;
}

/**
 * What a closed order had been filled before it ended ('filled 20/20' on a Done for Day, 'filled
 * 5/20' on a canceled order), so that a done order does not hide that it was filled. Null while the
 * order is open or when nothing was filled.
 */
export function closedFillNote(
  code: string | null | undefined,
  cumQty: DecimalInput | null | undefined,
  orderQty: DecimalInput | null | undefined,
): string | null {
  if (code !== OrdStatus.DoneForDay && code !== 'F' && code !== OrdStatus.Canceled && code !== OrdStatus.Expired) return null;
  const cum = Decimal.tryFrom(cumQty);
  if (!cum || !cum.isPositive()) return null;
  return `filled ${formatFilledProgress(cumQty, orderQty)}`;
}

/** A status with what a closed order had been filled: 'Done for Day (filled 20/20)'. */
export function ordStatusWithFills(
  code: string | null | undefined,
  cumQty: DecimalInput | null | undefined,
  orderQty: DecimalInput | null | undefined,
): string {
  const note = closedFillNote(code, cumQty, orderQty);
  return note ? `${ordStatusLabel(code)} (${note})` : ordStatusLabel(code);
}

/** The client's FIX Client blotter (spec 001 §4): its own wording; unknown shows raw, absent shows 'Sent'. */
const CLIENT_ORD_STATUS_LABELS: Partial<Record<OrdStatusCode, string>> = {
  '0': 'Accepted',
  '1': 'Partial Fill',
  '2': 'Filled',
  '3': 'Done for Day',
  '4': 'Canceled',
  '6': 'Pending Cancel',
  '8': 'Rejected',
  A: 'Pending',
  C: 'Expired',
  E: 'Pending Replace',
};
const CLIENT_STATUS_SENT_LABEL = 'Sent';

export function clientOrdStatusLabel(code: string | null | undefined): string {
  if (code === null || code === undefined || code === '') return CLIENT_STATUS_SENT_LABEL;
  return (CLIENT_ORD_STATUS_LABELS as Record<string, string>)[code] ?? code;
}

/** ExecType labels (spec 001 §4, completed with the other FIX 4.4 values). */
export const EXEC_TYPE_LABELS: Record<ExecTypeCode, string> = {
  '0': 'Accepted',
  '1': 'Partial Fill',
  '2': 'Fill',
  '3': 'Done for Day',
  '4': 'Canceled',
  '5': 'Replaced',
  '6': 'Pending Cancel',
  '8': 'Rejected',
  A: 'Pending',
  C: 'Expired',
  D: 'Restated',
  E: 'Pending Replace',
  F: 'Trade',
  G: 'Trade Correct',
  H: 'Trade Cancel',
  I: 'Order Status',
};

export function execTypeLabel(code: string | null | undefined): string {
  if (code === null || code === undefined) return '';
  return (EXEC_TYPE_LABELS as Record<string, string>)[code] ?? code;
}

/** OrdRejReason (103) as FIX 4.4 names its values. */
export const ORD_REJ_REASON_LABELS: Readonly<Record<string, string>> = {
  '0': 'Broker / Exchange option',
  '1': 'Unknown symbol',
  '2': 'Exchange closed',
  '3': 'Order exceeds limit',
  '4': 'Too late to enter',
  '5': 'Unknown order',
  '6': 'Duplicate order',
  '7': 'Duplicate of a verbally communicated order',
  '8': 'Stale order',
  '9': 'Trade along required',
  '10': 'Invalid Investor ID',
  '11': 'Unsupported order characteristic',
  '12': 'Surveillance option',
  '13': 'Incorrect quantity',
  '14': 'Incorrect allocated quantity',
  '15': 'Unknown account(s)',
  '99': 'Other',
};

/** 'Unknown symbol (1)'; the code alone when FIX 4.4 does not name it; '' for none. */
export function ordRejReasonLabel(code: string | number | null | undefined): string {
  if (code === null || code === undefined || code === '') return '';
  const name = ORD_REJ_REASON_LABELS[String(code)];
  return name ? `${name} (${code})` : String(code);
}
