import { CreateUserSchema, UpdateUserSchema, USER_FIELDS, UserText, type UserSummary } from '@fixdesk/protocol';
import { ActionIcon, Alert, Button, Container, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconHistory, IconPlus, IconRefresh, IconSearch, IconUsers } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { ChangeHistory } from '../../components/admin/ChangeHistory';
import { ConfirmDeleteModal } from '../../components/admin/ConfirmDeleteModal';
import { useAdminResource } from '../../components/admin/useAdminResource';
import { useBanners } from '../../components/admin/useBanners';
import { useAuth } from '../../services/auth/AuthProvider';
import { brokersApi } from '../../services/brokers/brokersApi';
import { usersApi } from '../../services/users/users';
import { USER_COLUMNS } from './userColumns';

/** Spec 001 §9: the user dialog closes 2 s after success. */
const USER_DIALOG_CLOSE_MS = 2000;

const FIELDS = Object.values(USER_FIELDS);
/** On edit (spec 001 §5): a blank password keeps the current one. */
const EDIT_FIELDS = FIELDS.map((f) =>
  f.name === 'password'
    ? {
        ...f,
        label: 'New Password',
        required: false,
        description: 'Leave blank to keep the current password; a reset signs the user out everywhere',
      }
    : f,
);
const BROKER_ONLY = ['broker_branch_id', 'trader_id', 'trader_party_id_source', 'trader_full_name', 'trader_license'];

const noAnswer = () => UserText.connectionError;
const TEXTS = {
  loadFailed: [UserText.fetchFailed, noAnswer],
  created: UserText.created,
  updated: UserText.updated,
  createFailed: ['Failed to create user', noAnswer],
  updateFailed: ['Failed to update user', noAnswer],
  deleted: (u: UserSummary) => UserText.deleted(u.username),
  deleteFailed: [UserText.deleteFailed, noAnswer],
} as const;

/** A save's words: the server's, and how many of the user's sessions a reset or deactivation ended. */
function savedText(answer: { message?: string; sessionsEnded?: number }, adding: boolean): string {
  const ended = answer.sessionsEnded ? ` ${answer.sessionsEnded} session(s) of the user were signed out.` : '';
  return (answer.message ?? (adding ? UserText.created : UserText.updated)) + ended;
}

function matches(u: UserSummary, needle: string): boolean {
  return (
    !needle ||
    [u.username, u.first_name ?? '', u.last_name ?? '', u.email ?? '', u.role, u.broker_company_name ?? '', u.trader_id ?? ''].some((v) =>
      v.toLowerCase().includes(needle),
    )
  );
}

/** User Management (spec 001 §2, §5, §6, §7), admin only. */
export default function UserManagementPage() {
  const { user: me } = useAuth();
  const banners = useBanners();
  const [brokers, setBrokers] = useState<{ value: string; label: string }[]>([]);
  const [filter, setFilter] = useState('');
  const [tab, setTab] = useState<string | null>('users');
  const resource = useAdminResource<UserSummary, number, { message?: string; sessionsEnded?: number }>({
    ...usersApi,
    banners,
    fields: FIELDS,
    texts: TEXTS,
    rowKey: (u) => u.user_id,
    savedText,
    afterSave: { closeAfterMs: USER_DIALOG_CLOSE_MS },
  });
  const { rows, reloads, editingRow, deleting, values, saved } = resource;

  useEffect(() => {
    const controller = new AbortController();
    brokersApi
      .list(controller.signal)
      .then((list) => setBrokers(list.map((b) => ({ value: String(b.id), label: `${b.company_name}${b.is_active ? '' : ' (inactive)'}` }))))
      .catch(() => {
        // The branch choices stay empty; the list error tells the story when the server is down.
      });
    return () => controller.abort();
  }, [reloads]);

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => (rows === null ? null : rows.filter((u) => matches(u, needle))), [rows, needle]);
  const rowName = useCallback((u: UserSummary) => `user ${u.username}`, []);
  const getRowId = useCallback((u: UserSummary) => String(u.user_id), []);
  const deleteBlocked = useCallback(
    (u: UserSummary) => (u.user_id === me?.user_id ? 'You cannot delete your own account' : null),
    [me?.user_id],
  );
  const isBroker = values['user_type'] === 'broker';
  const editingSelf = editingRow !== null && editingRow.user_id === me?.user_id;

  return (
    <Container size="xl" py="lg" w="100%">
      <AdminPageHeader
        icon={IconUsers}
        title="User Management"
        description="Accounts that can sign in to the desk: role, type, broker branch and trader identity, last sign-in."
        count={rows?.length}
      >
        <TextInput
          aria-label="Filter users"
          placeholder="Filter by name, e-mail, role…"
          leftSection={<IconSearch size={15} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={260}
        />
        <Tooltip label="Refresh">
          <ActionIcon variant="default" size={36} onClick={resource.reload} aria-label="Refresh users">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => resource.open(null)}>
          Add User
        </Button>
      </AdminPageHeader>
      <AdminBanners banners={banners} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="users" leftSection={<IconUsers size={15} />}>
            Users
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconHistory size={15} />}>
            Change History
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users">
          <AdminTable<UserSummary>
            label="Users"
            rows={visible}
            columns={USER_COLUMNS}
            getRowId={getRowId}
            rowName={rowName}
            onEdit={resource.open}
            onDelete={resource.askDelete}
            deleteBlocked={deleteBlocked}
            emptyText={rows?.length ? 'No users match the filter' : 'No users yet'}
            height="calc(100vh - 300px)"
          />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <ChangeHistory entity="users" reloadKey={reloads} />
        </Tabs.Panel>
      </Tabs>
      <AdminFormModal
        {...resource.formProps}
        title={editingRow ? `Edit User ${editingRow.username}` : 'Add User'}
        fields={editingRow ? EDIT_FIELDS : FIELDS}
        schema={editingRow ? UpdateUserSchema : CreateUserSchema}
        locked={editingSelf ? { role: 'You cannot change your own role', is_active: 'You cannot deactivate yourself' } : {}}
        hidden={isBroker ? [] : BROKER_ONLY}
        options={{ broker_branch_id: brokers }}
        submitLabel={editingRow ? 'Save Changes' : 'Add User'}
      >
        {saved && (
          <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} mt="md" role="status" data-testid="user-saved">
            {saved}
          </Alert>
        )}
        {!isBroker && (
          <Text fz="xs" c="dimmed" mt="sm">
            Broker branch and trader identity apply to Broker/Trader users.
          </Text>
        )}
      </AdminFormModal>
      <ConfirmDeleteModal
        {...resource.deleteProps}
        title={deleting ? `Delete user ${deleting.username}` : 'Delete user'}
        question={deleting ? `Are you sure you want to delete user ${deleting.username}?` : ''}
      >
        <Text fz="sm" c="dimmed">
          Their sessions end at once. A user who has acted on an order is deactivated instead: the order trail keeps naming them.
        </Text>
      </ConfirmDeleteModal>
    </Container>
  );
}
