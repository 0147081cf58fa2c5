import type { Order } from '@fixdesk/protocol';
import type { CellFocusedEvent, CellKeyDownEvent, GetRowIdParams, GridApi, GridReadyEvent, RowClassParams, RowSelectedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { OrderBook } from '../../services/orders/orderBook';
import { blotterMetrics } from './blotterMetrics';
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
export function OrdersGrid({ book, selectedId, onSelect, onEnter, onReady }: OrdersGridProps) {
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
        api.setGridOption('rowData', book.getOrders());
        blotterMetrics.painted(null);
        return;
      }
      if (delta.add.length === 0 && delta.update.length === 0 && delta.remove.length === 0) return;
      const received = delta.firstReceivedAt;
      api.applyTransactionAsync({ add: delta.add, update: delta.update, remove: delta.remove }, () => blotterMetrics.painted(received));
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
      defaultColDef={{ suppressHeaderMenuButton: false, floatingFilter: false }}
      getRowId={getRowId}
      getRowClass={getRowClass}
      rowSelection={{ mode: 'singleRow', checkboxes: false, enableClickSelection: true }}
      onGridReady={onGridReady}
      onRowSelected={onRowSelected}
      onCellFocused={onCellFocused}
      onCellKeyDown={onCellKeyDown}
      noRowsOverlayComponent={NoOrders}
      asyncTransactionWaitMillis={16}
      suppressScrollOnNewData
      animateRows={false}
      enableCellTextSelection
      ensureDomOrder={false}
    />
  );
}
