import {
  clientOrdStatusLabel,
  clientStatusColour,
  closedFillNote,
  formatBlotterPrice,
  formatOrderPrice,
  formatQuantity,
  SIDE_LABELS,
  type SideCode,
} from '@fixdesk/domain';
import type { ClientOrder } from '@fixdesk/protocol';
import { Badge, Container, Grid, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconTerminal2 } from '@tabler/icons-react';
import { LiveConnectionNotice } from '../../../services/live/LiveConnectionNotice';
import { useLiveConnection } from '../../../services/live/useLive';
import {
  useClientBlotter,
  useConnectors,
  useSecurities,
  useSelectedConnector,
  useTestClient,
} from '../../../services/simulators/useSimulators';
import { TOKEN_MANTINE } from '../shared/colours';
import { ConnectorInfo, ConnectorSelect, FixClientControl, LiveBadge } from '../shared/ConnectorParts';
import { OrderEntry } from '../shared/OrderEntry';
import { PageHeader } from '../../../components/layout/PageHeader';
import { ReferenceLoadNotice } from '../../../components/reference/ReferenceLoadNotice';

const STORAGE_KEY = 'fixdesk.simulator.connector';

function Counter({ label, value, colour, testId }: { label: string; value: number | undefined; colour: string; testId: string }) {
  return (
    <Paper withBorder p="xs" radius="sm" style={{ borderTop: `3px solid var(--mantine-color-${colour}-6)` }}>
      <Text fz={11} c="dimmed" tt="uppercase" fw={700} lts={0.3}>
        {label}
      </Text>
      <Text fz={24} fw={700} className="fd-numeric" data-testid={testId} lh={1.2}>
        {value ?? '—'}
      </Text>
    </Paper>
  );
}

function SentOrders({ orders, loading }: { orders: readonly ClientOrder[]; loading: boolean }) {
  return (
    <Paper withBorder radius="sm">
      <Group justify="space-between" px="xs" py={6} style={{ borderBottom: '1px solid var(--fd-border)' }}>
        <Text fz="sm" fw={700}>
          Sent orders
        </Text>
        <Text fz="xs" c="dimmed">
          10 latest · live
        </Text>
      </Group>
      <Table fz="xs" verticalSpacing={4} highlightOnHover aria-label="Sent orders" data-testid="sent-orders">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ClOrdID</Table.Th>
            <Table.Th>Symbol</Table.Th>
            <Table.Th>Side</Table.Th>
            <Table.Th ta="right">Qty</Table.Th>
            <Table.Th ta="right">Filled</Table.Th>
            <Table.Th ta="right">Price</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading && (
            <Table.Tr>
              <Table.Td colSpan={7}>
                <Skeleton h={12} />
              </Table.Td>
            </Table.Tr>
          )}
          {!loading && orders.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={7}>
                <Text fz="xs" c="dimmed" ta="center" py="sm">
                  No orders sent yet
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {orders.slice(0, 10).map((o) => (
            <Table.Tr key={o.id} data-clordid={o.id}>
              <Table.Td ff="monospace">{o.clordid}</Table.Td>
              <Table.Td fw={600} maw={180} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={o.symbol}>
                {o.symbol}
              </Table.Td>
              <Table.Td c={o.side === '1' ? 'teal.7' : 'red.7'} fw={600}>
                {SIDE_LABELS[o.side as SideCode] ?? o.side}
              </Table.Td>
              <Table.Td ta="right" className="fd-numeric">
                {formatQuantity(o.orderqty)}
              </Table.Td>
              <Table.Td ta="right" className="fd-numeric">
                {formatQuantity(o.cumqty)}
              </Table.Td>
              <Table.Td ta="right" className="fd-numeric">
                {/* As sent (12.345 stays 12.345: a price refused off the tick shows why); MKT without one. */}
                {o.price === null || o.price === '' ? formatOrderPrice(null) : formatBlotterPrice(o.price)}
              </Table.Td>
              <Table.Td>
                <Badge
                  size="sm"
                  variant="light"
                  color={TOKEN_MANTINE[clientStatusColour(o.ordstatus)]}
                  data-testid="sent-order-status"
                  title={o.text ?? undefined}
                >
                  {clientOrdStatusLabel(o.ordstatus)}
                  {closedFillNote(o.ordstatus, o.cumqty, o.orderqty) ? ` (${closedFillNote(o.ordstatus, o.cumqty, o.orderqty)})` : ''}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/**
 * FIX Client Simulator (spec 000 §2): pick a client connector, start its simulated FIX client (our own
 * initiator logging on to the desk's acceptor as that client), build outright, multileg and custom
 * multileg orders, preview the FIX message and send it through the client's session.
 */
export default function FixTestClientPage() {
  const live = useLiveConnection();
  const connectors = useConnectors({ tradingOnly: true });
  const securities = useSecurities();
  const [connector, select] = useSelectedConnector(STORAGE_KEY, connectors.data, 'comp_id');
  const control = useTestClient(connector?.comp_id ?? null);
  const blotter = useClientBlotter(connector?.comp_id ?? null);
  const counters = control.status?.counters;

  return (
    <Stack gap={0} w="100%">
      <LiveConnectionNotice state={live} onRetry={live.retry} />
      <Container size="xl" py="md" w="100%">
        <PageHeader
          icon={IconTerminal2}
          title="FIX Client Simulator"
          description="Log on as a client connector and send real FIX orders to the desk."
          actions={<LiveBadge state={live} />}
        />

        <ReferenceLoadNotice errors={[connectors.error, securities.error]} />

        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <Stack gap="md">
              <Paper withBorder p="sm" radius="sm">
                <Stack gap="sm">
                  <ConnectorSelect connectors={connectors.data} value={connector?.comp_id ?? null} onChange={select} />
                  {connectors.loading && <Skeleton h={120} />}
                  {!connectors.loading && !connector && (
                    <Text fz="sm" c="dimmed">
                      Please select a Client Connector first
                    </Text>
                  )}
                  {connector && <ConnectorInfo connector={connector} status={control.status} />}
                </Stack>
              </Paper>
              {connector && (
                <Paper withBorder p="sm" radius="sm">
                  <FixClientControl control={control} />
                </Paper>
              )}
              <SimpleGrid cols={2} spacing="xs">
                <Counter label="Orders Sent" value={counters?.sent} colour="blue" testId="counter-sent" />
                <Counter label="Pending" value={counters?.pending} colour="orange" testId="counter-pending" />
                <Counter label="Filled" value={counters?.filled} colour="teal" testId="counter-filled" />
                <Counter label="Completed" value={counters?.completed} colour="gray" testId="counter-completed" />
              </SimpleGrid>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <Stack gap="md">
              <Paper withBorder p="sm" radius="sm">
                {securities.loading ? (
                  <Skeleton h={260} />
                ) : (
                  <OrderEntry
                    key={connector?.comp_id ?? 'none'}
                    variant="simulator"
                    connector={connector}
                    status={control.status}
                    securities={securities.data}
                  />
                )}
              </Paper>
              <SentOrders orders={blotter.data.orders} loading={blotter.loading} />
            </Stack>
          </Grid.Col>
        </Grid>
      </Container>
    </Stack>
  );
}
