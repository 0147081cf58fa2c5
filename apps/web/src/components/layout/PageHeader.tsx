import { Group, Stack, Text, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The head of an ordinary screen: icon and title (with an optional count next to it), one line of
 * description, and the screen's own controls on the right. Every screen that is not a full-height
 * workspace (the blotter, the FIX Client) starts with it. `compact`: the smaller title and spacing of
 * the dense audit screens, whose tables take the rest of the window.
 */
export function PageHeader({
  icon: IconComponent,
  title,
  count,
  description,
  actions,
  compact = false,
}: {
  icon: Icon;
  title: string;
  count?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  compact?: boolean;
}) {
  return (
    <Group justify="space-between" mb={compact ? 8 : 'md'} align={compact ? 'center' : 'flex-end'} wrap="nowrap">
      <Stack gap={2}>
        <Group gap="xs">
          <IconComponent size={20} stroke={1.7} aria-hidden="true" />
          <Title order={1} fz={compact ? 'h3' : 'h2'}>
            {title}
          </Title>
          {count}
        </Group>
        {description !== undefined && (
          <Text fz="sm" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
      {actions}
    </Group>
  );
}
