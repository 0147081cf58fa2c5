import {
  BrokerText,
  CONTACT_FIELDS,
  CONTACT_TYPE_LABELS,
  CreateContactSchema,
  UpdateContactSchema,
  type BrokerContact,
} from '@fixdesk/protocol';
import { ActionIcon, Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { AdminFieldGrid } from '../../components/admin/AdminFieldInput';
import { adminErrorText } from '../../components/admin/errors';
import { initialValues } from '../../components/admin/formValues';
import { useAdminForm } from '../../components/admin/useAdminForm';
import { useConfirm } from '../../components/confirm/useConfirm';
import { brokersApi } from '../../services/brokers/brokersApi';

const FIELDS = Object.values(CONTACT_FIELDS);
const CONTACT_FAILED = [BrokerText.contactFailed, () => BrokerText.contactFailed] as const;

/** The broker dialog's Contacts tab: the list, and one form to add or edit a contact. */
export function ContactsTab({ brokerId }: { brokerId: number | null }) {
  const [contacts, setContacts] = useState<BrokerContact[] | null>(null);
  const [editing, setEditing] = useState<BrokerContact | 'new' | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const { confirm, dialog: confirmDialog } = useConfirm();

  const load = useCallback(
    (signal?: AbortSignal) => {
      if (brokerId === null) return;
      brokersApi
        .contacts(brokerId, signal)
        .then(setContacts)
        .catch((err: unknown) => {
          if (signal?.aborted) return;
          setContacts((c) => c ?? []);
          setMessage({ ok: false, text: adminErrorText(err, BrokerText.fetchContactsFailed, () => BrokerText.fetchContactsFailed) });
        });
    },
    [brokerId],
  );
  const form = useAdminForm({
    fields: FIELDS,
    schema: editing === 'new' ? CreateContactSchema : UpdateContactSchema,
    onSubmit: async (payload) => {
      if (brokerId === null || !editing) return;
      const answer =
        editing === 'new' ? await brokersApi.addContact(brokerId, payload) : await brokersApi.updateContact(brokerId, editing.id, payload);
      setMessage({ ok: true, text: answer.message ?? (editing === 'new' ? BrokerText.contactAdded : BrokerText.contactUpdated) });
      setEditing(null);
      load();
    },
    failure: CONTACT_FAILED,
    onFailure: (text) => setMessage({ ok: false, text }),
  });
  useEffect(() => {
    const controller = new AbortController();
    setContacts(null);
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  if (brokerId === null) {
    return (
      <Alert color="yellow" variant="light" icon={<IconAlertCircle size={18} />} data-testid="contacts-save-first">
        {BrokerText.saveFirst}
      </Alert>
    );
  }

  const start = (c: BrokerContact | 'new') => {
    setEditing(c);
    form.reset(initialValues(FIELDS, c === 'new' ? null : c));
    setMessage(null);
  };

  const remove = async (c: BrokerContact) => {
    const sure = await confirm({
      title: `Delete contact ${c.contact_name}`,
      message: `Are you sure you want to delete contact ${c.contact_name}?`,
      confirmLabel: 'Delete',
    });
    if (!sure) return;
    try {
      const answer = await brokersApi.removeContact(brokerId, c.id);
      setMessage({ ok: true, text: answer.message ?? BrokerText.contactDeleted });
      load();
    } catch (err) {
      setMessage({ ok: false, text: adminErrorText(err, ...CONTACT_FAILED) });
    }
  };

  return (
    <Stack gap="sm">
      {confirmDialog}
      {message && (
        <Alert
          color={message.ok ? 'green' : 'red'}
          variant="light"
          icon={message.ok ? <IconCircleCheck size={18} /> : <IconAlertCircle size={18} />}
          role={message.ok ? 'status' : 'alert'}
          withCloseButton
          onClose={() => setMessage(null)}
          data-testid="contact-message"
        >
          {message.text}
        </Alert>
      )}
      <Group justify="space-between">
        <Text fz="sm" c="dimmed">
          {contacts === null ? 'Loading contacts…' : `${contacts.length} contact(s)`}
        </Text>
        {editing === null && (
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => start('new')}>
            Add Contact
          </Button>
        )}
      </Group>
      {contacts && contacts.length > 0 && (
        <Table striped withTableBorder fz="sm" aria-label="Contacts" verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Phone</Table.Th>
              <Table.Th>Hours</Table.Th>
              <Table.Th w={72} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {contacts.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Text fz="sm" fw={600} span>
                    {c.contact_name}
                  </Text>
                  {c.title && (
                    <Text fz="xs" c="dimmed">
                      {c.title}
                    </Text>
                  )}
                  <Group gap={4} mt={2}>
                    {c.is_primary && (
                      <Badge size="xs" color="blue">
                        Primary
                      </Badge>
                    )}
                    {c.is_emergency && (
                      <Badge size="xs" color="red">
                        Emergency
                      </Badge>
                    )}
                    {!c.is_active && (
                      <Badge size="xs" color="gray">
                        Inactive
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{CONTACT_TYPE_LABELS[c.contact_type]}</Table.Td>
                <Table.Td>{c.email ?? '—'}</Table.Td>
                <Table.Td className="fd-numeric">{c.phone_primary ?? '—'}</Table.Td>
                <Table.Td className="fd-numeric">
                  {c.availability_hours}{' '}
                  <Text fz="xs" c="dimmed" span>
                    {c.timezone}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={2} wrap="nowrap">
                    <Tooltip label="Edit">
                      <ActionIcon size="sm" variant="subtle" aria-label={`Edit contact ${c.contact_name}`} onClick={() => start(c)}>
                        <IconPencil size={15} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Delete">
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Delete contact ${c.contact_name}`}
                        onClick={() => void remove(c)}
                      >
                        <IconTrash size={15} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing !== null && (
        <Paper
          withBorder
          p="sm"
          bg="var(--mantine-color-gray-0)"
          role="group"
          aria-label={editing === 'new' ? 'New contact' : `Edit contact ${editing.contact_name}`}
        >
          <Title order={3} fz="sm" mb="xs">
            {editing === 'new' ? 'New Contact' : `Edit Contact ${editing.contact_name}`}
          </Title>
          <AdminFieldGrid
            fields={FIELDS}
            values={form.values}
            errors={form.errors}
            onChange={form.change}
            spacing="sm"
            verticalSpacing={6}
          />
          <Group justify="flex-end" mt="sm">
            <Button size="xs" variant="default" onClick={() => setEditing(null)} disabled={form.submitting}>
              Cancel
            </Button>
            <Button size="xs" loading={form.submitting} onClick={() => void form.submit()}>
              {editing === 'new' ? 'Add Contact' : 'Save Contact'}
            </Button>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
