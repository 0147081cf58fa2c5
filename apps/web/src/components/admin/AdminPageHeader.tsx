import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Title, one line of purpose, a count and the screen's actions (Add …) on the right. */
export function AdminPageHeader({ icon: IconC, title, description, count, children }: { icon: Icon; title: string; description: string; count?: number; children?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" align="flex-end" wrap="nowrap">
      <Stack gap={2}>
        <Group gap="xs">
          <IconC size={20} stroke={1.7} aria-hidden="true" />
          <Title order={1} fz="h2">
            {title}
          </Title>
          {count !== undefined && (
            <Badge variant="light" color="gray" size="sm" className="fd-numeric">
              {count}
            </Badge>
          )}
        </Group>
        <Text fz="sm" c="dimmed">
          {description}
        </Text>
      </Stack>
      <Group gap="xs" wrap="nowrap">
        {children}
      </Group>
    </Group>
  );
}
