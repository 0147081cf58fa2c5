import {
  ClientDefaultsText,
  nextInstanceNumber,
  type AdminField,
  type ClientGroupDefaults,
  type ComponentBlock,
  type ComponentBlockField,
} from '@fixdesk/protocol';
import { ActionIcon, Alert, Anchor, Badge, Button, Card, Group, Modal, Select, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconExternalLink, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { AdminFieldGrid } from '../../components/admin/AdminFieldInput';
import { adminErrorText } from '../../components/admin/errors';
import { useAdminForm } from '../../components/admin/useAdminForm';
import type { Banners } from '../../components/admin/useBanners';
import { useConfirm } from '../../components/confirm/useConfirm';
import { clientDefaultsApi } from '../../services/client-defaults/clientDefaultsApi';

const PARTY_ROLES: Record<string, string> = {
  '7': 'Entering Firm',
  '11': 'Order Origination Trader',
  '1': 'Executing Firm',
  '3': 'Client ID',
  '12': 'Executing Trader',
  '13': 'Order Origination Firm',
};

/** "Entering Firm" for a Parties instance with PartyRole 7; nothing for other groups. */
function instanceLabel(fields: { tag: number; default_value: string }[]): string | null {
  const role = fields.find((f) => f.tag === 452)?.default_value;
  return role ? (PARTY_ROLES[role] ?? `PartyRole ${role}`) : null;
}

interface Props {
  connectorId: number | null;
  msgType: string | null;
  execType: string | null;
  groups: ClientGroupDefaults[];
  blocks: ComponentBlock[];
  writable: boolean;
  banners: Banners;
  onChanged: () => void;
}

/** Repeating groups (component blocks) with per-block instance tables (spec 001 §2). */
export function GroupDefaults({ connectorId, msgType, execType, groups, blocks, writable, banners, onChanged }: Props) {
  const groupBlocks = blocks.filter((b) => b.group_field_number !== null);
  const [extra, setExtra] = useState<number | null>(null);
  const [adding, setAdding] = useState<ComponentBlock | null>(null);
  useEffect(() => setExtra(null), [msgType]);
  const { confirm, dialog: confirmDialog } = useConfirm();
  const shownIds = [...new Set([...groups.map((g) => g.component_block_id), ...(extra ? [extra] : [])])];

  const remove = async (block: ComponentBlock | ClientGroupDefaults, n: number) => {
    const id = 'component_block_id' in block ? block.component_block_id : block.id;
    if (!connectorId || !msgType || !id) return banners.showError(ClientDefaultsText.missingGroupData);
    if (
      !(await confirm({
        title: `Delete ${block.block_name} instance ${n}`,
        message: ClientDefaultsText.confirmDeleteInstance(block.block_name, n),
        confirmLabel: 'Delete',
      }))
    )
      return;
    try {
      const answer = await clientDefaultsApi.removeGroup(connectorId, msgType, id, n, execType);
      banners.showSuccess(answer.message ?? `Instance ${n} deleted`);
      onChanged();
    } catch (err) {
      banners.showError(adminErrorText(err, ClientDefaultsText.deleteGroupFailed, (m) => `${ClientDefaultsText.deleteGroupFailed}: ${m}`));
    }
  };

  return (
    <Stack gap="md" mt="lg">
      {confirmDialog}
      <Group justify="space-between">
        <Title order={2} fz="h4">
          Repeating Groups
        </Title>
        <Select
          aria-label="Add instances of another repeating group"
          placeholder="Another repeating group…"
          data={groupBlocks
            .filter((b) => !shownIds.includes(b.id))
            .map((b) => ({ value: String(b.id), label: `${b.block_name} (${b.group_field_number})` }))}
          value={null}
          onChange={(v) => setExtra(v ? Number(v) : null)}
          searchable
          w={280}
          disabled={groupBlocks.length === 0}
        />
      </Group>
      {shownIds.length === 0 && (
        <Text c="dimmed" fz="sm">
          No repeating-group instances for this message type.
        </Text>
      )}
      {shownIds.map((id) => {
        const block = groupBlocks.find((b) => b.id === id);
        const g = groups.find((x) => x.component_block_id === id);
        const name = g?.block_name ?? block?.block_name ?? `Block ${id}`;
        const instances = g?.instances ?? [];
        const reference = g?.reference_url ?? block?.reference_url ?? null;
        return (
          <Card key={id} withBorder padding="md" aria-label={`Repeating group ${name}`} role="region">
            <Group justify="space-between" mb="xs" wrap="nowrap">
              <Stack gap={0}>
                <Text fw={700}>{name}</Text>
                <Text fz="sm" c="dimmed">
                  {g?.description ?? block?.description ?? ''}
                  {reference && (
                    <>
                      {' · '}
                      <Anchor href={reference} fz="sm">
                        FIX specification <IconExternalLink size={12} />
                      </Anchor>
                    </>
                  )}
                </Text>
              </Stack>
              <Button
                size="xs"
                leftSection={<IconPlus size={14} />}
                disabled={!writable || !block}
                onClick={() => block && setAdding(block)}
              >
                Add Instance {nextInstanceNumber(instances.map((i) => i.group_instance_number))}
              </Button>
            </Group>
            <Table withTableBorder striped fz="sm" aria-label={`${name} instances`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={250}>Instance</Table.Th>
                  <Table.Th>Fields</Table.Th>
                  <Table.Th>Notes</Table.Th>
                  <Table.Th w={60}>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {instances.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={4}>
                      <Text c="dimmed" fz="sm">
                        No instances yet.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {instances.map((i) => {
                  const label = instanceLabel(i.fields);
                  return (
                    <Table.Tr key={i.group_instance_number}>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <Text fz="sm" fw={600} className="fd-numeric">
                            {i.group_instance_number}
                          </Text>
                          {label && (
                            <Badge size="sm" variant="light" tt="none" style={{ maxWidth: 'none' }}>
                              {label}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td ff="monospace" fz="xs">
                        {i.fields.map((f) => `${f.field_name}(${f.tag})=${f.default_value}`).join('  ')}
                      </Table.Td>
                      <Table.Td fz="sm">{[...new Set(i.fields.map((f) => f.notes).filter(Boolean))].join('; ')}</Table.Td>
                      <Table.Td>
                        <Tooltip label="Delete instance">
                          <ActionIcon
                            size="sm"
                            variant="subtle"
                            color="red"
                            aria-label={`Delete ${name} instance ${i.group_instance_number}`}
                            disabled={!writable}
                            onClick={() => void remove(g ?? block!, i.group_instance_number)}
                          >
                            <IconTrash size={15} />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Card>
        );
      })}
      <InstanceModal
        block={adding}
        next={nextInstanceNumber(
          groups.find((g) => g.component_block_id === adding?.id)?.instances.map((i) => i.group_instance_number) ?? [],
        )}
        onClose={() => setAdding(null)}
        onSave={async (number, fields, notes) => {
          if (!connectorId || !msgType || !adding) throw new Error(ClientDefaultsText.missingGroupData);
          const answer = await clientDefaultsApi.saveGroup({
            client_connector_id: connectorId,
            msg_type: msgType,
            exec_type: execType,
            component_block_id: adding.id,
            group_instance_number: number,
            fields: fields.map((f) => ({ ...f, notes: notes || null })),
          });
          banners.showSuccess(answer.message ?? `${adding.block_name} instance ${number} saved`);
          setAdding(null);
          onChanged();
        }}
      />
    </Stack>
  );
}

/** A field of the block as an input named by its FIX tag: left empty, it is not part of the instance. */
function tagField(f: ComponentBlockField): AdminField {
  return {
    name: String(f.field_number),
    label: `${f.field_name} (${f.field_number})`,
    kind: 'text',
    required: f.is_mandatory,
    description: f.field_description ?? undefined,
    whenEmpty: 'omit',
  };
}

const NOTES_FIELD: AdminField = { name: 'notes', label: 'Notes', kind: 'text', description: 'e.g. Entering Firm', maxLength: 1000 };

/** Adds one instance: a value per field of the block (empty fields are left out). */
function InstanceModal({
  block,
  next,
  onClose,
  onSave,
}: {
  block: ComponentBlock | null;
  next: number;
  onClose: () => void;
  onSave: (n: number, fields: { tag: number; default_value: string }[], notes: string) => Promise<void>;
}) {
  const [fields, setFields] = useState<ComponentBlockField[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  /** The tags given a value, in the block's order. */
  const given = (payload: Record<string, unknown>) =>
    fields.flatMap((f) => {
      const value = payload[String(f.field_number)];
      return typeof value === 'string' ? [{ tag: f.field_number, default_value: value }] : [];
    });
  const form = useAdminForm({
    fields: [...fields.map(tagField), NOTES_FIELD],
    precheck: (payload) => (!block || given(payload).length === 0 ? ClientDefaultsText.missingGroupData : null),
    onSubmit: (payload) => onSave(next, given(payload), String(payload['notes'] ?? '')),
    failure: [ClientDefaultsText.saveGroupFailed, (m) => `${ClientDefaultsText.saveGroupFailed}: ${m}`],
  });
  const { reset } = form;
  useEffect(() => {
    if (!block) return;
    reset({});
    setLoadError(null);
    const controller = new AbortController();
    clientDefaultsApi
      .blockFields(block.id, controller.signal)
      .then((f) => setFields(f.filter((x) => x.field_number !== block.group_field_number)))
      .catch(
        (err: unknown) =>
          !controller.signal.aborted &&
          setLoadError(adminErrorText(err, ClientDefaultsText.fetchFieldsFailed, ClientDefaultsText.fetchFieldsError)),
      );
    return () => controller.abort();
  }, [block, reset]);
  const error = form.topError ?? loadError;
  return (
    <Modal opened={block !== null} onClose={onClose} title={block ? `Add ${block.block_name} instance ${next}` : ''} size="lg" centered>
      <Stack gap="sm">
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <AdminFieldGrid fields={form.shown} values={form.values} errors={form.errors} onChange={form.change} cols={1} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={form.submitting}>
            Cancel
          </Button>
          <Button onClick={() => void form.submit()} loading={form.submitting}>
            Save Instance
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
