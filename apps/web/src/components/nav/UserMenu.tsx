import type { SessionUser } from '@fixdesk/protocol';
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconMail } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ACCOUNT_ITEM } from '../../app/navigation';
import { isRegisteredPath } from '../../app/routes';
import { displayName, initials, roleLabel, roleOf } from '../../services/auth/roles';
import classes from './NavBar.module.css';
import { RoleBadge } from './RoleBadge';

interface UserMenuProps {
  user: SessionUser;
  onSignOut: () => void;
}

/** Right side of the main bar: username with role badge; the menu holds name, e-mail and Sign Out. */
export function UserMenu({ user, onSignOut }: UserMenuProps) {
  const role = roleOf(user);
  const AccountIcon = ACCOUNT_ITEM.icon;
  return (
    <Menu position="bottom-end" offset={8} width={260}>
      <Menu.Target>
        <UnstyledButton className={classes.userButton} aria-label={`User menu for ${user.username} (${roleLabel(role)})`}>
          <Group gap={8} wrap="nowrap">
            <Avatar size={26} radius="xl" color="desk" variant="filled" className={classes.avatar}>
              {initials(user)}
            </Avatar>
            <Text component="span" fz="sm" fw={600} className={classes.username}>
              {user.username}
            </Text>
            <RoleBadge role={role} />
            <IconChevronDown size={14} stroke={2} aria-hidden="true" className={classes.chevron} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <div className={classes.userCard}>
          <Text fw={600} fz="sm" data-testid="user-menu-full-name">
            {displayName(user)}
          </Text>
          <Group gap={6} wrap="nowrap" mt={2}>
            <IconMail size={13} stroke={1.6} aria-hidden="true" className={classes.muted} />
            <Text fz="xs" c="dimmed" truncate data-testid="user-menu-email">
              {user.email ?? 'No e-mail on file'}
            </Text>
          </Group>
        </div>
        <Menu.Divider />
        {isRegisteredPath(ACCOUNT_ITEM.to) && (
          <Menu.Item component={Link} to={ACCOUNT_ITEM.to} leftSection={<AccountIcon size={16} stroke={1.6} aria-hidden="true" />}>
            {ACCOUNT_ITEM.label}
          </Menu.Item>
        )}
        <Menu.Item color="red" leftSection={<IconLogout size={16} stroke={1.6} aria-hidden="true" />} onClick={onSignOut}>
          Sign Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
