import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconInbox, IconRefresh } from '@tabler/icons-react';

/** The audit screens' loading note, drawn where the table will be (no layout jump when it arrives). */
export function AuditLoading({ label, testId }: { label: string; testId: string }) {
  return (
    <Center h="100%" mih={160} data-testid={testId}>
      <Stack align="center" gap={6}>
        <Loader size="sm" />
        <Text fz="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

/** 'Error Loading …' with the reason ('HTTP error! status: 500') and Retry (spec 000 §8). */
export function AuditError({ title, text, onRetry, testId }: { title: string; text: string; onRetry: () => void; testId: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={title} data-testid={testId}>
      <Stack gap="xs" align="flex-start">
        <Text fz="sm">{text}</Text>
        <Button size="xs" color="red" variant="outline" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}

/** An empty table's message, drawn inside the grid (AG Grid's no-rows overlay). */
export function AuditEmpty({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <Stack align="center" gap={4} data-testid={testId} style={{ pointerEvents: 'none' }}>
      <IconInbox size={26} stroke={1.4} color="var(--mantine-color-gray-5)" aria-hidden="true" />
      <Text fw={600} fz="sm">
        {title}
      </Text>
      <Text fz="xs" c="dimmed">
        {text}
      </Text>
    </Stack>
  );
}
