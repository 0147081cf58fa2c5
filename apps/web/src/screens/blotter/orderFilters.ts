import { OrdStatus } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';

/** The broker's filters of the Orders grid: hide refused orders, working orders only, a quick text. */
export interface OrderFilters {
  hideRefused: boolean;
  workingOnly: boolean;
  /** Lower-case text that the client, symbol or an id must contain ('' = none). */
  text: string;
}

export const WORKING_STATUSES: ReadonlySet<string> = new Set([OrdStatus.PendingNew, OrdStatus.New, OrdStatus.PartiallyFilled, OrdStatus.PendingCancel, OrdStatus.PendingReplace]);

/** Whether an order passes the filters (pure: unit-tested). */
export function passesOrderFilters(o: Order, f: OrderFilters): boolean {
  if (f.hideRefused && o.refusal) return false;
  if (f.workingOnly && (o.refusal || !WORKING_STATUSES.has(o.ordstatus))) return false;
  if (f.text) {
    const hay = `${o.id} ${o.brokerorderid} ${o.clordid} ${o.symbol} ${o.client_name ?? ''} ${o.sendercompid}`.toLowerCase();
    if (!hay.includes(f.text)) return false;
  }
  return true;
}

