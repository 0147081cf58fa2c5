import {
  formatAveragePrice,
  execTypeColour,
  execTypeLabel,
  formatBlotterPrice,
  formatQuantity,
  formatTimestamp,
  ordStatusLabel,
} from '@fixdesk/domain';
import type { ExecutionReport } from '@fixdesk/protocol';
import type { CellStyle } from 'ag-grid-community';
import { tokenCss, tokenFill } from '../../components/grid/colours';
import type { BlotterColumn } from '../../components/grid/columns';
import { displayZone, displayZoneLabel } from '../../components/time/displayZone';

const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));

/** The Executions grid's columns (one table for grid and export). ExecType colours come from the domain (spec 000 §2). */
export const EXECUTION_COLUMNS: readonly BlotterColumn<ExecutionReport>[] = [
  { id: 'id', header: 'ID', value: (r) => r.id, width: 64, numeric: true, grid: { sort: 'asc' } },
  {
    id: 'time',
    header: 'Time (UTC)',
    value: (r) => r.transacttime,
    // 24-hour, in the zone the user chose (UTC by default), named in the header.
    format: (r) => formatTimestamp(r.transacttime, { timeZone: displayZone() }).slice(11),
    width: 80,
    grid: {
      headerValueGetter: () => `Time (${displayZoneLabel()})`,
      tooltipValueGetter: (p) =>
        p.data ? `${formatTimestamp(p.data.transacttime, { timeZone: displayZone() })} ${displayZoneLabel()}` : '',
    },
  },
  {
    id: 'exectype',
    header: 'Exec Type',
    value: (r) => r.exectype,
    format: (r) => `${r.exectype} · ${execTypeLabel(r.exectype)}`,
    width: 128,
    grid: {
      cellStyle: (p): CellStyle => {
        const token = execTypeColour(p.data?.exectype);
        return { color: tokenCss(token), backgroundColor: tokenFill(token), fontWeight: 600 };
      },
    },
  },
  { id: 'ordstatus', header: 'Status', value: (r) => r.ordstatus, format: (r) => ordStatusLabel(r.ordstatus), width: 112 },
  { id: 'leg', header: 'Leg', value: (r) => r.legIndex, format: (r) => (r.legIndex === null ? '' : `Leg ${r.legIndex + 1}`), width: 56 },
  {
    id: 'lastqty',
    header: 'Last Qty',
    value: (r) => num(r.lastqty),
    format: (r) => (num(r.lastqty) ? formatQuantity(r.lastqty) : ''),
    width: 76,
    numeric: true,
  },
  {
    id: 'lastpx',
    header: 'Last Px',
    value: (r) => num(r.lastpx),
    format: (r) => (num(r.lastqty) ? formatBlotterPrice(r.lastpx) : ''),
    width: 92,
    numeric: true,
  },
  { id: 'cumqty', header: 'Cum Qty', value: (r) => num(r.cumqty), format: (r) => formatQuantity(r.cumqty), width: 76, numeric: true },
  {
    id: 'leavesqty',
    header: 'Leaves',
    value: (r) => num(r.leavesqty),
    format: (r) => formatQuantity(r.leavesqty),
    width: 68,
    numeric: true,
  },
  {
    id: 'avgpx',
    header: 'Avg Px',
    value: (r) => num(r.avgpx),
    format: (r) => (num(r.cumqty) ? formatAveragePrice(r.avgpx, r.price) : ''),
    width: 92,
    numeric: true,
  },
  { id: 'execid', header: 'Exec ID', value: (r) => r.execid, width: 120 },
  { id: 'text', header: 'Text', value: (r) => r.text, width: 200, grid: { flex: 1, minWidth: 120 } },
];
