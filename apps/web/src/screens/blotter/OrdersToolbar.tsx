import type { Order } from '@fixdesk/protocol';
import { Button, Checkbox, Menu, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconColumns3, IconDownload } from '@tabler/icons-react';
import type { GridApi } from 'ag-grid-community';
import { useState } from 'react';
import { downloadCsv } from '../../components/export/csv';
import { clearColumnLayout } from './columnLayout';
import { ordersCsvFileName, ordersCsvText } from './ordersCsv';
import { ORDER_COLUMNS } from './orderColumns';

const BUTTON_STYLES = { root: { height: 22, paddingInline: 8 }, label: { fontSize: 11, fontWeight: 500, textTransform: 'none' as const } };

export interface PickOption {
  value: string;
  label: string;
}

/** A compact multi-choice filter: a button naming what is chosen, a menu of checkboxes. Nothing chosen = all. */
export function PickFilter({ label, options, value, onChange, testId }: { label: string; options: readonly PickOption[]; value: readonly string[]; onChange: (next: string[]) => void; testId: string }) {
  const chosen = options.filter((o) => value.includes(o.value));
  const summary = chosen.length === 0 ? 'All' : chosen.length === 1 ? chosen[0]!.label : `${chosen.length} chosen`;
  return (
    <Menu position="bottom-start" closeOnItemClick={false} width={240} shadow="md">
      <Menu.Target>
        <Button size="compact-xs" variant={chosen.length ? 'light' : 'default'} rightSection={<IconChevronDown size={12} />} styles={BUTTON_STYLES} data-testid={testId} aria-label={`${label} filter: ${summary}`}>
          {label}: {summary}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid={`${testId}-menu`}>
        <Menu.Label>Show {label.toLowerCase()}</Menu.Label>
        <Stack gap={6} px={10} py={6} mah={320} style={{ overflowY: 'auto' }}>
          {options.length === 0 && (
            <Text fz="xs" c="dimmed">
              None known yet
            </Text>
          )}
          {options.map((o) => (
            <Checkbox
              key={o.value}
              size="xs"
              label={o.label}
              checked={value.includes(o.value)}
              onChange={(e) => onChange(e.currentTarget.checked ? [...value, o.value] : value.filter((v) => v !== o.value))}
            />
          ))}
        </Stack>
        <Menu.Divider />
        <Menu.Item fz="xs" disabled={value.length === 0} onClick={() => onChange([])}>
          Show all
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The column chooser: which of the Orders grid's columns are shown, and a reset of the whole layout
 * (order, widths, hidden columns, sort) to the desk's default. The grid remembers the changes itself.
 */
export function ColumnChooser({ api, layoutKey }: { api: GridApi<Order> | null; layoutKey: string | null }) {
  const [visible, setVisible] = useState<Record<string, boolean>>({});
  const read = () => {
    if (!api || api.isDestroyed()) return;
    setVisible(Object.fromEntries(api.getColumnState().map((c) => [c.colId, !c.hide])));
  };
  return (
    <Menu position="bottom-end" closeOnItemClick={false} width={220} shadow="md" onOpen={read}>
      <Menu.Target>
        <Button size="compact-xs" variant="default" leftSection={<IconColumns3 size={12} />} styles={BUTTON_STYLES} disabled={!api} data-testid="column-chooser">
          Columns
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="column-chooser-menu">
        <Menu.Label>Columns shown</Menu.Label>
        <Stack gap={6} px={10} py={6}>
          {ORDER_COLUMNS.map((c) => {
            const shown = visible[c.id] ?? true;
            const shownCount = Object.values(visible).filter(Boolean).length;
            return (
              <Checkbox
                key={c.id}
                size="xs"
                label={c.header}
                checked={shown}
                // The last shown column stays: a grid with no column shows nothing to put one back from.
                disabled={shown && shownCount <= 1}
                onChange={(e) => {
                  if (!api) return;
                  api.setColumnsVisible([c.id], e.currentTarget.checked);
                  read();
                }}
              />
            );
          })}
        </Stack>
        <Menu.Divider />
        <Menu.Item
          fz="xs"
          data-testid="column-layout-reset"
          onClick={() => {
            if (!api) return;
            if (layoutKey) clearColumnLayout(layoutKey);
            api.resetColumnState();
            if (layoutKey) clearColumnLayout(layoutKey);
            read();
          }}
        >
          Reset layout (order, widths, sort)
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** CSV of what the grid shows: its shown columns in order, its rows after the filters and the sort. */
export function exportShownOrders(api: GridApi<Order>): void {
  const columnIds = api.getAllDisplayedColumns().map((c) => c.getColId());
  const rows: Order[] = [];
  api.forEachNodeAfterFilterAndSort((node) => {
    if (node.data) rows.push(node.data);
  });
  downloadCsv(ordersCsvFileName(), ordersCsvText(columnIds, rows));
}

export function ExportOrdersButton({ api }: { api: GridApi<Order> | null }) {
  return (
    <Button
      size="compact-xs"
      variant="default"
      leftSection={<IconDownload size={12} />}
      styles={BUTTON_STYLES}
      disabled={!api}
      onClick={() => api && exportShownOrders(api)}
      title="The orders shown, with the columns shown, as a CSV file"
      data-testid="orders-export"
    >
      CSV
    </Button>
  );
}
