import { overallHealth, serviceHealthColour, serviceTypeColour, type ServiceHealthStatus } from '@fixdesk/domain';
import type { ServiceStatusEntry } from '@fixdesk/protocol';
import { Alert, Badge, Button, Container, Group, Paper, Text, Title, Tooltip } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconCircleX,
  IconClockExclamation,
  IconHandStop,
  IconHeartRateMonitor,
  IconPlugConnectedX,
  IconRefresh,
  type Icon,
} from '@tabler/icons-react';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo, useState } from 'react';
import { PageHeader } from '../../components/layout/PageHeader';
import { formatLocalSeconds, formatLocalTime } from '../../components/time/localTime';
import { useDisplayZone } from '../../components/time/displayZone';
import { useLiveHold } from '../../services/live/useLive';
import { useServiceStatus } from '../../services/service-status/serviceStatusApi';
import { stoppedTooltip } from '../../services/kill-switch/killSwitch';
import { TOKEN_MANTINE, tokenCss } from '../../components/grid/colours';
import { deskGridTheme } from '../../components/grid/gridTheme';
import {
  acceptText,
  bothWays,
  countsText,
  dropCopyTooltip,
  EXPECTATION_TEXT,
  ownerLeaseText,
  ownerNodeText,
  queueText,
  resendText,
  scheduleText,
  sessionOwner,
  silenceText,
  staleAgeText,
  statusText,
  tlsText,
} from './serviceColumns';

/** Cells drawn by a component sit on the first line of the row's text cells (rows grow with wrapped texts). */
const FIRST_LINE = { display: 'flex', alignItems: 'flex-start', paddingTop: '8px' } as const;
/**
 * Both tables fit the page at 1280 px and wider (no column off to the right): long texts wrap onto
 * more lines (the row grows) instead of being cut, headers wrap too.
 */
const WRAPPED = { lineHeight: '16px', paddingTop: '9px', paddingBottom: '9px', wordBreak: 'break-word' } as const;
/** The desk's grid with narrower cell padding: sixteen session columns side by side at 1280 px. */
const statusGridTheme = deskGridTheme.withParams({ cellHorizontalPadding: 6 });
const FIT_COLUMNS: ColDef<ServiceStatusEntry> = {
  wrapHeaderText: true,
  autoHeaderHeight: true,
  wrapText: true,
  autoHeight: true,
  cellStyle: WRAPPED,
  suppressMovable: true,
};

const STATUS_ICON: Record<ServiceHealthStatus, Icon> = {
  healthy: IconCircleCheck,
  degraded: IconAlertTriangle,
  stale: IconClockExclamation,
  down: IconCircleX,
  offline: IconPlugConnectedX,
};

function StatusCell({ data }: ICellRendererParams<ServiceStatusEntry>) {
  if (!data) return null;
  const StatusIcon = STATUS_ICON[data.status as ServiceHealthStatus] ?? IconPlugConnectedX;
  const colour = tokenCss(serviceHealthColour(data.status));
  return (
    <Group gap={4} wrap="nowrap" data-testid={`status-${data.name}`} data-status={data.status}>
      <StatusIcon size={15} color={colour} aria-hidden="true" />
      <Text fz="xs" fw={600} c={colour}>
        {statusText(data)}
      </Text>
    </Group>
  );
}

function TypeCell({ data }: ICellRendererParams<ServiceStatusEntry>) {
  if (!data) return null;
  return (
    <Badge size="xs" radius="sm" variant="light" color={TOKEN_MANTINE[serviceTypeColour(data.type)]}>
      {data.type}
    </Badge>
  );
}

/** What the metadata says in one line: a session's ids and numbers, a probe's time, an error. */
function detailText(s: ServiceStatusEntry): string {
  const m = s.metadata;
  const parts: string[] = [];
  if (typeof m.error === 'string') parts.push(m.error);
  if (s.type === 'fix-session') {
    parts.push(String(m.sessionID ?? ''));
    if (m.txSeqNum !== null && m.txSeqNum !== undefined) parts.push(`tx ${String(m.txSeqNum)} / rx ${String(m.rxSeqNum)}`);
    if (typeof m.remoteAddress === 'string') parts.push(m.remoteAddress);
    if (s.trading_stop) parts.push(`trading stopped by ${s.trading_stop.stopped_by || 'the desk'}: ${s.trading_stop.reason}`);
    // Several nodes: which one owns the session by its lease (docs/adr/0012).
    const owner = m.owner as { node?: unknown; term?: unknown; expiresAt?: unknown; live?: unknown } | undefined;
    if (owner && typeof owner.node === 'string') {
      const until = typeof owner.expiresAt === 'string' ? `${owner.expiresAt.slice(11, 19)} UTC` : '?';
      parts.push(`${owner.live ? 'owned by' : 'last owned by'} ${owner.node} (lease term ${String(owner.term)}, until ${until})`);
    }
  }
  if (Array.isArray(m.deskJobs)) {
    for (const j of m.deskJobs as Array<{ job?: unknown; node?: unknown; live?: unknown }>)
      if (j.live) parts.push(`${String(j.job)} on ${String(j.node)}`);
  }
  if (typeof m.port === 'number') parts.push(`port ${m.port}`);
  if (typeof m.sessionsLoggedOn === 'number') parts.push(`${m.sessionsLoggedOn} logged on`);
  if (typeof m.engine === 'string') parts.push(m.engine);
  if (typeof m.probeMs === 'number') parts.push(`probe ${m.probeMs} ms`);
  if (typeof m.version === 'string') parts.push(`v${m.version}`);
  if (typeof m.browsersConnected === 'number') parts.push(`${m.browsersConnected} browsers`);
  if (typeof m.running === 'number') parts.push(`${m.running} running, ${String(m.loggedOn)} logged on`);
  return parts.filter(Boolean).join(' · ');
}

function ExpectationCell({ data }: ICellRendererParams<ServiceStatusEntry>) {
  const f = data?.session;
  if (!f) return null;
  const alert = f.expectation === 'missing';
  return (
    <Text
      fz="xs"
      fw={alert ? 700 : 400}
      c={alert ? 'red.7' : f.expectation === 'logged-on' ? 'green.8' : 'dimmed'}
      data-testid={`expectation-${data.name}`}
    >
      {EXPECTATION_TEXT[f.expectation]}
    </Text>
  );
}

/** The client's comp id and, while the kill switch stops it, a red "Stopped" with who, when and why in its tooltip. */
function ClientCell({ data, timeZone }: ICellRendererParams<ServiceStatusEntry> & { timeZone: string }) {
  if (!data) return null;
  const compId = String(data.metadata.targetCompID ?? '');
  const stop = data.trading_stop;
  const copies = data.session?.dropCopy;
  return (
    <div style={{ lineHeight: '16px' }} data-testid={`client-${data.name}`}>
      <Text fz="xs" fw={600} style={{ wordBreak: 'break-word' }}>
        {compId}
      </Text>
      {stop && (
        <Tooltip label={stoppedTooltip(stop, timeZone)} multiline w={300} withinPortal>
          <Badge
            size="xs"
            radius="sm"
            color="red"
            variant="light"
            mt={2}
            leftSection={<IconHandStop size={10} />}
            data-testid={`session-stopped-${compId}`}
            tabIndex={0}
          >
            Stopped
          </Badge>
        </Tooltip>
      )}
      {copies && (
        <Tooltip label={dropCopyTooltip(copies.clients)} multiline w={260} withinPortal>
          <Badge size="xs" radius="sm" color="gray" variant="light" mt={2} data-testid={`session-drop-copy-${compId}`} tabIndex={0}>
            Drop copy
          </Badge>
        </Tooltip>
      )}
    </div>
  );
}

/** Which node owns the session (its lease), under which term, until when (docs/adr/0012). */
function OwnerCell({ data, timeZone }: ICellRendererParams<ServiceStatusEntry> & { timeZone: string }) {
  const o = data ? sessionOwner(data) : undefined;
  if (!data || !o)
    return (
      <Text fz="xs" c="dimmed">
        —
      </Text>
    );
  return (
    <div data-testid={`owner-${data.name}`} data-node={o.node} data-term={o.term} style={{ lineHeight: '16px' }}>
      <Text fz="xs" fw={o.thisNode ? 600 : 400} c={o.live ? undefined : 'dimmed'} span>
        {ownerNodeText(o)}
      </Text>
      <Text fz={11} c="dimmed">
        {ownerLeaseText(o, (iso) => formatLocalSeconds(iso, timeZone).slice(11))}
      </Text>
    </div>
  );
}

/**
 * /service-status (spec 001 §2, §4): the overall health banner from the critical services, every
 * service with its type, criticality, status, last heartbeat and stale age, and each client's FIX
 * session with what an operator watches. Polled every 30 s, updated live from `service_status`.
 */
export default function ServiceStatusPage() {
  useLiveHold();
  const timeZone = useDisplayZone();
  const { services, lastUpdated, error, loading, reload } = useServiceStatus();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const health = useMemo(() => overallHealth(services ?? []), [services]);
  const sessions = useMemo(() => (services ?? []).filter((s) => s.session), [services]);

  // The spec's columns (type, description, criticality, status, last heartbeat, stale age), then the
  // details; description and details share what is left and wrap.
  const columns = useMemo<ColDef<ServiceStatusEntry>[]>(
    () => [
      { headerName: 'Service', field: 'name', width: 170, cellStyle: { ...WRAPPED, fontWeight: 600 } },
      { headerName: 'Type', field: 'type', width: 112, cellRenderer: TypeCell, cellStyle: FIRST_LINE },
      { headerName: 'Description', field: 'description', flex: 1, minWidth: 160 },
      { headerName: 'Critical', colId: 'critical', width: 66, valueGetter: (p) => (p.data?.critical ? 'Yes' : 'No') },
      {
        headerName: 'Status',
        colId: 'status',
        width: 96,
        cellRenderer: StatusCell,
        cellStyle: FIRST_LINE,
        valueGetter: (p) => p.data?.status,
      },
      {
        headerName: 'Last heartbeat',
        colId: 'lastHeartbeat',
        width: 184,
        valueGetter: (p) => (p.data?.lastHeartbeat ? formatLocalTime(p.data.lastHeartbeat, timeZone) : 'Never'),
      },
      { headerName: 'Stale age', colId: 'stale', width: 72, valueGetter: (p) => (p.data ? staleAgeText(p.data) : '') },
      {
        headerName: 'Details',
        colId: 'details',
        flex: 1.6,
        minWidth: 220,
        valueGetter: (p) => (p.data ? detailText(p.data) : ''),
        tooltipValueGetter: (p) => (p.data ? detailText(p.data) : ''),
      },
    ],
    [timeZone],
  );

  // What an operator watches first (client, status, owner, whether it should be logged on), the
  // session's live figures, then its configuration (TLS, schedule). Narrow columns; texts wrap.
  const sessionColumns = useMemo<ColDef<ServiceStatusEntry>[]>(
    () => [
      {
        headerName: 'Client',
        colId: 'client',
        width: 96,
        pinned: 'left',
        valueGetter: (p) =>
          String(p.data?.metadata.targetCompID ?? '') +
          (p.data?.trading_stop ? ' (stopped)' : '') +
          (p.data?.session?.dropCopy ? ' (drop copy)' : ''),
        cellRenderer: ClientCell,
        cellRendererParams: { timeZone },
        cellStyle: { ...WRAPPED, paddingTop: '6px', paddingBottom: '6px' },
      },
      {
        headerName: 'Status',
        colId: 'status',
        width: 80,
        cellRenderer: StatusCell,
        cellStyle: FIRST_LINE,
        valueGetter: (p) => p.data?.status,
      },
      {
        headerName: 'Owner (node, lease term, expiry)',
        colId: 'owner',
        flex: 1,
        minWidth: 136,
        cellRenderer: OwnerCell,
        cellRendererParams: { timeZone },
        cellStyle: { ...WRAPPED, paddingTop: '6px', paddingBottom: '6px' },
        valueGetter: (p) => {
          const o = p.data ? sessionOwner(p.data) : undefined;
          return o ? `${ownerNodeText(o)} ${ownerLeaseText(o, (iso) => formatLocalSeconds(iso, timeZone).slice(11))}` : '';
        },
        tooltipValueGetter: (p) => {
          const o = p.data ? sessionOwner(p.data) : undefined;
          return o
            ? `${o.live ? 'Owned' : 'Last owned'} by node ${ownerNodeText(o)} under lease term ${o.term}, ${o.live ? 'until' : 'expired'} ${formatLocalTime(o.expiresAt, timeZone)}`
            : 'Never owned by a node';
        },
      },
      {
        headerName: 'Expected now',
        colId: 'expectation',
        width: 88,
        cellRenderer: ExpectationCell,
        cellStyle: { ...WRAPPED, ...FIRST_LINE },
      },
      {
        headerName: 'Since inbound / HeartBtInt',
        colId: 'silence',
        width: 70,
        valueGetter: (p) => (p.data?.session ? silenceText(p.data.session) : ''),
      },
      {
        headerName: 'Test requests (unanswered)',
        colId: 'testRequests',
        width: 86,
        valueGetter: (p) => (p.data?.session ? `${p.data.session.testRequests.sent} (${p.data.session.testRequests.unanswered})` : ''),
      },
      {
        headerName: 'Resend requests (gap)',
        colId: 'resends',
        flex: 1,
        minWidth: 84,
        valueGetter: (p) => (p.data?.session ? resendText(p.data.session) : ''),
      },
      {
        headerName: 'Session rejects by reason',
        colId: 'sessionRejects',
        width: 74,
        valueGetter: (p) => (p.data?.session ? bothWays(p.data.session.sessionRejects) : ''),
      },
      {
        headerName: 'Business rejects by reason',
        colId: 'businessRejects',
        width: 74,
        valueGetter: (p) => (p.data?.session ? bothWays(p.data.session.businessRejects) : ''),
      },
      {
        headerName: 'Refused logons',
        colId: 'refused',
        width: 66,
        valueGetter: (p) => (p.data?.session ? countsText(p.data.session.refusedLogons) : ''),
      },
      {
        headerName: 'Queue',
        headerTooltip: "Messages waiting to go out; a drop copy session's copies not sent yet and the oldest one's age",
        colId: 'queue',
        width: 64,
        valueGetter: (p) => (p.data?.session ? queueText(p.data.session) : ''),
        cellStyle: WRAPPED,
      },
      {
        headerName: 'Order → accept p50 / worst (today)',
        colId: 'accept',
        width: 84,
        valueGetter: (p) => (p.data?.session ? acceptText(p.data.session) : ''),
      },
      {
        headerName: 'Messages in / out',
        colId: 'messages',
        width: 72,
        valueGetter: (p) => (p.data?.session ? `${p.data.session.messages.received} / ${p.data.session.messages.sent}` : ''),
      },
      { headerName: 'TLS cert', colId: 'tls', width: 48, valueGetter: (p) => (p.data?.session ? tlsText(p.data.session) : '') },
      {
        headerName: 'Schedule',
        colId: 'schedule',
        flex: 1,
        minWidth: 112,
        valueGetter: (p) => (p.data?.session ? scheduleText(p.data.session) : ''),
      },
    ],
    [timeZone],
  );

  const bannerColour = TOKEN_MANTINE[health.colour];
  const BannerIcon =
    health.level === 'operational'
      ? IconCircleCheck
      : health.level === 'unknown'
        ? IconHeartRateMonitor
        : health.level === 'major'
          ? IconCircleX
          : IconAlertTriangle;
  const missing = sessions.filter((s) => s.session?.expectation === 'missing');

  return (
    <Container size="xl" py="lg" w="100%">
      <PageHeader
        icon={IconHeartRateMonitor}
        title="Service Status"
        description="The desk's services and each client's FIX session, refreshed every 30 seconds and live as they change."
        actions={
          <Group gap="sm">
            <Text fz="xs" c="dimmed" data-testid="last-updated">
              {lastUpdated ? `Updated ${formatLocalTime(lastUpdated, timeZone)}` : ''}
            </Text>
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconRefresh size={14} />}
              onClick={reload}
              loading={loading && services !== null}
            >
              Refresh
            </Button>
          </Group>
        }
      />
      {error && dismissed !== error && (
        <Alert color="red" mb="sm" withCloseButton onClose={() => setDismissed(error)} data-testid="service-status-error">
          {error}
        </Alert>
      )}
      {services !== null && (
        <Alert
          color={bannerColour}
          variant="light"
          mb="sm"
          icon={<BannerIcon size={18} />}
          data-testid="health-banner"
          data-level={health.level}
          title={health.label}
        >
          <Text fz="xs">
            {health.level === 'unknown'
              ? 'No critical service is listed.'
              : `${services.filter((s) => s.critical && s.status === 'healthy').length} of ${services.filter((s) => s.critical).length} critical services healthy.`}
            {missing.length > 0 &&
              ` Expected in session and not logged on: ${missing.map((s) => String(s.metadata.targetCompID)).join(', ')}.`}
          </Text>
        </Alert>
      )}
      <Paper withBorder role="region" aria-label="Services">
        <AgGridReact<ServiceStatusEntry>
          theme={statusGridTheme}
          rowData={services}
          columnDefs={columns}
          defaultColDef={FIT_COLUMNS}
          getRowId={(p) => p.data.name}
          loading={services === null && !error}
          overlayNoRowsTemplate="<span>No services reported</span>"
          enableCellTextSelection
          tooltipShowDelay={300}
          domLayout="autoHeight"
        />
      </Paper>
      <Title order={2} fz="md" mt="md" mb={4}>
        FIX sessions
      </Title>
      <Text fz="xs" c="dimmed" mb="xs">
        Counts since this server started; order-to-accept times for today's orders (UTC). Reject reasons are the FIX codes (373, 380).
      </Text>
      <Paper withBorder role="region" aria-label="FIX sessions">
        <AgGridReact<ServiceStatusEntry>
          theme={statusGridTheme}
          rowData={services === null ? null : sessions}
          columnDefs={sessionColumns}
          defaultColDef={FIT_COLUMNS}
          tooltipShowDelay={300}
          getRowId={(p) => p.data.name}
          loading={services === null && !error}
          overlayNoRowsTemplate="<span>No client connectors are active</span>"
          enableCellTextSelection
          domLayout="autoHeight"
        />
      </Paper>
    </Container>
  );
}
