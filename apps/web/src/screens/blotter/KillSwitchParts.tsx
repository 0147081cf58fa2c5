import { KillSwitchText, type ClientTradingStop } from '@fixdesk/protocol';
import { Badge, Box, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconHandStop, IconPlayerPlay } from '@tabler/icons-react';
import type { KillSwitchTarget } from '../../components/kill-switch/KillSwitchModal';
import { useDisplayZone } from '../../components/time/displayZone';
import { stoppedBannerText, stoppedTooltip } from '../../services/kill-switch/killSwitch';
import classes from './Blotter.module.css';

/** A stopped client's note in the client filter's list. */
export function StoppedMark({ compId, stop }: { compId: string; stop: ClientTradingStop }) {
  const timeZone = useDisplayZone();
  return (
    <Tooltip label={stoppedTooltip(stop, timeZone)} multiline w={280} withinPortal>
      <Badge size="xs" radius="sm" color="red" variant="light" style={{ flex: 'none' }} data-testid={`client-stopped-${compId}`}>
        Stopped
      </Badge>
    </Tooltip>
  );
}

/**
 * The kill switch in the blotter's client filter menu: Stop client, or Resume client while
 * stopped, for each client. Not drawn for a role that may not trade (the caller leaves it out); disabled
 * with the reason while the live connection is down.
 */
export function KillSwitchMenuItems({
  clients,
  stops,
  disabledReason,
  onOpen,
}: {
  clients: readonly { value: string; label: string }[];
  stops: ReadonlyMap<string, ClientTradingStop>;
  disabledReason: string | null;
  onOpen: (target: KillSwitchTarget) => void;
}) {
  if (clients.length === 0) return null;
  return (
    <>
      <Menu.Divider />
      <Menu.Label>Kill switch</Menu.Label>
      {clients.map((c) => {
        const stop = stops.get(c.value) ?? null;
        const mode = stop ? 'resume' : 'stop';
        return (
          <Menu.Item
            key={c.value}
            fz="xs"
            color={stop ? 'green' : 'red'}
            leftSection={stop ? <IconPlayerPlay size={13} /> : <IconHandStop size={13} />}
            closeMenuOnClick
            disabled={disabledReason !== null}
            title={disabledReason ?? undefined}
            onClick={() => onOpen({ compId: c.value, mode, stop })}
            data-testid={`${mode}-client-${c.value}`}
          >
            {stop ? KillSwitchText.resumeAction : KillSwitchText.stopAction}: {c.value}
          </Menu.Item>
        );
      })}
    </>
  );
}

/**
 * The stopped clients in the blotter's header bar (the space between the title and the live
 * indicators, there whether or not a client is stopped: nothing below moves when one is). One calm red
 * strip per stopped client, cut with an ellipsis when the bar is narrow, whole in its tooltip.
 */
export function StoppedClientsStrip({ stops }: { stops: readonly { compId: string; stop: ClientTradingStop }[] }) {
  const timeZone = useDisplayZone();
  return (
    <Group gap={6} wrap="nowrap" className={classes.stoppedStrip} data-testid="stopped-clients" aria-live="polite">
      {stops.map(({ compId, stop }) => {
        const text = stoppedBannerText(compId, stop, timeZone);
        return (
          <Tooltip
            key={compId}
            label={`${text}. New orders are refused until a broker resumes the client.`}
            multiline
            w={340}
            position="bottom"
            withinPortal
          >
            <Box className={classes.stopped} role="status" tabIndex={0} data-testid={`stopped-banner-${compId}`} aria-label={text}>
              <IconHandStop size={14} style={{ flex: 'none' }} aria-hidden="true" />
              <Text span fz={12} fw={600} className={classes.stoppedText}>
                {text}
              </Text>
            </Box>
          </Tooltip>
        );
      })}
    </Group>
  );
}
