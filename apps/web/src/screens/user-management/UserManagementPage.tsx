import { CreateUserSchema, UpdateUserSchema, USER_FIELDS, UserText, type UserSummary } from '@fixdesk/protocol';
import { ActionIcon, Alert, Button, Container, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconHistory, IconPlus, IconRefresh, IconSearch, IconUsers } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AdminBanners } from '../../components/admin/AdminBanners';
import { AdminFormModal } from '../../components/admin/AdminFormModal';
import { AdminPageHeader } from '../../components/admin/AdminPageHeader';
import { AdminTable } from '../../components/admin/AdminTable';
import { ChangeHistory } from '../../components/admin/ChangeHistory';
import { ConfirmDeleteModal } from '../../components/admin/ConfirmDeleteModal';
import { adminErrorText, serverFieldErrors } from '../../components/admin/errors';
import { initialValues, type FormValues } from '../../components/admin/formValues';
import { useBanners } from '../../components/admin/useBanners';
import { useAuth } from '../../services/auth/AuthProvider';
import { brokersApi } from '../../services/brokers/brokersApi';
import { usersApi } from '../../services/users/users';
import { USER_COLUMNS } from './userColumns';

/** Spec 001 §9: the user dialog closes 2 s after success. */
export const USER_DIALOG_CLOSE_MS = 2000;

const FIELDS = Object.values(USER_FIELDS);
const BROKER_ONLY = ['broker_branch_id', 'trader_id', 'trader_party_id_source', 'trader_full_name', 'trader_license'];

type Editing = { mode: 'add' } | { mode: 'edit'; user: UserSummary } | null;

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
  const { showError } = banners;
  const [rows, setRows] = useState<UserSummary[] | null>(null);
  const [brokers, setBrokers] = useState<{ value: string; label: string }[]>([]);
  const [reloads, setReloads] = useState(0);
  const [filter, setFilter] = useState('');
  const [tab, setTab] = useState<string | null>('users');
  const [editing, setEditing] = useState<Editing>(null);
  const [values, setValues] = useState<FormValues>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  const [deleting, setDeleting] = useState<UserSummary | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  useEffect(() => {
    const controller = new AbortController();
    usersApi
      .list(controller.signal)
      .then(setRows)
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setRows((r) => r ?? []);
        showError(adminErrorText(err, UserText.fetchFailed, () => UserText.connectionError));
      });
    brokersApi
      .list(controller.signal)
      .then((list) => setBrokers(list.map((b) => ({ value: String(b.id), label: `${b.company_name}${b.is_active ? '' : ' (inactive)'}` }))))
      .catch(() => {
        // The branch choices stay empty; the list error above tells the story when the server is down.
      });
    return () => controller.abort();
  }, [reloads, showError]);

  const open = (next: Editing) => {
    window.clearTimeout(closeTimer.current);
    setEditing(next);
    setValues(initialValues(FIELDS, next?.mode === 'edit' ? { ...next.user, password: '' } : null));
    setServerErrors({});
    setFormError(null);
    setSaved(null);
  };

  const save = async (payload: Record<string, unknown>) => {
    if (!editing) return;
    const adding = editing.mode === 'add';
    const body = { ...payload };
    // Spec 001 §5: on edit a blank password is dropped from the payload; the username is locked.
    if (!adding) {
      if (body['password'] === '') delete body['password'];
      delete body['username'];
    }
    try {
      const answer = adding ? await usersApi.create(body) : await usersApi.update(editing.user.user_id, body);
      const ended =
        'sessionsEnded' in answer && typeof answer.sessionsEnded === 'number' && answer.sessionsEnded > 0
          ? ` ${answer.sessionsEnded} session(s) of the user were signed out.`
          : '';
      setSaved((answer.message ?? (adding ? UserText.created : UserText.updated)) + ended);
      setReloads((n) => n + 1);
      closeTimer.current = window.setTimeout(() => setEditing(null), USER_DIALOG_CLOSE_MS);
    } catch (err) {
      const text = adminErrorText(err, adding ? 'Failed to create user' : 'Failed to update user', () => UserText.connectionError);
      const under = serverFieldErrors(err, FIELDS, text);
      if (under) setServerErrors(under);
      else setFormError(text);
      throw err;
    }
  };

  const confirmDelete = async () => {
    const u = deleting;
    if (!u) return;
    try {
      const answer = await usersApi.remove(u.user_id);
      banners.showSuccess(answer.message ?? UserText.deleted(u.username));
      setReloads((n) => n + 1);
    } catch (err) {
      banners.showError(adminErrorText(err, UserText.deleteFailed, () => UserText.connectionError));
    } finally {
      setDeleteOpen(false);
    }
  };

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => (rows === null ? null : rows.filter((u) => matches(u, needle))), [rows, needle]);
  const rowName = useCallback((u: UserSummary) => `user ${u.username}`, []);
  const getRowId = useCallback((u: UserSummary) => String(u.user_id), []);
  const deleteBlocked = useCallback(
    (u: UserSummary) => (u.user_id === me?.user_id ? 'You cannot delete your own account' : null),
    [me?.user_id],
  );
  const isBroker = values['user_type'] === 'broker';
  const editingSelf = editing?.mode === 'edit' && editing.user.user_id === me?.user_id;

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
          <ActionIcon variant="default" size={36} onClick={() => setReloads((n) => n + 1)} aria-label="Refresh users">
            <IconRefresh size={17} />
          </ActionIcon>
        </Tooltip>
        <Button leftSection={<IconPlus size={16} />} onClick={() => open({ mode: 'add' })}>
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
            onEdit={(u) => open({ mode: 'edit', user: u })}
            onDelete={(u) => {
              setDeleting(u);
              setDeleteOpen(true);
            }}
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
        opened={editing !== null}
        title={editing?.mode === 'edit' ? `Edit User ${editing.user.username}` : 'Add User'}
        fields={
          editing?.mode === 'edit'
            ? FIELDS.map((f) =>
                f.name === 'password'
                  ? {
                      ...f,
                      label: 'New Password',
                      required: false,
                      description: 'Leave blank to keep the current password; a reset signs the user out everywhere',
                    }
                  : f,
              )
            : FIELDS
        }
        schema={editing?.mode === 'edit' ? UpdateUserSchema : CreateUserSchema}
        values={values}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        locked={
          editing?.mode === 'edit'
            ? {
                username: 'The username cannot be changed',
                ...(editingSelf ? { role: 'You cannot change your own role', is_active: 'You cannot deactivate yourself' } : {}),
              }
            : {}
        }
        hidden={isBroker ? [] : BROKER_ONLY}
        options={{ broker_branch_id: brokers }}
        submitLabel={editing?.mode === 'edit' ? 'Save Changes' : 'Add User'}
        onClose={() => {
          window.clearTimeout(closeTimer.current);
          setEditing(null);
        }}
        onSubmit={save}
        serverErrors={serverErrors}
        formError={formError}
        done={saved !== null}
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
        opened={deleteOpen}
        title={deleting ? `Delete user ${deleting.username}` : 'Delete user'}
        question={deleting ? `Are you sure you want to delete user ${deleting.username}?` : ''}
        onCancel={() => setDeleteOpen(false)}
        onConfirm={confirmDelete}
      >
        <Text fz="sm" c="dimmed">
          Their sessions end at once. A user who has acted on an order is deactivated instead: the order trail keeps naming them.
        </Text>
      </ConfirmDeleteModal>
    </Container>
  );
}
