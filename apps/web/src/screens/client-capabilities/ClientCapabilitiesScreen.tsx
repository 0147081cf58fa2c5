import {
  CAPABILITY_FIELDS,
  CapabilityText,
  CreateCapabilitySchema,
  UpdateCapabilitySchema,
  type ClientCapabilityRecord,
  type Security,
} from '@fixdesk/protocol';
import { ActionIcon, Button, Container, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconRefresh, IconShieldCheck } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { ClientFilter, connectorLabel, useClientConnectors } from '../../components/admin/ClientFilter';
import { ConfirmDeleteModal } from '../../components/admin/ConfirmDeleteModal';
import { adminErrorText } from '../../components/admin/errors';
import { initialValues } from '../../components/admin/formValues';
import { useAdminResource, type FailureText } from '../../components/admin/useAdminResource';
import { useBanners } from '../../components/admin/useBanners';
import { capabilitiesApi } from '../../services/client-onboarding/onboardingApi';
import { securityMasterApi } from '../../services/security-master/securityMasterApi';
import { CAPABILITY_COLUMNS } from './capabilityColumns';

const FIELDS = Object.values(CAPABILITY_FIELDS);
const failed = (text: string): FailureText => [text, (m) => `${text}: ${m}`];
const TEXTS = {
  loadFailed: [CapabilityText.fetchFailed, (m: string) => `Error: ${m}`],
  created: CapabilityText.created,
  updated: CapabilityText.updated,
  createFailed: failed(CapabilityText.createFailed),
  updateFailed: failed(CapabilityText.updateFailed),
  deleted: (c: ClientCapabilityRecord) => CapabilityText.deleted(c.id),
  deleteFailed: failed(CapabilityText.deleteFailed),
} as const;

/** Client Capabilities (spec 001 §2), admin only: what each client may trade, enforced at intake. */
export default function ClientCapabilitiesScreen() {
  const banners = useBanners();
  const { showError } = banners;
  const connectors = useClientConnectors(showError, { tradingOnly: true });
  const [securities, setSecurities] = useState<Security[]>([]);
  const [client, setClient] = useState<string | null>(null);
  const resource = useAdminResource<ClientCapabilityRecord>({
    ...capabilitiesApi,
    banners,
    fields: FIELDS,
    texts: TEXTS,
    listKey: client,
    list: (signal) => capabilitiesApi.list(client ?? undefined, signal),
    toValues: (c) => {
      const v = initialValues(FIELDS, c);
      if (c) {
        v.additional_params = Object.keys(c.additional_params ?? {}).length ? JSON.stringify(c.additional_params) : '';
      } else {
        // A new capability is for the client the screen is filtered on.
        const chosen = connectors.find((x) => x.comp_id === client);
        if (chosen) v.clientconnectors_id = String(chosen.id);
      }
      return v;
    },
  });
  const { editingRow, deleting } = resource;

  useEffect(() => {
    const controller = new AbortController();
    securityMasterApi
      .list(controller.signal)
      .then(setSecurities)
      .catch((err: unknown) => {
        if (!controller.signal.aborted)
          showError(adminErrorText(err, 'Failed to fetch securities', (m) => `Error fetching securities: ${m}`));
      });
    return () => controller.abort();
  }, [showError]);

  const options = useMemo(
    () => ({
      clientconnectors_id: connectors.map((c) => ({ value: String(c.id), label: connectorLabel(c) })),
      security_master_id: securities.map((s) => ({ value: String(s.id), label: `${s.symbol} — ${s.instrument_name}` })),
    }),
    [connectors, securities],
  );

  const rowName = useCallback((c: ClientCapabilityRecord) => `capability ${c.id} of ${c.comp_id}`, []);
  const getRowId = useCallback((c: ClientCapabilityRecord) => String(c.id), []);

  return (
    <Container fluid px="lg" py="lg" w="100%">
      <AdminPageHeader
        icon={IconShieldCheck}
        title="Client Capabilities"
        description="What each client may trade: checked on every order at intake; a change applies to the next order."
        count={resource.rows?.length}
      >
        <ClientFilter connectors={connectors} value={client} onChange={setClient} />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={resource.reload} aria-label="Refresh capabilities">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => resource.open(null)}>
          Add Capability
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <AdminTable<ClientCapabilityRecord>
        label="Client capabilities"
        rows={resource.rows}
        columns={CAPABILITY_COLUMNS}
        getRowId={getRowId}
        rowName={rowName}
        onEdit={resource.open}
        onDelete={resource.askDelete}
        emptyText={
          client ? `${client} has no capability: every order of it is refused` : 'No capabilities yet: clients without one cannot trade'
        }
      />
      <AdminFormModal
        {...resource.formProps}
        title={editingRow ? `Edit Capability ${editingRow.id} (${editingRow.comp_id})` : 'Add Capability'}
        fields={FIELDS}
        schema={editingRow ? UpdateCapabilitySchema : CreateCapabilitySchema}
        options={options}
        locked={editingRow ? { clientconnectors_id: 'The client of a capability cannot be changed' } : {}}
        submitLabel={editingRow ? 'Save Changes' : 'Add Capability'}
      />
      <ConfirmDeleteModal
        {...resource.deleteProps}
        title={deleting ? `Delete capability ${deleting.id} (${deleting.comp_id})` : 'Delete capability'}
        question={CapabilityText.confirmDelete}
      >
        <Text fz="sm" c="dimmed">
          The client's next order is checked without it: a client left with no capability cannot trade.
        </Text>
      </ConfirmDeleteModal>
    </Container>
  );
}
