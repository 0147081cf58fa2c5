import type { Db, Queryable } from '../db';
import type { UserRow } from './users';

export interface NewAuthSession {
  tokenHash: string;
  userId: number;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

export async function createAuthSession(db: Queryable, s: NewAuthSession): Promise<void> {
  await db.query('INSERT INTO auth_sessions (token_hash, user_id, expires_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5)', [
    s.tokenHash,
    s.userId,
    s.expiresAt,
    s.ip,
    s.userAgent?.slice(0, 512) ?? null,
  ]);
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
  const r = await db.query(
    "UPDATE auth_sessions SET revoked_at = now(), revoked_reason = 'signed_out' WHERE token_hash = $1 AND revoked_at IS NULL",
    [tokenHash],
  );
  return r.rowCount > 0;
}

/** Any fixed number: with a key's hash it names the lock that orders one key's sign-in attempts. */
const SIGN_IN_LOCK = 7_301_106;

export interface SignInAttempt {
  /** The attempt's row, to be finished with finishSignInAttempt. */
  readonly id: number;
  /** The pair's failures in the window since its last success (attempts still pending count). */
  readonly pair: { readonly count: number; readonly last: Date | null };
  /** The address's failures in the window, every username. */
  readonly address: { readonly count: number; readonly oldest: Date | null };
}

/**
 * Records a sign-in attempt as pending and reads the failures before it, as one step: the attempts of
 * one address, and so of one (username, address) pair, take turns (a transaction lock per key), so
 * fifty parallel attempts each see the ones before them. Pending attempts count as failures until
 * finished. Rate-limited attempts are kept but never counted.
 */
export async function beginSignInAttempt(db: Db, username: string, ip: string, since: Date): Promise<SignInAttempt> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SIGN_IN_LOCK, ip]);
    const { rows } = await tx.query<{
      id: number;
      pair_count: number;
      pair_last: Date | null;
      addr_count: number;
      addr_oldest: Date | null;
    }>(
      `WITH me AS (
         INSERT INTO login_attempts (username, ip, succeeded, reason) VALUES ($1, $2, false, 'pending') RETURNING id
       ), pair AS (
         SELECT count(*)::int AS n, max(created_at) AS last FROM login_attempts
          WHERE lower(username) = lower($1) AND ip = $2 AND NOT succeeded AND reason IS DISTINCT FROM 'rate_limited' AND created_at > $3
            AND created_at > coalesce((SELECT max(created_at) FROM login_attempts WHERE lower(username) = lower($1) AND ip = $2 AND succeeded), '-infinity')
       ), addr AS (
         SELECT count(*)::int AS n, min(created_at) AS oldest FROM login_attempts
          WHERE ip = $2 AND NOT succeeded AND reason IS DISTINCT FROM 'rate_limited' AND created_at > $3
       )
       SELECT me.id, pair.n AS pair_count, pair.last AS pair_last, addr.n AS addr_count, addr.oldest AS addr_oldest FROM me, pair, addr`,
      [username.slice(0, 128), ip, since],
    );
    const r = rows[0]!;
    return { id: r.id, pair: { count: r.pair_count, last: r.pair_last }, address: { count: r.addr_count, oldest: r.addr_oldest } };
  });
}

/** The outcome of a pending attempt: succeeded, or refused and why ('bad_password', 'rate_limited', ...). */
export async function finishSignInAttempt(db: Queryable, id: number, succeeded: boolean, reason: string | null): Promise<void> {
  await db.query('UPDATE login_attempts SET succeeded = $2, reason = $3 WHERE id = $1', [id, succeeded, reason]);
}

export interface UserSessionRow {
  id: number;
  token_hash: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

/** A user's live sessions (not expired, not revoked), newest first. */
export async function listUserSessions(db: Queryable, userId: number): Promise<UserSessionRow[]> {
  const { rows } = await db.query<UserSessionRow>(
    `SELECT id, token_hash, user_agent, ip, created_at, last_seen_at, expires_at FROM auth_sessions
      WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id DESC`,
    [userId],
  );
  return rows;
}

/**
 * Ends every live session of a user (all but one, when `keepTokenHash` names the caller's own) and says
 * why; answers the ended sessions' token hashes, so their sockets can be closed too.
 */
export async function revokeUserSessions(db: Queryable, userId: number, reason: string, keepTokenHash?: string): Promise<string[]> {
  const { rows } = await db.query<{ token_hash: string }>(
    `UPDATE auth_sessions SET revoked_at = now(), revoked_reason = $2
      WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() AND ($3::text IS NULL OR token_hash <> $3)
      RETURNING token_hash`,
    [userId, reason, keepTokenHash ?? null],
  );
  return rows.map((r) => r.token_hash);
}

/** Ends one of a user's own sessions; answers its token hash, or undefined when it is not theirs or not live. */
export async function revokeUserSession(db: Queryable, userId: number, sessionId: number, reason: string): Promise<string | undefined> {
  const { rows } = await db.query<{ token_hash: string }>(
    `UPDATE auth_sessions SET revoked_at = now(), revoked_reason = $3
      WHERE id = $2 AND user_id = $1 AND revoked_at IS NULL AND expires_at > now() RETURNING token_hash`,
    [userId, sessionId, reason],
  );
  return rows[0]?.token_hash;
}
