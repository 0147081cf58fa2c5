import '../../components/grid/desk-grid.css';
import { ordStatusLabel } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import type { GridApi } from 'ag-grid-community';
import { ActionIcon, Alert, Box, Button, Checkbox, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import {
  IconAlertCircle,
  IconLayoutSidebarRightCollapse,
  IconLayoutSidebarRightExpand,
  IconRefresh,
  IconSearch,
} from '@tabler/icons-react';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ComponentProps } from 'react';
import { useLocation } from 'react-router';
import { chromeFor } from '../../app/chrome';
import { useDesktopShell } from '../../app/desktopShell';
import { isRegisteredPath } from '../../app/routes';
import { useAuth } from '../../services/auth/AuthProvider';
import { LiveConnectionNotice } from '../../services/live/LiveConnectionNotice';
import { live } from '../../services/live/live';
import { useLiveHold, useLiveSelect } from '../../services/live/useLive';
import { ordersApi } from '../../services/orders/http';
import { useNewOrderAlerts } from '../../services/orders/newOrderAlerts';
import { fetchOrderSnapshot } from '../../services/orders/snapshot';
import type { OrderBook } from '../../services/orders/orderBook';
import {
  useBookCount,
  useBookExecutionReports,
  useBookOrder,
  useBookStatus,
  useOrderBookFeed,
  useOrderBookInstance,
  useWorkingOrderCount,
} from '../../services/orders/useOrderBook';
import { useClientConnectors, useLatestPrices } from '../../services/orders/useDeskReference';
import { useOrderActions } from '../../services/orders/useOrderActions';
import { offlineTradeBlock, useRoleTradeBlock, useTradeBlock } from '../../services/orders/tradeAccess';
import { KillSwitchModal, type KillSwitchTarget } from '../../components/kill-switch/KillSwitchModal';
import { KillSwitchMenuItems, StoppedMark } from './KillSwitchParts';
import panes from '../../components/layout/SplitPanes.module.css';
import classes from './Blotter.module.css';
import type { BlotterCellActions } from './blotterContext';
import { BlotterHeader } from './BlotterHeader';
import { useChunk, type Chunk } from '../../components/lazy/useChunk';
import { loadExecutionsGrid, loadOrdersGrid, usePaintedAfter } from './gridChunks';
import { BlotterLayout } from './BlotterLayout';
import { FILL_FOCUS_ID } from '../../components/order-info/FillPanel';
import { OrderInfoPanel } from '../../components/order-info/OrderInfoPanel';
import { openAxesWindow, openOrderTab, openOrderWindow } from './windows';
import { columnLayoutKey } from './columnLayout';
import { FILTER_STATUSES, type OrderFilters } from './orderFilters';
import { ColumnChooser, ExportOrdersButton, PickFilter, ShortcutsHelp } from './OrdersToolbar';
import { runShortcut, SHORTCUT_TARGETS } from './shortcuts';
import type { OrderActions } from '../../services/orders/useOrderActions';

const NAV_HEIGHT = { main: 52, compact: 60, none: 0 } as const;

function GridLoading({ chunk }: { chunk: Chunk<unknown> }) {
  if (chunk.status === 'error') {
    return (
      <Text fz="sm" c="red" p="md">
        The grid could not be loaded: {chunk.error}
      </Text>
    );
  }
  return (
    <Group justify="center" p="md">
      <Loader size="xs" type="dots" />
    </Group>
  );
}

/** The rows the grid shows after the filters: told by the grid, read by the title alone (no page re-render). */
class ShownCount {
  private value: number | null = null;
  private readonly listeners = new Set<() => void>();
  readonly get = () => this.value;
  readonly set = (n: number | null) => {
    if (n === this.value) return;
    this.value = n;
    for (const l of this.listeners) l();
  };
  readonly subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}

const STATUS_OPTIONS = FILTER_STATUSES.map((code) => ({ value: code, label: ordStatusLabel(code) }));

/** The only part of the page that changes with every batch of updates: the count ("shown of all" while filtered). */
function OrdersTitle({
  book,
  loadingMore,
  shown,
  filtered,
}: {
  book: OrderBook;
  loadingMore: boolean;
  shown: ShownCount;
  filtered: boolean;
}) {
  const count = useBookCount(book);
  const shownCount = useSyncExternalStore(shown.subscribe, shown.get);
  return (
    <span data-testid="orders-title" data-total={count} data-shown={filtered && shownCount !== null ? shownCount : count}>
      Orders ({filtered && shownCount !== null ? `${shownCount} of ${count}` : count})
      {loadingMore && (
        <Text span fz={11} c="dimmed" tt="none" fw={500} ml={6}>
          loading…
        </Text>
      )}
    </span>
  );
}

/** The header with the live parts (connection dot, users online) it alone re-renders for. */
function LiveBlotterHeader(props: Omit<ComponentProps<typeof BlotterHeader>, 'liveStatus' | 'connectedUsers' | 'activeUsers'>) {
  const liveStatus = useLiveSelect((s) => s.status);
  const connectedUsers = useLiveSelect((s) => s.connectedUsers);
  const activeUsers = useLiveSelect((s) => s.activeUsers);
  return <BlotterHeader {...props} liveStatus={liveStatus} connectedUsers={connectedUsers} activeUsers={activeUsers} />;
}

function LiveNotice() {
  const state = useLiveSelect((s) => s);
  return <LiveConnectionNotice state={state} onRetry={live.retry} />;
}

/** The blotter (spec 000 §2): live orders, the selected order's executions and its Order Info panel. */
export default function BlotterPage() {
  const { user } = useAuth();
  // Only the parts this screen needs: the users-online heartbeat re-renders the header, not the desk.
  useLiveHold();
  const liveStatus = useLiveSelect((s) => s.status);
  const liveSession = useLiveSelect((s) => s.session);
  const ordersGrid = useChunk(loadOrdersGrid);
  const executionsGrid = useChunk(loadExecutionsGrid);
  const book = useOrderBookInstance();
  useOrderBookFeed(book, { status: liveStatus, session: liveSession }, fetchOrderSnapshot);
  const view = useBookStatus(book);
  const connectors = useClientConnectors();
  const latest = useLatestPrices();
  const referenceErrors = useMemo(() => [connectors.error, latest.error], [connectors.error, latest.error]);
  const rawActions = useOrderActions(book);
  const tradeBlock = useTradeBlock();
  const desktop = useDesktopShell();
  const { pathname } = useLocation();
  const pageHeight = `calc(100dvh - ${NAV_HEIGHT[chromeFor(pathname, desktop).topNav]}px)`;

  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = useBookOrder(book, selectedId);
  const reports = useBookExecutionReports(book, selectedId);
  const [detailError, setDetailError] = useState<string | null>(null);
  const [showRefused, setShowRefused] = useState(true);
  const [workingOnly, setWorkingOnly] = useState(false);
  const [quickFilter, setQuickFilter] = useState('');
  const [clients, setClients] = useState<string[]>([]);
  const [statuses, setStatuses] = useState<string[]>([]);
  // Typing stays responsive with 50,000 rows: the grid filters with the deferred text.
  const deferredFilter = useDeferredValue(quickFilter);
  const filters = useMemo<OrderFilters>(
    () => ({ hideRefused: !showRefused, workingOnly, text: deferredFilter.trim().toLowerCase(), clients, statuses }),
    [showRefused, workingOnly, deferredFilter, clients, statuses],
  );
  const filtered = !showRefused || workingOnly || deferredFilter.trim() !== '' || clients.length > 0 || statuses.length > 0;
  const [shownCount] = useState(() => new ShownCount());
  const [gridApi, setGridApi] = useState<GridApi<Order> | null>(null);
  const gridApiRef = useRef<GridApi<Order> | null>(null);
  const infoRef = useRef<HTMLDivElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  // The Order Info panel folded away (the grids take the full width), remembered per user.
  const infoKey = `fixdesk.blotter.${user?.username ?? 'anonymous'}.infoCollapsed`;
  const [infoCollapsed, setInfoCollapsedState] = useState(() => {
    try {
      return window.localStorage.getItem(infoKey) === '1';
    } catch {
      return false;
    }
  });
  const setInfoCollapsed = useCallback(
    (collapsed: boolean) => {
      setInfoCollapsedState(collapsed);
      try {
        window.localStorage.setItem(infoKey, collapsed ? '1' : '0');
      } catch {
        // Not remembered.
      }
    },
    [infoKey],
  );
  const infoCollapsedRef = useRef(infoCollapsed);
  infoCollapsedRef.current = infoCollapsed;

  /** Keyboard focus back on an order's row (after an action, or Escape from the Order Info panel). */
  const focusRow = useCallback((id: number) => {
    const api = gridApiRef.current;
    const node = api?.getRowNode(String(id));
    const column = api?.getAllDisplayedColumns()[0];
    if (!api || api.isDestroyed() || !node || node.rowIndex === null || !column) return;
    api.ensureIndexVisible(node.rowIndex);
    api.setFocusedCell(node.rowIndex, column);
  }, []);

  // Every action, from a button or a shortcut, ends with the keyboard back on the order's row, unless
  // the broker has moved on meanwhile (F pressed while the accept was on its way keeps the fill form).
  const actions = useMemo<OrderActions>(() => {
    const back =
      <A extends unknown[], R>(call: (id: number, ...rest: A) => Promise<R>) =>
      (id: number, ...rest: A) => {
        const focusedAtStart = document.activeElement;
        return call(id, ...rest).then((answer) => {
          requestAnimationFrame(() => {
            const now = document.activeElement;
            if (now === focusedAtStart || now === null || now === document.body || !now.isConnected) focusRow(id);
          });
          return answer;
        });
      };
    return {
      accept: back(rawActions.accept),
      reject: back(rawActions.reject),
      fill: back(rawActions.fill),
      doneForDay: back(rawActions.doneForDay),
      cancel: back(rawActions.cancel),
      decide: back(rawActions.decide),
    };
  }, [rawActions, focusRow]);

  const onShortcut = useCallback(
    (key: string, order: Order) => {
      if (key === '?') {
        setHelpOpen(true);
        return true;
      }
      const target = SHORTCUT_TARGETS[key];
      if (!target) return false;
      const run = () =>
        runShortcut(infoRef.current?.querySelector('[data-testid="order-info"]') ?? null, order.brokerorderid, target, qtyRef.current);
      if (!infoCollapsedRef.current) return run();
      // The panel folded away opens first: the control acted on is then in sight.
      setInfoCollapsed(false);
      window.setTimeout(run, 0);
      return true;
    },
    [setInfoCollapsed],
  );
  const layoutKey = user ? columnLayoutKey(user.user_id) : null;
  const clientOptions = useMemo(
    () => connectors.data.map((c) => ({ value: c.comp_id, label: c.client_name || c.comp_id })),
    [connectors.data],
  );
  // The kill switch: the stopped clients, and the one the confirmation is open for.
  const stops = useMemo(
    () => new Map(connectors.data.flatMap((c) => (c.trading_stop ? [[c.comp_id, c.trading_stop] as const] : []))),
    [connectors.data],
  );
  const roleBlock = useRoleTradeBlock();
  const [killTarget, setKillTarget] = useState<KillSwitchTarget | null>(null);
  const closeKillSwitch = useCallback(() => setKillTarget(null), []);
  const killWorking = useWorkingOrderCount(book, killTarget?.mode === 'stop' ? killTarget.compId : null);
  const qtyRef = useRef<HTMLInputElement>(null);

  const select = useCallback((order: Order) => {
    // An order refused at intake has no broker order id: it is a record, selected by its id.
    if (!order.brokerorderid && !order.refusal) {
      // Spec 000 §2: rows without a broker order id are ignored with a warning.
      console.warn('Blotter: ignored a row without a broker order id', order);
      return;
    }
    setSelectedId(order.id);
  }, []);

  const alerts = useNewOrderAlerts(user?.username ?? null, select);

  // Selecting a row loads its legs, parties and execution reports.
  useEffect(() => {
    if (selectedId === null) return;
    const abort = new AbortController();
    setDetailError(null);
    ordersApi
      .get(selectedId, abort.signal)
      .then((full) => {
        if (full) book.applyOrderDetail(full);
        else setDetailError('The server no longer knows this order.');
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setDetailError(error instanceof Error ? error.message : String(error));
      });
    return () => abort.abort();
  }, [book, selectedId]);

  const cellActions = useMemo<Pick<BlotterCellActions, 'accept'>>(
    () => ({
      accept: (order) => {
        // Failures are shown by useOrderActions; the button simply returns to Accept.
        actions.accept(order.id).catch(() => undefined);
      },
    }),
    [actions],
  );

  // The order detail page: its own window in the desktop shell, a new tab in a browser.
  const openOrder = useCallback(
    (order: Order) => {
      const ref = order.brokerorderid || String(order.id);
      if (desktop) openOrderWindow(ref);
      else openOrderTab(ref);
    },
    [desktop],
  );

  const focusFillForm = useCallback(() => {
    const target = qtyRef.current ?? document.getElementById(FILL_FOCUS_ID);
    target?.focus();
  }, []);

  const firstName = user?.first_name || user?.username || '';
  const axesAvailable = isRegisteredPath('/axes');

  // Each step of bringing the desk up is a render and a task of its own: the page's first render
  // (header and loading state), then the hidden desk, then (after a paint) the Orders grid's
  // creation, then the Executions grid's, then the first orders, then the reveal. Together they
  // were one long task.
  const deskMounted = useDeferredValue(true, false);
  const deskPainted = usePaintedAfter(deskMounted);
  const [ordersGridUp, setOrdersGridUp] = useState(false);
  const onOrdersGridReady = useCallback((api: GridApi<Order>) => {
    window.setTimeout(() => {
      setOrdersGridUp(true);
      gridApiRef.current = api;
      setGridApi(api);
    }, 0);
  }, []);
  const ready = useDeferredValue(view.status === 'ready') && deskMounted;

  let body;
  if (view.status === 'error') {
    body = (
      <Box className={classes.state}>
        <Alert color="red" icon={<IconAlertCircle />} title="Error Loading Orders" maw={520} data-testid="orders-error">
          <Stack gap={8}>
            <Text fz="sm">{view.error}</Text>
            <Group>
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconRefresh size={14} />}
                onClick={() => void book.load(fetchOrderSnapshot)}
              >
                Retry
              </Button>
            </Group>
          </Stack>
        </Alert>
      </Box>
    );
  } else {
    // The desk is laid out (grids created) while the connection and the orders are still on the way,
    // hidden under the loading state: the grid's start-up then overlaps the network waits instead of
    // following them, and the first rows only have to be drawn once they arrive.
    body = (
      <div className={classes.body}>
        <div className={classes.desk} data-hidden={!ready || undefined} aria-hidden={!ready || undefined} inert={!ready}>
          {deskMounted && (
            <BlotterLayout
              userKey={user?.username ?? 'anonymous'}
              infoCollapsed={infoCollapsed}
              orders={
                <div className={panes.pane} data-testid="orders-pane">
                  <div className={panes.paneTitle}>
                    <OrdersTitle book={book} loadingMore={view.loadingMore} shown={shownCount} filtered={filtered} />
                    <TextInput
                      size="xs"
                      ml="auto"
                      style={{ flex: '0 1 200px', minWidth: 100 }}
                      placeholder="Filter: client, symbol, id"
                      aria-label="Quick filter"
                      leftSection={<IconSearch size={12} />}
                      value={quickFilter}
                      onChange={(e) => setQuickFilter(e.currentTarget.value)}
                      data-testid="quick-filter"
                      styles={{ input: { textTransform: 'none', fontWeight: 400, height: 22, minHeight: 22 } }}
                    />
                    <Checkbox
                      size="xs"
                      label="Working only"
                      checked={workingOnly}
                      onChange={(e) => setWorkingOnly(e.currentTarget.checked)}
                      data-testid="working-only"
                      styles={{ label: { fontSize: 11, textTransform: 'none', fontWeight: 500, paddingLeft: 6 } }}
                    />
                    <PickFilter
                      label="Client"
                      options={clientOptions}
                      value={clients}
                      onChange={setClients}
                      testId="client-filter"
                      mark={(compId) => {
                        const stop = stops.get(compId);
                        return stop ? <StoppedMark compId={compId} stop={stop} /> : null;
                      }}
                    >
                      {/* The kill switch: brokers and administrators only (the server refuses anyone else). */}
                      {roleBlock === null && (
                        <KillSwitchMenuItems
                          clients={clientOptions}
                          stops={stops}
                          disabledReason={offlineTradeBlock(liveStatus)}
                          onOpen={setKillTarget}
                        />
                      )}
                    </PickFilter>
                    <PickFilter label="Status" options={STATUS_OPTIONS} value={statuses} onChange={setStatuses} testId="status-filter" />
                    <Checkbox
                      size="xs"
                      label="Show refused at intake"
                      checked={showRefused}
                      onChange={(e) => setShowRefused(e.currentTarget.checked)}
                      data-testid="show-refused"
                      styles={{ label: { fontSize: 11, textTransform: 'none', fontWeight: 500, paddingLeft: 6 } }}
                    />
                    {view.error && (
                      <Text span fz={11} c="orange.8" tt="none" fw={500}>
                        Order list incomplete: {view.error}
                      </Text>
                    )}
                    <ColumnChooser api={gridApi} layoutKey={layoutKey} />
                    <ExportOrdersButton api={gridApi} />
                    <ShortcutsHelp opened={helpOpen} onChange={setHelpOpen} />
                    <ActionIcon
                      size={22}
                      variant={infoCollapsed ? 'light' : 'default'}
                      onClick={() => setInfoCollapsed(!infoCollapsed)}
                      aria-label={infoCollapsed ? 'Show Order Info' : 'Hide Order Info'}
                      title={infoCollapsed ? 'Show the Order Info panel' : 'Hide the Order Info panel: the grids take the full width'}
                      data-testid="info-toggle"
                      aria-expanded={!infoCollapsed}
                    >
                      {infoCollapsed ? <IconLayoutSidebarRightExpand size={14} /> : <IconLayoutSidebarRightCollapse size={14} />}
                    </ActionIcon>
                  </div>
                  <div className={panes.gridBox} data-testid="orders-grid">
                    {ordersGrid.status === 'ready' && deskPainted ? (
                      <ordersGrid.module.OrdersGrid
                        book={book}
                        selectedId={selectedId}
                        onSelect={select}
                        onEnter={focusFillForm}
                        onReady={onOrdersGridReady}
                        cellActions={cellActions}
                        filters={filters}
                        layoutKey={layoutKey}
                        onShownCount={shownCount.set}
                        onShortcut={onShortcut}
                        tradeBlock={tradeBlock}
                        onOpen={openOrder}
                      />
                    ) : (
                      <GridLoading chunk={ordersGrid} />
                    )}
                  </div>
                </div>
              }
              executions={
                <div className={panes.pane} data-testid="executions-pane">
                  <div className={panes.paneTitle}>
                    <span data-testid="executions-title">Executions ({reports?.length ?? 0})</span>
                    {selected && (
                      <span style={{ fontWeight: 500, textTransform: 'none' }}>
                        {selected.brokerorderid || (selected.refusal ? `refused #${selected.id}` : '')}
                      </span>
                    )}
                  </div>
                  <div className={panes.gridBox} data-testid="executions-grid">
                    {executionsGrid.status === 'ready' && ordersGridUp ? (
                      <executionsGrid.module.ExecutionsGrid
                        reports={reports ?? []}
                        loading={selectedId !== null && reports === null && detailError === null}
                      />
                    ) : (
                      <GridLoading chunk={executionsGrid} />
                    )}
                  </div>
                </div>
              }
              info={
                <div
                  className={panes.pane}
                  data-testid="order-info-pane"
                  ref={infoRef}
                  onKeyDown={(e) => {
                    // Escape leaves the panel for the order's row (not when it closes a dialog or a menu).
                    if (e.key !== 'Escape' || e.defaultPrevented || selectedId === null) return;
                    if ((e.target as Element).closest('[role="dialog"], [role="menu"], [role="listbox"]')) return;
                    focusRow(selectedId);
                  }}
                >
                  {selected ? (
                    <>
                      {detailError && (
                        <Alert color="orange" p={6} radius={0}>
                          <Text fz="xs">Could not load the order's details: {detailError}</Text>
                        </Alert>
                      )}
                      <OrderInfoPanel
                        key={selected.id}
                        order={selected}
                        actions={actions}
                        latestPrices={latest.data}
                        connectors={connectors.data}
                        executionCount={reports?.length}
                        // Spec 000 §2, §6: the pop-out button appears only in the desktop shell.
                        onPopOut={desktop ? () => openOrder(selected) : undefined}
                        qtyRef={qtyRef}
                      />
                    </>
                  ) : (
                    <div className={panes.emptyInfo} data-testid="order-info-empty">
                      <Text fw={700} c="gray.7">
                        Select an order
                      </Text>
                      <Text fz="sm">Click on an order to view details and add fills.</Text>
                    </div>
                  )}
                </div>
              }
            />
          )}
        </div>
        {!ready && view.status !== 'idle' && (
          <Box className={classes.stateOver}>
            <Group gap="sm" data-testid="orders-loading">
              <Loader size="sm" />
              <Text fz="sm" c="dimmed">
                Loading Orders...
              </Text>
            </Group>
          </Box>
        )}
        {!ready && view.status === 'idle' && (
          <Box className={classes.stateOver}>
            <Stack gap={6} align="center" data-testid="blotter-not-ready">
              <Loader size="sm" type="dots" />
              <Text fw={600}>Initializing Order Management System</Text>
              <Text fz="sm" c="dimmed">
                WebSocket Connection: {liveStatus === 'connected' ? 'Connected' : 'Connecting...'}
              </Text>
            </Stack>
          </Box>
        )}
      </div>
    );
  }

  return (
    <Box className={panes.page} style={{ height: pageHeight }} data-testid="blotter">
      <LiveBlotterHeader
        firstName={firstName}
        connectors={connectors.data}
        referenceErrors={referenceErrors}
        onOpenAxes={axesAvailable ? openAxesWindow : undefined}
        alerts={alerts}
      />
      {/* Over the desk, not above it: the grids do not move when the connection drops or comes back. */}
      <div className={classes.liveNotice}>
        <LiveNotice />
      </div>
      {body}
      <KillSwitchModal target={killTarget} workingCount={killWorking} onClose={closeKillSwitch} />
    </Box>
  );
}
