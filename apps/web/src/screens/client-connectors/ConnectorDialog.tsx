import {
  CONNECTOR_FIELDS,
  CONNECTOR_TABS,
  ConnectorText,
  CreateConnectorSchema,
  UpdateConnectorSchema,
  type ClientConnector,
  type ConnectorTab,
  type FixAcceptorInfo,
} from '@fixdesk/protocol';
import { Alert, Badge, Box, Button, Group, Loader, Modal, Tabs } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { AdminFieldGrid, AdminFieldInput } from '../../components/admin/AdminFieldInput';
import { adminErrorText } from '../../components/admin/errors';
import { initialValues } from '../../components/admin/formValues';
import { firstProblemTab, useAdminForm } from '../../components/admin/useAdminForm';
import type { useAdminResource } from '../../components/admin/useAdminResource';
import { connectorsApi } from '../../services/client-onboarding/onboardingApi';
import { connectAddress, DeskPort } from './ConnectorAddress';
import { CONNECTOR_FORM_FIELDS as FIELDS, dropCopyChoices, finishConnectorPayload } from './connectorForm';
import { DeleteConnectorTab } from './DeleteConnectorTab';
import { FixSpecVersions } from './FixSpecVersions';
import { SessionConsole } from './console/SessionConsole';
import { SessionParameters } from './SessionParameters';
import { TlsPanel } from './tls/TlsPanel';

type ConnectorResource = ReturnType<typeof useAdminResource<ClientConnector, string, Awaited<ReturnType<typeof connectorsApi.create>>>>;

const fieldsOf = (tab: ConnectorTab) => FIELDS.filter((f) => f.tab === tab);

/**
 * The add/edit dialog of a client connector (spec 001 §2 "Client Connectors"): the descriptors' tabs,
 * then the desk's own (TLS/SSL, the FIX spec, the live session, delete). Keyed with the resource's
 * `formKey`, so each opening starts on Basic without the last one's problems.
 */
export function ConnectorDialog({
  resource,
  onClose,
  onDeleted,
}: {
  resource: ConnectorResource;
  /** Closed without saving (the dialog's own tabs act at once: the row shows their effect). */
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const { editingRow: connector, values, setValues, formProps, rows } = resource;
  const { opened } = formProps;
  const editing = connector !== null;
  const [loaded, setLoaded] = useState(!editing);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [tab, setTab] = useState<string>('basic');
  const [acceptor, setAcceptor] = useState<FixAcceptorInfo | null>(null);
  // The clients a drop copy session names: shown for a drop copy only (an order-entry one sends none).
  const dropCopy = values['session_type'] === 'drop_copy';
  const clientChoices = useMemo(() => dropCopyChoices(rows ?? [], connector?.comp_id), [rows, connector?.comp_id]);
  const form = useAdminForm({
    ...formProps,
    fields: FIELDS,
    schema: editing ? UpdateConnectorSchema : CreateConnectorSchema,
    hidden: dropCopy ? [] : ['drop_copy_of'],
    finish: (payload) => finishConnectorPayload(payload, editing),
    onProblems: (problems) => setTab((t) => firstProblemTab(FIELDS, problems) ?? t),
  });

  useEffect(() => {
    if (!opened) return;
    const controller = new AbortController();
    connectorsApi
      .acceptor(controller.signal)
      .then(setAcceptor)
      .catch(() => {
        // An edited connector still shows its own address; a new one says loading until it is known.
      });
    return () => controller.abort();
  }, [opened]);

  useEffect(() => {
    if (!opened || !connector) return;
    // The list carries no secrets: the form is filled from the connector itself (administrators only).
    const controller = new AbortController();
    connectorsApi
      .get(connector.comp_id, controller.signal)
      .then((full) => {
        setValues(initialValues(FIELDS, full));
        setLoaded(true);
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setLoadError(adminErrorText(err, ConnectorText.fetchFailed, (m) => `Error: ${m}`));
      });
    return () => controller.abort();
  }, [opened, connector, setValues]);

  const address = connectAddress(values, connector, acceptor);
  const title = editing ? `Edit Client Connector ${connector.comp_id}` : 'Add Client Connector';
  const failure = form.topError ?? loadError ?? formProps.formError;
  const deskPort = <DeskPort address={address} acceptor={acceptor} tls={Boolean(connector?.address.tls)} />;

  return (
    <Modal opened={opened} onClose={onClose} title={title} size={960} centered closeOnClickOutside={!form.submitting}>
      <form onSubmit={(e) => void form.submit(e)} noValidate aria-label={title}>
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} mb="sm" role="alert">
            {failure}
          </Alert>
        )}
        <Tabs value={tab} onChange={(t) => setTab(t ?? 'basic')} keepMounted={false}>
          <Tabs.List>
            {CONNECTOR_TABS.map((t) => {
              const count = fieldsOf(t.value).filter((f) => form.errors[f.name]).length;
              return (
                <Tabs.Tab
                  key={t.value}
                  value={t.value}
                  rightSection={
                    count ? (
                      <Badge size="xs" color="red" circle>
                        {count}
                      </Badge>
                    ) : undefined
                  }
                >
                  {t.label}
                </Tabs.Tab>
              );
            })}
            <Tabs.Tab value="tls">TLS/SSL</Tabs.Tab>
            <Tabs.Tab
              value="whatsapp"
              disabled
              rightSection={
                <Badge size="xs" variant="light" color="gray">
                  Coming Soon
                </Badge>
              }
            >
              WhatsApp
            </Tabs.Tab>
            <Tabs.Tab value="spec">Interactive FIX Spec</Tabs.Tab>
            {editing && <Tabs.Tab value="session">Session</Tabs.Tab>}
            {editing && (
              <Tabs.Tab value="delete" color="red">
                Delete
              </Tabs.Tab>
            )}
          </Tabs.List>
          <div style={{ minHeight: 340, paddingTop: 12 }}>
            {!loaded && editing ? (
              <Loader size="sm" aria-label="Loading connector" />
            ) : (
              <>
                {CONNECTOR_TABS.map((t) => (
                  <Tabs.Panel key={t.value} value={t.value}>
                    <AdminFieldGrid
                      fields={fieldsOf(t.value).filter((f) => form.shown.includes(f))}
                      values={values}
                      errors={form.errors}
                      locked={form.locked}
                      onChange={form.change}
                      options={{ drop_copy_of: clientChoices }}
                      cols={3}
                      verticalSpacing="xs"
                      // The desk's port right after the host: what the client connects to.
                      after={{ host: deskPort }}
                    />
                  </Tabs.Panel>
                ))}
                <Tabs.Panel value="tls">
                  <TlsPanel compId={connector?.comp_id} />
                </Tabs.Panel>
                <Tabs.Panel value="spec">
                  <SessionParameters values={values} address={address} />
                  {connector && <FixSpecVersions connector={connector} />}
                </Tabs.Panel>
                {connector && (
                  <Tabs.Panel value="session">
                    <SessionConsole compId={connector.comp_id} />
                  </Tabs.Panel>
                )}
                {connector && (
                  <Tabs.Panel value="delete">
                    <DeleteConnectorTab compId={connector.comp_id} onDeleted={onDeleted} />
                  </Tabs.Panel>
                )}
              </>
            )}
          </div>
        </Tabs>
        <Box mt="sm">
          <AdminFieldInput field={CONNECTOR_FIELDS.notes} value={values['notes']} error={form.errors['notes']} onChange={form.change} />
        </Box>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose} disabled={form.submitting}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting} disabled={editing && !loaded}>
            {editing ? 'Save Changes' : 'Add Connector'}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
