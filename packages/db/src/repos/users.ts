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
