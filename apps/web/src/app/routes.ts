import type { Role } from '@fixdesk/protocol';

/**
 * Who may open a route (spec 000 §2, 001 §2).
 * - public: anyone.
 * - guest: the sign-in screen; a signed-in visitor is sent back where they came from.
 * - signedIn: a user is required; with `roles`, the user's role must be one of them.
 */
export type RouteAccess = { kind: 'public' } | { kind: 'guest' } | { kind: 'signedIn'; roles?: readonly Role[] };

export const PUBLIC: RouteAccess = { kind: 'public' };
export const GUEST: RouteAccess = { kind: 'guest' };
export const SIGNED_IN: RouteAccess = { kind: 'signedIn' };
export const ADMIN_ONLY: RouteAccess = { kind: 'signedIn', roles: ['admin'] };

export interface RouteSpec {
  path: string;
  /** Shown in the browser tab. */
  title: string;
  access: RouteAccess;
}

/**
 * Every screen the app has. A route is listed here only once its screen exists; the
 * navigation links only to listed paths, so adding a screen means one entry here plus its
 * component in screens.tsx (the compiler insists on both).
 */
export const ROUTES = [
  { path: '/', title: 'FIX order management for OTC brokers', access: PUBLIC },
  { path: '/login', title: 'Sign In', access: GUEST },
  { path: '/account', title: 'My Account', access: SIGNED_IN },
  { path: '/privacy-policy', title: 'Privacy Policy', access: PUBLIC },
  { path: '/cookie-policy', title: 'Cookie Policy', access: PUBLIC },
  { path: '/terms', title: 'Terms and Conditions', access: PUBLIC },
  { path: '/config/user-management', title: 'User Management', access: ADMIN_ONLY },
  { path: '/config/broker-information', title: 'Broker Information', access: ADMIN_ONLY },
  { path: '/config/security-master', title: 'Security Master', access: ADMIN_ONLY },
  { path: '/config/fix-client-defaults', title: 'FIX Client Defaults', access: ADMIN_ONLY },
  { path: '/config/fix-message-specs', title: 'FIX Message Specifications', access: ADMIN_ONLY },
  { path: '/config/client-connectors', title: 'Client Connectors', access: ADMIN_ONLY },
  { path: '/config/client-sessions', title: 'Client Sessions', access: ADMIN_ONLY },
  { path: '/config/client-capabilities', title: 'Client Capabilities', access: ADMIN_ONLY },
  { path: '/orders', title: 'Blotter', access: SIGNED_IN },
  { path: '/order-detail/:orderid', title: 'Order Detail', access: SIGNED_IN },
  { path: '/order-actions', title: 'Order Actions', access: SIGNED_IN },
  { path: '/fix-messages', title: 'FIX Messages', access: SIGNED_IN },
  { path: '/insights', title: 'Insights', access: SIGNED_IN },
  { path: '/fix-test-client', title: 'FIX Client Simulator', access: SIGNED_IN },
  { path: '/fix-client', title: 'FIX Client', access: SIGNED_IN },
  { path: '/fix-specification', title: 'FIX Specification', access: SIGNED_IN },
  { path: '/service-status', title: 'Service Status', access: SIGNED_IN },
  { path: '/axes', title: 'Open Axes', access: SIGNED_IN },
  { path: '/broker-simulator', title: 'Broker Simulator', access: { kind: 'signedIn', roles: ['admin', 'broker'] } },
] as const satisfies readonly RouteSpec[];

export type RoutePath = (typeof ROUTES)[number]['path'];

const registered = new Set<string>(ROUTES.map((route) => route.path));

/** True when the app has a screen at exactly this path (used to decide what to link). */
export function isRegisteredPath(path: string): boolean {
  return registered.has(path);
}

export const LOGIN_PATH = '/login' satisfies RoutePath;
export const HOME_PATH = '/' satisfies RoutePath;
/** Where the desktop shell lands a signed-in user (spec 000 §2), once that screen exists. */
export const DESKTOP_SIGNED_IN_HOME = '/orders';
