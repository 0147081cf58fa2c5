import { createHash, randomBytes } from 'node:crypto';
import {
  beginSignInAttempt,
  createAuthSession,
  findActiveSession,
  findUserByUsername,
  finishSignInAttempt,
  getPasswordHash,
  recordLogin,
  revokeAuthSession,
  revokeUserSessions,
  type Queryable,
  type Db,
  type UserRow,
} from '@fixdesk/db';
import { SESSION_TTL_MS, type SessionUser } from '@fixdesk/protocol';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { FAILURE_WINDOW_MS, throttle } from './sign-in-throttle';

export const INVALID_CREDENTIALS = 'Invalid username or password';

export type LoginResult =
  { kind: 'ok'; user: SessionUser; token: string; expiresAt: Date } | { kind: 'invalid' } | { kind: 'locked'; retryAfterSeconds: number };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toSessionUser(u: UserRow): SessionUser {
  return { user_id: u.user_id, username: u.username, role: u.role, first_name: u.first_name, last_name: u.last_name, email: u.email };
}

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Checks a password under the sign-in throttle (sign-in-throttle.ts). The attempt is recorded and
   * counted before the password is checked, so parallel attempts cannot slip past the throttle.
   */
  async login(username: string, password: string, ip: string, userAgent: string | null): Promise<LoginResult> {
    const attempt = await beginSignInAttempt(this.db, username, ip, new Date(this.now() - FAILURE_WINDOW_MS));
    const verdict = throttle(attempt, this.now());
    if (!verdict.allowed) {
      await finishSignInAttempt(this.db, attempt.id, false, 'rate_limited');
      return { kind: 'locked', retryAfterSeconds: verdict.retryAfterSeconds };
    }

    const user = await findUserByUsername(this.db, username);
    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
    if (!user || !ok || !user.is_active) {
      const reason = !user ? 'unknown_user' : !ok ? 'bad_password' : 'inactive';
      await finishSignInAttempt(this.db, attempt.id, false, reason);
      return { kind: 'invalid' };
    }

    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now() + SESSION_TTL_MS);
    await this.db.transaction(async (tx) => {
      await createAuthSession(tx, { tokenHash: hashToken(token), userId: user.user_id, expiresAt, ip, userAgent });
      await recordLogin(tx, user.user_id);
      await finishSignInAttempt(tx, attempt.id, true, null);
    });
    return { kind: 'ok', user: toSessionUser(user), token, expiresAt };
  }

  async authenticate(token: string): Promise<{ user: SessionUser; expiresAt: Date } | undefined> {
    if (!token || token.length > 256) return undefined;
    const s = await findActiveSession(this.db, hashToken(token));
    return s && { user: toSessionUser(s.user), expiresAt: s.expires_at };
  }

  async logout(token: string): Promise<void> {
    await revokeAuthSession(this.db, hashToken(token));
  }

  /**
   * Ends a user's sessions in the caller's transaction (all but the caller's own when `keepToken` is
   * given) and answers their token hashes: after the commit, close their sockets with
   * WsHub.revokeTokenHashes. A later request with one of those tokens is refused at once.
   */
  endSessions(tx: Queryable, userId: number, reason: string, keepToken?: string | null): Promise<string[]> {
    return revokeUserSessions(tx, userId, reason, keepToken ? hashToken(keepToken) : undefined);
  }

  /**
   * Whether the password is the signed-in user's current one (a change of their own password), under
   * the sign-in throttle: a wrong one is counted in login_attempts as a failed sign-in of
   * that username from that address ('bad_current_password'), and too many of them are refused without
   * a check ('rate_limited') with the same growing delays, so a stolen session cannot guess the password.
   */
  async checkCurrentPassword(
    user: { user_id: number; username: string },
    password: string,
    ip: string,
  ): Promise<{ kind: 'ok' } | { kind: 'invalid' } | { kind: 'locked'; retryAfterSeconds: number }> {
    const attempt = await beginSignInAttempt(this.db, user.username, ip, new Date(this.now() - FAILURE_WINDOW_MS));
    const verdict = throttle(attempt, this.now());
    if (!verdict.allowed) {
      await finishSignInAttempt(this.db, attempt.id, false, 'rate_limited');
      return { kind: 'locked', retryAfterSeconds: verdict.retryAfterSeconds };
    }
    const hash = await getPasswordHash(this.db, user.user_id);
    const ok = (await verifyPassword(hash ?? (await dummyPasswordHash()), password)) && hash !== undefined;
    await finishSignInAttempt(this.db, attempt.id, ok, ok ? 'password_change' : 'bad_current_password');
    return ok ? { kind: 'ok' } : { kind: 'invalid' };
  }

  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }
}
