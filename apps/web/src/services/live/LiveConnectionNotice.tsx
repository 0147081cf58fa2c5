import { Alert, Button, Group, Text } from '@mantine/core';
import { IconPlugConnectedX, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { LiveState } from '@fixdesk/client';

function secondsUntil(at: number | null, now: number): number {
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The visible stale/offline state of a live screen: nothing while connected; while the connection is
 * lost, one line saying so (data may be stale, actions paused), when the next try comes, and Retry now
 * (the tries go on by themselves, every 30 s at most); an alert when the server refused the session.
 * One line, so a screen can place it where it covers nothing it needs (the blotter: in its header bar).
 */
export function LiveConnectionNotice({ state, onRetry }: { state: LiveState; onRetry: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (state.status !== 'reconnecting') return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [state.status]);

  if (state.status === 'reconnecting') {
    const wait = secondsUntil(state.nextRetryAt, now);
    const text = `Offline: ${state.lastError ?? 'the connection to the server was lost'}. Orders may be stale and actions are paused. ${wait > 0 ? `Reconnecting in ${wait} s` : 'Reconnecting…'}`;
    return (
      <Alert color="orange" variant="light" p={4} px={8} radius="sm" role="status" data-testid="live-reconnecting">
        <Group gap={8} wrap="nowrap" justify="space-between">
          <Text fz="xs" truncate="end" title={text}>
            {text}
          </Text>
          <Button
            size="compact-xs"
            color="orange"
            variant="light"
            leftSection={<IconRefresh size={12} />}
            onClick={onRetry}
            style={{ flex: 'none' }}
          >
            Retry now
          </Button>
        </Group>
      </Alert>
    );
  }
  if (state.status === 'refused') {
    const text = `Offline: ${state.lastError ?? 'the server refused the live session'}. Orders on screen are not updating.`;
    return (
      <Alert
        color="red"
        variant="light"
        p={4}
        px={8}
        radius="sm"
        role="alert"
        data-testid="live-offline"
        icon={<IconPlugConnectedX size={16} />}
      >
        <Group gap="sm" justify="space-between" wrap="nowrap">
          <Text fz="xs" truncate="end" title={text}>
            {text}
          </Text>
          <Button
            size="compact-xs"
            color="red"
            variant="filled"
            leftSection={<IconRefresh size={13} />}
            onClick={onRetry}
            style={{ flex: 'none' }}
          >
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }
  return null;
}
