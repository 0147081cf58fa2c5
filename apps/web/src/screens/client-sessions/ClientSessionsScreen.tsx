import { ApiError } from '@fixdesk/client';
import { CreateSessionSchema, SESSION_FIELDS, SessionText, UpdateSessionSchema, type ClientSessionRecord, type SessionValues } from '@fixdesk/protocol';
import { ActionIcon, Alert, Button, Container, Table, Text, Tooltip } from '@mantine/core';
import { IconArrowsExchange, IconHistory, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { ClientFilter, useClientConnectors } from '../../components/admin/ClientFilter';
import { adminErrorText } from '../../components/admin/errors';
import { initialValues, type FormValues } from '../../components/admin/formValues';
import { useBanners } from '../../components/admin/useBanners';
import { sessionsApi } from '../../services/client-onboarding/onboardingApi';
import { SESSION_COLUMNS, when } from './sessionColumns';

const FIELDS = Object.values(SESSION_FIELDS);

type Editing = { mode: 'add' } | { mode: 'edit'; session: ClientSessionRecord } | null;

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
  const show = (k: keyof SessionValues, v: SessionValues[keyof SessionValues]) => (v === null ? '—' : k === 'session_start' || k === 'session_end' ? when(v as string) : String(v));
  return (
    <Alert color="orange" variant="light" icon={<IconHistory size={18} />} title={`Corrected by ${session.corrected_by ?? 'unknown'}${session.corrected_at ? ` at ${when(session.corrected_at)}` : ''}`} mt="sm">
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

/** Client Sessions (spec 001 §2; issue 15), admin only: every FIX session the acceptor recorded, with corrections. */
export default function ClientSessionsScreen() {
  const banners = useBanners();
  const { showError } = banners;
  const [rows, setRows] = useState<ClientSessionRecord[] | null>(null);
  const connectors = useClientConnectors(showError);
  const [client, setClient] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [values, setValues] = useState<FormValues>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setRows(null);
    sessionsApi
      .list(client ?? undefined, controller.signal)
      .then(setRows)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) {
          setRows([]);
          showError(adminErrorText(err, SessionText.fetchFailed, (m) => `${SessionText.fetchFailed}: ${m}`));
        }
      });
    return () => controller.abort();
  }, [client, reloads, showError]);

  const open = (next: Editing) => {
    setEditing(next);
    if (next?.mode === 'edit') {
      const s = next.session;
      setValues({ ...initialValues(FIELDS, s as unknown as Record<string, unknown>), session_start: formTime(s.session_start), session_end: formTime(s.session_end) });
    } else {
      const v = initialValues(FIELDS, null);
      if (client) v.comp_id = client;
      setValues(v);
    }
    setServerErrors({});
    setFormError(null);
  };

  const save = async (payload: Record<string, unknown>) => {
    if (!editing) return;
    const adding = editing.mode === 'add';
    const failed = adding ? SessionText.createFailed : SessionText.updateFailed;
    try {
      const answer = adding ? await sessionsApi.create(payload) : await sessionsApi.update(editing.session.id, payload);
      setEditing(null);
      banners.showSuccess(answer.message ?? (adding ? SessionText.created : SessionText.updated));
      setReloads((n) => n + 1);
    } catch (err) {
      const text = adminErrorText(err, failed, (m) => `${failed}: ${m}`);
      const field = err instanceof ApiError ? err.field : undefined;
      if (field && FIELDS.some((f) => f.name === field)) setServerErrors({ [field]: text });
      else setFormError(text);
      throw err;
    }
  };

  const remove = useCallback(
    async (s: ClientSessionRecord) => {
      if (!window.confirm(SessionText.confirmDelete(s.id))) return;
      try {
        const answer = await sessionsApi.remove(s.id);
        banners.showSuccess(answer.message ?? SessionText.deleted(s.id));
        setReloads((n) => n + 1);
      } catch (err) {
        banners.showError(adminErrorText(err, SessionText.deleteFailed, (m) => `${SessionText.deleteFailed}: ${m}`));
      }
    },
    [banners],
  );

  const rowName = useCallback((s: ClientSessionRecord) => `session ${s.id}`, []);
  const getRowId = useCallback((s: ClientSessionRecord) => String(s.id), []);
  const editingRow = editing?.mode === 'edit' ? editing.session : null;

  return (
    <Container fluid px="lg" py="lg" w="100%">
      <AdminPageHeader icon={IconArrowsExchange} title="Client Sessions" description="Every FIX session of every client, recorded by the acceptor: logons, logouts and why, message and order counts." count={rows?.length}>
        <ClientFilter connectors={connectors} value={client} onChange={setClient} />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={() => setReloads((n) => n + 1)} aria-label="Refresh sessions">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => open({ mode: 'add' })}>
          Add Session
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <AdminTable<ClientSessionRecord>
        label="Client sessions"
        rows={rows}
        columns={SESSION_COLUMNS}
        getRowId={getRowId}
        rowName={rowName}
        onEdit={(s) => open({ mode: 'edit', session: s })}
        onDelete={(s) => void remove(s)}
        emptyText={client ? `No sessions of ${client} yet` : 'No sessions recorded yet'}
      />
      <AdminFormModal
        opened={editing !== null}
        title={editingRow ? `Edit Session ${editingRow.id} (${editingRow.comp_id})` : 'Add Session'}
        fields={FIELDS}
        schema={editingRow ? UpdateSessionSchema : CreateSessionSchema}
        values={values}
        options={{ comp_id: connectors.map((c) => ({ value: c.comp_id, label: c.comp_id })) }}
        locked={editingRow ? { comp_id: 'The comp ID of a session cannot be changed' } : {}}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        submitLabel={editingRow ? 'Save Correction' : 'Add Session'}
        onClose={() => setEditing(null)}
        onSubmit={save}
        serverErrors={serverErrors}
        formError={formError}
      >
        {editingRow?.recorded && (
          <Text fz="xs" c="dimmed" mt="sm">
            Recorded by the acceptor{editingRow.remote_address ? ` from ${editingRow.remote_address}` : ''}: a correction is kept beside the recorded values, which stay visible.
          </Text>
        )}
        {editingRow && <RecordedValues session={editingRow} />}
      </AdminFormModal>
    </Container>
  );
}
