import { SegmentedControl, Tooltip } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { displayZoneLabel, onZoneChange, setZoneChoice, zoneChoice, type ZoneChoice } from './displayZone';

/** UTC or the user's local zone for every time shown; remembered in this browser. */
export function ZoneSwitch() {
  const choice = useSyncExternalStore(onZoneChange, zoneChoice, () => 'utc' as const);
  return (
    <Tooltip label={`Times are shown 24-hour in ${displayZoneLabel()}`} openDelay={50} closeDelay={70}>
      <SegmentedControl
        size="xs"
        value={choice}
        onChange={(v) => setZoneChoice(v as ZoneChoice)}
        data={[
          { label: 'UTC', value: 'utc' },
          { label: 'Local', value: 'local' },
        ]}
        aria-label="Time zone of the times shown"
        data-testid="zone-switch"
        styles={{ label: { fontSize: 11, paddingBlock: 1, paddingInline: 8 } }}
      />
    </Tooltip>
  );
}
