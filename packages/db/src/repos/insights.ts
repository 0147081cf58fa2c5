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
 * One chart's statement, with JIT compilation off: the planner's estimate for a month of aggregates
 * passes jit_above_cost, and compiling took 100 ms to a second per call (EXPLAIN ANALYZE on PostgreSQL
 * at 150,000 orders in 30 days), more than it saved. SET LOCAL lasts until the transaction ends.
 *
 * The clients are read first and given to the statement as lists ($4 the chosen ones, $7 every trading
 * client): a list the planner sees as a value is estimated from the orders' own statistics and checked
 * by hashing, where a subquery on the small client_connectors (rarely analyzed: a desk adds a client a
 * month) was estimated at one row and planned as a loop over every order of each client, of all time.
 */
async function chartQuery<T>(db: Db, sql: string, f: InsightsFilters, bucket: 'hour' | 'day' = f.bucket): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.query('SET LOCAL jit = off');
    // A day's ids read through the orders' BRIN index: min(id) alone is planned as a walk up the primary
    // key until a row of that day (1.4 s at 1,000,000 orders over 120 days); OFFSET 0 keeps the day's read.
    const first = (
      await tx.query<{ trading: string[]; lo: number; hi: number }>(
        `SELECT ARRAY(SELECT comp_id FROM client_connectors WHERE session_type = 'order_entry' ORDER BY comp_id) AS trading,
                coalesce((SELECT min(id) FROM (SELECT id FROM orders WHERE created_at >= $1::timestamptz - interval '1 day' AND created_at < $1::timestamptz OFFSET 0) d),
                         (SELECT min(id) FROM (SELECT id FROM orders WHERE created_at >= $1::timestamptz AND created_at < $1::timestamptz + interval '1 day' OFFSET 0) d),
                         (SELECT max(id) + 1 FROM orders), 0) AS lo,
                coalesce((SELECT max(id) FROM orders), 0) AS hi`,
        [f.from],
      )
    ).rows[0]!;
    const chosen = f.clients ? first.trading.filter((c) => f.clients!.includes(c)) : first.trading;
    // $8, $9: the ids of the orders joined as a range (withOrder).
    const values = [f.from, f.to, f.tz, pgArray(chosen), f.exchange ?? null, bucket, pgArray(first.trading), first.lo, first.hi];
    return (await tx.query<T>(sql, values)).rows;
  });
}

/**
 * The parameters' types (a statement that uses only some of them still takes all nine), the trading
 * clients (every one) and the chosen ones (the client filter).
 */
const CLIENT_CTES = `filter_types AS (
  SELECT $1::timestamptz AS range_from, $2::timestamptz AS range_to, $3::text AS tz, $4::text[] AS chosen, $5::text AS exchange,
         $6::text AS bucket, $7::text[] AS trading, $8::bigint AS orders_from, $9::bigint AS orders_to
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
)`;

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
     -- that completed it (a fill that leaves quantity is a PARTIAL_FILL): counting actions counts orders,
     -- which lets the periods be hashed instead of sorting every event.
     events AS (
       SELECT o.created_at AS at, 'received' AS kind FROM orders o
        WHERE ${inRange('o.created_at')} AND ${orderFilter('o')}
       UNION ALL
       SELECT r.created_at, 'refused' FROM refused_orders r
        WHERE ${inRange('r.created_at')} AND ${orderFilter('r')}
       UNION ALL
       ${withOrder(
         `SELECT a.created_at, CASE a.action_type WHEN 'ACCEPT' THEN 'accepted' WHEN 'REJECT' THEN 'rejected' ELSE 'filled' END`,
         `a.action_type IN ('ACCEPT', 'REJECT', 'FILL') AND ${inRange('a.created_at')} AND ${orderFilter('o')}`,
       )}
     ),
     binned AS (SELECT ${binOf('at')} AS bin, kind, count(*) AS n FROM events GROUP BY 1, 2),
     bucketed AS (SELECT ${periodOf('bin')} AS b, kind, n FROM binned)
     SELECT ${periodColumns('b')},
            coalesce(sum(n) FILTER (WHERE kind IN ('received', 'refused')), 0)::int AS received,
            coalesce(sum(n) FILTER (WHERE kind = 'accepted'), 0)::int AS accepted,
            coalesce(sum(n) FILTER (WHERE kind = 'refused'), 0)::int AS refused,
            coalesce(sum(n) FILTER (WHERE kind = 'rejected'), 0)::int AS rejected,
            coalesce(sum(n) FILTER (WHERE kind = 'filled'), 0)::int AS filled
       FROM bucketed GROUP BY b ORDER BY b`,
    f,
  );
  return rows;
}

// ── 2. time to answer ──

interface TimesRow {
  measure: 'answer' | 'firstFill';
  grp: 'all' | 'period' | 'user' | 'waiting';
  period: string | null;
  start: string | null;
  username: string | null;
  count: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

const ms = (v: number | null) => (v === null ? null : Math.round(Number(v) * 1000) / 1000);

export async function insightsTimeToAnswer(
  db: Db,
  f: InsightsFilters,
): Promise<{ answer: AnswerTimesMeasure; firstFill: AnswerTimesMeasure }> {
  const rows = await chartQuery<TimesRow>(
    db,
    `WITH ${CLIENT_CTES},
     -- Each order received: its first answer (accept or reject), first accept and first fill, and who
     -- made them (null when not yet), from the actions since the range's start (none precedes its order).
     recv AS MATERIALIZED (
       SELECT o.id, o.created_at AS received_at, ${binOf('o.created_at')} AS bin
         FROM orders o WHERE ${inRange('o.created_at')} AND ${orderFilter('o')}
     ),
     -- Their answers and fills since the range's start, then the first of each by (time, id): one sort
     -- for all of them (an aggregate ordered within each order sorted each order's few rows on its own).
     acts AS MATERIALIZED (
       SELECT a.order_id, a.created_at, a.id, a.user_id, a.action_type,
              CASE WHEN a.action_type IN ('ACCEPT', 'REJECT') THEN 'answer' ELSE 'fill' END AS kind
         FROM order_actions a
         JOIN recv r ON r.id = a.order_id
        WHERE a.created_at >= $1::timestamptz AND a.action_type IN ('ACCEPT', 'REJECT', 'FILL', 'PARTIAL_FILL')
     ),
     firsts AS (
       SELECT DISTINCT ON (order_id, kind) order_id, kind, created_at AS at, user_id
         FROM acts ORDER BY order_id, kind, created_at, id
     ),
     accepts AS (SELECT order_id, min(created_at) AS accepted_at FROM acts WHERE action_type = 'ACCEPT' GROUP BY order_id),
     per_order AS (
       SELECT r.received_at, r.bin, fa.at AS answered_at, fa.user_id AS answered_by, ac.accepted_at, ff.at AS filled_at, ff.user_id AS filled_by
         FROM recv r
         LEFT JOIN firsts fa ON fa.order_id = r.id AND fa.kind = 'answer'
         LEFT JOIN firsts ff ON ff.order_id = r.id AND ff.kind = 'fill'
         LEFT JOIN accepts ac ON ac.order_id = r.id
     ),
     -- Each period named once per bin, not once per order.
     periods AS (SELECT bin, ${periodOf('bin')} AS b FROM (SELECT DISTINCT bin FROM recv) x),
     durations AS (
       SELECT m.measure, pr.b, m.user_id, m.ms
         FROM per_order p
         JOIN periods pr ON pr.bin = p.bin
        CROSS JOIN LATERAL (VALUES
          ('answer', p.answered_by, extract(epoch FROM p.answered_at - p.received_at)::float8 * 1000),
          ('firstFill', p.filled_by, extract(epoch FROM p.filled_at - p.accepted_at)::float8 * 1000)) m (measure, user_id, ms)
        WHERE m.ms IS NOT NULL
     ),
     grouped AS (
       SELECT measure, b, user_id, grouping(b) AS no_b, grouping(user_id) AS no_user, count(*)::int AS n,
              percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY ms) AS p
         FROM durations
        GROUP BY GROUPING SETS ((measure), (measure, b), (measure, user_id))
     )
     SELECT measure,
            CASE WHEN no_b = 0 THEN 'period' WHEN no_user = 0 THEN 'user' ELSE 'all' END AS grp,
            CASE WHEN no_b = 0 THEN ${periodName('b')} END AS period,
            CASE WHEN no_b = 0 THEN ${isoText('b')} END AS start,
            CASE WHEN no_user = 0 THEN user_id END AS username,
            n AS count, p[1] AS p50, p[2] AS p90, p[3] AS p99
       FROM grouped
     UNION ALL
     SELECT 'answer', 'waiting', NULL, NULL, NULL, count(*) FILTER (WHERE answered_at IS NULL)::int, NULL, NULL, NULL FROM per_order
     UNION ALL
     SELECT 'firstFill', 'waiting', NULL, NULL, NULL, count(*) FILTER (WHERE accepted_at IS NOT NULL AND filled_at IS NULL)::int, NULL, NULL, NULL
       FROM per_order
      ORDER BY measure, grp, start, username`,
    f,
  );
  const empty = (): AnswerTimesMeasure => ({
    overall: { count: 0, p50Ms: null, p90Ms: null, p99Ms: null },
    waiting: 0,
    byPeriod: [],
    byUser: [],
  });
  const out = { answer: empty(), firstFill: empty() };
  for (const r of rows) {
    const figures: AnswerTimes = { count: r.count, p50Ms: ms(r.p50), p90Ms: ms(r.p90), p99Ms: ms(r.p99) };
    const m = out[r.measure];
    if (r.grp === 'waiting') m.waiting = r.count;
    else if (r.grp === 'all') m.overall = figures;
    else if (r.grp === 'period') m.byPeriod.push({ period: r.period!, start: r.start!, ...figures });
    else m.byUser.push({ user: r.username!, ...figures });
  }
  return out;
}

// ── fills as lots per contract (the contracts and the clients' volume) ──

/**
 * Every fill in the range of the clients of `set`, on its contract: an outright's on the order's
 * symbol and month; a fill on one leg of a spread on that leg's contract; a fill of a spread at its own
 * price on each leg's contract, its lots times the leg's ratio, at the leg's price when the order gave
 * one. Notional: lots × price × the contract's size (1 without one); null when the price is not known.
 */
const fillsCte = (set: 'trading' | 'chosen') => `fill_rows AS (${withOrder(
  `SELECT o.sendercompid AS client, o.id AS order_id, o.msg_type, o.symbol, o.maturity_month_year, a.fill_qty, a.fill_price, a.leg_index`,
  `a.action_type IN ('FILL', 'PARTIAL_FILL') AND a.fill_qty IS NOT NULL AND ${inRange('a.created_at')} AND ${orderFilter('o', set)}`,
)}),
fills AS (
  SELECT f.client,
         coalesce(l.leg_symbol, f.symbol) AS symbol,
         CASE WHEN l.order_id IS NULL THEN f.maturity_month_year ELSE l.leg_maturity_month_year END AS month,
         f.fill_qty * CASE WHEN f.leg_index IS NULL AND l.order_id IS NOT NULL THEN l.leg_ratio_qty ELSE 1 END AS lots,
         CASE WHEN f.leg_index IS NULL AND l.order_id IS NOT NULL THEN l.leg_price ELSE f.fill_price END AS px
    FROM fill_rows f
    LEFT JOIN order_legs l ON f.msg_type = 'AB' AND l.order_id = f.order_id AND (f.leg_index IS NULL OR l.leg_index = f.leg_index)
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
  const rows = await chartQuery<ClientRow & { desk_lots: string }>(
    db,
    `WITH ${CLIENT_CTES},
     ${fillsCte('trading')},
     desk AS MATERIALIZED (SELECT coalesce(sum(lots), 0) AS lots FROM fills),
     book AS (
       SELECT o.sendercompid AS client, count(*)::int AS n, sum(o.orderqty) AS ordered, sum(o.cumqty) AS filled
         FROM orders o WHERE ${inRange('o.created_at')} AND ${orderFilter('o')}
        GROUP BY 1
     ),
     reasons AS (
       SELECT r.sendercompid AS client, 'refused' AS source, r.ordrejreason AS reason, count(*)::int AS n
         FROM refused_orders r WHERE ${inRange('r.created_at')} AND ${orderFilter('r')}
        GROUP BY 1, 3
       UNION ALL
       SELECT j.client, 'rejected', coalesce(er.ordrejreason, 99), count(DISTINCT j.order_id)::int
         FROM (${withOrder(
           'SELECT o.sendercompid AS client, a.order_id',
           `a.action_type = 'REJECT' AND ${inRange('a.created_at')} AND ${orderFilter('o')}`,
         )}) j
         LEFT JOIN LATERAL (SELECT er.ordrejreason FROM execution_reports er
                             WHERE er.order_id = j.order_id AND er.exectype = '8' ORDER BY er.id LIMIT 1) er ON true
        GROUP BY 1, 3
     ),
     volume AS (SELECT client, sum(lots) AS lots FROM fills WHERE client = ANY ($4::text[]) GROUP BY 1),
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
      `WITH ${CLIENT_CTES}, ${fillsCte('trading')} SELECT ${decimalText('coalesce(sum(lots), 0)')} AS desk_lots FROM fills`,
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
    `WITH ${CLIENT_CTES}, ${fillsCte('chosen')},
     per_contract AS (
       SELECT fl.symbol, fl.month, sum(fl.lots) AS lots, count(*)::int AS fills,
              coalesce(sum(fl.lots * fl.px * coalesce(sm.contract_size, 1)) FILTER (WHERE fl.px IS NOT NULL), 0) AS notional,
              min(sm.currency) AS currency
         FROM fills fl
         LEFT JOIN security_master sm ON upper(sm.symbol) = upper(fl.symbol)
        GROUP BY fl.symbol, fl.month
     )
     SELECT symbol, month, ${decimalText('lots')} AS lots, ${decimalText('notional')} AS notional, currency, fills
       FROM per_contract
      ORDER BY per_contract.lots DESC, symbol, month NULLS FIRST
      LIMIT ${INSIGHTS_TOP_CONTRACTS}`,
    f,
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
