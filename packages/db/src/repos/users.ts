import type { Queryable } from '../db';

export interface UserRow {
  user_id: number;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  role: 'admin' | 'broker' | 'viewer' | 'user';
  user_type: string;
  is_active: boolean;
  last_login: Date | null;
}

export interface UserWithHash extends UserRow {
  password_hash: string;
}

const USER_COLUMNS = 'user_id, username, email, first_name, last_name, role, user_type, is_active, last_login';

export async function findUserByUsername(db: Queryable, username: string): Promise<UserWithHash | undefined> {
  const { rows } = await db.query<UserWithHash>(
    `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE lower(username) = lower($1)`,
    [username],
  );
  return rows[0];
}

export async function recordLogin(db: Queryable, userId: number): Promise<void> {
  await db.query('UPDATE users SET last_login = now() WHERE user_id = $1', [userId]);
}

/** Every user with its broker branch's name, for the user administration list. */
export async function listUsers(db: Queryable): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT u.user_id, u.username, u.email, u.first_name, u.last_name, u.whatsapp_number, u.role, u.user_type, u.is_active,
            u.last_login, u.broker_branch_id, b.company_name AS broker_company_name, u.trader_id, u.trader_license,
            u.trader_full_name, u.trader_party_id_source, u.created_at, u.updated_at
       FROM users u LEFT JOIN broker_information b ON b.id = u.broker_branch_id
      ORDER BY u.user_id`,
  );
  return rows;
}
