import {
  dropCopySessionNotes,
  executionReportRows,
  isDropCopySession,
  ORDER_FLOWS,
  sequenceDiagramSvg,
  type FixSpecDocument,
} from '@fixdesk/domain';
import { Badge, Code, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { DropCopyNote } from './DropCopySection';

/**
 * Tab 3: the order flows as sequence diagrams drawn from the flow data (the same SVG the client's
 * document carries; every text in it is escaped by the domain's renderer) and the 13 ExecutionReport
 * variants with the fields this client's reports carry.
 */
export function TradeLifecycleTab({ doc }: { doc: FixSpecDocument }) {
  const rows = executionReportRows(doc);
  const copiesOnly = isDropCopySession(doc);
  return (
    <Stack gap="md">
      {copiesOnly && <DropCopyNote testId="lifecycle-drop-copy">{dropCopySessionNotes(doc.client.compId).tradeLifecycle}</DropCopyNote>}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        {ORDER_FLOWS.map((f) => (
          <Paper key={f.key} withBorder radius="sm" p="sm" data-testid={`flow-${f.key}`}>
            <Text fw={700}>{f.title}</Text>
            <Text fz="xs" c="dimmed" mb={6}>
              {f.description}
            </Text>
            <div
              dangerouslySetInnerHTML={{
                __html: sequenceDiagramSvg(f, {
                  clientLabel: copiesOnly ? 'Client' : doc.client.compId,
                  deskLabel: doc.session.targetCompId,
                }),
              }}
            />
          </Paper>
        ))}
      </SimpleGrid>
      <Title order={3} fz="h4">
        Execution report variants
      </Title>
      <Table.ScrollContainer minWidth={900}>
        <Table striped withTableBorder withColumnBorders verticalSpacing={4} fz="xs" data-testid="execution-report-variants">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={170}>Report</Table.Th>
              <Table.Th w={90}>ExecType (150)</Table.Th>
              <Table.Th w={90}>OrdStatus (39)</Table.Th>
              <Table.Th w={110}>Sent today</Table.Th>
              <Table.Th>Fields (required in bold, this client&apos;s values after =)</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.variant.name}>
                <Table.Td>
                  <Text fz="xs" fw={600}>
                    {r.variant.name}
                  </Text>
                  <Text fz={11} c="dimmed">
                    {r.variant.description}
                  </Text>
                </Table.Td>
                <Table.Td ff="monospace">{r.variant.execType}</Table.Td>
                <Table.Td ff="monospace">{r.variant.ordStatus}</Table.Td>
                <Table.Td>
                  {r.sent ? (
                    <Badge size="xs" color="teal" variant="light">
                      Yes
                    </Badge>
                  ) : (
                    <Badge size="xs" color="gray" variant="light">
                      Reserved
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  {r.fields.length === 0
                    ? '—'
                    : r.fields.map((f, i) => (
                        <span key={f.tag}>
                          {i > 0 && ', '}
                          <span style={{ fontWeight: f.required ? 700 : 400 }}>
                            {f.tag} {f.name}
                          </span>
                          {f.clientDefault !== null && (
                            <>
                              {' = '}
                              <Code fz={11}>{f.clientDefault}</Code>
                            </>
                          )}
                        </span>
                      ))}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
