import type { ClientConnector, OnlineUser } from '@fixdesk/protocol';
import { ActionIcon, Avatar, Box, Group, HoverCard, Menu, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import { IconBell, IconBellOff, IconLayoutBoard, IconUsers } from '@tabler/icons-react';
import type { LiveStatus } from '@fixdesk/client';
import type { AlertPreferences, PermissionState } from '../../services/orders/newOrderAlerts';
import panes from '../../components/layout/SplitPanes.module.css';
import classes from './Blotter.module.css';
import { ZoneSwitch } from '../../components/time/ZoneSwitch';
import { StoppedClientsStrip } from './KillSwitchParts';
import { useMemo } from 'react';
import { ReferenceLoadNotice } from '../../components/reference/ReferenceLoadNotice';

function initials(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}

/**
 * A client's logo, titled with its name and FIX session state (spec 000 §2). The external logo
 * service is not used: the desk must work on a closed network, so the logo the server fetched from the
 * connector's logo_url and serves from our origin (logo_src), or the
 * client's initials are shown; a disconnected client is drawn red (an image inverted).
 */
function ConnectorLogo({ connector }: { connector: ClientConnector }) {
  const name = connector.client_name ?? connector.company_name ?? connector.comp_id;
  const state = connector.is_connected ? 'Connected' : 'Disconnected';
  return (
    // Below the logo: above it the tooltip covered the navigation bar's user menu.
    <Tooltip label={`${name} ${state}`} position="bottom">
      <Avatar
        src={connector.logo_src || null}
        alt={`${name} ${state}`}
        title={`${name} ${state}`}
        size={24}
        radius="sm"
        color={connector.is_connected ? 'desk' : 'red'}
        variant={connector.is_connected ? 'light' : 'outline'}
        data-testid={`connector-${connector.comp_id}`}
        data-connected={connector.is_connected}
        className={connector.is_connected ? undefined : classes.disconnected}
      >
        {initials(name)}
      </Avatar>
    </Tooltip>
  );
}

const DOT_LABEL: Record<LiveStatus, string> = {
  idle: 'Live connection closed',
  connecting: 'Connecting to the live server...',
  connected: 'Live connection connected',
  reconnecting: 'Live connection lost: reconnecting',
  refused: 'Live connection refused',
};

export interface BlotterHeaderProps {
  firstName: string;
  connectors: readonly ClientConnector[];
  liveStatus: LiveStatus;
  connectedUsers: number;
  activeUsers: readonly OnlineUser[];
  /** Undefined hides the button (until the axes board exists). */
  onOpenAxes?: () => void;
  /** Failed reference loads ('Client Connectors API failed: 503'), shown in one line where the logos are. */
  referenceErrors?: ReadonlyArray<string | null>;
  alerts: {
    prefs: AlertPreferences;
    update: (p: Partial<AlertPreferences>) => void;
    permission: PermissionState;
    requestPermission: () => void;
  };
}

/** Title, Open Axes, the broker's first name, client logos, live dot, users online, alert settings. */
export function BlotterHeader({
  firstName,
  connectors,
  liveStatus,
  connectedUsers,
  activeUsers,
  onOpenAxes,
  referenceErrors = [],
  alerts,
}: BlotterHeaderProps) {
  const live = liveStatus === 'connected';
  const alertsOn = alerts.prefs.desktop || alerts.prefs.sound;
  const stopped = useMemo(
    () => connectors.flatMap((c) => (c.trading_stop ? [{ compId: c.comp_id, stop: c.trading_stop }] : [])),
    [connectors],
  );
  return (
    <Group className={panes.header} justify="space-between" wrap="nowrap" gap="sm">
      <Group gap={10} wrap="nowrap" style={{ flex: 'none' }}>
        <Title order={1} fz={17} fw={700} lh={1}>
          Blotter
        </Title>
        {onOpenAxes && (
          <Tooltip label="Open Axes">
            <ActionIcon variant="subtle" size="sm" onClick={onOpenAxes} aria-label="Open Axes" title="Open Axes">
              <IconLayoutBoard size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        <Text fz="sm" c="gray.7" data-testid="blotter-first-name">
          {firstName}
        </Text>
      </Group>
      <StoppedClientsStrip stops={stopped} />
      <Group gap={12} wrap="nowrap" style={{ flex: '0 1 auto', minWidth: 0 }}>
        <Box miw={0} maw={420} style={{ flex: '0 1 auto' }}>
          <ReferenceLoadNotice compact errors={referenceErrors} />
        </Box>
        <Group gap={4} wrap="nowrap" aria-label="Client connections" style={{ flex: 'none' }}>
          {connectors.map((c) => (
            <ConnectorLogo key={c.comp_id} connector={c} />
          ))}
        </Group>
        <Tooltip label={DOT_LABEL[liveStatus]}>
          <Box
            className={classes.dot}
            data-live={live}
            data-status={liveStatus}
            role="status"
            aria-label={DOT_LABEL[liveStatus]}
            data-testid="live-dot"
          />
        </Tooltip>
        <HoverCard openDelay={50} closeDelay={70} position="bottom-end" shadow="md" withinPortal>
          <HoverCard.Target>
            <Group gap={4} wrap="nowrap" className={classes.users} data-testid="users-online" tabIndex={0}>
              <IconUsers size={15} />
              <Text fz="xs" fw={600}>
                Users online: {connectedUsers}
              </Text>
            </Group>
          </HoverCard.Target>
          <HoverCard.Dropdown p={8}>
            <Text fz="xs" fw={700} mb={4}>
              Active Users
            </Text>
            <Stack gap={2} data-testid="active-users">
              {activeUsers.length === 0 && (
                <Text fz="xs" c="dimmed">
                  Nobody online
                </Text>
              )}
              {activeUsers.map((u) => (
                <Text fz="xs" key={u.username}>
                  {[u.first_name, u.last_name].filter(Boolean).join(' ') || u.username}{' '}
                  <Text span c="dimmed" fz="xs">
                    ({u.username}, {u.role}
                    {u.connections > 1 ? `, ${u.connections} windows` : ''})
                  </Text>
                </Text>
              ))}
            </Stack>
          </HoverCard.Dropdown>
        </HoverCard>
        <ZoneSwitch />
        <Menu position="bottom-end" closeOnItemClick={false} width={250}>
          <Menu.Target>
            <ActionIcon variant="subtle" size="sm" aria-label="New order alerts" color={alertsOn ? 'desk' : 'gray'}>
              {alertsOn ? <IconBell size={16} /> : <IconBellOff size={16} />}
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>New order alerts</Menu.Label>
            <Box px={10} py={6}>
              <Stack gap={8}>
                <Switch
                  label="Browser notification"
                  checked={alerts.prefs.desktop}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    alerts.update({ desktop: on });
                    if (on && alerts.permission === 'default') alerts.requestPermission();
                  }}
                  description={
                    alerts.permission === 'denied'
                      ? 'Blocked in this browser: allow notifications for this site in the browser settings'
                      : alerts.permission === 'unsupported'
                        ? 'Not supported by this browser'
                        : undefined
                  }
                />
                <Switch label="Sound" checked={alerts.prefs.sound} onChange={(e) => alerts.update({ sound: e.currentTarget.checked })} />
              </Stack>
            </Box>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
