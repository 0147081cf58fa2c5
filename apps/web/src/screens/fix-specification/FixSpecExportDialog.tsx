import { generateExportPassword } from '@fixdesk/domain';
import { SpecExportText, specExportProblem, type ClientConnector } from '@fixdesk/protocol';
import { Alert, Button, Group, Modal, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconCopy, IconDownload, IconKey } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { downloadBlob } from '../../components/export/csv';
import { cryptoRandomBelow, fixSpecApi } from '../../services/fix-specification/fixSpecApi';

/** Spec 001 §9: the copy confirmation clears after 2 s. */
const COPIED_MS = 2000;

interface Values {
  clientName: string;
  senderCompId: string;
  targetCompId: string;
  clientContact: string;
  password: string;
  confirmPassword: string;
}

const valuesOf = (c: ClientConnector | null): Values => ({
  clientName: c?.client_name ?? '',
  senderCompId: c?.comp_id ?? '',
  targetCompId: c?.target_comp_id ?? '',
  clientContact: c?.client_contact ?? '',
  password: '',
  confirmPassword: '',
});

/**
 * The FIX spec export (spec 001 §5, §7, §8): the client's name, sender comp ID and contact, a password
 * typed twice or generated (12 characters without look-alikes) and copied; the server answers with one
 * encrypted HTML file, downloaded. The password leaves this dialog only in the request.
 */
export function FixSpecExportDialog({
  connector,
  brokerId,
  opened,
  onClose,
  onGenerated,
}: {
  connector: ClientConnector | null;
  brokerId?: number | null;
  opened: boolean;
  onClose: () => void;
  onGenerated?: (version: number | null) => void;
}) {
  const [values, setValues] = useState<Values>(() => valuesOf(connector));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (opened) {
      setValues(valuesOf(connector));
      setError(null);
      setDone(null);
    }
  }, [opened, connector]);
  useEffect(() => {
    if (!copied) return;
    const t = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(t);
  }, [copied]);

  const set = (k: keyof Values) => (e: { currentTarget: { value: string } }) => {
    // Read now: the event's target is gone by the time the state updater runs.
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [k]: value }));
  };

  const generatePassword = () => {
    const password = generateExportPassword(cryptoRandomBelow);
    setValues((v) => ({ ...v, password, confirmPassword: password }));
    setError(null);
  };

  const copy = async () => {
    try {
      if (!values.password) throw new Error('no password');
      await navigator.clipboard.writeText(values.password);
      setCopied(true);
    } catch {
      setError(SpecExportText.copyFailed);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // React bubbles a portal's events through the component tree: opened from the connector dialog, this
    // submit must not also submit the connector's form.
    e.stopPropagation();
    setDone(null);
    const problem = specExportProblem(values);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const file = await fixSpecApi.generate({
        clientName: values.clientName.trim(),
        senderCompId: values.senderCompId.trim(),
        targetCompId: values.targetCompId.trim() || undefined,
        clientContact: values.clientContact.trim(),
        password: values.password,
        includeTabs: { aboutFFA: true, orderGeneration: true, tradeLifecycle: true, sessionInfo: true },
        brokerId: brokerId ?? connector?.broker_id ?? null,
      });
      downloadBlob(file.fileName, file.blob);
      // The password is not kept once the file is made.
      setValues((v) => ({ ...v, password: '', confirmPassword: '' }));
      setDone(
        `Version ${file.version ?? '?'} generated: ${file.fileName}. Give the password to the client by another channel than the file.`,
      );
      onGenerated?.(file.version);
    } catch (err) {
      setError(SpecExportText.generateFailed(err instanceof Error ? err.message : String(err)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700}>Export FIX Specification</Text>} size="lg" centered>
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="fix-spec-export">
        <Stack gap="sm">
          <Text fz="sm" c="dimmed">
            One self-contained HTML file with the four tabs for this client, encrypted with the password below (AES-256-GCM,
            PBKDF2-SHA-256). The server keeps a record of the generation, never the password.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Client name" withAsterisk value={values.clientName} onChange={set('clientName')} maxLength={200} />
            <TextInput label="Client contact" withAsterisk value={values.clientContact} onChange={set('clientContact')} maxLength={200} />
            <TextInput
              label="Sender comp ID"
              withAsterisk
              value={values.senderCompId}
              readOnly
              description="The client's SenderCompID (49)"
            />
            <TextInput label="Target comp ID" value={values.targetCompId} readOnly description="Ours, as the client addresses us (56)" />
            <PasswordInput
              label="Password"
              withAsterisk
              value={values.password}
              onChange={set('password')}
              autoComplete="new-password"
              maxLength={256}
              data-testid="export-password"
            />
            <PasswordInput
              label="Confirm password"
              withAsterisk
              value={values.confirmPassword}
              onChange={set('confirmPassword')}
              autoComplete="new-password"
              maxLength={256}
              data-testid="export-password-confirm"
            />
          </SimpleGrid>
          <Group gap="xs">
            <Button variant="light" size="xs" leftSection={<IconKey size={14} />} onClick={generatePassword}>
              Generate password
            </Button>
            <Button
              variant={copied ? 'filled' : 'default'}
              color={copied ? 'teal' : undefined}
              size="xs"
              leftSection={<IconCopy size={14} />}
              onClick={() => void copy()}
              disabled={!values.password}
            >
              {copied ? 'Copied!' : 'Copy password'}
            </Button>
          </Group>
          {error && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={16} />}
              withCloseButton
              onClose={() => setError(null)}
              role="alert"
              p={8}
              data-testid="export-error"
            >
              <Text fz="sm">{error}</Text>
            </Alert>
          )}
          {done && (
            <Alert color="teal" variant="light" icon={<IconCircleCheck size={16} />} p={8} data-testid="export-done">
              <Text fz="sm">{done}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Close
            </Button>
            <Button type="submit" leftSection={<IconDownload size={15} />} loading={busy}>
              Generate document
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
