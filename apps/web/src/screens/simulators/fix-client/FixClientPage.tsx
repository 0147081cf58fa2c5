import { clientOrdStatusLabel, SendErrorText } from '@fixdesk/domain';
import type { ClientExecution, ClientOrder } from '@fixdesk/protocol';
import {
  Alert,
  Badge,
  Box,
  Button,
  Collapse,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowsExchange,
  IconChevronDown,
  IconChevronRight,
  IconCircleCheck,
  IconEdit,
  IconPlus,
  IconX,
} from '@tabler/icons-react';
import type { GetRowIdParams, RowClassParams, RowClickedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Group as SplitGroup, Panel, Separator } from 'react-resizable-panels';
import { useLocation } from 'react-router';
import { chromeFor } from '../../../app/chrome';
import { useDesktopShell } from '../../../app/desktopShell';
import { ApiError } from '@fixdesk/client';
import { LiveConnectionNotice } from '../../../services/live/LiveConnectionNotice';
import { useLiveConnection } from '../../../services/live/useLive';
import { executionsOf } from '../../../services/simulators/clientBlotterState';
import { simulatorApi } from '../../../services/simulators/http';
import {
  useClientBlotter,
  useConnectors,
  useSecurities,
  useSelectedConnector,
  useTestClient,
} from '../../../services/simulators/useSimulators';
import panes from '../../../components/layout/SplitPanes.module.css';
import '../../../components/grid/desk-grid.css';
import { deskGridTheme, legsGridTheme } from '../../../components/grid/gridTheme';
import { toColDefs } from '../../../components/grid/columns';
import { connectorLabel, ConnectorLogo, FixClientControl } from '../shared/ConnectorParts';
import { OrderEntry, SUCCESS_BANNER_MS } from '../shared/OrderEntry';
import {
  CLIENT_EXECUTION_COLUMNS,
  CLIENT_LEG_COLUMNS,
  CLIENT_ORDER_COLUMNS,
  partyRoleLabel,
  partySourceLabel,
  type LegRow,
} from './clientColumns';
import { PartiesTable } from '../../../components/orders/PartiesTable';
import { ReferenceLoadNotice } from '../../../components/reference/ReferenceLoadNotice';

/** The browser key under which the selected client connector's id is kept (spec 001 §2). */
const SELECTED_CLIENT_KEY = 'selectedClientId';
/** Same bar heights as the blotter: the page fills the window below the bar. */
const NAV_HEIGHT = { main: 52, compact: 60, none: 0 } as const;
/** Spec 001 §2: cancel is offered unless the order is filled, canceled, rejected or done (F, and 3). */
const NOT_CANCELABLE = new Set(['2', '3', '4', '8', 'C', 'F']);

const orderRowId = (p: GetRowIdParams<ClientOrder>) => p.data.id;
const execRowId = (p: GetRowIdParams<ClientExecution>) => p.data.id;
const legRowId = (p: GetRowIdParams<LegRow>) => String(p.data.index);
const rowClass = (p: RowClassParams<ClientOrder>) =>
  p.data?.side === '1' ? 'fd-row-buy' : p.data?.side === '2' ? 'fd-row-sell' : undefined;

function Empty({ title, text, testId }: { title: string; text?: string; testId: string }) {
  return (
    <div className={panes.emptyInfo} data-testid={testId}>
      <Text fw={600} fz="sm" c="gray.7">
        {title}
      </Text>
      {text && <Text fz="xs">{text}</Text>}
    </div>
  );
}

function Pane({ title, actions, children, testId }: { title: ReactNode; actions?: ReactNode; children: ReactNode; testId: string }) {
  return (
    <div className={panes.pane} data-testid={testId}>
      <div className={panes.paneTitle}>
        <span>{title}</span>
        {actions}
      </div>
      <div className={panes.gridBox}>{children}</div>
    </div>
  );
}

function errorText(e: unknown): string {
  return e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e);
}

/** Cancel (35=F) with an optional reason. */
function CancelModal({
  compId,
  order,
  onClose,
  onDone,
}: {
  compId: string;
  order: ClientOrder | null;
  onClose: () => void;
  onDone: (ok: boolean, text: string) => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(''), [order?.id]);
  async function sendCancel() {
    if (!order) return;
    setBusy(true);
    try {
      const r = await simulatorApi.cancelOrder(compId, {
        origClOrdId: order.clordid,
        ...(text.trim() ? { text: text.trim() } : {}),
      });
      onDone(
        r.success,
        r.success ? `Cancel request ${r.clOrdId} sent for ${order.clordid}` : SendErrorText.cancelFailed(r.error ?? SendErrorText.failed),
      );
    } catch (e) {
      onDone(false, SendErrorText.cancelFailed(errorText(e)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={order !== null} onClose={onClose} title={<Text fw={700}>Cancel order {order?.clordid}</Text>} centered>
      <Stack gap="sm">
        <Text fz="sm">
          Sends an OrderCancelRequest (35=F) for {order?.symbol}. The broker confirms or refuses it; the order shows Pending Cancel until
          then.
        </Text>
        <Textarea
          label="Reason (optional, tag 58)"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep order
          </Button>
          <Button color="red" loading={busy} disabled={!order} data-testid="confirm-cancel" onClick={() => void sendCancel()}>
            Send cancel request
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Replace (35=G): a new quantity and/or limit price. */
function ReplaceModal({
  compId,
  order,
  onClose,
  onDone,
}: {
  compId: string;
  order: ClientOrder | null;
  onClose: () => void;
  onDone: (ok: boolean, text: string) => void;
}) {
  const [qty, setQty] = useState<number | string>('');
  const [price, setPrice] = useState<number | string>('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setQty(order ? Number(order.orderqty) : '');
    setPrice(order?.price !== null && order?.price !== undefined ? Number(order.price) : '');
    setProblem(null);
  }, [order]);
  const strategy = order?.msgtype === 'AB';
  async function sendReplace() {
    if (!order) return;
    const change: { orderQty?: string; price?: string } = {};
    if (qty !== '' && String(qty) !== order.orderqty) change.orderQty = String(qty);
    if (price !== '' && String(price) !== (order.price ?? '')) change.price = String(price);
    if (!change.orderQty && !change.price) {
      setProblem('Change the quantity or the price first');
      return;
    }
    setBusy(true);
    try {
      const r = await simulatorApi.replaceOrder(compId, { origClOrdId: order.clordid, ...change });
      onDone(r.success, r.success ? `Replace request ${r.clOrdId} sent for ${order.clordid}` : (r.error ?? SendErrorText.failed));
    } catch (e) {
      setProblem(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={order !== null} onClose={onClose} title={<Text fw={700}>Replace order {order?.clordid}</Text>} centered>
      <Stack gap="sm">
        <Text fz="sm">
          Sends an OrderCancelReplaceRequest (35=G). The broker confirms or refuses it; the order shows Pending Replace until then.
        </Text>
        <NumberInput
          label="New quantity"
          value={qty}
          onChange={setQty}
          min={1}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
        />
        <NumberInput
          label={strategy ? 'New limit price (strategy)' : 'New limit price'}
          value={price}
          onChange={setPrice}
          allowNegative={strategy}
          decimalScale={6}
          thousandSeparator=","
        />
        {problem && (
          <Alert color="red" p={8}>
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button loading={busy} disabled={!order} data-testid="confirm-replace" onClick={() => void sendReplace()}>
            Send replace request
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * FIX Client (spec 001 §2): order entry and blotter from the client's side. The orders and executions
 * are what the selected client's simulated FIX session sent and received, kept by the test-client
 * service and pushed live.
 */
export default function FixClientPage() {
  const live = useLiveConnection();
  const connectors = useConnectors({ tradingOnly: true });
  const securities = useSecurities();
  const [connector, select] = useSelectedConnector(SELECTED_CLIENT_KEY, connectors.data, 'id');
  const compId = connector?.comp_id ?? null;
  const control = useTestClient(compId);
  const blotter = useClientBlotter(compId);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [modal, setModal] = useState(false);
  const [cancelling, setCancelling] = useState<ClientOrder | null>(null);
  const [replacing, setReplacing] = useState<ClientOrder | null>(null);
  const [partiesOpen, setPartiesOpen] = useState(true);
  const [banner, setBanner] = useState<{ ok: boolean; text: string } | null>(null);
  const desktop = useDesktopShell();
  const { pathname } = useLocation();
  const pageHeight = `calc(100dvh - ${NAV_HEIGHT[chromeFor(pathname, desktop).topNav]}px)`;

  // A new client clears the orders, executions and selection (spec 001 §2).
  useEffect(() => setSelectedId(null), [compId]);
  useEffect(() => {
    if (!banner?.ok) return;
    const t = window.setTimeout(() => setBanner(null), SUCCESS_BANNER_MS);
    return () => window.clearTimeout(t);
  }, [banner]);

  const orders = blotter.data.orders;
  const selected = orders.find((o) => o.id === selectedId) ?? null;
  const executions = useMemo(() => executionsOf(blotter.data, selectedId), [blotter.data, selectedId]);
  const legs = useMemo<LegRow[]>(() => (selected ? selected.legs.map((l, index) => ({ ...l, index })) : []), [selected]);
  const orderCols = useMemo(() => toColDefs(CLIENT_ORDER_COLUMNS), []);
  const execCols = useMemo(() => toColDefs(CLIENT_EXECUTION_COLUMNS), []);
  const legCols = useMemo(() => toColDefs(CLIENT_LEG_COLUMNS), []);
  const canCancel = selected !== null && !NOT_CANCELABLE.has(selected.ordstatus ?? '') && !selected.pendingRequest;
  const canReplace = canCancel && selected !== null && selected.ordstatus !== null;

  const done = (ok: boolean, text: string) => {
    setCancelling(null);
    setReplacing(null);
    setBanner({ ok, text });
  };

  return (
    <Box className={panes.page} style={{ height: pageHeight }} data-testid="fix-client">
      <Group className={panes.header} h="auto" py={8} justify="space-between" wrap="nowrap" gap="md">
        <Group gap="sm" wrap="nowrap">
          <IconArrowsExchange size={20} stroke={1.7} aria-hidden="true" />
          <Title order={1} fz="h3">
            FIX Client
          </Title>
          <Select
            aria-label="Client connector"
            placeholder="Select a client connector"
            w={300}
            size="xs"
            data={connectors.data.map((c) => ({ value: c.comp_id, label: connectorLabel(c) }))}
            value={compId}
            onChange={select}
            allowDeselect={false}
            data-testid="client-select"
          />
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={live.status === 'connected' ? 'Live updates connected' : 'Live updates not connected'}>
            <Badge variant="dot" color={live.status === 'connected' ? 'teal' : 'red'} data-testid="ws-status">
              WS
            </Badge>
          </Tooltip>
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setModal(true)}
            disabled={!connector}
            data-testid="new-order"
          >
            New Order
          </Button>
        </Group>
      </Group>

      {connector && (
        <Group px="sm" py={8} gap="lg" wrap="nowrap" style={{ borderBottom: '1px solid var(--fd-border)' }} data-testid="client-summary">
          <Group gap="sm" wrap="nowrap" miw={260}>
            <ConnectorLogo connector={connector} size={38} />
            <Stack gap={0}>
              <Text fw={700}>{connector.client_name ?? connector.comp_id}</Text>
              <Text fz="xs" c="dimmed">
                {connector.client_contact ?? '—'} · {connector.client_phone ?? '—'} · {connector.client_email ?? '—'}
              </Text>
            </Stack>
          </Group>
          <Box style={{ flex: 1, minWidth: 0 }} maw={560}>
            <FixClientControl control={control} compact />
          </Box>
          <Badge variant="dot" color={connector.is_connected ? 'teal' : 'red'} data-testid="connector-session">
            Session {connector.is_connected ? 'Connected' : 'Disconnected'}
          </Badge>
        </Group>
      )}

      <LiveConnectionNotice state={live} onRetry={live.retry} />
      {(connectors.error || securities.error) && (
        <Box px={8} py={4}>
          <ReferenceLoadNotice compact errors={[connectors.error, securities.error]} />
        </Box>
      )}
      {(banner || blotter.error) && (
        <Alert
          color={banner?.ok ? 'teal' : 'red'}
          radius={0}
          p={8}
          withCloseButton={Boolean(banner)}
          onClose={() => setBanner(null)}
          icon={banner?.ok ? <IconCircleCheck size={16} /> : <IconAlertCircle size={16} />}
          data-testid={banner?.ok ? 'client-success' : 'client-error'}
        >
          <Text fz="sm">{banner?.text ?? blotter.error}</Text>
        </Alert>
      )}

      <SplitGroup orientation="vertical" id="fix-client-main" style={{ flex: 1, minHeight: 0 }}>
        <Panel id="orders" defaultSize="55%" minSize="20%" maxSize="80%">
          <Pane
            testId="client-orders"
            title={`Orders (${orders.length})`}
            actions={
              selected && (
                <Group gap={6}>
                  <Text fz={11} tt="none" fw={500} c="dimmed">
                    {selected.clordid} · {clientOrdStatusLabel(selected.ordstatus)}
                  </Text>
                  {canReplace && (
                    <Button
                      size="compact-xs"
                      variant="light"
                      leftSection={<IconEdit size={12} />}
                      onClick={() => setReplacing(selected)}
                      data-testid="replace-order"
                    >
                      Replace
                    </Button>
                  )}
                  {canCancel && (
                    <Button
                      size="compact-xs"
                      variant="light"
                      color="red"
                      leftSection={<IconX size={12} />}
                      onClick={() => setCancelling(selected)}
                      data-testid="cancel-order"
                    >
                      Cancel
                    </Button>
                  )}
                </Group>
              )
            }
          >
            {orders.length === 0 ? (
              <Empty
                title={blotter.loading ? 'Loading orders…' : 'No orders sent yet'}
                text={connector ? 'Orders this client sends appear here with their status.' : 'Please select a client connector first'}
                testId="client-orders-empty"
              />
            ) : (
              <AgGridReact<ClientOrder>
                theme={deskGridTheme}
                columnDefs={orderCols}
                rowData={orders}
                getRowId={orderRowId}
                getRowClass={rowClass}
                rowSelection={{ mode: 'singleRow', checkboxes: false, enableClickSelection: true }}
                onRowClicked={(e: RowClickedEvent<ClientOrder>) => e.data && setSelectedId(e.data.id)}
                enableCellTextSelection
                animateRows={false}
              />
            )}
          </Pane>
        </Panel>
        <Separator className={panes.sepH} aria-label="Resize orders and details" />
        <Panel id="details">
          <Stack gap={0} h="100%">
            <SplitGroup orientation="horizontal" id="fix-client-details" style={{ flex: 1, minHeight: 0 }}>
              <Panel id="executions" defaultSize="62%" minSize="30%" maxSize="85%">
                <Pane testId="client-executions" title={`Executions${selected ? ` (${executions.length})` : ''}`}>
                  {!selected ? (
                    <Empty title="Select an order above" testId="executions-empty" />
                  ) : executions.length === 0 ? (
                    <Empty title="No executions for selected order" testId="executions-empty" />
                  ) : (
                    <AgGridReact<ClientExecution>
                      theme={deskGridTheme}
                      columnDefs={execCols}
                      rowData={executions}
                      getRowId={execRowId}
                      enableCellTextSelection
                      animateRows={false}
                    />
                  )}
                </Pane>
              </Panel>
              <Separator className={panes.sepV} aria-label="Resize executions and legs" />
              <Panel id="legs">
                <Pane testId="client-legs" title={`Order Legs${selected && legs.length ? ` (${legs.length})` : ''}`}>
                  {!selected ? (
                    <Empty title="Select an order" testId="legs-empty" />
                  ) : legs.length === 0 ? (
                    <Empty title="No legs for this order" text="This is not a multileg order" testId="legs-empty" />
                  ) : (
                    <AgGridReact<LegRow>
                      theme={legsGridTheme}
                      columnDefs={legCols}
                      rowData={legs}
                      getRowId={legRowId}
                      animateRows={false}
                    />
                  )}
                </Pane>
              </Panel>
            </SplitGroup>
            <Box style={{ borderTop: '1px solid var(--fd-border)' }} data-testid="client-parties">
              <UnstyledButton onClick={() => setPartiesOpen((o) => !o)} className={panes.paneTitle} w="100%" aria-expanded={partiesOpen}>
                <Group gap={4}>
                  {partiesOpen ? <IconChevronDown size={12} /> : <IconChevronRight size={12} />}
                  <span>Order Parties{selected ? ` (${selected.parties.length})` : ''}</span>
                </Group>
              </UnstyledButton>
              <Collapse expanded={partiesOpen}>
                {!selected ? (
                  <Text fz="xs" c="dimmed" p="xs">
                    Select an order
                  </Text>
                ) : selected.parties.length === 0 ? (
                  <Text fz="xs" c="dimmed" p="xs">
                    No parties on this order
                  </Text>
                ) : (
                  <PartiesTable
                    monospaceIds
                    label="Order parties"
                    parties={selected.parties.map((p) => ({
                      key: `${p.partyRole}-${p.partyID}`,
                      partyId: p.partyID,
                      role: partyRoleLabel(p.partyRole),
                      source: partySourceLabel(p.partyIDSource),
                    }))}
                  />
                )}
              </Collapse>
            </Box>
          </Stack>
        </Panel>
      </SplitGroup>

      <Modal
        opened={modal}
        onClose={() => setModal(false)}
        title={<Text fw={700}>New Order — {connector ? connectorLabel(connector) : ''}</Text>}
        size="xl"
        data-testid="new-order-modal"
      >
        <Paper p={0}>
          <OrderEntry variant="client" connector={connector} status={control.status} securities={securities.data} />
        </Paper>
      </Modal>
      <CancelModal compId={compId ?? ''} order={cancelling} onClose={() => setCancelling(null)} onDone={done} />
      <ReplaceModal compId={compId ?? ''} order={replacing} onClose={() => setReplacing(null)} onDone={done} />
    </Box>
  );
}
