import type { ClientConnector } from '@fixdesk/protocol';
import type { ColDef } from 'ag-grid-community';

const GREEN = '#2b8a3e';
const GREY = '#868e96';
const RED = '#c92a2a';

/**
 * Spec 001 §2: ID, component ID, client name, website, LEI, host:port, FIX version, Active/Inactive,
 * TLS Enabled/Disabled (the edit action is the table's); plus the live session and capabilities
 * (issue 15): logged on now, next sequence numbers, capability count or "cannot trade".
 */
export const CONNECTOR_COLUMNS: ColDef<ClientConnector>[] = [
  { headerName: 'ID', field: 'id', width: 64, type: 'numericColumn', sort: 'asc' },
  { headerName: 'Component ID', field: 'comp_id', width: 130, cellStyle: { fontWeight: 600 } },
  {
    headerName: 'Status',
    colId: 'status',
    width: 80,
    valueGetter: (p) => (p.data?.is_active ? 'Active' : 'Inactive'),
    cellStyle: (p) => ({ color: p.value === 'Active' ? GREEN : GREY, fontWeight: 600 }),
  },  {
    headerName: 'Session',
    colId: 'session',
    width: 100,
    valueGetter: (p) => (p.data?.live?.logged_on ? 'Logged on' : 'Logged off'),
    tooltipValueGetter: (p) => (p.data?.live?.remote_address ? `from ${p.data.live.remote_address}` : null),
    cellStyle: (p) => ({ color: p.value === 'Logged on' ? GREEN : GREY, fontWeight: p.value === 'Logged on' ? 600 : 400 }),
  },
  {
    headerName: 'Seq Out / In',
    colId: 'seq',
    width: 100,
    valueGetter: (p) => (p.data?.live && p.data.live.next_sender_seq !== null ? `${p.data.live.next_sender_seq} / ${p.data.live.next_target_seq}` : '—'),
    headerTooltip: 'The next MsgSeqNum we send / the next we expect from the client',
    cellClass: 'fd-numeric',
  },
  {
    headerName: 'Capabilities',
    colId: 'capabilities',
    width: 110,
    valueGetter: (p) => {
      const live = p.data?.live;
      if (!live) return '';
      return live.capabilities_enabled === 0 ? 'cannot trade' : String(live.capabilities_enabled) + (live.capabilities > live.capabilities_enabled ? ` (+${live.capabilities - live.capabilities_enabled} off)` : '');
    },
    cellStyle: (p) => (p.value === 'cannot trade' ? { color: RED, fontWeight: 600 } : null),
  },
  {
    headerName: 'TLS',
    colId: 'tls',
    width: 80,
    valueGetter: (p) => (p.data?.tls_enabled ? 'Enabled' : 'Disabled'),
    cellStyle: (p) => ({ color: p.value === 'Enabled' ? GREEN : GREY }),
  },
  { headerName: 'Client Name', field: 'client_name', flex: 1, minWidth: 140, tooltipField: 'client_name' },
  { headerName: 'Website', field: 'company_website', width: 140, tooltipField: 'company_website' },
  { headerName: 'LEI', field: 'client_lei', width: 170 },
  { headerName: 'Host:Port', colId: 'hostPort', width: 115, valueGetter: (p) => (p.data ? `${p.data.host ?? ''}:${p.data.port}` : '') },
  { headerName: 'FIX Version', field: 'fix_version', width: 95 },


];
