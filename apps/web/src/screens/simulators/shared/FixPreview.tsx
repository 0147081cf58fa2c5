import { fixForDisplay, PARTY_DEFAULTS_MISSING_TEXT } from '@fixdesk/domain';
import { Alert, Box, Button, CopyButton, Group, List, Paper, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

/** Spec 001 §9: the copy confirmation clears after 2 s. */
export const COPIED_MS = 2000;

/**
 * The FIX message preview (SOH shown as '|') with its Copy button and the builder's warnings (missing
 * mandatory fields only warn, spec 001 §5). The text copied is the '|' form, which the test client also
 * accepts.
 */
export function FixPreview({
  raw,
  warnings: allWarnings,
  notice,
}: {
  raw: string | null;
  warnings: readonly string[];
  notice?: string | null;
}) {
  // Spec 001 §8: without parties the party-defaults warning replaces the preview (and there is nothing to copy).
  const noParties = !notice && allWarnings.includes(PARTY_DEFAULTS_MISSING_TEXT);
  const warnings = noParties ? allWarnings.filter((w) => w !== PARTY_DEFAULTS_MISSING_TEXT) : allWarnings;
  const text = raw && !noParties ? fixForDisplay(raw) : '';
  return (
    <Paper withBorder radius="sm" p="xs" bg="gray.0" data-testid="fix-preview">
      <Group justify="space-between" mb={6}>
        <Text fz="xs" fw={700} tt="uppercase" c="dimmed" lts={0.4}>
          FIX message preview
        </Text>
        <CopyButton value={text} timeout={COPIED_MS}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied to the clipboard' : 'Copy the message'} withArrow>
              <Button
                size="compact-xs"
                variant={copied ? 'filled' : 'light'}
                color={copied ? 'teal' : 'desk'}
                leftSection={copied ? <IconCheck size={12} /> : <IconCopy size={12} />}
                onClick={copy}
                disabled={!text}
              >
                {copied ? 'Copied!' : 'Copy'}
              </Button>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {notice ? (
        <Text fz="xs" c="dimmed" py={6}>
          {notice}
        </Text>
      ) : noParties ? (
        <Alert color="yellow" variant="light" p={6} icon={<IconAlertTriangle size={14} />} data-testid="fix-preview-no-parties">
          <Text fz="xs">{PARTY_DEFAULTS_MISSING_TEXT}</Text>
        </Alert>
      ) : (
        <Box
          component="pre"
          m={0}
          fz={11}
          ff="monospace"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', lineHeight: 1.55, maxHeight: 180, overflow: 'auto' }}
          data-testid="fix-preview-text"
        >
          {text}
        </Box>
      )}
      {warnings.length > 0 && (
        <Alert color="yellow" variant="light" p={6} mt={6} icon={<IconAlertTriangle size={14} />} data-testid="fix-preview-warnings">
          <List size="xs" spacing={0}>
            {warnings.map((w) => (
              <List.Item key={w}>{w}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Paper>
  );
}
