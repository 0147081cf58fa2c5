import {
  CLIENT_DEFAULT_FIELDS,
  CLIENT_DEFAULT_MSG_TYPES,
  CLIENT_DEFAULT_SCREEN_MSG_TYPES,
  ClientDefaultsText,
  CreateClientDefaultSchema,
  isDropdownControlledTag,
  isTradingClient,
  UpdateClientDefaultSchema,
  VARIABLE_CHIPS,
  type ClientConnector,
  type ClientDefaultsPreview,
  type ClientFieldDefault,
  type ClientGroupDefaults,
  type ClientVariableInfo,
  type ComponentBlock,
} from '@fixdesk/protocol';
import { Badge, Button, Container, Group, Paper, Select, Text, Tooltip } from '@mantine/core';
import { IconEye, IconListDetails, IconPlus } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { ReferenceLoadNotice } from '../../components/reference/ReferenceLoadNotice';
import { useReferenceErrors } from '../../components/reference/useReferenceErrors';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { adminErrorText } from '../../components/admin/errors';
import { useAdminResource } from '../../components/admin/useAdminResource';
import { useBanners } from '../../components/admin/useBanners';
import { useConfirm } from '../../components/confirm/useConfirm';
import { clientDefaultsApi } from '../../services/client-defaults/clientDefaultsApi';
import { DEFAULT_COLUMNS } from './defaultColumns';
import { GroupDefaults } from './GroupDefaults';
import { PreviewModal } from './PreviewModal';

const FIELDS = Object.values(CLIENT_DEFAULT_FIELDS);
const MSG_NAMES: Record<string, string> = {
  D: 'NewOrderSingle',
  AB: 'NewOrderMultileg',
  F: 'OrderCancelRequest',
  G: 'OrderCancelReplaceRequest',
  AC: 'MultilegOrderCancelReplace',
  '8': 'ExecutionReport',
  '0': 'Heartbeat',
  '1': 'TestRequest',
  '2': 'ResendRequest',
  '4': 'SequenceReset',
  '5': 'Logout',
  A: 'Logon',
};
const WRITABLE = new Set<string>(CLIENT_DEFAULT_MSG_TYPES);

const saveFailed = [ClientDefaultsText.saveFailed, (m: string) => `${ClientDefaultsText.saveFailed}: ${m}`] as const;
const TEXTS = {
  loadFailed: [ClientDefaultsText.fetchFieldsFailed, ClientDefaultsText.fetchFieldsError],
  created: ClientDefaultsText.created,
  updated: ClientDefaultsText.created,
  createFailed: saveFailed,
  updateFailed: saveFailed,
  deleted: () => 'Default deleted successfully',
  deleteFailed: [ClientDefaultsText.deleteFailed, (m: string) => `${ClientDefaultsText.deleteFailed}: ${m}`],
} as const;

/** Client FIX field defaults (spec 001 §2 "Client FIX field defaults"), admin only. */
export default function FixClientDefaultsScreen() {
  const banners = useBanners();
  const { confirm, dialog: confirmDialog } = useConfirm();
  const { showError } = banners;
  const [connectors, setConnectors] = useState<ClientConnector[]>([]);
  const [execTypes, setExecTypes] = useState<Array<{ enum_value: string; description: string }>>([]);
  const [variables, setVariables] = useState<ClientVariableInfo[]>([]);
  const [connectorId, setConnectorId] = useState<number | null>(null);
  const [msgType, setMsgType] = useState<string | null>('D');
  const [execType, setExecType] = useState<string | null>(null);
  const [groups, setGroups] = useState<ClientGroupDefaults[]>([]);
  const [blocks, setBlocks] = useState<ComponentBlock[]>([]);
  const [preview, setPreview] = useState<ClientDefaultsPreview | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const reference = useReferenceErrors();
  const referenceFailed = reference.failed;

  useEffect(() => {
    const controller = new AbortController();
    const warn = (what: string) => (err: unknown) => !controller.signal.aborted && console.warn(`FIX Client Defaults: ${what} failed`, err);
    // Reference loads say they failed ('Client Connectors API failed: 503', spec 000 §8); the variables only warn.
    const failed = (key: string) => (err: unknown) => !controller.signal.aborted && referenceFailed(key, err);
    clientDefaultsApi.connectors(controller.signal).then((all) => {
      // Client defaults shape a client's own reports; a drop copy session's copies have the desk's standard shape.
      const list = all.filter(isTradingClient);
      setConnectors(list);
      setConnectorId((id) => id ?? list[0]?.id ?? null);
    }, failed('connectors'));
    clientDefaultsApi.execTypes(controller.signal).then(setExecTypes, failed('execTypes'));
    clientDefaultsApi.variables(controller.signal).then(setVariables, warn('variables'));
    return () => controller.abort();
  }, [referenceFailed]);

  const activeExec = msgType === '8' ? execType : null;
  const resource = useAdminResource({
    ...clientDefaultsApi,
    banners,
    fields: FIELDS,
    texts: TEXTS,
    rowKey: (r: ClientFieldDefault) => r.default_id,
    listKey: `${connectorId}|${msgType}|${activeExec}`,
    list: (signal) => (connectorId && msgType ? clientDefaultsApi.defaults(connectorId, msgType, activeExec, signal) : Promise.resolve([])),
    // An edit changes the value and the notes only.
    update: (id, p) => clientDefaultsApi.update(id, { default_value: p.default_value, notes: p.notes === '' ? null : p.notes }),
  });
  const { rows, reload, reloads, editingRow } = resource;

  useEffect(() => {
    if (!connectorId || !msgType) return;
    const controller = new AbortController();
    // Other fetch failures only log warnings (spec 001 §8).
    clientDefaultsApi
      .groups(connectorId, msgType, activeExec, controller.signal)
      .then(setGroups, (err: unknown) => !controller.signal.aborted && console.warn('groups failed', err));
    clientDefaultsApi
      .blocks(msgType, controller.signal)
      .then(setBlocks, (err: unknown) => !controller.signal.aborted && console.warn('component blocks failed', err));
    return () => controller.abort();
  }, [connectorId, msgType, activeExec, reloads]);

  const writable = msgType !== null && WRITABLE.has(msgType);
  const remove = async (row: ClientFieldDefault) => {
    if (await confirm({ title: 'Delete default', message: ClientDefaultsText.confirmDelete, confirmLabel: 'Delete' }))
      await resource.remove(row);
  };

  const runPreview = async () => {
    if (!connectorId || !msgType) return showError(ClientDefaultsText.selectClient);
    setPreviewing(true);
    try {
      setPreview(await clientDefaultsApi.preview({ client_connector_id: connectorId, msg_type: msgType, exec_type: activeExec }));
    } catch (err) {
      showError(adminErrorText(err, ClientDefaultsText.previewFailed, ClientDefaultsText.previewError));
    } finally {
      setPreviewing(false);
    }
  };

  const connectorOptions = useMemo(
    () =>
      connectors.map((c) => ({
        value: String(c.id),
        label: `${c.comp_id} → ${c.target_comp_id}${c.client_name ? ` · ${c.client_name}` : ''}`,
      })),
    [connectors],
  );
  const locked = useCallback(
    (r: ClientFieldDefault) => (isDropdownControlledTag(r.tag) ? 'Set by a dropdown in the order forms' : null),
    [],
  );
  const rowName = useCallback((r: ClientFieldDefault) => `default ${r.field_name} (${r.tag})`, []);
  const getRowId = useCallback((r: ClientFieldDefault) => String(r.default_id), []);

  return (
    <Container size="xl" py="lg" w="100%">
      <AdminPageHeader
        icon={IconListDetails}
        title="FIX Client Defaults"
        description="Field values written into a client's messages when the message leaves them out; %VARIABLES% are resolved per client."
        count={rows?.length}
      >
        <Button variant="default" leftSection={<IconEye size={16} />} onClick={() => void runPreview()} loading={previewing}>
          Preview with Variables
        </Button>
        <Tooltip label={writable ? 'Add a field default' : `Defaults apply to ${CLIENT_DEFAULT_MSG_TYPES.join(', ')}`}>
          <Button leftSection={<IconPlus size={16} />} onClick={() => resource.open(null)} disabled={!writable}>
            Add Default
          </Button>
        </Tooltip>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <ReferenceLoadNotice errors={reference.errors} />
      <Paper withBorder p="sm" mb="md">
        <Group gap="md" align="flex-end">
          <Select
            label="Client connector"
            data={connectorOptions}
            value={connectorId ? String(connectorId) : null}
            onChange={(v) => setConnectorId(v ? Number(v) : null)}
            w={420}
            searchable
          />
          <Select
            label="Message type"
            data={CLIENT_DEFAULT_SCREEN_MSG_TYPES.map((t) => ({ value: t, label: `${t} · ${MSG_NAMES[t] ?? ''}` }))}
            value={msgType}
            onChange={(v) => {
              setMsgType(v);
              if (v !== '8') setExecType(null);
            }}
            w={260}
            allowDeselect={false}
          />
          <Select
            label="Execution type (optional)"
            placeholder={msgType === '8' ? 'All ExecTypes' : 'ExecutionReport (8) only'}
            data={execTypes.map((e) => ({ value: e.enum_value, label: `${e.enum_value} · ${e.description}` }))}
            value={activeExec}
            onChange={setExecType}
            disabled={msgType !== '8'}
            clearable
            w={260}
          />
        </Group>
        <Group gap={6} mt="sm" aria-label="Variables">
          <Text fz="xs" c="dimmed" mr={4}>
            Variables:
          </Text>
          {variables.slice(0, VARIABLE_CHIPS).map((v) => (
            <Tooltip key={v.name} label={`${v.description} (${v.source})`}>
              <Badge variant="light" color="indigo" size="sm" tt="none" ff="monospace" style={{ cursor: 'help' }}>
                {v.placeholder}
              </Badge>
            </Tooltip>
          ))}
        </Group>
      </Paper>
      <AdminTable<ClientFieldDefault>
        label="Field defaults"
        rows={rows}
        columns={DEFAULT_COLUMNS}
        getRowId={getRowId}
        rowName={rowName}
        onEdit={writable ? resource.open : undefined}
        onDelete={writable ? (r) => void remove(r) : undefined}
        editBlocked={locked}
        deleteBlocked={locked}
        height={300}
        emptyText="No field defaults for this client and message type"
      />
      <GroupDefaults
        connectorId={connectorId}
        msgType={msgType}
        execType={activeExec}
        groups={groups}
        blocks={blocks}
        writable={writable}
        banners={banners}
        onChanged={reload}
      />
      <AdminFormModal
        {...resource.formProps}
        title={
          editingRow
            ? `Edit default ${editingRow.field_name} (${editingRow.tag})`
            : `Add default to ${msgType ?? ''}${activeExec ? ` ExecType ${activeExec}` : ''}`
        }
        fields={FIELDS}
        schema={editingRow ? UpdateClientDefaultSchema : CreateClientDefaultSchema}
        extraPayload={editingRow ? {} : { client_connector_id: connectorId, msg_type: msgType, exec_type: activeExec }}
        precheck={(p) =>
          !editingRow && (!p.client_connector_id || !p.msg_type || p.tag === '' || p.tag === undefined)
            ? ClientDefaultsText.fillRequired
            : null
        }
        submitLabel={editingRow ? 'Save Changes' : 'Create Default'}
      />
      <PreviewModal preview={preview} onClose={() => setPreview(null)} />
      {confirmDialog}
    </Container>
  );
}
