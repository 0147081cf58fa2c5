import { USER_TYPE_LABELS, type UserSummary } from '@fixdesk/protocol';
import { ActionIcon, Alert, Badge, Button, Container, Group, Paper, Skeleton, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconRefresh, IconSearch, IconUsers } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { RoleBadge } from '../../components/nav/RoleBadge';
import { fetchUsers } from '../../services/users/users';
import { PageHeader } from '../../components/layout/PageHeader';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; users: UserSummary[] };

const loginFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function fullName(user: UserSummary): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ');
}

function matches(user: UserSummary, needle: string): boolean {
  if (!needle) return true;
  return [user.username, fullName(user), user.email ?? '', user.role, user.broker_company_name ?? '', user.trader_id ?? '']
    .some((value) => value.toLowerCase().includes(needle));
}

/** User Management (spec 001 §2), admin only: the accounts that can sign in. */
export default function UserManagementPage() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [filter, setFilter] = useState('');
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    fetchUsers(controller.signal)
      .then((users) => setLoad({ state: 'ready', users }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({ state: 'error', message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [reloads]);

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => (load.state === 'ready' ? load.users.filter((user) => matches(user, needle)) : []), [load, needle]);

  return (
    <Container size="xl" py="lg" w="100%">
      <PageHeader
        icon={IconUsers}
        title="User Management"
        count={
          load.state === 'ready' && (
            <Badge variant="light" color="gray" size="sm" className="fd-numeric">
              {load.users.length}
            </Badge>
          )
        }
        description="Accounts that can sign in to the desk, with their role and last sign-in."
        actions={
          <Group gap="xs">
            <TextInput
              aria-label="Filter users"
              placeholder="Filter by name, e-mail, role…"
              leftSection={<IconSearch size={15} />}
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value)}
              w={260}
            />
            <Tooltip label="Refresh">
              <ActionIcon variant="default" size={36} onClick={reload} aria-label="Refresh users" loading={load.state === 'loading'}>
                <IconRefresh size={17} />
              </ActionIcon>
            </Tooltip>
          </Group>
        }
      />

      {load.state === 'error' && (
        <Alert color="red" title="Failed to fetch users" icon={<IconAlertCircle size={18} />} mb="md">
          <Group justify="space-between" gap="md">
            <Text fz="sm">{load.message}</Text>
            <Button size="xs" variant="light" color="red" onClick={reload}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}

      <Paper withBorder>
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover stickyHeader aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={60}>ID</Table.Th>
                <Table.Th>Username</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Broker branch</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {load.state === 'loading' &&
                [0, 1, 2].map((row) => (
                  <Table.Tr key={row}>
                    <Table.Td colSpan={9}>
                      <Skeleton height={14} radius="sm" />
                    </Table.Td>
                  </Table.Tr>
                ))}
              {load.state === 'ready' && visible.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={9}>
                    <Text ta="center" c="dimmed" fz="sm" py="lg">
                      {load.users.length === 0 ? 'No users yet.' : 'No users match the filter.'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {visible.map((user) => (
                <Table.Tr key={user.user_id}>
                  <Table.Td className="fd-numeric">{user.user_id}</Table.Td>
                  <Table.Td fw={600}>{user.username}</Table.Td>
                  <Table.Td>{fullName(user) || '—'}</Table.Td>
                  <Table.Td>{user.email ?? '—'}</Table.Td>
                  <Table.Td>
                    <RoleBadge role={user.role} />
                  </Table.Td>
                  <Table.Td>{USER_TYPE_LABELS[user.user_type] ?? user.user_type}</Table.Td>
                  <Table.Td>{user.broker_company_name ?? '—'}</Table.Td>
                  <Table.Td>
                    <Badge size="sm" color={user.is_active ? 'green' : 'gray'} variant="dot">
                      {user.is_active ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Td>
                  <Table.Td className="fd-numeric">{user.last_login ? loginFormat.format(new Date(user.last_login)) : 'Never'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Container>
  );
}
