import type { ClientConnector } from '@fixdesk/protocol';
import type { ColDef } from 'ag-grid-community';

const GREEN = '#2b8a3e';
const GREY = '#868e96';
const RED = '#c92a2a';
/** What the Host:Port column says when a connector names no host: the desk's own address (as the session config). */
const DESK_HOST = 'desk';

/**
 * Spec 001 §2: ID, component ID, client name, website, LEI, host:port, FIX version, Active/Inactive,
 * TLS Enabled/Disabled (the edit action is the table's); plus the live session and capabilities
 * (issue 15): logged on now, next sequence numbers, capability count or "cannot trade".
 */
export const CONNECTOR_COLUMNS: ColDef<ClientConnector>[] = [
  // Widths: each column's minimum fits its content at 1280 px without scrolling sideways; the wider text
  // columns share what is left (flex) and say in full what they cut in a tooltip.
  { headerName: 'ID', field: 'id', width: 60, type: 'numericColumn', sort: 'asc' },
  { headerName: 'Component ID', field: 'comp_id', flex: 1, minWidth: 115, tooltipField: 'comp_id', cellStyle: { fontWeight: 600 } },
  {
    headerName: 'Status',
    colId: 'status',
    width: 76,
    valueGetter: (p) => (p.data?.is_active ? 'Active' : 'Inactive'),
    cellStyle: (p) => ({ color: p.value === 'Active' ? GREEN : GREY, fontWeight: 600 }),
  },
  {
    headerName: 'Session',
    colId: 'session',
    width: 94,
    valueGetter: (p) => (p.data?.live?.logged_on ? 'Logged on' : 'Logged off'),
    tooltipValueGetter: (p) => (p.data?.live?.remote_address ? `from ${p.data.live.remote_address}` : null),
    cellStyle: (p) => ({ color: p.value === 'Logged on' ? GREEN : GREY, fontWeight: p.value === 'Logged on' ? 600 : 400 }),
  },
  {
    headerName: 'Seq Out / In',
    colId: 'seq',
    width: 94,
    valueGetter: (p) => (p.data?.live && p.data.live.next_sender_seq !== null ? `${p.data.live.next_sender_seq} / ${p.data.live.next_target_seq}` : '—'),
    headerTooltip: 'The next MsgSeqNum we send / the next we expect from the client',
    cellClass: 'fd-numeric',
  },
  {
    headerName: 'Capabilities',
    colId: 'capabilities',
    width: 102,
    valueGetter: (p) => {
      const live = p.data?.live;
      if (!live) return '';
      return live.capabilities_enabled === 0 ? 'cannot trade' : String(live.capabilities_enabled) + (live.capabilities > live.capabilities_enabled ? ` (+${live.capabilities - live.capabilities_enabled} off)` : '');
    },
    tooltipValueGetter: (p) => (p.value === 'cannot trade' ? 'No enabled capability: every order of this client is refused' : null),
    cellStyle: (p) => (p.value === 'cannot trade' ? { color: RED, fontWeight: 600 } : null),
  },
  {
    headerName: 'TLS',
    colId: 'tls',
    width: 76,
    valueGetter: (p) => (p.data?.tls_enabled ? 'Enabled' : 'Disabled'),
    cellStyle: (p) => ({ color: p.value === 'Enabled' ? GREEN : GREY }),
  },
  { headerName: 'Client Name', field: 'client_name', flex: 2, minWidth: 110, tooltipField: 'client_name' },
  { headerName: 'Website', field: 'company_website', flex: 1, minWidth: 95, tooltipField: 'company_website' },
  { headerName: 'LEI', field: 'client_lei', flex: 1, minWidth: 95, tooltipField: 'client_lei' },
  {
    headerName: 'Host:Port',
    colId: 'hostPort',
    width: 112,
    valueGetter: (p) => (p.data ? `${p.data.host?.trim() || DESK_HOST}:${p.data.port}` : ''),
    tooltipValueGetter: (p) => (p.data && !p.data.host?.trim() ? `No host set: the client connects to the desk's own address, port ${p.data.port}` : (p.value as string)),
  },
  { headerName: 'FIX Version', field: 'fix_version', width: 92 },
];
