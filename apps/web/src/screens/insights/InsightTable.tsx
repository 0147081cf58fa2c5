import { AgGridReact } from 'ag-grid-react';
import { useMemo } from 'react';
import { toColDefs } from '../../components/grid/columns';
import { deskGridTheme } from '../../components/grid/gridTheme';
import type { ChartView } from './charts/chartParts';

/**
 * A chart's figures as a table (AG Grid), for keyboard and screen-reader users. In a chunk of its own,
 * loaded when a panel first shows its table: the grid library is not on the screen's way to its charts.
 */
export default function InsightTable<R>({ view }: { view: ChartView<R> }) {
  const colDefs = useMemo(() => toColDefs(view.columns), [view]);
  return (
    <AgGridReact<R>
      theme={deskGridTheme}
      columnDefs={colDefs}
      rowData={view.rows}
      animateRows={false}
      enableCellTextSelection
      ensureDomOrder
      suppressColumnVirtualisation
      overlayNoRowsTemplate="No figures in this range"
    />
  );
}
