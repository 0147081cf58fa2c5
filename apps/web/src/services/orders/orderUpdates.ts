/**
 * How live messages change the cached orders (spec 000 §4 "Live updates"). Pure functions, tested
 * beside this file; the order book applies them.
 */
import { OrdStatus, toDate } from '@fixdesk/domain';
import type { ExecutionReport, Order } from '@fixdesk/protocol';

function time(value: string | null | undefined): number {
  return toDate(value)?.getTime() ?? Number.NEGATIVE_INFINITY;
}

/**
 * True when `incoming` (a full order from new_order / order_update / an action answer) is at least as
 * new as `cached`. Our server sends the full order, so replacing by id is right, as long as an older
 * copy (replayed from the queue after a newer snapshot) never replaces a newer one.
 */
export function isAtLeastAsNew(incoming: Order, cached: Order | undefined): boolean {
  if (!cached) return true;
  return time(incoming.updated_at) >= time(cached.updated_at);
}

const FILL_STATUSES: readonly string[] = [OrdStatus.PartiallyFilled, OrdStatus.Filled];
const TEXT_STATUSES: readonly string[] = [OrdStatus.Canceled, OrdStatus.Rejected];

/**
 * An execution report applied to its cached order (spec 000 §4): status and time always; fill
 * quantities, prices, cumqty, avgpx and leavesqty only when the new status is 1 or 2; text only for 4
 * or 8, as reportText (the order's own text stays the client's instructions). Id, price, quantity, symbol, side and identifiers are never overwritten; a move from A to 0
 * copies no fill data. Returns the same object when nothing applies (a report older than the order).
 */
export function applyExecutionReport(order: Order, report: ExecutionReport): Order {
  if (!report.ordstatus) return order;
  // A report older than what the cached order already shows (replayed after a newer snapshot) is history, not news.
  if (time(report.timestamp) < time(order.updated_at)) return order;
  const next: Order = { ...order, ordstatus: report.ordstatus, transacttime: report.transacttime ?? order.transacttime };
  if (FILL_STATUSES.includes(report.ordstatus)) {
    next.lastqty = report.lastqty;
    next.lastpx = report.lastpx;
    next.cumqty = report.cumqty;
    next.avgpx = report.avgpx;
    next.leavesqty = report.leavesqty;
  }
  // The report's text (a reject reason, why it was canceled) is the broker's or the desk's words, not the
  // client's instructions: it goes beside the order's own text, never over it.
  if (TEXT_STATUSES.includes(report.ordstatus) && report.text !== null) next.reportText = report.text;
  return next;
}

/** Merges execution reports by id (a live one may also be in a fetched list), sorted by id ascending. */
export function mergeExecutionReports(existing: readonly ExecutionReport[], incoming: readonly ExecutionReport[]): ExecutionReport[] {
  const byId = new Map<number, ExecutionReport>();
  for (const er of existing) byId.set(er.id, er);
  for (const er of incoming) byId.set(er.id, er);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The order fields an action answer may change. The answer lacks legs, parties, names and requests. */
const ACTION_FIELDS = [
  'ordstatus',
  'cumqty',
  'leavesqty',
  'avgpx',
  'lastqty',
  'lastpx',
  'transacttime',
  'accepted_by',
  'updated_at',
  'orderqty',
  'order_qty',
  'price',
  'ordtype',
  'clordid',
  'origclordid',
] as const satisfies readonly (keyof Order)[];

/** Patches the cached order with an action answer's state, unless the cache already holds something newer. */
export function applyActionAnswer(cached: Order, answer: Order): Order {
  if (!isAtLeastAsNew(answer, cached)) return cached;
  const next = { ...cached } as Record<string, unknown>;
  for (const field of ACTION_FIELDS) next[field] = answer[field];
  return next as unknown as Order;
}
