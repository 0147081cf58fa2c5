import { dropCopyFieldRows, dropCopyRules, dropCopySummary, type FixSpecDropCopy } from '@fixdesk/domain';
import { Alert, Badge, Box, Group, Stack, Text, Title } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { TextTable } from './FieldTable';
import { RuleList } from './RuleList';

/**
 * The Session Information tab's Drop copy section (docs/adr/0017 point 8): for a covered client, the drop
 * copy sessions that receive copies of its reports; for a drop copy session, the clients it copies; then
 * what a copy is (the same rules the client's document states) and the fields that mark it.
 */
export function DropCopySection({ dropCopy, compId }: { dropCopy: FixSpecDropCopy; compId: string }) {
  const names = dropCopy.role === 'copiedClient' ? dropCopy.sessions : dropCopy.everyClient ? [] : dropCopy.clients;
  return (
    <Stack gap="xs" data-testid="drop-copy-section">
      <Group gap="xs" wrap="wrap">
        <Title order={3} fz="h4">
          Drop copy
        </Title>
        <Text fz="xs" c="dimmed">
          {dropCopy.role === 'copiedClient' ? 'Copied to' : 'Copies of'}
        </Text>
        {dropCopy.role === 'dropCopySession' && dropCopy.everyClient ? (
          <Badge size="sm" variant="light" color="grape" tt="none" data-testid="drop-copy-peer">
            every client
          </Badge>
        ) : (
          names.map((n) => (
            <Badge key={n} size="sm" variant="light" color="grape" tt="none" ff="monospace" data-testid="drop-copy-peer">
              {n}
            </Badge>
          ))
        )}
      </Group>
      <Text fz="sm">{dropCopySummary(dropCopy, compId)}</Text>
      <RuleList rules={dropCopyRules(dropCopy, compId)} spacing={4} />
      <Box maw={860}>
        <TextTable testId="drop-copy-fields" headers={['Message', 'Tag', 'Field', 'Value']} rows={dropCopyFieldRows(dropCopy, compId)} />
      </Box>
    </Stack>
  );
}

/** What a tab about orders says in place of its content (or beside it) on a drop copy session's specification. */
export function DropCopyNote({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Alert color="grape" variant="light" p="sm" icon={<IconCopy size={16} />} title="Drop copy session" data-testid={testId}>
      <Text fz="sm">{children}</Text>
    </Alert>
  );
}
