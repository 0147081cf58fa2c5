import { BROKER_FIELDS, BROKER_TABS, CreateBrokerSchema, UpdateBrokerSchema, type Broker, type BrokerTab } from '@fixdesk/protocol';
import { ActionIcon, Alert, Button, FileButton, Group, Image, Modal, Paper, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconUpload, IconX } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { AdminFieldGrid } from '../../components/admin/AdminFieldInput';
import type { FormValue } from '../../components/admin/formValues';
import { firstProblemTab, useAdminForm } from '../../components/admin/useAdminForm';
import type { useAdminResource } from '../../components/admin/useAdminResource';
import { useConfirm } from '../../components/confirm/useConfirm';
import type { brokersApi } from '../../services/brokers/brokersApi';
import { ContactsTab } from './ContactsTab';
import { logoFileProblem, logoSrc } from './logo';

/** The broker's fields, each on its tab. */
export const BROKER_FORM_FIELDS = Object.values(BROKER_FIELDS);
const FIELDS = BROKER_FORM_FIELDS;
/** The logo has an upload control of its own on the Basic Info tab. */
const fieldsOf = (tab: BrokerTab) => FIELDS.filter((f) => f.tab === tab && f.name !== 'company_logo');

type BrokerResource = ReturnType<typeof useAdminResource<Broker, number, Awaited<ReturnType<typeof brokersApi.create>>>>;

/** The broker's uploaded SVG logo: its preview, the upload (checked before it is read) and its removal. */
function LogoField({
  value,
  error,
  onChange,
  onRefused,
}: {
  value: FormValue | undefined;
  error: string | undefined;
  onChange: (svg: string) => void;
  onRefused: (problem: string) => void;
}) {
  const logo = logoSrc(typeof value === 'string' ? value : null);
  const onFile = async (file: File | null) => {
    if (!file) return;
    const problem = logoFileProblem(file);
    if (problem) onRefused(problem);
    else onChange(await file.text());
  };
  return (
    <Paper withBorder p="sm" mt="md">
      <Group justify="space-between" align="center" wrap="nowrap">
        <Stack gap={2}>
          <Text fz="sm" fw={600}>
            {BROKER_FIELDS.company_logo.label}
          </Text>
          <Text fz="xs" c="dimmed">
            {BROKER_FIELDS.company_logo.description}
          </Text>
          {error && (
            <Text fz="xs" c="red" role="alert" data-testid="logo-error">
              {error}
            </Text>
          )}
        </Stack>
        <Group gap="sm" wrap="nowrap">
          <Paper withBorder w={140} h={56} p={4} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            {logo ? (
              <Image src={logo} alt="Logo preview" mah={46} maw={130} fit="contain" />
            ) : (
              <Text fz="xs" c="dimmed">
                No logo
              </Text>
            )}
          </Paper>
          <FileButton onChange={(f) => void onFile(f)} accept="image/svg+xml,.svg">
            {(props) => (
              <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={14} />}>
                Upload SVG
              </Button>
            )}
          </FileButton>
          {logo && (
            <Tooltip label="Remove logo">
              <ActionIcon variant="subtle" color="red" aria-label="Remove logo" onClick={() => onChange('')}>
                <IconX size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * The broker's add/edit dialog in tabs (spec 001 §2, §5): saved, it stays open on the broker (a new one
 * gains its Contacts tab); Close asks before it drops unsaved changes. Keyed with the resource's
 * `formKey`, so each opening starts on Basic Info without the last one's problems.
 */
export function BrokerDialog({ resource, brokers }: { resource: BrokerResource; brokers: readonly Broker[] | null }) {
  const { editingRow, values, setValues, saved, formProps } = resource;
  const { confirm, dialog: confirmDialog } = useConfirm();
  const [tab, setTab] = useState<BrokerTab>('basic');
  const isParent = values['branch_type'] === 'parent';
  const form = useAdminForm({
    ...formProps,
    fields: FIELDS,
    schema: editingRow ? UpdateBrokerSchema : CreateBrokerSchema,
    // Spec 001 §5: a parent-type broker has no parent (sent as null).
    hidden: isParent ? ['parent_company_id'] : [],
    extraPayload: isParent ? { parent_company_id: null } : undefined,
    onChange: (name, value) =>
      setValues((v) => ({ ...v, [name]: value, ...(name === 'branch_type' && value === 'parent' ? { parent_company_id: '' } : {}) })),
    onProblems: (problems) => setTab((t) => (firstProblemTab(FIELDS, problems) as BrokerTab | undefined) ?? t),
  });
  const parentChoices = useMemo(
    () =>
      (brokers ?? [])
        .filter((b) => b.branch_type === 'parent' && b.id !== editingRow?.id)
        .map((b) => ({ value: String(b.id), label: b.company_name })),
    [brokers, editingRow?.id],
  );

  /** Close, Escape, the X or a click outside: unsaved changes are dropped only once the user says so. */
  const close = async () => {
    if (form.submitting) return;
    if (resource.changed) {
      const discard = await confirm({
        title: 'Discard unsaved changes?',
        message: `Your changes to ${editingRow?.company_name || 'the new broker'} are not saved. Close and lose them?`,
        confirmLabel: 'Discard changes',
        cancelLabel: 'Keep editing',
      });
      if (!discard) return;
    }
    resource.close();
  };

  const grid = (t: BrokerTab) => (
    <AdminFieldGrid
      fields={fieldsOf(t).filter((f) => form.shown.includes(f))}
      values={values}
      errors={form.errors}
      options={{ parent_company_id: parentChoices }}
      onChange={form.change}
    />
  );
  const tabHasError = (t: BrokerTab) => FIELDS.some((f) => f.tab === t && form.errors[f.name]);
  const title = editingRow ? `Edit Broker ${editingRow.company_name}` : 'Add Broker';
  const failure = form.topError ?? formProps.formError;
  const notice = failure ? { ok: false, text: failure } : saved ? { ok: true, text: saved } : null;

  return (
    <>
      <Modal opened={formProps.opened} onClose={() => void close()} title={title} size="xl" centered closeOnClickOutside={!form.submitting}>
        <form onSubmit={(e) => void form.submit(e)} noValidate aria-label={title}>
          {notice && (
            <Alert
              color={notice.ok ? 'green' : 'red'}
              variant="light"
              icon={notice.ok ? <IconCircleCheck size={18} /> : <IconAlertCircle size={18} />}
              mb="sm"
              role={notice.ok ? 'status' : 'alert'}
              data-testid="broker-notice"
            >
              {notice.text}
            </Alert>
          )}
          <Tabs value={tab} onChange={(t) => setTab((t as BrokerTab | null) ?? 'basic')}>
            <Tabs.List mb="md">
              {BROKER_TABS.map(({ value, label }) => (
                <Tabs.Tab
                  key={value}
                  value={value}
                  color={tabHasError(value) ? 'red' : undefined}
                  c={tabHasError(value) ? 'red' : undefined}
                >
                  {label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="basic">
              {grid('basic')}
              <LogoField
                value={values['company_logo']}
                error={form.errors['company_logo']}
                onChange={(svg) => form.change('company_logo', svg)}
                onRefused={(problem) => form.setError('company_logo', problem)}
              />
            </Tabs.Panel>
            <Tabs.Panel value="address">{grid('address')}</Tabs.Panel>
            <Tabs.Panel value="party">{grid('party')}</Tabs.Panel>
            <Tabs.Panel value="contacts">{formProps.opened && <ContactsTab brokerId={editingRow?.id ?? null} />}</Tabs.Panel>
            <Tabs.Panel value="notes">{grid('notes')}</Tabs.Panel>
          </Tabs>
          <Group justify="flex-end" mt="lg">
            {resource.changed && (
              <Text fz="xs" c="orange.8" mr="auto" data-testid="broker-unsaved">
                Unsaved changes
              </Text>
            )}
            <Button variant="default" onClick={() => void close()} disabled={form.submitting}>
              Close
            </Button>
            <Button type="submit" loading={form.submitting}>
              {editingRow ? 'Save Changes' : 'Create Broker'}
            </Button>
          </Group>
        </form>
      </Modal>
      {confirmDialog}
    </>
  );
}
