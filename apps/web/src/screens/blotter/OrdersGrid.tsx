import type { Order } from '@fixdesk/protocol';
import { createGrid, type GetRowIdParams, type GridApi, type GridOptions, type RowClassParams } from 'ag-grid-community';
import { memo, useEffect, useRef } from 'react';
import type { OrderBook } from '../../services/orders/orderBook';
import { blotterMetrics } from '../../services/orders/blotterMetrics';
import type { BlotterCellActions } from './blotterContext';
import { deskGridTheme } from '../../components/grid/gridTheme';
import { toColDefs } from '../../components/grid/columns';
import { FIT_CONTENT_COLUMNS, ORDER_COLUMNS } from './orderColumns';
import { StatusCellRenderer } from './statusCell';
import { AgeCellRenderer } from './ageCell';
import { onZoneChange } from '../../components/time/displayZone';
import { anyOrderFilter, filtersFollowUpdates, passesOrderFilters, sameOrderFilters, type OrderFilters } from './orderFilters';
import { loadColumnLayout, saveColumnLayout } from './columnLayout';

/** Static markup, no data in it. */
const NO_ORDERS =
  '<div class="fd-grid-empty" data-testid="orders-empty"><b>No orders yet</b><span>Waiting for order updates from the WebSocket server...</span></div>';

const getRowId = (p: GetRowIdParams<Order>) => String(p.data.id);
// Stable objects: a new object on a re-render would make AG Grid re-apply the option.
const ROW_SELECTION = { mode: 'singleRow', checkboxes: false, enableClickSelection: true } as const;
/** Rows drawn above and below the visible ones, ready for scrolling (the grid's default). */
const ROW_BUFFER = 10;
const getRowClass = (p: RowClassParams<Order>) => (p.data?.side === '1' ? 'fd-row-buy' : p.data?.side === '2' ? 'fd-row-sell' : undefined);

/**
 * Runs `fn` in a task after the next frame has been painted (a task queued from requestAnimationFrame
 * runs after that paint), or after 100 ms where frames do not run (a hidden tab). Returns a cancel.
 */
function afterNextPaint(fn: () => void): () => void {
  let timer: number | undefined;
  const cancel = () => {
    cancelAnimationFrame(frame);
    window.clearTimeout(fallback);
    window.clearTimeout(timer);
  };
  const run = () => {
    cancel();
    fn();
  };
  const frame = requestAnimationFrame(() => {
    timer = window.setTimeout(run, 0);
  });
  const fallback = window.setTimeout(run, 100);
  return cancel;
}

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
/** The highest and lowest order ids in the grid, whatever sort the broker applied. */
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
 * With no sort in force, the rows' order is their position, which an update never changes; the grid
 * is then told to skip its row-model pass after an update-only transaction. That pass walks all rows
 * (sort, and re-positioning every one of the 50,000): at 1,000 updates a second it was most of the
 * main thread's time. A sort set by the broker needs it (an update may move a row), so the pass runs
 * again while one is in force. (Its one filter, refused orders hidden, cannot change with an update:
 * a refused order never changes.)
 */
/**
 * An update moves a row only when the view depends on what changes: a sort, or a filter whose
 * membership an update can change (working only, the quick text). Otherwise update-only
 * transactions skip the model pass (cheap with 50,000 rows).
 */
function matchModelUpdatesToView(api: GridApi<Order>, filters: OrderFilters): void {
  const ordered = api.getColumnState().some((c) => c.sort);
  api.setGridOption('suppressModelUpdateAfterUpdateTransaction', !ordered && !filtersFollowUpdates(filters));
}

function applyDelta(
  api: GridApi<Order>,
  book: OrderBook,
  range: { current: IdRange | null },
  added: Order[],
  update: Order[],
  removed: Order[],
): void {
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
  /** What the status cells' buttons do. */
  cellActions: Pick<BlotterCellActions, 'accept'>;
  /** Opens an order's detail page (a double-click on its row). */
  onOpen?: (order: Order) => void;
  /** Why the user cannot trade now (the status cells redraw when it changes). */
  tradeBlock?: string | null;
  /** The broker's filters (the quick text already trimmed and lower-case). */
  filters: OrderFilters;
  /** Where the broker's column layout is remembered (per user); null: not remembered. */
  layoutKey: string | null;
  /** The number of rows shown after the filters, each time it may have changed. */
  onShownCount?: (shown: number) => void;
  /** A shortcut key (lower case, or '?') pressed on a row; true when it was used. */
  onShortcut?: (key: string, order: Order) => boolean;
}

/**
 * The Orders grid. Rows come from the order book: the first snapshot as rowData, then each batched
 * delta as one AG Grid async transaction, so a burst of live messages costs one grid update.
 *
 * The grid is AG Grid's plain JavaScript grid, created in an effect, rather than the React wrapper:
 * the wrapper draws every header, row and cell as a React component, and with fifteen columns that
 * made creating the grid and drawing its first rows the longest tasks while the blotter loads.
 * The cells are plain DOM too (statusCell.ts).
 */
export const OrdersGrid = memo(function OrdersGrid({
  book,
  selectedId,
  onSelect,
  onEnter,
  onReady,
  cellActions,
  filters: filtersProp,
  layoutKey,
  onShownCount,
  onShortcut,
  tradeBlock = null,
  onOpen,
}: OrdersGridProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const apiRef = useRef<GridApi<Order> | null>(null);
  // The grid is created once; its handlers read the latest props.
  const props = useRef({ onSelect, onEnter, onReady, cellActions, tradeBlock, onOpen, onShownCount, onShortcut, layoutKey });
  useEffect(() => {
    props.current = { onSelect, onEnter, onReady, cellActions, tradeBlock, onOpen, onShownCount, onShortcut, layoutKey };
  });
  const filters = useRef<OrderFilters>(filtersProp);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    /** For the benchmark's "usable" time: a row is drawn and visible (not under the loading state). */
    const rowsShown = () => box.querySelector('.ag-row')?.checkVisibility({ visibilityProperty: true }) ?? false;
    const range: { current: IdRange | null } = { current: null };
    let restoring = false;
    let restoredLayout = false;
    const saveLayout = (api: GridApi<Order>) => {
      const key = props.current.layoutKey;
      if (key && !restoring) saveColumnLayout(key, api.getColumnState());
    };
    const context: BlotterCellActions = {
      accept: (order) => props.current.cellActions.accept(order),
      tradeBlock: () => props.current.tradeBlock,
    };
    const options: GridOptions<Order> = {
      theme: deskGridTheme,
      context,
      getRowId,
      getRowClass,
      // The column table names its cell renderers; they are plain DOM (statusCell.ts).
      components: { statusCell: StatusCellRenderer, ageCell: AgeCellRenderer },
      rowSelection: ROW_SELECTION,
      // No rows until the book's are drawn (an empty blotter shows the no-rows overlay, not the loading one).
      rowData: [],
      overlayNoRowsTemplate: NO_ORDERS,
      deltaSort: true,
      // Fifteen columns: drawing them all keeps every cell in the DOM while scrolling sideways.
      suppressColumnVirtualisation: true,
      // The first rows drawn are only the visible ones; the rows beyond them follow in a task of their
      // own once those are painted.
      rowBuffer: 0,
      onFirstDataRendered: (event) => {
        // Symbols and client names fit their content (the rows drawn), unless the broker set the widths:
        // in a task of its own after the first rows are painted (it measures the drawn cells).
        if (!restoredLayout) afterNextPaint(() => event.api.isDestroyed() || event.api.autoSizeColumns(FIT_CONTENT_COLUMNS));
        requestAnimationFrame(() =>
          window.setTimeout(() => event.api.isDestroyed() || event.api.setGridOption('rowBuffer', ROW_BUFFER), 0),
        );
      },
      suppressScrollOnNewData: true,
      animateRows: false,
      enableCellTextSelection: true,
      ensureDomOrder: false,
      onRowDoubleClicked: (event) => {
        // Not from the Accept button: a quick second click there is not a request to open the order.
        if ((event.event?.target as Element | null)?.closest('button')) return;
        if (event.data) props.current.onOpen?.(event.data);
      },
      onRowSelected: (event) => {
        if (event.node.isSelected() && event.data) props.current.onSelect(event.data);
      },
      // Arrow keys move the focused cell; the selection follows it (spec: arrow keys move the selection).
      onCellFocused: (event) => {
        if (event.rowIndex === null || event.rowPinned) return;
        const node = event.api.getDisplayedRowAtIndex(event.rowIndex);
        if (node && !node.isSelected()) node.setSelected(true, true);
      },
      onCellKeyDown: (event) => {
        const e = event.event as KeyboardEvent | null;
        if (!e || e.ctrlKey || e.metaKey || e.altKey) return;
        if (e.key === 'Enter') {
          // Enter on the row's own Accept button presses it; elsewhere on the row it moves to the form.
          if ((e.target as Element | null)?.closest('button')) return;
          e.preventDefault();
          props.current.onEnter();
          return;
        }
        const key = e.key === '?' ? '?' : e.key.toLowerCase();
        if (key.length === 1 && event.data && props.current.onShortcut?.(key, event.data)) e.preventDefault();
      },
      onSortChanged: (event) => {
        matchModelUpdatesToView(event.api, filters.current);
        saveLayout(event.api);
      },
      // The broker's column layout is remembered once a change is complete (not at every pixel of a drag).
      onColumnMoved: (event) => event.finished && event.source === 'uiColumnMoved' && saveLayout(event.api),
      onColumnResized: (event) => event.finished && event.source === 'uiColumnResized' && saveLayout(event.api),
      onColumnVisible: (event) => event.source === 'api' && saveLayout(event.api),
      onModelUpdated: (event) => props.current.onShownCount?.(event.api.getDisplayedRowCount()),
      // The header cells are reached by the mouse (sort, move, resize), not by Tab: Tab goes from the
      // filters into the rows.
      suppressHeaderFocus: true,
      // The broker's filters (see OrderFilters); none by default.
      isExternalFilterPresent: () => anyOrderFilter(filters.current),
      doesExternalFilterPass: (node) => (node.data ? passesOrderFilters(node.data, filters.current) : false),
    };
    // Four steps, each a task of its own (together they were one of the longest tasks while the
    // blotter loads): the grid itself, in a task of its own rather than in this effect (a
    // synchronous render, such as one for a live-state change, runs its effects inside its own task);
    // after a paint, its columns (the header: fifteen header cells); then the rows the book holds.
    // Live deltas are applied as transactions once the rows are in; until then the book keeps them and
    // the rows are drawn from it.
    let step: 'grid' | 'columns' | 'rows' | 'live' = 'grid';
    let timer: number | undefined;
    let cancelPaint = () => {};
    const showRows = (api: GridApi<Order>) => {
      step = 'live';
      blotterMetrics.time('grid:setRowData', () => api.setGridOption('rowData', newestFirst(book.getOrders())));
      range.current = idRange(api);
      if (book.getView().status === 'ready') blotterMetrics.snapshotApplied(rowsShown);
      blotterMetrics.updatesApplied();
    };
    /** The rows are (re)drawn from the book in a task of their own; the deltas until then are in the book. */
    const showRowsSoon = (api: GridApi<Order>) => {
      if (step === 'rows') return;
      step = 'rows';
      timer = window.setTimeout(() => showRows(api), 0);
    };
    const showColumns = (api: GridApi<Order>) => {
      blotterMetrics.time('grid:columns', () => api.setGridOption('columnDefs', toColDefs(ORDER_COLUMNS)));
      const key = props.current.layoutKey;
      const saved = key
        ? loadColumnLayout(
            key,
            ORDER_COLUMNS.map((c) => c.id),
          )
        : null;
      if (saved) {
        restoring = true;
        restoredLayout = true;
        api.applyColumnState({ state: saved, applyOrder: true });
        restoring = false;
      }
      matchModelUpdatesToView(api, filters.current);
      blotterMetrics.gridReady();
      props.current.onReady?.(api);
      if (book.getOrders().length === 0) step = 'live';
      else showRowsSoon(api);
    };
    timer = window.setTimeout(() => {
      const api = blotterMetrics.time('grid:create', () => createGrid(box, options));
      apiRef.current = api;
      step = 'columns';
      cancelPaint = afterNextPaint(() => showColumns(api));
    }, 0);
    const off = book.onDelta((delta) => {
      const api = apiRef.current;
      if (!api || step === 'grid' || step === 'columns') return;
      // The first snapshot (or a reset) arrives in the book's animation-frame flush: drawn there, its
      // rows and that frame's rendering were one task.
      if (delta.reset || step === 'rows') {
        showRowsSoon(api);
        return;
      }
      if (delta.add.length === 0 && delta.update.length === 0 && delta.remove.length === 0) return;
      blotterMetrics.time(`grid:transaction:${delta.add.length}+${delta.update.length}`, () =>
        applyDelta(api, book, range, delta.add, delta.update, delta.remove),
      );
      blotterMetrics.updatesApplied();
    });
    return () => {
      window.clearTimeout(timer);
      cancelPaint();
      off();
      apiRef.current?.destroy();
      apiRef.current = null;
    };
  }, [book]);

  // Another time zone chosen: the Received header and the drawn times follow (the rows stay).
  useEffect(
    () =>
      onZoneChange(() => {
        const api = apiRef.current;
        if (!api || api.isDestroyed()) return;
        api.refreshHeader();
        api.refreshCells({ columns: ['time'], force: true });
      }),
    [],
  );

  // The visible status cells redraw when the user may trade again (or no longer): a rare event.
  useEffect(() => {
    apiRef.current?.refreshCells({ columns: ['status'], force: true });
  }, [tradeBlock]);

  useEffect(() => {
    if (sameOrderFilters(filters.current, filtersProp)) return;
    filters.current = filtersProp;
    const api = apiRef.current;
    if (!api) return;
    matchModelUpdatesToView(api, filtersProp);
    api.onFilterChanged();
  }, [filtersProp]);

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

  return <div ref={boxRef} style={{ height: '100%' }} />;
});
