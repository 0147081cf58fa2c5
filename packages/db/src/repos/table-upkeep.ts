import type { Queryable } from '../db';

// Table upkeep on embedded PGlite (docs/adr/0020): what PostgreSQL's autovacuum does on a server, which
// PGlite, one backend and no background processes, never does. Without it every updated row (an order
// accepted, filled, done for day) leaves a dead version behind for good, the tables and their indexes
// only grow, and the planner keeps the statistics of the day each table was created. The rules are
// autovacuum's own, with the database's own settings (their defaults unless changed):
//   vacuum  when dead rows > autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × rows,
//           or rows inserted since the last vacuum > autovacuum_vacuum_insert_threshold
//           + autovacuum_vacuum_insert_scale_factor × rows (sets pages all-visible, freezes),
//           or the table's oldest unfrozen transaction is older than autovacuum_freeze_max_age;
//   analyze when rows changed since the last analyze > autovacuum_analyze_threshold
//           + autovacuum_analyze_scale_factor × rows.
// The counters are PostgreSQL's cumulative statistics (pg_stat_user_tables), which PGlite keeps too.

/** A table past one of autovacuum's thresholds, and what it needs. */
export interface TableUpkeepDue {
  readonly schema: string;
  readonly table: string;
  /** VACUUM (its dead rows, its inserts, or its age). */
  readonly vacuum: boolean;
  /** ANALYZE (fresh statistics for the planner). */
  readonly analyze: boolean;
}

/** Every user table that autovacuum's rules (above) say is due, largest first. */
export async function tablesDueForUpkeep(db: Queryable): Promise<TableUpkeepDue[]> {
  const { rows } = await db.query<TableUpkeepDue>(
    `WITH s AS (
       SELECT current_setting('autovacuum_vacuum_threshold')::float8 AS vt,
              current_setting('autovacuum_vacuum_scale_factor')::float8 AS vs,
              current_setting('autovacuum_vacuum_insert_threshold')::float8 AS it,
              current_setting('autovacuum_vacuum_insert_scale_factor')::float8 AS "is",
              current_setting('autovacuum_analyze_threshold')::float8 AS at,
              current_setting('autovacuum_analyze_scale_factor')::float8 AS "as",
              current_setting('autovacuum_freeze_max_age')::float8 AS fma
     ), t AS (
       SELECT u.schemaname AS schema, u.relname AS "table", greatest(c.reltuples, 0) AS n, c.relpages,
              u.n_dead_tup > s.vt + s.vs * greatest(c.reltuples, 0)
                OR (s.it >= 0 AND u.n_ins_since_vacuum > s.it + s.is * greatest(c.reltuples, 0))
                OR age(c.relfrozenxid) > s.fma AS "vacuum",
              u.n_mod_since_analyze > s.at + s.as * greatest(c.reltuples, 0) AS "analyze"
         FROM pg_stat_user_tables u
         JOIN pg_class c ON c.oid = u.relid
        CROSS JOIN s
     )
     SELECT schema, "table", "vacuum", "analyze" FROM t WHERE "vacuum" OR "analyze" ORDER BY relpages DESC, "table"`,
  );
  return rows;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Vacuums and/or analyzes one table, as due (a statement of its own: other queries run between two tables). */
export async function upkeepTable(db: Queryable, due: TableUpkeepDue): Promise<void> {
  const name = `${quoteIdent(due.schema)}.${quoteIdent(due.table)}`;
  if (due.vacuum) await db.query(`VACUUM ${due.analyze ? '(ANALYZE) ' : ''}${name}`);
  else if (due.analyze) await db.query(`ANALYZE ${name}`);
}

/**
 * Rows the desk's trading has written so far (inserted and updated orders, order actions, execution
 * reports and FIX messages, by the cumulative statistics): unchanged between two looks, nobody traded.
 */
export async function tradingWrites(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: string | number | null }>(
    `SELECT sum(n_tup_ins + n_tup_upd + n_tup_del) AS n FROM pg_stat_user_tables
      WHERE schemaname = current_schema() AND relname IN ('orders', 'order_actions', 'execution_reports', 'fix_messages')`,
  );
  return Number(rows[0]?.n ?? 0);
}
