import { CreateSecuritySchema, SECURITY_FIELDS, SecurityText, UpdateSecuritySchema, type Security } from '@fixdesk/protocol';
import { ActionIcon, Button, Container, Text, TextInput, Tooltip } from '@mantine/core';
import { IconDatabase, IconPlus, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { TypedConfirmDeleteModal } from '../../components/admin/TypedConfirmDeleteModal';
import { useAdminResource } from '../../components/admin/useAdminResource';
import { useBanners } from '../../components/admin/useBanners';
import { securityMasterApi } from '../../services/security-master/securityMasterApi';
import { SECURITY_COLUMNS } from './securityColumns';

const FIELDS = Object.values(SECURITY_FIELDS);

const TEXTS = {
  loadFailed: ['Failed to fetch securities', (m: string) => `Error fetching securities: ${m}`],
  created: SecurityText.created,
  updated: SecurityText.updated,
  createFailed: [SecurityText.createFailed, SecurityText.createError],
  updateFailed: [SecurityText.updateFailed, SecurityText.updateError],
  deleted: (s: Security) => SecurityText.deleted(s.symbol),
  deleteFailed: [SecurityText.deleteFailed, SecurityText.deleteError],
} as const;

function matches(s: Security, needle: string): boolean {
  return (
    !needle ||
    [s.symbol, s.instrument_name, s.instrument_type, s.exchange_mics, s.asset_class].some((v) => v.toLowerCase().includes(needle))
  );
}

/** Security Master Configuration (spec 001 §2), admin only. */
export default function SecurityMasterScreen() {
  const banners = useBanners();
  const [filter, setFilter] = useState('');
  const resource = useAdminResource<Security>({
    ...securityMasterApi,
    banners,
    fields: FIELDS,
    texts: TEXTS,
  });
  const { rows, editingRow, deleting } = resource;

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => (rows === null ? null : rows.filter((s) => matches(s, needle))), [rows, needle]);
  const rowName = useCallback((s: Security) => `security ${s.symbol}`, []);
  const getRowId = useCallback((s: Security) => String(s.id), []);

  return (
    <Container size="xl" py="lg" w="100%">
      <AdminPageHeader
        icon={IconDatabase}
        title="Security Master"
        description="The instruments clients may trade: a security saved active is tradable by the next FIX order."
        count={rows?.length}
      >
        <TextInput
          aria-label="Filter securities"
          placeholder="Filter by symbol, name, type…"
          leftSection={<IconSearch size={15} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={260}
        />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={resource.reload} aria-label="Refresh securities">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => resource.open(null)}>
          Add Security
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <AdminTable<Security>
        label="Securities"
        rows={visible}
        columns={SECURITY_COLUMNS}
        getRowId={getRowId}
        rowName={rowName}
        onEdit={resource.open}
        onDelete={resource.askDelete}
      />
      <AdminFormModal
        {...resource.formProps}
        title={editingRow ? `Edit Security ${editingRow.symbol}` : 'Add Security'}
        fields={FIELDS}
        schema={editingRow ? UpdateSecuritySchema : CreateSecuritySchema}
        submitLabel={editingRow ? 'Save Changes' : 'Add Security'}
      />
      <TypedConfirmDeleteModal
        {...resource.deleteProps}
        title={deleting ? `Delete security ${deleting.symbol}` : 'Delete security'}
        expected={deleting?.instrument_name ?? ''}
        prompt={SecurityText.typeToConfirm(deleting?.instrument_name ?? '')}
      >
        <Text fz="sm">
          A security with orders cannot be deleted (deactivate it instead): the orders name it and are kept for compliance.
        </Text>
      </TypedConfirmDeleteModal>
    </Container>
  );
}
