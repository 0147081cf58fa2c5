import type { Queryable } from '../db';

/** A round trip to the database: throws when it does not answer. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
