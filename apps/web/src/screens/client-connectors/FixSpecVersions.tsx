import { describeFixSpecChange, type FixSpecChange } from '@fixdesk/domain';
import type { ClientConnector, FixSpecVersion } from '@fixdesk/protocol';
import { Alert, Badge, Button, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconFileCode, IconGitCompare, IconLock } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { fixSpecApi } from '../../services/fix-specification/fixSpecApi';
import { errorMessage } from '../../services/simulators/useSimulators';
import { FixSpecExportDialog } from '../fix-specification/FixSpecExportDialog';
import { useOrchestraDownload } from '../fix-specification/useOrchestraDownload';

const KIND_LABEL: Record<FixSpecChange['kind'], { label: string; colour: string }> = {
  messageAdded: { label: 'Message added', colour: 'teal' },
  messageRemoved: { label: 'Message removed', colour: 'red' },
  fieldAdded: { label: 'Field added', colour: 'teal' },
  fieldRemoved: { label: 'Field removed', colour: 'red' },
  requiredChanged: { label: 'Requirement', colour: 'orange' },
  defaultChanged: { label: 'Default', colour: 'blue' },
  validValuesChanged: { label: 'Valid values', colour: 'grape' },
  scheduleChanged: { label: 'Schedule', colour: 'orange' },
  sessionChanged: { label: 'Session', colour: 'orange' },
  securityAdded: { label: 'Security added', colour: 'teal' },
  securityRemoved: { label: 'Security removed', colour: 'red' },
  limitChanged: { label: 'Limit', colour: 'blue' },
  dropCopyChanged: { label: 'Drop copy', colour: 'grape' },
};

/**
 * The connector dialog's Interactive FIX Spec tab: the specification documents generated for
 * this client, what changed between two of them, a new version, and the FIX Orchestra file.
 */
export function FixSpecVersions({ connector }: { connector: ClientConnector }) {
  const compId = connector.comp_id;
  const [versions, setVersions] = useState<{ data: FixSpecVersion[]; loading: boolean; error: string | null }>({
    data: [],
    loading: true,
    error: null,
  });
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [changes, setChanges] = useState<{ data: FixSpecChange[] | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: false,
  });
  const [exportOpen, setExportOpen] = useState(false);
  const orchestra = useOrchestraDownload(compId);

  const load = useCallback(
    (signal?: AbortSignal) =>
      fixSpecApi
        .versions(compId, signal)
        .then((data) => {
          setVersions({ data, loading: false, error: null });
          // Newest against the one before it, by default.
          setTo(data[0] ? String(data[0].version) : null);
          setFrom(data[1] ? String(data[1].version) : null);
        })
        .catch((e: unknown) => {
          if (!signal?.aborted) setVersions({ data: [], loading: false, error: errorMessage(e) });
        }),
    [compId],
  );
  useEffect(() => {
    const abort = new AbortController();
    void load(abort.signal);
    return () => abort.abort();
  }, [load]);

  useEffect(() => {
    setChanges({ data: null, error: null, loading: false });
    if (!from || !to || from === to) return;
    const abort = new AbortController();
    setChanges({ data: null, error: null, loading: true });
    fixSpecApi
      .diff(compId, Number(from), Number(to), abort.signal)
      .then((data) => setChanges({ data, error: null, loading: false }))
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setChanges({ data: null, error: errorMessage(e), loading: false });
      });
    return () => abort.abort();
  }, [compId, from, to]);

  const choices = versions.data.map((v) => ({ value: String(v.version), label: `v${v.version} · ${v.generatedAt.slice(0, 10)}` }));
  return (
    <Stack gap="sm" mt="md" data-testid="fix-spec-versions">
      <Group justify="space-between">
        <Title order={4}>Client FIX specification documents</Title>
        <Group gap="xs">
          <Button size="xs" variant="default" leftSection={<IconFileCode size={14} />} onClick={() => void orchestra.download()}>
            FIX Orchestra XML
          </Button>
          <Button size="xs" leftSection={<IconLock size={14} />} onClick={() => setExportOpen(true)}>
            Export new version
          </Button>
        </Group>
      </Group>
      {orchestra.error && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />} p={8} withCloseButton onClose={orchestra.clearError}>
          {orchestra.error}
        </Alert>
      )}
      {versions.loading ? (
        <Loader size="xs" aria-label="Loading versions" />
      ) : versions.error ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />} p={8}>
          {versions.error}
        </Alert>
      ) : versions.data.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No document has been generated for {compId} yet.
        </Text>
      ) : (
        <Table fz="xs" striped withTableBorder verticalSpacing={3} aria-label="Generated versions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>Generated</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Client name / contact</Table.Th>
              <Table.Th>File SHA-256</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.data.map((v) => (
              <Table.Tr key={v.version}>
                <Table.Td fw={600}>v{v.version}</Table.Td>
                <Table.Td>{new Date(v.generatedAt).toLocaleString()}</Table.Td>
                <Table.Td>{v.generatedBy}</Table.Td>
                <Table.Td>
                  {v.clientName} / {v.clientContact}
                </Table.Td>
                <Table.Td ff="monospace" title={v.fileSha256}>
                  {v.fileSha256.slice(0, 16)}…
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {versions.data.length >= 2 && (
        <Stack gap={6}>
          <Group gap="xs" align="flex-end">
            <IconGitCompare size={18} />
            <Select
              size="xs"
              label="Compare"
              data={choices}
              value={from}
              onChange={setFrom}
              w={170}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              size="xs"
              label="with"
              data={choices}
              value={to}
              onChange={setTo}
              w={170}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
          {changes.loading && <Loader size="xs" />}
          {changes.error && (
            <Text c="red" fz="sm">
              {changes.error}
            </Text>
          )}
          {changes.data &&
            (changes.data.length === 0 ? (
              <Text fz="sm" c="dimmed">
                No difference between v{from} and v{to}.
              </Text>
            ) : (
              <Table fz="xs" withTableBorder verticalSpacing={3} data-testid="fix-spec-diff">
                <Table.Tbody>
                  {changes.data.map((c, i) => (
                    <Table.Tr key={i}>
                      <Table.Td w={130}>
                        <Badge size="xs" variant="light" color={KIND_LABEL[c.kind].colour}>
                          {KIND_LABEL[c.kind].label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{describeFixSpecChange(c)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ))}
        </Stack>
      )}
      <FixSpecExportDialog connector={connector} opened={exportOpen} onClose={() => setExportOpen(false)} onGenerated={() => void load()} />
    </Stack>
  );
}
