import { Group, Stack, Text, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The head of an ordinary screen: icon and title (with an optional count next to it), one line of
 * description, and the screen's own controls on the right. Every screen that is not a full-height
 * workspace (the blotter, the FIX Client) starts with it.
 */
export function PageHeader({ icon: IconComponent, title, count, description, actions }: { icon: Icon; title: string; count?: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" align="flex-end" wrap="nowrap">
      <Stack gap={2}>
        <Group gap="xs">
          <IconComponent size={20} stroke={1.7} aria-hidden="true" />
          <Title order={1} fz="h2">
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
