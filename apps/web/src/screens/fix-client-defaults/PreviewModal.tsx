import type { ClientDefaultsPreview } from '@fixdesk/protocol';
import { Badge, Modal, Stack, Table, Text, Title } from '@mantine/core';

/** Preview with Variables: each default with its value for this client now. */
export function PreviewModal({ preview, onClose }: { preview: ClientDefaultsPreview | null; onClose: () => void }) {
  return (
    <Modal opened={preview !== null} onClose={onClose} title="Preview with Variables" size="xl" centered>
      {preview && (
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            {preview.client_connector.comp_id} → {preview.client_connector.target_comp_id} · {preview.client_connector.client_name ?? '—'} ·
            message {preview.msg_type}
            {preview.exec_type ? ` ExecType ${preview.exec_type}` : ''}
          </Text>
          <Table striped withTableBorder aria-label="Resolved defaults" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Tag</Table.Th>
                <Table.Th>Field</Table.Th>
                <Table.Th>Default Value</Table.Th>
                <Table.Th>Resolved Value</Table.Th>
                <Table.Th>Notes</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.defaults.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text c="dimmed" fz="sm" ta="center">
                      No field defaults for this message type.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {preview.defaults.map((d) => (
                <Table.Tr key={d.tag}>
                  <Table.Td className="fd-numeric">{d.tag}</Table.Td>
                  <Table.Td>{d.field_name}</Table.Td>
                  <Table.Td ff="monospace">{d.default_value}</Table.Td>
                  <Table.Td ff="monospace" fw={600}>
                    {d.resolved_value || (
                      <Badge color="orange" variant="light" size="sm">
                        empty: left out
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{d.notes ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {preview.groups.map((g) => (
            <Stack key={g.component_block_id} gap={4}>
              <Title order={4} fz="sm">
                {g.block_name} ({g.group_field_number}={g.instances.length})
              </Title>
              <Table withTableBorder fz="sm" aria-label={`${g.block_name} resolved`}>
                <Table.Tbody>
                  {g.instances.map((i) => (
                    <Table.Tr key={i.group_instance_number}>
                      <Table.Td w={90}>Instance {i.group_instance_number}</Table.Td>
                      <Table.Td ff="monospace">{i.fields.map((f) => `${f.tag}=${f.resolved_value}`).join(' | ')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          ))}
        </Stack>
      )}
    </Modal>
  );
}
