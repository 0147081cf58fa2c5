import type { Queryable } from '../db';

export interface AcceptTimes {
  /** Orders accepted since the given instant. */
  count: number;
  /** Median and longest time from the order's arrival (its row) to the broker's first accept, ms. */
  p50Ms: number;
  worstMs: number;
}

/**
 * Per client (SenderCompID): how long the desk took to accept the orders that arrived since `since`
 * (the start of the day), from the order's arrival to its first ACCEPT action.
 */
export async function orderAcceptTimesSince(db: Queryable, since: Date): Promise<Map<string, AcceptTimes>> {
  const r = await db.query<{ sendercompid: string; n: number; p50: string | number; worst: string | number }>(
    `SELECT o.sendercompid,
            count(*)::int AS n,
            extract(epoch FROM percentile_disc(0.5) WITHIN GROUP (ORDER BY a.first_at - o.created_at)) * 1000 AS p50,
            extract(epoch FROM max(a.first_at - o.created_at)) * 1000 AS worst
       FROM orders o
       JOIN (SELECT order_id, min(created_at) AS first_at
               FROM order_actions
              WHERE action_type = 'ACCEPT' AND created_at >= $1
              GROUP BY order_id) a ON a.order_id = o.id
      WHERE o.created_at >= $1
      GROUP BY o.sendercompid`,
    [since],
  );
  const out = new Map<string, AcceptTimes>();
  for (const row of r.rows)
    out.set(row.sendercompid, {
      count: row.n,
      p50Ms: Math.max(0, Math.round(Number(row.p50))),
      worstMs: Math.max(0, Math.round(Number(row.worst))),
    });
  return out;
}
