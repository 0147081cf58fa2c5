import type { Check } from '@fixdesk/domain';
import { Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconInfoCircle } from '@tabler/icons-react';

const LOOK = {
  ok: { color: 'green.8', Icon: IconCircleCheck },
  info: { color: 'gray.6', Icon: IconInfoCircle },
  warning: { color: 'orange.8', Icon: IconAlertTriangle },
  error: { color: 'red.8', Icon: IconCircleX },
} as const;

/** One validation result under a field, worded by the domain package. */
export function CheckLine({ check, testId }: { check: Check | null; testId?: string }) {
  if (!check) return null;
  const { color, Icon } = LOOK[check.level];
  return (
    <Group gap={4} wrap="nowrap" align="flex-start" mt={3} data-testid={testId} data-level={check.level}>
      <Text component="span" c={color} lh={1} mt={1}>
        <Icon size={13} stroke={2} />
      </Text>
      <Text fz={11.5} c={color} lh={1.3} role={check.level === 'error' ? 'alert' : undefined}>
        {check.message}
      </Text>
    </Group>
  );
}
