import { PGlite } from '@electric-sql/pglite';
import { PgliteNamedStatements } from './pglite-named';
import pg from 'pg';
import { asConstraintViolation } from './constraint-errors';
import { lockDataDir } from './data-dir-lock';
import { secureDataDir, type ModeChange } from './data-dir-permissions';
import { parseTimestamptz } from './timestamp-parser';

/** A statement refused by a constraint fails with a ConstraintViolation (constraint-errors.ts), any other error as it is. */
function raiseConstraintViolation(err: unknown): never {
  throw asConstraintViolation(err);
}

/** Result of one statement. Rows come typed the same on both engines (see the parsers below). */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * Prepare the statement once per connection under this name and reuse the plan (PostgreSQL, and PGlite
   * through pglite-named.ts). For hot statements whose planning costs as much as running them; one name,
   * one text.
   */
  readonly name?: string;
  /**
   * With a name: plan each run for its own parameters (the statement is still parsed once), for a
   * statement whose generic plan is poor. PGlite only: on PostgreSQL the generic plans of the named
   * statements were measured good (docs/adr/0017), and node-postgres has no per-statement setting.
   */
  readonly replan?: boolean;
  /**
   * 'array': each row is an array of the column values in select order instead of an object (no
   * property per column to create; for wide, long results read by position).
   */
  readonly rowMode?: 'array';
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
}

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * The one database handle the server and repositories use. The same SQL runs on embedded PGlite
 * (real Postgres compiled to WASM, one connection) and on a PostgreSQL server (a pool).
 *
 * Value mapping, identical on both: int8/bigserial → number (ids stay far below 2^53),
 * numeric → string (exact; money and quantities never become floats), timestamptz → Date,
 * json/jsonb → parsed value.
 */
export interface Db extends Queryable {
  readonly kind: DatabaseKind;
  /** Runs fn in one transaction on one connection; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a multi-statement SQL script without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * LISTEN on a channel; returns the function that stops listening. PostgreSQL: the listening
   * connection is re-established when it drops, and `onResubscribed` is then called (notifications
   * sent meanwhile are lost: the caller resyncs from the tables).
   */
  listen(channel: string, onPayload: (payload: string) => void, onResubscribed?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Connections: in the pool, idle, callers waiting for one, the most allowed (PGlite: one, never idle-counted). */
  poolStats?(): PoolStats;
  /** PGlite only: the whole database as a tarball, which `loadDataDir` opens again (test templates). */
  dumpDataDir?(): Promise<Blob>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface OpenDbOptions {
  /** postgres://… → PostgreSQL; unset → embedded PGlite stored in dataDir. */
  databaseUrl?: string | undefined;
  /** Directory for the embedded database (created if missing). `memory://` keeps it in memory (tests). */
  dataDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** PGlite only: start from this tarball (a `dumpDataDir` of another database) instead of an empty one. */
  loadDataDir?: Blob | undefined;
  /**
   * PGlite only: told what was readable by other local users and is no longer (data-dir-permissions.ts):
   * `existing` before the database opened (a directory made by an older version, or by hand), `created`
   * what PGlite itself made so as it opened (its files unpacked on a first start).
   */
  onDataDirSecured?: ((changes: { existing: readonly ModeChange[]; created: readonly ModeChange[] }) => void) | undefined;
}

export async function openDb(opts: OpenDbOptions): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolSize ?? 10);
  return openPglite(opts.dataDir ?? './data', opts.loadDataDir, opts.onDataDirSecured);
}

// ---------------------------------------------------------------------------------------------
// PGlite

const INT8_OID = 20;
const TIMESTAMPTZ_OID = 1184;

async function openPglite(dataDir: string, loadDataDir?: Blob, onSecured?: OpenDbOptions['onDataDirSecured']): Promise<Db> {
  let location: string | undefined;
  let unlock = () => {};
  let existing: ModeChange[] = [];
  if (dataDir !== 'memory://') {
    const root = dataDir.replace(/\/$/, '');
    location = `${root}/pglite`;
    // Closed to other local users before anything is written (data-dir-permissions.ts).
    existing = secureDataDir(root, 'pglite');
    // Single-node: a second process on the same directory is refused (data-dir-lock.ts).
    unlock = lockDataDir(dataDir);
  }
  let lite: PGlite;
  try {
    lite = await PGlite.create(location ?? 'memory://', {
      parsers: { [INT8_OID]: (v: string) => Number(v) },
      ...(loadDataDir ? { loadDataDir } : {}),
    });
  } catch (err) {
    unlock();
    throw err;
  }
  if (location !== undefined) {
    const created = secureDataDir(dataDir.replace(/\/$/, ''), 'pglite');
    onSecured?.({ existing, created });
  }
  // PGlite has a single connection: a transaction holds it, so plain queries issued meanwhile wait.
  // That serialisation is what PGlite itself does; we only keep the API the same as for the pool.
  // A named statement is parsed once and run by its name (pglite-named.ts), as on PostgreSQL.
  const named = new PgliteNamedStatements(lite);
  const wrap = (q: { query: PGlite['query']; readonly closed?: boolean }, inTransaction: boolean): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      // As PGlite's own tx.query: a statement on a transaction that has ended must not run in the next one.
      if (q.closed) throw new Error('Transaction is closed');
      const pgliteOptions = options?.rowMode ? { rowMode: options.rowMode } : undefined;
      const r = await (
        options?.name
          ? named.query<T>(options.name, sql, params ?? [], pgliteOptions, inTransaction, options.replan === true)
          : q.query<T>(sql, params as unknown[] | undefined, pgliteOptions)
      ).catch(raiseConstraintViolation);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
  });
  const base = wrap(lite, false);
  return {
    kind: 'pglite',
    query: base.query,
    transaction: (fn) => lite.transaction((tx) => fn(wrap(tx, true))),
    exec: async (sql) => {
      await lite.exec(sql);
    },
    listen: async (channel, onPayload) => {
      const unsub = await lite.listen(channel, onPayload);
      return async () => unsub();
    },
    close: async () => {
      try {
        await lite.close();
      } finally {
        unlock();
      }
    },
    poolStats: () => ({ total: 1, idle: 0, waiting: 0, max: 1 }),
    dumpDataDir: () => lite.dumpDataDir('none'),
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

function pgTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: string) => {
      if (oid === INT8_OID) return (v: string) => Number(v);
      if (oid === TIMESTAMPTZ_OID && format !== 'binary') {
        const general = pg.types.getTypeParser(oid, 'text');
        return (v: string) => parseTimestamptz(v, general);
      }
      return pg.types.getTypeParser(oid, format as 'text');
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/** The application_name of the connection that LISTENs (seen in pg_stat_activity). */
export const LISTENER_APPLICATION_NAME = 'fixdesk_listen';

async function openPostgres(url: string, poolSize: number): Promise<Db> {
  // Connections are kept, not closed after 10 s idle (the pool's default): a new one costs its start and,
  // on its first statements, PostgreSQL's catalog caches and the named statements prepared again (a
  // Desk Insights call took 80-220 ms on a fresh connection against 25-45 ms on a used one), which every
  // call after a quiet spell paid. allowExitOnIdle: idle connections do not keep a process alive.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes(), idleTimeoutMillis: 0, allowExitOnIdle: true });
  // A broken idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Fail fast at start when the server is unreachable.
  const probe = await pool.connect();
  probe.release();

  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      const values = params as unknown[] | undefined;
      const config: pg.QueryConfig = options?.name ? { name: options.name, text: sql, values } : { text: sql, values };
      const r = await (
        options?.rowMode ? c.query({ ...config, rowMode: options.rowMode }) : options?.name ? c.query(config) : c.query(sql, values)
      ).catch(raiseConstraintViolation);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
  });
  const base = wrap(pool);
  // One connection LISTENs for every channel; when it drops it is made again, every channel listened
  // to again, and the listeners told (they resync: what was notified meanwhile is gone).
  let listener: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(p: string) => void>>();
  const resubscribed = new Set<() => void>();
  const connectListener = async (): Promise<pg.Client> => {
    const c = new pg.Client({ connectionString: url, types: pgTypes(), application_name: LISTENER_APPLICATION_NAME });
    c.on('error', () => {});
    await c.connect();
    c.on('notification', (n) => {
      for (const h of handlers.get(n.channel) ?? []) h(n.payload ?? '');
    });
    c.on('end', () => {
      if (listener !== c) return;
      listener = undefined;
      if (!closed) reconnectSoon();
    });
    for (const channel of handlers.keys()) await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    listener = c;
    return c;
  };
  const ensureListener = (): Promise<pg.Client> =>
    listener ? Promise.resolve(listener) : (connecting ??= connectListener().finally(() => (connecting = undefined)));
  const reconnectSoon = () => {
    const t = setTimeout(() => {
      if (closed) return;
      ensureListener().then(
        () => {
          for (const f of resubscribed) f();
        },
        () => reconnectSoon(),
      );
    }, 200);
    t.unref();
  };

  return {
    kind: 'postgres',
    query: base.query,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    async transaction(fn) {
      const client = await pool.connect();
      // A connection cut while the transaction holds it between two statements emits 'error' with
      // nobody listening (the pool listens to idle connections only), which would end the process:
      // the error is kept instead, the next statement fails with it, and the connection is discarded.
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken = err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async listen(channel, onPayload, onResubscribed) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        const c = await ensureListener();
        // A connection made just now already listens to it.
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } else await ensureListener();
      set.add(onPayload);
      if (onResubscribed) resubscribed.add(onResubscribed);
      return async () => {
        set.delete(onPayload);
        if (onResubscribed) resubscribed.delete(onResubscribed);
      };
    },
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
