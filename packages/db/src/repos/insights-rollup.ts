import type { Db } from '../db';
import { pgArray } from '../pg-array';

// Desk Insights rollups (issue 31, docs/adr/0019, tables in migration 28). A background step, run by
// every node every few seconds (apps/server/src/insights-rollup.ts), folds what was written since the
// last step into per-bucket aggregates: the orders and refusals created before a horizon (the
// database's time of their write, now minus a lag), and the order actions up to an id (insertion
// order, so an action on an old order lands in the bucket of that order however late it comes). No
// trigger and nothing on the intake's path: the intake writes as before, and the charts read the folded
// part from here and only the rest (the last seconds, or what the backfill has not reached) raw.
//
// Each step is one transaction that first locks the single state row (FOR UPDATE SKIP LOCKED): a second
// node that runs its step meanwhile finds the row locked and returns at once; the next one reads the
// advanced state. A step folds at most a chunk (orders by time, actions by id), so the first steps
// after the migration backfill history a chunk at a time; the server runs the next step at once while
// a step was full.

/** The widths of the buckets, in minutes: 15 (every zone in use has its hours on a quarter hour of UTC), an hour, a UTC day. */
export const ROLLUP_WIDTHS = [15, 60, 1440] as const;
/**
 * The widths of the histograms and contracts (insights_answer_hist, insights_fills) for the whole desk
 * (client '*'): an hour and a UTC day. By quarter hour they would hold about as many rows as the raw
 * data (a desk of 8,000 orders a day has two or three orders per client per quarter hour, each in its
 * own bin).
 */
export const DESK_WIDTHS = [60, 1440] as const;
/**
 * Their widths per client (docs/adr/0019, amendment 2): the contracts and each user's histograms by UTC
 * day only (a client's day of a few hundred orders shares its bins; by hour, as many rows as orders);
 * the histograms of all users ('*') by hour and day, so a client's periods in a zone off UTC (a
 * Singapore day is 24 hours of UTC) are read from them. What a call's periods need in a width a client
 * has not is read raw: each user's figures for the hours at the ends of a range that are not whole UTC
 * days, for example.
 */
export const CLIENT_WIDTHS = [1440] as const;
export const CLIENT_ALL_USERS_WIDTHS = [60, 1440] as const;

/** Durations are binned by floor(ln(µs) / ln(BASE)); a bin read as its geometric middle is within sqrt(BASE) - 1 (4.88%) of any value in it. */
export const HISTOGRAM_BASE = 1.1;
/** The largest relative error of a percentile read from the histograms (and 1 µs for values under 1 µs). */
export const HISTOGRAM_RELATIVE_ERROR = Math.sqrt(HISTOGRAM_BASE) - 1;

/** The bin of a duration `us` (microseconds, numeric), in SQL: -1 for zero (or less). */
export const binSql = (us: string) => `CASE WHEN ${us} <= 0 THEN -1 ELSE floor(ln(${us}) / ln(${HISTOGRAM_BASE}))::int END`;

/** A bin's value in milliseconds: its geometric middle. */
export const binValueMs = (bin: number) => (bin < 0 ? 0 : Math.pow(HISTOGRAM_BASE, bin + 0.5) / 1000);

/**
 * Per order of `orders_sql` (columns id, created_at, sendercompid, exchange, symbol, cap, sign): its
 * first answer (accept or reject, by time then id) and who made it, its first accept, its first fill and
 * who made it, from its actions with ids up to `cap`; as histogram entries (measure, username, bin, n),
 * with the orders' columns `keep` as well. Used by the roll-up (the orders folded: +1 up to the new id,
 * -1 up to the old one) and by the calls (the tail: what came after the roll-up).
 */
export const answerEntries = (ordersSql: string, keep: readonly string[] = []) => `
  answer_orders AS (${ordersSql}),
  answer_firsts AS (
    SELECT o.*, x.answered_at, x.answered_by, x.accepted_at, x.filled_at, x.filled_by
      FROM answer_orders o
      CROSS JOIN LATERAL (
        SELECT (array_agg(a.created_at ORDER BY a.created_at, a.id) FILTER (WHERE a.action_type IN ('ACCEPT', 'REJECT')))[1] AS answered_at,
               (array_agg(a.user_id ORDER BY a.created_at, a.id) FILTER (WHERE a.action_type IN ('ACCEPT', 'REJECT')))[1] AS answered_by,
               min(a.created_at) FILTER (WHERE a.action_type = 'ACCEPT') AS accepted_at,
               (array_agg(a.created_at ORDER BY a.created_at, a.id) FILTER (WHERE a.action_type IN ('FILL', 'PARTIAL_FILL')))[1] AS filled_at,
               (array_agg(a.user_id ORDER BY a.created_at, a.id) FILTER (WHERE a.action_type IN ('FILL', 'PARTIAL_FILL')))[1] AS filled_by
          FROM order_actions a
         WHERE a.order_id = o.id AND a.id <= o.cap AND a.action_type IN ('ACCEPT', 'REJECT', 'FILL', 'PARTIAL_FILL')
      ) x
  ),
  answer_entries AS (
    SELECT f.id, f.created_at, f.sendercompid, f.exchange, f.symbol, f.sign, ${keep.map((c) => `f.${c}, `).join('')}m.measure, m.username,
           ${binSql('m.us')} AS bin
      FROM answer_firsts f
     CROSS JOIN LATERAL (VALUES
       ('a', f.answered_by, extract(epoch FROM f.answered_at - f.created_at) * 1000000),
       ('f', f.filled_by, extract(epoch FROM f.filled_at - f.accepted_at) * 1000000),
       ('c', NULL, CASE WHEN f.accepted_at IS NOT NULL THEN 0 END)) m (measure, username, us)
     WHERE m.us IS NOT NULL
  )`;

/** What fill_rows (below) selects of an action `a` and its order `o`. */
export const FILL_ROW_COLUMNS = `o.sendercompid, o.exchange AS o_exchange, o.symbol AS o_symbol, o.id AS order_id, o.msg_type, o.maturity_month_year,
  a.fill_qty, a.fill_price, a.leg_index, a.created_at`;
/** The condition on a fill action `a`. */
export const FILL_ACTION = `a.action_type IN ('FILL', 'PARTIAL_FILL') AND a.fill_qty IS NOT NULL`;

/**
 * The fills of `rowsSql` (selecting FILL_ROW_COLUMNS), on their contracts, as fill_rows then
 * fill_lots (c_symbol, c_month, lots, px): an outright's on the order's symbol and month; a fill on one
 * leg of a spread on that leg's contract; a fill of a spread at its own price on each leg's contract,
 * its lots times the leg's ratio, at the leg's price when the order gave one.
 */
export const fillContracts = (rowsSql: string) => `
  fill_rows AS (${rowsSql}),
  fill_lots AS (
    SELECT f.*,
           coalesce(l.leg_symbol, f.o_symbol) AS c_symbol,
           CASE WHEN l.order_id IS NULL THEN f.maturity_month_year ELSE l.leg_maturity_month_year END AS c_month,
           f.fill_qty * CASE WHEN f.leg_index IS NULL AND l.order_id IS NOT NULL THEN l.leg_ratio_qty ELSE 1 END AS lots,
           CASE WHEN f.leg_index IS NULL AND l.order_id IS NOT NULL THEN l.leg_price ELSE f.fill_price END AS px
      FROM fill_rows f
      -- Each spread's legs by key (OFFSET 0 keeps the lookup per fill: joined, the planner hashed every
      -- leg of all time when it expected many fills).
      LEFT JOIN LATERAL (SELECT l.* FROM order_legs l
                          WHERE f.msg_type = 'AB' AND l.order_id = f.order_id AND (f.leg_index IS NULL OR l.leg_index = f.leg_index) OFFSET 0) l ON true
  )`;

export interface RollupStep {
  /** Another node held the state row: nothing done. */
  busy: boolean;
  /** Whether the step folded everything there was (false: a chunk was full, run again). */
  caughtUp: boolean;
  orders: number;
  actions: number;
  horizon: Date | null;
  actionId: number;
  /** Milliseconds per statement of the step. */
  timings: Record<string, number>;
}

export interface RollupOptions {
  /** Rows written less than this long ago are left for the next step (a write's transaction may not have committed yet). */
  lagMs?: number;
  /** At most this many orders per step. */
  orderChunk?: number;
  /** At most this many actions per step. */
  actionChunk?: number;
}

/** The security master joined to an order (or refused order) `o` by symbol (one row per symbol at most). */
const SM_JOIN = `LEFT JOIN security_master sm ON upper(sm.symbol) = upper(o.symbol)`;
/** The exchange an order `o` is on (its SecurityExchange, else its security's), upper case; null: none known. */
const EXCH_KEY = `upper(coalesce(o.exchange, sm.exchange)) AS ek`;
const bucket15 = (col: string) => `date_bin('15 minutes', ${col}, timestamptz 'epoch')`;

/**
 * Adds `src` (rows of bucket (15 minutes), client, ek, the `dims` and the `sums`) into `table`: each row
 * in every width, under its client (a trading client's, `trading` the list, also under '*'; per client
 * in the `clientWidths` only) and under its exchange and '*'; `extra` may multiply the rows further
 * (the broker user and '*').
 */
function expandInto(
  table: string,
  dims: string[],
  sums: string[],
  trading: string,
  src: string,
  opts: { extra?: string; widths?: readonly number[]; clientWidths?: readonly number[] } = {},
): string {
  const widths = opts.widths ?? ROLLUP_WIDTHS;
  const own = `w.width = ANY ('{${(opts.clientWidths ?? widths).join(',')}}'::int[])`;
  const clients = `CASE WHEN s.client = ANY (${trading}::text[]) THEN CASE WHEN ${own} THEN ARRAY[s.client, '*'] ELSE ARRAY['*'] END
                        WHEN ${own} THEN ARRAY[s.client] ELSE '{}'::text[] END`;
  const keyCols = ['width', 'client', 'exch', 'bucket', ...dims];
  const dimSel = dims.map((d) => (d === 'username' ? 'ku.username' : `s.${d}`));
  return `INSERT INTO ${table} AS t (${[...keyCols, ...sums].join(', ')})
    SELECT w.width::smallint, c.client, e.exch, date_bin(make_interval(mins => w.width), s.bucket, timestamptz 'epoch'),
           ${[...dimSel, ...sums.map((x) => `sum(s.${x})`)].join(', ')}
      FROM (${src}) s
     CROSS JOIN (VALUES ${widths.map((w) => `(${w})`).join(', ')}) w (width)
     CROSS JOIN unnest(${clients}) c (client)
     CROSS JOIN unnest(CASE WHEN s.ek IS NULL THEN ARRAY['*'] ELSE ARRAY['*', s.ek] END) e (exch)
     ${opts.extra ?? ''}
     GROUP BY ${keyCols.map((_, i) => i + 1).join(', ')}
    ON CONFLICT (${keyCols.join(', ')}) DO UPDATE SET ${sums.map((x) => `${x} = t.${x} + excluded.${x}`).join(', ')}`;
}

/** The marks kept (one per step: at a step every 5 s, the last 20 minutes); older writers hold the actions where they are. */
const ACTION_MARKS = 240;

/**
 * What no transaction still open can hold, for this step (docs/adr/0019, amendment 1), from the oldest
 * writing transaction open in this database (pg_stat_activity; none on PGlite, which has one
 * connection): `cut`, the orders' horizon, now minus the lag or that transaction's start if earlier (its
 * rows' created_at is its start or later); `action_cap`, the highest action id a mark taken before that
 * start shows taken (every id it holds came later), the folded id if no mark is that old, and null
 * with no writer open; `mark`, the sequence as this step finds it, for the next steps. A writer of
 * another role shows no start to this one and is not seen.
 */
const IN_FLIGHT_SQL = `
  SELECT least(now() - make_interval(secs => $1::float8 / 1000), w.since)::text AS cut,
         CASE WHEN w.since IS NOT NULL
              THEN coalesce((SELECT max((m->>'seq')::bigint) FROM jsonb_array_elements(s.action_marks) m WHERE (m->>'at')::timestamptz < w.since),
                            s.action_id)::text END AS action_cap,
         jsonb_build_object('at', q.at, 'seq', q.seq) AS mark
    FROM insights_rollup_state s,
         (SELECT min(xact_start) AS since FROM pg_stat_activity
           WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() AND datname = current_database()) w,
         -- The time read after the sequence: every id up to seq was taken at or before it.
         LATERAL (SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS seq, clock_timestamp() AS at FROM order_actions_id_seq) q
   WHERE s.id = 1`;

/** One roll-up step (see above). */
export async function rollUpInsights(db: Db, opts: RollupOptions = {}): Promise<RollupStep> {
  const lagMs = opts.lagMs ?? 10_000;
  const orderChunk = opts.orderChunk ?? 50_000;
  const actionChunk = opts.actionChunk ?? 125_000;
  return db.transaction(async (raw) => {
    const timings: Record<string, number> = {};
    let part = 0;
    // Each statement's time, for the log and the benchmark.
    const tx = {
      query: async <R>(sql: string, params?: unknown[]) => {
        const t = performance.now();
        try {
          return await raw.query<R>(sql, params);
        } finally {
          timings[`s${++part}`] = Math.round(performance.now() - t);
        }
      },
    };
    await tx.query('SET LOCAL jit = off');
    const state = (
      await tx.query<{ orders_horizon: string; action_id: string; now: Date }>(
        `SELECT orders_horizon::text, action_id::text, now() AS now FROM insights_rollup_state WHERE id = 1 FOR UPDATE SKIP LOCKED`,
      )
    ).rows[0];
    if (!state) return { busy: true, caughtUp: false, orders: 0, actions: 0, horizon: null, actionId: 0, timings };
    // The new horizon: now minus the lag, or the time of the chunk's last order when there are more.
    // The values read first and given as values: the planner then reads the orders by their time index
    // and the actions by key from the old state (a subquery for them was planned as a sort of the rest).
    // The chunk's last order is looked for (a sort of the window's orders) only when the window holds
    // more than a chunk, counted first; and once: nth is materialized, where inlined its subquery ran
    // once for each of its three uses below (three sorts of every order of the window, EXPLAIN ANALYZE).
    const {
      cut,
      action_cap: actionCap,
      mark,
    } = (await tx.query<{ cut: string; action_cap: string | null; mark: unknown }>(IN_FLIGHT_SQL, [lagMs])).rows[0]!;
    const hOld = state.orders_horizon;
    const limits = (
      await tx.query<{ h_old: string; h_new: string; a_old: string; a_new: string; orders_full: boolean; actions_full: boolean }>(
        `WITH nth AS MATERIALIZED (
                SELECT CASE WHEN (SELECT count(*) FROM (SELECT FROM orders WHERE created_at >= $1::timestamptz AND created_at < $3::timestamptz
                                                         LIMIT $4::int + 1) w) > $4::int
                            THEN (SELECT created_at FROM orders WHERE created_at >= $1::timestamptz AND created_at < $3::timestamptz
                                   ORDER BY created_at OFFSET $4::int LIMIT 1) END AS at),
              acts AS MATERIALIZED (SELECT a.id, a.created_at FROM order_actions a WHERE a.id > $2::bigint ORDER BY a.id LIMIT $5::int),
              young AS (SELECT min(acts.id) AS id FROM acts WHERE acts.created_at >= $3::timestamptz)
         SELECT $1::timestamptz::text AS h_old,
                greatest($1::timestamptz, CASE WHEN nth.at = $1::timestamptz THEN nth.at + interval '1 microsecond' ELSE coalesce(nth.at, $3::timestamptz) END)::text AS h_new,
                $2::bigint::text AS a_old,
                greatest($2::bigint, least(coalesce((SELECT id - 1 FROM young WHERE id IS NOT NULL), (SELECT max(id) FROM acts), $2::bigint),
                                           coalesce($6::bigint, (SELECT max(id) FROM acts), $2::bigint)))::text AS a_new,
                nth.at IS NOT NULL AS orders_full,
                (SELECT count(*) FROM acts) >= $5::int AND (SELECT id FROM young) IS NULL
                  AND ($6::bigint IS NULL OR $6::bigint >= (SELECT max(id) FROM acts)) AS actions_full
           FROM nth`,
        [hOld, state.action_id, cut, orderChunk, actionChunk, actionCap],
      )
    ).rows[0]!;
    const trading = (
      await tx.query<{ comp_id: string }>(`SELECT comp_id FROM client_connectors WHERE session_type = 'order_entry' ORDER BY comp_id`)
    ).rows.map((r) => r.comp_id);
    // $1 old horizon, $2 new horizon, $3 old action id, $4 new action id, $5 the trading clients.
    const p = [limits.h_old, limits.h_new, limits.a_old, limits.a_new, pgArray(trading)];
    const newOrders = `o.created_at >= $1::timestamptz AND o.created_at < $2::timestamptz`;
    const newActions = `a.id > $3::bigint AND a.id <= $4::bigint`;

    // Order flow: arrivals and refusals by their time, accepts, rejects and fills by theirs.
    await tx.query(
      `WITH ev AS (
         SELECT o.created_at AS at, o.sendercompid, ${EXCH_KEY}, 1 AS received, 0 AS refused, 0 AS accepted, 0 AS rejected, 0 AS filled
           FROM orders o ${SM_JOIN} WHERE ${newOrders}
         UNION ALL
         SELECT o.created_at, o.sendercompid, ${EXCH_KEY}, 1, 1, 0, 0, 0 FROM refused_orders o ${SM_JOIN} WHERE ${newOrders}
         UNION ALL
         SELECT a.created_at, o.sendercompid, ${EXCH_KEY}, 0, 0, (a.action_type = 'ACCEPT')::int, (a.action_type = 'REJECT')::int,
                (a.action_type = 'FILL')::int
           FROM order_actions a JOIN orders o ON o.id = a.order_id ${SM_JOIN}
          WHERE ${newActions} AND a.action_type IN ('ACCEPT', 'REJECT', 'FILL')
       )
       ${expandInto(
         'insights_flow',
         [],
         ['received', 'refused', 'accepted', 'rejected', 'filled'],
         '$5',
         `
         SELECT ${bucket15('at')} AS bucket, sendercompid AS client, ek, sum(received) AS received, sum(refused) AS refused,
                sum(accepted) AS accepted, sum(rejected) AS rejected, sum(filled) AS filled
           FROM ev GROUP BY 1, 2, 3`,
       )}`,
      p,
    );

    // Refusals and broker rejects per OrdRejReason (a reject's from its order's first 35=8 150=8 report, 99 without).
    await tx.query(
      `WITH ev AS (
         SELECT o.created_at AS at, o.sendercompid, ${EXCH_KEY}, 'r' AS source, o.ordrejreason AS reason FROM refused_orders o ${SM_JOIN} WHERE ${newOrders}
         UNION ALL
         SELECT a.created_at, o.sendercompid, ${EXCH_KEY}, 'j',
                coalesce((SELECT er.ordrejreason FROM execution_reports er WHERE er.order_id = a.order_id AND er.exectype = '8' ORDER BY er.order_id, er.id LIMIT 1), 99)
           FROM order_actions a JOIN orders o ON o.id = a.order_id ${SM_JOIN}
          WHERE ${newActions} AND a.action_type = 'REJECT'
       )
       ${expandInto(
         'insights_reasons',
         ['source', 'reason'],
         ['n'],
         '$5',
         `
         SELECT ${bucket15('at')} AS bucket, sendercompid AS client, ek, source, reason, count(*) AS n FROM ev GROUP BY 1, 2, 3, 4, 5`,
       )}`,
      p,
    );

    // Fills on their contracts (the desk's by hour and day, each client's by day), and each client's lots.
    await tx.query(
      `WITH ${fillContracts(
        `SELECT ${FILL_ROW_COLUMNS}, ${EXCH_KEY} FROM order_actions a JOIN orders o ON o.id = a.order_id ${SM_JOIN}
          WHERE ${FILL_ACTION} AND a.id > $1::bigint AND a.id <= $2::bigint`,
      )},
       per_contract AS (
         ${expandInto(
           'insights_fills',
           ['symbol', 'month'],
           ['lots', 'lots_px', 'fills'],
           '$3',
           `SELECT ${bucket15('f.created_at')} AS bucket, f.sendercompid AS client, f.ek, f.c_symbol AS symbol, coalesce(f.c_month, '') AS month,
                   sum(f.lots) AS lots, coalesce(sum(f.lots * f.px) FILTER (WHERE f.px IS NOT NULL), 0) AS lots_px, count(*) AS fills
              FROM fill_lots f GROUP BY 1, 2, 3, 4, 5`,
           { widths: DESK_WIDTHS, clientWidths: CLIENT_WIDTHS },
         )}
       )
       ${expandInto(
         'insights_flow',
         [],
         ['lots'],
         '$3',
         `
         SELECT ${bucket15('f.created_at')} AS bucket, f.sendercompid AS client, f.ek, sum(f.lots) AS lots FROM fill_lots f GROUP BY 1, 2, 3`,
       )}`,
      [limits.a_old, limits.a_new, pgArray(trading)],
    );

    // The orders this step touches: those it folds (created in the window), and those folded before
    // that have an action in the window (an answer or fill of an old order). The two parts are disjoint
    // (created in the window, created before it), so they are appended, not deduplicated.
    await tx.query(
      `CREATE TEMP TABLE IF NOT EXISTS insights_touched (id bigint PRIMARY KEY, is_new boolean NOT NULL) ON COMMIT DELETE ROWS`,
    );
    await tx.query(
      `INSERT INTO insights_touched (id, is_new)
       SELECT o.id, true FROM orders o WHERE ${newOrders}
       UNION ALL
       SELECT DISTINCT o.id, false FROM order_actions a JOIN orders o ON o.id = a.order_id WHERE ${newActions} AND o.created_at < $1::timestamptz`,
      p.slice(0, 4),
    );
    await tx.query('ANALYZE insights_touched');

    // Time to answer: the touched orders' entries up to the new action id, less those up to the old one
    // for orders folded before. A new order without an answer or fill up to the new id has no entry
    // (all three measures are null), so only those with one are read (a key lookup, not an aggregate).
    await tx.query(
      `WITH ${answerEntries(
        `SELECT o.id, o.created_at, o.sendercompid, o.exchange, o.symbol, $2::bigint AS cap, 1 AS sign
           FROM insights_touched t JOIN orders o ON o.id = t.id
          WHERE NOT t.is_new
             OR EXISTS (SELECT FROM order_actions a
                         WHERE a.order_id = o.id AND a.id <= $2::bigint AND a.action_type IN ('ACCEPT', 'REJECT', 'FILL', 'PARTIAL_FILL'))
         UNION ALL
         SELECT o.id, o.created_at, o.sendercompid, o.exchange, o.symbol, $1::bigint, -1
           FROM insights_touched t JOIN orders o ON o.id = t.id WHERE NOT t.is_new`,
      )}
       ${expandInto(
         'insights_answer_hist',
         ['username', 'measure', 'bin'],
         ['n'],
         '$3',
         `SELECT ${bucket15('e.created_at')} AS bucket, e.sendercompid AS client, ${EXCH_KEY.replace(/o\./g, 'e.')}, e.username AS one_user, e.measure, e.bin,
                 sum(e.sign) AS n
            FROM answer_entries e ${SM_JOIN.replace(/o\./g, 'e.')} GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(e.sign) <> 0`,
         {
           // Each user's own rows: the desk's, and a client's by day (CLIENT_WIDTHS).
           extra: `CROSS JOIN unnest(CASE WHEN s.measure = 'c' OR (c.client <> '*' AND w.width <> ALL ('{${CLIENT_WIDTHS.join(',')}}'::int[]))
                                         THEN ARRAY['*'] ELSE ARRAY['*', s.one_user] END) ku (username)`,
           widths: DESK_WIDTHS,
           clientWidths: CLIENT_ALL_USERS_WIDTHS,
         },
       )}`,
      [limits.a_old, limits.a_new, pgArray(trading)],
    );

    // The book: each touched order's quantities now, less what was folded of it before. A new order was
    // never folded (each order is new in exactly one step: the windows of created_at do not overlap, and
    // an order is touched as old only once its window has passed), so it has no insights_order_qty row:
    // it is counted whole and its row is a plain insert; only the old ones are looked up and upserted
    // (a lookup and a speculative insertion per new order were most of this statement's cost).
    await tx.query(
      `WITH src AS (
         SELECT o.id, o.created_at, o.sendercompid, ${EXCH_KEY}, o.orderqty, o.cumqty, true AS is_new,
                1 AS added, o.orderqty AS d_ordered, o.cumqty AS d_filled
           FROM insights_touched t JOIN orders o ON o.id = t.id ${SM_JOIN} WHERE t.is_new
         UNION ALL
         SELECT o.id, o.created_at, o.sendercompid, ${EXCH_KEY}, o.orderqty, o.cumqty, false,
                (q.order_id IS NULL)::int, o.orderqty - coalesce(q.orderqty, 0), o.cumqty - coalesce(q.cumqty, 0)
           FROM insights_touched t JOIN orders o ON o.id = t.id ${SM_JOIN} LEFT JOIN insights_order_qty q ON q.order_id = o.id WHERE NOT t.is_new
       ),
       stored_new AS (
         INSERT INTO insights_order_qty (order_id, orderqty, cumqty) SELECT id, orderqty, cumqty FROM src WHERE is_new
       ),
       stored AS (
         INSERT INTO insights_order_qty AS q (order_id, orderqty, cumqty) SELECT id, orderqty, cumqty FROM src WHERE NOT is_new
         ON CONFLICT (order_id) DO UPDATE SET orderqty = excluded.orderqty, cumqty = excluded.cumqty
       )
       ${expandInto(
         'insights_book',
         [],
         ['orders', 'ordered', 'filled'],
         '$1',
         `
         SELECT ${bucket15('src.created_at')} AS bucket, src.sendercompid AS client, src.ek, sum(src.added) AS orders, sum(src.d_ordered) AS ordered,
                sum(src.d_filled) AS filled
           FROM src WHERE src.added <> 0 OR src.d_ordered <> 0 OR src.d_filled <> 0 GROUP BY 1, 2, 3`,
       )}`,
      [pgArray(trading)],
    );
    const counted = (await tx.query<{ orders: number }>(`SELECT count(*) FILTER (WHERE is_new)::int AS orders FROM insights_touched`))
      .rows[0]!;
    await tx.query(
      `UPDATE insights_rollup_state
          SET orders_horizon = $1::timestamptz, action_id = $2::bigint, folded_at = now(),
              action_marks = (SELECT coalesce(jsonb_agg(m ORDER BY (m->>'at')::timestamptz), '[]')
                                FROM (SELECT m FROM jsonb_array_elements(action_marks || jsonb_build_array($3::jsonb)) m
                                       ORDER BY (m->>'at')::timestamptz DESC LIMIT ${ACTION_MARKS}) kept)
        WHERE id = 1`,
      [limits.h_new, limits.a_new, JSON.stringify(mark)],
    );
    return {
      busy: false,
      caughtUp: !limits.orders_full && !limits.actions_full,
      orders: counted.orders,
      actions: Number(limits.a_new) - Number(limits.a_old),
      horizon: new Date(limits.h_new),
      actionId: Number(limits.a_new),
      timings,
    };
  });
}

/**
 * Fresh statistics for the rollups after a backfill: the planner otherwise keeps the estimates of the
 * empty tables until autovacuum comes, and hashed a whole rollup table for a month's call.
 */
export async function analyzeInsightsRollups(db: Db): Promise<void> {
  await db.query('ANALYZE insights_flow, insights_book, insights_answer_hist, insights_reasons, insights_fills, insights_order_qty');
}

/** Steps until caught up (tests, the benchmark), then fresh statistics when it took more than one: how many steps it took. */
export async function rollUpInsightsFully(db: Db, opts: RollupOptions = {}): Promise<number> {
  for (let steps = 1; ; steps++) {
    const s = await rollUpInsights(db, opts);
    if (!s.busy && s.caughtUp) {
      if (steps > 1) await analyzeInsightsRollups(db);
      return steps;
    }
    if (s.busy) await new Promise((r) => setTimeout(r, 50));
  }
}
