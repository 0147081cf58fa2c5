import { PASSWORD_MAX, USERNAME_MAX, type HealthResponse } from '@fixdesk/protocol';
import { Alert, Anchor, Box, Button, Group, List, Paper, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconLock, IconUser } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LogoMark } from '../../components/brand/Logo';
import { PRODUCT_NAME } from '../../config/product';
import { fetchHealth } from '../../services/api/health';
import { useAuth } from '../../services/auth/AuthProvider';
import { loginErrorText } from '../../services/auth/authApi';
import classes from './LoginPage.module.css';

type Submission = { state: 'idle' } | { state: 'submitting' } | { state: 'error'; message: string };

/** Whether the server answers, shown quietly so a failed sign-in is not mistaken for a wrong password. */
function ServerStatus() {
  const [health, setHealth] = useState<HealthResponse | 'unreachable' | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchHealth(controller.signal)
      .then(setHealth)
      .catch(() => {
        if (!controller.signal.aborted) setHealth('unreachable');
      });
    return () => controller.abort();
  }, []);
  if (health === null) return null;
  const online = health !== 'unreachable';
  return (
    <Group gap={6} className={classes.serverStatus} data-online={online || undefined}>
      <span className={classes.statusDot} aria-hidden="true" />
      <Text fz="xs" component="span">
        {online ? `Server online · version ${health.version}` : 'Server unreachable'}
      </Text>
    </Group>
  );
}

/** Sign In screen (spec 000 §2): both fields required; Login Failed box with the server's message. */
export default function LoginPage() {
  const { signIn } = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [submission, setSubmission] = useState<Submission>({ state: 'idle' });

  const submitting = submission.state === 'submitting';
  const incomplete = username.trim() === '' || password === '';

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (incomplete || submitting) return;
    setSubmission({ state: 'submitting' });
    try {
      // On success the route guard sends the user back where they came from.
      await signIn({ username: username.trim(), password });
    } catch (error) {
      setSubmission({ state: 'error', message: loginErrorText(error) });
    }
  }

  return (
    <Box className={classes.page}>
      <Paper shadow="lg" radius="lg" className={classes.card}>
        <Box className={classes.brandPane}>
          <Group gap={10}>
            <LogoMark size={34} />
            <Text fw={700} fz={20} c="white">
              {PRODUCT_NAME}
            </Text>
          </Group>
          <Title order={2} className={classes.brandTitle}>
            Client orders in, executions out. Your desk stays in control.
          </Title>
          <List
            spacing={10}
            size="sm"
            className={classes.brandList}
            icon={
              <ThemeIcon size={20} radius="xl" color="teal" variant="light">
                <IconCircleCheck size={14} stroke={2} />
              </ThemeIcon>
            }
          >
            <List.Item>Live blotter of FIX orders from client connectors</List.Item>
            <List.Item>Accept, reject and fill from one screen</List.Item>
            <List.Item>Full audit trail of actions and FIX messages</List.Item>
          </List>
          <ServerStatus />
        </Box>

        <Box className={classes.formPane}>
          <Stack gap={4} mb="lg">
            <Title order={1} fz="h2">
              Sign In
            </Title>
            <Text c="dimmed" fz="sm">
              Use the credentials issued by your desk administrator.
            </Text>
          </Stack>

          <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Sign in">
            <Stack gap="md">
              {submission.state === 'error' && (
                <Alert color="red" title="Login Failed" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
                  {submission.message || 'Login failed'}
                </Alert>
              )}
              <TextInput
                label="Username"
                name="username"
                autoComplete="username"
                autoFocus
                required
                maxLength={USERNAME_MAX}
                leftSection={<IconUser size={16} stroke={1.6} />}
                value={username}
                onChange={(event) => setUsername(event.currentTarget.value)}
                disabled={submitting}
              />
              <PasswordInput
                label="Password"
                name="password"
                autoComplete="current-password"
                required
                maxLength={PASSWORD_MAX}
                leftSection={<IconLock size={16} stroke={1.6} />}
                visibilityToggleButtonProps={{ 'aria-label': 'Toggle password visibility' }}
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                disabled={submitting}
              />
              <Button
                type="submit"
                fullWidth
                size="md"
                mt={4}
                disabled={incomplete || submitting}
                loading={submitting}
                loaderProps={{ type: 'dots' }}
              >
                Sign In
              </Button>
            </Stack>
          </form>

          <Group gap={6} mt="xl" className={classes.formFoot}>
            <Text fz="xs" c="dimmed">
              By signing in you agree to the{' '}
              <Anchor component={Link} to="/terms" fz="xs">
                Terms and Conditions
              </Anchor>{' '}
              and the{' '}
              <Anchor component={Link} to="/privacy-policy" fz="xs">
                Privacy Policy
              </Anchor>
              .
            </Text>
          </Group>
        </Box>
      </Paper>
    </Box>
  );
}
