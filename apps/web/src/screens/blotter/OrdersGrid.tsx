import type { Order } from '@fixdesk/protocol';
import type { CellFocusedEvent, CellKeyDownEvent, GetRowIdParams, GridApi, GridReadyEvent, RowClassParams, RowSelectedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import type { OrderBook } from '../../services/orders/orderBook';
import { blotterMetrics } from '../../services/orders/blotterMetrics';
import { deskGridTheme } from './gridTheme';
import { ORDER_COLUMNS, toColDefs } from './orderColumns';

function NoOrders() {
  return (
    <div className="fd-grid-empty" data-testid="orders-empty">
      <b>No orders yet</b>
      <span>Waiting for order updates from the WebSocket server...</span>
    </div>
  );
}

const getRowId = (p: GetRowIdParams<Order>) => String(p.data.id);
// Stable objects: a new object on a re-render would make AG Grid re-apply the option.
const ROW_SELECTION = { mode: 'singleRow', checkboxes: false, enableClickSelection: true } as const;
const DEFAULT_COL_DEF = { floatingFilter: false };
const getRowClass = (p: RowClassParams<Order>) => (p.data?.side === '1' ? 'fd-row-buy' : p.data?.side === '2' ? 'fd-row-sell' : undefined);

export interface OrdersGridProps {
  book: OrderBook;
  selectedId: number | null;
  onSelect: (order: Order) => void;
  /** Enter on a row: move to the fill form. */
  onEnter: () => void;
  onReady?: (api: GridApi<Order>) => void;
}

/**
 * The Orders grid. Rows come from the order book: the first snapshot as rowData, then each batched
 * delta as one AG Grid async transaction, so a burst of live messages costs one grid update.
 */
export const OrdersGrid = memo(function OrdersGrid({ book, selectedId, onSelect, onEnter, onReady }: OrdersGridProps) {
  const apiRef = useRef<GridApi<Order> | null>(null);
  const columnDefs = useMemo(() => toColDefs(ORDER_COLUMNS), []);
  const selectedRef = useRef(selectedId);
  useEffect(() => {
    selectedRef.current = selectedId;
  });

  useEffect(() => {
    const off = book.onDelta((delta) => {
      const api = apiRef.current;
      if (!api) return;
      if (delta.reset) {
        blotterMetrics.time('grid:setRowData', () => api.setGridOption('rowData', book.getOrders()));
        blotterMetrics.snapshotApplied();
        return;
      }
      if (delta.add.length === 0 && delta.update.length === 0 && delta.remove.length === 0) return;
      // The grid may have taken rows from getOrders() when it was created before this batch flushed.
      const add: Order[] = [];
      const update = [...delta.update];
      for (const order of delta.add) (api.getRowNode(String(order.id)) ? update : add).push(order);
      // The book already batches per animation frame, so the transaction is applied at once.
      blotterMetrics.time(`grid:transaction:${add.length}+${update.length}`, () =>
        api.applyTransaction({ add, update, remove: delta.remove.filter((o) => api.getRowNode(String(o.id))) }),
      );
      blotterMetrics.updatesApplied();
    });
    return () => {
      off();
    };
  }, [book]);

  // Keep the grid's selection in step with the screen's (a notification click, the detail page).
  useEffect(() => {
    const api = apiRef.current;
    if (!api || selectedId === null) return;
    const node = api.getRowNode(String(selectedId));
    if (node && !node.isSelected()) {
      node.setSelected(true, true);
      api.ensureNodeVisible(node);
    }
  }, [selectedId]);

  const onGridReady = useCallback(
    (event: GridReadyEvent<Order>) => {
      apiRef.current = event.api;
      event.api.setGridOption('rowData', book.getOrders());
      blotterMetrics.gridReady();
      if (book.getView().status === 'ready') blotterMetrics.snapshotApplied();
      onReady?.(event.api);
    },
    [book, onReady],
  );

  const onRowSelected = useCallback(
    (event: RowSelectedEvent<Order>) => {
      if (event.node.isSelected() && event.data) onSelect(event.data);
    },
    [onSelect],
  );

  // Arrow keys move the focused cell; the selection follows it (spec: arrow keys move the selection).
  const onCellFocused = useCallback((event: CellFocusedEvent<Order>) => {
    if (event.rowIndex === null || event.rowPinned) return;
    const node = event.api.getDisplayedRowAtIndex(event.rowIndex);
    if (node && !node.isSelected()) node.setSelected(true, true);
  }, []);

  const onCellKeyDown = useCallback(
    (event: CellKeyDownEvent<Order>) => {
      const key = (event.event as KeyboardEvent | null)?.key;
      if (key === 'Enter') {
        event.event?.preventDefault();
        onEnter();
      }
    },
    [onEnter],
  );

  return (
    <AgGridReact<Order>
      theme={deskGridTheme}
      columnDefs={columnDefs}
      defaultColDef={DEFAULT_COL_DEF}
      getRowId={getRowId}
      getRowClass={getRowClass}
      rowSelection={ROW_SELECTION}
      onGridReady={onGridReady}
      onRowSelected={onRowSelected}
      onCellFocused={onCellFocused}
      onCellKeyDown={onCellKeyDown}
      noRowsOverlayComponent={NoOrders}
      deltaSort
      // Fifteen columns: drawing them all keeps every cell in the DOM while scrolling sideways.
      suppressColumnVirtualisation
      suppressScrollOnNewData
      animateRows={false}
      enableCellTextSelection
      ensureDomOrder={false}
    />
  );
});
