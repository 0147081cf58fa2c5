import type { Queryable } from '../db';
import { pgArray, type PgArrayElement } from '../pg-array';

// Orders, their legs, parties, execution reports, client requests and broker actions.
// Decimal columns travel as strings in both directions.

export interface NewOrderLeg {
  legIndex: number;
  symbol: string;
  securityType: string | null;
  maturityMonthYear: string | null;
  side: '1' | '2';
  ratioQty: string;
  price: string | null;
}

export interface NewOrderParty {
  legIndex: number | null;
  partyId: string;
  partyIdSource: string | null;
  partyRole: number;
}

export interface NewOrderRecord {
  clordid: string;
  clientConnectorId: number;
  sendercompid: string;
  targetcompid: string;
  sessionDate: string;
  msgType: 'D' | 'AB';
  symbol: string;
  securityType: string | null;
  maturityMonthYear: string | null;
  side: '1' | '2';
  ordType: '1' | '2';
  price: string | null;
  orderQty: string;
  timeInForce: string;
  exchange: string | null;
  currency: string | null;
  account: string | null;
  text: string | null;
  transactTime: Date;
  legs: NewOrderLeg[];
  parties: NewOrderParty[];
}

export interface OrderRow {
  id: number;
  brokerorderid: string;
  clordid: string;
  origclordid: string | null;
  client_connector_id: number;
  sendercompid: string;
  targetcompid: string;
  session_date: string;
  msg_type: 'D' | 'AB';
  symbol: string;
  security_type: string | null;
  maturity_month_year: string | null;
  side: '1' | '2';
  ordtype: '1' | '2';
  price: string | null;
  orderqty: string;
  timeinforce: string;
  exchange: string | null;
  currency: string | null;
  account: string | null;
  text: string | null;
  ordstatus: string;
  cumqty: string;
  leavesqty: string;
  avgpx: string;
  lastqty: string | null;
  lastpx: string | null;
  transacttime: Date;
  accepted_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface OrderLegRow {
  id: number;
  order_id: number;
  leg_index: number;
  leg_symbol: string;
  leg_security_type: string | null;
  leg_maturity_month_year: string | null;
  leg_side: '1' | '2';
  leg_ratio_qty: string;
  leg_price: string | null;
  leg_cumqty: string;
  leg_avgpx: string;
}

export interface OrderPartyRow {
  order_id: number;
  leg_index: number | null;
  position: number;
  party_id: string;
  party_id_source: string | null;
  party_role: number;
}

export interface ExecReportRow {
  id: number;
  order_id: number;
  execid: string;
  clordid: string;
  origclordid: string | null;
  orderid: string;
  exectype: string;
  ordstatus: string;
  side: string | null;
  symbol: string | null;
  orderqty: string | null;
  price: string | null;
  lastqty: string | null;
  lastpx: string | null;
  cumqty: string;
  avgpx: string;
  leavesqty: string;
  leg_index: number | null;
  ordrejreason: number | null;
  text: string | null;
  transacttime: Date;
  created_at: Date;
  sendercompid: string | null;
  sent_seq_num: number | null;
  sent_at: Date | null;
}

export interface OrderRequestRow {
  id: number;
  order_id: number;
  request_type: 'F' | 'G';
  clordid: string;
  origclordid: string;
  new_orderqty: string | null;
  new_price: string | null;
  new_ordtype: string | null;
  text: string | null;
  status: 'PENDING' | 'CONFIRMED' | 'REFUSED';
  decided_by: string | null;
  decided_at: Date | null;
  decision_text: string | null;
  created_at: Date;
}


/** ExecID: the connector's execution id prefix, then a database-wide sequence. */
export function formatExecId(prefix: string, seq: number): string {
  return `${prefix}-${String(seq).padStart(9, '0')}`;
}

export async function nextExecIds(db: Queryable, prefix: string, count: number): Promise<string[]> {
  const { rows } = await db.query<{ n: number }>('SELECT nextval(\'exec_id_seq\')::int8 AS n FROM generate_series(1, $1)', [count]);
  return rows.map((r) => formatExecId(prefix, r.n));
}

/** Whether this client already used the ClOrdID on this trading day. */
/**
 * SQL: whether client `sender` sent ClOrdID `clordid` on trading day `day` (a date) in a cancel/replace
 * request; the request's day is taken in its connector's time zone. The arguments are SQL expressions.
 */
export function requestClOrdIdOnDaySql(sender: string, clordid: string, day: string): string {
  return `EXISTS (SELECT 1 FROM order_requests r JOIN orders ro ON ro.id = r.order_id JOIN client_connectors rc ON rc.id = ro.client_connector_id
                   WHERE ro.sendercompid = ${sender} AND r.clordid = ${clordid}
                     AND r.created_at >= ${day} - 1 AND r.created_at < ${day} + 2
                     AND (r.created_at AT TIME ZONE rc.timezone)::date = ${day})`;
}

/** Whether a client already used a ClOrdID on a trading day, on an order or on a cancel/replace request. */
export async function clordidUsedOnDay(db: Queryable, sendercompid: string, sessionDate: string, clordid: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT EXISTS (SELECT 1 FROM orders WHERE sendercompid = $1 AND session_date = $2::date AND clordid = $3)
            OR ${requestClOrdIdOnDaySql('$1', '$3', '$2::date')} AS used`,
    [sendercompid, sessionDate, clordid],
  );
  return rows[0]?.used === true;
}

// ------------------------------------------------------------------------------------------------
// Order intake in batches

/** One entry of an intake batch: a new order to store, or (order null) only an ExecID for a refusal report. */
export interface IntakeEntry {
  readonly order: NewOrderRecord | null;
  readonly execIdPrefix: string;
  /** TransactTime of the Pending New (the intake time). */
  readonly reportTime: Date;
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
  | { kind: 'refusal'; execId: string };

/**
 * Stores a batch of new orders (legs, parties and each Pending New execution report) and draws ExecIDs
 * for the refusals in it, in ONE statement: one round trip and one commit however many orders. An
 * order whose (SenderCompID, trading day, ClOrdID) exists already is left out and reported as a
 * duplicate, with the facts of the order it collided with (read after the commit; rare). Keys must be
 * distinct within a batch (the caller refuses the later one itself).
 */
export async function storeIntakeBatch(db: Queryable, entries: readonly IntakeEntry[], options: { deferReports?: boolean } = {}): Promise<IntakeOutcome[]> {
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
      legs.map((x) => x.ord), legs.map((x) => x.l.legIndex), legs.map((x) => x.l.symbol), legs.map((x) => x.l.securityType),
      legs.map((x) => x.l.maturityMonthYear), legs.map((x) => x.l.side), legs.map((x) => x.l.ratioQty), legs.map((x) => x.l.price),
    );
  }
  if (parties.length) {
    params.push(
      parties.map((x) => x.ord), parties.map((x) => x.p.legIndex), parties.map((x) => x.position), parties.map((x) => x.p.partyId),
      parties.map((x) => x.p.partyIdSource), parties.map((x) => x.p.partyRole),
    );
  }
  const withLegs = legs.length > 0;
  const withParties = parties.length > 0;
  const { rows } = await db.query<OrderRow & IntakeRowExtras>(intakeBatchSql(withLegs, withParties, withReports), params.map((a) => pgArray(a as PgArrayElement[])), {
    name: `intake_batch_${withLegs ? 'l' : ''}${withParties ? 'p' : ''}${withReports ? 'r' : ''}`,
  });
  if (rows.length !== entries.length) throw new Error(`intake batch returned ${rows.length} rows for ${entries.length} entries`);
  const duplicates = entries.flatMap((e, i) => (e.order && rows[i]!.id === null ? [e.order] : []));
  const existing = duplicates.length ? await existingOrders(db, duplicates) : new Map<string, ExistingOrderFacts>();
  return rows.map((r, i): IntakeOutcome => {
    const entry = entries[i]!;
    if (!entry.order) return { kind: 'refusal', execId: r.intake_execid };
    if (r.id === null) {
      const o = entry.order;
      return { kind: 'duplicate', execId: r.intake_execid, existing: existing.get(`${o.sendercompid}\u0001${o.sessionDate}\u0001${o.clordid}`) ?? null };
    }
    const order = orderColumns(r);
    const { intake_execid, er_id, er_created_at, leg_ids } = r;
    const legIds = leg_ids ? leg_ids.split(',').map(Number) : [];
    const legRows: OrderLegRow[] = entry.order.legs.map((l, k) => ({
      id: legIds[k]!, order_id: order.id, leg_index: l.legIndex, leg_symbol: l.symbol, leg_security_type: l.securityType,
      leg_maturity_month_year: l.maturityMonthYear, leg_side: l.side, leg_ratio_qty: l.ratioQty, leg_price: l.price, leg_cumqty: '0', leg_avgpx: '0',
    }));
    // Deferred reports: id and created_at are filled in once storeIntakeReports wrote them.
    const er: ExecReportRow = {
      id: er_id ?? 0, order_id: order.id, execid: intake_execid, clordid: order.clordid, origclordid: null, orderid: order.brokerorderid, exectype: 'A',
      ordstatus: 'A', side: order.side, symbol: order.symbol, orderqty: order.orderqty, price: order.price, lastqty: '0', lastpx: '0', cumqty: '0',
      avgpx: '0', leavesqty: order.orderqty, leg_index: null, ordrejreason: null, text: null, transacttime: entry.reportTime,
      created_at: er_created_at ?? entry.reportTime, sendercompid: order.sendercompid, sent_seq_num: null, sent_at: null,
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
  return new Map(rows.map((r) => [`${r.sendercompid}\u0001${r.session_date}\u0001${r.clordid}`, {
    brokerorderid: r.brokerorderid, side: r.side, symbol: r.symbol, orderqty: r.orderqty, ordtype: r.ordtype, price: r.price,
  }]));
}

/** The order's own columns of an intake row (the row also carries the batch's bookkeeping). */
function orderColumns(r: OrderRow & IntakeRowExtras): OrderRow {
  return {
    id: r.id, brokerorderid: r.brokerorderid, clordid: r.clordid, origclordid: r.origclordid, client_connector_id: r.client_connector_id,
    sendercompid: r.sendercompid, targetcompid: r.targetcompid, session_date: r.session_date, msg_type: r.msg_type, symbol: r.symbol,
    security_type: r.security_type, maturity_month_year: r.maturity_month_year, side: r.side, ordtype: r.ordtype, price: r.price,
    orderqty: r.orderqty, timeinforce: r.timeinforce, exchange: r.exchange, currency: r.currency, account: r.account, text: r.text,
    ordstatus: r.ordstatus, cumqty: r.cumqty, leavesqty: r.leavesqty, avgpx: r.avgpx, lastqty: r.lastqty, lastpx: r.lastpx,
    transacttime: r.transacttime, accepted_by: r.accepted_by, created_at: r.created_at, updated_at: r.updated_at,
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
function intakeBatchSql(withLegs: boolean, withParties: boolean, withReports: boolean): string {
  const key = `${withLegs}${withParties}${withReports}`;
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
  ${withReports ? `INSERT INTO execution_reports (order_id, execid, sendercompid, clordid, origclordid, orderid, exectype, ordstatus, side, symbol, orderqty, price,
                                 lastqty, lastpx, cumqty, avgpx, leavesqty, leg_index, ordrejreason, text, transacttime)
  SELECT s.id, i.execid, s.sendercompid, s.clordid, NULL, s.brokerorderid, 'A', 'A', s.side, s.symbol, s.orderqty, s.price,
         0, 0, 0, 0, s.orderqty, NULL, NULL, NULL, s.report_time
    FROM stored s JOIN input i ON i.ord = s.ord ORDER BY s.ord
  RETURNING id, order_id, created_at` : 'SELECT NULL::int8 AS id, NULL::int8 AS order_id, NULL::timestamptz AS created_at WHERE false'}
)${legsCte}${partiesCte}
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
export function intakeReportsCtes(reports: ReadonlyArray<{ er: ExecReportRow; sentSeqNum: number | null }>, firstParam: number): { ctes: string; params: unknown[] } {
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
    params: ([
      reports.map((x) => x.er.order_id), reports.map((x) => x.er.execid), reports.map((x) => x.er.sendercompid), reports.map((x) => x.er.clordid),
      reports.map((x) => x.er.orderid), reports.map((x) => x.er.exectype), reports.map((x) => x.er.ordstatus), reports.map((x) => x.er.side),
      reports.map((x) => x.er.symbol), reports.map((x) => x.er.orderqty), reports.map((x) => x.er.price), reports.map((x) => x.er.leavesqty),
      reports.map((x) => x.er.transacttime), reports.map((x) => x.sentSeqNum),
    ] as PgArrayElement[][]).map(pgArray),
  };
}

const ORDER_COLUMNS = '*, session_date::text AS session_date';

/** Locks the order row for the rest of the transaction (one broker action at a time per order). */
export async function lockOrder(db: Queryable, idOrBrokerId: string | number): Promise<OrderRow | undefined> {
  const byId = typeof idOrBrokerId === 'number' || /^\d+$/.test(idOrBrokerId);
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${byId ? 'id = $1::int8' : 'brokerorderid = $1'} FOR UPDATE`,
    [String(idOrBrokerId)],
  );
  return rows[0];
}

export async function findOrderByClOrdId(db: Queryable, sendercompid: string, clordid: string, forUpdate = false): Promise<OrderRow | undefined> {
  // The latest order with that ClOrdID from this client (ClOrdIDs are unique per trading day).
  const { rows } = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE sendercompid = $1 AND clordid = $2 ORDER BY id DESC LIMIT 1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [sendercompid, clordid],
  );
  return rows[0];
}

export interface OrderUpdate {
  ordstatus: string;
  cumqty: string;
  leavesqty: string;
  avgpx: string;
  lastqty: string | null;
  lastpx: string | null;
  orderqty?: string;
  price?: string | null;
  ordtype?: string;
  clordid?: string;
  origclordid?: string | null;
  accepted_by?: string | null;
}

export async function updateOrder(db: Queryable, id: number, u: OrderUpdate): Promise<OrderRow> {
  const { rows } = await db.query<OrderRow>(
    `UPDATE orders SET ordstatus = $2, cumqty = $3, leavesqty = $4, avgpx = $5, lastqty = $6, lastpx = $7,
            orderqty = coalesce($8, orderqty), price = CASE WHEN $9::boolean THEN $10::numeric ELSE price END,
            ordtype = coalesce($11, ordtype), clordid = coalesce($12, clordid),
            origclordid = CASE WHEN $13::boolean THEN $14 ELSE origclordid END,
            accepted_by = coalesce($15, accepted_by), updated_at = now()
      WHERE id = $1 RETURNING ${ORDER_COLUMNS}`,
    [id, u.ordstatus, u.cumqty, u.leavesqty, u.avgpx, u.lastqty, u.lastpx, u.orderqty ?? null, u.price !== undefined, u.price ?? null,
     u.ordtype ?? null, u.clordid ?? null, u.origclordid !== undefined, u.origclordid ?? null, u.accepted_by ?? null],
  );
  return rows[0]!;
}

export interface NewExecReport {
  orderId: number;
  execid: string;
  sendercompid: string;
  clordid: string;
  origclordid: string | null;
  orderid: string;
  exectype: string;
  ordstatus: string;
  side: string;
  symbol: string;
  orderqty: string;
  price: string | null;
  lastqty: string | null;
  lastpx: string | null;
  cumqty: string;
  avgpx: string;
  leavesqty: string;
  legIndex: number | null;
  ordrejreason: number | null;
  text: string | null;
  transacttime: Date;
}

export async function insertExecReport(db: Queryable, e: NewExecReport): Promise<ExecReportRow> {
  const { rows } = await db.query<ExecReportRow>(
    `INSERT INTO execution_reports (order_id, execid, sendercompid, clordid, origclordid, orderid, exectype, ordstatus, side, symbol,
                                    orderqty, price, lastqty, lastpx, cumqty, avgpx, leavesqty, leg_index, ordrejreason, text, transacttime)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21) RETURNING *`,
    [e.orderId, e.execid, e.sendercompid, e.clordid, e.origclordid, e.orderid, e.exectype, e.ordstatus, e.side, e.symbol, e.orderqty,
     e.price, e.lastqty, e.lastpx, e.cumqty, e.avgpx, e.leavesqty, e.legIndex, e.ordrejreason, e.text, e.transacttime],
  );
  return rows[0]!;
}

/**
 * A report whose reply was stored but never written (the client's connection was gone): the outbox
 * sends it again at the client's next logon, flagged PossResend (a client whose numbers reset at that
 * logon could never ask for the stored copy).
 */
export async function markExecReportUnsent(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE execution_reports SET sent_at = NULL, sent_seq_num = NULL WHERE id = $1', [id]);
}

export async function markExecReportSent(db: Queryable, id: number, seqNum: number | null): Promise<void> {
  await db.query('UPDATE execution_reports SET sent_at = now(), sent_seq_num = $2 WHERE id = $1 AND sent_at IS NULL', [id, seqNum]);
}

/**
 * Marks many reports sent at once: [report id, MsgSeqNum] pairs. The commit does not wait for the
 * WAL flush (synchronous_commit off for this statement's own transaction): the report is already
 * durable in the FIX store, and a mark a crash loses only means the report goes out again at the
 * next logon, flagged PossResend. The orders and the FIX store keep synchronous commits.
 */
export async function markExecReportsSent(db: Queryable, marks: ReadonlyArray<readonly [number, number]>): Promise<void> {
  if (!marks.length) return;
  await db.query(
    `WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
     UPDATE execution_reports e SET sent_at = now(), sent_seq_num = m.seq
       FROM unnest($1::int8[], $2::int[]) AS m(id, seq), relaxed
      WHERE e.id = m.id AND e.sent_at IS NULL`,
    [marks.map((m) => m[0]), marks.map((m) => m[1])],
    { name: 'mark_reports_sent' },
  );
}

export async function unsentExecReports(db: Queryable, sendercompid: string): Promise<ExecReportRow[]> {
  const { rows } = await db.query<ExecReportRow>(
    'SELECT * FROM execution_reports WHERE sendercompid = $1 AND sent_at IS NULL ORDER BY id',
    [sendercompid],
  );
  return rows;
}

/** Σ qty and Σ qty·px of the order-level fills, exact, for the average price. */
export async function orderFillTotals(db: Queryable, orderId: number, legIndex: number | null = null): Promise<{ qty: string; notional: string }> {
  const { rows } = await db.query<{ qty: string; notional: string }>(
    `SELECT coalesce(sum(lastqty), 0)::text AS qty, coalesce(sum(lastqty * lastpx), 0)::text AS notional
       FROM execution_reports
      WHERE order_id = $1 AND exectype = 'F' AND leg_index IS NOT DISTINCT FROM $2::int`,
    [orderId, legIndex],
  );
  return rows[0]!;
}

export async function listOrderLegs(db: Queryable, orderId: number): Promise<OrderLegRow[]> {
  const { rows } = await db.query<OrderLegRow>('SELECT * FROM order_legs WHERE order_id = $1 ORDER BY leg_index', [orderId]);
  return rows;
}

/** Whether a multileg order has been filled per leg (it then takes no fill at the spread price). */
export async function hasLegFills(db: Queryable, orderId: number): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM execution_reports WHERE order_id = $1 AND exectype = 'F' AND leg_index IS NOT NULL LIMIT 1", [orderId]);
  return rows.length > 0;
}

/** Whether another order of the client holds this ClOrdID on the trading day. */
export async function clOrdIdTakenByOtherOrder(db: Queryable, sendercompid: string, sessionDate: string, clordid: string, orderId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM orders WHERE sendercompid = $1 AND session_date = $2 AND clordid = $3 AND id <> $4 LIMIT 1', [sendercompid, sessionDate, clordid, orderId]);
  return rows.length > 0;
}

export async function updateLeg(db: Queryable, orderId: number, legIndex: number, cumqty: string, avgpx: string): Promise<void> {
  await db.query('UPDATE order_legs SET leg_cumqty = $3, leg_avgpx = $4 WHERE order_id = $1 AND leg_index = $2', [orderId, legIndex, cumqty, avgpx]);
}

export interface NewOrderAction {
  orderId: number | null;
  brokerorderid: string | null;
  clordid: string | null;
  sendercompid: string | null;
  symbol: string | null;
  side: string | null;
  orderqty: string | null;
  price: string | null;
  actionType: string;
  userId: string;
  userRef: number | null;
  notes: string | null;
  actionData: Record<string, unknown>;
  fillQty: string | null;
  fillPrice: string | null;
  legIndex: number | null;
}

export async function insertOrderAction(db: Queryable, a: NewOrderAction): Promise<{ id: number; created_at: Date }> {
  const { rows } = await db.query<{ id: number; created_at: Date }>(
    `INSERT INTO order_actions (order_id, brokerorderid, clordid, sendercompid, symbol, side, orderqty, price, action_type, user_id,
                                user_ref, notes, action_data, fill_qty, fill_price, leg_index)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id, created_at`,
    [a.orderId, a.brokerorderid, a.clordid, a.sendercompid, a.symbol, a.side, a.orderqty, a.price, a.actionType, a.userId, a.userRef,
     a.notes, JSON.stringify(a.actionData), a.fillQty, a.fillPrice, a.legIndex],
  );
  return rows[0]!;
}

export async function insertTrade(
  db: Queryable,
  t: { orderId: number; execReportId: number; symbol: string; type: string; contract: string; side: string; price: string; quantity: string },
): Promise<void> {
  await db.query(
    `INSERT INTO trade_history (order_id, execution_report_id, symbol, type, contract, securityid, side, price, quantity)
     VALUES ($1, $2, $3, $4, $5, $3, $6, $7, $8)`,
    [t.orderId, t.execReportId, t.symbol, t.type, t.contract, t.side, t.price, t.quantity],
  );
}

// ------------------------------------------------------------------------------------------------
// Client requests (cancel F / replace G)

export async function insertOrderRequest(
  db: Queryable,
  r: { orderId: number; type: 'F' | 'G'; clordid: string; origclordid: string; newOrderQty: string | null; newPrice: string | null; newOrdType: string | null; text: string | null },
): Promise<OrderRequestRow> {
  const { rows } = await db.query<OrderRequestRow>(
    `INSERT INTO order_requests (order_id, request_type, clordid, origclordid, new_orderqty, new_price, new_ordtype, text)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [r.orderId, r.type, r.clordid, r.origclordid, r.newOrderQty, r.newPrice, r.newOrdType, r.text],
  );
  return rows[0]!;
}

export async function pendingOrderRequest(db: Queryable, orderId: number): Promise<OrderRequestRow | undefined> {
  const { rows } = await db.query<OrderRequestRow>("SELECT * FROM order_requests WHERE order_id = $1 AND status = 'PENDING'", [orderId]);
  return rows[0];
}

export async function decideOrderRequest(db: Queryable, id: number, status: 'CONFIRMED' | 'REFUSED', by: string, text: string | null): Promise<void> {
  await db.query('UPDATE order_requests SET status = $2, decided_by = $3, decided_at = now(), decision_text = $4 WHERE id = $1', [id, status, by, text]);
}

export async function insertCancelReject(
  db: Queryable,
  r: { orderId: number | null; sendercompid: string; clordid: string; origclordid: string; orderid: string; ordstatus: string; responseTo: string; reason: number | null; text: string | null },
): Promise<{ id: number; transacttime: Date }> {
  const { rows } = await db.query<{ id: number; transacttime: Date }>(
    `INSERT INTO order_cancel_rejects (order_id, sendercompid, clordid, origclordid, orderid, ordstatus, cxl_rej_response_to, cxl_rej_reason, text)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id, transacttime`,
    [r.orderId, r.sendercompid, r.clordid, r.origclordid, r.orderid, r.ordstatus, r.responseTo, r.reason, r.text],
  );
  return rows[0]!;
}

/** A cancel reject committed but never sent, with its client's connector id. */
export interface UnsentCancelRejectRow {
  id: number; order_id: number | null; clordid: string; origclordid: string; orderid: string; ordstatus: string;
  cxl_rej_response_to: string; cxl_rej_reason: number | null; text: string | null; transacttime: Date; connector_id: number;
}

export async function unsentCancelRejects(db: Queryable, sendercompid: string): Promise<UnsentCancelRejectRow[]> {
  const { rows } = await db.query<UnsentCancelRejectRow>(
    `SELECT r.*, c.id AS connector_id FROM order_cancel_rejects r JOIN client_connectors c ON c.comp_id = r.sendercompid
      WHERE r.sendercompid = $1 AND r.sent_at IS NULL ORDER BY r.id`,
    [sendercompid],
  );
  return rows;
}

export async function markCancelRejectSent(db: Queryable, id: number, seqNum: number | null): Promise<void> {
  await db.query('UPDATE order_cancel_rejects SET sent_at = now(), sent_seq_num = $2 WHERE id = $1 AND sent_at IS NULL', [id, seqNum]);
}

// ------------------------------------------------------------------------------------------------
// Reads

export interface OrderListFilter {
  from?: Date;
  to?: Date;
  statuses?: string[];
  sendercompid?: string;
  symbol?: string;
  limit?: number;
  /** With no range: today's orders (since `todayStart`) plus every open one. */
  todayStart?: Date;
}

export interface OrderBundle {
  orders: (OrderRow & { client_name: string | null; client_phone: string | null; company_name: string | null })[];
  legs: OrderLegRow[];
  parties: OrderPartyRow[];
  requests: OrderRequestRow[];
  execReports: ExecReportRow[];
}

/** The WHERE clause and parameters of an order list (orders aliased `o`); the limit is the last parameter. */
function orderListWhere(f: OrderListFilter): { where: string; limit: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.from || f.to) {
    if (f.from) where.push(`o.created_at >= ${p(f.from)}`);
    if (f.to) where.push(`o.created_at <= ${p(f.to)}`);
  } else if (f.todayStart) {
    where.push(`(o.created_at >= ${p(f.todayStart)} OR o.ordstatus IN ('A', '0', '1', '6', 'E'))`);
  }
  if (f.statuses?.length) where.push(`o.ordstatus = ANY(${p(f.statuses)}::text[])`);
  if (f.sendercompid) where.push(`o.sendercompid = ${p(f.sendercompid)}`);
  if (f.symbol) where.push(`o.symbol = ${p(f.symbol)}`);
  const limit = p(f.limit ?? 100_000);
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', limit, params };
}

export async function listOrders(db: Queryable, f: OrderListFilter, withExecReports: boolean): Promise<OrderBundle> {
  const { where, limit, params } = orderListWhere(f);
  const { rows: orders } = await db.query<OrderBundle['orders'][number]>(
    `SELECT o.*, o.session_date::text AS session_date, c.client_name, c.client_phone, c.company_name
       FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id
      ${where}
      ORDER BY o.id DESC LIMIT ${limit}`,
    params,
  );
  const ids = orders.map((o) => o.id);
  if (!ids.length) return { orders, legs: [], parties: [], requests: [], execReports: [] };
  const [legs, parties, requests, execReports] = await Promise.all([
    db.query<OrderLegRow>('SELECT * FROM order_legs WHERE order_id = ANY($1::int8[]) ORDER BY order_id, leg_index', [ids]),
    db.query<OrderPartyRow>('SELECT * FROM order_parties WHERE order_id = ANY($1::int8[]) ORDER BY order_id, position', [ids]),
    db.query<OrderRequestRow>("SELECT * FROM order_requests WHERE order_id = ANY($1::int8[]) AND status = 'PENDING'", [ids]),
    withExecReports
      ? db.query<ExecReportRow>('SELECT * FROM execution_reports WHERE order_id = ANY($1::int8[]) ORDER BY order_id, id', [ids])
      : Promise.resolve({ rows: [] as ExecReportRow[], rowCount: 0 }),
  ]);
  return { orders, legs: legs.rows, parties: parties.rows, requests: requests.rows, execReports: execReports.rows };
}

// ---------------------------------------------------------------------------------------------
// The order list as text rows, for writing the API's JSON without building objects (see
// listOrderRows). Every value is a string or null, already in the form the JSON carries:

/** A decimal without trailing zeros ('27000.500' → '27000.5', '0.000' → '0'), as text. */
const decimalText = (col: string) => `trim_scale(${col})::text`;

/**
 * A timestamptz as JavaScript's Date#toISOString writes it: UTC, milliseconds truncated as reading it
 * into a Date does, four-digit years, and outside years 1–9999 a signed six-digit year ('+010000',
 * '0000' for 1 BC, '-000001' for 2 BC).
 */
function isoText(col: string): string {
  const utc = `(${col} AT TIME ZONE 'UTC')`;
  const year = `(extract(year FROM ${utc})::int + CASE WHEN ${utc} < '0001-01-01' THEN 1 ELSE 0 END)`;
  return `CASE WHEN ${utc} >= '0001-01-01' AND ${utc} < '10000-01-01' THEN to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    ELSE CASE WHEN ${year} < 0 THEN '-' || lpad((-${year})::text, 6, '0') WHEN ${year} = 0 THEN '0000' ELSE '+' || lpad(${year}::text, 6, '0') END
         || to_char(${utc}, '-MM-DD"T"HH24:MI:SS.MS"Z"') END`;
}

/** Integers as their digits. */
const intText = (col: string) => `${col}::text`;

function columns<const N extends string>(cols: readonly (readonly [N, string])[]): { names: readonly N[]; sql: string } {
  return { names: cols.map(([n]) => n), sql: cols.map(([, e]) => e).join(', ') };
}

/** Columns of the order rows of listOrderRows, in this order. */
const ORDER_LIST_ORDER = columns([
  ['id', intText('o.id')],
  ['brokerorderid', 'o.brokerorderid'],
  ['clordid', 'o.clordid'],
  ['origclordid', 'o.origclordid'],
  ['client_connector_id', intText('o.client_connector_id')],
  ['sendercompid', 'o.sendercompid'],
  ['targetcompid', 'o.targetcompid'],
  ['client_name', 'c.client_name'],
  ['client_phone', 'c.client_phone'],
  ['company_name', 'c.company_name'],
  ['msg_type', 'o.msg_type'],
  ['symbol', 'o.symbol'],
  ['security_type', 'o.security_type'],
  ['maturity_month_year', 'o.maturity_month_year'],
  ['side', 'o.side'],
  ['ordtype', 'o.ordtype'],
  ['price', decimalText('o.price')],
  ['orderqty', decimalText('o.orderqty')],
  ['timeinforce', 'o.timeinforce'],
  ['exchange', 'o.exchange'],
  ['currency', 'o.currency'],
  ['account', 'o.account'],
  ['text', 'o.text'],
  ['ordstatus', 'o.ordstatus'],
  ['cumqty', decimalText('o.cumqty')],
  ['leavesqty', decimalText('o.leavesqty')],
  ['avgpx', decimalText('o.avgpx')],
  ['lastqty', decimalText('o.lastqty')],
  ['lastpx', decimalText('o.lastpx')],
  ['transacttime', isoText('o.transacttime')],
  ['accepted_by', 'o.accepted_by'],
  ['created_at', isoText('o.created_at')],
  ['updated_at', isoText('o.updated_at')],
]);

/** Columns of the leg rows; `orderqty` is the leg's quantity (ratio × the order's quantity). */
const ORDER_LIST_LEG = columns([
  ['order_id', intText('l.order_id')],
  ['leg_index', intText('l.leg_index')],
  ['leg_symbol', 'l.leg_symbol'],
  ['leg_security_type', 'l.leg_security_type'],
  ['leg_maturity_month_year', 'l.leg_maturity_month_year'],
  ['leg_side', 'l.leg_side'],
  ['leg_ratio_qty', decimalText('l.leg_ratio_qty')],
  ['leg_price', decimalText('l.leg_price')],
  ['leg_cumqty', decimalText('l.leg_cumqty')],
  ['leg_avgpx', decimalText('l.leg_avgpx')],
  ['orderqty', decimalText('l.leg_ratio_qty * o.orderqty')],
]);

const ORDER_LIST_PARTY = columns([
  ['order_id', intText('p.order_id')],
  ['party_id', 'p.party_id'],
  ['party_id_source', 'p.party_id_source'],
  ['party_role', intText('p.party_role')],
  ['leg_index', intText('p.leg_index')],
]);

const ORDER_LIST_REQUEST = columns([
  ['order_id', intText('r.order_id')],
  ['id', intText('r.id')],
  ['request_type', 'r.request_type'],
  ['clordid', 'r.clordid'],
  ['origclordid', 'r.origclordid'],
  ['new_orderqty', decimalText('r.new_orderqty')],
  ['new_price', decimalText('r.new_price')],
  ['new_ordtype', 'r.new_ordtype'],
  ['text', 'r.text'],
  ['status', 'r.status'],
  ['decided_by', 'r.decided_by'],
  ['decided_at', isoText('r.decided_at')],
  ['decision_text', 'r.decision_text'],
  ['created_at', isoText('r.created_at')],
]);

const ORDER_LIST_EXEC_REPORT = columns([
  ['order_id', intText('e.order_id')],
  ['id', intText('e.id')],
  ['execid', 'e.execid'],
  ['clordid', 'e.clordid'],
  ['origclordid', 'e.origclordid'],
  ['orderid', 'e.orderid'],
  ['exectype', 'e.exectype'],
  ['ordstatus', 'e.ordstatus'],
  ['side', 'e.side'],
  ['symbol', 'e.symbol'],
  ['orderqty', decimalText('e.orderqty')],
  ['price', decimalText('e.price')],
  ['lastqty', decimalText('e.lastqty')],
  ['lastpx', decimalText('e.lastpx')],
  ['cumqty', decimalText('e.cumqty')],
  ['avgpx', decimalText('e.avgpx')],
  ['leavesqty', decimalText('e.leavesqty')],
  ['leg_index', intText('e.leg_index')],
  ['ordrejreason', intText('e.ordrejreason')],
  ['text', 'e.text'],
  ['transacttime', isoText('e.transacttime')],
  ['created_at', isoText('e.created_at')],
]);

/** Names of the columns of each kind of row of an OrderListRows, by position. */
export const ORDER_LIST_COLUMNS = {
  orders: ORDER_LIST_ORDER.names,
  legs: ORDER_LIST_LEG.names,
  parties: ORDER_LIST_PARTY.names,
  requests: ORDER_LIST_REQUEST.names,
  execReports: ORDER_LIST_EXEC_REPORT.names,
};

export type TextRow = (string | null)[];

/**
 * The same orders, legs, parties, pending requests and execution reports as listOrders, as rows of
 * text (columns: ORDER_LIST_COLUMNS). Orders come newest first (id descending); every child row starts
 * with its order's id, and the children come in the orders' order (legs by index, parties by
 * position, reports by id), so a writer walks them alongside the orders.
 */
export interface OrderListRows {
  orders: TextRow[];
  legs: TextRow[];
  parties: TextRow[];
  requests: TextRow[];
  execReports: TextRow[];
}

export async function listOrderRows(db: Queryable, f: OrderListFilter, withExecReports: boolean): Promise<OrderListRows> {
  const { where, limit, params } = orderListWhere(f);
  const array = { rowMode: 'array' } as const;
  const { rows: orders } = await db.query<TextRow>(
    `SELECT ${ORDER_LIST_ORDER.sql}
       FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id
      ${where}
      ORDER BY o.id DESC LIMIT ${limit}`,
    params,
    array,
  );
  if (!orders.length) return { orders, legs: [], parties: [], requests: [], execReports: [] };
  // The ids as an array literal (their digits as read), not a JavaScript array for the driver to convert.
  let ids = '{';
  for (let i = 0; i < orders.length; i++) ids += (i ? ',' : '') + orders[i]![0]!;
  ids += '}';
  const [legs, parties, requests, execReports] = await Promise.all([
    db.query<TextRow>(
      `SELECT ${ORDER_LIST_LEG.sql} FROM order_legs l JOIN orders o ON o.id = l.order_id
        WHERE l.order_id = ANY($1::int8[]) ORDER BY l.order_id DESC, l.leg_index`,
      [ids],
      array,
    ),
    db.query<TextRow>(`SELECT ${ORDER_LIST_PARTY.sql} FROM order_parties p WHERE p.order_id = ANY($1::int8[]) ORDER BY p.order_id DESC, p.position`, [ids], array),
    db.query<TextRow>(
      `SELECT ${ORDER_LIST_REQUEST.sql} FROM order_requests r WHERE r.order_id = ANY($1::int8[]) AND r.status = 'PENDING' ORDER BY r.order_id DESC`,
      [ids],
      array,
    ),
    withExecReports
      ? db.query<TextRow>(`SELECT ${ORDER_LIST_EXEC_REPORT.sql} FROM execution_reports e WHERE e.order_id = ANY($1::int8[]) ORDER BY e.order_id DESC, e.id`, [ids], array)
      : Promise.resolve({ rows: [] as TextRow[], rowCount: 0 }),
  ]);
  return { orders, legs: legs.rows, parties: parties.rows, requests: requests.rows, execReports: execReports.rows };
}

export async function getOrderBundle(db: Queryable, idOrBrokerId: string | number): Promise<OrderBundle | undefined> {
  const byId = typeof idOrBrokerId === 'number' || /^\d+$/.test(idOrBrokerId);
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM orders WHERE ${byId ? 'id = $1::int8' : 'brokerorderid = $1'}`,
    [String(idOrBrokerId)],
  );
  const id = rows[0]?.id;
  if (id === undefined) return undefined;
  const { rows: orders } = await db.query<OrderBundle['orders'][number]>(
    `SELECT o.*, o.session_date::text AS session_date, c.client_name, c.client_phone, c.company_name
       FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id WHERE o.id = $1`,
    [id],
  );
  const [legs, parties, requests, execReports] = await Promise.all([
    db.query<OrderLegRow>('SELECT * FROM order_legs WHERE order_id = $1 ORDER BY leg_index', [id]),
    db.query<OrderPartyRow>('SELECT * FROM order_parties WHERE order_id = $1 ORDER BY position', [id]),
    db.query<OrderRequestRow>("SELECT * FROM order_requests WHERE order_id = $1 AND status = 'PENDING'", [id]),
    db.query<ExecReportRow>('SELECT * FROM execution_reports WHERE order_id = $1 ORDER BY id', [id]),
  ]);
  return { orders, legs: legs.rows, parties: parties.rows, requests: requests.rows, execReports: execReports.rows };
}
