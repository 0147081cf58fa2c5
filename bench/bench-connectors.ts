// Client connectors for the benchmarks' own FIX sessions: any day, any hour, no order rate cap, any
// futures size. Benchmark set-up only (written straight to the tables, like a seed).
import type { Queryable } from '@fixdesk/db';

export async function addBenchConnectors(db: Queryable, compIds: readonly string[]): Promise<void> {
  for (const [i, compId] of compIds.entries()) {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, max_orders_per_second)
       VALUES ($1, $2, 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F,S,S', 100000) RETURNING id`,
      [compId, `B${String(i).padStart(2, '0')}`],
    );
    await db.query(`INSERT INTO client_capabilities (clientconnectors_id, asset_class, max_order_qty) VALUES ($1, 'FUTURES', 1000000)`, [
      rows[0]!.id,
    ]);
  }
}

/** A drop copy connector of every client's reports (docs/adr/0017), as the benchmark's drop copy session. */
export async function addBenchDropCopy(db: Queryable, compId: string): Promise<void> {
  await db.query(
    `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, session_type, drop_copy_of)
     VALUES ($1, 'BDC', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F,S,S', 'drop_copy', '{}')`,
    [compId],
  );
}
