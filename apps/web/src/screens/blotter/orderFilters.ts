import { OrdStatus } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';

/** The broker's filters of the Orders grid: hide refused orders, working orders only, clients, statuses, a quick text. */
export interface OrderFilters {
  hideRefused: boolean;
  workingOnly: boolean;
  /** Lower-case text that the client, symbol or an id must contain ('' = none). */
  text: string;
  /** Sender comp ids to keep (empty = every client). */
  clients: readonly string[];
  /** OrdStatus codes to keep (empty = every status); 'F' counts as Done for Day (3). */
  statuses: readonly string[];
}

export const NO_ORDER_FILTERS: OrderFilters = { hideRefused: false, workingOnly: false, text: '', clients: [], statuses: [] };

const WORKING_STATUSES: ReadonlySet<string> = new Set([
  OrdStatus.PendingNew,
  OrdStatus.New,
  OrdStatus.PartiallyFilled,
  OrdStatus.PendingCancel,
  OrdStatus.PendingReplace,
]);

/** The statuses the status filter offers, in the order of an order's life. */
export const FILTER_STATUSES = [
  OrdStatus.PendingNew,
  OrdStatus.New,
  OrdStatus.PartiallyFilled,
  OrdStatus.Filled,
  OrdStatus.DoneForDay,
  OrdStatus.PendingCancel,
  OrdStatus.PendingReplace,
  OrdStatus.Canceled,
  OrdStatus.Rejected,
  OrdStatus.Expired,
] as const;

/** Whether any filter narrows the rows. */
export function anyOrderFilter(f: OrderFilters): boolean {
  return f.hideRefused || f.workingOnly || f.text !== '' || f.clients.length > 0 || f.statuses.length > 0;
}

/** Whether an update to an order can change whether it passes (a status moves; the rest never changes). */
export function filtersFollowUpdates(f: OrderFilters): boolean {
  return f.workingOnly || f.statuses.length > 0 || f.text !== '';
}

export function sameOrderFilters(a: OrderFilters, b: OrderFilters): boolean {
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    a.hideRefused === b.hideRefused &&
    a.workingOnly === b.workingOnly &&
    a.text === b.text &&
    same(a.clients, b.clients) &&
    same(a.statuses, b.statuses)
  );
}

/** Whether an order passes the filters (pure: unit-tested). */
export function passesOrderFilters(o: Order, f: OrderFilters): boolean {
  if (f.hideRefused && o.refusal) return false;
  if (f.workingOnly && (o.refusal || !WORKING_STATUSES.has(o.ordstatus))) return false;
  if (f.clients.length > 0 && !f.clients.includes(o.sendercompid)) return false;
  if (f.statuses.length > 0 && !f.statuses.includes(o.ordstatus === 'F' ? OrdStatus.DoneForDay : o.ordstatus)) return false;
  if (f.text) {
    const hay = `${o.id} ${o.brokerorderid} ${o.clordid} ${o.symbol} ${o.client_name ?? ''} ${o.sendercompid}`.toLowerCase();
    if (!hay.includes(f.text)) return false;
  }
  return true;
}
