import {
  formatAveragePrice,
  clientOrdStatusLabel,
  closedFillNote,
  clientStatusColour,
  execTypeColour,
  execTypeLabel,
  formatBlotterPrice,
  formatMaturity,
  formatOrderPrice,
  formatQuantity,
  formatTimestamp,
  ORD_TYPE_LABELS,
  SIDE_LABELS,
  type OrdTypeCode,
  type SideCode,
} from '@fixdesk/domain';
import type { ClientExecution, ClientOrder, ClientOrderLeg } from '@fixdesk/protocol';
import type { CellStyle } from 'ag-grid-community';
import type { BlotterColumn } from '../../../components/grid/columns';
import { tokenCss, tokenFill } from '../shared/colours';

/**
 * The FIX Client's grids (spec 001 §2), declared once per grid with the blotter's column table shape.
 * Status labels and colours are the client's own (spec 001 §4), from the domain package.
 */

const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));
const time = (iso: string | null) => (iso ? formatTimestamp(iso).slice(11, 19) : '');
const side = (code: string) => (SIDE_LABELS[code as SideCode] ?? code).toUpperCase();
const sideClass = (code: string | undefined | null) => (code === '1' ? 'fd-side-buy' : code === '2' ? 'fd-side-sell' : '');

/** 'Sent' until the broker's first report; its status otherwise. */
function statusStyle(ordStatus: string | null): CellStyle {
  const token = clientStatusColour(ordStatus);
  return { color: tokenCss(token), backgroundColor: tokenFill(token), fontWeight: 600 };
}

export const CLIENT_ORDER_COLUMNS: readonly BlotterColumn<ClientOrder>[] = [
  {
    id: 'time',
    header: 'Sent',
    value: (o) => o.timestamp,
    format: (o) => time(o.timestamp),
    width: 78,
    grid: { sort: 'desc', tooltipValueGetter: (p) => (p.data ? `${formatTimestamp(p.data.timestamp)} UTC` : '') },
  },
  { id: 'clordid', header: 'ClOrdID', value: (o) => o.clordid, width: 104 },
  {
    id: 'status',
    header: 'Status',
    value: (o) => `${o.ordstatus ?? ''}|${o.cumqty ?? ''}|${o.pendingRequest?.clOrdId ?? ''}`,
    // A done order that had been filled says so, as on the desk: 'Done for Day (filled 20/20)'.
    format: (o) =>
      `${clientOrdStatusLabel(o.ordstatus)}${closedFillNote(o.ordstatus, o.cumqty, o.orderqty) ? ` (${closedFillNote(o.ordstatus, o.cumqty, o.orderqty)})` : ''}${o.pendingRequest ? ` (${o.pendingRequest.type === 'F' ? 'cancel' : 'replace'} sent)` : ''}`,
    width: 168,
    grid: { cellStyle: (p) => statusStyle(p.data?.ordstatus ?? null), tooltipValueGetter: (p) => p.valueFormatted },
  },
  {
    id: 'side',
    header: 'Side',
    value: (o) => o.side,
    format: (o) => side(o.side),
    width: 58,
    grid: { cellClass: (p) => sideClass(p.data?.side) },
  },
  { id: 'orderqty', header: 'Qty', value: (o) => num(o.orderqty), format: (o) => formatQuantity(o.orderqty), width: 64, numeric: true },
  { id: 'symbol', header: 'Symbol', value: (o) => o.symbol, width: 150, grid: { tooltipValueGetter: (p) => p.data?.symbol } },
  {
    id: 'maturity',
    header: 'Contract',
    value: (o) => o.maturity,
    format: (o) => (o.maturity ? formatMaturity(o.maturity) : o.legs.length ? `${o.legs.length} legs` : ''),
    width: 72,
  },
  {
    id: 'ordtype',
    header: 'Type',
    value: (o) => o.ordtype,
    format: (o) => ORD_TYPE_LABELS[o.ordtype as OrdTypeCode] ?? o.ordtype,
    width: 66,
  },
  {
    id: 'price',
    header: 'Price',
    value: (o) => num(o.price),
    format: (o) => (o.price === null ? formatOrderPrice(null) : formatBlotterPrice(o.price)),
    width: 90,
    numeric: true,
  },
  { id: 'cumqty', header: 'Filled', value: (o) => num(o.cumqty), format: (o) => formatQuantity(o.cumqty), width: 60, numeric: true },
  {
    id: 'leavesqty',
    header: 'Leaves',
    value: (o) => num(o.leavesqty),
    format: (o) => formatQuantity(o.leavesqty),
    width: 62,
    numeric: true,
  },
  {
    id: 'avgpx',
    header: 'Avg Px',
    value: (o) => num(o.avgpx),
    format: (o) => (num(o.cumqty) ? formatAveragePrice(o.avgpx, o.price) : ''),
    width: 88,
    numeric: true,
  },
  {
    id: 'lastqty',
    header: 'Last Qty',
    value: (o) => num(o.lastqty),
    format: (o) => (o.lastqty ? formatQuantity(o.lastqty) : ''),
    width: 68,
    numeric: true,
  },
  {
    id: 'lastpx',
    header: 'Last Px',
    value: (o) => num(o.lastpx),
    format: (o) => (o.lastqty ? formatBlotterPrice(o.lastpx) : ''),
    width: 88,
    numeric: true,
  },
  { id: 'exchange', header: 'Exch', value: (o) => o.exchange, width: 56 },
  { id: 'trader', header: 'Trader', value: (o) => o.tradername, width: 110 },
  { id: 'brokerorderid', header: 'Broker Order ID', value: (o) => o.brokerorderid, width: 112 },
  { id: 'msgtype', header: 'Msg', value: (o) => o.msgtype, width: 52 },
  {
    id: 'text',
    header: 'Text',
    value: (o) => o.text,
    width: 180,
    grid: { flex: 1, minWidth: 120, tooltipValueGetter: (p) => p.data?.text ?? '' },
  },
];

export const CLIENT_EXECUTION_COLUMNS: readonly BlotterColumn<ClientExecution>[] = [
  {
    id: 'time',
    header: 'Time',
    value: (e) => e.transacttime ?? e.timestamp,
    format: (e) => time(e.transacttime ?? e.timestamp),
    width: 74,
  },
  {
    id: 'exectype',
    header: 'Exec Type',
    value: (e) => e.exectype ?? e.msgtype,
    format: (e) => (e.msgtype === '9' ? 'Cancel Reject' : `${e.exectype} · ${execTypeLabel(e.exectype)}`),
    width: 116,
    grid: {
      cellStyle: (p): CellStyle => {
        const token = p.data?.msgtype === '9' ? 'red' : execTypeColour(p.data?.exectype);
        return { color: tokenCss(token), backgroundColor: tokenFill(token), fontWeight: 600 };
      },
    },
  },
  { id: 'ordstatus', header: 'Status', value: (e) => e.ordstatus, format: (e) => clientOrdStatusLabel(e.ordstatus), width: 100 },
  {
    id: 'lastqty',
    header: 'Last Qty',
    value: (e) => num(e.lastqty),
    format: (e) => (num(e.lastqty) ? formatQuantity(e.lastqty) : ''),
    width: 68,
    numeric: true,
  },
  {
    id: 'lastpx',
    header: 'Last Px',
    value: (e) => num(e.lastpx),
    format: (e) => (num(e.lastqty) ? formatBlotterPrice(e.lastpx) : ''),
    width: 86,
    numeric: true,
  },
  {
    id: 'cumqty',
    header: 'Cum Qty',
    value: (e) => num(e.cumqty),
    format: (e) => (e.cumqty === null ? '' : formatQuantity(e.cumqty)),
    width: 68,
    numeric: true,
  },
  {
    id: 'leavesqty',
    header: 'Leaves',
    value: (e) => num(e.leavesqty),
    format: (e) => (e.leavesqty === null ? '' : formatQuantity(e.leavesqty)),
    width: 62,
    numeric: true,
  },
  {
    id: 'avgpx',
    header: 'Avg Px',
    value: (e) => num(e.avgpx),
    format: (e) => (num(e.cumqty) ? formatBlotterPrice(e.avgpx) : ''),
    width: 86,
    numeric: true,
  },
  { id: 'clordid', header: 'ClOrdID', value: (e) => e.clordid, width: 96 },
  { id: 'execid', header: 'Exec ID', value: (e) => e.execid, width: 116 },
  {
    id: 'text',
    header: 'Text',
    value: (e) => e.text,
    width: 160,
    grid: { flex: 1, minWidth: 100, tooltipValueGetter: (p) => p.data?.text ?? '' },
  },
];

export interface LegRow extends ClientOrderLeg {
  index: number;
}

export const CLIENT_LEG_COLUMNS: readonly BlotterColumn<LegRow>[] = [
  { id: 'index', header: '#', value: (l) => l.index + 1, width: 44, numeric: true },
  { id: 'symbol', header: 'Symbol', value: (l) => l.legSymbol, width: 80 },
  {
    id: 'side',
    header: 'Side',
    value: (l) => l.legSide,
    format: (l) => side(l.legSide),
    width: 58,
    grid: { cellClass: (p) => sideClass(p.data?.legSide) },
  },
  {
    id: 'month',
    header: 'Contract',
    value: (l) => l.legMaturityMonthYear,
    format: (l) => formatMaturity(l.legMaturityMonthYear),
    width: 76,
  },
  { id: 'maturity', header: '610', value: (l) => l.legMaturityMonthYear, width: 72 },
  { id: 'ratio', header: 'Ratio', value: (l) => num(l.legRatioQty), format: (l) => l.legRatioQty, width: 58, numeric: true },
  {
    id: 'qty',
    header: 'Leg Qty',
    value: (l) => num(l.orderQty),
    format: (l) => (l.orderQty ? formatQuantity(l.orderQty) : ''),
    width: 70,
    numeric: true,
    grid: { flex: 1 },
  },
];

const PARTY_ROLES: Record<string, string> = { '7': 'Entering Firm', '11': 'Order Origination Trader' };
const PARTY_SOURCES: Record<string, string> = { D: 'Proprietary', N: 'LEI', B: 'BIC' };

export function partyRoleLabel(role: string): string {
  return PARTY_ROLES[role] ? `${role} · ${PARTY_ROLES[role]}` : role;
}

export function partySourceLabel(source: string | null): string {
  if (!source) return '';
  return PARTY_SOURCES[source] ? `${source} · ${PARTY_SOURCES[source]}` : source;
}
