import { ApiError } from '@fixdesk/client';
import {
  AccountText,
  ChangeOwnPasswordSchema,
  PASSWORD_POLICY_TEXT,
  USER_TYPE_LABELS,
  type AccountProfile,
  type AccountSession,
} from '@fixdesk/protocol';
import {
  Alert,
  Avatar,
  Badge,
  Button,
  Container,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconClockHour4, IconDevices, IconKey, IconLogout } from '@tabler/icons-react';
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { adminErrorText } from '../../components/admin/errors';
import { RoleBadge } from '../../components/nav/RoleBadge';
import { accountApi } from '../../services/account/accountApi';
import { useAuth } from '../../services/auth/AuthProvider';
import { displayName, initials, roleLabel, roleOf } from '../../services/auth/roles';
import { deviceName } from './device';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text fz="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: '0.05em' }}>
        {label}
      </Text>
      <Text fz="sm" mt={2} component="div">
        {children}
      </Text>
    </div>
  );
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The own password's change; `onChanged` once the server changed it (the other sessions were signed out). */
function PasswordCard({ onChanged }: { onChanged: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    const problems: Record<string, string> = {};
    const parsed = ChangeOwnPasswordSchema.safeParse({ current_password: current, new_password: next });
    if (!parsed.success)
      for (const i of parsed.error.issues)
        problems[String(i.path[0])] ??=
          i.path[0] === 'current_password'
            ? `Current password ${i.message}`
            : /^[a-z]/.test(i.message)
              ? `New password ${i.message}`
              : i.message;
    if (next !== confirm) problems['confirm'] = 'Passwords do not match';
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      const answer = await accountApi.changePassword({ current_password: current, new_password: next });
      setResult({ ok: true, text: answer.message ?? AccountText.passwordChanged });
      onChanged();
      setCurrent('');
      setNext('');
      setConfirm('');
    } catch (err) {
      const text = adminErrorText(err, 'Failed to change the password', (m) => `Error changing the password: ${m}`);
      const field = err instanceof ApiError ? err.field : undefined;
      if (field === 'current_password' || field === 'new_password')
        setErrors({
          [field]:
            (err as ApiError).body && typeof (err as ApiError).body === 'object'
              ? (((err as ApiError).body as { issues?: { message: string }[] }).issues?.[0]?.message ?? text)
              : text,
        });
      else setResult({ ok: false, text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="lg" mt="md">
      <Group gap={6} mb="sm">
        <IconKey size={16} stroke={1.7} aria-hidden="true" />
        <Text fw={600} fz="sm">
          Change Password
        </Text>
      </Group>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Change password">
        {result && (
          <Alert
            color={result.ok ? 'green' : 'red'}
            variant="light"
            icon={result.ok ? <IconCircleCheck size={18} /> : <IconAlertCircle size={18} />}
            mb="sm"
            role={result.ok ? 'status' : 'alert'}
            data-testid="password-result"
          >
            {result.text}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <PasswordInput
            label="Current password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={errors['current_password']}
            autoComplete="current-password"
            withAsterisk
          />
          <PasswordInput
            label="New password"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={errors['new_password']}
            autoComplete="new-password"
            withAsterisk
          />
          <PasswordInput
            label="Confirm new password"
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            error={errors['confirm']}
            autoComplete="new-password"
            withAsterisk
          />
        </SimpleGrid>
        <Group justify="space-between" mt="sm" wrap="nowrap">
          <Text fz="xs" c="dimmed">
            {PASSWORD_POLICY_TEXT}. Your other sessions are signed out.
          </Text>
          <Button type="submit" loading={busy} size="sm">
            Change Password
          </Button>
        </Group>
      </form>
    </Paper>
  );
}

function SessionsCard({
  onSignOutHere,
  reloadKey,
}: {
  onSignOutHere: () => void;
  /** A change reads the list again. */ reloadKey: number;
}) {
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    accountApi
      .sessions(controller.signal)
      .then(setSessions)
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setSessions([]);
        setError(adminErrorText(err, 'Failed to fetch your sessions', (m) => `Error fetching your sessions: ${m}`));
      });
    return () => controller.abort();
  }, [reloads, reloadKey]);
  const end = useCallback(
    async (s: AccountSession) => {
      if (s.current) {
        onSignOutHere();
        return;
      }
      try {
        await accountApi.endSession(s.id);
        setReloads((n) => n + 1);
      } catch (err) {
        setError(adminErrorText(err, 'Failed to sign the session out', (m) => `Error signing the session out: ${m}`));
      }
    },
    [onSignOutHere],
  );
  return (
    <Paper withBorder p="lg" mt="md">
      <Group gap={6} mb="sm">
        <IconDevices size={16} stroke={1.7} aria-hidden="true" />
        <Text fw={600} fz="sm">
          Active Sessions
        </Text>
        {sessions && (
          <Badge variant="light" color="gray" size="sm" className="fd-numeric">
            {sessions.length}
          </Badge>
        )}
      </Group>
      {error && (
        <Alert color="red" variant="light" mb="sm" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {sessions === null ? (
        <Skeleton height={60} />
      ) : sessions.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No active sessions.
        </Text>
      ) : (
        <Table fz="sm" verticalSpacing={6} aria-label="Active sessions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Device</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Since</Table.Th>
              <Table.Th w={120} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sessions.map((s) => (
              <Table.Tr key={s.id} data-testid="account-session">
                <Table.Td title={s.device ?? undefined}>
                  {deviceName(s.device)}{' '}
                  {s.current && (
                    <Badge size="xs" color="green" variant="light" ml={4}>
                      This session
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td className="fd-numeric">{s.address ?? '—'}</Table.Td>
                <Table.Td className="fd-numeric">{when.format(new Date(s.since))}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="light"
                    color="red"
                    onClick={() => void end(s)}
                    aria-label={`Sign out ${deviceName(s.device)} session since ${when.format(new Date(s.since))}`}
                  >
                    Sign out
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/** The signed-in user's own account: profile, own password, active sessions. */
export default function AccountPage() {
  const { user, expiresAt, signOut } = useAuth();
  const [profile, setProfile] = useState<AccountProfile | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    accountApi
      .profile(controller.signal)
      .then(setProfile)
      .catch(() => {
        // The stored user's details below still show; the session list tells when the server is down.
      });
    return () => controller.abort();
  }, []);
  const signOutHere = useCallback(() => void signOut(), [signOut]);
  const [passwordChanges, setPasswordChanges] = useState(0);
  const passwordChanged = useCallback(() => setPasswordChanges((n) => n + 1), []);
  if (!user) return null;
  const role = roleOf(user);
  return (
    <Container size="md" py="xl" w="100%">
      <Title order={1} fz="h2" mb="lg">
        My Account
      </Title>
      <Paper withBorder p="lg">
        <Group gap="md" wrap="nowrap">
          <Avatar size={52} radius="xl" color="desk" variant="filled">
            {initials(user)}
          </Avatar>
          <div>
            <Text fw={650} fz="lg" data-testid="account-full-name">
              {displayName(user)}
            </Text>
            <Group gap={8} mt={2}>
              <Text fz="sm" c="dimmed">
                {user.username}
              </Text>
              <RoleBadge role={role} />
            </Group>
          </div>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="lg" mt="xl">
          <Field label="Username">{user.username}</Field>
          <Field label="Role">{roleLabel(role)}</Field>
          <Field label="E-mail">{profile?.email ?? user.email ?? '—'}</Field>
          <Field label="User type">{profile ? USER_TYPE_LABELS[profile.user_type] : '—'}</Field>
          <Field label="Last sign-in">{profile?.last_login ? when.format(new Date(profile.last_login)) : '—'}</Field>
          <Field label="User ID">
            <span className="fd-numeric">{user.user_id}</span>
          </Field>
          {profile?.user_type === 'broker' && (
            <>
              <Field label="Broker branch">{profile.broker_company_name ?? '—'}</Field>
              <Field label="Trader ID">
                {profile.trader_id
                  ? `${profile.trader_id}${profile.trader_party_id_source ? ` (${profile.trader_party_id_source})` : ''}`
                  : '—'}
              </Field>
              <Field label="Trader name">{profile.trader_full_name ?? '—'}</Field>
            </>
          )}
        </SimpleGrid>
      </Paper>

      <PasswordCard onChanged={passwordChanged} />
      <SessionsCard onSignOutHere={signOutHere} reloadKey={passwordChanges} />

      <Paper withBorder p="lg" mt="md">
        <Group justify="space-between" wrap="wrap" gap="md">
          <Stack gap={2}>
            <Group gap={6}>
              <IconClockHour4 size={16} stroke={1.7} aria-hidden="true" />
              <Text fw={600} fz="sm">
                Session
              </Text>
            </Group>
            <Text fz="sm" c="dimmed" data-testid="session-expiry">
              {expiresAt ? `Signed in until ${when.format(new Date(expiresAt))}` : 'Signed in'}
            </Text>
          </Stack>
          <Button variant="light" color="red" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
            Sign Out
          </Button>
        </Group>
      </Paper>
    </Container>
  );
}
