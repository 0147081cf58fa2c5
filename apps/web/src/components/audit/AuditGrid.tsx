import { Box } from '@mantine/core';
import type { ColDef, GetRowIdParams, GridApi } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import type { ComponentType, CSSProperties } from 'react';
import { columnsGivingWay } from '../grid/columns';
import { deskGridTheme } from '../grid/gridTheme';
import { AuditError, AuditLoading } from './AuditStates';

/** Where an audit screen's rows stand: loading, failed with a reason, or ready. */
/** Room kept for the grid's vertical scrollbar and borders when deciding what fits. */
const SCROLLBAR_ALLOWANCE = 18;

/** Shows the columns that fit `width` and hides those that give way (columns.ts giveWay); tells which. */
function fitColumns<T>(api: GridApi<T>, defs: readonly ColDef<T>[], width: number, onHidden?: (ids: string[]) => void): void {
  if (api.isDestroyed() || width <= 0) return;
  const hidden = columnsGivingWay(defs, width - SCROLLBAR_ALLOWANCE);
  const shown = defs.map((d) => d.colId!).filter((id) => !hidden.includes(id));
  api.setColumnsVisible(shown, true);
  if (hidden.length) api.setColumnsVisible(hidden, false);
  onHidden?.(hidden);
}

export type AuditLoad = { readonly state: 'loading' } | { readonly state: 'error'; readonly text: string } | { readonly state: 'ready' };

/**
 * An audit screen's table where its rows will be: the loading note, 'Error Loading …' with Retry, or
 * the grid in its frame (the same grid settings on both Compliance screens).
 */
export function AuditGrid<T>(props: {
  load: AuditLoad;
  loadingLabel: string;
  errorTitle: string;
  onRetry: () => void;
  /** Prefix of the test ids: `{testId}-loading`, `{testId}-error`, `{testId}-grid`. */
  testId: string;
  columnDefs: ColDef<T>[];
  rows: T[];
  getRowId: (p: GetRowIdParams<T>) => string;
  noRows: ComponentType;
  /** How the grid's frame sits in its parent. */
  frameStyle: CSSProperties;
  /** Told which columns gave way to the grid's width (none when all fit). */
  onHiddenColumns?: (ids: string[]) => void;
}) {
  const { load, testId } = props;
  if (load.state === 'loading') return <AuditLoading label={props.loadingLabel} testId={`${testId}-loading`} />;
  if (load.state === 'error')
    return <AuditError title={props.errorTitle} text={load.text} onRetry={props.onRetry} testId={`${testId}-error`} />;
  return (
    <Box
      style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4, overflow: 'hidden', ...props.frameStyle }}
      data-testid={`${testId}-grid`}
    >
      <AgGridReact<T>
        theme={deskGridTheme}
        columnDefs={props.columnDefs}
        rowData={props.rows}
        getRowId={props.getRowId}
        noRowsOverlayComponent={props.noRows}
        enableCellTextSelection
        animateRows={false}
        suppressCellFocus
        suppressColumnVirtualisation
        onGridSizeChanged={(e) => fitColumns(e.api, props.columnDefs, e.clientWidth, props.onHiddenColumns)}
      />
    </Box>
  );
}
