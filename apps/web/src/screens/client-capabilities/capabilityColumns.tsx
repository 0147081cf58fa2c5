import { CapabilityText, type ClientCapabilityRecord } from '@fixdesk/protocol';
import { Badge, Group } from '@mantine/core';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { connectorLabel } from '../../components/admin/ClientFilter';
import { activeStatusColumn } from '../../components/admin/activeStatusColumn';

/** A range of limits in words: '1 – 1000', '≤ 50', '≥ 1', or 'Any' when neither is set. */
function limitRange(min: string | null, max: string | null): string {
  if (min !== null && max !== null) return `${min} – ${max}`;
  if (max !== null) return `≤ ${max}`;
  if (min !== null) return `≥ ${min}`;
  return 'Any';
}
const limit = (v: string | null) => v ?? 'no limit';

/** The permission badges (spec 001 §6): buy, sell, short; 'No Permissions' when all three are false. */
function Permissions({ data }: ICellRendererParams<ClientCapabilityRecord>) {
  if (!data) return null;
  const granted = [data.can_buy && 'Buy', data.can_sell && 'Sell', data.can_short && 'Short'].filter((x): x is string => Boolean(x));
  return (
    <Group gap={4} wrap="nowrap" h="100%" align="center">
      {granted.length === 0 ? (
        <Badge size="sm" color="red" variant="light">
          {CapabilityText.noPermissions}
        </Badge>
      ) : (
        granted.map((g) => (
          <Badge
            key={g}
            size="sm"
            variant="light"
            color={g === 'Buy' ? 'blue' : g === 'Sell' ? 'orange' : 'grape'}
            style={{ flexShrink: 0 }}
          >
            {g}
          </Badge>
        ))
      )}
    </Group>
  );
}

/** Spec 001 §2: ID, client, security or 'All Securities', asset class, exchange, enabled, permission badges and limits. */
export const CAPABILITY_COLUMNS: ColDef<ClientCapabilityRecord>[] = [
  // Minimum widths fit the content at 1280 px without scrolling sideways; client and security share the rest.
  { headerName: 'ID', field: 'id', width: 64, type: 'numericColumn', sort: 'asc' },
  {
    headerName: 'Client',
    colId: 'client',
    flex: 2,
    minWidth: 150,
    valueGetter: (p) => (p.data ? connectorLabel(p.data) : ''),
    tooltipValueGetter: (p) => p.value as string,
    cellStyle: { fontWeight: 600 },
  },
  {
    headerName: 'Security',
    colId: 'security',
    flex: 1,
    minWidth: 110,
    valueGetter: (p) => p.data?.security_symbol ?? CapabilityText.allSecurities,
    tooltipValueGetter: (p) => p.value as string,
  },
  { headerName: 'Asset Class', field: 'asset_class', width: 104 },
  {
    headerName: 'Exchange',
    colId: 'exchange',
    width: 96,
    valueGetter: (p) => [p.data?.exchange, p.data?.market_identifier].filter(Boolean).join(' / ') || 'Any',
    tooltipValueGetter: (p) => p.value as string,
  },
  activeStatusColumn({ isActive: (c) => c.is_enabled, width: 86, headerName: 'Enabled', colId: 'enabled', words: ['Enabled', 'Disabled'] }),
  {
    headerName: 'Permissions',
    colId: 'permissions',
    width: 176,
    sortable: false,
    cellRenderer: Permissions,
    cellStyle: { display: 'flex', alignItems: 'center' },
  },
  {
    headerName: 'Order Qty',
    colId: 'orderQty',
    width: 110,
    headerTooltip: 'Minimum – maximum quantity of one order',
    valueGetter: (p) => (p.data ? limitRange(p.data.min_order_qty, p.data.max_order_qty) : ''),
    cellClass: 'fd-numeric',
  },
  {
    headerName: 'Max Position',
    colId: 'position',
    width: 130,
    headerTooltip: "Largest net long / short position in a contract, from the client's fills",
    valueGetter: (p) =>
      p.data
        ? p.data.max_position_long === null && p.data.max_position_short === null
          ? 'Any'
          : `L ${limit(p.data.max_position_long)} / S ${limit(p.data.max_position_short)}`
        : '',
    tooltipValueGetter: (p) => (p.data ? `Long: ${limit(p.data.max_position_long)}; short: ${limit(p.data.max_position_short)}` : null),
    cellClass: 'fd-numeric',
  },
];
