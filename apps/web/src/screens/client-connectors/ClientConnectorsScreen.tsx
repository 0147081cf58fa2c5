import type { ClientConnector } from '@fixdesk/protocol';
import { ConnectorText, KillSwitchText } from '@fixdesk/protocol';
import { ActionIcon, Button, Container, TextInput, Tooltip } from '@mantine/core';
import { IconHandStop, IconPlayerPlay, IconPlug, IconPlus, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { useAdminResource } from '../../components/admin/useAdminResource';
import { useBanners } from '../../components/admin/useBanners';
import { connectorsApi } from '../../services/client-onboarding/onboardingApi';
import { useLiveHold, useLiveMessages, useLiveSelect } from '../../services/live/useLive';
import { KillSwitchModal, type KillSwitchTarget } from '../../components/kill-switch/KillSwitchModal';
import { useDisplayZone } from '../../components/time/displayZone';
import { applyTradingStatus } from '../../services/kill-switch/killSwitch';
import { offlineTradeBlock, useRoleTradeBlock } from '../../services/orders/tradeAccess';
import { ConnectorDialog } from './ConnectorDialog';
import { connectorColumns } from './connectorColumns';
import { CONNECTOR_FORM_FIELDS } from './connectorForm';

const failed = (text: string) => [text, (m: string) => `${text}: ${m}`] as const;
const TEXTS = {
  loadFailed: failed(ConnectorText.fetchFailed),
  created: ConnectorText.created,
  updated: ConnectorText.updated,
  createFailed: failed(ConnectorText.failed),
  updateFailed: failed(ConnectorText.failed),
  deleted: (c: ClientConnector) => ConnectorText.deleted(c.comp_id),
  deleteFailed: failed(ConnectorText.deleteFailed),
} as const;

function matches(c: ClientConnector, needle: string): boolean {
  return !needle || [c.comp_id, c.client_name, c.company_name, c.client_lei, c.host].some((v) => (v ?? '').toLowerCase().includes(needle));
}

/** Client Connectors (spec 001 §2), admin only: each client's FIX session, its settings and live state. */
export default function ClientConnectorsScreen() {
  const banners = useBanners();
  const [filter, setFilter] = useState('');
  // After a reconnect the list is read again: a change made meanwhile is not missed.
  const liveSession = useLiveSelect((s) => s.session);
  const resource = useAdminResource({
    ...connectorsApi,
    banners,
    fields: CONNECTOR_FORM_FIELDS,
    texts: TEXTS,
    rowKey: (c: ClientConnector) => c.comp_id,
    refreshKey: liveSession,
  });
  const { rows, setRows, reload } = resource;

  // A client logging on or off changes the live columns: the list is read again.
  useLiveHold();
  useLiveMessages('client_connection_status', reload);
  // A stop or a resume (here, another browser, another node): the row's Trading cell follows at once.
  useLiveMessages('client_trading_status', (m) => setRows((r) => (r ? (applyTradingStatus(r, m) as ClientConnector[]) : r)));
  const timeZone = useDisplayZone();
  const columns = useMemo(() => connectorColumns(timeZone), [timeZone]);
  // The kill switch: brokers and administrators (this screen is the administrators'; the server decides).
  const roleBlock = useRoleTradeBlock();
  const liveStatus = useLiveSelect((s) => s.status);
  const offline = offlineTradeBlock(liveStatus);
  const [killTarget, setKillTarget] = useState<KillSwitchTarget | null>(null);
  const rowActions = useCallback(
    (c: ClientConnector) => {
      const stop = c.trading_stop;
      const text = stop ? KillSwitchText.resumeAction : KillSwitchText.stopAction;
      return (
        <Tooltip label={offline ?? text}>
          <ActionIcon
            size="sm"
            variant="subtle"
            color={stop ? 'green' : 'red'}
            aria-label={`${text} ${c.comp_id}`}
            disabled={offline !== null}
            onClick={() => setKillTarget({ compId: c.comp_id, mode: stop ? 'resume' : 'stop', stop })}
            data-testid={`${stop ? 'resume' : 'stop'}-client-${c.comp_id}`}
          >
            {stop ? <IconPlayerPlay size={15} /> : <IconHandStop size={15} />}
          </ActionIcon>
        </Tooltip>
      );
    },
    [offline],
  );

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => (rows === null ? null : rows.filter((c) => matches(c, needle))), [rows, needle]);
  const rowName = useCallback((c: ClientConnector) => `connector ${c.comp_id}`, []);
  const getRowId = useCallback((c: ClientConnector) => String(c.id), []);

  return (
    <Container fluid px="lg" py="lg" w="100%">
      <AdminPageHeader
        icon={IconPlug}
        title="Client Connectors"
        description="Each client's FIX session: who may log on, how, and when. Changes apply without a restart, from the client's next logon."
        count={rows?.length}
      >
        <TextInput
          aria-label="Filter connectors"
          placeholder="Filter by comp ID, name, LEI…"
          leftSection={<IconSearch size={15} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={240}
        />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={reload} aria-label="Refresh connectors">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => resource.open(null)}>
          Add Connector
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <AdminTable<ClientConnector>
        label="Client connectors"
        rows={visible}
        columns={columns}
        getRowId={getRowId}
        rowName={rowName}
        onEdit={resource.open}
        rowActions={roleBlock === null ? rowActions : undefined}
        emptyText="No client connectors yet: add one to onboard a client"
      />
      <ConnectorDialog
        key={resource.formKey}
        resource={resource}
        onClose={() => {
          // The dialog's own tabs act at once (certificates, the session console): the row shows their effect.
          resource.close();
          reload();
        }}
        onDeleted={(message) => {
          resource.close();
          banners.showSuccess(message);
          reload();
        }}
      />
      <KillSwitchModal
        target={killTarget}
        workingCount={null}
        onClose={() => setKillTarget(null)}
        onDone={(result) => setRows((r) => (r ? (applyTradingStatus(r, result) as ClientConnector[]) : r))}
      />
    </Container>
  );
}
