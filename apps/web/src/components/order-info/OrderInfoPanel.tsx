import {
  formatAveragePrice,
  formatBlotterPrice,
  formatFilledProgress,
  formatMaturity,
  formatOrderPrice,
  formatQuantity,
  formatTimestamp,
  blotterStatusColour,
  ordRejReasonLabel,
  ordStatusWithFills,
  OrdStatus,
  ORD_TYPE_LABELS,
  splitSymbolDisplay,
  TIME_IN_FORCE_LABELS,
  type LatestPrice,
  type OrdTypeCode,
  type TimeInForceCode,
} from '@fixdesk/domain';
import type { ClientConnector, Order } from '@fixdesk/protocol';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Collapse,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconExternalLink, IconPhone, IconStack2 } from '@tabler/icons-react';
import { lazy, Suspense, useState, type ReactNode, type Ref } from 'react';
import type { OrderActions } from '../../services/orders/useOrderActions';
import { TOKEN_MANTINE } from '../grid/colours';
import { FILL_FOCUS_ID, FillPanel } from './FillPanel';
import { OrderHistory } from './OrderHistory';
import { OrderTimeline } from './OrderTimeline';
import { PARTY_ID_SOURCE_NAMES, PARTY_ROLE_NAMES, sideVerb, traderParty } from './orderText';
import { PendingRequestPanel } from './PendingRequestPanel';
import { PartiesTable } from '../orders/PartiesTable';
import { WhyDisabled } from '../orders/WhyDisabled';
import { useTradeBlock } from '../../services/orders/tradeAccess';

// The trade capture draws AG Grid leg grids: loaded when first opened.
const MultilegModal = lazy(() => import('./MultilegModal').then((m) => ({ default: m.MultilegModal })));

function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box>
      <Text fz={10.5} tt="uppercase" c="dimmed" fw={600} lts={0.3}>
        {label}
      </Text>
      <Text fz="sm" fw={600} className="fd-num" data-testid={testId}>
        {children}
      </Text>
    </Box>
  );
}

function Section({
  title,
  children,
  defaultOpen = false,
  testId,
  mountWhenOpen = false,
}: {
  title: string;
  children: ReactNode;
  defaultOpen?: boolean;
  testId?: string;
  mountWhenOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  // A section that loads something (the timeline) does so only once opened.
  const [opened, setOpened] = useState(defaultOpen);
  if (open && !opened) setOpened(true);
  return (
    <Box data-testid={testId}>
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} w="100%" py={4}>
        <Group gap={4}>
          {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          <Text fz="xs" fw={700} tt="uppercase" c="gray.7" lts={0.3}>
            {title}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open}>{mountWhenOpen && !opened ? null : children}</Collapse>
    </Box>
  );
}

export interface OrderInfoPanelProps {
  order: Order;
  actions: OrderActions;
  latestPrices: readonly LatestPrice[];
  connectors?: readonly ClientConnector[];
  executionCount?: number;
  /** Opens the order in its own window; given only in the desktop shell (spec 000 §2), absent on the order's own page. */
  onPopOut?: () => void;
  qtyRef?: Ref<HTMLInputElement>;
  /** The timeline section starts open (the order detail page). */
  timelineOpen?: boolean;
}

/**
 * The Order Info panel (spec 000 §2), used by the blotter and the order detail screen: who, what and
 * at what price, progress, the client's instructions, a client request awaiting the broker, and what
 * the broker can do now (fill/accept/reject panel, or the multileg trade capture).
 */
export function OrderInfoPanel({
  order,
  actions,
  latestPrices,
  connectors = [],
  executionCount,
  onPopOut,
  qtyRef,
  timelineOpen = false,
}: OrderInfoPanelProps) {
  const [multilegOpen, setMultilegOpen] = useState(false);
  const tradeBlock = useTradeBlock();
  const trader = traderParty(order);
  const symbol = splitSymbolDisplay(order.symbol);
  const status = blotterStatusColour(order.ordstatus, { cumQty: order.cumqty, orderQty: order.orderqty });
  const connector = connectors.find((c) => c.comp_id === order.sendercompid);
  const hasLegs = order.legs.length > 0;
  // An order refused at intake: a record of what the client tried, nothing to act on.
  const refusal = order.refusal;

  return (
    <Stack
      gap={0}
      h="100%"
      data-testid="order-info"
      data-order={order.brokerorderid || undefined}
      data-refused={refusal ? true : undefined}
    >
      <Group justify="space-between" wrap="nowrap" px={12} py={6} style={{ borderBottom: '1px solid var(--fd-border)', minHeight: 36 }}>
        <Text fw={700} fz="sm" component="h2" m={0}>
          {refusal ? `Order Info - refused order #${order.id}` : `Order Info - ${order.brokerorderid}`}
        </Text>
        <Group gap={6} wrap="nowrap">
          <Badge color={TOKEN_MANTINE[status.colour]} variant="light" data-testid="order-status">
            {ordStatusWithFills(order.ordstatus, order.cumqty, order.orderqty)}
          </Badge>
          {onPopOut && (
            <Tooltip label="Open the order on its own page (or double-click its row)">
              <ActionIcon variant="subtle" size="sm" onClick={onPopOut} aria-label="Pop out order">
                <IconExternalLink size={15} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars>
        <Stack gap={10} p={12}>
          <Box>
            <Group gap={6} wrap="nowrap">
              <Text fz="sm" fw={600} data-testid="order-client">
                {order.client_name ?? order.sendercompid}
              </Text>
              {trader && (
                <Tooltip label={order.client_phone ? `Phone ${order.client_phone}` : 'No phone on file'}>
                  <Badge variant="outline" color="gray" size="sm" leftSection={<IconPhone size={10} />} style={{ cursor: 'help' }}>
                    {trader.partyID}
                  </Badge>
                </Tooltip>
              )}
            </Group>
            <Group gap={8} align="baseline" mt={4} wrap="wrap" data-testid="order-headline">
              <Text fz={22} fw={750} c={sideVerb(order) === 'BUYS' ? 'green.8' : 'red.8'} lh={1.1}>
                {sideVerb(order)}
              </Text>
              <Text fz={22} fw={750} className="fd-num" lh={1.1}>
                {formatQuantity(order.orderqty)}
              </Text>
              <Text fz={22} fw={750} lh={1.1}>
                {symbol.name}
              </Text>
              {order.maturity_month_year && (
                <Text fz="md" fw={600} c="gray.7">
                  {formatMaturity(order.maturity_month_year)}
                </Text>
              )}
            </Group>
            {symbol.description && (
              <Text fz="xs" c="dimmed">
                {symbol.description}
              </Text>
            )}
          </Box>

          <SimpleGrid cols={3} spacing={8} verticalSpacing={6}>
            <Figure label="Price" testId="order-price">
              {order.price === null ? formatOrderPrice(null) : formatBlotterPrice(order.price)}
            </Figure>
            <Figure label="Filled" testId="order-filled">
              {refusal ? '—' : formatFilledProgress(order.cumqty, order.orderqty)}
            </Figure>
            <Figure label="Avg Price" testId="order-avgpx">
              {Number(order.cumqty) > 0 ? formatAveragePrice(order.avgpx, order.price) : '—'}
            </Figure>
            <Figure label="Type">{ORD_TYPE_LABELS[order.ordtype as OrdTypeCode] ?? order.ordtype}</Figure>
            <Figure label="TIF">{TIME_IN_FORCE_LABELS[order.timeinforce as TimeInForceCode] ?? order.timeinforce}</Figure>
            <Figure label="Leaves">{refusal ? '—' : formatQuantity(order.leavesqty)}</Figure>
          </SimpleGrid>

          {order.text && (
            <Paper withBorder p={8} radius="sm" bg="yellow.0" data-testid="client-instructions">
              <Text fz={10.5} tt="uppercase" c="dimmed" fw={600}>
                Client instructions
              </Text>
              <Text fz="xs">{order.text}</Text>
            </Paper>
          )}

          {refusal && (
            <Paper withBorder p={8} radius="sm" bg="red.0" data-testid="refusal">
              <Text fz={10.5} tt="uppercase" c="red.9" fw={700}>
                Refused at intake · {ordRejReasonLabel(refusal.ordRejReason)}
              </Text>
              <Text fz="xs">{refusal.text}</Text>
              <Text fz={11} c="dimmed" mt={2}>
                The client was told at once (ExecutionReport 150=8); nothing entered the book.
              </Text>
            </Paper>
          )}

          {order.reportText && !refusal && (
            <Paper withBorder p={8} radius="sm" bg="red.0" data-testid="report-text">
              <Text fz={10.5} tt="uppercase" c="dimmed" fw={600}>
                {order.ordstatus === OrdStatus.Rejected
                  ? 'Reject reason'
                  : order.ordstatus === OrdStatus.Canceled
                    ? 'Cancel reason'
                    : 'Report text'}
              </Text>
              <Text fz="xs">{order.reportText}</Text>
            </Paper>
          )}

          {!refusal && <PendingRequestPanel key={`req-${order.pendingRequest?.id ?? 'none'}`} order={order} actions={actions} />}

          {refusal ? null : hasLegs ? (
            <Paper withBorder p={10} radius="sm" data-testid="multileg-section">
              <Group justify="space-between" mb={6}>
                <Text fz="xs" fw={700} tt="uppercase" c="gray.7">
                  Multileg Trade Capture
                </Text>
                <Text fz="xs" c="dimmed">
                  {order.legs.length} legs
                </Text>
              </Group>
              <Table fz="xs" verticalSpacing={2} horizontalSpacing={6} mb={8}>
                <Table.Tbody>
                  {order.legs.map((leg) => (
                    <Table.Tr key={leg.legIndex}>
                      <Table.Td c={leg.legSide === '1' ? 'green.8' : 'red.8'} fw={600}>
                        {leg.legSide === '1' ? 'Buy' : 'Sell'}
                      </Table.Td>
                      <Table.Td>
                        {leg.legSymbol} {leg.contractMonth ?? formatMaturity(leg.legMaturityMonthYear)}
                      </Table.Td>
                      <Table.Td className="fd-num" ta="right">
                        {formatFilledProgress(leg.legCumQty, leg.orderQty)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {/* A pending order's Enter target is the accept form below: one element carries the id. */}
              <WhyDisabled reason={tradeBlock}>
                <Button
                  id={order.ordstatus === OrdStatus.PendingNew ? undefined : FILL_FOCUS_ID}
                  size="xs"
                  fullWidth
                  leftSection={<IconStack2 size={14} />}
                  disabled={tradeBlock !== null}
                  onClick={() => setMultilegOpen(true)}
                >
                  Open Trade Capture
                </Button>
              </WhyDisabled>
              {multilegOpen && (
                <Suspense fallback={null}>
                  <MultilegModal
                    opened={multilegOpen}
                    onClose={() => setMultilegOpen(false)}
                    order={order}
                    actions={actions}
                    latestPrices={latestPrices}
                    connector={connector}
                  />
                </Suspense>
              )}
              {order.ordstatus === OrdStatus.PendingNew && (
                <Box mt={10}>
                  <FillPanel order={order} actions={actions} latestPrices={latestPrices} />
                </Box>
              )}
            </Paper>
          ) : (
            <FillPanel order={order} actions={actions} latestPrices={latestPrices} qtyRef={qtyRef} />
          )}

          <Section title="Timeline" testId="order-timeline-section" defaultOpen={timelineOpen || !!refusal} mountWhenOpen>
            <OrderTimeline order={order} />
          </Section>

          {!refusal && (
            <Section title="Order history" testId="order-history">
              <OrderHistory brokerOrderId={order.brokerorderid} />
            </Section>
          )}

          <Section title="Related info">
            <SimpleGrid cols={2} spacing={6} verticalSpacing={4} py={4}>
              <Figure label="Client Order ID">{order.clordid}</Figure>
              <Figure label="Orig Client Order ID">{order.origclordid ?? '—'}</Figure>
              <Figure label="Sender / Target">
                {order.sendercompid} / {order.targetcompid}
              </Figure>
              <Figure label="Exchange · Ccy">
                {order.exchange ?? '—'} · {order.currency ?? '—'}
              </Figure>
              <Figure label="Received (UTC)">{formatTimestamp(order.created_at)}</Figure>
              <Figure label="Last update (UTC)">{formatTimestamp(order.updated_at)}</Figure>
              <Figure label="Account">{order.account ?? '—'}</Figure>
              <Figure label="Executions">{executionCount ?? '—'}</Figure>
            </SimpleGrid>
          </Section>

          <Section title={`Order parties (${order.parties.length})`} testId="order-parties">
            {order.parties.length === 0 ? (
              <Text fz="xs" c="dimmed" py={4}>
                No parties on this order.
              </Text>
            ) : (
              <PartiesTable
                striped
                parties={order.parties.map((p, i) => ({
                  key: `${p.partyID}-${p.partyRole}-${i}`,
                  partyId: p.partyID,
                  role: `${PARTY_ROLE_NAMES[String(p.partyRole)] ?? 'Role'} (${p.partyRole})${p.legIndex !== null ? ` · leg ${p.legIndex + 1}` : ''}`,
                  source: p.partyIDSource ? `${PARTY_ID_SOURCE_NAMES[p.partyIDSource] ?? ''} (${p.partyIDSource})` : '—',
                }))}
              />
            )}
          </Section>
        </Stack>
      </ScrollArea>
    </Stack>
  );
}
