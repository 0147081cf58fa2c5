import type { ExecutionReport } from '@fixdesk/protocol';
import type { GetRowIdParams } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo } from 'react';
import { EXECUTION_COLUMNS } from './executionColumns';
import { deskGridTheme } from '../../components/grid/gridTheme';
import { toColDefs } from '../../components/grid/columns';
import { useDisplayZone } from '../../components/time/displayZone';

function NoExecutions() {
  return (
    <div className="fd-grid-empty" data-testid="executions-empty">
      <b>No execution reports yet</b>
      <span>Select an order above to see its execution reports...</span>
    </div>
  );
}

const getRowId = (p: GetRowIdParams<ExecutionReport>) => String(p.data.id);

/** The selected order's execution reports, oldest first (spec 000 §2). */
export function ExecutionsGrid({ reports, loading }: { reports: readonly ExecutionReport[]; loading: boolean }) {
  const columnDefs = useMemo(() => toColDefs(EXECUTION_COLUMNS), []);
  const rowData = useMemo(() => [...reports], [reports]);
  // A new zone redraws the (small) grid: its times and its header name the zone.
  const zone = useDisplayZone();
  return (
    <AgGridReact<ExecutionReport>
      key={zone}
      theme={deskGridTheme}
      columnDefs={columnDefs}
      rowData={rowData}
      getRowId={getRowId}
      loading={loading}
      noRowsOverlayComponent={NoExecutions}
      suppressCellFocus={false}
      enableCellTextSelection
      animateRows={false}
    />
  );
}
