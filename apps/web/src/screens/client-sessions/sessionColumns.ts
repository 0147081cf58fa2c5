import { sessionDuration, type ClientSessionRecord } from '@fixdesk/protocol';
import type { ColDef } from 'ag-grid-community';
import { STATUS_COLOURS } from '../../components/admin/activeStatusColumn';
import { formatLocalSeconds } from '../../components/time/localTime';

/** A session's status in the admin grids' colours. */
const SESSION_STATUS_COLOURS: Record<string, string> = {
  Active: STATUS_COLOURS.on,
  Disconnected: STATUS_COLOURS.alert,
  Completed: STATUS_COLOURS.done,
};

/** In UTC, as the session form takes them ('2026-01-05 09:00:00 UTC'). */
export const when = (iso: string | null) => formatLocalSeconds(iso, 'UTC');
/** In a column whose header already says UTC. */
const cellTime = (iso: string | null) => when(iso).replace(/ UTC$/, '');

/** Spec 001 §2: ID, comp ID, start, end, duration, status, messages sent/received, orders (times in UTC). */
export const SESSION_COLUMNS: ColDef<ClientSessionRecord>[] = [
  // Minimum widths fit the content at 1280 px without scrolling sideways; the text columns share the rest.
  { headerName: 'ID', field: 'id', width: 64, type: 'numericColumn' },
  { headerName: 'Comp ID', field: 'comp_id', flex: 1, minWidth: 115, tooltipField: 'comp_id', cellStyle: { fontWeight: 600 } },
  {
    headerName: 'Start (UTC)',
    colId: 'start',
    field: 'session_start',
    width: 150,
    valueFormatter: (p) => cellTime(p.value as string),
    sort: 'desc',
  },
  { headerName: 'End (UTC)', colId: 'end', field: 'session_end', width: 150, valueFormatter: (p) => cellTime(p.value as string | null) },
  {
    headerName: 'Duration',
    colId: 'duration',
    width: 86,
    valueGetter: (p) => (p.data ? sessionDuration(p.data.session_start, p.data.session_end) : ''),
    cellClass: 'fd-numeric',
  },
  {
    headerName: 'Status',
    field: 'status',
    width: 110,
    cellStyle: (p) => ({ color: SESSION_STATUS_COLOURS[p.value as string] ?? 'inherit', fontWeight: 600 }),
    tooltipField: 'disconnect_reason',
  },
  { headerName: 'Disconnect Reason', field: 'disconnect_reason', flex: 2, minWidth: 130, tooltipField: 'disconnect_reason' },
  { headerName: 'Sent', field: 'messages_sent', width: 68, type: 'numericColumn' },
  { headerName: 'Received', field: 'messages_received', width: 86, type: 'numericColumn' },
  { headerName: 'Orders', field: 'orders_processed', width: 74, type: 'numericColumn' },
  {
    headerName: 'Source',
    colId: 'source',
    width: 110,
    valueGetter: (p) => (!p.data ? '' : !p.data.recorded ? 'Added by hand' : p.data.original ? 'Corrected' : 'Recorded'),
    tooltipValueGetter: (p) =>
      p.data?.corrected_by ? `by ${p.data.corrected_by}${p.data.corrected_at ? ` at ${when(p.data.corrected_at)}` : ''}` : null,
    cellStyle: (p) => (p.value === 'Corrected' ? { color: '#e8590c', fontWeight: 600 } : null),
  },
];
