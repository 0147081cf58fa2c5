// Test support: a fresh, migrated database of either kind. Used by this package's tests and by the
// integration tests; never by production code.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type Db, type DatabaseKind } from './db';
import { migrate } from './migrate';

/** The PostgreSQL server the API tests run against (trust auth on this machine and in CI). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const TEST_DB_KINDS: readonly DatabaseKind[] = ['pglite', 'postgres'];

export interface TestDatabase {
  db: Db;
  kind: DatabaseKind;
  /** For PostgreSQL: the URL of the throwaway database (to start a server on it). */
  url?: string;
  /** Closes the handle and drops the throwaway database. */
  dispose(): Promise<void>;
}

/** A new empty database: PGlite in memory, or a freshly created PostgreSQL database. */
export async function createTestDatabase(kind: DatabaseKind, opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = await openDb({ dataDir: 'memory://' });
    if (opts.migrate !== false) await migrate(db);
    return { db, kind, dispose: () => db.close() };
  }
  const name = `fixdesk_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString(), poolSize: 5 });
  if (opts.migrate !== false) await migrate(db);
  return {
    db,
    kind,
    url: url.toString(),
    async dispose() {
      await db.close();
      const c = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
