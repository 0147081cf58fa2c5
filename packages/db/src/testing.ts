// Test support: a fresh, migrated database of either kind. Used by this package's tests and by the
// integration tests; never by production code.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb, type Db, type DatabaseKind } from './db';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

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

/**
 * A database prepared once and copied for each test that asks for it (migrated and seeded, say): most
 * of a test server's start is PGlite creating an empty cluster and the seed filling it. `key` names
 * everything `build` depends on beyond the migrations (which are part of the key anyway); a changed
 * key builds a new template.
 */
export interface TestTemplate {
  readonly key: string;
  build(db: Db): Promise<void>;
}

/**
 * The migrations alone, as a template: a database asked for migrated and of no other template is a
 * copy of one that ran them (the same schema and rows as one migrated there and then), so each run
 * migrates once per kind, not once per test database (seconds of CPU each on PGlite).
 */
const MIGRATED: TestTemplate = { key: 'migrated', build: async () => {} };

/** A new database: PGlite in memory or a freshly created PostgreSQL database; empty, migrated, or a copy of a template. */
export async function createTestDatabase(
  kind: DatabaseKind,
  opts: { migrate?: boolean; template?: TestTemplate } = {},
): Promise<TestDatabase> {
  const template = opts.template ?? (opts.migrate === false ? undefined : MIGRATED);
  if (kind === 'pglite') {
    const db = template ? await pgliteFromTemplate(template) : await openDb({ dataDir: 'memory://' });
    if (!template && opts.migrate !== false) await migrate(db);
    return { db, kind, dispose: () => db.close() };
  }
  const name = `fixdesk_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    if (template) await createFromTemplate(admin, name, template);
    else await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString(), poolSize: 5 });
  if (!template && opts.migrate !== false) await migrate(db);
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

/** A template's identity: its key and every migration's text (a name for its copies on disk). */
export function templateHash(template: TestTemplate): string {
  const h = createHash('sha256').update(template.key);
  for (const m of MIGRATIONS) h.update(`\n${m.version}\n${m.sql}`);
  return h.digest('hex').slice(0, 16);
}

const PGLITE_TEMPLATE_PREFIX = 'fixdesk-pglite-template-';

/** A template of other sources unused this long is removed by the next build of another. */
const STALE_TEMPLATE_MS = 24 * 3600_000;

/** Marks a template file or directory in the temp directory as in use: its age counts from its last use. */
export function touchTemplate(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Removed meanwhile: it was read already.
  }
}

/**
 * Removes the templates in the temp directory (names `isTemplate` accepts) other than `keep` that were
 * not used for a day: a second checkout of other sources on this machine may be using its own now.
 */
export function removeStaleTemplates(isTemplate: (name: string) => boolean, keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!isTemplate(name) || path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_TEMPLATE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process.
    }
  }
}

/**
 * PGlite: the template is a tarball in the temp directory, shared by the test processes of a run (and
 * later runs of the same sources). The first process to need it builds it; a process that finds it
 * loads it. Written under a temporary name and renamed, so a reader never sees half a file.
 */
async function pgliteFromTemplate(template: TestTemplate): Promise<Db> {
  const file = join(tmpdir(), `${PGLITE_TEMPLATE_PREFIX}${templateHash(template)}.tar`);
  let tarball: Buffer | undefined;
  try {
    tarball = readFileSync(file);
  } catch {
    tarball = undefined;
  }
  if (tarball) {
    touchTemplate(file);
    return openDb({ dataDir: 'memory://', loadDataDir: new Blob([new Uint8Array(tarball)]) });
  }
  const db = await openDb({ dataDir: 'memory://' });
  await migrate(db);
  await template.build(db);
  const dump = Buffer.from(await (await db.dumpDataDir!()).arrayBuffer());
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, dump);
  renameSync(partial, file);
  removeStaleTemplates((name) => name.startsWith(PGLITE_TEMPLATE_PREFIX) && name.endsWith('.tar'), file);
  return db;
}

/** CREATE DATABASE from the template; once more if another process dropped the template in between. */
async function createFromTemplate(admin: pg.Client, name: string, template: TestTemplate): Promise<void> {
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(admin, template)}`);
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(admin, template)}`);
  }
}

/**
 * PostgreSQL: the template is a database (fixdesk_tpl_<hash>) that test databases are created from
 * with CREATE DATABASE … TEMPLATE (a file copy). Built under a lock by the first process that needs it,
 * under another name and renamed when complete; nobody stays connected to it, as the copy requires.
 */
async function postgresTemplate(admin: pg.Client, template: TestTemplate): Promise<string> {
  const hash = templateHash(template);
  const name = `fixdesk_tpl_${hash}`;
  const exists = async () => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  if (await exists()) return name;
  const lock = Number.parseInt(hash.slice(0, 8), 16);
  await admin.query('SELECT pg_advisory_lock($1)', [lock]);
  try {
    if (await exists()) return name;
    const building = `fixdesk_tplbuild_${hash}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${building}`;
    const db = await openDb({ databaseUrl: url.toString(), poolSize: 2 });
    try {
      await migrate(db);
      await template.build(db);
    } finally {
      await db.close();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    await admin.query(`COMMENT ON DATABASE ${name} IS '${new Date().toISOString()}'`);
    // Templates of other sources built over a day ago are of no further use (one being copied right
    // now stays: the drop fails); a second checkout of other sources may be using a newer one.
    const stale = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database d LEFT JOIN pg_shdescription s ON s.objoid = d.oid AND s.classoid = 'pg_database'::regclass
        WHERE datname LIKE 'fixdesk\\_tpl\\_%' AND datname <> $1 AND coalesce(s.description, '') < $2`,
      [name, new Date(Date.now() - STALE_TEMPLATE_MS).toISOString()],
    );
    for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => {});
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [lock]);
  }
}
