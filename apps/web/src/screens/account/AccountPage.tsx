import { Avatar, Button, Container, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconClockHour4, IconLogout } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { RoleBadge } from '../../components/nav/RoleBadge';
import { useAuth } from '../../services/auth/AuthProvider';
import { displayName, initials, roleLabel, roleOf } from '../../services/auth/roles';

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

const expiryFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The signed-in user's own details and session. */
export default function AccountPage() {
  const { user, expiresAt, signOut } = useAuth();
  if (!user) return null;
  const role = roleOf(user);
  return (
    <Container size="sm" py="xl" w="100%">
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
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="lg" mt="xl">
          <Field label="Username">{user.username}</Field>
          <Field label="Role">{roleLabel(role)}</Field>
          <Field label="E-mail">{user.email ?? '—'}</Field>
          <Field label="User ID">
            <span className="fd-numeric">{user.user_id}</span>
          </Field>
        </SimpleGrid>
      </Paper>

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
              {expiresAt ? `Signed in until ${expiryFormat.format(new Date(expiresAt))}` : 'Signed in'}
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
