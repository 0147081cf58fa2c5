import '../../components/grid/desk-grid.css';
import '../../components/audit/auditGrid.css';
import type { ClientConnector, OrderAction } from '@fixdesk/protocol';
import {
  Alert,
  Avatar,
  Badge,
  Box,
  Button,
  Code,
  Group,
  HoverCard,
  Image,
  Loader,
  Modal,
  ScrollArea,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconClipboardList, IconDownload, IconEye, IconInfoCircle, IconSearch } from '@tabler/icons-react';
import type { ColDef, GetRowIdParams, ICellRendererParams } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AuditGrid } from '../../components/audit/AuditGrid';
import { PageHeader } from '../../components/layout/PageHeader';
import { AuditEmpty } from '../../components/audit/AuditStates';
import { ReferenceLoadNotice } from '../../components/reference/ReferenceLoadNotice';
import { downloadBlob } from '../../components/export/csv';
import { ExportDialog } from '../../components/export/ExportDialog';
import { exportFileName } from '../../components/export/exportRange';
import { timeZoneLabel } from '../../components/time/localTime';
import { useDisplayZone } from '../../components/time/displayZone';
import { loadErrorText, type ExportProgress } from '../../services/audit/auditApi';
import { auditApi } from '../../services/audit/http';
import { useAuth } from '../../services/auth/AuthProvider';
import { roleOf } from '../../services/auth/roles';
import { WhoLookedModal } from './WhoLookedModal';
import { toColDefs } from '../../components/grid/columns';
import { actionTypeLabel, clientName, hasActionData, matchesOrderAction, orderActionColumns, sideLabel } from './orderActionColumns';

/** Spec 000 §9: popup hover delays. */
const POPUP_OPEN_DELAY_MS = 50;
const POPUP_CLOSE_DELAY_MS = 70;
const NOTES_LIMIT = 30;

/** Ready with the first page; `more` while older pages are on their way, `partial` when one of them failed. */
type Load =
  { state: 'loading' } | { state: 'error'; text: string } | { state: 'ready'; actions: OrderAction[]; more: boolean; partial?: string };

const ACTION_COLOURS: Record<string, string> = {
  ACCEPT: 'blue',
  REJECT: 'red',
  FILL: 'green',
  PARTIAL_FILL: 'teal',
  DONE_FOR_DAY: 'gray',
  CANCEL: 'orange',
  CANCEL_CONFIRM: 'orange',
  CANCEL_REFUSE: 'grape',
  REPLACE_CONFIRM: 'violet',
  REPLACE_REFUSE: 'grape',
  EXPIRE: 'dark',
};

function initials(name: string): string {
  return name
    .split(/[\s_-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

function ClientLogo({ name, url }: { name: string; url: string | null | undefined }) {
  const [failed, setFailed] = useState(false);
  if (url && !failed)
    return <Image src={url} alt="" h={18} w={18} fit="contain" style={{ flexShrink: 0 }} onError={() => setFailed(true)} />;
  return (
    <Avatar
      size={18}
      radius="xs"
      color="navy"
      variant="filled"
      style={{ flexShrink: 0 }}
      styles={{ placeholder: { fontSize: 8 } }}
      aria-hidden="true"
    >
      {initials(name) || '?'}
    </Avatar>
  );
}

function ClientCell({ data, connectors }: ICellRendererParams<OrderAction> & { connectors: ReadonlyMap<string, ClientConnector> }) {
  if (!data) return null;
  const name = clientName(data);
  const connector = data.sendercompid ? connectors.get(data.sendercompid) : undefined;
  return (
    <Group
      gap={6}
      wrap="nowrap"
      title={data.sendercompid ? `${name} (${data.sendercompid})` : name}
      style={{ minWidth: 0, overflow: 'hidden' }}
    >
      <ClientLogo name={name} url={connector?.logo_src} />
      <Text fz={12} truncate style={{ minWidth: 0, flex: 1 }}>
        {name}
      </Text>
    </Group>
  );
}

function SideCell({ data }: ICellRendererParams<OrderAction>) {
  if (!data?.side) return null;
  return (
    <Badge size="sm" radius="sm" variant="light" color={data.side === '1' ? 'green' : data.side === '2' ? 'red' : 'gray'}>
      {sideLabel(data.side)}
    </Badge>
  );
}

function ActionTypeCell({ data }: ICellRendererParams<OrderAction>) {
  if (!data) return null;
  return (
    <Badge size="sm" radius="sm" variant="light" color={ACTION_COLOURS[data.action_type] ?? 'gray'} data-testid="action-type-badge">
      {actionTypeLabel(data.action_type)}
    </Badge>
  );
}

function NotesCell({ data, valueFormatted }: ICellRendererParams<OrderAction>) {
  const notes = data?.notes ?? '';
  if (notes.length <= NOTES_LIMIT) return <span>{notes}</span>;
  return (
    <HoverCard
      openDelay={POPUP_OPEN_DELAY_MS}
      closeDelay={POPUP_CLOSE_DELAY_MS}
      width={360}
      shadow="md"
      position="bottom-start"
      withinPortal
    >
      <HoverCard.Target>
        <span data-testid="notes-truncated" style={{ cursor: 'help', borderBottom: '1px dotted var(--mantine-color-gray-5)' }}>
          {valueFormatted}
        </span>
      </HoverCard.Target>
      <HoverCard.Dropdown data-testid="notes-popup">
        <Text fz="xs" c="dimmed" mb={4}>
          Notes
        </Text>
        <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {notes}
        </Text>
      </HoverCard.Dropdown>
    </HoverCard>
  );
}

function ActionDataCell({ data, onView }: ICellRendererParams<OrderAction> & { onView: (a: OrderAction) => void }) {
  if (!data || !hasActionData(data))
    return (
      <Text fz={12} c="dimmed">
        —
      </Text>
    );
  return (
    <Button size="compact-xs" variant="subtle" onClick={() => onView(data)} data-testid="view-json">
      View JSON
    </Button>
  );
}

const rowId = (p: GetRowIdParams<OrderAction>) => String(p.data.id);

/**
 * /order-actions (spec 000 §2 "Order Actions audit screen"): every action taken on an order, who
 * took it and when; filter, View JSON, Export CSV of a date range.
 */
export default function OrderActionsPage() {
  const timeZone = useDisplayZone();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [filter, setFilter] = useState('');
  const [connectors, setConnectors] = useState<ReadonlyMap<string, ClientConnector>>(new Map());
  const [connectorsError, setConnectorsError] = useState<string | null>(null);
  const [json, setJson] = useState<OrderAction | null>(null);
  const [whoLooked, setWhoLooked] = useState(false);
  const isAdmin = roleOf(useAuth().user) === 'admin';
  // The row's data shows at once; the server's copy, fetched for the who-looked record, replaces it.
  const openJson = useCallback((a: OrderAction) => {
    setJson(a);
    auditApi
      .orderAction(a.id)
      .then((fresh) => setJson((shown) => (shown?.id === fresh.id ? fresh : shown)))
      .catch(() => undefined);
  }, []);
  const [exporting, setExporting] = useState(false);
  const [exportProgress, setExportProgress] = useState<ExportProgress | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    // The newest page shows at once; older pages follow and are appended.
    let actions: OrderAction[] = [];
    auditApi
      .orderActionPages((page, last) => {
        actions = actions.concat(page);
        setLoad({ state: 'ready', actions, more: !last });
      }, controller.signal)
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        if (actions.length) setLoad({ state: 'ready', actions, more: false, partial: loadErrorText(err) });
        else setLoad({ state: 'error', text: loadErrorText(err) });
      });
    return () => controller.abort();
  }, [reloads]);

  useEffect(() => {
    const controller = new AbortController();
    auditApi
      .clientConnectors(controller.signal)
      .then((list) => {
        setConnectors(new Map(list.map((c) => [c.comp_id, c])));
        setConnectorsError(null);
      })
      // Initials stand in for the logos; the footer says the load failed ('Client Connectors API failed: 503').
      .catch((err: unknown) => !controller.signal.aborted && setConnectorsError(err instanceof Error ? err.message : String(err)));
    return () => controller.abort();
  }, []);

  const columns = useMemo(() => orderActionColumns(timeZone), [timeZone]);
  const [hiddenColumns, setHiddenColumns] = useState<string[]>([]);
  const colDefs = useMemo<ColDef<OrderAction>[]>(() => {
    const renderers: Record<string, Partial<ColDef<OrderAction>>> = {
      client: { cellRenderer: ClientCell, cellRendererParams: { connectors }, cellClass: 'fd-flex-cell' },
      side: { cellRenderer: SideCell },
      action_type: { cellRenderer: ActionTypeCell },
      notes: { cellRenderer: NotesCell },
      action_data: { cellRenderer: ActionDataCell, cellRendererParams: { onView: openJson } },
    };
    // Numbers right-aligned like their headers (the grid's own right-aligned class next to ours).
    return toColDefs(columns).map((def) => ({
      ...def,
      ...(def.type === 'rightAligned' ? { cellClass: 'fd-num ag-right-aligned-cell' } : {}),
      ...renderers[def.colId!],
    }));
  }, [columns, connectors, openJson]);

  const all = useMemo(() => (load.state === 'ready' ? load.actions : []), [load]);
  const visible = useMemo(() => all.filter((a) => matchesOrderAction(a, filter)), [all, filter]);
  const filtered = filter.trim() !== '';

  const noRows = useCallback(
    () =>
      filtered ? (
        <AuditEmpty
          testId="order-actions-empty"
          title="No Matching Order Actions"
          text="No order action matches the filter. Clear or change it to see more."
        />
      ) : (
        <AuditEmpty
          testId="order-actions-empty"
          title="No Order Actions Found"
          text="Accepts, rejects, fills and other actions on orders will appear here."
        />
      ),
    [filtered],
  );

  const runExport = async (range: { start: string; end: string }, bounds: { startIso: string; endIso: string }) => {
    setExportProgress({ rows: 0, total: null });
    try {
      // The server streams the whole range (no row cap); the file is read as it comes, with its progress shown.
      const { file, rows } = await auditApi.exportOrderActionsCsv({ start: bounds.startIso, end: bounds.endIso }, setExportProgress);
      downloadBlob(exportFileName('order_actions', range), file);
      notifications.show({ color: 'green', title: 'Export ready', message: `${rows.toLocaleString('en-GB')} order actions exported` });
      setExporting(false);
    } catch (err) {
      notifications.show({
        color: 'red',
        title: 'Export failed',
        message: `Export failed: ${err instanceof Error ? err.message : String(err)}`,
        autoClose: 8000,
      });
    } finally {
      setExportProgress(null);
    }
  };

  return (
    <Box px="md" py="sm" data-testid="order-actions-page">
      <PageHeader
        compact
        icon={IconClipboardList}
        title="Order Actions"
        actions={
          <Group gap="xs" wrap="nowrap">
            <TextInput
              size="xs"
              w={380}
              aria-label="Filter order actions"
              placeholder="Filter by ID, symbol, action type, user, notes, buy/sell…"
              leftSection={<IconSearch size={14} />}
              value={filter}
              onChange={(e) => setFilter(e.currentTarget.value)}
              data-testid="order-actions-filter"
            />
            {isAdmin && (
              <Button
                size="xs"
                variant="default"
                leftSection={<IconEye size={14} />}
                onClick={() => setWhoLooked(true)}
                data-testid="who-looked"
              >
                Who Looked
              </Button>
            )}
            <Button
              size="xs"
              leftSection={<IconDownload size={14} />}
              onClick={() => setExporting(true)}
              data-testid="order-actions-export"
            >
              Export CSV
            </Button>
          </Group>
        }
      />

      <Alert variant="light" color="blue" icon={<IconInfoCircle size={16} />} py={6} mb={8} data-testid="order-actions-info">
        <Text fz="xs">
          Audit trail of every action taken on an order: accepts, rejects, fills, done for day, cancels and replaces, with the user who took
          it. Records are kept unchanged for compliance. Times are in {timeZoneLabel(timeZone)}; exports carry ISO 8601 UTC.
        </Text>
      </Alert>

      {/* The table fills the window below the header (the site footer follows below the fold). */}
      <Box style={{ height: 'calc(100dvh - 212px)', minHeight: 320, position: 'relative' }}>
        <AuditGrid<OrderAction>
          load={load}
          loadingLabel="Loading order actions..."
          errorTitle="Error Loading Order Actions"
          onRetry={() => setReloads((n) => n + 1)}
          testId="order-actions"
          columnDefs={colDefs}
          rows={visible}
          getRowId={rowId}
          noRows={noRows}
          frameStyle={{ position: 'absolute', inset: 0 }}
          onHiddenColumns={setHiddenColumns}
        />
      </Box>
      <Group gap={8} mt={6} h={18} wrap="nowrap">
        <Text fz="xs" c="dimmed" data-testid="order-actions-footer">
          {load.state === 'ready' ? `Showing ${visible.length} of ${all.length} actions` : ''}
        </Text>
        {load.state === 'ready' && hiddenColumns.length > 0 && (
          <Text fz="xs" c="dimmed" data-testid="order-actions-hidden-columns" title="The filter and the export still include them">
            · {hiddenColumns.map((id) => columns.find((c) => c.id === id)?.header ?? id).join(' and ')} hidden at this width
          </Text>
        )}
        {load.state === 'ready' && load.more && (
          <Group gap={4} wrap="nowrap" data-testid="order-actions-more">
            <Loader size={10} />
            <Text fz="xs" c="dimmed">
              Loading older actions…
            </Text>
          </Group>
        )}
        <ReferenceLoadNotice compact errors={[connectorsError]} />
        {load.state === 'ready' && load.partial && (
          <Text fz="xs" c="red" data-testid="order-actions-partial">
            Older actions could not be loaded: {load.partial}
          </Text>
        )}
      </Group>

      <WhoLookedModal opened={whoLooked} onClose={() => setWhoLooked(false)} />

      <Modal
        opened={json !== null}
        onClose={() => setJson(null)}
        title={json ? `Action Data · #${json.id} ${actionTypeLabel(json.action_type)}` : ''}
        size="lg"
        centered
        data-testid="action-json-modal"
      >
        <ScrollArea.Autosize mah="60vh">
          <Code block fz="xs" data-testid="action-json">
            {json ? JSON.stringify(json.action_data, null, 2) : ''}
          </Code>
        </ScrollArea.Autosize>
      </Modal>

      <ExportDialog
        opened={exporting}
        title="Export Order Actions"
        description="Every order action in the range, as CSV."
        onClose={() => setExporting(false)}
        onExport={runExport}
        progress={exportProgress}
      />
    </Box>
  );
}
