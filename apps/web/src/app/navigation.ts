import {
  IconArrowsExchange,
  IconBook,
  IconBuilding,
  IconChartHistogram,
  IconClipboardList,
  IconDatabase,
  IconFileCode,
  IconFlask,
  IconHeartbeat,
  IconHome,
  IconListDetails,
  IconMessages,
  IconPlug,
  IconRobot,
  IconSettings,
  IconShieldCheck,
  IconTable,
  IconTerminal2,
  IconUsers,
  IconUserShield,
  type Icon,
} from '@tabler/icons-react';
import { isRegisteredPath } from './routes';

/**
 * The navigation as data (spec 000 §2 "Navigation"). It names every destination the spec
 * places in the bars; an item is shown only while the app has a screen at its path, so a
 * new screen appears in the menus the moment its route is registered, with no edit here.
 */
export interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  /** One line under the label inside a menu. */
  description?: string;
}

interface NavGroup {
  /** Group heading inside a menu; omitted for a menu with a single group. */
  label?: string;
  items: readonly NavItem[];
}

export type NavEntry =
  | ({ kind: 'link'; signedInOnly: boolean } & NavItem)
  | { kind: 'menu'; label: string; icon: Icon; signedInOnly: boolean; groups: readonly NavGroup[] };

const blotter: NavItem = { label: 'Blotter', to: '/orders', icon: IconTable };
const orderActions: NavItem = {
  label: 'Order Actions',
  to: '/order-actions',
  icon: IconClipboardList,
  description: 'Audit trail of accepts, rejects and fills',
};
const fixMessages: NavItem = {
  label: 'FIX Messages',
  to: '/fix-messages',
  icon: IconMessages,
  description: 'Every FIX message sent and received',
};
const fixClientSimulator: NavItem = {
  label: 'FIX Client Simulator',
  to: '/fix-test-client',
  icon: IconTerminal2,
  description: 'Build and send orders as a client',
};
const insights: NavItem = { label: 'Insights', to: '/insights', icon: IconChartHistogram };
const serviceStatus: NavItem = { label: 'Service Status', to: '/service-status', icon: IconHeartbeat };
const fixSpecification: NavItem = { label: 'FIX Specification', to: '/fix-specification', icon: IconBook };
const securityMaster: NavItem = { label: 'Security Master', to: '/config/security-master', icon: IconDatabase };

const complianceGroups: readonly NavGroup[] = [{ items: [orderActions, fixMessages] }];

export const MAIN_NAV: readonly NavEntry[] = [
  { kind: 'link', label: 'Home', to: '/', icon: IconHome, signedInOnly: false },
  { kind: 'link', ...blotter, signedInOnly: true },
  { kind: 'menu', label: 'Compliance', icon: IconShieldCheck, signedInOnly: true, groups: complianceGroups },
  { kind: 'link', ...insights, signedInOnly: true },
  {
    kind: 'menu',
    label: 'Simulation',
    icon: IconFlask,
    signedInOnly: true,
    groups: [
      {
        items: [
          fixClientSimulator,
          { label: 'FIX Client', to: '/fix-client', icon: IconArrowsExchange, description: 'Client-side order entry and blotter' },
          { label: 'Broker Simulator', to: '/broker-simulator', icon: IconRobot, description: 'Auto-accept and auto-fill orders' },
        ],
      },
    ],
  },
  {
    kind: 'menu',
    label: 'Settings',
    icon: IconSettings,
    signedInOnly: true,
    groups: [
      { label: 'Status', items: [serviceStatus] },
      {
        label: 'Reference Data',
        items: [
          fixSpecification,
          securityMaster,
          { label: 'FIX Message Specs', to: '/config/fix-message-specs', icon: IconFileCode },
          { label: 'FIX Client Defaults', to: '/config/fix-client-defaults', icon: IconListDetails },
        ],
      },
      {
        label: 'Clients',
        items: [
          { label: 'Client Connectors', to: '/config/client-connectors', icon: IconPlug },
          { label: 'Client Sessions', to: '/config/client-sessions', icon: IconArrowsExchange },
          { label: 'Client Capabilities', to: '/config/client-capabilities', icon: IconShieldCheck },
        ],
      },
      {
        label: 'Organization',
        items: [
          { label: 'User Management', to: '/config/user-management', icon: IconUsers },
          { label: 'Broker Information', to: '/config/broker-information', icon: IconBuilding },
        ],
      },
    ],
  },
];

/** The compact bar of the desktop shell (spec 000 §2): fewer, shorter entries. */
export const COMPACT_NAV: readonly NavEntry[] = [
  { kind: 'link', ...blotter, signedInOnly: true },
  { kind: 'link', ...fixClientSimulator, label: 'Simulator', signedInOnly: true },
  { kind: 'menu', label: 'Compliance', icon: IconShieldCheck, signedInOnly: true, groups: complianceGroups },
  { kind: 'link', ...serviceStatus, label: 'Status', signedInOnly: true },
  {
    kind: 'menu',
    label: 'Settings',
    icon: IconSettings,
    signedInOnly: true,
    groups: [{ items: [securityMaster, fixSpecification] }],
  },
];

/** Shown in the user menu; it is the user's own page, not part of the spec's bars. */
export const ACCOUNT_ITEM: NavItem = { label: 'My account', to: '/account', icon: IconUserShield };

export interface NavContext {
  signedIn: boolean;
  hasScreen?: (path: string) => boolean;
}

/**
 * The entries to draw: signed-in-only entries hidden from visitors, items without a screen
 * dropped, then empty groups and empty menus dropped.
 */
export function visibleNav(entries: readonly NavEntry[], { signedIn, hasScreen = isRegisteredPath }: NavContext): NavEntry[] {
  const visible: NavEntry[] = [];
  for (const entry of entries) {
    if (entry.signedInOnly && !signedIn) continue;
    if (entry.kind === 'link') {
      if (hasScreen(entry.to)) visible.push(entry);
      continue;
    }
    const groups = entry.groups
      .map((group) => ({ ...group, items: group.items.filter((item) => hasScreen(item.to)) }))
      .filter((group) => group.items.length > 0);
    if (groups.length > 0) visible.push({ ...entry, groups });
  }
  return visible;
}
