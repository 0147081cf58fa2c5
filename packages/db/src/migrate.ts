import { createHash } from 'node:crypto';
import type { Db } from './db';
import { MIGRATIONS, type Migration } from './migrations';

/** Any fixed number: it names the lock that lets one node at a time migrate a shared database. */
const MIGRATION_LOCK_KEY = 7_301_104;

export interface MigrationReport {
  applied: number[];
  current: number;
}

function checksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

/**
 * Applies pending migrations, each in its own transaction. Several nodes starting together on one
 * PostgreSQL take turns through an advisory lock. A shipped migration whose text changed is refused:
 * forward-only means a new migration, never an edit.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationReport> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    const { rows } = await tx.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations');
    const done = new Map(rows.map((r) => [r.version, r.checksum]));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      const sum = checksum(m.sql);
      const prior = done.get(m.version);
      if (prior !== undefined) {
        if (prior !== sum)
          throw new Error(`migration ${m.version} (${m.name}) was changed after it was applied; add a new migration instead`);
        continue;
      }
      // The migrations are statements without parameters; one round trip each.
      for (const stmt of splitStatements(m.sql)) await tx.query(stmt);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [m.version, m.name, sum]);
      applied.push(m.version);
    }
    const current = Math.max(0, ...migrations.map((m) => m.version));
    return { applied, current };
  });
}

/**
 * Splits a migration script into statements at top-level semicolons (outside quotes, comments and
 * dollar-quoted bodies), because a parameterised-protocol query takes one statement at a time.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '$') {
      const m = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (m) {
        const end = sql.indexOf(m[0], i + m[0].length);
        i = end < 0 ? sql.length : end + m[0].length;
      } else i++;
    } else if (c === ';') {
      const stmt = sql.slice(start, i).trim();
      if (stripComments(stmt)) out.push(stmt);
      start = ++i;
    } else i++;
  }
  const tail = sql.slice(start).trim();
  if (stripComments(tail)) out.push(tail);
  return out;
}

function stripComments(s: string): string {
  return s.replace(/--[^\n]*/g, '').trim();
}
