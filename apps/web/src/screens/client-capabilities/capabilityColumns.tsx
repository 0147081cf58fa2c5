import { CapabilityText, type ClientCapabilityRecord } from '@fixdesk/protocol';
import { Badge, Group } from '@mantine/core';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { connectorLabel } from '../../components/admin/ClientFilter';

const limit = (v: string | null) => v ?? '—';

/** The permission badges (spec 001 §6): buy, sell, short; 'No Permissions' when all three are false. */
function Permissions({ data }: ICellRendererParams<ClientCapabilityRecord>) {
  if (!data) return null;
  const granted = [data.can_buy && 'Buy', data.can_sell && 'Sell', data.can_short && 'Short'].filter((x): x is string => Boolean(x));
  return (
    <Group gap={4} wrap="nowrap" h="100%" align="center">
      {granted.length === 0 ? (
        <Badge size="sm" color="red" variant="light">{CapabilityText.noPermissions}</Badge>
      ) : (
        granted.map((g) => (
          <Badge key={g} size="sm" variant="light" color={g === 'Buy' ? 'blue' : g === 'Sell' ? 'orange' : 'grape'}>
            {g}
          </Badge>
        ))
      )}
    </Group>
  );
}

/** Spec 001 §2: ID, client, security or 'All Securities', asset class, exchange, enabled, permission badges and limits. */
export const CAPABILITY_COLUMNS: ColDef<ClientCapabilityRecord>[] = [
  { headerName: 'ID', field: 'id', width: 70, type: 'numericColumn', sort: 'asc' },
  { headerName: 'Client', colId: 'client', width: 200, valueGetter: (p) => (p.data ? connectorLabel(p.data) : ''), cellStyle: { fontWeight: 600 } },
  { headerName: 'Security', colId: 'security', width: 130, valueGetter: (p) => p.data?.security_symbol ?? CapabilityText.allSecurities },
  { headerName: 'Asset Class', field: 'asset_class', width: 120 },
  { headerName: 'Exchange', colId: 'exchange', width: 110, valueGetter: (p) => [p.data?.exchange, p.data?.market_identifier].filter(Boolean).join(' / ') || 'Any' },
  {
    headerName: 'Enabled',
    colId: 'enabled',
    width: 95,
    valueGetter: (p) => (p.data?.is_enabled ? 'Enabled' : 'Disabled'),
    cellStyle: (p) => ({ color: p.value === 'Enabled' ? '#2b8a3e' : '#868e96', fontWeight: 600 }),
  },
  { headerName: 'Permissions', colId: 'permissions', width: 170, sortable: false, cellRenderer: Permissions },
  { headerName: 'Order Qty (min–max)', colId: 'orderQty', width: 150, valueGetter: (p) => (p.data ? `${limit(p.data.min_order_qty)} – ${limit(p.data.max_order_qty)}` : ''), cellClass: 'fd-numeric' },
  { headerName: 'Position (long / short)', colId: 'position', flex: 1, minWidth: 160, valueGetter: (p) => (p.data ? `${limit(p.data.max_position_long)} / ${limit(p.data.max_position_short)}` : ''), cellClass: 'fd-numeric' },
];
