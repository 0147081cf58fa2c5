import { SESSION_TYPE_LABELS, type ClientConnector } from '@fixdesk/protocol';
import type { ColDef } from 'ag-grid-community';
import { activeStatusColumn, STATUS_COLOURS } from '../../components/admin/activeStatusColumn';
import { stoppedTooltip } from '../../services/kill-switch/killSwitch';

const { on: GREEN, off: GREY, alert: RED } = STATUS_COLOURS;

/**
 * Spec 001 §2: ID, component ID, client name, website, LEI, host:port, FIX version, Active/Inactive,
 * TLS Enabled/Disabled (the edit action is the table's); plus the session type, the live session and
 * capabilities: logged on now, next sequence numbers, capability count or "cannot trade".
 */
export const CONNECTOR_COLUMNS: ColDef<ClientConnector>[] = [
  // Widths: each column's minimum fits its content at 1280 px without scrolling sideways; the wider text
  // columns share what is left (flex) and say in full what they cut in a tooltip.
  { headerName: 'ID', field: 'id', width: 60, type: 'numericColumn', sort: 'asc' },
  { headerName: 'Component ID', field: 'comp_id', flex: 1, minWidth: 105, tooltipField: 'comp_id', cellStyle: { fontWeight: 600 } },
  activeStatusColumn({ isActive: (c) => c.is_active, width: 76 }),
  {
    // 'Type' in the header (the column is narrow), Session Type in its tooltip as in the dialog.
    headerName: 'Type',
    headerTooltip: "Session Type: Order Entry (the client trades) or Drop Copy (receives copies of clients' reports, cannot trade)",
    colId: 'sessionType',
    width: 86,
    valueGetter: (p) => (p.data ? SESSION_TYPE_LABELS[p.data.session_type] : ''),
    // A drop copy says whose reports it receives.
    tooltipValueGetter: (p) =>
      p.data?.session_type === 'drop_copy'
        ? `Copies the reports of ${p.data.drop_copy_of.length ? p.data.drop_copy_of.join(', ') : 'every client'}; cannot trade`
        : null,
    cellStyle: (p) => (p.data?.session_type === 'drop_copy' ? { fontWeight: 600 } : null),
  },
  {
    headerName: 'Session',
    colId: 'session',
    width: 90,
    valueGetter: (p) => (p.data?.live?.logged_on ? 'Logged on' : 'Logged off'),
    tooltipValueGetter: (p) => (p.data?.live?.remote_address ? `from ${p.data.live.remote_address}` : null),
    cellStyle: (p) => ({ color: p.value === 'Logged on' ? GREEN : GREY, fontWeight: p.value === 'Logged on' ? 600 : 400 }),
  },
  {
    headerName: 'Seq Out / In',
    colId: 'seq',
    width: 88,
    valueGetter: (p) =>
      p.data?.live && p.data.live.next_sender_seq !== null ? `${p.data.live.next_sender_seq} / ${p.data.live.next_target_seq}` : '—',
    headerTooltip: 'The next MsgSeqNum we send / the next we expect from the client',
    cellClass: 'fd-numeric',
  },
  {
    headerName: 'Capabilities',
    colId: 'capabilities',
    width: 96,
    valueGetter: (p) => {
      const live = p.data?.live;
      if (!live) return '';
      // A drop copy session never trades: capabilities do not apply to it (not an alert).
      if (p.data?.session_type === 'drop_copy') return '—';
      return live.capabilities_enabled === 0
        ? 'cannot trade'
        : String(live.capabilities_enabled) +
            (live.capabilities > live.capabilities_enabled ? ` (+${live.capabilities - live.capabilities_enabled} off)` : '');
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
  { headerName: 'Client Name', field: 'client_name', flex: 2, minWidth: 100, tooltipField: 'client_name' },
  { headerName: 'Website', field: 'company_website', flex: 1, minWidth: 75, tooltipField: 'company_website' },
  { headerName: 'LEI', field: 'client_lei', flex: 1, minWidth: 75, tooltipField: 'client_lei' },
  {
    headerName: 'Host:Port',
    colId: 'hostPort',
    width: 112,
    // The server's answer (the session config's own host and port): FIX_PORT, or the TLS port with a certificate.
    valueGetter: (p) => (p.data ? `${p.data.address.host}:${p.data.address.port}` : ''),
    tooltipValueGetter: (p) =>
      p.data
        ? `${p.data.host?.trim() ? "The connector's host" : "The desk's own address"}, ${p.data.address.tls ? 'its TLS port (the connector has a certificate)' : 'its FIX port'}: ${p.value as string}`
        : null,
  },
  { headerName: 'FIX Version', field: 'fix_version', width: 86 },
];

/**
 * The Status column with the kill switch: "Stopped" in red while the desk stops the client's
 * orders, who, when and why in its tooltip (times in `timeZone`); Active/Inactive otherwise. In the
 * Status cell rather than a column of its own: the table fits 1280 px without scrolling sideways.
 */
export function statusColumn(timeZone: string): ColDef<ClientConnector> {
  const active = activeStatusColumn<ClientConnector>({ isActive: (c) => c.is_active, width: 80 });
  return {
    ...active,
    valueGetter: (p) => (p.data?.trading_stop ? 'Stopped' : p.data?.is_active ? 'Active' : 'Inactive'),
    tooltipValueGetter: (p) =>
      p.data?.trading_stop
        ? `${p.data.is_active ? 'Active connector' : 'Inactive connector'}, trading stopped. ${stoppedTooltip(p.data.trading_stop, timeZone)}`
        : null,
    cellStyle: (p) => ({
      color: p.value === 'Stopped' ? RED : p.value === 'Active' ? GREEN : GREY,
      fontWeight: p.value === 'Stopped' ? 700 : 600,
    }),
  };
}

/** The connectors' columns, the Status cell saying whether the kill switch stops the client. */
export function connectorColumns(timeZone: string): ColDef<ClientConnector>[] {
  return CONNECTOR_COLUMNS.map((c) => (c.colId === 'status' ? statusColumn(timeZone) : c));
}
