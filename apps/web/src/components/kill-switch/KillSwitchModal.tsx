import { ClientResumeSchema, ClientStopSchema, KillSwitchText, type ClientStopResult, type ClientTradingStop } from '@fixdesk/protocol';
import { ApiError } from '@fixdesk/client';
import { Alert, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconHandStop, IconPlayerPlay } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useDisplayZone } from '../time/displayZone';
import { killSwitchApi } from '../../services/kill-switch/killSwitchApi';
import { stoppedTooltip } from '../../services/kill-switch/killSwitch';

/** Which client the dialog acts on, and whether it stops or resumes it. */
export interface KillSwitchTarget {
  compId: string;
  mode: 'stop' | 'resume';
  /** The stop being lifted (resume), for who/when/why. */
  stop?: ClientTradingStop | null;
}

export interface KillSwitchModalProps {
  target: KillSwitchTarget | null;
  /**
   * The client's working orders as the screen's live order book counts them now (the blotter), or
   * null where the screen holds no orders: the consequences then speak of every working order.
   */
  workingCount: number | null;
  onClose: () => void;
  /** After the server's success (the toast is shown here): the screen may patch its rows at once. */
  onDone?: (result: ClientStopResult) => void;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The kill switch's one confirmation, opened from the blotter's client filter and from
 * Client Connectors: a required reason, what a stop does (with the client's working orders counted
 * where the screen knows them), the optional logout, and the server's answer: a 400 under the reason,
 * any other refusal at the top, a success as a toast with the server's message.
 */
export function KillSwitchModal({ target, workingCount, onClose, onDone }: KillSwitchModalProps) {
  const timeZone = useDisplayZone();
  const [reason, setReason] = useState('');
  const [logout, setLogout] = useState(false);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The last target stays drawn while the modal closes (no empty title in its exit transition).
  const [shown, setShown] = useState<KillSwitchTarget | null>(target);
  const key = target ? `${target.mode}:${target.compId}` : null;

  // A new target (not a new object for the same one) starts a fresh form, set while rendering (no effect pass).
  const [formKey, setFormKey] = useState<string | null>(null);
  if (key !== null && key !== formKey) {
    setFormKey(key);
    setShown(target);
    setReason('');
    setLogout(false);
    setReasonError(null);
    setError(null);
    setBusy(false);
  } else if (key === null && formKey !== null) {
    // Closed: the same client opened again starts afresh too.
    setFormKey(null);
  }

  const t = target ?? shown;
  const stopping = t?.mode !== 'resume';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!t || busy) return;
    // The server's own schema first: both say the same thing.
    const checked = (stopping ? ClientStopSchema : ClientResumeSchema).safeParse(stopping ? { reason, logout } : { reason });
    if (!checked.success) {
      setReasonError(checked.error.issues[0]?.message ?? KillSwitchText.reasonLabel);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = stopping
        ? await killSwitchApi.stop(t.compId, { reason: checked.data.reason, logout })
        : await killSwitchApi.resume(t.compId, { reason: checked.data.reason });
      const failed = answer.data.not_canceled;
      notifications.show({
        id: `kill-switch-${t.compId}-${Date.now()}`,
        color: stopping ? 'red' : 'green',
        title: stopping ? 'Client stopped' : 'Client resumed',
        message: failed.length
          ? `${answer.message}. Not canceled: ${failed.map((f) => `${f.order_id} (${f.reason})`).join(', ')}`
          : answer.message,
        autoClose: failed.length ? 12_000 : 5_000,
      });
      onDone?.(answer.data);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && (err.field === 'reason' || err.field === 'body')) setReasonError(err.message);
      else if (err instanceof ApiError && err.status === 403) setError(`Refused: ${err.message}`);
      else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={target !== null}
      onClose={() => {
        if (!busy) onClose();
      }}
      title={
        t ? (
          <Group gap={8} wrap="nowrap">
            {stopping ? (
              <IconHandStop size={18} color="var(--mantine-color-red-7)" />
            ) : (
              <IconPlayerPlay size={18} color="var(--mantine-color-green-7)" />
            )}
            <Text fw={700} fz="md">
              {stopping ? KillSwitchText.stopTitle(t.compId) : KillSwitchText.resumeTitle(t.compId)}
            </Text>
          </Group>
        ) : null
      }
      size={480}
      centered
      closeOnClickOutside={!busy}
      data-testid="kill-switch-modal"
    >
      {t && (
        <form onSubmit={(e) => void submit(e)} noValidate data-testid="kill-switch-form" data-mode={t.mode} data-client={t.compId}>
          <Stack gap="sm">
            <Alert
              color={stopping ? 'red' : 'blue'}
              variant="light"
              p="xs"
              icon={stopping ? <IconAlertTriangle size={16} /> : undefined}
              data-testid="kill-switch-consequences"
            >
              <Text fz="sm">
                {stopping ? KillSwitchText.stopConsequences(t.compId, workingCount) : KillSwitchText.resumeConsequences(t.compId)}
              </Text>
              {!stopping && t.stop && (
                <Text fz="xs" c="dimmed" mt={4} data-testid="kill-switch-current-stop">
                  {stoppedTooltip(t.stop, timeZone)}
                </Text>
              )}
            </Alert>
            <TextInput
              label={KillSwitchText.reasonLabel}
              placeholder={
                stopping ? 'Why the client is stopped (kept with the stop, shown to the desk)' : 'Why the client may trade again'
              }
              required
              withAsterisk
              data-autofocus
              maxLength={500}
              value={reason}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setReasonError(null);
              }}
              error={reasonError}
              disabled={busy}
              data-testid="kill-switch-reason"
            />
            {stopping && (
              <Checkbox
                label={KillSwitchText.logoutOption}
                checked={logout}
                onChange={(e) => setLogout(e.currentTarget.checked)}
                disabled={busy}
                data-testid="kill-switch-logout"
              />
            )}
            {error && (
              <Alert color="red" variant="light" p="xs" data-testid="kill-switch-error">
                <Text fz="sm">{error}</Text>
              </Alert>
            )}
            <Group justify="flex-end" gap="xs" mt={4}>
              <Button variant="default" onClick={onClose} disabled={busy}>
                Go back
              </Button>
              <Button
                type="submit"
                color={stopping ? 'red' : 'green'}
                loading={busy}
                leftSection={stopping ? <IconHandStop size={15} /> : <IconPlayerPlay size={15} />}
                data-testid="kill-switch-confirm"
              >
                {stopping ? KillSwitchText.stopAction : KillSwitchText.resumeAction}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
