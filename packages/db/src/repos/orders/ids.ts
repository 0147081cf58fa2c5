import type { Queryable } from '../../db';

// The identifiers the order core hands out or checks: ExecIDs, and a client's ClOrdIDs per trading day.

/** ExecID: the connector's execution id prefix, then a database-wide sequence. */
export function formatExecId(prefix: string, seq: number): string {
  return `${prefix}-${String(seq).padStart(9, '0')}`;
}

export async function nextExecIds(db: Queryable, prefix: string, count: number): Promise<string[]> {
  const { rows } = await db.query<{ n: number }>("SELECT nextval('exec_id_seq')::int8 AS n FROM generate_series(1, $1)", [count]);
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
