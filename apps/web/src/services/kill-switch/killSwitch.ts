import type { ClientTradingStop, Order, WsClientTradingStatus } from '@fixdesk/protocol';
import { KillSwitchText } from '@fixdesk/protocol';
import { formatLocalSeconds } from '../../components/time/localTime';

/**
 * The kill switch's pure parts, shared by the blotter, Client Connectors and Service Status: the live
 * `client_trading_status` applied to a list, the texts, the working orders a stop cancels.
 */

/** Rows keyed by comp id with the stop applied (the same array when nothing changes: no re-render). */
export function applyTradingStatus<T extends { comp_id: string; trading_stop: ClientTradingStop | null }>(
  rows: readonly T[],
  m: Pick<WsClientTradingStatus, 'comp_id' | 'trading_stop'>,
): T[] | readonly T[] {
  const i = rows.findIndex((r) => r.comp_id === m.comp_id);
  if (i < 0 || sameStop(rows[i]!.trading_stop, m.trading_stop)) return rows;
  const next = rows.slice();
  next[i] = { ...rows[i]!, trading_stop: m.trading_stop };
  return next;
}

export function sameStop(a: ClientTradingStop | null | undefined, b: ClientTradingStop | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.stopped_at === b.stopped_at && a.stopped_by === b.stopped_by && a.reason === b.reason;
}

/** When the stop was made, to the second in the user's zone ('2026-11-28 12:40:01 UTC'). */
function stopTime(stop: ClientTradingStop, timeZone: string): string {
  return formatLocalSeconds(stop.stopped_at, timeZone);
}

/** The time of day alone when the stop was made today (in the zone), else the date too: the strip keeps room for the reason. */
function stopTimeShort(stop: ClientTradingStop, timeZone: string, now: Date = new Date()): string {
  const at = stopTime(stop, timeZone);
  const today = formatLocalSeconds(now.toISOString(), timeZone);
  return at.slice(0, 10) === today.slice(0, 10) ? at.slice(11) : at;
}

/** The blotter's strip: '{client} stopped by {who} at {when}: {why}' ({when} the time alone when it is today). */
export function stoppedBannerText(compId: string, stop: ClientTradingStop, timeZone: string, now: Date = new Date()): string {
  return KillSwitchText.stoppedBanner(compId, stop.stopped_by || 'the desk', stopTimeShort(stop, timeZone, now), stop.reason);
}

/** The tooltip of a "Stopped" cell: who, when, why. */
export function stoppedTooltip(stop: ClientTradingStop, timeZone: string): string {
  return `Stopped by ${stop.stopped_by || 'the desk'} at ${stopTime(stop, timeZone)}: ${stop.reason}. New orders are refused until a broker resumes the client.`;
}

/** The statuses a stop cancels (the server's working orders: Pending New, New, Partially Filled, Pending Cancel, Pending Replace). */
const WORKING = new Set(['A', '0', '1', '6', 'E']);

/** How many working orders of the client the book holds (refused-at-intake records are not orders). */
export function countWorkingOrders(orders: Iterable<Pick<Order, 'sendercompid' | 'ordstatus' | 'refusal'>>, compId: string): number {
  let n = 0;
  for (const o of orders) if (o.sendercompid === compId && !o.refusal && WORKING.has(o.ordstatus)) n++;
  return n;
}
