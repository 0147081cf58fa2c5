import { Box, Button, Group, Text } from '@mantine/core';
import { IconLogin, IconLogout } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { COMPACT_NAV, visibleNav } from '../../app/navigation';
import { DESKTOP_SIGNED_IN_HOME, HOME_PATH, LOGIN_PATH, isRegisteredPath } from '../../app/routes';
import { useAuth } from '../../services/auth/AuthProvider';
import { roleOf } from '../../services/auth/roles';
import { Logo } from '../brand/Logo';
import classes from './NavBar.module.css';
import { NavEntries } from './NavEntries';
import { RoleBadge } from './RoleBadge';

/** The desktop shell's bar (spec 000 §2): 60 px, short entries, username and a Logout button. */
export function CompactNavBar() {
  const { user, status, signOut } = useAuth();
  const { pathname } = useLocation();
  const signedIn = status === 'signedIn';
  const entries = visibleNav(COMPACT_NAV, { signedIn });
  const logoTarget = signedIn && isRegisteredPath(DESKTOP_SIGNED_IN_HOME) ? DESKTOP_SIGNED_IN_HOME : HOME_PATH;

  return (
    <Box component="header" className={classes.bar} data-variant="compact">
      <div className={classes.inner}>
        <Logo to={logoTarget} size="sm" />
        <Group component="nav" aria-label="Main" gap={2} wrap="nowrap" ml="sm">
          <NavEntries entries={entries} density="compact" />
        </Group>
        <div className={classes.spacer} />
        {user ? (
          <Group gap="sm" wrap="nowrap">
            <Group gap={6} wrap="nowrap">
              <Text component="span" fz="sm" fw={600} className={classes.username}>
                {user.username}
              </Text>
              <RoleBadge role={roleOf(user)} />
            </Group>
            <Button
              variant="subtle"
              size="compact-sm"
              className={classes.ghostButton}
              leftSection={<IconLogout size={15} stroke={1.8} />}
              onClick={() => void signOut({ to: LOGIN_PATH })}
            >
              Logout
            </Button>
          </Group>
        ) : status === 'signedOut' && pathname !== LOGIN_PATH ? (
          <Button component={Link} to={LOGIN_PATH} size="compact-sm" leftSection={<IconLogin size={15} stroke={1.8} />}>
            Sign In
          </Button>
        ) : null}
      </div>
    </Box>
  );
}
