import type { Queryable } from '../db';

// Pre-trade risk (docs/adr/0013): what a node reads once when it takes a client's session,
// and the kill switch kept on the connector. Never read per order.

/** An order that still works, as the risk book counts it (a multileg order with its legs). */
export interface RiskOrderRow {
  id: number;
  side: '1' | '2';
  symbol: string;
  maturity_month_year: string | null;
  ordstatus: string;
  orderqty: string;
  cumqty: string;
  leavesqty: string;
  /** The quantity a pending replace asks for. */
  pending_orderqty: string | null;
  updated_at: Date;
  legs: { symbol: string; maturity: string | null; side: '1' | '2'; ratio: string; cumqty: string }[];
}

/** A client's risk as stored: filled net positions of its closed orders per live contract, its working orders. */
export interface ClientRiskRows {
  filled: { symbol: string; maturity: string; filled: string }[];
  working: RiskOrderRow[];
  /** The highest order id when read: an order at or below it that the book does not know was counted here. */
  highWater: number;
}

const WORKING = `('A', '0', '1', '6', 'E')`;

const riskOrderColumns = `
  o.id, o.side, o.symbol, o.maturity_month_year, o.ordstatus, o.orderqty::text AS orderqty, o.cumqty::text AS cumqty,
  o.leavesqty::text AS leavesqty, o.updated_at,
  (SELECT r.new_orderqty::text FROM order_requests r WHERE r.order_id = o.id AND r.status = 'PENDING' AND r.request_type = 'G') AS pending_orderqty,
  CASE WHEN o.msg_type = 'AB' THEN COALESCE((
    SELECT json_agg(json_build_object('symbol', l.leg_symbol, 'maturity', l.leg_maturity_month_year, 'side', l.leg_side,
                                      'ratio', l.leg_ratio_qty::text, 'cumqty', l.leg_cumqty::text) ORDER BY l.leg_index)
      FROM order_legs l WHERE l.order_id = o.id), '[]'::json) ELSE '[]'::json END AS legs`;

/**
 * A client's risk, read when a node takes its session: the net filled position of its closed orders in
 * contracts whose month has not ended (`month`, YYYYMM: expired contracts leave the position), and every
 * working order of it individually (the book then follows each by its id).
 */
export async function loadClientRisk(db: Queryable, compId: string, month: string): Promise<ClientRiskRows> {
  // One statement, so one snapshot: an order closing meanwhile is counted once, as working or as filled.
  const { rows } = await db.query<{
    risk: {
      filled: ClientRiskRows['filled'] | null;
      working: (Omit<RiskOrderRow, 'updated_at'> & { updated_at: string })[] | null;
      high: number | null;
    };
  }>(
    `WITH filled AS (
       SELECT symbol, maturity, sum(qty)::text AS filled FROM (
         SELECT upper(o.symbol) AS symbol, left(o.maturity_month_year, 6) AS maturity, CASE o.side WHEN '1' THEN o.cumqty ELSE -o.cumqty END AS qty
           FROM orders o
          WHERE o.sendercompid = $1 AND o.msg_type = 'D' AND o.cumqty > 0 AND o.ordstatus NOT IN ${WORKING} AND left(o.maturity_month_year, 6) >= $2
         UNION ALL
         SELECT upper(l.leg_symbol), left(l.leg_maturity_month_year, 6), CASE l.leg_side WHEN '1' THEN l.leg_cumqty ELSE -l.leg_cumqty END
           FROM orders o JOIN order_legs l ON l.order_id = o.id
          WHERE o.sendercompid = $1 AND o.msg_type = 'AB' AND l.leg_cumqty > 0 AND o.ordstatus NOT IN ${WORKING} AND left(l.leg_maturity_month_year, 6) >= $2
       ) f GROUP BY symbol, maturity HAVING sum(qty) <> 0),
     working AS (SELECT ${riskOrderColumns} FROM orders o WHERE o.ordstatus IN ${WORKING} AND o.sendercompid = $1)
     SELECT json_build_object('filled', (SELECT json_agg(f) FROM filled f), 'working', (SELECT json_agg(w) FROM working w),
                              'high', (SELECT max(id) FROM orders)) AS risk`,
    [compId, month],
  );
  const risk = rows[0]!.risk;
  return {
    filled: risk.filled ?? [],
    working: (risk.working ?? []).map((r) => ({ ...r, id: Number(r.id), updated_at: new Date(r.updated_at) })),
    highWater: Number(risk.high ?? 0),
  };
}

/** Orders as the risk book counts them, by id (a change another node made, or one read again after a load). */
export async function getRiskOrders(db: Queryable, ids: readonly number[]): Promise<(RiskOrderRow & { sendercompid: string })[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<RiskOrderRow & { sendercompid: string }>(
    `SELECT o.sendercompid, ${riskOrderColumns} FROM orders o WHERE o.id = ANY($1::int8[])`,
    [`{${ids.join(',')}}`],
  );
  return rows.map(numericId);
}

function numericId<T extends { id: number | string }>(r: T): T & { id: number } {
  return { ...r, id: Number(r.id) };
}

/** The ids of a client's working orders (the kill switch cancels each). */
export async function workingOrderIds(db: Queryable, compId: string): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM orders WHERE ordstatus IN ${WORKING} AND sendercompid = $1 ORDER BY id`,
    [compId],
  );
  return rows.map((r) => Number(r.id));
}

/** A client stopped by the desk (the kill switch): who, when, why. */
export interface ClientStop {
  at: Date;
  by: string;
  reason: string;
}

/** Stops or resumes a client; returns the connector's id and comp id, or undefined when there is none. */
export async function setClientStop(
  db: Queryable,
  compId: string,
  stop: { by: string; reason: string } | null,
): Promise<{ id: number; comp_id: string; was_stopped: boolean } | undefined> {
  const { rows } = await db.query<{ id: number; comp_id: string; was_stopped: boolean }>(
    `WITH prev AS (SELECT id, trading_stopped_at IS NOT NULL AS was_stopped FROM client_connectors WHERE comp_id = $1 FOR UPDATE)
     UPDATE client_connectors c
        SET trading_stopped_at = CASE WHEN $2::text IS NULL THEN NULL ELSE now() END, trading_stopped_by = $2, trading_stop_reason = $3
       FROM prev WHERE c.id = prev.id
     RETURNING c.id, c.comp_id, prev.was_stopped`,
    [compId, stop?.by ?? null, stop?.reason ?? null],
  );
  return rows[0];
}
