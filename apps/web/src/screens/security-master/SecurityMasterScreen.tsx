import { CreateSecuritySchema, SECURITY_FIELDS, SecurityText, UpdateSecuritySchema, type Security } from '@fixdesk/protocol';
import { ActionIcon, Button, Container, Text, TextInput, Tooltip } from '@mantine/core';
import { IconDatabase, IconPlus, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { adminErrorText } from '../../components/admin/errors';
import { initialValues, type FormValues } from '../../components/admin/formValues';
import { TypedConfirmDeleteModal } from '../../components/admin/TypedConfirmDeleteModal';
import { useBanners } from '../../components/admin/useBanners';
import { ApiError } from '@fixdesk/client';
import { securityMasterApi } from '../../services/security-master/securityMasterApi';
import { SECURITY_COLUMNS } from './securityColumns';

const FIELDS = Object.values(SECURITY_FIELDS);

type Editing = { mode: 'add' } | { mode: 'edit'; security: Security } | null;

function matches(s: Security, needle: string): boolean {
  return !needle || [s.symbol, s.instrument_name, s.instrument_type, s.exchange_mics, s.asset_class].some((v) => v.toLowerCase().includes(needle));
}

/** Security Master Configuration (spec 001 §2; issue 14), admin only. */
export default function SecurityMasterScreen() {
  const banners = useBanners();
  const [rows, setRows] = useState<Security[] | null>(null);
  const [reloads, setReloads] = useState(0);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [values, setValues] = useState<FormValues>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // The security being deleted stays named while the dialog fades out.
  const [deleting, setDeleting] = useState<Security | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const askDelete = useCallback((s: Security) => {
    setDeleting(s);
    setDeleteOpen(true);
  }, []);
  const { showError } = banners;

  useEffect(() => {
    const controller = new AbortController();
    securityMasterApi
      .list(controller.signal)
      .then(setRows)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) {
          setRows((r) => r ?? []);
          showError(adminErrorText(err, 'Failed to fetch securities', (m) => `Error fetching securities: ${m}`));
        }
      });
    return () => controller.abort();
  }, [reloads, showError]);

  const open = (next: Editing) => {
    setEditing(next);
    setValues(initialValues(FIELDS, next?.mode === 'edit' ? (next.security as unknown as Record<string, unknown>) : null));
    setServerErrors({});
    setFormError(null);
  };

  const save = async (payload: Record<string, unknown>) => {
    if (!editing) return;
    const adding = editing.mode === 'add';
    try {
      const answer = adding ? await securityMasterApi.create(payload) : await securityMasterApi.update(editing.security.id, payload);
      setEditing(null);
      banners.showSuccess(answer.message ?? (adding ? SecurityText.created : SecurityText.updated));
      setReloads((n) => n + 1);
    } catch (err) {
      const text = adminErrorText(err, adding ? SecurityText.createFailed : SecurityText.updateFailed, adding ? SecurityText.createError : SecurityText.updateError);
      const field = err instanceof ApiError ? err.field : undefined;
      if (field && FIELDS.some((f) => f.name === field)) setServerErrors({ [field]: text });
      else setFormError(text);
      throw err;
    }
  };

  const confirmDelete = async () => {
    const s = deleting;
    if (!s) return;
    try {
      const answer = await securityMasterApi.remove(s.id);
      banners.showSuccess(answer.message ?? SecurityText.deleted(s.symbol));
      setReloads((n) => n + 1);
    } catch (err) {
      banners.showError(adminErrorText(err, SecurityText.deleteFailed, SecurityText.deleteError));
    } finally {
      setDeleteOpen(false);
    }
  };

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => (rows === null ? null : rows.filter((s) => matches(s, needle))), [rows, needle]);
  const rowName = useCallback((s: Security) => `security ${s.symbol}`, []);
  const getRowId = useCallback((s: Security) => String(s.id), []);

  return (
    <Container size="xl" py="lg" w="100%">
      <AdminPageHeader icon={IconDatabase} title="Security Master" description="The instruments clients may trade: a security saved active is tradable by the next FIX order." count={rows?.length}>
        <TextInput aria-label="Filter securities" placeholder="Filter by symbol, name, type…" leftSection={<IconSearch size={15} />} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} w={260} />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={() => setReloads((n) => n + 1)} aria-label="Refresh securities">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => open({ mode: 'add' })}>
          Add Security
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <AdminTable<Security> label="Securities" rows={visible} columns={SECURITY_COLUMNS} getRowId={getRowId} rowName={rowName} onEdit={(s) => open({ mode: 'edit', security: s })} onDelete={askDelete} />
      <AdminFormModal
        opened={editing !== null}
        title={editing?.mode === 'edit' ? `Edit Security ${editing.security.symbol}` : 'Add Security'}
        fields={FIELDS}
        schema={editing?.mode === 'edit' ? UpdateSecuritySchema : CreateSecuritySchema}
        values={values}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        submitLabel={editing?.mode === 'edit' ? 'Save Changes' : 'Add Security'}
        onClose={() => setEditing(null)}
        onSubmit={save}
        serverErrors={serverErrors}
        formError={formError}
      />
      <TypedConfirmDeleteModal
        opened={deleteOpen}
        title={deleting ? `Delete security ${deleting.symbol}` : 'Delete security'}
        expected={deleting?.instrument_name ?? ''}
        prompt={SecurityText.typeToConfirm(deleting?.instrument_name ?? '')}
        onCancel={() => setDeleteOpen(false)}
        onConfirm={confirmDelete}
      >
        <Text fz="sm">
          A security with orders cannot be deleted (deactivate it instead): the orders name it and are kept for compliance.
        </Text>
      </TypedConfirmDeleteModal>
    </Container>
  );
}
