import { ApiError } from '@fixdesk/client';
import { CAPABILITY_FIELDS, CapabilityText, CreateCapabilitySchema, UpdateCapabilitySchema, type ClientCapabilityRecord, type Security } from '@fixdesk/protocol';
import { ActionIcon, Button, Container, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconRefresh, IconShieldCheck } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { ConfirmDeleteModal } from '../../components/admin/ConfirmDeleteModal';
import { ClientFilter, connectorLabel, useClientConnectors } from '../../components/admin/ClientFilter';
import { adminErrorText } from '../../components/admin/errors';
import { initialValues, type FormValues } from '../../components/admin/formValues';
import { useBanners } from '../../components/admin/useBanners';
import { capabilitiesApi } from '../../services/client-onboarding/onboardingApi';
import { securityMasterApi } from '../../services/security-master/securityMasterApi';
import { CAPABILITY_COLUMNS } from './capabilityColumns';

const FIELDS = Object.values(CAPABILITY_FIELDS);

type Editing = { mode: 'add' } | { mode: 'edit'; capability: ClientCapabilityRecord } | null;

/** Client Capabilities (spec 001 §2; issue 15), admin only: what each client may trade, enforced at intake. */
export default function ClientCapabilitiesScreen() {
  const banners = useBanners();
  const { showError } = banners;
  const [rows, setRows] = useState<ClientCapabilityRecord[] | null>(null);
  const connectors = useClientConnectors(showError);
  const [securities, setSecurities] = useState<Security[]>([]);
  const [client, setClient] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [values, setValues] = useState<FormValues>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    securityMasterApi
      .list(controller.signal)
      .then(setSecurities)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) showError(adminErrorText(err, 'Failed to fetch securities', (m) => `Error fetching securities: ${m}`));
      });
    return () => controller.abort();
  }, [showError]);

  useEffect(() => {
    const controller = new AbortController();
    setRows(null);
    capabilitiesApi
      .list(client ?? undefined, controller.signal)
      .then(setRows)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) {
          setRows([]);
          showError(adminErrorText(err, CapabilityText.fetchFailed, (m) => `Error: ${m}`));
        }
      });
    return () => controller.abort();
  }, [client, reloads, showError]);

  const options = useMemo(
    () => ({
      clientconnectors_id: connectors.map((c) => ({ value: String(c.id), label: connectorLabel(c) })),
      security_master_id: securities.map((s) => ({ value: String(s.id), label: `${s.symbol} — ${s.instrument_name}` })),
    }),
    [connectors, securities],
  );

  const open = (next: Editing) => {
    setEditing(next);
    if (next?.mode === 'edit') {
      const c = next.capability;
      const v = initialValues(FIELDS, c as unknown as Record<string, unknown>);
      v.additional_params = Object.keys(c.additional_params ?? {}).length ? JSON.stringify(c.additional_params) : '';
      setValues(v);
    } else {
      const v = initialValues(FIELDS, null);
      const chosen = connectors.find((c) => c.comp_id === client);
      if (chosen) v.clientconnectors_id = String(chosen.id);
      setValues(v);
    }
    setServerErrors({});
    setFormError(null);
  };

  const save = async (payload: Record<string, unknown>) => {
    if (!editing) return;
    const adding = editing.mode === 'add';
    try {
      const answer = adding ? await capabilitiesApi.create(payload) : await capabilitiesApi.update(editing.capability.id, payload);
      setEditing(null);
      banners.showSuccess(answer.message ?? (adding ? CapabilityText.created : CapabilityText.updated));
      setReloads((n) => n + 1);
    } catch (err) {
      const text = adminErrorText(err, adding ? CapabilityText.createFailed : CapabilityText.updateFailed, (m) => `${adding ? CapabilityText.createFailed : CapabilityText.updateFailed}: ${m}`);
      const field = err instanceof ApiError ? err.field : undefined;
      if (field && FIELDS.some((f) => f.name === field)) setServerErrors({ [field]: text });
      else setFormError(text);
      throw err;
    }
  };

  // The capability being deleted stays named while the dialog fades out.
  const [deleting, setDeleting] = useState<ClientCapabilityRecord | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const askDelete = useCallback((c: ClientCapabilityRecord) => {
    setDeleting(c);
    setDeleteOpen(true);
  }, []);
  const confirmDelete = async () => {
    const c = deleting;
    if (!c) return;
    try {
      const answer = await capabilitiesApi.remove(c.id);
      banners.showSuccess(answer.message ?? CapabilityText.deleted(c.id));
      setReloads((n) => n + 1);
    } catch (err) {
      banners.showError(adminErrorText(err, CapabilityText.deleteFailed, (m) => `${CapabilityText.deleteFailed}: ${m}`));
    } finally {
      setDeleteOpen(false);
    }
  };

  const rowName = useCallback((c: ClientCapabilityRecord) => `capability ${c.id} of ${c.comp_id}`, []);
  const getRowId = useCallback((c: ClientCapabilityRecord) => String(c.id), []);
  const editingRow = editing?.mode === 'edit' ? editing.capability : null;

  return (
    <Container fluid px="lg" py="lg" w="100%">
      <AdminPageHeader icon={IconShieldCheck} title="Client Capabilities" description="What each client may trade: checked on every order at intake; a change applies to the next order." count={rows?.length}>
        <ClientFilter connectors={connectors} value={client} onChange={setClient} />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={() => setReloads((n) => n + 1)} aria-label="Refresh capabilities">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => open({ mode: 'add' })}>
          Add Capability
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <AdminTable<ClientCapabilityRecord>
        label="Client capabilities"
        rows={rows}
        columns={CAPABILITY_COLUMNS}
        getRowId={getRowId}
        rowName={rowName}
        onEdit={(c) => open({ mode: 'edit', capability: c })}
        onDelete={askDelete}
        emptyText={client ? `${client} has no capability: every order of it is refused` : 'No capabilities yet: clients without one cannot trade'}
      />
      <AdminFormModal
        opened={editing !== null}
        title={editingRow ? `Edit Capability ${editingRow.id} (${editingRow.comp_id})` : 'Add Capability'}
        fields={FIELDS}
        schema={editingRow ? UpdateCapabilitySchema : CreateCapabilitySchema}
        values={values}
        options={options}
        locked={editingRow ? { clientconnectors_id: 'The client of a capability cannot be changed' } : {}}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        submitLabel={editingRow ? 'Save Changes' : 'Add Capability'}
        onClose={() => setEditing(null)}
        onSubmit={save}
        serverErrors={serverErrors}
        formError={formError}
      />
      <ConfirmDeleteModal
        opened={deleteOpen}
        title={deleting ? `Delete capability ${deleting.id} (${deleting.comp_id})` : 'Delete capability'}
        question={CapabilityText.confirmDelete}
        onCancel={() => setDeleteOpen(false)}
        onConfirm={confirmDelete}
      >
        <Text fz="sm" c="dimmed">
          The client's next order is checked without it: a client left with no capability cannot trade.
        </Text>
      </ConfirmDeleteModal>
    </Container>
  );
}
