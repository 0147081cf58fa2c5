import { Button, Group, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { timeZoneLabel, userTimeZone } from '../time/localTime';
import { checkExportRange, defaultExportRange, type ExportRange } from './exportRange';

export interface ExportDialogProps {
  opened: boolean;
  title: string;
  /** What the file holds, one line under the dates. */
  description: string;
  onClose: () => void;
  /** Runs the export with the checked range; the dialog shows it running until it settles. */
  onExport: (range: ExportRange, bounds: { startIso: string; endIso: string }) => Promise<void>;
  /** Rows received so far of a streamed export, and the total when known (shown while it runs). */
  progress?: { rows: number; total: number | null } | null;
}

const count = (n: number) => n.toLocaleString('en-GB');

/**
 * The export's dates (spec 000 §2, §5, §9): start and end both required, the last 30 days by default,
 * the end day inclusive to 23:59:59.999, days in the user's time zone.
 */
export function ExportDialog({ opened, title, description, onClose, onExport, progress }: ExportDialogProps) {
  const [range, setRange] = useState<ExportRange>(() => defaultExportRange());
  const [error, setError] = useState<{ field: 'start' | 'end'; message: string } | null>(null);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    if (opened) {
      setRange(defaultExportRange());
      setError(null);
    }
  }, [opened]);

  const submit = async () => {
    const check = checkExportRange(range);
    if (!check.ok) {
      setError({ field: check.field, message: check.message });
      return;
    }
    setError(null);
    setRunning(true);
    try {
      await onExport(range, { startIso: check.startIso, endIso: check.endIso });
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal opened={opened} onClose={running ? () => undefined : onClose} title={title} centered size="sm" data-testid="export-dialog">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Group grow gap="sm" align="flex-start">
            <TextInput
              type="date"
              label="Start date"
              required
              value={range.start}
              onChange={(e) => {
                // Read now: React clears the event's currentTarget before a state updater runs.
                const start = e.currentTarget.value;
                setRange((r) => ({ ...r, start }));
              }}
              error={error?.field === 'start' ? error.message : undefined}
              data-testid="export-start"
            />
            <TextInput
              type="date"
              label="End date"
              required
              value={range.end}
              onChange={(e) => {
                const end = e.currentTarget.value;
                setRange((r) => ({ ...r, end }));
              }}
              error={error?.field === 'end' ? error.message : undefined}
              data-testid="export-end"
            />
          </Group>
          <Text fz="xs" c="dimmed">
            {description} From the start of the first day to 23:59:59.999 on the last, {timeZoneLabel(userTimeZone())}.
          </Text>
          {running && progress && (
            <Stack gap={4} data-testid="export-progress">
              <Progress
                size="sm"
                value={progress.total ? Math.min(100, (progress.rows / progress.total) * 100) : 100}
                animated={!progress.total}
                aria-label="Export progress"
              />
              <Text fz="xs" c="dimmed" className="fd-numeric">
                {progress.total === null ? `${count(progress.rows)} rows` : `${count(progress.rows)} of ${count(progress.total)} rows`}
              </Text>
            </Stack>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={running}>
              Cancel
            </Button>
            <Button type="submit" leftSection={<IconDownload size={15} />} loading={running} data-testid="export-submit">
              Export
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
