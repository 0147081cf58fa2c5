import { createHash, randomBytes } from 'node:crypto';
import {
  countRecentFailures,
  createAuthSession,
  findActiveSession,
  findUserByUsername,
  recordLogin,
  recordLoginAttempt,
  revokeAuthSession,
  type Db,
  type UserRow,
} from '@fixdesk/db';
import { SESSION_TTL_MS, type SessionUser } from '@fixdesk/protocol';
import { dummyPasswordHash, verifyPassword } from './passwords';

/** Failed sign-ins allowed in the window before further attempts are refused. */
export const MAX_FAILURES_PER_USERNAME = 5;
export const MAX_FAILURES_PER_IP = 20;
export const FAILURE_WINDOW_MS = 15 * 60_000;

export const INVALID_CREDENTIALS = 'Invalid username or password';

export type LoginResult =
  | { kind: 'ok'; user: SessionUser; token: string; expiresAt: Date }
  | { kind: 'invalid' }
  | { kind: 'locked'; retryAfterSeconds: number };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function toSessionUser(u: UserRow): SessionUser {
  return { user_id: u.user_id, username: u.username, role: u.role, first_name: u.first_name, last_name: u.last_name, email: u.email };
}

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async login(username: string, password: string, ip: string, userAgent: string | null): Promise<LoginResult> {
    const since = new Date(this.now() - FAILURE_WINDOW_MS);
    const failures = await countRecentFailures(this.db, username, ip, since);
    const locked = [
      failures.byUsername.count >= MAX_FAILURES_PER_USERNAME ? failures.byUsername.oldest : null,
      failures.byIp.count >= MAX_FAILURES_PER_IP ? failures.byIp.oldest : null,
    ].filter((d): d is Date => d !== null);
    if (locked.length > 0) {
      const until = Math.max(...locked.map((d) => d.getTime() + FAILURE_WINDOW_MS));
      await recordLoginAttempt(this.db, { username, ip, succeeded: false, reason: 'rate_limited' });
      return { kind: 'locked', retryAfterSeconds: Math.max(1, Math.ceil((until - this.now()) / 1000)) };
    }

    const user = await findUserByUsername(this.db, username);
    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
    if (!user || !ok || !user.is_active) {
      const reason = !user ? 'unknown_user' : !ok ? 'bad_password' : 'inactive';
      await recordLoginAttempt(this.db, { username, ip, succeeded: false, reason });
      return { kind: 'invalid' };
    }

    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now() + SESSION_TTL_MS);
    await this.db.transaction(async (tx) => {
      await createAuthSession(tx, { tokenHash: hashToken(token), userId: user.user_id, expiresAt, ip, userAgent });
      await recordLogin(tx, user.user_id);
      await recordLoginAttempt(tx, { username, ip, succeeded: true, reason: null });
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
}
