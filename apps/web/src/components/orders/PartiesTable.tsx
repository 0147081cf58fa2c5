import { Table } from '@mantine/core';

/** One party as a table shows it: its id and its role and id source already worded. */
export interface PartyLine {
  key: string;
  partyId: string;
  role: string;
  source: string;
}

/**
 * The Parties (453) of an order as a small table: Party ID, Party Role, ID Source. The desk's order
 * info and the FIX Client's order both show it; each words roles and sources its own way.
 */
export function PartiesTable({
  parties,
  striped = false,
  monospaceIds = false,
  label,
}: {
  parties: readonly PartyLine[];
  striped?: boolean;
  monospaceIds?: boolean;
  label?: string;
}) {
  return (
    <Table
      fz="xs"
      verticalSpacing={3}
      striped={striped}
      {...(monospaceIds ? { horizontalSpacing: 'sm' } : {})}
      {...(label ? { 'aria-label': label } : {})}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Party ID</Table.Th>
          <Table.Th>Party Role</Table.Th>
          <Table.Th>ID Source</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {parties.map((p) => (
          <Table.Tr key={p.key}>
            <Table.Td {...(monospaceIds ? { ff: 'monospace' } : {})}>{p.partyId}</Table.Td>
            <Table.Td>{p.role}</Table.Td>
            <Table.Td>{p.source}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
