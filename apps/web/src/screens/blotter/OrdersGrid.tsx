import type { Order } from '@fixdesk/protocol';
import type { CellFocusedEvent, CellKeyDownEvent, GetRowIdParams, GridApi, GridReadyEvent, RowClassParams, RowSelectedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
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
/** Rows drawn above and below the visible ones, ready for scrolling (the grid's default). */
const ROW_BUFFER = 10;
const getRowClass = (p: RowClassParams<Order>) => (p.data?.side === '1' ? 'fd-row-buy' : p.data?.side === '2' ? 'fd-row-sell' : undefined);

const byIdDesc = (a: Order, b: Order) => b.id - a.id;
function newestFirst(orders: Order[]): Order[] {
  return orders.sort(byIdDesc);
}

/**
 * Applies one batch of the book's changes. The rows are kept in id-descending order by position
 * rather than by a grid sort model: an update then costs the grid nothing but the changed rows
 * (with a sort model every transaction re-merges all 50,000). New orders go on top, the older
 * orders of a snapshot still arriving go at the bottom; anything else (a reload after a reconnect
 * filling a gap) re-lays the rows in order, which the grid does keeping its row nodes.
 */
/** The highest and lowest order ids in the grid, whatever sort or filter the broker applied. */
interface IdRange {
  max: number;
  min: number;
}

function idRange(api: GridApi<Order>): IdRange | null {
  let max = Number.NEGATIVE_INFINITY;
  let min = Number.POSITIVE_INFINITY;
  api.forEachNode((node) => {
    const id = node.data?.id;
    if (id === undefined) return;
    if (id > max) max = id;
    if (id < min) min = id;
  });
  return max === Number.NEGATIVE_INFINITY ? null : { max, min };
}

/**
 * With no sort and no filter in force, the rows' order is their position, which an update never
 * changes; the grid is then told to skip its row-model pass after an update-only transaction. That
 * pass walks all rows (filter, sort, and re-positioning every one of the 50,000): at 1,000 updates a
 * second it was most of the main thread's time. A sort or filter set by the broker needs it (an
 * update may move or hide a row), so the pass runs again while either is in force.
 */
function matchModelUpdatesToView(api: GridApi<Order>): void {
  const ordered = api.getColumnState().some((c) => c.sort);
  api.setGridOption('suppressModelUpdateAfterUpdateTransaction', !ordered && !api.isAnyFilterPresent());
}

function applyDelta(api: GridApi<Order>, book: OrderBook, range: { current: IdRange | null }, added: Order[], update: Order[], removed: Order[]): void {
  const add: Order[] = [];
  const changed = [...update];
  // The grid may have taken rows from getOrders() when it was created before this batch flushed.
  for (const order of added) (api.getRowNode(String(order.id)) ? changed : add).push(order);
  const remove = removed.filter((o) => api.getRowNode(String(o.id)));
  if (add.length === 0) {
    api.applyTransaction({ update: changed, remove });
    if (remove.length > 0) range.current = idRange(api);
    return;
  }
  add.sort(byIdDesc);
  const newest = add[0]!.id;
  const oldest = add[add.length - 1]!.id;
  const r = range.current;
  if (r === null || oldest > r.max) {
    api.applyTransaction({ add, addIndex: 0, update: changed, remove });
  } else if (newest < r.min) {
    api.applyTransaction({ add, update: changed, remove });
  } else {
    api.applyTransaction({ update: changed, remove });
    api.setGridOption('rowData', newestFirst(book.getOrders()));
  }
  range.current = remove.length > 0 ? idRange(api) : { max: Math.max(r?.max ?? newest, newest), min: Math.min(r?.min ?? oldest, oldest) };
}

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
  const boxRef = useRef<HTMLDivElement>(null);
  /** For the benchmark's "usable" time: a row is drawn and visible (not under the loading state). */
  const rowsShown = useCallback(() => boxRef.current?.querySelector('.ag-row')?.checkVisibility({ visibilityProperty: true }) ?? false, []);
  const rangeRef = useRef<IdRange | null>(null);
  const columnDefs = useMemo(() => toColDefs(ORDER_COLUMNS), []);
  // The first rows drawn are only the visible ones; the rows beyond them follow in a task of their own
  // once those are painted. Every row is fifteen React cells, and the first rows' render is one of the
  // longest tasks while the blotter loads (issue 5).
  const [rowBuffer, setRowBuffer] = useState(0);
  const onFirstDataRendered = useCallback(() => {
    requestAnimationFrame(() => window.setTimeout(() => setRowBuffer(ROW_BUFFER), 0));
  }, []);
  const selectedRef = useRef(selectedId);
  useEffect(() => {
    selectedRef.current = selectedId;
  });

  useEffect(() => {
    const off = book.onDelta((delta) => {
      const api = apiRef.current;
      if (!api) return;
      if (delta.reset) {
        blotterMetrics.time('grid:setRowData', () => api.setGridOption('rowData', newestFirst(book.getOrders())));
        rangeRef.current = idRange(api);
        blotterMetrics.snapshotApplied(rowsShown);
        return;
      }
      if (delta.add.length === 0 && delta.update.length === 0 && delta.remove.length === 0) return;
      blotterMetrics.time(`grid:transaction:${delta.add.length}+${delta.update.length}`, () => applyDelta(api, book, rangeRef, delta.add, delta.update, delta.remove));
      blotterMetrics.updatesApplied();
    });
    return () => {
      off();
    };
  }, [book, rowsShown]);

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
      event.api.setGridOption('rowData', newestFirst(book.getOrders()));
      rangeRef.current = idRange(event.api);
      matchModelUpdatesToView(event.api);
      blotterMetrics.gridReady();
      if (book.getView().status === 'ready') blotterMetrics.snapshotApplied(rowsShown);
      onReady?.(event.api);
    },
    [book, onReady, rowsShown],
  );

  const onViewChanged = useCallback((event: { api: GridApi<Order> }) => matchModelUpdatesToView(event.api), []);

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
    <div ref={boxRef} style={{ height: '100%' }}>
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
        onSortChanged={onViewChanged}
        onFilterChanged={onViewChanged}
        noRowsOverlayComponent={NoOrders}
        deltaSort
        // Fifteen columns: drawing them all keeps every cell in the DOM while scrolling sideways.
        suppressColumnVirtualisation
        rowBuffer={rowBuffer}
        onFirstDataRendered={onFirstDataRendered}
        suppressScrollOnNewData
        animateRows={false}
        enableCellTextSelection
        ensureDomOrder={false}
      />
    </div>
  );
});
