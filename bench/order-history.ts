// Orders of history for clients, written straight to the tables (benchmark and test set-up only, like
// a seed): what a desk a few months old holds. Outright orders filled in live and expired contract
// months, one in ten a multileg order with two filled legs, spread over the last 300 days. Written
// with the columns of the first schema so that an older checkout of the desk (a benchmark's baseline)
// takes the same history.
import type { Queryable } from '@fixdesk/db';

/** `n` orders of history for one client, numbered from `from` (unique per client). */
export async function addClientHistory(db: Queryable, compId: string, n: number, from = 0): Promise<void> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM client_connectors WHERE comp_id = $1', [compId]);
  const connectorId = rows[0]!.id;
  for (let start = from; start < from + n; start += 20_000) {
    await db.query(
      `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, maturity_month_year,
                           side, ordtype, price, orderqty, timeinforce, ordstatus, cumqty, leavesqty, avgpx, transacttime, created_at, updated_at)
       SELECT $2 || '-H' || i, 'H' || i, $1, $2, 'FIXDESK', (now() - (i % 300 || ' days')::interval)::date,
              CASE WHEN i % 10 = 0 THEN 'AB' ELSE 'D' END, CASE WHEN i % 10 = 0 THEN 'C5TC-SPREAD' ELSE 'C5TC' END,
              CASE WHEN i % 10 = 0 THEN NULL WHEN i % 3 = 0 THEN '202001' ELSE to_char(now() + ((i % 6) || ' months')::interval, 'YYYYMM') END,
              CASE WHEN i % 2 = 0 THEN '1' ELSE '2' END, '2', 27000, 5, '0', '2', 5, 0, 27000,
              now() - (i % 300 || ' days')::interval, now() - (i % 300 || ' days')::interval, now() - (i % 300 || ' days')::interval
         FROM generate_series($3::int, $3::int + $4::int - 1) i`,
      [connectorId, compId, start, Math.min(20_000, from + n - start)],
    );
  }
  await db.query(
    `INSERT INTO order_legs (order_id, leg_index, leg_symbol, leg_security_type, leg_maturity_month_year, leg_side, leg_ratio_qty, leg_cumqty, leg_avgpx)
     SELECT o.id, x.leg, 'C5TC', 'FUT', to_char(now() + ((x.leg + 1) || ' months')::interval, 'YYYYMM'), CASE x.leg WHEN 0 THEN '1' ELSE '2' END, 1, 5, 27000
       FROM orders o CROSS JOIN (VALUES (0), (1)) x(leg)
      WHERE o.sendercompid = $1 AND o.msg_type = 'AB' AND NOT EXISTS (SELECT 1 FROM order_legs l WHERE l.order_id = o.id)`,
    [compId],
  );
}
