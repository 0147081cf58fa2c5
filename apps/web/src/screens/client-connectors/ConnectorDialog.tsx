import { CreateConnectorSchema, UpdateConnectorSchema, type ClientConnector, type FixAcceptorInfo } from '@fixdesk/protocol';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { adminErrorText, serverFieldErrors } from '../../components/admin/errors';
import { validate, type FormValues } from '../../components/admin/formValues';
import { connectorsApi } from '../../services/client-onboarding/onboardingApi';
import {
  CONNECTOR_ADMIN_FIELDS,
  CONNECTOR_FIELDS,
  connectorPayload,
  connectorValues,
  NOTES_FIELD,
  type ConnectorField,
  type ConnectorTab,
} from './connectorForm';
import { SessionConsole } from './console/SessionConsole';
import { TlsPanel } from './tls/TlsPanel';
import { FixSpecVersions } from './FixSpecVersions';

/** Spec 001 §5 and §8: the texts of the dialog. */
export const ConnectorText = {
  created: 'Client connector created successfully!',
  updated: 'Client connector updated successfully!',
  failed: 'Operation failed',
  deleteFailed: 'Delete failed',
  typeToConfirm: (compId: string) => `Please type "${compId}" to confirm deletion`,
  deleted: (compId: string) => `Client connector ${compId} deleted successfully`,
} as const;

const TABS: { value: ConnectorTab; label: string }[] = [
  { value: 'basic', label: 'Basic' },
  { value: 'connection', label: 'Connection' },
  { value: 'authentication', label: 'Authentication' },
  { value: 'trading', label: 'Trading' },
];

const HTML_TYPE: Partial<Record<ConnectorField['input'], string>> = { email: 'email', url: 'url', time: 'time', number: 'number' };

function FieldInput({
  f,
  values,
  error,
  locked,
  onChange,
}: {
  f: ConnectorField;
  values: FormValues;
  error?: string;
  locked?: string;
  onChange: (name: string, v: string | boolean) => void;
}) {
  const common = {
    label: f.label,
    description: locked ?? f.description,
    error,
    disabled: Boolean(locked),
    withAsterisk: Boolean(f.required),
  } as const;
  const text = String(values[f.name] ?? '');
  switch (f.input) {
    case 'switch':
      return (
        <Switch
          label={f.label}
          description={f.description}
          checked={values[f.name] === true}
          onChange={(e) => onChange(f.name, e.currentTarget.checked)}
          mt="lg"
          error={error}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={(f.options ?? []).map((o) => (typeof o === 'string' ? { value: o, label: o } : o))}
          value={text === '' ? null : text}
          onChange={(v) => onChange(f.name, v ?? '')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'password':
      return (
        <PasswordInput
          {...common}
          value={text}
          onChange={(e) => onChange(f.name, e.currentTarget.value)}
          maxLength={256}
          autoComplete="new-password"
        />
      );
    default:
      return (
        <TextInput
          {...common}
          type={HTML_TYPE[f.input] ?? 'text'}
          step={f.input === 'time' ? 1 : undefined}
          value={text}
          onChange={(e) => onChange(f.name, e.currentTarget.value)}
          maxLength={f.maxLength}
          placeholder={f.placeholder}
          className={f.input === 'number' ? 'fd-numeric' : undefined}
        />
      );
  }
}

/**
 * Where the client connects, as the server answers it (the session config's own numbers): the host typed
 * in the form, else the connector's or the desk's; the desk's port (its TLS port once the connector has
 * a certificate). Null until the desk's acceptor is known.
 */
function connectAddress(
  values: FormValues,
  connector: ClientConnector | null,
  acceptor: FixAcceptorInfo | null,
): { host: string; port: number } | null {
  const typed = String(values['host'] ?? '').trim();
  if (connector)
    return {
      host: typed || (connector.host?.trim() ? (acceptor?.host ?? connector.address.host) : connector.address.host),
      port: connector.address.port,
    };
  return acceptor ? { host: typed || acceptor.host, port: acceptor.port } : null;
}

/** The Connection tab's port: the desk's, read-only (no connector has a port of its own). */
function DeskPort({
  address,
  acceptor,
  tls,
}: {
  address: { host: string; port: number } | null;
  acceptor: FixAcceptorInfo | null;
  tls: boolean;
}) {
  return (
    <TextInput
      label="Port"
      value={address ? String(address.port) : ''}
      placeholder="loading…"
      readOnly
      disabled
      className="fd-numeric"
      description={
        tls
          ? "The desk's TLS port (FIX_TLS_PORT): this connector has a certificate"
          : `The desk's FIX port (FIX_PORT), the same for every client${acceptor?.tls_port ? `; TLS on ${acceptor.tls_port} with a certificate` : ''}`
      }
    />
  );
}

/** Interactive FIX Spec (until the FIX specification issue lands): the session parameters the client's FIX team needs. */
function SessionParameters({ values, address }: { values: FormValues; address: { host: string; port: number } | null }) {
  const v = (k: string) => String(values[k] ?? '');
  const rows: [string, string][] = [
    ['BeginString (8)', v('fix_version') || 'FIX.4.4'],
    ['SenderCompID (49), the client', v('comp_id') || '—'],
    ['TargetCompID (56), us', v('target_comp_id') || 'FIXDESK'],
    ['TargetSubID (57)', v('targetsubid') || '—'],
    ['Host : port', address ? `${address.host} : ${address.port}` : '…'],
    ['HeartBtInt (108)', `${v('heartbeatint') || '30'} s`],
    ['EncryptMethod (98)', v('encryptmethod') || '0'],
    [
      'Username (553) / Password (554)',
      `${v('fix_username') ? 'required' : 'not asked'} / ${v('fix_password') ? 'required' : 'not asked'}`,
    ],
    [
      'Sequence numbers reset',
      `${v('reset_frequency') || 'DAILY'}${values.resetseqnumflag === true ? ', and on every Logon (141=Y)' : ''}`,
    ],
    [
      'Session schedule',
      `${v('trading_days') || 'M,T,W,T,F'} ${v('start_time') || '09:00:00'}–${v('end_time') || '17:00:00'} ${v('timezone') || 'Asia/Singapore'}`,
    ],
    ['Data dictionary', `${v('dictionary') || 'repo44'} (validate with the standard FIX44.xml)`],
    ['Protocol', v('protocol') || 'ascii'],
  ];
  return (
    <Stack gap="xs">
      <Text fz="sm" c="dimmed">
        The session parameters of this connector, as the client's FIX engine must be configured (changes apply from the next logon).
      </Text>
      <Table fz="sm" striped withTableBorder verticalSpacing={4} aria-label="Session parameters">
        <Table.Tbody>
          {rows.map(([k, val]) => (
            <Table.Tr key={k}>
              <Table.Td w="40%" fw={600}>
                {k}
              </Table.Td>
              <Table.Td ff="monospace">{val}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function DeleteTab({ compId, onDeleted }: { compId: string; onDeleted: (message: string) => void }) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await connectorsApi.remove(compId);
      onDeleted(answer.message ?? ConnectorText.deleted(compId));
    } catch (err) {
      setError(adminErrorText(err, ConnectorText.deleteFailed, (m) => `${ConnectorText.deleteFailed}: ${m}`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm" maw={520}>
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
        Deleting removes the connector, its capabilities, FIX defaults and session history. A client with orders cannot be deleted (the
        orders are compliance records): deactivate it instead.
      </Alert>
      {error && (
        <Alert color="red" variant="filled" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <TextInput
        label={ConnectorText.typeToConfirm(compId)}
        value={typed}
        onChange={(e) => setTyped(e.currentTarget.value)}
        placeholder={compId}
        autoComplete="off"
      />
      <Group>
        <Button color="red" disabled={typed !== compId} loading={busy} onClick={() => void confirm()}>
          Delete Connector
        </Button>
      </Group>
    </Stack>
  );
}

/** The add/edit dialog of a client connector (spec 001 §2 "Client Connectors"). */
export function ConnectorDialog({
  opened,
  connector,
  onClose,
  onSaved,
  onDeleted,
}: {
  opened: boolean;
  /** The connector to edit (from the list: no secrets; the dialog reads the full record), or null to add. */
  connector: ClientConnector | null;
  onClose: () => void;
  onSaved: (message: string) => void;
  onDeleted: (message: string) => void;
}) {
  const editing = connector !== null;
  const [values, setValues] = useState<FormValues>(() => connectorValues(null));
  const [loaded, setLoaded] = useState(!editing);
  const [tab, setTab] = useState<string>('basic');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [acceptor, setAcceptor] = useState<FixAcceptorInfo | null>(null);

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
    if (!opened) return;
    setTab('basic');
    setErrors({});
    setFormError(null);
    if (!connector) {
      setValues(connectorValues(null));
      setLoaded(true);
      return;
    }
    // The list carries no secrets: the form is filled from the connector itself (administrators only).
    const controller = new AbortController();
    setLoaded(false);
    setValues(connectorValues(connector));
    connectorsApi
      .get(connector.comp_id, controller.signal)
      .then((full) => {
        setValues(connectorValues(full));
        setLoaded(true);
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setFormError(adminErrorText(err, 'Failed to fetch client connectors', (m) => `Error: ${m}`));
      });
    return () => controller.abort();
  }, [opened, connector]);

  const change = (name: string, v: string | boolean) => {
    setValues((old) => ({ ...old, [name]: v }));
    setErrors(({ [name]: _dropped, ...rest }) => rest);
  };

  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    const first = CONNECTOR_FIELDS.find((f) => found[f.name]);
    if (first) setTab(first.tab);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const payload = connectorPayload(values, editing);
    const problems = validate(editing ? UpdateConnectorSchema : CreateConnectorSchema, CONNECTOR_ADMIN_FIELDS, payload);
    if (problems) {
      showErrors(problems);
      return;
    }
    setSaving(true);
    try {
      const answer = editing ? await connectorsApi.update(connector.comp_id, payload) : await connectorsApi.create(payload);
      onSaved(answer.message ?? (editing ? ConnectorText.updated : ConnectorText.created));
    } catch (err) {
      const text = adminErrorText(err, ConnectorText.failed, (m) => `${ConnectorText.failed}: ${m}`);
      const under = serverFieldErrors(err, CONNECTOR_ADMIN_FIELDS, text);
      if (under) showErrors(under);
      else setFormError(text);
    } finally {
      setSaving(false);
    }
  };

  const fieldsOf = (t: ConnectorTab) => CONNECTOR_FIELDS.filter((f) => f.tab === t);
  const address = connectAddress(values, connector, acceptor);
  const title = editing ? `Edit Client Connector ${connector.comp_id}` : 'Add Client Connector';

  return (
    <Modal opened={opened} onClose={onClose} title={title} size={960} centered closeOnClickOutside={!saving}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={title}>
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} mb="sm" role="alert">
            {formError}
          </Alert>
        )}
        <Tabs value={tab} onChange={(t) => setTab(t ?? 'basic')} keepMounted={false}>
          <Tabs.List>
            {TABS.map((t) => {
              const count = fieldsOf(t.value).filter((f) => errors[f.name]).length;
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
                {TABS.map((t) => (
                  <Tabs.Panel key={t.value} value={t.value}>
                    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="xs">
                      {fieldsOf(t.value).flatMap((f) => {
                        const input = (
                          <FieldInput
                            key={f.name}
                            f={f}
                            values={values}
                            error={errors[f.name]}
                            locked={editing ? f.lockedWhenEditing : undefined}
                            onChange={change}
                          />
                        );
                        // The desk's port right after the host: what the client connects to.
                        return f.name === 'host'
                          ? [
                              input,
                              <DeskPort key="desk-port" address={address} acceptor={acceptor} tls={Boolean(connector?.address.tls)} />,
                            ]
                          : [input];
                      })}
                    </SimpleGrid>
                  </Tabs.Panel>
                ))}
                <Tabs.Panel value="tls">
                  <TlsPanel compId={editing ? connector.comp_id : undefined} />
                </Tabs.Panel>
                <Tabs.Panel value="spec">
                  <SessionParameters values={values} address={address} />
                  {editing && connector && <FixSpecVersions connector={connector} />}
                </Tabs.Panel>
                {editing && (
                  <Tabs.Panel value="session">
                    <SessionConsole compId={connector.comp_id} />
                  </Tabs.Panel>
                )}
                {editing && (
                  <Tabs.Panel value="delete">
                    <DeleteTab compId={connector.comp_id} onDeleted={onDeleted} />
                  </Tabs.Panel>
                )}
              </>
            )}
          </div>
        </Tabs>
        <Textarea
          label="Notes"
          value={String(values[NOTES_FIELD] ?? '')}
          onChange={(e) => change(NOTES_FIELD, e.currentTarget.value)}
          error={errors[NOTES_FIELD]}
          maxLength={5000}
          autosize
          minRows={2}
          maxRows={4}
          mt="sm"
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving} disabled={editing && !loaded}>
            {editing ? 'Save Changes' : 'Add Connector'}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
