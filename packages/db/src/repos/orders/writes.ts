import type { Queryable } from '../../db';
import { pgArray } from '../../pg-array';
import type { ExecReportRow, OrderLegRow, OrderRequestRow, OrderRow } from './rows';

// One order at a time, inside the transaction of a broker action or a client request: the order row
// locked, its state, reports, fills, legs, actions, trades, requests and cancel rejects.

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

export async function findOrderByClOrdId(
  db: Queryable,
  sendercompid: string,
  clordid: string,
  forUpdate = false,
): Promise<OrderRow | undefined> {
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

/**
 * An order's change. Its updated_at is the writing transaction's time, like the report and the action
 * written with it (a browser drops a report older than the order it holds; the timeline pairs an action
 * with the report of its transaction by time), and never earlier than the previous write: a transaction
 * that began before the last writer (it waited for the row's lock) still moves the order forward.
 */
export async function updateOrder(db: Queryable, id: number, u: OrderUpdate): Promise<OrderRow> {
  const { rows } = await db.query<OrderRow>(
    `UPDATE orders SET ordstatus = $2, cumqty = $3, leavesqty = $4, avgpx = $5, lastqty = $6, lastpx = $7,
            orderqty = coalesce($8, orderqty), price = CASE WHEN $9::boolean THEN $10::numeric ELSE price END,
            ordtype = coalesce($11, ordtype), clordid = coalesce($12, clordid),
            origclordid = CASE WHEN $13::boolean THEN $14 ELSE origclordid END,
            accepted_by = coalesce($15, accepted_by), updated_at = greatest(now(), updated_at + interval '1 microsecond')
      WHERE id = $1 RETURNING ${ORDER_COLUMNS}`,
    [
      id,
      u.ordstatus,
      u.cumqty,
      u.leavesqty,
      u.avgpx,
      u.lastqty,
      u.lastpx,
      u.orderqty ?? null,
      u.price !== undefined,
      u.price ?? null,
      u.ordtype ?? null,
      u.clordid ?? null,
      u.origclordid !== undefined,
      u.origclordid ?? null,
      u.accepted_by ?? null,
    ],
  );
  return rows[0]!;
}

/** The executing trader a report names (PartyRole 12): a broker-type user's trader party. */
export interface ExecutingTrader {
  id: string;
  /** FIX PartyIDSource (447). */
  source: string;
  name: string | null;
}

export interface NewExecReport {
  /** Who executed, when a broker-type user's action produced the report. */
  executingTrader?: ExecutingTrader | undefined;
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
                                    orderqty, price, lastqty, lastpx, cumqty, avgpx, leavesqty, leg_index, ordrejreason, text, transacttime,
                                    executing_trader_id, executing_trader_source, executing_trader_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24) RETURNING *`,
    [
      e.orderId,
      e.execid,
      e.sendercompid,
      e.clordid,
      e.origclordid,
      e.orderid,
      e.exectype,
      e.ordstatus,
      e.side,
      e.symbol,
      e.orderqty,
      e.price,
      e.lastqty,
      e.lastpx,
      e.cumqty,
      e.avgpx,
      e.leavesqty,
      e.legIndex,
      e.ordrejreason,
      e.text,
      e.transacttime,
      e.executingTrader?.id ?? null,
      e.executingTrader?.source ?? null,
      e.executingTrader?.name ?? null,
    ],
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

/**
 * A client's unsent reports with the orders and legs they are built from, in three statements
 * however many there are (a restart after a burst can leave thousands waiting for the next logon).
 */
export async function unsentExecReportsWithOrders(
  db: Queryable,
  sendercompid: string,
): Promise<{ reports: ExecReportRow[]; orders: Map<number, OrderRow>; legs: Map<number, OrderLegRow[]> }> {
  const reports = await unsentExecReports(db, sendercompid);
  return { reports, ...(await ordersWithLegs(db, reports)) };
}

/**
 * The orders and legs some reports are built from, in two statements however many reports (the
 * client's outbox at logon, a drop copy session's burst).
 */
export async function ordersWithLegs(
  db: Queryable,
  reports: ReadonlyArray<Pick<ExecReportRow, 'order_id'>>,
): Promise<{ orders: Map<number, OrderRow>; legs: Map<number, OrderLegRow[]> }> {
  const orders = new Map<number, OrderRow>();
  const legs = new Map<number, OrderLegRow[]>();
  if (!reports.length) return { orders, legs };
  const ids = pgArray([...new Set(reports.map((r) => Number(r.order_id)))]);
  const [orderRows, legRows] = await Promise.all([
    db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ANY($1::int8[])`, [ids]),
    db.query<OrderLegRow>('SELECT * FROM order_legs WHERE order_id = ANY($1::int8[]) ORDER BY order_id, leg_index', [ids]),
  ]);
  for (const o of orderRows.rows) orders.set(Number(o.id), o);
  for (const l of legRows.rows) {
    const list = legs.get(Number(l.order_id));
    if (list) list.push(l);
    else legs.set(Number(l.order_id), [l]);
  }
  return { orders, legs };
}

/** Σ qty and Σ qty·px of the order-level fills, exact, for the average price. */
export async function orderFillTotals(
  db: Queryable,
  orderId: number,
  legIndex: number | null = null,
): Promise<{ qty: string; notional: string }> {
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
  const { rows } = await db.query(
    "SELECT 1 FROM execution_reports WHERE order_id = $1 AND exectype = 'F' AND leg_index IS NOT NULL LIMIT 1",
    [orderId],
  );
  return rows.length > 0;
}

/** Whether another order of the client holds this ClOrdID on the trading day. */
export async function clOrdIdTakenByOtherOrder(
  db: Queryable,
  sendercompid: string,
  sessionDate: string,
  clordid: string,
  orderId: number,
): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM orders WHERE sendercompid = $1 AND session_date = $2 AND clordid = $3 AND id <> $4 LIMIT 1',
    [sendercompid, sessionDate, clordid, orderId],
  );
  return rows.length > 0;
}

export async function updateLeg(db: Queryable, orderId: number, legIndex: number, cumqty: string, avgpx: string): Promise<void> {
  await db.query('UPDATE order_legs SET leg_cumqty = $3, leg_avgpx = $4 WHERE order_id = $1 AND leg_index = $2', [
    orderId,
    legIndex,
    cumqty,
    avgpx,
  ]);
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
    [
      a.orderId,
      a.brokerorderid,
      a.clordid,
      a.sendercompid,
      a.symbol,
      a.side,
      a.orderqty,
      a.price,
      a.actionType,
      a.userId,
      a.userRef,
      a.notes,
      JSON.stringify(a.actionData),
      a.fillQty,
      a.fillPrice,
      a.legIndex,
    ],
  );
  return rows[0]!;
}

export async function insertTrade(
  db: Queryable,
  t: {
    orderId: number;
    execReportId: number;
    symbol: string;
    type: string;
    contract: string;
    side: string;
    price: string;
    quantity: string;
  },
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
  r: {
    orderId: number;
    type: 'F' | 'G';
    clordid: string;
    origclordid: string;
    newOrderQty: string | null;
    newPrice: string | null;
    newOrdType: string | null;
    text: string | null;
  },
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

export async function decideOrderRequest(
  db: Queryable,
  id: number,
  status: 'CONFIRMED' | 'REFUSED',
  by: string,
  text: string | null,
): Promise<void> {
  await db.query('UPDATE order_requests SET status = $2, decided_by = $3, decided_at = now(), decision_text = $4 WHERE id = $1', [
    id,
    status,
    by,
    text,
  ]);
}

export async function insertCancelReject(
  db: Queryable,
  r: {
    orderId: number | null;
    sendercompid: string;
    clordid: string;
    origclordid: string;
    orderid: string;
    ordstatus: string;
    responseTo: string;
    reason: number | null;
    text: string | null;
  },
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
  id: number;
  order_id: number | null;
  clordid: string;
  origclordid: string;
  /** The OrderID the client's request named ('NONE' when it named none and the order is unknown). */
  orderid: string;
  /**
   * The OrderID the reject carries on the wire: the order's own when the reject concerns a known order
   * (a request naming another OrderID is answered with the order's), else the row's.
   */
  sent_orderid: string;
  ordstatus: string;
  cxl_rej_response_to: string;
  cxl_rej_reason: number | null;
  text: string | null;
  transacttime: Date;
  connector_id: number;
}

/** A cancel reject with its client's connector id (UnsentCancelRejectRow), read by the WHERE clause that follows. */
const CANCEL_REJECTS = `SELECT r.*, c.id AS connector_id, coalesce(o.brokerorderid, r.orderid) AS sent_orderid
  FROM order_cancel_rejects r JOIN client_connectors c ON c.comp_id = r.sendercompid LEFT JOIN orders o ON o.id = r.order_id`;

export async function unsentCancelRejects(db: Queryable, sendercompid: string): Promise<UnsentCancelRejectRow[]> {
  const { rows } = await db.query<UnsentCancelRejectRow>(
    `${CANCEL_REJECTS} WHERE r.sendercompid = $1 AND r.sent_at IS NULL ORDER BY r.id`,
    [sendercompid],
  );
  return rows;
}

/** Cancel rejects by id, in id order (a drop copy session's burst). */
export async function cancelRejectsByIds(db: Queryable, ids: readonly number[]): Promise<UnsentCancelRejectRow[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<UnsentCancelRejectRow>(`${CANCEL_REJECTS} WHERE r.id = ANY($1::int8[]) ORDER BY r.id`, [pgArray(ids)]);
  return rows;
}

export async function markCancelRejectSent(db: Queryable, id: number, seqNum: number | null): Promise<void> {
  await db.query('UPDATE order_cancel_rejects SET sent_at = now(), sent_seq_num = $2 WHERE id = $1 AND sent_at IS NULL', [id, seqNum]);
}
