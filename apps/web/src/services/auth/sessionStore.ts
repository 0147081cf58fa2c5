import { SESSION_TTL_MS, SessionUserSchema, type SessionUser } from '@fixdesk/protocol';

/**
 * The signed-in user as remembered by this browser. A sign-in lasts 24 hours (spec 000 §4):
 * past that the stored user and every token are cleared, whatever the server says later.
 */
interface StoredSession {
  user: SessionUser;
  /** Null when the session rides on the HttpOnly cookie alone (restored by /api/auth/me). */
  token: string | null;
  /** Epoch milliseconds after which the stored session is void. */
  expiresAt: number;
}

/** The subset of the Web Storage API this module needs, so tests can pass a plain map. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const SESSION_KEYS = {
  user: 'user',
  expiresAt: 'sessionExpiresAt',
  token: 'token',
} as const;

/** Older clients and the cookie policy know the token under these names too; read all, clear all. */
export const TOKEN_KEYS = ['token', 'authToken', 'sessionId'] as const;

export interface SessionStore {
  /** The stored session, or null. An expired or unreadable one is removed on the way. */
  load(): StoredSession | null;
  save(session: StoredSession): void;
  clear(): void;
  /** The bearer token for API calls; null when absent or the session has expired. */
  token(): string | null;
}

/**
 * The expiry to store for a fresh sign-in: the server's token expiry, but never later than
 * 24 hours from now, so a skewed or missing server value cannot stretch the session.
 */
export function sessionExpiry(serverExpiresAt: string | undefined | null, now: number): number {
  const ceiling = now + SESSION_TTL_MS;
  if (!serverExpiresAt) return ceiling;
  const parsed = Date.parse(serverExpiresAt);
  return Number.isFinite(parsed) ? Math.min(parsed, ceiling) : ceiling;
}

export function createSessionStore(storage: KeyValueStorage, now: () => number = Date.now): SessionStore {
  function safeGet(key: string): string | null {
    try {
      return storage.getItem(key);
    } catch {
      return null;
    }
  }

  function clear(): void {
    for (const key of [SESSION_KEYS.user, SESSION_KEYS.expiresAt, ...TOKEN_KEYS]) {
      try {
        storage.removeItem(key);
      } catch {
        // Storage disabled by the browser: there is nothing left to clear.
      }
    }
  }

  function readToken(): string | null {
    for (const key of TOKEN_KEYS) {
      const value = safeGet(key);
      if (value) return value;
    }
    return null;
  }

  function load(): StoredSession | null {
    const rawUser = safeGet(SESSION_KEYS.user);
    const rawExpiry = safeGet(SESSION_KEYS.expiresAt);
    if (rawUser === null && rawExpiry === null) {
      // A token without a user is a leftover from an interrupted sign-out; it must not authenticate.
      if (readToken() !== null) clear();
      return null;
    }
    // Another tab may be in the middle of save(): the user key is written last, so a user without an
    // expiry is a write in progress, not a broken session to clear.
    if (rawExpiry === null) return null;
    const expiresAt = Number(rawExpiry);
    let user: SessionUser | null = null;
    try {
      const parsed = SessionUserSchema.safeParse(JSON.parse(rawUser ?? 'null'));
      if (parsed.success) user = parsed.data;
    } catch {
      user = null;
    }
    if (user === null || !Number.isFinite(expiresAt) || expiresAt <= now()) {
      clear();
      return null;
    }
    return { user, token: readToken(), expiresAt };
  }

  return {
    load,
    clear,
    // Overwrites in place, user last, so a second tab reading meanwhile never sees a half-written
    // session and clears it.
    save(session) {
      for (const key of TOKEN_KEYS) if (key !== SESSION_KEYS.token) storage.removeItem(key);
      if (session.token) storage.setItem(SESSION_KEYS.token, session.token);
      else storage.removeItem(SESSION_KEYS.token);
      storage.setItem(SESSION_KEYS.expiresAt, String(session.expiresAt));
      storage.setItem(SESSION_KEYS.user, JSON.stringify(session.user));
    },
    token() {
      return load()?.token ?? null;
    },
  };
}
