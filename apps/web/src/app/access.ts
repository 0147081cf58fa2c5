import type { Role } from '@fixdesk/protocol';
import { DESKTOP_SIGNED_IN_HOME, HOME_PATH, LOGIN_PATH, isRegisteredPath, type RouteAccess } from './routes';

export type AuthStatus = 'signedIn' | 'signedOut';

export type AccessDecision =
  | { kind: 'allow' }
  /** Sign in first; the guard remembers the origin so sign-in can return there. */
  | { kind: 'signIn' }
  /** Signed in, but the role is not allowed here. */
  | { kind: 'forbidden'; redirectTo: string }
  /** A signed-in visitor on the sign-in screen goes back where they came from. */
  | { kind: 'alreadySignedIn' };

/** The route guard (spec 000 §2). `role` is the user's role; the fallback role is `user`. */
export function decideAccess(access: RouteAccess, status: AuthStatus, role: Role | null | undefined): AccessDecision {
  switch (access.kind) {
    case 'public':
      return { kind: 'allow' };
    case 'guest':
      return status === 'signedIn' ? { kind: 'alreadySignedIn' } : { kind: 'allow' };
    case 'signedIn': {
      if (status === 'signedOut') return { kind: 'signIn' };
      const roles = access.roles ?? [];
      if (roles.length > 0 && !roles.includes(role ?? 'user')) return { kind: 'forbidden', redirectTo: HOME_PATH };
      return { kind: 'allow' };
    }
  }
}

/** "You need the admin role to open User Management.": the notice a guarded route leaves on `/`. */
export function forbiddenNotice(title: string, roles: readonly Role[]): string {
  const names = roles.length <= 1 ? (roles[0] ?? 'user') : `${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]}`;
  return `You need the ${names} role to open ${title}.`;
}

/** What the guard puts in the location state of the page it returns a forbidden visitor to. */
export interface ForbiddenState {
  forbidden: string;
}

/** The notice in a location state, or null (only a string the guard put there). */
export function forbiddenFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const notice = (state as { forbidden?: unknown }).forbidden;
  return typeof notice === 'string' && notice.length > 0 ? notice : null;
}

/** What the guard puts in the router's location state when it sends a visitor to sign in. */
export interface SignInState {
  from: { pathname: string; search?: string; hash?: string };
}

/**
 * The in-app address to return to after sign-in, taken from location state, or null.
 * Only same-app paths are accepted, and never the sign-in screen itself.
 */
export function originFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const from = (state as { from?: unknown }).from;
  if (typeof from !== 'object' || from === null) return null;
  const { pathname, search, hash } = from as Record<string, unknown>;
  if (typeof pathname !== 'string' || !pathname.startsWith('/') || pathname.startsWith('//')) return null;
  if (pathname === LOGIN_PATH) return null;
  const tail = (typeof search === 'string' ? search : '') + (typeof hash === 'string' ? hash : '');
  return pathname + tail;
}

/**
 * In the desktop shell the landing page is skipped (spec 000 §2): signed in → the blotter
 * (once that screen exists), signed out → sign-in. Null means stay on the landing page.
 */
export function desktopLandingRedirect(status: AuthStatus, hasScreen: (path: string) => boolean = isRegisteredPath): string | null {
  if (status === 'signedOut') return LOGIN_PATH;
  return hasScreen(DESKTOP_SIGNED_IN_HOME) ? DESKTOP_SIGNED_IN_HOME : null;
}
