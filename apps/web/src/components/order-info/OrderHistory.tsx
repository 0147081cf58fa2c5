import { formatPrice, formatQuantity, formatTimestamp } from '@fixdesk/domain';
import { Loader, Table, Text } from '@mantine/core';
import { useOrderHistory } from '../../services/orders/useDeskReference';

/** The order's action log (who accepted, filled, decided), newest first. */
export function OrderHistory({ brokerOrderId }: { brokerOrderId: string }) {
  const { data, loading, error } = useOrderHistory(brokerOrderId);
  if (loading && data.length === 0) return <Loader size="xs" my={6} />;
  if (error) {
    return (
      <Text fz="xs" c="red.8" py={4}>
        Could not load the order history: {error}
      </Text>
    );
  }
  if (data.length === 0) {
    return (
      <Text fz="xs" c="dimmed" py={4}>
        No broker actions on this order yet.
      </Text>
    );
  }
  return (
    <Table fz="xs" verticalSpacing={3} horizontalSpacing={6}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Time (UTC)</Table.Th>
          <Table.Th>Action</Table.Th>
          <Table.Th>User</Table.Th>
          <Table.Th ta="right">Fill</Table.Th>
          <Table.Th>Note</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td className="fd-num">{formatTimestamp(a.created_at ?? a.timestamp).slice(11)}</Table.Td>
            <Table.Td>{a.action_type}</Table.Td>
            <Table.Td>{a.user_id}</Table.Td>
            <Table.Td ta="right" className="fd-num">
              {a.fillQty
                ? `${formatQuantity(a.fillQty)} @ ${formatPrice(a.fillPrice)}${a.legIndex !== null ? ` (leg ${a.legIndex + 1})` : ''}`
                : ''}
            </Table.Td>
            {/* The accept message sent to the client, a cancel or reject reason, the simulator's label. */}
            <Table.Td data-testid="history-note">{a.notes ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
