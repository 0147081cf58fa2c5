import type { Order } from '@fixdesk/protocol';
import { ActionIcon, Button, Checkbox, Group, Kbd, Menu, Popover, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconColumns3, IconDownload } from '@tabler/icons-react';
import type { GridApi } from 'ag-grid-community';
import { useState, type ReactNode } from 'react';
import { downloadCsv } from '../../components/export/csv';
import { clearColumnLayout } from './columnLayout';
import { ordersCsvFileName, ordersCsvText } from './ordersCsv';
import { BLOTTER_SHORTCUTS } from './shortcuts';
import { FIT_CONTENT_COLUMNS, ORDER_COLUMNS } from './orderColumns';

const BUTTON_STYLES = {
  root: { height: 22, paddingInline: 8, flex: 'none' },
  label: { fontSize: 11, fontWeight: 500, textTransform: 'none' as const },
};
/** A filter's summary never widens the bar past its room: long client names end in an ellipsis (the menu has them whole). */
const SUMMARY_STYLE = {
  display: 'inline-block',
  maxWidth: 120,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  verticalAlign: 'bottom',
} as const;

export interface PickOption {
  value: string;
  label: string;
}

/**
 * A compact multi-choice filter: a button naming what is chosen, a menu of checkboxes. Nothing chosen = all.
 * `mark` draws a small note after an option (a stopped client); `children` are more menu items, below "Show all".
 */
export function PickFilter({
  label,
  options,
  value,
  onChange,
  testId,
  mark,
  children,
}: {
  label: string;
  options: readonly PickOption[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  testId: string;
  mark?: (value: string) => ReactNode;
  children?: ReactNode;
}) {
  const chosen = options.filter((o) => value.includes(o.value));
  const summary = chosen.length === 0 ? 'All' : chosen.length === 1 ? chosen[0]!.label : `${chosen.length} chosen`;
  return (
    <Menu position="bottom-start" closeOnItemClick={false} width={240} shadow="md">
      <Menu.Target>
        <Button
          size="compact-xs"
          variant={chosen.length ? 'light' : 'default'}
          rightSection={<IconChevronDown size={12} />}
          styles={BUTTON_STYLES}
          data-testid={testId}
          aria-label={`${label} filter: ${summary}`}
        >
          {label}:&nbsp;<span style={SUMMARY_STYLE}>{summary}</span>
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
          {options.map((o) => {
            const note = mark?.(o.value);
            const box = (
              <Checkbox
                key={o.value}
                size="xs"
                label={o.label}
                checked={value.includes(o.value)}
                onChange={(e) => onChange(e.currentTarget.checked ? [...value, o.value] : value.filter((v) => v !== o.value))}
              />
            );
            return note ? (
              <Group key={o.value} gap={6} wrap="nowrap" justify="space-between">
                {box}
                {note}
              </Group>
            ) : (
              box
            );
          })}
        </Stack>
        <Menu.Divider />
        <Menu.Item fz="xs" disabled={value.length === 0} onClick={() => onChange([])}>
          Show all
        </Menu.Item>
        {children}
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
        <ActionIcon
          size={22}
          variant="default"
          disabled={!api}
          aria-label="Columns"
          title="Columns: choose, reset the layout"
          data-testid="column-chooser"
        >
          <IconColumns3 size={14} />
        </ActionIcon>
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
            api.autoSizeColumns(FIT_CONTENT_COLUMNS);
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
function exportShownOrders(api: GridApi<Order>): void {
  const columnIds = api.getAllDisplayedColumns().map((c) => c.getColId());
  const rows: Order[] = [];
  api.forEachNodeAfterFilterAndSort((node) => {
    if (node.data) rows.push(node.data);
  });
  downloadCsv(ordersCsvFileName(), ordersCsvText(columnIds, rows));
}

export function ExportOrdersButton({ api }: { api: GridApi<Order> | null }) {
  return (
    <ActionIcon
      size={22}
      variant="default"
      disabled={!api}
      onClick={() => api && exportShownOrders(api)}
      aria-label="Export CSV"
      title="Export CSV: the orders shown, with the columns shown"
      data-testid="orders-export"
    >
      <IconDownload size={14} />
    </ActionIcon>
  );
}

/** The keyboard shortcuts, listed in a popover ('?' on a row opens it too). */
export function ShortcutsHelp({ opened, onChange }: { opened: boolean; onChange: (opened: boolean) => void }) {
  return (
    <Popover
      opened={opened}
      onChange={onChange}
      position="bottom-end"
      width={330}
      shadow="md"
      withArrow
      trapFocus
      returnFocus
      closeOnEscape
    >
      <Popover.Target>
        <ActionIcon
          size={22}
          variant="default"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={() => onChange(!opened)}
          data-testid="shortcuts-help"
        >
          <Text fz={12} fw={700}>
            ?
          </Text>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown data-testid="shortcuts-list">
        <Text fz="xs" fw={700} mb={6}>
          Keyboard shortcuts on the selected order
        </Text>
        <Stack gap={5}>
          {BLOTTER_SHORTCUTS.map((s) => (
            <Group key={s.text} gap={8} wrap="nowrap" align="flex-start">
              <Group gap={3} w={74} wrap="nowrap" style={{ flex: 'none' }}>
                {s.keys.map((k) => (
                  <Kbd key={k} size="xs">
                    {k}
                  </Kbd>
                ))}
              </Group>
              <Text fz="xs">{s.text}</Text>
            </Group>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
