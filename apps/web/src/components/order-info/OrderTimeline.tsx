import type { FixMessageRecord, Order, OrderTimeline as Timeline } from '@fixdesk/protocol';
import { Alert, Anchor, Badge, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconCircleDot, IconRefresh, IconUser, IconX } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { formatLocalTimeMicros, timeZoneLabel } from '../time/localTime';
import { useDisplayZone } from '../time/displayZone';
import { ordersApi } from '../../services/orders/http';
import { timelineLine, type TimelineLine } from './timelineText';

// The FIX Messages screen's detail (raw message, parsed fields): loaded when a message is opened.
const FixMessageDetail = lazy(() => import('../../screens/fix-messages/FixMessageDetail').then((m) => ({ default: m.FixMessageDetail })));

const TONE: Record<TimelineLine['tone'], { colour: string; icon: typeof IconArrowLeft }> = {
  in: { colour: 'blue', icon: IconArrowRight },
  out: { colour: 'green', icon: IconArrowLeft },
  state: { colour: 'grape', icon: IconCircleDot },
  action: { colour: 'orange', icon: IconUser },
  reject: { colour: 'red', icon: IconX },
};

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; timeline: Timeline };

/**
 * The order's whole story: every FIX message in and out for it, every state change and every
 * user action, in time order, each opening the raw message it went out or came in as. Times in the
 * user's zone, to the microsecond, with the zone named. Reloaded whenever the order changes.
 */
export function OrderTimeline({ order }: { order: Order }) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [open, setOpen] = useState<FixMessageRecord | null>(null);
  const timeZone = useDisplayZone();

  useEffect(() => {
    const abort = new AbortController();
    ordersApi
      .timeline(order.id, abort.signal)
      .then((timeline) => setLoad({ state: 'ready', timeline }))
      .catch((err: unknown) => {
        if (!abort.signal.aborted) setLoad({ state: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => abort.abort();
  }, [order.id, order.updated_at, order.ordstatus, attempt]);

  if (load.state === 'loading') {
    return (
      <Group gap={6} py={6} data-testid="timeline-loading">
        <Loader size="xs" />
        <Text fz="xs" c="dimmed">
          Loading the order's timeline...
        </Text>
      </Group>
    );
  }
  if (load.state === 'error') {
    return (
      <Alert color="red" p={8} data-testid="timeline-error" title="Error Loading Timeline">
        <Group gap={8}>
          <Text fz="xs">{load.message}</Text>
          <Button
            size="compact-xs"
            variant="light"
            color="red"
            leftSection={<IconRefresh size={12} />}
            onClick={() => setAttempt((a) => a + 1)}
          >
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }
  const { entries } = load.timeline;
  const messages = new Map(entries.flatMap((e) => (e.kind === 'fix' ? [[e.message.id, e.message] as const] : [])));
  return (
    <Box data-testid="order-timeline">
      <Text fz={11} c="dimmed" mb={6} data-testid="timeline-zone">
        {entries.length} events · times in {timeZoneLabel(timeZone)}
      </Text>
      {entries.length === 0 && (
        <Text fz="xs" c="dimmed">
          Nothing recorded for this order.
        </Text>
      )}
      <Stack gap={0} component="ol" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {entries.map((e, i) => {
          const line = timelineLine(e);
          const tone = TONE[line.tone];
          const Icon = tone.icon;
          const raw = e.kind === 'fix' ? e.message : e.fixMessageId !== null ? (messages.get(e.fixMessageId) ?? null) : null;
          return (
            <Box
              component="li"
              key={`${e.kind}-${i}`}
              data-testid="timeline-entry"
              data-kind={e.kind}
              style={{ display: 'grid', gridTemplateColumns: '18px 1fr', columnGap: 8, paddingBottom: 8, position: 'relative' }}
            >
              <Box style={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
                <Box
                  style={{
                    width: 18,
                    height: 18,
                    borderRadius: 9,
                    display: 'grid',
                    placeItems: 'center',
                    flex: 'none',
                    background: `var(--mantine-color-${tone.colour}-1)`,
                    color: `var(--mantine-color-${tone.colour}-8)`,
                  }}
                >
                  <Icon size={11} stroke={2.4} />
                </Box>
                {i < entries.length - 1 && <Box style={{ flex: 1, width: 1, background: 'var(--fd-border)', marginTop: 2 }} />}
              </Box>
              <Box style={{ minWidth: 0 }}>
                <Group gap={6} wrap="nowrap" justify="space-between" align="baseline">
                  <Text
                    fz={11}
                    c="dimmed"
                    className="fd-num"
                    style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
                    data-testid="timeline-time"
                  >
                    {formatLocalTimeMicros(e.at, timeZone)}
                  </Text>
                  {raw && (
                    <Anchor
                      component="button"
                      type="button"
                      fz={11}
                      onClick={() => setOpen(raw)}
                      data-testid="timeline-raw"
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {e.kind === 'fix' ? 'View message' : `View report (seq ${raw.msgseqnum})`}
                    </Anchor>
                  )}
                </Group>
                <Group gap={6} wrap="nowrap" align="baseline">
                  <Badge size="xs" variant="light" color={tone.colour} radius="xs" style={{ flex: 'none' }}>
                    {line.actor}
                  </Badge>
                  <Text fz="xs" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="timeline-title">
                    {line.title}
                  </Text>
                </Group>
                {line.details.length > 0 && (
                  <Text fz={11} c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                    {line.details.join(' · ')}
                  </Text>
                )}
              </Box>
            </Box>
          );
        })}
      </Stack>
      {open && (
        <Suspense fallback={null}>
          <FixMessageDetail message={open} timeZone={timeZone} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </Box>
  );
}
