import {
  CreateSessionSchema,
  SESSION_FIELDS,
  SessionText,
  UpdateSessionSchema,
  type ClientSessionRecord,
  type SessionValues,
} from '@fixdesk/protocol';
import { ActionIcon, Alert, Button, Container, Table, Text, Tooltip } from '@mantine/core';
import { IconArrowsExchange, IconHistory, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { ClientFilter, useClientConnectors } from '../../components/admin/ClientFilter';
import { ConfirmDeleteModal } from '../../components/admin/ConfirmDeleteModal';
import { initialValues } from '../../components/admin/formValues';
import { useAdminResource, type FailureText } from '../../components/admin/useAdminResource';
import { useBanners } from '../../components/admin/useBanners';
import { sessionsApi } from '../../services/client-onboarding/onboardingApi';
import { SESSION_COLUMNS, when } from './sessionColumns';

const FIELDS = Object.values(SESSION_FIELDS);

const failed = (text: string): FailureText => [text, (m) => `${text}: ${m}`];
const TEXTS = {
  loadFailed: failed(SessionText.fetchFailed),
  created: SessionText.created,
  updated: SessionText.updated,
  createFailed: failed(SessionText.createFailed),
  updateFailed: failed(SessionText.updateFailed),
  deleted: (s: ClientSessionRecord) => SessionText.deleted(s.id),
  deleteFailed: failed(SessionText.deleteFailed),
} as const;

/** ISO → the form's 'YYYY-MM-DD HH:MM:SS' (UTC). */
const formTime = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '') : '');

const ORIGINAL_ROWS: [keyof SessionValues, string][] = [
  ['session_start', 'Start'],
  ['session_end', 'End'],
  ['disconnect_reason', 'Disconnect reason'],
  ['messages_sent', 'Messages sent'],
  ['messages_received', 'Messages received'],
  ['orders_processed', 'Orders processed'],
];

/** What the acceptor recorded, beside the correction in force. */
function RecordedValues({ session }: { session: ClientSessionRecord }) {
  const original = session.original;
  if (!original) return null;
  const show = (k: keyof SessionValues, v: SessionValues[keyof SessionValues]) =>
    v === null ? '—' : k === 'session_start' || k === 'session_end' ? when(v as string) : String(v);
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconHistory size={18} />}
      title={`Corrected by ${session.corrected_by ?? 'unknown'}${session.corrected_at ? ` at ${when(session.corrected_at)}` : ''}`}
      mt="sm"
    >
      <Table fz="xs" withRowBorders={false} verticalSpacing={2}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th>Recorded by the acceptor</Table.Th>
            <Table.Th>In force</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ORIGINAL_ROWS.map(([k, label]) => (
            <Table.Tr key={k} fw={original[k] !== session[k] ? 600 : undefined}>
              <Table.Td>{label}</Table.Td>
              <Table.Td>{show(k, original[k])}</Table.Td>
              <Table.Td>{show(k, session[k])}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Alert>
  );
}

/** Client Sessions (spec 001 §2), admin only: every FIX session the acceptor recorded, with corrections. */
export default function ClientSessionsScreen() {
  const banners = useBanners();
  const connectors = useClientConnectors(banners.showError);
  const [client, setClient] = useState<string | null>(null);
  const resource = useAdminResource<ClientSessionRecord>({
    ...sessionsApi,
    banners,
    fields: FIELDS,
    texts: TEXTS,
    listKey: client,
    list: (signal) => sessionsApi.list(client ?? undefined, signal),
    toValues: (s) => {
      if (s)
        return {
          ...initialValues(FIELDS, s),
          session_start: formTime(s.session_start),
          session_end: formTime(s.session_end),
        };
      // A new session is for the client the screen is filtered on.
      const v = initialValues(FIELDS, null);
      if (client) v.comp_id = client;
      return v;
    },
  });
  const { editingRow, deleting } = resource;

  const rowName = useCallback((s: ClientSessionRecord) => `session ${s.id}`, []);
  const getRowId = useCallback((s: ClientSessionRecord) => String(s.id), []);

  return (
    <Container fluid px="lg" py="lg" w="100%">
      <AdminPageHeader
        icon={IconArrowsExchange}
        title="Client Sessions"
        description="Every FIX session of every client, recorded by the acceptor: logons, logouts and why, message and order counts."
        count={resource.rows?.length}
      >
        <ClientFilter connectors={connectors} value={client} onChange={setClient} />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={resource.reload} aria-label="Refresh sessions">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => resource.open(null)}>
          Add Session
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <AdminTable<ClientSessionRecord>
        label="Client sessions"
        rows={resource.rows}
        columns={SESSION_COLUMNS}
        getRowId={getRowId}
        rowName={rowName}
        onEdit={resource.open}
        onDelete={resource.askDelete}
        emptyText={client ? `No sessions of ${client} yet` : 'No sessions recorded yet'}
      />
      <AdminFormModal
        {...resource.formProps}
        title={editingRow ? `Edit Session ${editingRow.id} (${editingRow.comp_id})` : 'Add Session'}
        fields={FIELDS}
        schema={editingRow ? UpdateSessionSchema : CreateSessionSchema}
        options={{ comp_id: connectors.map((c) => ({ value: c.comp_id, label: c.comp_id })) }}
        locked={editingRow ? { comp_id: 'The comp ID of a session cannot be changed' } : {}}
        submitLabel={editingRow ? 'Save Correction' : 'Add Session'}
      >
        {editingRow?.recorded && (
          <Text fz="xs" c="dimmed" mt="sm">
            Recorded by the acceptor{editingRow.remote_address ? ` from ${editingRow.remote_address}` : ''}: a correction is kept beside the
            recorded values, which stay visible.
          </Text>
        )}
        {editingRow && <RecordedValues session={editingRow} />}
      </AdminFormModal>
      <ConfirmDeleteModal
        {...resource.deleteProps}
        title={deleting ? `Delete session ${deleting.id} (${deleting.comp_id})` : 'Delete session'}
        question={deleting ? SessionText.confirmDelete(deleting.id) : ''}
      />
    </Container>
  );
}
