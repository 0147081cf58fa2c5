import type { ClientConnector, TestClientStatus } from '@fixdesk/protocol';
import { Avatar, Badge, Button, Group, Image, Select, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import type { LiveState } from '@fixdesk/client';
import type { TestClientControl } from '../../../services/simulators/useSimulators';
import { useRoleTradeBlock } from '../../../services/orders/tradeAccess';
import { WhyDisabled } from '../../../components/orders/WhyDisabled';

/** 'SGX_CLIENT_1 → FIXDESK' (spec 001 §2: comp id, an arrow, then target comp id). */
export function connectorLabel(c: ClientConnector): string {
  return `${c.comp_id} → ${c.target_comp_id}`;
}

export function ConnectorSelect({
  connectors,
  value,
  onChange,
  label = 'Client Connector',
}: {
  connectors: readonly ClientConnector[];
  value: string | null;
  onChange: (compId: string | null) => void;
  label?: string;
}) {
  return (
    <Select
      label={label}
      placeholder="Select a client connector"
      data={connectors.map((c) => ({ value: c.comp_id, label: connectorLabel(c) }))}
      value={value}
      onChange={onChange}
      allowDeselect={false}
      nothingFoundMessage="No active client connector"
      data-testid="connector-select"
    />
  );
}

function initials(name: string): string {
  return name
    .split(/[\s_-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

/**
 * The client's logo: the copy the server fetched from its logo_url (logo_src, our origin) when it loads, else the client's initials (spec 000 §7:
 * on failure the logo is hidden or replaced by the client name). No external logo service is called.
 */
export function ConnectorLogo({ connector, size = 44 }: { connector: ClientConnector; size?: number }) {
  const [failed, setFailed] = useState(false);
  const name = connector.client_name ?? connector.comp_id;
  if (connector.logo_src && !failed) {
    return (
      <Image
        src={connector.logo_src}
        alt={`${name} logo`}
        h={size}
        w="auto"
        maw={size * 2.5}
        fit="contain"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <Avatar size={size} radius="sm" color="navy" variant="filled" aria-label={`${name} logo`}>
      {initials(name)}
    </Avatar>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text fz="xs" c="dimmed" w={78} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text fz="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** Name, comp ids, contact, phone and e-mail of the selected connector. */
export function ConnectorInfo({ connector, status }: { connector: ClientConnector; status: TestClientStatus | null }) {
  return (
    <Stack gap={6} data-testid="connector-info">
      <Group gap="sm" wrap="nowrap">
        <ConnectorLogo connector={connector} />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={700} fz="md" truncate>
            {connector.client_name ?? connector.comp_id}
          </Text>
          <Text fz="xs" c="dimmed" truncate>
            {connector.company_name ?? ''}
          </Text>
        </Stack>
        <Badge ml="auto" variant="dot" color={connector.is_connected ? 'teal' : 'red'} data-testid="connector-session">
          {connector.is_connected ? 'Connected' : 'Disconnected'}
        </Badge>
      </Group>
      <Line label="Comp IDs">
        <Text span ff="monospace" fz="sm">
          {connectorLabel(connector)}
        </Text>
      </Line>
      <Line label="Contact">{connector.client_contact ?? '—'}</Line>
      <Line label="Phone">{connector.client_phone ?? '—'}</Line>
      <Line label="E-mail">{connector.client_email ?? '—'}</Line>
      <Line label="Control API">
        {status?.listeningPort ? (
          <Text span ff="monospace" fz="xs">
            localhost:{status.listeningPort}
          </Text>
        ) : (
          <Text span fz="xs" c="dimmed">
            {status?.portProblem ??
              (connector.test_port ? `localhost:${connector.test_port}` : `Missing test_port for client ${connector.comp_id}`)}
          </Text>
        )}
        <Text span fz="xs" c="dimmed">
          {' '}
          · /test-client/{connector.comp_id}
        </Text>
      </Line>
    </Stack>
  );
}

const STATE_BADGE: Record<TestClientStatus['state'], { label: string; color: string }> = {
  logged_on: { label: 'Connected', color: 'teal' },
  connecting: { label: 'Connecting…', color: 'orange' },
  stopped: { label: 'Disconnected', color: 'gray' },
};

/** The simulated client's session: status, sequence numbers, last event, Start and Stop. */
export function FixClientControl({ control, compact = false }: { control: TestClientControl; compact?: boolean }) {
  const { status, busy } = control;
  // Starting or stopping a client session trades on its behalf: not for a read-only role (the server's 403 stays the authority).
  const roleBlock = useRoleTradeBlock();
  const badge = status ? STATE_BADGE[status.state] : { label: control.loading ? 'Loading…' : 'Unknown', color: 'gray' };
  const run = async (what: 'start' | 'stop') => {
    const r = what === 'start' ? await control.start() : await control.stop();
    notifications.show({
      color: r.ok ? 'teal' : 'red',
      title: r.ok ? (what === 'start' ? 'FIX client started' : 'FIX client stopped') : 'FIX client',
      message: r.message,
    });
  };
  return (
    <Stack gap={6} data-testid="fix-client-control">
      <Group justify="space-between" wrap="nowrap">
        <Group gap={8} wrap="nowrap">
          <Text fz="sm" fw={600}>
            FIX client
          </Text>
          <Badge color={badge.color} variant="light" data-testid="fix-client-status">
            {badge.label}
          </Badge>
        </Group>
        <Group gap={6} wrap="nowrap">
          <WhyDisabled reason={roleBlock} inline>
            <Button
              size="compact-sm"
              color="teal"
              leftSection={<IconPlayerPlay size={13} />}
              onClick={() => void run('start')}
              loading={busy === 'starting'}
              disabled={roleBlock !== null || !status || status.running}
            >
              Start
            </Button>
          </WhyDisabled>
          <WhyDisabled reason={roleBlock} inline>
            <Button
              size="compact-sm"
              color="red"
              variant="light"
              leftSection={<IconPlayerStop size={13} />}
              onClick={() => void run('stop')}
              loading={busy === 'stopping'}
              disabled={roleBlock !== null || !status || !status.running}
            >
              Stop
            </Button>
          </WhyDisabled>
        </Group>
      </Group>
      {!compact && status && (
        <Group gap="lg">
          <Tooltip label="MsgSeqNum of the next message the client sends">
            <Text fz="xs" c="dimmed">
              Next out <b className="fd-numeric">{status.nextSenderMsgSeqNum}</b>
            </Text>
          </Tooltip>
          <Tooltip label="MsgSeqNum the client expects next from the broker">
            <Text fz="xs" c="dimmed">
              Next in <b className="fd-numeric">{status.nextTargetMsgSeqNum}</b>
            </Text>
          </Tooltip>
          <Text fz="xs" c="dimmed">
            Next ClOrdID <b>{status.nextClOrdId}</b>
          </Text>
        </Group>
      )}
      {status?.lastEvent && (
        <Text fz="xs" c="dimmed" lineClamp={2} title={status.lastEvent} data-testid="fix-client-last-event">
          {status.lastEvent}
          {status.lastEventAt ? ` · ${new Date(status.lastEventAt).toLocaleTimeString()}` : ''}
        </Text>
      )}
      {control.error && (
        <Text fz="xs" c="red">
          {control.error}
        </Text>
      )}
    </Stack>
  );
}

/** The browser's own live connection (spec 000 §2 "websocket status"). */
export function LiveBadge({ state }: { state: LiveState }) {
  const connected = state.status === 'connected';
  const label = connected
    ? 'WebSocket connected'
    : state.status === 'connecting' || state.status === 'reconnecting'
      ? 'WebSocket connecting…'
      : 'WebSocket disconnected';
  return (
    <Badge
      variant="dot"
      color={connected ? 'teal' : state.status === 'reconnecting' || state.status === 'connecting' ? 'orange' : 'red'}
      data-testid="ws-status"
    >
      {label}
    </Badge>
  );
}
