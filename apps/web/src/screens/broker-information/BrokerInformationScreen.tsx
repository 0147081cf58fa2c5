import { BrokerText, type Broker } from '@fixdesk/protocol';
import { ActionIcon, Button, Container, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { IconBuilding, IconHistory, IconPlus, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { ChangeHistory } from '../../components/admin/ChangeHistory';
import { ConfirmDeleteModal } from '../../components/admin/ConfirmDeleteModal';
import { useAdminResource } from '../../components/admin/useAdminResource';
import { useBanners } from '../../components/admin/useBanners';
import { brokersApi } from '../../services/brokers/brokersApi';
import { BrokerDialog, BROKER_FORM_FIELDS } from './BrokerDialog';
import { BROKER_COLUMNS } from './brokerColumns';

const saveFailed = [BrokerText.saveFailed, (m: string) => `Error saving broker information: ${m}`] as const;
const TEXTS = {
  loadFailed: [BrokerText.fetchFailed, (m: string) => `Error fetching broker information: ${m}`],
  created: BrokerText.created,
  updated: BrokerText.updated,
  createFailed: saveFailed,
  updateFailed: saveFailed,
  deleted: (b: Broker) => BrokerText.deleted(b.company_name),
  deleteFailed: [BrokerText.deleteFailed, (m: string) => `Error deleting broker information: ${m}`],
} as const;

function matches(b: Broker, needle: string): boolean {
  return (
    !needle ||
    [b.company_name, b.lei ?? '', b.party_id ?? '', b.city ?? '', b.country ?? '', b.parent_company_name ?? ''].some((v) =>
      v.toLowerCase().includes(needle),
    )
  );
}

/** Broker Information Management (spec 001 §2, §5, §7, §8, §9), admin only. */
export default function BrokerInformationScreen() {
  const banners = useBanners();
  const [filter, setFilter] = useState('');
  const [view, setView] = useState<string | null>('brokers');
  const resource = useAdminResource({
    ...brokersApi,
    banners,
    fields: BROKER_FORM_FIELDS,
    texts: TEXTS,
    // Saved, the dialog goes on editing the broker: a new one has its contacts to add.
    afterSave: { stayOn: (answer) => answer.data },
  });
  const { rows, reloads, deleting } = resource;

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => (rows === null ? null : rows.filter((b) => matches(b, needle))), [rows, needle]);
  const rowName = useCallback((b: Broker) => `broker ${b.company_name}`, []);
  const getRowId = useCallback((b: Broker) => String(b.id), []);

  return (
    <Container size="xl" py="lg" w="100%">
      <AdminPageHeader
        icon={IconBuilding}
        title="Broker Information"
        description="Executing broker companies: address, FIX party data (the executing firm on execution reports) and contacts."
        count={rows?.length}
      >
        <TextInput
          aria-label="Filter brokers"
          placeholder="Filter by name, LEI, city…"
          leftSection={<IconSearch size={15} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={260}
        />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={resource.reload} aria-label="Refresh brokers">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => resource.open(null)}>
          Add Broker
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <Tabs value={view} onChange={setView} keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="brokers" leftSection={<IconBuilding size={15} />}>
            Brokers
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconHistory size={15} />}>
            Change History
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="brokers">
          <AdminTable<Broker>
            label="Brokers"
            rows={visible}
            columns={BROKER_COLUMNS}
            getRowId={getRowId}
            rowName={rowName}
            onEdit={resource.open}
            onDelete={resource.askDelete}
            emptyText={rows?.length ? 'No brokers match the filter' : 'No brokers yet'}
            height="calc(100vh - 300px)"
          />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <ChangeHistory entity="broker_information" reloadKey={reloads} />
        </Tabs.Panel>
      </Tabs>
      <BrokerDialog key={resource.formKey} resource={resource} brokers={rows} />
      <ConfirmDeleteModal
        {...resource.deleteProps}
        title={deleting ? `Delete broker ${deleting.company_name}` : 'Delete broker'}
        question={deleting ? `Are you sure you want to delete ${deleting.company_name} and its contacts?` : ''}
      >
        <Text fz="sm" c="dimmed">
          A broker named by client connectors, users or branches cannot be deleted: deactivate it instead.
        </Text>
      </ConfirmDeleteModal>
    </Container>
  );
}
