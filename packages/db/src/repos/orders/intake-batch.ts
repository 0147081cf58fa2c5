import type { Queryable } from '../../db';
import { pgArray, type PgArrayElement } from '../../pg-array';
import { drawnRefusalCopiesCte, type RefusalTerms } from '../drop-copies';
import { requestClOrdIdOnDaySql } from './ids';
import type { ExecReportRow, NewOrderRecord, OrderLegRow, OrderRow } from './rows';

// New orders stored in batches: one statement writes the orders, legs, parties and reports of a batch.

// ------------------------------------------------------------------------------------------------
// Order intake in batches

/** One entry of an intake batch: a new order to store, or (order null) only an ExecID for a refusal report. */
export interface IntakeEntry {
  readonly order: NewOrderRecord | null;
  readonly execIdPrefix: string;
  /** TransactTime of the Pending New (the intake time). */
  readonly reportTime: Date;
  /**
   * For an entry without an order: the refusal its report is, written with its ExecID as drop copies
   * (docs/adr/0017 point 2); `client`: the refused client's comp id. Absent: no copies.
   */
  readonly refusal?: { readonly client: string; readonly terms: RefusalTerms };
}

/** The order a refused duplicate collided with, as far as the batch could see it. */
export interface ExistingOrderFacts {
  brokerorderid: string;
  side: string;
  symbol: string;
  orderqty: string;
  ordtype: string;
  price: string | null;
}

export type IntakeOutcome =
  | { kind: 'stored'; order: OrderRow; er: ExecReportRow; legs: OrderLegRow[] }
  /** The ClOrdID was already used that trading day: nothing stored. `existing` is null when the other order is not visible yet. */
  | { kind: 'duplicate'; execId: string; existing: ExistingOrderFacts | null }
  /** `orderId`: the id a planned batch drew for the refused order's record (refused_orders), in queue order. */
  | { kind: 'refusal'; execId: string; orderId?: number };

/**
 * Stores a batch of new orders (legs, parties and each Pending New execution report) and draws ExecIDs
 * for the refusals in it, in ONE statement: one round trip and one commit however many orders. An
 * order whose (SenderCompID, trading day, ClOrdID) exists already is left out and reported as a
 * duplicate, with the facts of the order it collided with (read after the commit; rare). Keys must be
 * distinct within a batch (the caller refuses the later one itself).
 */
export async function storeIntakeBatch(
  db: Queryable,
  entries: readonly IntakeEntry[],
  options: { deferReports?: boolean } = {},
): Promise<IntakeOutcome[]> {
  const withReports = !options.deferReports;
  if (!entries.length) return [];
  const keys = new Set<string>();
  for (const e of entries) {
    if (!e.order) continue;
    const k = `${e.order.sendercompid}\u0001${e.order.sessionDate}\u0001${e.order.clordid}`;
    if (keys.has(k)) throw new Error(`ClOrdID ${e.order.clordid} appears twice in one intake batch`);
    keys.add(k);
  }
  const col = <T>(f: (o: NewOrderRecord) => T) => entries.map((e) => (e.order ? f(e.order) : null));
  const legs = entries.flatMap((e, i) => (e.order?.legs ?? []).map((l) => ({ ord: i + 1, l })));
  const parties = entries.flatMap((e, i) => (e.order?.parties ?? []).map((p, position) => ({ ord: i + 1, p, position })));
  const params: unknown[] = [
    entries.map((e) => e.order !== null),
    col((o) => o.clordid),
    col((o) => o.clientConnectorId),
    col((o) => o.sendercompid),
    col((o) => o.targetcompid),
    col((o) => o.sessionDate),
    col((o) => o.msgType),
    col((o) => o.symbol),
    col((o) => o.securityType),
    col((o) => o.maturityMonthYear),
    col((o) => o.side),
    col((o) => o.ordType),
    col((o) => o.price),
    col((o) => o.orderQty),
    col((o) => o.timeInForce),
    col((o) => o.exchange),
    col((o) => o.currency),
    col((o) => o.account),
    col((o) => o.text),
    col((o) => o.transactTime),
    entries.map((e) => e.execIdPrefix),
    entries.map((e) => e.reportTime),
  ];
  if (legs.length) {
    params.push(
      legs.map((x) => x.ord),
      legs.map((x) => x.l.legIndex),
      legs.map((x) => x.l.symbol),
      legs.map((x) => x.l.securityType),
      legs.map((x) => x.l.maturityMonthYear),
      legs.map((x) => x.l.side),
      legs.map((x) => x.l.ratioQty),
      legs.map((x) => x.l.price),
    );
  }
  if (parties.length) {
    params.push(
      parties.map((x) => x.ord),
      parties.map((x) => x.p.legIndex),
      parties.map((x) => x.position),
      parties.map((x) => x.p.partyId),
      parties.map((x) => x.p.partyIdSource),
      parties.map((x) => x.p.partyRole),
    );
  }
  const withLegs = legs.length > 0;
  const withParties = parties.length > 0;
  const arrays = params.map((a) => pgArray(a as PgArrayElement[]));
  // Refusals' copies, written by this statement, which draws their ExecIDs: only in the shapes of batches holding one.
  const refusals = entries.flatMap((e, i) =>
    !e.order && e.refusal ? [{ ord: i + 1, client: e.refusal.client, terms: e.refusal.terms }] : [],
  );
  const withRefusals = refusals.length > 0;
  if (withRefusals) arrays.push(JSON.stringify(refusals));
  const { rows } = await db.query<OrderRow & IntakeRowExtras>(intakeBatchSql(withLegs, withParties, withReports, withRefusals), arrays, {
    name: `intake_batch_${withLegs ? 'l' : ''}${withParties ? 'p' : ''}${withReports ? 'r' : ''}${withRefusals ? 'f' : ''}`,
  });
  if (rows.length !== entries.length) throw new Error(`intake batch returned ${rows.length} rows for ${entries.length} entries`);
  const duplicates = entries.flatMap((e, i) => (e.order && rows[i]!.id === null ? [e.order] : []));
  const existing = duplicates.length ? await existingOrders(db, duplicates) : new Map<string, ExistingOrderFacts>();
  return rows.map((r, i): IntakeOutcome => {
    const entry = entries[i]!;
    if (!entry.order) return { kind: 'refusal', execId: r.intake_execid };
    if (r.id === null) {
      const o = entry.order;
      return {
        kind: 'duplicate',
        execId: r.intake_execid,
        existing: existing.get(`${o.sendercompid}\u0001${o.sessionDate}\u0001${o.clordid}`) ?? null,
      };
    }
    const order = orderColumns(r);
    const { intake_execid, er_id, er_created_at, leg_ids } = r;
    const legIds = leg_ids ? leg_ids.split(',').map(Number) : [];
    const legRows: OrderLegRow[] = entry.order.legs.map((l, k) => ({
      id: legIds[k]!,
      order_id: order.id,
      leg_index: l.legIndex,
      leg_symbol: l.symbol,
      leg_security_type: l.securityType,
      leg_maturity_month_year: l.maturityMonthYear,
      leg_side: l.side,
      leg_ratio_qty: l.ratioQty,
      leg_price: l.price,
      leg_cumqty: '0',
      leg_avgpx: '0',
    }));
    // Deferred reports: id and created_at are filled in once storeIntakeReports wrote them.
    const er: ExecReportRow = {
      id: er_id ?? 0,
      order_id: order.id,
      execid: intake_execid,
      clordid: order.clordid,
      origclordid: null,
      orderid: order.brokerorderid,
      exectype: 'A',
      ordstatus: 'A',
      side: order.side,
      symbol: order.symbol,
      orderqty: order.orderqty,
      price: order.price,
      lastqty: '0',
      lastpx: '0',
      cumqty: '0',
      avgpx: '0',
      leavesqty: order.orderqty,
      leg_index: null,
      ordrejreason: null,
      text: null,
      transacttime: entry.reportTime,
      created_at: er_created_at ?? entry.reportTime,
      sendercompid: order.sendercompid,
      sent_seq_num: null,
      sent_at: null,
      executing_trader_id: null,
      executing_trader_source: null,
      executing_trader_name: null,
    };
    return { kind: 'stored', order, er, legs: legRows };
  });
}

/** The orders that refused duplicates collided with, by (sender, day, ClOrdID). */
async function existingOrders(db: Queryable, orders: readonly NewOrderRecord[]): Promise<Map<string, ExistingOrderFacts>> {
  const { rows } = await db.query<ExistingOrderFacts & { sendercompid: string; session_date: string; clordid: string }>(
    `SELECT o.sendercompid, o.session_date::text AS session_date, o.clordid, o.brokerorderid, o.side, o.symbol, o.orderqty::text AS orderqty,
            o.ordtype, o.price::text AS price
       FROM orders o JOIN unnest($1::text[], $2::date[], $3::text[]) AS k(sendercompid, session_date, clordid)
         ON o.sendercompid = k.sendercompid AND o.session_date = k.session_date AND o.clordid = k.clordid`,
    [orders.map((o) => o.sendercompid), orders.map((o) => o.sessionDate), orders.map((o) => o.clordid)],
  );
  return new Map(
    rows.map((r) => [
      `${r.sendercompid}\u0001${r.session_date}\u0001${r.clordid}`,
      {
        brokerorderid: r.brokerorderid,
        side: r.side,
        symbol: r.symbol,
        orderqty: r.orderqty,
        ordtype: r.ordtype,
        price: r.price,
      },
    ]),
  );
}

/** The order's own columns of an intake row (the row also carries the batch's bookkeeping). */
function orderColumns(r: OrderRow & IntakeRowExtras): OrderRow {
  return {
    id: r.id,
    brokerorderid: r.brokerorderid,
    clordid: r.clordid,
    origclordid: r.origclordid,
    client_connector_id: r.client_connector_id,
    sendercompid: r.sendercompid,
    targetcompid: r.targetcompid,
    session_date: r.session_date,
    msg_type: r.msg_type,
    symbol: r.symbol,
    security_type: r.security_type,
    maturity_month_year: r.maturity_month_year,
    side: r.side,
    ordtype: r.ordtype,
    price: r.price,
    orderqty: r.orderqty,
    timeinforce: r.timeinforce,
    exchange: r.exchange,
    currency: r.currency,
    account: r.account,
    text: r.text,
    ordstatus: r.ordstatus,
    cumqty: r.cumqty,
    leavesqty: r.leavesqty,
    avgpx: r.avgpx,
    lastqty: r.lastqty,
    lastpx: r.lastpx,
    transacttime: r.transacttime,
    accepted_by: r.accepted_by,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

interface IntakeRowExtras {
  intake_execid: string;
  er_id: number | null;
  er_created_at: Date | null;
  leg_ids: string | null;
}

// Sequence numbers are padded, never cut: lpad to at least the width.
const padded = (n: string, width: number) => `lpad(${n}, greatest(${width}, length(${n})), '0')`;

const intakeSqlVariants = new Map<string, string>();

/**
 * The batch statement. Its data-modifying CTEs run as one statement: the legs, parties and reports
 * join the RETURNING rows of the orders insert and the foreign keys are checked at its end. Batches
 * without legs or parties leave those parts out (less to plan on the hot path).
 */
function intakeBatchSql(withLegs: boolean, withParties: boolean, withReports: boolean, withRefusals: boolean): string {
  const key = `${withLegs}${withParties}${withReports}${withRefusals}`;
  let sql = intakeSqlVariants.get(key);
  if (sql) return sql;
  let n = 22;
  const next = () => `$${++n}`;
  const legsCte = withLegs
    ? `,
legs AS (
  INSERT INTO order_legs (order_id, leg_index, leg_symbol, leg_security_type, leg_maturity_month_year, leg_side, leg_ratio_qty, leg_price)
  SELECT s.id, l.leg_index, l.symbol, l.security_type, l.maturity_month_year, l.side, l.ratio_qty, l.price
    FROM unnest(${next()}::int[], ${next()}::int[], ${next()}::text[], ${next()}::text[], ${next()}::text[], ${next()}::text[], ${next()}::numeric[], ${next()}::numeric[])
         AS l(ord, leg_index, symbol, security_type, maturity_month_year, side, ratio_qty, price)
    JOIN stored s ON s.ord = l.ord
  RETURNING id, order_id, leg_index
)`
    : '';
  const partiesCte = withParties
    ? `,
parties AS (
  INSERT INTO order_parties (order_id, leg_index, position, party_id, party_id_source, party_role)
  SELECT s.id, p.leg_index, p.position, p.party_id, p.party_id_source, p.party_role
    FROM unnest(${next()}::int[], ${next()}::int[], ${next()}::int[], ${next()}::text[], ${next()}::text[], ${next()}::int[])
         AS p(ord, leg_index, position, party_id, party_id_source, party_role)
    JOIN stored s ON s.ord = p.ord
)`
    : '';
  const refusalsCte = withRefusals ? `,\n${drawnRefusalCopiesCte(++n, 'input')}` : '';
  sql = `
WITH input AS MATERIALIZED (
  SELECT i.*,
         i.exec_prefix || '-' || ${padded('i.e::text', 9)} AS execid,
         CASE WHEN i.is_order THEN 'BO' || ${padded('i.b::text', 8)} END AS brokerorderid
    -- The numbers are drawn in the subquery's select list, once per row (a volatile select list keeps it
    -- a subquery; the padding then reads each number twice).
    FROM (SELECT u.*, nextval('exec_id_seq') AS e, CASE WHEN u.is_order THEN nextval('broker_order_seq') END AS b
            FROM unnest($1::boolean[], $2::text[], $3::int[], $4::text[], $5::text[], $6::date[], $7::text[], $8::text[], $9::text[], $10::text[],
                        $11::text[], $12::text[], $13::numeric[], $14::numeric[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[],
                        $20::timestamptz[], $21::text[], $22::timestamptz[])
                 WITH ORDINALITY AS u(is_order, clordid, connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, security_type,
                                      maturity_month_year, side, ordtype, price, orderqty, timeinforce, exchange, currency, account, text, transacttime,
                                      exec_prefix, report_time, ord)
           ORDER BY u.ord) i
   ORDER BY i.ord
),
ins AS (
  INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, security_type,
                      maturity_month_year, side, ordtype, price, orderqty, timeinforce, exchange, currency, account, text, ordstatus, cumqty,
                      leavesqty, avgpx, transacttime)
  SELECT brokerorderid, clordid, connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, security_type, maturity_month_year,
         side, ordtype, price, orderqty, timeinforce, exchange, currency, account, text, 'A', 0, orderqty, 0, transacttime
    FROM input i
   WHERE i.is_order
     -- A ClOrdID one of the client's cancel/replace requests carried that trading day is taken too.
     AND NOT ${requestClOrdIdOnDaySql('i.sendercompid', 'i.clordid', 'i.session_date')}
   ORDER BY i.ord
  ON CONFLICT (sendercompid, session_date, clordid) DO NOTHING
  RETURNING *
),
stored AS (
  SELECT i.ord, i.report_time, o.*
    FROM ins o JOIN input i ON i.is_order AND i.sendercompid = o.sendercompid AND i.session_date = o.session_date AND i.clordid = o.clordid
),
er AS (
  ${
    withReports
      ? `INSERT INTO execution_reports (order_id, execid, sendercompid, clordid, origclordid, orderid, exectype, ordstatus, side, symbol, orderqty, price,
                                 lastqty, lastpx, cumqty, avgpx, leavesqty, leg_index, ordrejreason, text, transacttime)
  SELECT s.id, i.execid, s.sendercompid, s.clordid, NULL, s.brokerorderid, 'A', 'A', s.side, s.symbol, s.orderqty, s.price,
         0, 0, 0, 0, s.orderqty, NULL, NULL, NULL, s.report_time
    FROM stored s JOIN input i ON i.ord = s.ord ORDER BY s.ord
  RETURNING id, order_id, created_at`
      : 'SELECT NULL::int8 AS id, NULL::int8 AS order_id, NULL::timestamptz AS created_at WHERE false'
  }
)${legsCte}${partiesCte}${refusalsCte}
SELECT s.*, s.session_date::text AS session_date, i.execid AS intake_execid, e.id AS er_id, e.created_at AS er_created_at,
       ${withLegs ? "(SELECT string_agg(l.id::text, ',' ORDER BY l.leg_index) FROM legs l WHERE l.order_id = s.id)" : 'NULL::text'} AS leg_ids
  FROM input i
  LEFT JOIN stored s ON s.ord = i.ord
  LEFT JOIN er e ON e.order_id = s.id
 ORDER BY i.ord`;
  intakeSqlVariants.set(key, sql);
  return sql;
}

/**
 * The Pending New rows of an intake batch stored with storeIntakeBatch(..., { deferReports: true }),
 * as CTEs for persistReservedOutbound (the statement that also stores the replies carrying them):
 * each row is written once, already marked as sent when its reply was reserved (no second write of
 * the row). Parameters from `$${firstParam}`; its `result` CTE gives (id, execid, created_at).
 */
export function intakeReportsCtes(
  reports: ReadonlyArray<{ er: ExecReportRow; sentSeqNum: number | null }>,
  firstParam: number,
): { ctes: string; params: unknown[] } {
  const p = (k: number) => `$${firstParam + k}`;
  return {
    ctes: `result AS (
  INSERT INTO execution_reports (order_id, execid, sendercompid, clordid, origclordid, orderid, exectype, ordstatus, side, symbol, orderqty, price,
                                 lastqty, lastpx, cumqty, avgpx, leavesqty, leg_index, ordrejreason, text, transacttime, sent_seq_num, sent_at)
  SELECT r.order_id, r.execid, r.sendercompid, r.clordid, NULL, r.orderid, r.exectype, r.ordstatus, r.side, r.symbol, r.orderqty, r.price,
         0, 0, 0, 0, r.leavesqty, NULL, NULL, NULL, r.transacttime, r.seq, CASE WHEN r.seq IS NULL THEN NULL ELSE now() END
    FROM unnest(${p(0)}::int8[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::text[],
                ${p(7)}::text[], ${p(8)}::text[], ${p(9)}::numeric[], ${p(10)}::numeric[], ${p(11)}::numeric[], ${p(12)}::timestamptz[], ${p(13)}::int[])
         WITH ORDINALITY AS r(order_id, execid, sendercompid, clordid, orderid, exectype, ordstatus, side, symbol, orderqty, price, leavesqty, transacttime, seq, ord)
   ORDER BY r.ord
  RETURNING id, execid, created_at
)`,
    params: (
      [
        reports.map((x) => x.er.order_id),
        reports.map((x) => x.er.execid),
        reports.map((x) => x.er.sendercompid),
        reports.map((x) => x.er.clordid),
        reports.map((x) => x.er.orderid),
        reports.map((x) => x.er.exectype),
        reports.map((x) => x.er.ordstatus),
        reports.map((x) => x.er.side),
        reports.map((x) => x.er.symbol),
        reports.map((x) => x.er.orderqty),
        reports.map((x) => x.er.price),
        reports.map((x) => x.er.leavesqty),
        reports.map((x) => x.er.transacttime),
        reports.map((x) => x.sentSeqNum),
      ] as PgArrayElement[][]
    ).map(pgArray),
  };
}
