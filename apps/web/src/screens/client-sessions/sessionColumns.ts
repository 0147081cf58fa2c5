import { sessionDuration, type ClientSessionRecord } from '@fixdesk/protocol';
import type { ColDef } from 'ag-grid-community';
import { formatLocalTime } from '../../components/time/localTime';

const STATUS_COLOURS: Record<string, string> = { Active: '#2b8a3e', Disconnected: '#c92a2a', Completed: '#495057' };

/** In UTC, as the session form takes them ('2026-01-05 09:00:00 UTC'). */
export const when = (iso: string | null) => (iso ? formatLocalTime(iso, 'UTC').replace(/\.\d{3} /, ' ') : '');

/** Spec 001 §2: ID, comp ID, start, end, duration, status, messages sent/received, orders (times in UTC). */
export const SESSION_COLUMNS: ColDef<ClientSessionRecord>[] = [
  { headerName: 'ID', field: 'id', width: 80, type: 'numericColumn' },
  { headerName: 'Comp ID', field: 'comp_id', width: 150, cellStyle: { fontWeight: 600 } },
  { headerName: 'Start (UTC)', colId: 'start', field: 'session_start', width: 175, valueFormatter: (p) => when(p.value as string), sort: 'desc' },
  { headerName: 'End (UTC)', colId: 'end', field: 'session_end', width: 175, valueFormatter: (p) => when(p.value as string | null) },
  { headerName: 'Duration', colId: 'duration', width: 100, valueGetter: (p) => (p.data ? sessionDuration(p.data.session_start, p.data.session_end) : ''), cellClass: 'fd-numeric' },
  { headerName: 'Status', field: 'status', width: 120, cellStyle: (p) => ({ color: STATUS_COLOURS[p.value as string] ?? 'inherit', fontWeight: 600 }), tooltipField: 'disconnect_reason' },
  { headerName: 'Disconnect Reason', field: 'disconnect_reason', flex: 1, minWidth: 180, tooltipField: 'disconnect_reason' },
  { headerName: 'Sent', field: 'messages_sent', width: 85, type: 'numericColumn' },
  { headerName: 'Received', field: 'messages_received', width: 95, type: 'numericColumn' },
  { headerName: 'Orders', field: 'orders_processed', width: 85, type: 'numericColumn' },
  {
    headerName: 'Source',
    colId: 'source',
    width: 130,
    valueGetter: (p) => (!p.data ? '' : !p.data.recorded ? 'Added by hand' : p.data.original ? 'Corrected' : 'Recorded'),
    tooltipValueGetter: (p) => (p.data?.corrected_by ? `by ${p.data.corrected_by}${p.data.corrected_at ? ` at ${when(p.data.corrected_at)}` : ''}` : null),
    cellStyle: (p) => (p.value === 'Corrected' ? { color: '#e8590c', fontWeight: 600 } : null),
  },
];
