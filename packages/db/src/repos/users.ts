import type { Role, UserSummary } from '@fixdesk/protocol';
import type { Queryable } from '../db';

export interface UserRow {
  user_id: number;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  role: Role;
  user_type: string;
  is_active: boolean;
  last_login: Date | null;
}

export interface UserWithHash extends UserRow {
  password_hash: string;
}

const USER_COLUMNS = 'user_id, username, email, first_name, last_name, role, user_type, is_active, last_login';

export async function findUserByUsername(db: Queryable, username: string): Promise<UserWithHash | undefined> {
  const { rows } = await db.query<UserWithHash>(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE lower(username) = lower($1)`, [
    username,
  ]);
  return rows[0];
}

export async function recordLogin(db: Queryable, userId: number): Promise<void> {
  await db.query('UPDATE users SET last_login = now() WHERE user_id = $1', [userId]);
}

/** Every user with its broker branch's name, for the user administration list. */
export async function listUsers(db: Queryable): Promise<UserSummary[]> {
  const { rows } = await db.query<UserAdminSqlRow>(`${ADMIN_SELECT} ORDER BY u.user_id`);
  return rows.map(toUserSummary);
}

// ── user administration ──

/** A user as SQL reads it for the administration (every field but the password hash, with the branch's name). */
type UserAdminSqlRow = Omit<UserSummary, 'last_login' | 'created_at' | 'updated_at'> & {
  last_login: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** The one mapping of a user row to the protocol's UserSummary (timestamps as ISO text). */
function toUserSummary(u: UserAdminSqlRow): UserSummary {
  return {
    ...u,
    last_login: u.last_login?.toISOString() ?? null,
    created_at: u.created_at.toISOString(),
    updated_at: u.updated_at.toISOString(),
  };
}

/** The columns an administrator writes (the password goes in as its hash). */
export interface UserWrite {
  username?: string;
  email?: string;
  first_name?: string | null;
  last_name?: string | null;
  whatsapp_number?: string | null;
  role?: string;
  user_type?: string;
  is_active?: boolean;
  broker_branch_id?: number | null;
  trader_id?: string | null;
  trader_license?: string | null;
  trader_full_name?: string | null;
  trader_party_id_source?: string | null;
}

const WRITABLE: readonly (keyof UserWrite)[] = [
  'username',
  'email',
  'first_name',
  'last_name',
  'whatsapp_number',
  'role',
  'user_type',
  'is_active',
  'broker_branch_id',
  'trader_id',
  'trader_license',
  'trader_full_name',
  'trader_party_id_source',
];

const ADMIN_SELECT = `SELECT u.user_id, u.username, u.email, u.first_name, u.last_name, u.whatsapp_number, u.role, u.user_type, u.is_active,
            u.last_login, u.broker_branch_id, b.company_name AS broker_company_name, u.trader_id, u.trader_license,
            u.trader_full_name, u.trader_party_id_source, u.created_at, u.updated_at
       FROM users u LEFT JOIN broker_information b ON b.id = u.broker_branch_id`;

export async function getUserById(db: Queryable, userId: number, opts: { lock?: boolean } = {}): Promise<UserSummary | undefined> {
  if (opts.lock) await db.query('SELECT 1 FROM users WHERE user_id = $1 FOR UPDATE', [userId]);
  const { rows } = await db.query<UserAdminSqlRow>(`${ADMIN_SELECT} WHERE u.user_id = $1`, [userId]);
  return rows[0] && toUserSummary(rows[0]);
}

export async function getPasswordHash(db: Queryable, userId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE user_id = $1', [userId]);
  return rows[0]?.password_hash;
}

export async function insertUser(db: Queryable, values: UserWrite & { username: string }, passwordHash: string): Promise<UserSummary> {
  const cols = WRITABLE.filter((k) => values[k] !== undefined);
  const { rows } = await db.query<{ user_id: number }>(
    `INSERT INTO users (${[...cols, 'password_hash'].join(', ')}) VALUES (${[...cols, 'password_hash'].map((_, i) => `$${i + 1}`).join(', ')}) RETURNING user_id`,
    [...cols.map((k) => values[k]), passwordHash],
  );
  return (await getUserById(db, rows[0]!.user_id))!;
}

/** Writes the given fields (and the password hash when given); undefined when there is no such user. */
export async function updateUser(
  db: Queryable,
  userId: number,
  values: UserWrite,
  passwordHash?: string,
): Promise<UserSummary | undefined> {
  const cols = WRITABLE.filter((k) => values[k] !== undefined);
  const sets = cols.map((k, i) => `${k} = $${i + 2}`);
  const params: unknown[] = [userId, ...cols.map((k) => values[k])];
  if (passwordHash !== undefined) {
    params.push(passwordHash);
    sets.push(`password_hash = $${params.length}`);
  }
  await db.query(`UPDATE users SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE user_id = $1`, params);
  return getUserById(db, userId);
}

export async function deleteUser(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM users WHERE user_id = $1', [userId]);
}

/**
 * The active administrators, locked until the transaction ends: two administrators demoting each other
 * at once cannot both pass the last-administrator check.
 */
export async function lockActiveAdmins(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ user_id: number }>(
    `SELECT user_id FROM users WHERE role = 'admin' AND is_active ORDER BY user_id FOR UPDATE`,
  );
  return rows.map((r) => r.user_id);
}

/** Whether the user has taken any action on an order (the audit trail names them: deactivate, never delete). */
export async function userHasOrderActions(db: Queryable, userId: number, username: string): Promise<boolean> {
  const { rows } = await db.query<{ acted: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM order_actions WHERE user_ref = $1 OR user_id = $2) AS acted',
    [userId, username],
  );
  return rows[0]?.acted === true;
}

/** A broker-type user's trader party, as their fills name the executing trader. */
export interface TraderParty {
  trader_id: string;
  trader_party_id_source: string | null;
  trader_full_name: string | null;
}

export async function findTraderParty(db: Queryable, userId: number): Promise<TraderParty | undefined> {
  const { rows } = await db.query<TraderParty>(
    `SELECT trader_id, trader_party_id_source, trader_full_name FROM users WHERE user_id = $1 AND user_type = 'broker' AND trader_id IS NOT NULL`,
    [userId],
  );
  return rows[0];
}
