import {
  blotterStatusLabel,
  formatBlotterPrice,
  formatDate,
  formatTime,
  formatMaturity,
  formatOrderPrice,
  formatQuantity,
  formatTimestamp,
  ordStatusLabel,
  SIDE_LABELS,
  type SideCode,
} from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import type { ColDef, ValueFormatterParams, ValueGetterParams } from 'ag-grid-community';
import { StatusCellRenderer } from './statusCell';

/**
 * The Orders grid's columns, declared once (STYLE "columns declared once"): header, value, display
 * format, filter and CSV text come from this table; the grid, its filters and its export all read it.
 */
export interface BlotterColumn<T> {
  id: string;
  header: string;
  /** The raw value (sorting, filtering). */
  value: (row: T) => string | number | null;
  /** Shown text and CSV text. */
  format?: (row: T) => string;
  width: number;
  numeric?: boolean;
  filter?: 'text' | 'number' | 'set';
  /** Extra AG Grid settings (renderers, classes). */
  grid?: Partial<ColDef<T>>;
}

/** Today's orders by time of day (UTC); older open orders with their date. */
function formatReceived(value: string): string {
  const today = formatDate(new Date());
  return formatDate(value) === today ? formatTime(value) : formatTimestamp(value).slice(0, 16);
}

const sideLabel = (o: Order) => (SIDE_LABELS[o.side as SideCode] ?? o.side).toUpperCase();
const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));

/** The status cell's value: everything the cell draws, so AG Grid redraws it when any of it changes. */
export const statusCellKey = (o: Order) => `${o.ordstatus}|${o.cumqty}|${o.orderqty}|${o.accepted_by ?? ''}|${o.pendingRequest?.id ?? ''}`;

export const ORDER_COLUMNS: readonly BlotterColumn<Order>[] = [
  // Newest first by row position, not a sort model (see OrdersGrid: updates stay cheap with 50,000 rows).
  { id: 'id', header: 'ID', value: (o) => o.id, width: 62, numeric: true, filter: 'number', grid: { headerTooltip: 'Newest first; click to sort' } },
  {
    id: 'status',
    header: 'Status',
    value: statusCellKey,
    format: (o) => ordStatusLabel(o.ordstatus),
    width: 142,
    filter: 'text',
    grid: { cellRenderer: StatusCellRenderer, cellClass: 'fd-status-cell', filterValueGetter: (p) => (p.data ? blotterStatusLabel(p.data.ordstatus) : '') },
  },
  {
    id: 'side',
    header: 'Side',
    value: (o) => o.side,
    format: sideLabel,
    width: 58,
    filter: 'text',
    grid: { cellClass: (p) => (p.data?.side === '1' ? 'fd-side-buy' : p.data?.side === '2' ? 'fd-side-sell' : '') },
  },
  { id: 'orderqty', header: 'Qty', value: (o) => num(o.orderqty), format: (o) => formatQuantity(o.orderqty), width: 66, numeric: true, filter: 'number' },
  { id: 'symbol', header: 'Symbol', value: (o) => o.symbol, width: 128, filter: 'text', grid: { tooltipValueGetter: (p) => p.data?.symbol } },
  { id: 'maturity', header: 'Contract', value: (o) => o.maturity_month_year, format: (o) => formatMaturity(o.maturity_month_year), width: 74 },
  { id: 'price', header: 'Price', value: (o) => num(o.price), format: (o) => (o.price === null ? formatOrderPrice(null) : formatBlotterPrice(o.price)), width: 92, numeric: true, filter: 'number' },
  { id: 'cumqty', header: 'Filled', value: (o) => num(o.cumqty), format: (o) => formatQuantity(o.cumqty), width: 62, numeric: true },
  { id: 'leavesqty', header: 'Leaves', value: (o) => num(o.leavesqty), format: (o) => formatQuantity(o.leavesqty), width: 64, numeric: true },
  { id: 'avgpx', header: 'Avg Px', value: (o) => num(o.avgpx), format: (o) => (num(o.cumqty) ? formatBlotterPrice(o.avgpx) : ''), width: 92, numeric: true },
  { id: 'client', header: 'Client', value: (o) => o.client_name ?? o.sendercompid, width: 140, filter: 'text', grid: { tooltipValueGetter: (p) => (p.data ? `${p.data.client_name ?? ''} (${p.data.sendercompid})` : '') } },
  { id: 'brokerorderid', header: 'Broker Order ID', value: (o) => o.brokerorderid, width: 112, filter: 'text' },
  { id: 'time', header: 'Received', value: (o) => o.created_at, format: (o) => formatReceived(o.created_at), width: 96, grid: { tooltipValueGetter: (p) => (p.data ? `${formatTimestamp(p.data.created_at)} UTC` : '') } },
  { id: 'clordid', header: 'Client Order ID', value: (o) => o.clordid, width: 116, filter: 'text' },
  { id: 'exchange', header: 'Exch', value: (o) => o.exchange, width: 58, filter: 'text' },
];

/** AG Grid column definitions generated from a column table. */
export function toColDefs<T>(columns: readonly BlotterColumn<T>[]): ColDef<T>[] {
  return columns.map((c) => ({
    colId: c.id,
    headerName: c.header,
    width: c.width,
    valueGetter: (p: ValueGetterParams<T>) => (p.data ? c.value(p.data) : null),
    ...(c.format ? { valueFormatter: (p: ValueFormatterParams<T>) => (p.data ? c.format!(p.data) : '') } : {}),
    ...(c.numeric ? { type: 'rightAligned', cellClass: 'fd-num' } : {}),
    filter: c.filter === 'number' ? 'agNumberColumnFilter' : c.filter === 'text' ? 'agTextColumnFilter' : false,
    // Filters open from the column menu; a filter button on every header is noise on a dense desk.
    suppressHeaderFilterButton: true,
    sortable: true,
    resizable: true,
    ...c.grid,
  }));
}

/** A column table as CSV text (header row, then each row with its shown text). */
export function toCsv<T>(columns: readonly BlotterColumn<T>[], rows: readonly T[]): string {
  const cell = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = [columns.map((c) => cell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.format ? c.format(row) : String(c.value(row) ?? ''))).join(','));
  return lines.join('\n');
}
