import '../../components/grid/desk-grid.css';
import type { FixMessageRecord } from '@fixdesk/protocol';
import { Alert, Badge, Box, Button, Checkbox, Group, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconInfoCircle, IconMessages, IconRefresh, IconSearch } from '@tabler/icons-react';
import type { ColDef, GetRowIdParams, ICellRendererParams } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AuditGrid } from '../../components/audit/AuditGrid';
import { PageHeader } from '../../components/layout/PageHeader';
import { AuditEmpty } from '../../components/audit/AuditStates';
import { downloadBlob } from '../../components/export/csv';
import { ExportDialog } from '../../components/export/ExportDialog';
import { exportFileName } from '../../components/export/exportRange';
import { timeZoneLabel } from '../../components/time/localTime';
import { useDisplayZone } from '../../components/time/displayZone';
import { loadErrorText, type ExportProgress, type FixMessageOptions } from '../../services/audit/auditApi';
import { auditApi } from '../../services/audit/http';
import { toColDefs } from '../../components/grid/columns';
import { FixMessageDetail } from './FixMessageDetail';
import { fixMessageColumns, matchesFixMessage } from './fixMessageColumns';

/** Spec 000 §2: the table scrolls inside 400 px. */
const TABLE_HEIGHT = 400;

type Load = { state: 'loading' } | { state: 'error'; text: string } | { state: 'ready'; messages: FixMessageRecord[] };

function DirectionCell({ data }: ICellRendererParams<FixMessageRecord>) {
  if (!data) return null;
  return (
    <Badge size="sm" radius="sm" variant="light" color={data.direction === 'TX' ? 'green' : 'blue'} data-testid="direction-badge">
      {data.direction}
    </Badge>
  );
}

function ViewRawCell({ data, onView }: ICellRendererParams<FixMessageRecord> & { onView: (m: FixMessageRecord) => void }) {
  if (!data) return null;
  return (
    <Button size="compact-xs" variant="subtle" onClick={() => onView(data)} data-testid="view-raw">
      View Raw
    </Button>
  );
}

const rowId = (p: GetRowIdParams<FixMessageRecord>) => String(p.data.id);

/**
 * /fix-messages (spec 000 §2 "FIX Messages audit screen"): every FIX message in and out, newest
 * first; filter, heartbeat/session-message switches, detail with the dictionary's reading, Export CSV.
 */
export default function FixMessagesPage() {
  const timeZone = useDisplayZone();
  const [options, setOptions] = useState<FixMessageOptions>({ ignoreHeartbeats: true, ignoreSessionMessages: false });
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [refreshing, setRefreshing] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [filter, setFilter] = useState('');
  const [detail, setDetail] = useState<FixMessageRecord | null>(null);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    // A refresh keeps the rows on screen until the new ones arrive (no jump); a first load or a retry shows the loading note.
    setLoad((prev) => (prev.state === 'ready' ? prev : { state: 'loading' }));
    setRefreshing(true);
    auditApi
      .fixMessages(options, controller.signal)
      .then((messages) => setLoad({ state: 'ready', messages }))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: 'error', text: loadErrorText(err) });
      })
      .finally(() => {
        if (!controller.signal.aborted) setRefreshing(false);
      });
    return () => controller.abort();
  }, [options, reloads]);

  const columns = useMemo(() => fixMessageColumns(timeZone), [timeZone]);
  const colDefs = useMemo<ColDef<FixMessageRecord>[]>(() => {
    const renderers: Record<string, Partial<ColDef<FixMessageRecord>>> = {
      direction: { cellRenderer: DirectionCell },
      raw: { cellRenderer: ViewRawCell, cellRendererParams: { onView: setDetail } },
    };
    // Numbers right-aligned like their headers (the grid's own right-aligned class next to ours).
    return toColDefs(columns).map((def) => ({
      ...def,
      ...(def.type === 'rightAligned' ? { cellClass: 'fd-num ag-right-aligned-cell' } : {}),
      ...renderers[def.colId!],
    }));
  }, [columns]);

  const all = useMemo(() => (load.state === 'ready' ? load.messages : []), [load]);
  const visible = useMemo(() => all.filter((m) => matchesFixMessage(m, filter)), [all, filter]);
  const filtered = filter.trim() !== '';

  const noRows = useCallback(
    () =>
      filtered ? (
        <AuditEmpty testId="fix-messages-empty" title="No Matching FIX Messages" text="No FIX message matches the filter." />
      ) : (
        <AuditEmpty testId="fix-messages-empty" title="No FIX Messages Found" text="Messages appear here as clients log on and trade." />
      ),
    [filtered],
  );

  const [exportProgress, setExportProgress] = useState<ExportProgress | null>(null);
  const runExport = async (range: { start: string; end: string }, bounds: { startIso: string; endIso: string }) => {
    setExportProgress({ rows: 0, total: null });
    try {
      // The server streams the whole range; the file is read as it comes, with its progress shown.
      const { file, rows } = await auditApi.exportFixMessagesCsv(
        { start: bounds.startIso, end: bounds.endIso },
        options,
        setExportProgress,
      );
      downloadBlob(exportFileName('fix_messages', range), file);
      notifications.show({ color: 'green', title: 'Export ready', message: `${rows.toLocaleString('en-GB')} FIX messages exported` });
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

  const retry = () => {
    setLoad({ state: 'loading' });
    setReloads((n) => n + 1);
  };

  return (
    <Box px="md" py="sm" data-testid="fix-messages-page">
      <PageHeader
        compact
        icon={IconMessages}
        title="FIX Messages"
        actions={
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconRefresh size={14} />}
              loading={refreshing && load.state === 'ready'}
              onClick={() => setReloads((n) => n + 1)}
              data-testid="fix-messages-refresh"
            >
              Refresh
            </Button>
            <Button size="xs" leftSection={<IconDownload size={14} />} onClick={() => setExporting(true)} data-testid="fix-messages-export">
              Export CSV
            </Button>
          </Group>
        }
      />

      <Group gap="md" mb={8} wrap="nowrap">
        <TextInput
          size="xs"
          w={360}
          aria-label="Filter FIX messages"
          placeholder="Filter by ClOrdID, sender, target, msg type, direction…"
          leftSection={<IconSearch size={14} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          data-testid="fix-messages-filter"
        />
        <Checkbox
          size="xs"
          label="Ignore heartbeats"
          checked={options.ignoreHeartbeats}
          onChange={(e) => {
            const checked = e.currentTarget.checked;
            setOptions((o) => ({ ...o, ignoreHeartbeats: checked }));
          }}
          data-testid="ignore-heartbeats"
        />
        <Checkbox
          size="xs"
          label="Ignore session messages"
          checked={options.ignoreSessionMessages}
          onChange={(e) => {
            const checked = e.currentTarget.checked;
            setOptions((o) => ({ ...o, ignoreSessionMessages: checked }));
          }}
          data-testid="ignore-session-messages"
        />
        <Text fz="xs" c="dimmed" ml="auto" style={{ whiteSpace: 'nowrap' }}>
          <IconInfoCircle size={12} style={{ verticalAlign: -1 }} /> Times in {timeZoneLabel(timeZone)}
        </Text>
      </Group>

      <Box h={TABLE_HEIGHT} style={{ position: 'relative' }}>
        <AuditGrid<FixMessageRecord>
          load={load}
          loadingLabel="Loading FIX messages..."
          errorTitle="Error Loading FIX Messages"
          onRetry={retry}
          testId="fix-messages"
          columnDefs={colDefs}
          rows={visible}
          getRowId={rowId}
          noRows={noRows}
          frameStyle={{ height: '100%' }}
        />
      </Box>
      <Text fz="xs" c="dimmed" mt={6} h={18} data-testid="fix-messages-footer">
        {load.state === 'ready' ? `Showing ${visible.length} of ${all.length} messages` : ''}
      </Text>
      {load.state === 'ready' && all.length >= 1000 && (
        <Alert variant="light" color="gray" py={4} mt={4}>
          <Text fz="xs">The newest 1,000 messages are listed; use Export CSV for a date range.</Text>
        </Alert>
      )}

      <FixMessageDetail message={detail} timeZone={timeZone} onClose={() => setDetail(null)} />
      <ExportDialog
        opened={exporting}
        title="Export FIX Messages"
        description={`Every FIX message in the range, as CSV${options.ignoreHeartbeats ? ', without heartbeats' : ''}${options.ignoreSessionMessages ? ', without session messages' : ''}.`}
        onClose={() => setExporting(false)}
        onExport={runExport}
        progress={exportProgress}
      />
    </Box>
  );
}
