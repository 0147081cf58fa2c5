import { truncateValidValues, type FixSpecField } from '@fixdesk/domain';
import { Badge, Code, Table, Text, Tooltip } from '@mantine/core';

/**
 * A message's fields (spec 001 §2): tag, name, type, required, valid values truncated at 100 characters
 * (the whole list on hover) and the client's default where one applies.
 */
export function FieldTable({
  fields,
  defaultLabel = "Client's default",
  testId,
}: {
  fields: readonly FixSpecField[];
  defaultLabel?: string;
  testId?: string;
}) {
  if (fields.length === 0) {
    return (
      <Text fz="sm" c="dimmed">
        No fields are specified for this message.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped withTableBorder withColumnBorders verticalSpacing={4} fz="xs" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={56}>Tag</Table.Th>
            <Table.Th>Field</Table.Th>
            <Table.Th w={120}>Type</Table.Th>
            <Table.Th w={90}>Required</Table.Th>
            <Table.Th>Valid values</Table.Th>
            <Table.Th>{defaultLabel}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((f) => {
            const values = truncateValidValues(f.validValues);
            return (
              <Table.Tr key={f.tag}>
                <Table.Td ff="monospace">{f.tag}</Table.Td>
                <Table.Td>
                  <Tooltip label={f.description} disabled={!f.description} multiline w={360} withArrow openDelay={300}>
                    <span>{f.name}</span>
                  </Tooltip>
                </Table.Td>
                <Table.Td>{f.type}</Table.Td>
                <Table.Td>
                  {f.required ? (
                    <Badge size="xs" color="red" variant="light">
                      Required
                    </Badge>
                  ) : (
                    <Text fz="xs" c="dimmed">
                      Optional
                    </Text>
                  )}
                </Table.Td>
                <Table.Td title={values === f.validValues ? undefined : f.validValues}>{values}</Table.Td>
                <Table.Td>
                  {f.clientDefault === null ? (
                    ''
                  ) : (
                    <Code fz="xs" style={{ wordBreak: 'break-all' }}>
                      {f.clientDefault}
                    </Code>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A plain two-or-more column table of text (parameters, session messages, contracts). */
export function TextTable({
  headers,
  rows,
  testId,
}: {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  testId?: string;
}) {
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped withTableBorder withColumnBorders verticalSpacing={4} fz="sm" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={`${r[0]}-${i}`}>
              {r.map((v, j) => (
                <Table.Td key={j}>{v}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
