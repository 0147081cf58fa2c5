import { Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import type { NavEntry } from '../../app/navigation';
import classes from './NavBar.module.css';

function menuIsActive(entry: Extract<NavEntry, { kind: 'menu' }>, pathname: string): boolean {
  return entry.groups.some((group) => group.items.some((item) => pathname === item.to || pathname.startsWith(`${item.to}/`)));
}

/** The bar's links and drop-down menus, drawn from navigation data. */
export function NavEntries({ entries, density = 'regular' }: { entries: readonly NavEntry[]; density?: 'regular' | 'compact' }) {
  const { pathname } = useLocation();
  return (
    <>
      {entries.map((entry) => {
        const Icon = entry.icon;
        if (entry.kind === 'link') {
          return (
            <NavLink key={entry.to} to={entry.to} end className={classes.item} data-density={density}>
              <Icon size={16} stroke={1.7} aria-hidden="true" />
              <span>{entry.label}</span>
            </NavLink>
          );
        }
        const withHeadings = entry.groups.length > 1;
        return (
          <Menu
            key={entry.label}
            trigger="click-hover"
            openDelay={50}
            closeDelay={120}
            position="bottom-start"
            offset={6}
            width={withHeadings ? 260 : 280}
          >
            <Menu.Target>
              <UnstyledButton className={classes.item} data-density={density} data-active={menuIsActive(entry, pathname) || undefined}>
                <Icon size={16} stroke={1.7} aria-hidden="true" />
                <span>{entry.label}</span>
                <IconChevronDown size={13} stroke={2} aria-hidden="true" className={classes.chevron} />
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              {entry.groups.map((group, index) => (
                <Fragment key={group.label ?? index}>
                  {index > 0 && <Menu.Divider />}
                  {withHeadings && group.label && <Menu.Label>{group.label}</Menu.Label>}
                  {group.items.map((item) => {
                    const ItemIcon = item.icon;
                    return (
                      <Menu.Item
                        key={item.to}
                        component={Link}
                        to={item.to}
                        leftSection={<ItemIcon size={16} stroke={1.6} aria-hidden="true" />}
                      >
                        <Text fz="sm" fw={500} lh={1.3}>
                          {item.label}
                        </Text>
                        {item.description && (
                          <Text fz="xs" c="dimmed" lh={1.3}>
                            {item.description}
                          </Text>
                        )}
                      </Menu.Item>
                    );
                  })}
                </Fragment>
              ))}
            </Menu.Dropdown>
          </Menu>
        );
      })}
    </>
  );
}
