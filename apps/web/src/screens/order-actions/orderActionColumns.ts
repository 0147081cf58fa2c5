import { formatPrice, formatQuantity, SIDE_LABELS, truncateText, type SideCode } from '@fixdesk/domain';
import type { OrderAction } from '@fixdesk/protocol';
import type { CsvExtras } from '../../components/export/csv';
import { formatLocalTime } from '../../components/time/localTime';
import type { BlotterColumn } from '../blotter/columns';

/**
 * The Order Actions table (spec 000 §2), declared once for the grid and the CSV export: the grid
 * shows times in the user's zone, the file ISO 8601 UTC; the grid cuts notes at 30 characters, the
 * file keeps them whole; Action Data is a View JSON button on screen and the JSON text in the file.
 */
export type AuditColumn<T> = BlotterColumn<T> & CsvExtras<T>;

const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));

export function sideLabel(side: string | null | undefined): string {
  if (!side) return '';
  return SIDE_LABELS[side as SideCode] ?? side;
}

/** The client's firm as named: company name, else the client's name, else its comp id. */
export function clientName(a: OrderAction): string {
  return a.company_name ?? a.client_name ?? a.sendercompid ?? '';
}

function dataValue(a: OrderAction, ...keys: string[]): string | null {
  for (const key of keys) {
    const v = a.action_data?.[key];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return null;
}

/** Fill quantity: the record's own, else what its action data carried (fillQty or fillQuantity). */
export const fillQtyOf = (a: OrderAction) => a.fillQty ?? dataValue(a, 'fillQty', 'fillQuantity');
export const fillPriceOf = (a: OrderAction) => a.fillPrice ?? dataValue(a, 'fillPrice');

export function hasActionData(a: OrderAction): boolean {
  return a.action_data !== null && typeof a.action_data === 'object' && Object.keys(a.action_data).length > 0;
}

/** Action types in words: PARTIAL_FILL → PARTIAL FILL. */
export const actionTypeLabel = (t: string) => t.replaceAll('_', ' ');

export function orderActionColumns(timeZone: string): AuditColumn<OrderAction>[] {
  return [
    { id: 'id', header: 'ID', value: (a) => a.id, width: 64, numeric: true },
    {
      id: 'timestamp',
      header: 'Timestamp',
      value: (a) => a.timestamp ?? a.created_at,
      format: (a) => formatLocalTime(a.timestamp ?? a.created_at, timeZone),
      csv: (a) => a.timestamp ?? a.created_at,
      csvHeader: 'Timestamp (UTC)',
      width: 194,
    },
    { id: 'client', header: 'Client', value: (a) => clientName(a), csv: (a) => [clientName(a), a.sendercompid && a.sendercompid !== clientName(a) ? `(${a.sendercompid})` : ''].filter(Boolean).join(' '), width: 146 },
    { id: 'brokerorderid', header: 'Broker Order ID', value: (a) => a.brokerorderid, width: 110 },
    { id: 'clordid', header: 'Client Order ID', value: (a) => a.clordid, width: 112 },
    { id: 'symbol', header: 'Symbol', value: (a) => a.symbol, width: 108, grid: { tooltipValueGetter: (p) => p.data?.symbol ?? '' } },
    { id: 'side', header: 'Side', value: (a) => a.side, format: (a) => sideLabel(a.side), width: 60 },
    { id: 'orderqty', header: 'Order Qty', value: (a) => num(a.orderqty), format: (a) => formatQuantity(a.orderqty), csv: (a) => a.orderqty, width: 80, numeric: true },
    { id: 'price', header: 'Order Price', value: (a) => num(a.price), format: (a) => formatPrice(a.price), csv: (a) => a.price, width: 92, numeric: true },
    { id: 'action_type', header: 'Action Type', value: (a) => a.action_type, format: (a) => actionTypeLabel(a.action_type), csv: (a) => a.action_type, width: 118 },
    { id: 'user_id', header: 'User ID', value: (a) => a.user_id, width: 84 },
    { id: 'fillqty', header: 'Fill Qty', value: (a) => num(fillQtyOf(a)), format: (a) => (fillQtyOf(a) ? formatQuantity(fillQtyOf(a)) : ''), csv: (a) => fillQtyOf(a), width: 68, numeric: true },
    { id: 'fillprice', header: 'Fill Price', value: (a) => num(fillPriceOf(a)), format: (a) => (fillPriceOf(a) ? formatPrice(fillPriceOf(a)) : ''), csv: (a) => fillPriceOf(a), width: 84, numeric: true },
    { id: 'notes', header: 'Notes', value: (a) => a.notes, format: (a) => truncateText(a.notes), csv: (a) => a.notes, width: 170, grid: { flex: 1, minWidth: 130 } },
    { id: 'action_data', header: 'Action Data', value: (a) => (hasActionData(a) ? 1 : 0), format: () => '', csv: (a) => (hasActionData(a) ? JSON.stringify(a.action_data) : ''), width: 90, grid: { sortable: false } },
  ];
}

/**
 * The filter (spec 000 §2): a case-insensitive match on the id fields (record id, order id, broker and
 * client order ids, the client's comp id), symbol, action type, user id, notes and the side as Buy/Sell.
 */
export function matchesOrderAction(a: OrderAction, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [a.id, a.order_id, a.brokerorderid, a.clordid, a.sendercompid, a.symbol, a.action_type, actionTypeLabel(a.action_type), a.user_id, a.notes, sideLabel(a.side)];
  return haystack.some((v) => v !== null && v !== undefined && String(v).toLowerCase().includes(needle));
}
