import type { Queryable } from '../db';
import type { UserRow } from './users';

export interface NewAuthSession {
  tokenHash: string;
  userId: number;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

export async function createAuthSession(db: Queryable, s: NewAuthSession): Promise<void> {
  await db.query(
    'INSERT INTO auth_sessions (token_hash, user_id, expires_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5)',
    [s.tokenHash, s.userId, s.expiresAt, s.ip, s.userAgent?.slice(0, 512) ?? null],
  );
}

export interface ActiveSession {
  session_id: number;
  expires_at: Date;
  user: UserRow;
}

/** The live session for a token hash: not expired, not revoked, and its user still active. */
export async function findActiveSession(db: Queryable, tokenHash: string): Promise<ActiveSession | undefined> {
  const { rows } = await db.query<UserRow & { session_id: number; expires_at: Date }>(
    `SELECT s.id AS session_id, s.expires_at, u.user_id, u.username, u.email, u.first_name, u.last_name, u.role,
            u.user_type, u.is_active, u.last_login
       FROM auth_sessions s JOIN users u ON u.user_id = s.user_id
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND u.is_active`,
    [tokenHash],
  );
  const r = rows[0];
  if (!r) return undefined;
  const { session_id, expires_at, ...user } = r;
  return { session_id, expires_at, user };
}

export async function revokeAuthSession(db: Queryable, tokenHash: string): Promise<boolean> {
  const r = await db.query('UPDATE auth_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [tokenHash]);
  return r.rowCount > 0;
}

export interface LoginAttempt {
  username: string;
  ip: string;
  succeeded: boolean;
  reason: string | null;
}

export async function recordLoginAttempt(db: Queryable, a: LoginAttempt): Promise<void> {
  await db.query('INSERT INTO login_attempts (username, ip, succeeded, reason) VALUES ($1, $2, $3, $4)', [
    a.username.slice(0, 128),
    a.ip,
    a.succeeded,
    a.reason,
  ]);
}

export interface FailureWindow {
  count: number;
  oldest: Date | null;
}

/**
 * Failed attempts since `since` for a username and for an address, each counted only after that
 * key's last success (a correct password clears the slate for that username).
 */
export async function countRecentFailures(
  db: Queryable,
  username: string,
  ip: string,
  since: Date,
): Promise<{ byUsername: FailureWindow; byIp: FailureWindow }> {
  const { rows } = await db.query<{ key: string; count: number; oldest: Date | null }>(
    `WITH u AS (
       SELECT count(*)::int AS count, min(created_at) AS oldest FROM login_attempts
        WHERE lower(username) = lower($1) AND NOT succeeded AND reason IS DISTINCT FROM 'rate_limited' AND created_at > $3
          AND created_at > coalesce((SELECT max(created_at) FROM login_attempts
                                      WHERE lower(username) = lower($1) AND succeeded), '-infinity')
     ), i AS (
       SELECT count(*)::int AS count, min(created_at) AS oldest FROM login_attempts
        WHERE ip = $2 AND NOT succeeded AND reason IS DISTINCT FROM 'rate_limited' AND created_at > $3
     )
     SELECT 'u' AS key, count, oldest FROM u UNION ALL SELECT 'i', count, oldest FROM i`,
    [username, ip, since],
  );
  const get = (k: string): FailureWindow => {
    const r = rows.find((x) => x.key === k);
    return { count: r?.count ?? 0, oldest: r?.oldest ?? null };
  };
  return { byUsername: get('u'), byIp: get('i') };
}
