import { Alert, Button, Group, Text } from '@mantine/core';
import { IconPlugConnectedX, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { LiveState } from '@fixdesk/client';

function secondsUntil(at: number | null, now: number): number {
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The visible stale/offline state of a live screen: nothing while connected; a thin note while
 * reconnecting (try n of 5, countdown); an alert with Retry once the tries are spent or the server
 * refused the session. Data on screen may be stale whenever this shows.
 */
export function LiveConnectionNotice({ state, onRetry }: { state: LiveState; onRetry: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (state.status !== 'reconnecting') return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [state.status]);

  if (state.status === 'reconnecting') {
    return (
      <Alert color="orange" variant="light" p={6} radius={0} role="status" data-testid="live-reconnecting">
        <Text fz="xs">
          Live connection lost{state.lastError ? ` (${state.lastError})` : ''}: data may be stale. Reconnecting, try {state.attempt} of{' '}
          {state.maxAttempts} in {secondsUntil(state.nextRetryAt, now)} s…
        </Text>
      </Alert>
    );
  }
  if (state.status === 'offline' || state.status === 'refused') {
    return (
      <Alert color="red" variant="light" p={6} radius={0} role="alert" data-testid="live-offline" icon={<IconPlugConnectedX size={16} />}>
        <Group gap="sm" justify="space-between" wrap="nowrap">
          <Text fz="xs">
            <b>Offline</b>: {state.status === 'refused' ? state.lastError ?? 'The server refused the live session.' : `could not reach the live server after ${state.maxAttempts} tries.`} Orders on screen are not updating.
          </Text>
          <Button size="compact-xs" color="red" variant="filled" leftSection={<IconRefresh size={13} />} onClick={onRetry}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }
  return null;
}
