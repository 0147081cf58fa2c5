import { Box, Burger, Button, Divider, Drawer, Group, NavLink as MantineNavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogin } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import type { SignInState } from '../../app/access';
import { MAIN_NAV, visibleNav, type NavEntry } from '../../app/navigation';
import { HOME_PATH, LOGIN_PATH } from '../../app/routes';
import { useAuth } from '../../services/auth/AuthProvider';
import { Logo } from '../brand/Logo';
import classes from './NavBar.module.css';
import { NavEntries } from './NavEntries';
import { UserMenu } from './UserMenu';

/** The same entries as a vertical list, for narrow windows. */
function DrawerEntries({ entries, onNavigate }: { entries: readonly NavEntry[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  return (
    <Stack gap={2}>
      {entries.map((entry) => {
        const Icon = entry.icon;
        if (entry.kind === 'link') {
          return (
            <MantineNavLink
              key={entry.to}
              component={Link}
              to={entry.to}
              label={entry.label}
              active={pathname === entry.to}
              leftSection={<Icon size={16} stroke={1.7} />}
              onClick={onNavigate}
            />
          );
        }
        return (
          <MantineNavLink key={entry.label} label={entry.label} leftSection={<Icon size={16} stroke={1.7} />} childrenOffset={18}>
            {entry.groups.flatMap((group) =>
              group.items.map((item) => (
                <MantineNavLink
                  key={item.to}
                  component={Link}
                  to={item.to}
                  label={item.label}
                  active={pathname === item.to}
                  onClick={onNavigate}
                />
              )),
            )}
          </MantineNavLink>
        );
      })}
    </Stack>
  );
}

/** The main navigation bar (spec 000 §2 "Navigation"). */
export function MainNavBar() {
  const { user, status, signOut } = useAuth();
  const location = useLocation();
  const [drawerOpen, drawer] = useDisclosure(false);
  const entries = visibleNav(MAIN_NAV, { signedIn: status === 'signedIn' });
  const signInState: SignInState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };

  useEffect(() => {
    drawer.close();
    // Close the drawer whenever the page changes (including through browser history).
  }, [location.pathname]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Box component="header" className={classes.bar}>
      <div className={classes.inner}>
        <Burger
          opened={drawerOpen}
          onClick={drawer.toggle}
          hiddenFrom="md"
          size="sm"
          color="var(--fd-nav-text-strong)"
          aria-label="Open navigation"
        />
        <Logo to={HOME_PATH} />
        <Divider orientation="vertical" className={classes.separator} visibleFrom="md" />
        <Group component="nav" aria-label="Main" gap={2} visibleFrom="md" wrap="nowrap">
          <NavEntries entries={entries} />
        </Group>
        <div className={classes.spacer} />
        {user ? (
          <UserMenu user={user} onSignOut={() => void signOut()} />
        ) : status === 'signedOut' && location.pathname !== LOGIN_PATH ? (
          <Button
            component={Link}
            to={LOGIN_PATH}
            state={signInState}
            size="xs"
            leftSection={<IconLogin size={15} stroke={1.8} />}
            className={classes.signIn}
          >
            Sign In
          </Button>
        ) : null}
      </div>

      <Drawer opened={drawerOpen} onClose={drawer.close} size={280} padding="md" title={<Text fw={600}>Navigation</Text>} hiddenFrom="md">
        <ScrollArea.Autosize mah="calc(100vh - 80px)">
          <DrawerEntries entries={entries} onNavigate={drawer.close} />
        </ScrollArea.Autosize>
      </Drawer>
    </Box>
  );
}
