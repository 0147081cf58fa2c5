import type {
  AnswerTimes,
  AnswerTimesMeasure,
  ClientInsight,
  ContractInsight,
  FixSessionsPoint,
  InsightsFilters,
  OrderFlowPoint,
} from '@fixdesk/protocol';
import { INSIGHTS_TOP_CONTRACTS } from '@fixdesk/protocol';
import type { Db } from '../db';
import { pgArray } from '../pg-array';
import {
  answerEntries,
  binValueMs,
  CLIENT_ALL_USERS_WIDTHS,
  CLIENT_WIDTHS,
  DESK_WIDTHS,
  FILL_ACTION,
  FILL_ROW_COLUMNS,
  fillContracts,
  ROLLUP_WIDTHS,
} from './insights-rollup';
import { decimalText, isoText } from './sql-text';

// Desk Insights (issue 31): one statement per chart, every figure computed by the database. Each
// statement takes the same six parameters:
//   $1 from, $2 to (timestamptz, the range [from, to)), $3 the IANA time zone the periods are counted
//   in, $4 the chosen clients' comp ids (text[], null: every client), $5 the exchange (null: any),
//   $6 the period of a time series ('hour' or 'day').
// The clients are the trading connectors (session_type 'order_entry'): a drop copy connector never
// trades and is no client here. An order is on an exchange when its SecurityExchange (207) names it,
// or, without one, its security's exchange does. Periods: the instant truncated in the time zone
// (date_trunc's zone form), so a day in Asia/Singapore is 16:00 to 16:00 UTC, and a day in London
// when the clocks go back lasts 25 hours.

/**
 * The id of the first order created at or after `at` (SQL of a timestamptz), as a scalar subquery; one
 * past the last order when there is none, 0 when there are no orders. A binary search of the ids (orders
 * are numbered in the order they are created, near enough): about 20 lookups by key whatever the size
 * of the table or of a day, where min(id) over the rows since `at` read every one of them (through the
 * BRIN index, the rest of their blocks too) on every call. Used where an id only divides the orders
 * between two ways of reading them, each exact (withOrder): an order numbered out of its time's order
 * costs a lookup, never a figure.
 */
export const firstOrderSince = (at: string) => `(WITH RECURSIVE probe (lo, hi) AS (
    SELECT coalesce(min(id), 0), coalesce(max(id), 0) + 1 FROM orders
    UNION ALL
    SELECT CASE WHEN m.created_at < ${at} THEN m.id + 1 ELSE p.lo END,
           CASE WHEN m.created_at < ${at} THEN p.hi ELSE (p.lo + p.hi) / 2 END
      FROM probe p
     CROSS JOIN LATERAL (SELECT id, created_at FROM orders WHERE id >= (p.lo + p.hi) / 2 ORDER BY id LIMIT 1) m
     WHERE p.lo < p.hi)
  SELECT max(lo) FROM probe)`;

/** The widths a chart's rollup holds for the whole desk (client '*') and per client. */
interface NarrowWidths {
  desk: readonly number[];
  client: readonly number[];
}
const EVERY_WIDTH: NarrowWidths = { desk: ROLLUP_WIDTHS, client: ROLLUP_WIDTHS };

/**
 * One chart's statement, with JIT compilation off: the planner's estimate for a month of aggregates
 * passes jit_above_cost, and compiling took 100 ms to a second per call (EXPLAIN ANALYZE on PostgreSQL
 * at 150,000 orders in 30 days), more than it saved. SET LOCAL lasts until the transaction ends.
 *
 * The clients are read first and given to the statement as lists ($4 the chosen ones, $7 every trading
 * client): a list the planner sees as a value is estimated from the orders' own statistics and checked
 * by hashing, where a subquery on the small client_connectors (rarely analyzed: a desk adds a client a
 * month) was estimated at one row and planned as a loop over every order of each client, of all time.
 */
async function chartQuery<T>(
  db: Db,
  sql: string,
  f: InsightsFilters,
  bucket: 'hour' | 'day' = f.bucket,
  /** The widths the chart's rollups hold where they are not every width (NARROW_CTES): its pieces' and its spans'. */
  narrow: { pieces: NarrowWidths; spans: NarrowWidths } = { pieces: EVERY_WIDTH, spans: EVERY_WIDTH },
): Promise<T[]> {
  return db.transaction(async (tx) => {
    // One snapshot for the transaction's statements: the roll-up's state and its tables are read as of
    // the same instant as the raw rows, so a roll-up step committing meanwhile counts nothing twice.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await tx.query('SET LOCAL jit = off');
    // lo: where the orders acted on in the range begin (withOrder), the first order of the day before it.
    // The rollups serve a range whose ends and periods fall on quarter hours of UTC (docs/adr/0019);
    // another is read raw whole.
    const first = (
      await tx.query<{ trading: string[]; lo: number; hi: number; horizon: string; action_id: string; aligned: boolean }>(
        `SELECT ARRAY(SELECT comp_id FROM client_connectors WHERE session_type = 'order_entry' ORDER BY comp_id) AS trading,
                ${firstOrderSince("$1::timestamptz - interval '1 day'")} AS lo,
                coalesce((SELECT max(id) FROM orders), 0) AS hi,
                (SELECT orders_horizon::text FROM insights_rollup_state WHERE id = 1) AS horizon,
                (SELECT action_id::text FROM insights_rollup_state WHERE id = 1) AS action_id,
                extract(epoch FROM $1::timestamptz) % 900 = 0 AND extract(epoch FROM $2::timestamptz) % 900 = 0
                AND (SELECT coalesce(bool_and(extract(epoch FROM date_trunc($4::text, q + interval '899.999999 seconds', $3::text)) % 900 = 0), true)
                       FROM generate_series($1::timestamptz, $2::timestamptz, interval '15 minutes') q) AS aligned`,
        [f.from, f.to, f.tz, bucket],
      )
    ).rows[0]!;
    const chosen = f.clients ? first.trading.filter((c) => f.clients!.includes(c)) : first.trading;
    // The rollups' keys: '*' stands for every trading client, and for any exchange.
    const every = chosen.length === first.trading.length;
    const roll = first.aligned && first.horizon !== null;
    const values = [
      f.from,
      f.to,
      f.tz,
      pgArray(chosen),
      f.exchange ?? null,
      bucket,
      pgArray(first.trading),
      first.lo,
      first.hi,
      pgArray(every ? ['*'] : chosen),
      f.exchange ? f.exchange.toUpperCase() : '*',
      roll ? first.horizon : '-infinity',
      roll ? first.action_id : '0',
      roll,
      `{${(every ? narrow.pieces.desk : narrow.pieces.client).join(',')}}`,
      `{${(every ? narrow.spans.desk : narrow.spans.client).join(',')}}`,
    ];
    return (await tx.query<T>(sql, values)).rows;
  });
}

/** A quarter's bucket (quarters q, d, h) in the width `width`. */
const bucketOfWidth = (width: string) => `CASE ${width} WHEN 1440 THEN d WHEN 60 THEN h ELSE q END`;

/**
 * The parameters' types (a statement that uses only some of them still takes them all), the trading
 * clients (every one) and the chosen ones (the client filter).
 */
const CLIENT_CTES = `filter_types AS (
  SELECT $1::timestamptz AS range_from, $2::timestamptz AS range_to, $3::text AS tz, $4::text[] AS chosen, $5::text AS exchange,
         $6::text AS bucket, $7::text[] AS trading, $8::bigint AS orders_from, $9::bigint AS orders_to,
         $10::text[] AS client_keys, $11::text AS exch_key, $12::timestamptz AS horizon, $13::bigint AS action_id, $14::boolean AS roll,
         $15::int[] AS piece_widths, $16::int[] AS span_widths
),
trading AS NOT MATERIALIZED (SELECT comp_id, client_name FROM client_connectors WHERE comp_id = ANY ($7::text[])),
chosen AS NOT MATERIALIZED (SELECT comp_id, client_name FROM client_connectors WHERE comp_id = ANY ($4::text[])),
-- The width rows are first counted in before their periods are named: 15 minutes when every period's
-- start in the range falls on a quarter hour of UTC (every time zone in use today), else (an offset of
-- local mean time, decades ago) a microsecond, which counts each instant on its own.
grain AS (
  SELECT CASE WHEN bool_and(extract(epoch FROM date_trunc($6::text, q + interval '899.999999 seconds', $3::text)) % 900 = 0)
              THEN interval '15 minutes' ELSE interval '1 microsecond' END AS step
    FROM generate_series(date_bin('15 minutes', $1::timestamptz, timestamptz 'epoch'), $2::timestamptz, interval '15 minutes') q
),
-- The rolled-up buckets the range is read from (none when $14 is false): each quarter hour of the range
-- in the widest bucket (a UTC day, an hour, the quarter) that lies within the range and, for
-- pieces, within one period; spans ignore the periods (figures over the whole range).
quarters AS MATERIALIZED (
  SELECT q, d, h,
         CASE WHEN d >= $1::timestamptz AND d + interval '24 hours' <= $2::timestamptz
                   AND date_trunc($6::text, d, $3::text) = date_trunc($6::text, d + interval '24 hours' - interval '1 microsecond', $3::text) THEN 1440
              WHEN h >= $1::timestamptz AND h + interval '1 hour' <= $2::timestamptz
                   AND date_trunc($6::text, h, $3::text) = date_trunc($6::text, h + interval '59 minutes 59.999999 seconds', $3::text) THEN 60
              ELSE 15 END AS piece_width,
         CASE WHEN d >= $1::timestamptz AND d + interval '24 hours' <= $2::timestamptz THEN 1440
              WHEN h >= $1::timestamptz AND h + interval '1 hour' <= $2::timestamptz THEN 60 ELSE 15 END AS span_width
    FROM (SELECT q, date_bin('1 day', q, timestamptz 'epoch') AS d, date_bin('1 hour', q, timestamptz 'epoch') AS h
            FROM generate_series($1::timestamptz, $2::timestamptz - interval '15 minutes', interval '15 minutes') q WHERE $14::boolean) x
),
pieces AS MATERIALIZED (SELECT DISTINCT piece_width::smallint AS width, ${bucketOfWidth('piece_width')} AS bucket FROM quarters),
spans AS MATERIALIZED (SELECT DISTINCT span_width::smallint AS width, ${bucketOfWidth('span_width')} AS bucket FROM quarters)`;

/**
 * Rollup rows `r` of `table` in the buckets of `set` (pieces or spans) for the client keys `clients` and
 * the exchange's key, where `extra` holds: each bucket's rows of those clients in one look by the key's
 * leading columns (width, bucket, exch, client; migration 30). OFFSET 0 keeps the lookup per bucket
 * (joined, the planner hashed every row of the range in every width).
 */
const rolled = (
  table: string,
  r: string,
  set: 'pieces' | 'spans' | 'narrow_pieces' | 'narrow_spans',
  extra = '',
  clients = '$10::text[]',
) =>
  `${set} p CROSS JOIN LATERAL (SELECT * FROM ${table} ${r} WHERE ${r}.width = p.width AND ${r}.bucket = p.bucket AND ${r}.exch = $11::text
     AND ${r}.client = ANY (${clients}) ${extra} OFFSET 0) ${r}`;
/**
 * For a chart whose rollups do not hold every width (chartQuery's `narrow`; docs/adr/0019, amendment 2):
 * `narrow_pieces`, the pieces in the widths $15, `narrow_spans`, the spans in the widths $16, and `gaps`,
 * the runs of the range's quarter hours they leave out, `p` where a piece does, `u` where a span does,
 * which the chart reads raw below the horizon (above it, everything is read raw).
 */
const NARROW_CTES = `
narrow_pieces AS MATERIALIZED (
  SELECT DISTINCT piece_width::smallint AS width, ${bucketOfWidth('piece_width')} AS bucket FROM quarters WHERE piece_width = ANY ($15::int[])
),
narrow_spans AS MATERIALIZED (
  SELECT DISTINCT span_width::smallint AS width, ${bucketOfWidth('span_width')} AS bucket FROM quarters WHERE span_width = ANY ($16::int[])
),
gaps AS MATERIALIZED (
  SELECT min(q) AS lo, max(q) + interval '15 minutes' AS hi, p, u
    FROM (SELECT q, p, u, q - row_number() OVER (PARTITION BY p, u ORDER BY q) * interval '15 minutes' AS run
            FROM (SELECT q, piece_width <> ALL ($15::int[]) AS p, span_width <> ALL ($16::int[]) AS u FROM quarters) x
           WHERE p OR u) y
   GROUP BY p, u, run
)`;
/**
 * The rows of `table` `t` whose `col` is in a gap `g` (NARROW_CTES) where `which` holds, each gap read
 * by `col`'s index (OFFSET 0 keeps the lookup per gap: joined, the planner read every row of the range
 * and matched none when there was no gap).
 */
const inGaps = (table: string, t: string, col: string, which: string) =>
  `gaps g CROSS JOIN LATERAL (SELECT * FROM ${table} ${t} WHERE ${which} AND ${t}.${col} >= g.lo AND ${t}.${col} < g.hi OFFSET 0) ${t}`;
/** The gap (NARROW_CTES) the instant `col` is in, as `g` (null columns when none): gaps do not overlap. */
const gapOf = (col: string) => `LEFT JOIN LATERAL (SELECT g.p, g.u FROM gaps g WHERE ${col} >= g.lo AND ${col} < g.hi) g ON true`;

/** Rows created at `col` that the roll-up has not folded (at or after its horizon). */
const unfolded = (col: string) => `${col} >= $12::timestamptz`;
/** Actions `a` the roll-up has not folded. */
const unfoldedAction = (a: string) => `${a}.id > $13::bigint`;

/** Whether the order (or refused order) `a` is on the filtered exchange. */
const onExchange = (a: string) =>
  `($5::text IS NULL OR CASE WHEN ${a}.exchange IS NOT NULL THEN upper(${a}.exchange) = upper($5::text)
     ELSE upper(${a}.symbol) IN (SELECT upper(sm.symbol) FROM security_master sm WHERE upper(sm.exchange) = upper($5::text)) END)`;

/** Whether `a` (orders or refused_orders) belongs to one of the clients of `set` and is on the exchange. */
const orderFilter = (a: string, set: 'trading' | 'chosen' = 'chosen') =>
  `${a}.sendercompid = ANY (${set === 'chosen' ? '$4' : '$7'}::text[]) AND ${onExchange(a)}`;

/**
 * `select` over order actions `a` with their order `o`, where `where` holds. The orders acted on in the
 * range are found by id: from $8 (the first order of the day before the range) to $9 (the last), a
 * range of ids the planner sees as values (a day's orders for today: found by key; a month's: hashed;
 * a hash join over the whole orders table read 120 days for a day's actions); the actions of older
 * orders (few: an order is mostly answered and filled the day it arrives) each by its key. Exact
 * whatever the order of ids and times: every order has an id up to $9, below $8 or not.
 */
const withOrder = (select: string, where: string) => `
  ${select} FROM order_actions a JOIN orders o ON o.id = a.order_id
   WHERE o.id >= $8::bigint AND o.id <= $9::bigint AND ${where}
  UNION ALL
  ${select} FROM order_actions a CROSS JOIN LATERAL (SELECT o.* FROM orders o WHERE o.id = a.order_id OFFSET 0) o
   WHERE a.order_id < $8::bigint AND ${where}`;

const inRange = (col: string) => `${col} >= $1::timestamptz AND ${col} < $2::timestamptz`;

/**
 * The period of the instant `col`: its start, an instant, truncated to $6 in the time zone $3
 * (date_trunc's zone form: the hour a clock goes back is two periods, each its own instant).
 */
const periodOf = (col: string) => `date_trunc($6::text, ${col}, $3::text)`;
/** The instant `col` in the grain's steps (grain: 15 minutes of UTC, or exact), which every period is whole of. */
const binOf = (col: string) => `date_bin((SELECT step FROM grain), ${col}, timestamptz 'epoch')`;
/** A period's name in the time zone ('2026-11-29' by day, '2026-11-29T14:00' by hour). */
const periodName = (b: string) =>
  `to_char(${b} AT TIME ZONE $3::text, CASE WHEN $6::text = 'hour' THEN 'YYYY-MM-DD"T"HH24:00' ELSE 'YYYY-MM-DD' END)`;
/** A period's name and its start as an instant. */
const periodColumns = (b: string) => `${periodName(b)} AS period, ${isoText(b)} AS start`;

// ── 1. order flow ──

export async function insightsOrderFlow(db: Db, f: InsightsFilters): Promise<OrderFlowPoint[]> {
  const rows = await chartQuery<OrderFlowPoint>(
    db,
    `WITH ${CLIENT_CTES},
     -- An order is accepted or rejected once (from Pending New only) and has one FILL action, the one
     -- that completed it (a fill that leaves quantity is a PARTIAL_FILL): counting actions counts orders.
     -- The rolled-up buckets, then what the roll-up has not folded, counted in the grain's bins.
     parts AS (
       SELECT p.bucket AS bin, r.received, r.refused, r.accepted, r.rejected, r.filled FROM ${rolled('insights_flow', 'r', 'pieces')}
       UNION ALL
       SELECT bin, count(*) FILTER (WHERE kind IN ('received', 'refused')), count(*) FILTER (WHERE kind = 'refused'),
              count(*) FILTER (WHERE kind = 'accepted'), count(*) FILTER (WHERE kind = 'rejected'), count(*) FILTER (WHERE kind = 'filled')
         FROM (
           SELECT ${binOf('at')} AS bin, kind FROM (
             SELECT o.created_at AS at, 'received' AS kind FROM orders o
              WHERE ${inRange('o.created_at')} AND ${unfolded('o.created_at')} AND ${orderFilter('o')}
             UNION ALL
             SELECT r.created_at, 'refused' FROM refused_orders r
              WHERE ${inRange('r.created_at')} AND ${unfolded('r.created_at')} AND ${orderFilter('r')}
             UNION ALL
             ${withOrder(
               `SELECT a.created_at, CASE a.action_type WHEN 'ACCEPT' THEN 'accepted' WHEN 'REJECT' THEN 'rejected' ELSE 'filled' END`,
               `${unfoldedAction('a')} AND a.action_type IN ('ACCEPT', 'REJECT', 'FILL') AND ${inRange('a.created_at')} AND ${orderFilter('o')}`,
             )}
           ) events
         ) e
        GROUP BY bin
     ),
     bucketed AS (SELECT ${periodOf('bin')} AS b, received, refused, accepted, rejected, filled FROM parts)
     SELECT ${periodColumns('b')},
            sum(received)::int AS received, sum(accepted)::int AS accepted, sum(refused)::int AS refused,
            sum(rejected)::int AS rejected, sum(filled)::int AS filled
       FROM bucketed GROUP BY b
     HAVING sum(received) + sum(accepted) + sum(rejected) + sum(filled) > 0
      ORDER BY b`,
    f,
  );
  return rows;
}

// ── 2. time to answer ──

interface HistRow {
  grp: 'period' | 'user' | 'orders';
  period: string | null;
  start: string | null;
  username: string | null;
  measure: 'a' | 'f' | 'c' | 'o';
  bin: number;
  n: number;
}

const ms = (v: number | null) => (v === null ? null : Math.round(Number(v) * 1000) / 1000);

/** A histogram: count per bin. */
type Histogram = Map<number, number>;
const addTo = (h: Histogram, bin: number, n: number) => h.set(bin, (h.get(bin) ?? 0) + n);

/**
 * Count and p50, p90, p99 of a histogram, as percentile_cont would give them of its values: the value
 * at rank p × (count - 1), between the two values either side, each read as its bin's middle (within
 * HISTOGRAM_RELATIVE_ERROR of the exact one, and so is the interpolation between them).
 */
function figuresOf(h: Histogram): AnswerTimes {
  const bins = [...h.entries()].filter(([, n]) => n > 0).sort(([x], [y]) => x - y);
  const count = bins.reduce((t, [, n]) => t + n, 0);
  if (count === 0) return { count: 0, p50Ms: null, p90Ms: null, p99Ms: null };
  const at = (rank: number) => {
    let seen = 0;
    for (const [bin, n] of bins) {
      seen += n;
      if (rank < seen) return binValueMs(bin);
    }
    return binValueMs(bins[bins.length - 1]![0]);
  };
  const p = (q: number) => {
    const pos = q * (count - 1);
    const lo = Math.floor(pos);
    const v = at(lo);
    return ms(pos === lo ? v : v + (at(lo + 1) - v) * (pos - lo));
  };
  return { count, p50Ms: p(0.5), p90Ms: p(0.9), p99Ms: p(0.99) };
}

export async function insightsTimeToAnswer(
  db: Db,
  f: InsightsFilters,
): Promise<{ answer: AnswerTimesMeasure; firstFill: AnswerTimesMeasure }> {
  // Histograms (docs/adr/0019): the rolled-up ones of the range's buckets, and those of the orders the
  // roll-up has not folded (arrived after its horizon) or has folded without their latest actions (the
  // entries of all their actions, less those of the actions it folded), merged per period and per user.
  // The periods read all users' histograms (narrow pieces), the users their own (narrow spans): a client's
  // are kept in fewer widths than the desk's (amendment 2), and the orders in a gap one of them leaves
  // are read raw whole for it (p: for the periods, u: for the users).
  const rows = await chartQuery<HistRow>(
    db,
    `WITH ${CLIENT_CTES}, ${NARROW_CTES},
     late AS (
       SELECT o.id, o.created_at, o.sendercompid, o.exchange, o.symbol, g.p IS NOT TRUE AS p, g.u IS NOT TRUE AS u
         FROM (SELECT DISTINCT a.order_id FROM order_actions a
                WHERE $14::boolean AND ${unfoldedAction('a')} AND a.action_type IN ('ACCEPT', 'REJECT', 'FILL', 'PARTIAL_FILL')) t
        CROSS JOIN LATERAL (SELECT o.* FROM orders o WHERE o.id = t.order_id OFFSET 0) o
        ${gapOf('o.created_at')}
        WHERE ${inRange('o.created_at')} AND NOT ${unfolded('o.created_at')} AND ${orderFilter('o')}
     ),
     ${answerEntries(
       `
       SELECT o.id, o.created_at, o.sendercompid, o.exchange, o.symbol, 9223372036854775807::bigint AS cap, 1 AS sign, true AS p, true AS u
         FROM orders o WHERE ${inRange('o.created_at')} AND ${unfolded('o.created_at')} AND ${orderFilter('o')}
       UNION ALL
       SELECT o.id, o.created_at, o.sendercompid, o.exchange, o.symbol, 9223372036854775807::bigint, 1, g.p, g.u
         FROM ${inGaps('orders', 'o', 'created_at', 'true')} WHERE NOT ${unfolded('o.created_at')} AND ${orderFilter('o')}
       UNION ALL
       SELECT l.id, l.created_at, l.sendercompid, l.exchange, l.symbol, 9223372036854775807::bigint, 1, l.p, l.u FROM late l
       UNION ALL
       SELECT l.id, l.created_at, l.sendercompid, l.exchange, l.symbol, $13::bigint, -1, l.p, l.u FROM late l`,
       ['p', 'u'],
     )},
     per_period AS (
       SELECT ${periodOf('p.bucket')} AS b, h.measure, h.bin, h.n FROM ${rolled('insights_answer_hist', 'h', 'narrow_pieces', "AND h.username = '*'")}
       UNION ALL
       SELECT ${periodOf(binOf('e.created_at'))}, e.measure, e.bin, e.sign FROM answer_entries e WHERE e.p
     ),
     per_user AS (
       SELECT h.username, h.measure, h.bin, h.n FROM ${rolled('insights_answer_hist', 'h', 'narrow_spans', "AND h.username <> '*'")}
       UNION ALL
       SELECT e.username, e.measure, e.bin, e.sign FROM answer_entries e WHERE e.measure <> 'c' AND e.u
     ),
     orders_in AS (
       SELECT sum(r.orders) AS n FROM ${rolled('insights_book', 'r', 'spans')}
       UNION ALL
       SELECT count(*) FROM orders o WHERE ${inRange('o.created_at')} AND ${unfolded('o.created_at')} AND ${orderFilter('o')}
     ),
     grouped AS (
       SELECT 'period' AS grp, b, NULL AS username, measure, bin, sum(n)::int AS n FROM per_period GROUP BY b, measure, bin
       UNION ALL
       SELECT 'user', NULL, username, measure, bin, sum(n)::int FROM per_user GROUP BY username, measure, bin
       UNION ALL
       SELECT 'orders', NULL, NULL, 'o', 0, coalesce(sum(n), 0)::int FROM orders_in
     )
     SELECT grp, CASE WHEN b IS NOT NULL THEN ${periodName('b')} END AS period, CASE WHEN b IS NOT NULL THEN ${isoText('b')} END AS start,
            username, measure, bin, n
       FROM grouped WHERE n <> 0 OR grp = 'orders'
      ORDER BY grp, b, username`,
    f,
    f.bucket,
    { pieces: { desk: DESK_WIDTHS, client: CLIENT_ALL_USERS_WIDTHS }, spans: { desk: DESK_WIDTHS, client: CLIENT_WIDTHS } },
  );
  type Measure = { all: Histogram; periods: Map<string, { period: string; start: string; h: Histogram }>; users: Map<string, Histogram> };
  const fresh = (): Measure => ({ all: new Map(), periods: new Map(), users: new Map() });
  const measures = { a: fresh(), f: fresh() };
  let orders = 0;
  let accepted = 0;
  for (const r of rows) {
    if (r.grp === 'orders') orders = r.n;
    else if (r.measure === 'c') {
      if (r.grp === 'period') accepted += r.n;
    } else if (r.measure === 'a' || r.measure === 'f') {
      const m = measures[r.measure];
      if (r.grp === 'period') {
        addTo(m.all, r.bin, r.n);
        let p = m.periods.get(r.start!);
        if (!p) m.periods.set(r.start!, (p = { period: r.period!, start: r.start!, h: new Map() }));
        addTo(p.h, r.bin, r.n);
      } else {
        let u = m.users.get(r.username!);
        if (!u) m.users.set(r.username!, (u = new Map()));
        addTo(u, r.bin, r.n);
      }
    }
  }
  const out = (m: Measure, waiting: number): AnswerTimesMeasure => ({
    overall: figuresOf(m.all),
    waiting,
    byPeriod: [...m.periods.values()].map((p) => ({ period: p.period, start: p.start, ...figuresOf(p.h) })).filter((p) => p.count > 0),
    byUser: [...m.users.entries()].map(([user, h]) => ({ user, ...figuresOf(h) })).filter((u) => u.count > 0),
  });
  const answer = out(measures.a, 0);
  const firstFill = out(measures.f, 0);
  answer.waiting = orders - answer.overall.count;
  firstFill.waiting = accepted - firstFill.overall.count;
  return { answer, firstFill };
}

// ── fills as lots per contract (the contracts and the clients' volume) ──

/**
 * The fills of the chosen clients in the range on their contracts (fills(client, symbol, month, lots,
 * lots_px, fills)): the rolled-up buckets (the narrow spans of NARROW_CTES), the fills the roll-up has
 * not folded, and the folded ones in the gaps the spans leave. lots_px: lots × price where the price is
 * known (the notional before the contract's size).
 */
const fillsCte = `${NARROW_CTES},
${fillContracts(`
  ${withOrder(`SELECT ${FILL_ROW_COLUMNS}`, `${FILL_ACTION} AND ${unfoldedAction('a')} AND ${inRange('a.created_at')} AND ${orderFilter('o')}`)}
  UNION ALL
  SELECT ${FILL_ROW_COLUMNS} FROM ${inGaps('order_actions', 'a', 'created_at', 'g.u')}
   CROSS JOIN LATERAL (SELECT o.* FROM orders o WHERE o.id = a.order_id OFFSET 0) o
   WHERE ${FILL_ACTION} AND NOT ${unfoldedAction('a')} AND ${orderFilter('o')}`)},
fills AS (
  SELECT r.client, r.symbol, nullif(r.month, '') AS month, r.lots, r.lots_px, r.fills FROM ${rolled('insights_fills', 'r', 'narrow_spans')}
  UNION ALL
  SELECT f.sendercompid, f.c_symbol, f.c_month, f.lots, CASE WHEN f.px IS NOT NULL THEN f.lots * f.px ELSE 0 END, 1 FROM fill_lots f
)`;

/** Lots filled per client (`set`) in the range: the rolled-up buckets (insights_flow), and the fills not folded. */
const lotsCte = `${fillContracts(
  withOrder(
    `SELECT ${FILL_ROW_COLUMNS}`,
    `${FILL_ACTION} AND ${unfoldedAction('a')} AND ${inRange('a.created_at')} AND ${orderFilter('o', 'trading')}`,
  ),
)},
client_lots AS (
  SELECT r.client, r.lots FROM ${rolled('insights_flow', 'r', 'spans', 'AND r.lots <> 0', "array_append($4::text[], '*')")}
  UNION ALL
  SELECT f.sendercompid, f.lots FROM fill_lots f
  UNION ALL
  SELECT '*', f.lots FROM fill_lots f
)`;

// ── 3. clients ──

interface ClientRow {
  client: string;
  client_name: string | null;
  orders: number;
  refused: number;
  rejected: number;
  ordered_qty: string;
  filled_qty: string;
  fill_ratio: number | null;
  reasons: { source: 'refused' | 'rejected'; reason: number; count: number }[] | null;
  lots: string;
  volume_share: number | null;
}

export async function insightsClients(db: Db, f: InsightsFilters): Promise<{ deskLots: string; clients: ClientInsight[] }> {
  // Per client: the rollups are read per chosen client ($4), not under '*', except the desk's lots.
  const rows = await chartQuery<ClientRow & { desk_lots: string }>(
    db,
    `WITH ${CLIENT_CTES},
     ${lotsCte},
     desk AS MATERIALIZED (SELECT coalesce(sum(lots), 0) AS lots FROM client_lots WHERE client = '*'),
     book AS (
       SELECT client, sum(n)::int AS n, sum(ordered) AS ordered, sum(filled) AS filled FROM (
         SELECT r.client, r.orders AS n, r.ordered, r.filled
           FROM ${rolled('insights_book', 'r', 'spans', '', '$4::text[]')}
         UNION ALL
         SELECT o.sendercompid, 1, o.orderqty, o.cumqty
           FROM orders o WHERE ${inRange('o.created_at')} AND ${unfolded('o.created_at')} AND ${orderFilter('o')}
         UNION ALL
         -- Orders folded before their latest actions: their quantities now, less what was folded.
         -- (each found by key from the few actions not folded: OFFSET 0 keeps the lookup per key)
         SELECT o.sendercompid, 0, o.orderqty - q.orderqty, o.cumqty - q.cumqty
           FROM (SELECT DISTINCT a.order_id FROM order_actions a WHERE $14::boolean AND ${unfoldedAction('a')}) t
          CROSS JOIN LATERAL (SELECT o.* FROM orders o WHERE o.id = t.order_id OFFSET 0) o
           JOIN insights_order_qty q ON q.order_id = o.id
          WHERE ${inRange('o.created_at')} AND NOT ${unfolded('o.created_at')} AND ${orderFilter('o')}
       ) x GROUP BY client HAVING sum(n) > 0
     ),
     reasons AS (
       SELECT client, source, reason, sum(n)::int AS n FROM (
         SELECT r.client, CASE r.source WHEN 'r' THEN 'refused' ELSE 'rejected' END AS source, r.reason, r.n
           FROM ${rolled('insights_reasons', 'r', 'spans', '', '$4::text[]')}
         UNION ALL
         SELECT r.sendercompid, 'refused', r.ordrejreason, 1 FROM refused_orders r
          WHERE ${inRange('r.created_at')} AND ${unfolded('r.created_at')} AND ${orderFilter('r')}
         UNION ALL
         SELECT j.client, 'rejected', coalesce(er.ordrejreason, 99), 1
           FROM (${withOrder(
             'SELECT o.sendercompid AS client, a.order_id',
             `a.action_type = 'REJECT' AND ${unfoldedAction('a')} AND ${inRange('a.created_at')} AND ${orderFilter('o')}`,
           )}) j
           LEFT JOIN LATERAL (SELECT er.ordrejreason FROM execution_reports er
                               WHERE er.order_id = j.order_id AND er.exectype = '8' ORDER BY er.id LIMIT 1) er ON true
       ) x GROUP BY client, source, reason HAVING sum(n) > 0
     ),
     volume AS (SELECT client, sum(lots) AS lots FROM client_lots WHERE client = ANY ($4::text[]) GROUP BY client),
     active AS (SELECT client FROM book UNION SELECT client FROM reasons UNION SELECT client FROM volume)
     SELECT c.comp_id AS client, c.client_name,
            coalesce(b.n, 0) + coalesce((SELECT sum(n) FROM reasons r WHERE r.client = c.comp_id AND r.source = 'refused'), 0)::int AS orders,
            coalesce((SELECT sum(n) FROM reasons r WHERE r.client = c.comp_id AND r.source = 'refused'), 0)::int AS refused,
            coalesce((SELECT sum(n) FROM reasons r WHERE r.client = c.comp_id AND r.source = 'rejected'), 0)::int AS rejected,
            ${decimalText('coalesce(b.ordered, 0)')} AS ordered_qty,
            ${decimalText('coalesce(b.filled, 0)')} AS filled_qty,
            CASE WHEN b.ordered > 0 THEN (b.filled / b.ordered)::float8 END AS fill_ratio,
            (SELECT json_agg(json_build_object('source', r.source, 'reason', r.reason, 'count', r.n) ORDER BY r.source, r.n DESC, r.reason)
               FROM reasons r WHERE r.client = c.comp_id) AS reasons,
            ${decimalText('coalesce(v.lots, 0)')} AS lots,
            CASE WHEN d.lots > 0 THEN (coalesce(v.lots, 0) / d.lots)::float8 END AS volume_share,
            ${decimalText('d.lots')} AS desk_lots
       FROM active x
       JOIN chosen c ON c.comp_id = x.client
       CROSS JOIN desk d
       LEFT JOIN book b ON b.client = c.comp_id
       LEFT JOIN volume v ON v.client = c.comp_id
      ORDER BY coalesce(v.lots, 0) DESC, 3 DESC, c.comp_id`,
    f,
  );
  let deskLots = '0';
  if (rows.length === 0) {
    const desk = await chartQuery<{ desk_lots: string }>(
      db,
      `WITH ${CLIENT_CTES}, ${lotsCte} SELECT ${decimalText('coalesce(sum(lots), 0)')} AS desk_lots FROM client_lots WHERE client = '*'`,
      f,
    );
    deskLots = desk[0]!.desk_lots;
  } else deskLots = rows[0]!.desk_lots;
  return {
    deskLots,
    clients: rows.map((r) => ({
      client: r.client,
      clientName: r.client_name,
      orders: r.orders,
      refused: r.refused,
      rejected: r.rejected,
      orderedQty: r.ordered_qty,
      filledQty: r.filled_qty,
      fillRatio: r.fill_ratio === null ? null : Number(r.fill_ratio),
      reasons: r.reasons ?? [],
      lots: r.lots,
      volumeShare: r.volume_share === null ? null : Number(r.volume_share),
    })),
  };
}

// ── 4. contracts ──

export async function insightsContracts(db: Db, f: InsightsFilters): Promise<ContractInsight[]> {
  const rows = await chartQuery<{
    symbol: string;
    month: string | null;
    lots: string;
    notional: string;
    currency: string | null;
    fills: number;
  }>(
    db,
    `WITH ${CLIENT_CTES}, ${fillsCte},
     per_key AS (SELECT symbol, month, sum(lots) AS lots, sum(lots_px) AS lots_px, sum(fills) AS fills FROM fills GROUP BY symbol, month),
     per_contract AS (
       SELECT k.symbol, k.month, sum(k.lots) AS lots, sum(k.fills)::int AS fills,
              coalesce(sum(k.lots_px * coalesce(sm.contract_size, 1)), 0) AS notional,
              min(sm.currency) AS currency
         FROM per_key k
         LEFT JOIN security_master sm ON upper(sm.symbol) = upper(k.symbol)
        GROUP BY k.symbol, k.month
       HAVING sum(k.fills) > 0
     )
     SELECT symbol, month, ${decimalText('lots')} AS lots, ${decimalText('notional')} AS notional, currency, fills
       FROM per_contract
      ORDER BY per_contract.lots DESC, symbol, month NULLS FIRST
      LIMIT ${INSIGHTS_TOP_CONTRACTS}`,
    f,
    f.bucket,
    { pieces: EVERY_WIDTH, spans: { desk: DESK_WIDTHS, client: CLIENT_WIDTHS } },
  );
  return rows.map((r) => ({
    symbol: r.symbol,
    maturityMonthYear: r.month,
    lots: r.lots,
    notional: r.notional,
    currency: r.currency === null ? null : r.currency.trim(),
    fills: r.fills,
  }));
}

// ── 5. FIX sessions ──

/** A client session's value in force: an administrator's correction of it, else what was recorded. */
const inForce = (col: 'session_start' | 'session_end' | 'disconnect_reason', cast: string) =>
  `CASE WHEN s.recorded AND s.correction ? '${col}' THEN (s.correction ->> '${col}')::${cast} ELSE s.${col} END`;

export async function insightsFixSessions(db: Db, f: InsightsFilters): Promise<FixSessionsPoint[]> {
  const rows = await chartQuery<FixSessionsPoint>(
    db,
    `WITH ${CLIENT_CTES},
     sessions AS (
       SELECT s.comp_id, ${inForce('session_start', 'timestamptz')} AS started, ${inForce('session_end', 'timestamptz')} AS ended,
              ${inForce('disconnect_reason', 'text')} AS reason
         FROM client_sessions s WHERE s.comp_id = ANY ($4::text[])
     ),
     events AS (
       SELECT comp_id AS client, started AS at, CASE WHEN reason LIKE 'logon refused:%' THEN 'refused' ELSE 'logon' END AS kind
         FROM sessions WHERE ${inRange('started')}
       UNION ALL
       SELECT comp_id, ended, 'disconnect' FROM sessions
        WHERE ${inRange('ended')} AND reason IS NOT NULL AND reason NOT LIKE 'logon refused:%'
       UNION ALL
       SELECT m.target_comp_id, m.created_at, CASE m.msg_type WHEN '3' THEN 'reject' ELSE 'resend' END
         FROM fix_messages m
         JOIN client_connectors c ON c.comp_id = m.target_comp_id AND c.target_comp_id = m.sender_comp_id
        WHERE m.msg_type IN ('2', '3') AND ${inRange('m.created_at')} AND m.target_comp_id = ANY ($4::text[])
     ),
     binned AS (SELECT ${binOf('at')} AS bin, client, kind, count(*) AS n FROM events GROUP BY 1, 2, 3),
     bucketed AS (SELECT ${periodOf('bin')} AS b, client, kind, n FROM binned)
     SELECT ${periodColumns('b')}, client,
            coalesce(sum(n) FILTER (WHERE kind = 'logon'), 0)::int AS "logons",
            coalesce(sum(n) FILTER (WHERE kind = 'refused'), 0)::int AS "refusedLogons",
            coalesce(sum(n) FILTER (WHERE kind = 'disconnect'), 0)::int AS "disconnects",
            coalesce(sum(n) FILTER (WHERE kind = 'reject'), 0)::int AS "sessionRejects",
            coalesce(sum(n) FILTER (WHERE kind = 'resend'), 0)::int AS "resendRequests"
       FROM bucketed GROUP BY b, client ORDER BY b, client`,
    f,
    'day',
  );
  return rows;
}
