import {
  formatAveragePrice,
  formatBlotterPrice,
  formatDate,
  formatTime,
  formatMaturity,
  formatOrderPrice,
  formatQuantity,
  formatTimestamp,
  ordRejReasonLabel,
  ordStatusWithFills,
  PENDING_AGE_ALERT_MS,
  SIDE_LABELS,
  type SideCode,
} from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import type { CsvExtras } from '../../components/export/csv';
import { displayZone, displayZoneLabel } from '../../components/time/displayZone';
import { pendingSince } from './ageCell';
import type { BlotterColumn } from '../../components/grid/columns';

/** Today's orders by time of day (24-hour, in the zone the user chose: UTC by default); older open orders with their date. */
function formatReceived(value: string): string {
  const timeZone = displayZone();
  const today = formatDate(new Date(), { timeZone });
  return formatDate(value, { timeZone }) === today ? formatTime(value, { timeZone }) : formatTimestamp(value, { timeZone }).slice(0, 16);
}

const sideLabel = (o: Order) => (SIDE_LABELS[o.side as SideCode] ?? o.side).toUpperCase();
const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));

/** The status cell's value: everything the cell draws, so AG Grid redraws it when any of it changes. */
const statusCellKey = (o: Order) => `${o.ordstatus}|${o.cumqty}|${o.orderqty}|${o.accepted_by ?? ''}|${o.pendingRequest?.id ?? ''}`;

/** Columns sized to their content once rows are drawn (a longer value later has its tooltip). */
export const FIT_CONTENT_COLUMNS = ['symbol', 'client'];

/** A column of the Orders grid and of its CSV export (the file takes the shown text unless `csv` says otherwise). */
export type OrderColumn = BlotterColumn<Order> & CsvExtras<Order>;

/** The Orders grid's columns (spec 000 §2), newest first by position. */
export const ORDER_COLUMNS: readonly OrderColumn[] = [
  // Newest first by row position, not a sort model (see OrdersGrid: updates stay cheap with 50,000 rows).
  { id: 'id', header: 'ID', value: (o) => o.id, width: 62, numeric: true, grid: { headerTooltip: 'Newest first; click to sort' } },
  {
    id: 'status',
    header: 'Status',
    value: statusCellKey,
    format: (o) => ordStatusWithFills(o.ordstatus, o.cumqty, o.orderqty),
    // Wide enough for "Pending" and the Accept button beside it.
    width: 172,
    // By name: the grid registers the renderer (ORDER_CELL_RENDERERS), so this table stays free of the DOM.
    grid: { cellRenderer: 'statusCell', cellClass: 'fd-status-cell' },
  },
  {
    id: 'age',
    header: 'Age',
    // The time it has waited since; the oldest first when sorted descending, as the others (by time received).
    value: (o) => pendingSince(o),
    width: 64,
    numeric: true,
    // A ticking figure has no place in a file: the file has the time received.
    noCsv: true,
    grid: {
      cellRenderer: 'ageCell',
      headerTooltip: `How long a pending order has waited for Accept or Reject; highlighted after ${PENDING_AGE_ALERT_MS / 1000} s`,
    },
  },
  {
    id: 'side',
    header: 'Side',
    value: (o) => o.side,
    format: sideLabel,
    width: 58,
    grid: { cellClass: (p) => (p.data?.side === '1' ? 'fd-side-buy' : p.data?.side === '2' ? 'fd-side-sell' : '') },
  },
  {
    id: 'orderqty',
    header: 'Qty',
    value: (o) => num(o.orderqty),
    format: (o) => formatQuantity(o.orderqty),
    csv: (o) => o.orderqty,
    width: 66,
    numeric: true,
  },
  { id: 'symbol', header: 'Symbol', value: (o) => o.symbol, width: 128, grid: { tooltipValueGetter: (p) => p.data?.symbol } },
  {
    id: 'maturity',
    header: 'Contract',
    value: (o) => o.maturity_month_year,
    format: (o) => formatMaturity(o.maturity_month_year),
    width: 74,
  },
  {
    id: 'price',
    header: 'Price',
    value: (o) => num(o.price),
    format: (o) => (o.price === null ? formatOrderPrice(null) : formatBlotterPrice(o.price)),
    csv: (o) => o.price ?? formatOrderPrice(null),
    width: 92,
    numeric: true,
  },
  {
    id: 'cumqty',
    header: 'Filled',
    value: (o) => num(o.cumqty),
    format: (o) => formatQuantity(o.cumqty),
    csv: (o) => o.cumqty,
    width: 62,
    numeric: true,
  },
  {
    id: 'leavesqty',
    header: 'Leaves',
    value: (o) => num(o.leavesqty),
    format: (o) => formatQuantity(o.leavesqty),
    csv: (o) => o.leavesqty,
    width: 64,
    numeric: true,
  },
  {
    id: 'avgpx',
    header: 'Avg Px',
    value: (o) => num(o.avgpx),
    format: (o) => (num(o.cumqty) ? formatAveragePrice(o.avgpx, o.price) : ''),
    width: 92,
    numeric: true,
  },
  {
    id: 'client',
    header: 'Client',
    value: (o) => o.client_name ?? o.sendercompid,
    csv: (o) => (o.client_name && o.client_name !== o.sendercompid ? `${o.client_name} (${o.sendercompid})` : o.sendercompid),
    width: 140,
    grid: { tooltipValueGetter: (p) => (p.data ? `${p.data.client_name ?? ''} (${p.data.sendercompid})` : '') },
  },
  {
    id: 'brokerorderid',
    header: 'Broker Order ID',
    // An order refused at intake has none: it says so (its reason is in the status cell).
    value: (o) => o.brokerorderid || (o.refusal ? 'Refused at intake' : ''),
    width: 112,
    grid: {
      cellClass: (p) => (p.data?.refusal ? 'fd-refusal' : ''),
      tooltipValueGetter: (p) =>
        p.data?.refusal ? `${ordRejReasonLabel(p.data.refusal.ordRejReason)}: ${p.data.refusal.text}` : undefined,
    },
  },
  {
    id: 'time',
    header: 'Received',
    value: (o) => o.created_at,
    format: (o) => formatReceived(o.created_at),
    csv: (o) => o.created_at,
    csvHeader: 'Received (UTC)',
    width: 122,
    grid: {
      headerValueGetter: () => `Received (${displayZoneLabel()})`,
      tooltipValueGetter: (p) => (p.data ? `${formatTimestamp(p.data.created_at, { timeZone: displayZone() })} ${displayZoneLabel()}` : ''),
    },
  },
  { id: 'clordid', header: 'Client Order ID', value: (o) => o.clordid, width: 116 },
  { id: 'exchange', header: 'Exch', value: (o) => o.exchange, width: 58 },
];
