import { ActionIcon, Group, Paper, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo, type ReactNode } from 'react';
import { deskGridTheme } from '../grid/gridTheme';

export interface AdminTableProps<T> {
  /** Accessible name of the grid and of its row actions ("Edit security C5TC"). */
  label: string;
  rows: readonly T[] | null;
  /** The resource's columns, declared once next to its screen. */
  columns: ColDef<T>[];
  getRowId: (row: T) => string;
  /** How a row is named in its action buttons. */
  rowName: (row: T) => string;
  onEdit?: (row: T) => void;
  onDelete?: (row: T) => void;
  /**
   * More row actions of the screen's own (icons like Edit's), drawn before Edit; `rowActionsWidth` is the room
   * they add in px (16 by default: one more icon, as Edit and Delete side by side fit in 96).
   */
  rowActions?: (row: T) => ReactNode;
  rowActionsWidth?: number;
  /** Rows that may not be edited or deleted show no such button (with the reason as tooltip). */
  editBlocked?: (row: T) => string | null;
  deleteBlocked?: (row: T) => string | null;
  height?: number | string;
  /** Shown when there are no rows. */
  emptyText?: string;
}

/**
 * The admin pattern's table: AG Grid (community) with the resource's columns and an Actions column
 * (Edit, Delete). Cell values are rendered as text, never as markup.
 */
export function AdminTable<T>({
  label,
  rows,
  columns,
  getRowId,
  rowName,
  onEdit,
  onDelete,
  rowActions,
  rowActionsWidth = 16,
  editBlocked,
  deleteBlocked,
  height = 'calc(100vh - 260px)',
  emptyText = 'Nothing here yet',
}: AdminTableProps<T>) {
  const columnDefs = useMemo<ColDef<T>[]>(() => {
    if (!onEdit && !onDelete && !rowActions) return columns;
    const Actions = ({ data }: ICellRendererParams<T>) => {
      if (!data) return null;
      const name = rowName(data);
      const noEdit = editBlocked?.(data) ?? null;
      const noDelete = deleteBlocked?.(data) ?? null;
      return (
        <Group gap={4} wrap="nowrap" h="100%" align="center">
          {rowActions?.(data)}
          {onEdit && !noEdit && (
            <Tooltip label="Edit">
              <ActionIcon size="sm" variant="subtle" aria-label={`Edit ${name}`} onClick={() => onEdit(data)}>
                <IconPencil size={15} />
              </ActionIcon>
            </Tooltip>
          )}
          {onDelete && !noDelete && (
            <Tooltip label="Delete">
              <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Delete ${name}`} onClick={() => onDelete(data)}>
                <IconTrash size={15} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      );
    };
    return [
      ...columns,
      {
        headerName: 'Actions',
        colId: 'actions',
        width: (onEdit && onDelete ? 96 : 80) + (rowActions ? rowActionsWidth : 0),
        pinned: 'right',
        sortable: false,
        resizable: false,
        cellStyle: { display: 'flex', alignItems: 'center' },
        cellRenderer: Actions,
      },
    ];
  }, [columns, onEdit, onDelete, rowActions, rowActionsWidth, editBlocked, deleteBlocked, rowName]);

  return (
    <Paper withBorder style={{ height }} aria-label={label} role="region">
      <AgGridReact<T>
        theme={deskGridTheme}
        rowData={rows as T[] | null}
        columnDefs={columnDefs}
        getRowId={(p) => getRowId(p.data)}
        defaultColDef={{ sortable: true, resizable: true }}
        loading={rows === null}
        overlayNoRowsTemplate={`<span>${escapeHtml(emptyText)}</span>`}
        enableCellTextSelection
        animateRows={false}
      />
    </Paper>
  );
}

/** The grid's overlay is HTML: the text goes in escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
