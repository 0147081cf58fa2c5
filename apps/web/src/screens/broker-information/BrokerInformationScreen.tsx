import { BROKER_FIELDS, BROKER_TABS, BrokerText, CreateBrokerSchema, UpdateBrokerSchema, type Broker } from '@fixdesk/protocol';
import {
  ActionIcon,
  Alert,
  Button,
  Container,
  FileButton,
  Group,
  Image,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconBuilding,
  IconCircleCheck,
  IconHistory,
  IconPlus,
  IconRefresh,
  IconSearch,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFieldInput } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { ChangeHistory } from '../../components/admin/ChangeHistory';
import { ConfirmDeleteModal } from '../../components/admin/ConfirmDeleteModal';
import { adminErrorText, serverFieldErrors } from '../../components/admin/errors';
import { initialValues, toPayload, validate, type FormValue, type FormValues } from '../../components/admin/formValues';
import { useBanners } from '../../components/admin/useBanners';
import { useConfirm } from '../../components/confirm/useConfirm';
import { brokersApi } from '../../services/brokers/brokersApi';
import { logoFileProblem, logoSrc } from './logo';
import { BROKER_COLUMNS } from './brokerColumns';
import { ContactsTab } from './ContactsTab';

const FIELDS = Object.values(BROKER_FIELDS);
const FORM_FIELDS = FIELDS.filter((f) => f.name !== 'company_logo');
type TabName = keyof typeof BROKER_TABS | 'contacts';
const TAB_LABELS: [TabName, string][] = [
  ['basic', 'Basic Info'],
  ['address', 'Address'],
  ['party', 'FIX Party Info'],
  ['contacts', 'Contacts'],
  ['notes', 'Notes'],
];

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
  const { showError } = banners;
  const [rows, setRows] = useState<Broker[] | null>(null);
  const [reloads, setReloads] = useState(0);
  const [filter, setFilter] = useState('');
  const [view, setView] = useState<string | null>('brokers');
  // The dialog: a new broker (id null) or a saved one.
  const [dialog, setDialog] = useState<{ id: number | null; name: string } | null>(null);
  const [tab, setTab] = useState<TabName>('basic');
  const [values, setValues] = useState<FormValues>({});
  // The values as last opened or saved: anything else is a change Close would drop.
  const [pristine, setPristine] = useState<FormValues>({});
  const { confirm, dialog: confirmDialog } = useConfirm();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Broker | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    brokersApi
      .list(controller.signal)
      .then(setRows)
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setRows((r) => r ?? []);
        showError(adminErrorText(err, BrokerText.fetchFailed, (m) => `Error fetching broker information: ${m}`));
      });
    return () => controller.abort();
  }, [reloads, showError]);

  const open = (b: Broker | null) => {
    setDialog(b ? { id: b.id, name: b.company_name } : { id: null, name: '' });
    const start = initialValues(FIELDS, b as unknown as Record<string, unknown> | null);
    setValues(start);
    setPristine(start);
    setErrors({});
    setNotice(null);
    setTab('basic');
  };
  const change = (name: string, value: FormValue) => {
    setErrors(({ [name]: _d, ...rest }) => rest);
    setValues((v) => ({ ...v, [name]: value, ...(name === 'branch_type' && value === 'parent' ? { parent_company_id: '' } : {}) }));
  };

  const isParent = values['branch_type'] === 'parent';
  const parentChoices = useMemo(
    () =>
      (rows ?? [])
        .filter((b) => b.branch_type === 'parent' && b.id !== dialog?.id)
        .map((b) => ({ value: String(b.id), label: b.company_name })),
    [rows, dialog?.id],
  );

  const onLogo = async (file: File | null) => {
    if (!file) return;
    const problem = logoFileProblem(file);
    if (problem) {
      setErrors((e) => ({ ...e, company_logo: problem }));
      return;
    }
    change('company_logo', await file.text());
  };

  const save = async () => {
    if (!dialog) return;
    const adding = dialog.id === null;
    const shown = FIELDS.filter((f) => !(isParent && f.name === 'parent_company_id'));
    const payload = toPayload(shown, values);
    // Spec 001 §5: an empty parent is sent as null; a parent-type broker has none.
    if (isParent || payload['parent_company_id'] === '') payload['parent_company_id'] = null;
    const problems = validate(adding ? CreateBrokerSchema : UpdateBrokerSchema, FIELDS, payload);
    setErrors(problems ?? {});
    if (problems) {
      const first = Object.keys(problems)[0]!;
      const where = (Object.entries(BROKER_TABS) as [TabName, readonly string[]][]).find(([, names]) => names.includes(first));
      if (where) setTab(where[0]);
      return;
    }
    setBusy(true);
    try {
      const answer = adding ? await brokersApi.create(payload) : await brokersApi.update(dialog.id!, payload);
      setNotice({ ok: true, text: answer.message ?? (adding ? BrokerText.created : BrokerText.updated) });
      // A new broker: the dialog goes on in edit mode, with its contacts.
      setDialog({ id: answer.data.id, name: answer.data.company_name });
      const saved = initialValues(FIELDS, answer.data as unknown as Record<string, unknown>);
      setValues(saved);
      setPristine(saved);
      setReloads((n) => n + 1);
    } catch (err) {
      const text = adminErrorText(err, BrokerText.saveFailed, (m) => `Error saving broker information: ${m}`);
      const under = serverFieldErrors(err, FIELDS, text);
      if (under) {
        setErrors(under);
        const first = Object.keys(under)[0]!;
        const where = (Object.entries(BROKER_TABS) as [TabName, readonly string[]][]).find(([, names]) => names.includes(first));
        if (where) setTab(where[0]);
      } else setNotice({ ok: false, text });
    } finally {
      setBusy(false);
    }
  };

  const changed = dialog !== null && FIELDS.some((f) => values[f.name] !== pristine[f.name]);
  /** Close, Escape, the X or a click outside: unsaved changes are dropped only once the user says so. */
  const closeDialog = async () => {
    if (busy) return;
    if (changed) {
      const discard = await confirm({
        title: 'Discard unsaved changes?',
        message: `Your changes to ${dialog?.name || 'the new broker'} are not saved. Close and lose them?`,
        confirmLabel: 'Discard changes',
        cancelLabel: 'Keep editing',
      });
      if (!discard) return;
    }
    setDialog(null);
  };

  const confirmDelete = async () => {
    const b = deleting;
    if (!b) return;
    try {
      const answer = await brokersApi.remove(b.id);
      banners.showSuccess(answer.message ?? BrokerText.deleted(b.company_name));
      setReloads((n) => n + 1);
    } catch (err) {
      banners.showError(adminErrorText(err, BrokerText.deleteFailed, (m) => `Error deleting broker information: ${m}`));
    } finally {
      setDeleteOpen(false);
    }
  };

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => (rows === null ? null : rows.filter((b) => matches(b, needle))), [rows, needle]);
  const rowName = useCallback((b: Broker) => `broker ${b.company_name}`, []);
  const getRowId = useCallback((b: Broker) => String(b.id), []);
  const field = (name: string) => {
    const f = FORM_FIELDS.find((x) => x.name === name)!;
    return (
      <AdminFieldInput
        key={name}
        field={f}
        value={values[name]}
        error={errors[name]}
        options={name === 'parent_company_id' ? parentChoices : undefined}
        onChange={change}
      />
    );
  };
  const logo = logoSrc(typeof values['company_logo'] === 'string' ? values['company_logo'] : null);
  const tabHasError = (t: TabName) => t !== 'contacts' && BROKER_TABS[t].some((n) => errors[n]);

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
          <ActionIcon variant="default" size={36} onClick={() => setReloads((n) => n + 1)} aria-label="Refresh brokers">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)}>
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
            onEdit={open}
            onDelete={(b) => {
              setDeleting(b);
              setDeleteOpen(true);
            }}
            emptyText={rows?.length ? 'No brokers match the filter' : 'No brokers yet'}
            height="calc(100vh - 300px)"
          />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <ChangeHistory entity="broker_information" reloadKey={reloads} />
        </Tabs.Panel>
      </Tabs>

      <Modal
        opened={dialog !== null}
        onClose={() => void closeDialog()}
        title={dialog?.id ? `Edit Broker ${dialog.name}` : 'Add Broker'}
        size="xl"
        centered
        closeOnClickOutside={!busy}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          noValidate
          aria-label={dialog?.id ? `Edit Broker ${dialog.name}` : 'Add Broker'}
        >
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
          <Tabs value={tab} onChange={(t) => setTab((t as TabName) ?? 'basic')}>
            <Tabs.List mb="md">
              {TAB_LABELS.map(([t, label]) => (
                <Tabs.Tab key={t} value={t} color={tabHasError(t) ? 'red' : undefined} c={tabHasError(t) ? 'red' : undefined}>
                  {label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="basic">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
                {field('company_name')}
                {field('branch_type')}
                {!isParent && field('parent_company_id')}
                {field('is_active')}
              </SimpleGrid>
              <Paper withBorder p="sm" mt="md">
                <Group justify="space-between" align="center" wrap="nowrap">
                  <Stack gap={2}>
                    <Text fz="sm" fw={600}>
                      {BROKER_FIELDS.company_logo.label}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {BROKER_FIELDS.company_logo.description}
                    </Text>
                    {errors['company_logo'] && (
                      <Text fz="xs" c="red" role="alert" data-testid="logo-error">
                        {errors['company_logo']}
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
                    <FileButton onChange={(f) => void onLogo(f)} accept="image/svg+xml,.svg">
                      {(props) => (
                        <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={14} />}>
                          Upload SVG
                        </Button>
                      )}
                    </FileButton>
                    {logo && (
                      <Tooltip label="Remove logo">
                        <ActionIcon variant="subtle" color="red" aria-label="Remove logo" onClick={() => change('company_logo', '')}>
                          <IconX size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Group>
              </Paper>
            </Tabs.Panel>
            <Tabs.Panel value="address">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
                {BROKER_TABS.address.map(field)}
              </SimpleGrid>
            </Tabs.Panel>
            <Tabs.Panel value="party">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
                {BROKER_TABS.party.map(field)}
              </SimpleGrid>
            </Tabs.Panel>
            <Tabs.Panel value="contacts">{dialog && <ContactsTab brokerId={dialog.id} />}</Tabs.Panel>
            <Tabs.Panel value="notes">{field('notes')}</Tabs.Panel>
          </Tabs>
          <Group justify="flex-end" mt="lg">
            {changed && (
              <Text fz="xs" c="orange.8" mr="auto" data-testid="broker-unsaved">
                Unsaved changes
              </Text>
            )}
            <Button variant="default" onClick={() => void closeDialog()} disabled={busy}>
              Close
            </Button>
            <Button type="submit" loading={busy}>
              {dialog?.id ? 'Save Changes' : 'Create Broker'}
            </Button>
          </Group>
        </form>
      </Modal>
      {confirmDialog}
      <ConfirmDeleteModal
        opened={deleteOpen}
        title={deleting ? `Delete broker ${deleting.company_name}` : 'Delete broker'}
        question={deleting ? `Are you sure you want to delete ${deleting.company_name} and its contacts?` : ''}
        onCancel={() => setDeleteOpen(false)}
        onConfirm={confirmDelete}
      >
        <Text fz="sm" c="dimmed">
          A broker named by client connectors, users or branches cannot be deleted: deactivate it instead.
        </Text>
      </ConfirmDeleteModal>
    </Container>
  );
}
