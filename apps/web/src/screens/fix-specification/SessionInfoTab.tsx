import { connectionGuidelines, SESSION_MESSAGES, sessionParameterRows, type FixSpecDocument } from '@fixdesk/domain';
import { Box, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import { DropCopySection } from './DropCopySection';
import { FieldTable, TextTable } from './FieldTable';
import { RuleList } from './RuleList';

export interface Choice {
  value: string;
  label: string;
}

/**
 * Tab 4: the connector and executing broker selectors, the session parameters (the acceptor's real ports,
 * the connector's CompIDs, schedule, time zone and reset policy), the session messages, the connection
 * guidelines and the header and trailer fields of the dictionary; a Drop copy section when drop copy
 * sessions cover the client or the connector is one.
 */
export function SessionInfoTab({
  doc,
  connectors,
  compId,
  onCompId,
  brokers,
  brokerId,
  onBrokerId,
}: {
  doc: FixSpecDocument;
  connectors: readonly Choice[];
  compId: string;
  onCompId: (v: string) => void;
  brokers: readonly Choice[];
  brokerId: string | null;
  onBrokerId: (v: string | null) => void;
}) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} maw={720}>
        <Select
          label="Client connector"
          data={connectors}
          value={compId}
          onChange={(v) => v && onCompId(v)}
          allowDeselect={false}
          searchable
          data-testid="spec-connector"
        />
        <Select
          label="Executing broker"
          data={brokers}
          value={brokerId}
          onChange={onBrokerId}
          placeholder="The connector's own broker"
          clearable
          data-testid="spec-broker"
        />
      </SimpleGrid>
      <Title order={3} fz="h4">
        Session parameters
      </Title>
      <Box maw={860}>
        <TextTable testId="session-parameters" headers={['Parameter', 'Value']} rows={sessionParameterRows(doc.session)} />
      </Box>
      {doc.dropCopy && <DropCopySection dropCopy={doc.dropCopy} compId={doc.client.compId} />}
      <Title order={3} fz="h4">
        Session messages
      </Title>
      <TextTable
        headers={['MsgType (35)', 'Message', 'Direction', 'Usage']}
        rows={SESSION_MESSAGES.map((m) => [
          m.msgType,
          m.name,
          m.direction === 'both' ? 'Both ways' : m.direction === 'in' ? 'Client sends' : 'Desk sends',
          m.usage,
        ])}
      />
      <Title order={3} fz="h4">
        Connection guidelines
      </Title>
      <RuleList rules={connectionGuidelines(doc.session)} spacing={6} />
      <SimpleGrid cols={{ base: 1, xl: 2 }}>
        {(
          [
            ['Standard header', doc.session.header, 'header-fields'],
            ['Standard trailer', doc.session.trailer, 'trailer-fields'],
          ] as const
        ).map(([title, fields, testId]) => (
          <Stack gap={4} key={testId}>
            <Title order={3} fz="h4">
              {title}
            </Title>
            <FieldTable fields={fields} defaultLabel="Value" testId={testId} />
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
