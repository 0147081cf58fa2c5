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
