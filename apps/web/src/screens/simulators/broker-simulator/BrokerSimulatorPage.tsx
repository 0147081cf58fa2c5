import {
  blotterStatusColour,
  formatBlotterPrice,
  formatOrderPrice,
  formatPrice,
  formatQuantity,
  formatTime,
  ordStatusWithFills,
  SIDE_LABELS,
  type SideCode,
} from '@fixdesk/domain';
import {
  Alert,
  Badge,
  Container,
  Grid,
  Group,
  NumberInput,
  Paper,
  Progress,
  ScrollArea,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { IconAlertCircle, IconRobot } from '@tabler/icons-react';
import { useState } from 'react';
import { LiveConnectionNotice } from '../../../services/live/LiveConnectionNotice';
import { useLiveConnection } from '../../../services/live/useLive';
import { BROKER_SIM_DELAY_LIMITS, BROKER_SIM_USER_ID, delayProblem, FILL_CHUNKS, type SimOrder, type SimPhase } from '@fixdesk/client';
import { useBrokerSimulator } from '../../../services/simulators/useBrokerSimulator';
import { TOKEN_MANTINE } from '../shared/colours';
import { LiveBadge } from '../shared/ConnectorParts';
import { PageHeader } from '../../../components/layout/PageHeader';
import { ORDER_STATUS_UPDATED } from '@fixdesk/protocol';
import { ReferenceLoadNotice } from '../../../components/reference/ReferenceLoadNotice';

const PHASE_BADGE: Record<SimPhase, { label: string; color: string }> = {
  watching: { label: 'Watching', color: 'gray' },
  accepting: { label: 'Accepting', color: 'blue' },
  filling: { label: 'Filling', color: 'teal' },
  finishing: { label: 'Finishing', color: 'teal' },
  done: { label: 'Done', color: 'dark' },
  stopped: { label: 'Stopped', color: 'red' },
};

function Counter({ label, value, colour, testId }: { label: string; value: number; colour: string; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="sm" style={{ borderTop: `3px solid var(--mantine-color-${colour}-6)` }}>
      <Text fz={11} c="dimmed" tt="uppercase" fw={700} lts={0.3}>
        {label}
      </Text>
      <Text fz={28} fw={700} className="fd-numeric" lh={1.15} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

function DelayInput({ label, value, onApply }: { label: string; value: number; onApply: (n: number) => void }) {
  const [text, setText] = useState<string | number>(value);
  const problem = delayProblem(label, text);
  return (
    <NumberInput
      label={`${label} (seconds)`}
      value={text}
      onChange={(v) => {
        setText(v);
        if (delayProblem(label, v) === null) onApply(Number(v));
      }}
      min={BROKER_SIM_DELAY_LIMITS.min}
      max={BROKER_SIM_DELAY_LIMITS.max}
      step={1}
      allowDecimal={false}
      clampBehavior="none"
      error={problem}
      w={180}
    />
  );
}

function OrderCard({ sim }: { sim: SimOrder }) {
  const o = sim.order;
  const updated = sim.status === ORDER_STATUS_UPDATED;
  const colour = updated ? 'cyan' : TOKEN_MANTINE[blotterStatusColour(o.ordstatus, { cumQty: o.cumqty, orderQty: o.orderqty }).colour];
  const filled = Number(o.orderqty) > 0 ? (Number(o.cumqty) / Number(o.orderqty)) * 100 : 0;
  const phase = PHASE_BADGE[sim.phase];
  return (
    <Paper
      withBorder
      radius="sm"
      p="sm"
      data-testid="sim-order-card"
      data-brokerorderid={o.brokerorderid}
      data-clordid={o.clordid}
      style={{ borderLeft: `3px solid var(--mantine-color-${o.side === '1' ? 'teal' : 'red'}-6)` }}
    >
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={700} ff="monospace" fz="sm">
          {o.brokerorderid}
        </Text>
        <Group gap={4} wrap="nowrap">
          {sim.phase !== 'done' && sim.phase !== 'watching' && (
            <Badge size="sm" variant="light" color={phase.color} data-testid="sim-order-phase">
              {phase.label}
            </Badge>
          )}
          <Badge
            size="sm"
            color={colour}
            data-testid="sim-order-status"
            title={updated ? `${ordStatusWithFills(o.ordstatus, o.cumqty, o.orderqty)}; the client asked for its status` : undefined}
          >
            {updated ? ORDER_STATUS_UPDATED : ordStatusWithFills(o.ordstatus, o.cumqty, o.orderqty)}
          </Badge>
        </Group>
      </Group>
      <Text fz="sm" fw={600} lineClamp={1} title={o.symbol}>
        <Text span c={o.side === '1' ? 'teal.8' : 'red.8'} fw={700}>
          {(SIDE_LABELS[o.side as SideCode] ?? o.side).toUpperCase()}
        </Text>{' '}
        {formatQuantity(o.orderqty)} {o.symbol} @{' '}
        {o.price === null || o.price === '' ? formatOrderPrice(null) : formatBlotterPrice(o.price)}
      </Text>
      <Text fz="xs" c="dimmed" lineClamp={1}>
        {o.client_name ?? o.sendercompid} · {o.clordid}
      </Text>
      <Group gap={6} mt={6} wrap="nowrap">
        <Progress value={filled} size="sm" style={{ flex: 1 }} color="teal" aria-label="Filled" />
        <Text fz="xs" className="fd-numeric" w={86} ta="right">
          {formatQuantity(o.cumqty)} / {formatQuantity(o.orderqty)}
        </Text>
      </Group>
      {sim.fills.length > 0 && (
        <Text fz="xs" c="dimmed" mt={4} data-testid="sim-order-fills">
          {sim.fills.length} fill{sim.fills.length === 1 ? '' : 's'}:{' '}
          {sim.fills.map((f) => `${formatQuantity(f.qty)} @ ${formatPrice(f.price)}`).join(', ')}
        </Text>
      )}
      {sim.note && (
        <Text fz="xs" c={sim.phase === 'stopped' ? 'red.7' : 'dimmed'} mt={2} lineClamp={2} title={sim.note}>
          {sim.note}
        </Text>
      )}
    </Paper>
  );
}

/**
 * Broker Simulator (spec 000 §2, §4): auto mode accepts pending orders and fills them in 2 to 4 chunks,
 * then marks them done for the day, as user BROKER_SIM through the same API as a broker. It runs in
 * this browser while the screen is open; `npm run broker-sim` runs the same engine without a browser.
 */
export default function BrokerSimulatorPage() {
  const live = useLiveConnection();
  const sim = useBrokerSimulator();
  const { settings, counters, recent, activity } = sim.state;

  return (
    <Stack gap={0} w="100%">
      <LiveConnectionNotice state={live} onRetry={live.retry} />
      <Container size="xl" py="md" w="100%">
        <PageHeader
          icon={IconRobot}
          title="Broker Simulator"
          description={`Accepts and fills client orders as ${BROKER_SIM_USER_ID} while this page is open (${FILL_CHUNKS.min}-${FILL_CHUNKS.max} fills, 2 s apart, then done for day).`}
          actions={<LiveBadge state={live} />}
        />

        {sim.error && (
          <Alert color="red" icon={<IconAlertCircle size={16} />} mb="md" title="Error Loading Orders">
            {sim.error}
          </Alert>
        )}
        <ReferenceLoadNotice errors={[sim.referenceError]} />

        <Paper withBorder p="sm" radius="sm" mb="md">
          <Group gap="xl" align="flex-start">
            <Switch
              size="md"
              mt={24}
              label={<Text fw={700}>Auto mode</Text>}
              description={settings.auto ? 'Accepting and filling new orders' : 'Off: orders are left to the desk'}
              checked={settings.auto}
              onChange={(e) => sim.setSettings({ auto: e.currentTarget.checked })}
              disabled={sim.loading}
              data-testid="auto-mode"
            />
            <DelayInput
              label="Accept delay"
              value={settings.acceptDelaySec}
              onApply={(acceptDelaySec) => sim.setSettings({ acceptDelaySec })}
            />
            <DelayInput label="Fill delay" value={settings.fillDelaySec} onApply={(fillDelaySec) => sim.setSettings({ fillDelaySec })} />
          </Group>
        </Paper>

        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" mb="md">
          <Counter label="Pending Orders" value={counters.pending} colour="blue" testId="sim-pending" />
          <Counter label="Active Orders" value={counters.active} colour="orange" testId="sim-active" />
          <Counter label="Completed Today" value={counters.completedToday} colour="teal" testId="sim-completed" />
          <Counter label="Total Processed" value={counters.processed} colour="gray" testId="sim-processed" />
        </SimpleGrid>

        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <Text fw={700} fz="sm" mb={6}>
              Latest orders
            </Text>
            {recent.length === 0 ? (
              <Paper withBorder p="lg" radius="sm">
                <Text c="dimmed" ta="center" fz="sm">
                  {sim.loading ? 'Loading orders…' : 'No orders yet: send one from the FIX Client Simulator.'}
                </Text>
              </Paper>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-testid="sim-cards">
                {recent.map((s) => (
                  <OrderCard key={s.order.brokerorderid} sim={s} />
                ))}
              </SimpleGrid>
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <Text fw={700} fz="sm" mb={6}>
              Activity
            </Text>
            <Paper withBorder radius="sm">
              <ScrollArea h={420} type="auto">
                {activity.length === 0 ? (
                  <Text c="dimmed" fz="xs" p="sm">
                    Nothing done yet.
                  </Text>
                ) : (
                  <Stack gap={0} data-testid="sim-activity">
                    {activity.map((a) => (
                      <Group
                        key={`${a.at}-${a.brokerOrderId}-${a.text}`}
                        gap={8}
                        px="sm"
                        py={4}
                        wrap="nowrap"
                        style={{ borderBottom: '1px solid var(--fd-border)' }}
                      >
                        <Text fz="xs" c="dimmed" className="fd-numeric" w={62} style={{ flexShrink: 0 }}>
                          {formatTime(new Date(a.at))}
                        </Text>
                        <Text fz="xs" ff="monospace" style={{ flexShrink: 0 }}>
                          {a.brokerOrderId}
                        </Text>
                        <Text fz="xs" c={a.level === 'error' ? 'red.7' : undefined} lineClamp={2}>
                          {a.text}
                        </Text>
                      </Group>
                    ))}
                  </Stack>
                )}
              </ScrollArea>
            </Paper>
          </Grid.Col>
        </Grid>
      </Container>
    </Stack>
  );
}
