import {
  previewSessionAction,
  SESSION_ACTION_LABELS,
  sessionActionProblem,
  sessionOperationLabel,
  sessionStateLabel,
  type LastMessage,
  type SessionAction,
  type SessionConsoleState,
  type SessionConsoleView,
} from '@fixdesk/protocol';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { adminErrorText } from '../../../components/admin/errors';
import { formatLocalTime, userTimeZone } from '../../../components/time/localTime';
import { sessionConsoleApi } from './sessionConsoleApi';

/** How often the console asks for the session's state while it is open. */
const REFRESH_MS = 2000;
const REASON_MIN = 3;
const ORDER: readonly SessionAction[] = ['logout', 'disconnect', 'reset_seqnums', 'set_next_sender', 'set_next_target'];

function LastCell({ m, tz }: { m: LastMessage | null; tz: string }) {
  if (!m) return <>—</>;
  return (
    <>
      <Text fz="sm" ff="monospace" span>
        35={m.msgType}
        {m.msgSeqNum !== null ? ` 34=${m.msgSeqNum}` : ''}
      </Text>
      <Text fz="xs" c="dimmed">
        {formatLocalTime(m.at, tz)}
      </Text>
    </>
  );
}

function StateBadge({ s }: { s: SessionConsoleState }) {
  if (s.loggedOn)
    return (
      <Badge color="green" leftSection={<IconPlugConnected size={12} />}>
        Logged on
      </Badge>
    );
  if (s.connected) return <Badge color="yellow">Connected, not logged on</Badge>;
  return (
    <Badge color="gray" leftSection={<IconPlugConnectedX size={12} />}>
      Logged out
    </Badge>
  );
}

interface Pending {
  action: SessionAction;
}

/**
 * The live session console of one client connector: its FIX session as it is now and the
 * operator's actions on it. Each action is offered only in the state where it is safe, previewed in the
 * numbers the client will see, and runs only with a typed reason; the server checks all of it again
 * and records it with the user.
 */
export function SessionConsole({ compId }: { compId: string }) {
  const [view, setView] = useState<SessionConsoleView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const tz = userTimeZone();

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const v = await sessionConsoleApi.get(compId, signal);
        if (signal?.aborted) return;
        setView(v);
        setLoadError(null);
      } catch (err) {
        if (signal?.aborted) return;
        setLoadError(adminErrorText(err, 'Failed to load the FIX session', (m) => `Failed to load the FIX session: ${m}`));
      }
    },
    [compId],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    setView(null);
    setLoadError(null);
    void load(ctrl.signal);
    const timer = window.setInterval(() => void load(ctrl.signal), REFRESH_MS);
    return () => {
      ctrl.abort();
      window.clearInterval(timer);
    };
  }, [load]);

  useEffect(() => {
    if (!done) return;
    const t = window.setTimeout(() => setDone(null), 4000);
    return () => window.clearTimeout(t);
  }, [done]);

  if (!view) {
    return (
      <Paper withBorder p="md" aria-label={`FIX session of ${compId}`}>
        {loadError ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {loadError}
          </Alert>
        ) : (
          <Group gap="xs">
            <Loader size="sm" />
            <Text fz="sm" c="dimmed">
              Loading the FIX session of {compId}…
            </Text>
          </Group>
        )}
      </Paper>
    );
  }

  const s = view.session;
  return (
    <Paper withBorder p="md" aria-label={`FIX session of ${compId}`} data-testid="session-console">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Title order={2} fz="md">
              Session console · {s.compId} → {s.ourCompId}
            </Title>
            <StateBadge s={s} />
            {s.transport && (
              <Badge variant="light" color={s.transport === 'TLS' ? 'teal' : 'gray'}>
                {s.transport}
              </Badge>
            )}
          </Group>
          <Text fz="xs" c="dimmed">
            Refreshes every {REFRESH_MS / 1000} s
          </Text>
        </Group>
        {loadError && (
          <Alert color="orange" variant="light" role="alert">
            {loadError} (showing the last state received)
          </Alert>
        )}
        {done && (
          <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} role="status" data-testid="console-success">
            {done}
          </Alert>
        )}
        <Table withTableBorder fz="sm" aria-label="Session state" layout="fixed" verticalSpacing={6}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={140}>State</Table.Th>
              <Table.Td data-testid="console-state">{sessionStateLabel(s.state)}</Table.Td>
              <Table.Th w={150}>Remote address</Table.Th>
              <Table.Td className="fd-numeric">{s.remoteAddress ?? '—'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>HeartBtInt</Table.Th>
              <Table.Td className="fd-numeric">{s.heartBtInt} s</Table.Td>
              <Table.Th>Next sender / target</Table.Th>
              <Table.Td className="fd-numeric" data-testid="console-numbers">
                {s.nextSenderMsgSeqNum} / {s.nextTargetMsgSeqNum}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Last message in</Table.Th>
              <Table.Td className="fd-numeric">
                <LastCell m={s.lastIn} tz={tz} />
              </Table.Td>
              <Table.Th>Last message out</Table.Th>
              <Table.Td className="fd-numeric">
                <LastCell m={s.lastOut} tz={tz} />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Group gap="xs">
          {ORDER.map((action) => {
            const problem = sessionActionProblem(action, s);
            const danger = action === 'disconnect' || action === 'reset_seqnums';
            const button = (
              <Button
                size="xs"
                variant={danger ? 'outline' : 'light'}
                color={danger ? 'red' : 'desk'}
                disabled={problem !== undefined}
                onClick={() => setPending({ action })}
              >
                {SESSION_ACTION_LABELS[action]}
              </Button>
            );
            return problem ? (
              <Tooltip key={action} label={problem} withArrow>
                <span>{button}</span>
              </Tooltip>
            ) : (
              <span key={action}>{button}</span>
            );
          })}
        </Group>
        <Stack gap={4}>
          <Title order={3} fz="sm">
            Recent console actions
          </Title>
          {view.operations.length === 0 ? (
            <Text fz="sm" c="dimmed">
              No console actions recorded for {compId}.
            </Text>
          ) : (
            <Table striped withTableBorder fz="xs" aria-label="Recent console actions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={190}>When</Table.Th>
                  <Table.Th w={170}>Action</Table.Th>
                  <Table.Th w={90}>By</Table.Th>
                  <Table.Th>Reason</Table.Th>
                  <Table.Th w={150}>Numbers after</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.operations.slice(0, 10).map((o) => (
                  <Table.Tr key={o.id}>
                    <Table.Td className="fd-numeric" style={{ whiteSpace: 'nowrap' }}>
                      {formatLocalTime(o.createdAt, tz)}
                    </Table.Td>
                    <Table.Td>{sessionOperationLabel(o.action)}</Table.Td>
                    <Table.Td>{o.changedBy}</Table.Td>
                    <Table.Td>{o.reason}</Table.Td>
                    <Table.Td className="fd-numeric">
                      {typeof o.after?.nextSenderMsgSeqNum === 'number'
                        ? `${String(o.after.nextSenderMsgSeqNum)} / ${String(o.after.nextTargetMsgSeqNum)}`
                        : '—'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Stack>
      {pending && (
        <ActionModal
          compId={compId}
          action={pending.action}
          state={s}
          onClose={() => setPending(null)}
          onDone={(v, text) => {
            setView(v);
            setPending(null);
            setDone(text);
          }}
        />
      )}
    </Paper>
  );
}

function ActionModal({
  compId,
  action,
  state,
  onClose,
  onDone,
}: {
  compId: string;
  action: SessionAction;
  state: SessionConsoleState;
  onClose: () => void;
  onDone: (view: SessionConsoleView, text: string) => void;
}) {
  const numbered = action === 'set_next_sender' || action === 'set_next_target';
  const [value, setValue] = useState<number | ''>(
    numbered ? (action === 'set_next_sender' ? state.nextSenderMsgSeqNum : state.nextTargetMsgSeqNum) : '',
  );
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problem = sessionActionProblem(action, state);
  const valueOk = !numbered || (typeof value === 'number' && Number.isInteger(value) && value >= 1);
  const reasonOk = reason.trim().length >= REASON_MIN;
  const preview = previewSessionAction(action, state, typeof value === 'number' ? value : undefined);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const body =
        action === 'set_next_sender' || action === 'set_next_target'
          ? { action, reason: reason.trim(), value: value as number }
          : { action, reason: reason.trim() };
      const r = await sessionConsoleApi.act(compId, body);
      onDone(r.data, `${SESSION_ACTION_LABELS[action]}: done for ${compId}`);
    } catch (err) {
      setError(adminErrorText(err, 'Operation failed', (m) => `Operation failed: ${m}`));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`${SESSION_ACTION_LABELS[action]} · ${compId}`} centered size="lg">
      <Stack gap="sm">
        {problem && (
          <Alert color="orange" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        {numbered && (
          <NumberInput
            label={
              action === 'set_next_sender'
                ? 'Next sender number (34 of our next message)'
                : 'Next target number (34 we expect from the client)'
            }
            value={value}
            onChange={(v) => setValue(typeof v === 'number' ? v : '')}
            min={1}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            required
            error={valueOk ? undefined : 'must be a whole number, at least 1'}
          />
        )}
        <Alert color="blue" variant="light" title="What will happen" data-testid="action-preview">
          {preview}
        </Alert>
        <Textarea
          label="Reason (recorded in the audit trail with your name)"
          placeholder="Why this is needed"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={500}
          required
          error={reason.length > 0 && !reasonOk ? `A reason of at least ${REASON_MIN} characters is required` : undefined}
          data-autofocus
        />
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color={action === 'disconnect' || action === 'reset_seqnums' ? 'red' : 'desk'}
            disabled={!reasonOk || !valueOk || problem !== undefined}
            loading={busy}
            onClick={() => void submit()}
          >
            {SESSION_ACTION_LABELS[action]}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
