import { Alert, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The texts of the failed loads, each once, in order ('{Name} API failed: {status}', spec 000 §8). */
function failures(errors: ReadonlyArray<string | null | undefined>): string[] {
  return [...new Set(errors.filter((e): e is string => Boolean(e)))];
}

/**
 * What a screen shows when a reference load failed (spec 000 §8): the screen keeps working with what it
 * has (initials for logos, no ExecTypes, no price check), and says which load failed and how.
 * `compact`: one red line of small text for a desk screen's header or footer, cut with an ellipsis
 * (the whole text in its tooltip), so nothing moves when it comes or goes; otherwise a light red box.
 */
export function ReferenceLoadNotice({
  errors,
  compact = false,
  testId = 'reference-load-error',
}: {
  errors: ReadonlyArray<string | null | undefined>;
  compact?: boolean;
  testId?: string;
}) {
  const texts = failures(errors);
  if (texts.length === 0) return null;
  if (compact) {
    const text = texts.join(' · ');
    return (
      <Tooltip label={texts.join('\n')} multiline style={{ whiteSpace: 'pre-line' }} position="bottom">
        <Group gap={4} wrap="nowrap" miw={0} role="alert" data-testid={testId} style={{ overflow: 'hidden' }}>
          <IconAlertCircle size={14} color="var(--mantine-color-red-7)" style={{ flex: 'none' }} aria-hidden="true" />
          <Text fz="xs" c="red.7" truncate="end" miw={0}>
            {text}
          </Text>
        </Group>
      </Tooltip>
    );
  }
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />} py={6} mb="sm" role="alert" data-testid={testId}>
      <Stack gap={2}>
        {texts.map((t) => (
          <Text key={t} fz="sm">
            {t}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
