import { actionClientName, fillPriceOf, fillQtyOf, hasActionData, sideLabel } from '@fixdesk/client';
import { formatPrice, formatQuantity, truncateText } from '@fixdesk/domain';
import type { OrderAction } from '@fixdesk/protocol';
import { formatLocalTime } from '../../components/time/localTime';
import type { BlotterColumn } from '../../components/grid/columns';

/**
 * The Order Actions table (spec 000 §2): times in the user's zone, notes cut at 30 characters, Action
 * Data as a View JSON button. Its export is the server's streamed file (ORDER_ACTION_CSV_FIELDS in
 * @fixdesk/client, the same columns in the same order: a test keeps them in step), which keeps times
 * in UTC, notes whole and the action data as JSON.
 */
export type AuditColumn<T> = BlotterColumn<T>;

const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));

export { actionClientName as clientName, hasActionData, sideLabel };

/** Action types in words: PARTIAL_FILL → PARTIAL FILL. */
export const actionTypeLabel = (t: string) => t.replaceAll('_', ' ');

/**
 * Fifteen columns do not fit a 1280 px window: the text columns (client, broker order id, symbol, notes)
 * share what is left down to their minimum, cut with the full text in a tooltip, and then the record's ID
 * and the Client Order ID give way (hidden; the filter and the export still have them): the Broker
 * Order ID names the order, and who did what, when, at what quantity and price stays in view.
 */
export function orderActionColumns(timeZone: string): AuditColumn<OrderAction>[] {
  const tip = (get: (a: OrderAction) => string | null | undefined) => ({
    tooltipValueGetter: (p: { data?: OrderAction }) => (p.data ? (get(p.data) ?? '') : ''),
  });
  return [
    { id: 'id', header: 'ID', value: (a) => a.id, width: 60, numeric: true, giveWay: 1 },
    {
      id: 'timestamp',
      header: 'Timestamp',
      value: (a) => a.timestamp ?? a.created_at,
      format: (a) => formatLocalTime(a.timestamp ?? a.created_at, timeZone),
      width: 188,
    },
    { id: 'client', header: 'Client', value: (a) => actionClientName(a), width: 146, grid: { flex: 1.2, minWidth: 110 } },
    {
      id: 'brokerorderid',
      header: 'Broker Order ID',
      value: (a) => a.brokerorderid,
      width: 110,
      grid: { flex: 1, minWidth: 100, ...tip((a) => a.brokerorderid) },
    },
    { id: 'clordid', header: 'Client Order ID', value: (a) => a.clordid, width: 112, giveWay: 2, grid: tip((a) => a.clordid) },
    { id: 'symbol', header: 'Symbol', value: (a) => a.symbol, width: 108, grid: { flex: 1, minWidth: 90, ...tip((a) => a.symbol) } },
    { id: 'side', header: 'Side', value: (a) => a.side, format: (a) => sideLabel(a.side), width: 56 },
    {
      id: 'orderqty',
      header: 'Order Qty',
      value: (a) => num(a.orderqty),
      format: (a) => formatQuantity(a.orderqty),
      width: 74,
      numeric: true,
    },
    { id: 'price', header: 'Order Price', value: (a) => num(a.price), format: (a) => formatPrice(a.price), width: 84, numeric: true },
    { id: 'action_type', header: 'Action Type', value: (a) => a.action_type, format: (a) => actionTypeLabel(a.action_type), width: 106 },
    { id: 'user_id', header: 'User ID', value: (a) => a.user_id, width: 74, grid: tip((a) => a.user_id) },
    {
      id: 'fillqty',
      header: 'Fill Qty',
      value: (a) => num(fillQtyOf(a)),
      format: (a) => (fillQtyOf(a) ? formatQuantity(fillQtyOf(a)) : ''),
      width: 66,
      numeric: true,
    },
    {
      id: 'fillprice',
      header: 'Fill Price',
      value: (a) => num(fillPriceOf(a)),
      format: (a) => (fillPriceOf(a) ? formatPrice(fillPriceOf(a)) : ''),
      width: 80,
      numeric: true,
    },
    {
      id: 'notes',
      header: 'Notes',
      value: (a) => a.notes,
      format: (a) => truncateText(a.notes),
      width: 170,
      grid: { flex: 1.5, minWidth: 90 },
    },
    {
      id: 'action_data',
      header: 'Action Data',
      value: (a) => (hasActionData(a) ? 1 : 0),
      format: () => '',
      width: 86,
      grid: { sortable: false },
    },
  ];
}

/**
 * The filter (spec 000 §2): a case-insensitive match on the id fields (record id, order id, broker and
 * client order ids, the client's comp id), symbol, action type, user id, notes and the side as Buy/Sell.
 */
export function matchesOrderAction(a: OrderAction, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [
    a.id,
    a.order_id,
    a.brokerorderid,
    a.clordid,
    a.sendercompid,
    a.symbol,
    a.action_type,
    actionTypeLabel(a.action_type),
    a.user_id,
    a.notes,
    sideLabel(a.side),
  ];
  return haystack.some((v) => v !== null && v !== undefined && String(v).toLowerCase().includes(needle));
}
