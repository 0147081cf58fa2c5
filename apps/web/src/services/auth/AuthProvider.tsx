import type { LoginRequest, SessionUser } from '@fixdesk/protocol';
import { notifications } from '@mantine/notifications';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AuthStatus, SignInState } from '../../app/access';
import { HOME_PATH, LOGIN_PATH } from '../../app/routes';
import { authApi, sessionStore, setUnauthorizedHandler } from '../api/http';
import { live } from '../live/live';
import { SESSION_KEYS, TOKEN_KEYS, sessionExpiry } from './sessionStore';

interface AuthState {
  status: AuthStatus;
  user: SessionUser | null;
  /** Epoch milliseconds at which the stored session lapses. */
  expiresAt: number | null;
}

export interface AuthContextValue extends AuthState {
  /** Resolves with the user; rejects with LoginFailedError whose message is for the Login Failed box. */
  signIn(credentials: LoginRequest): Promise<SessionUser>;
  /** Tells the server, forgets the session locally whatever the server said, then navigates. */
  signOut(options?: { to?: string }): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const SIGNED_OUT: AuthState = { status: 'signedOut', user: null, expiresAt: null };
/** setTimeout's ceiling; a 24-hour session is well inside it. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const SESSION_STORAGE_KEYS = new Set<string>([SESSION_KEYS.user, SESSION_KEYS.expiresAt, ...TOKEN_KEYS]);

function initialState(): AuthState {
  const stored = sessionStore.load();
  // With a stored session the user sees their screens at once while the server confirms it.
  return stored ? { status: 'signedIn', user: stored.user, expiresAt: stored.expiresAt } : SIGNED_OUT;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [state, setState] = useState<AuthState>(initialState);

  // Bumped by every sign-in and sign-out, so a session check that answers late cannot undo them.
  const generation = useRef(0);
  // True while the user's own sign-out runs: the server closes the live connection before it
  // answers, and that refusal is this sign-out, not a session the server ended.
  const signingOut = useRef(false);
  const locationRef = useRef(location);
  useEffect(() => {
    locationRef.current = location;
  }, [location]);

  /** The session ended without the user asking: forget it and send them to sign in, remembering where they were. */
  const endSession = useCallback(
    (reason: 'expired' | 'rejected') => {
      generation.current += 1;
      sessionStore.clear();
      setState((previous) => {
        if (previous.status === 'signedIn') {
          notifications.show({
            id: 'session-ended',
            color: 'orange',
            title: reason === 'expired' ? 'Session expired' : 'Signed out',
            message:
              reason === 'expired'
                ? 'Your 24-hour session has ended. Please sign in again.'
                : 'The server no longer recognises your session. Please sign in again.',
          });
        }
        return SIGNED_OUT;
      });
      const here = locationRef.current;
      if (here.pathname !== LOGIN_PATH) {
        const state: SignInState = { from: { pathname: here.pathname, search: here.search, hash: here.hash } };
        void navigate(LOGIN_PATH, { replace: true, state });
      }
    },
    [navigate],
  );

  // A call refused with 401: the server ended the session, unless the user's own sign-out is running
  // or done (the server drops the session before it answers the sign-out, and calls the page made
  // meanwhile, such as a blotter's reload when its live connection closes, are refused for that).
  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        if (signingOut.current || !sessionStore.load()) return;
        endSession('rejected');
      }),
    [endSession],
  );

  // The server closed the live connection and refused it (the user was deactivated, their role
  // changed, their password reset, or this session signed out elsewhere): if the session is gone, the
  // page signs out at once instead of waiting for the next call.
  useEffect(
    () =>
      live.onState(() => {
        if (live.getState().status !== 'refused' || signingOut.current || !sessionStore.load()) return;
        const startedAt = generation.current;
        authApi
          .me()
          .then((session) => {
            if (!session && generation.current === startedAt) endSession('rejected');
          })
          .catch(() => {
            // Server unreachable: the live notice already says so.
          });
      }),
    [endSession],
  );

  // Start-up check, once per page load: is the stored session still good on the server?
  const startupChecked = useRef(false);
  useEffect(() => {
    if (startupChecked.current || !sessionStore.load()) return;
    startupChecked.current = true;
    const startedAt = generation.current;
    authApi
      .me()
      .then((session) => {
        if (generation.current !== startedAt) return;
        const stored = sessionStore.load();
        if (!session || !stored) {
          endSession('rejected');
          return;
        }
        // Refresh the user's details; the 24 hours run from sign-in, so the stored expiry is kept.
        sessionStore.save({ ...stored, user: session.user });
        setState({ status: 'signedIn', user: session.user, expiresAt: stored.expiresAt });
      })
      .catch((error: unknown) => {
        if (generation.current !== startedAt) return;
        // Server unreachable or failing: keep the stored session; the next call that needs it will tell.
        console.warn('Could not confirm the session with the server', error);
      });
  }, [endSession]);

  // Sign out at the stored expiry even if the tab just sits there.
  useEffect(() => {
    if (state.status !== 'signedIn' || state.expiresAt === null) return;
    const delay = Math.min(Math.max(0, state.expiresAt - Date.now()), MAX_TIMER_MS);
    const timer = window.setTimeout(() => endSession('expired'), delay);
    return () => window.clearTimeout(timer);
  }, [state.status, state.expiresAt, endSession]);

  // Another tab signed in or out.
  useEffect(() => {
    function onStorage(event: StorageEvent) {
      if (event.key !== null && !SESSION_STORAGE_KEYS.has(event.key)) return;
      const stored = sessionStore.load();
      generation.current += 1;
      setState(stored ? { status: 'signedIn', user: stored.user, expiresAt: stored.expiresAt } : SIGNED_OUT);
    }
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const signIn = useCallback(async (credentials: LoginRequest) => {
    generation.current += 1;
    const result = await authApi.login(credentials);
    const expiresAt = sessionExpiry(result.expiresAt, Date.now());
    sessionStore.save({ user: result.user, token: result.token, expiresAt });
    setState({ status: 'signedIn', user: result.user, expiresAt });
    return result.user;
  }, []);

  const signOut = useCallback(
    async ({ to = HOME_PATH }: { to?: string } = {}) => {
      generation.current += 1;
      signingOut.current = true;
      try {
        await authApi.logout();
      } catch (error) {
        // Spec 000 §8: a failed logout is only logged; the local session is forgotten regardless.
        console.warn('Sign-out request failed', error);
      } finally {
        signingOut.current = false;
      }
      sessionStore.clear();
      // Leave the page first, committed synchronously: dropping the user while still on a
      // guarded page would make its guard redirect to sign-in instead.
      await navigate(to, { flushSync: true });
      setState(SIGNED_OUT);
      notifications.show({ id: 'signed-out', color: 'desk', title: 'Signed out', message: 'You have been signed out.' });
    },
    [navigate],
  );

  const value = useMemo<AuthContextValue>(() => ({ ...state, signIn, signOut }), [state, signIn, signOut]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = use(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
