import type { Queryable } from '../db';

// Notifications between the nodes of one desk (docs/adr/0012): NOTIFY carries ids, never the rows;
// a node that missed some (a gap in a sender's numbers, its listening connection re-made) finds what
// changed from the tables here.

/** NOTIFY on a channel (delivered when the statement's transaction commits: here, at once). */
export async function notifyNodes(db: Queryable, channel: string, payload: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

/** The newest execution report and order action ids: where a resync starts from. */
export async function latestOrderActivity(db: Queryable): Promise<{ er: number; action: number }> {
  const { rows } = await db.query<{ er: number | null; action: number | null }>(
    'SELECT (SELECT max(id) FROM execution_reports) AS er, (SELECT max(id) FROM order_actions) AS action',
  );
  return { er: rows[0]?.er ?? 0, action: rows[0]?.action ?? 0 };
}

/**
 * The orders with an execution report or an order action newer than the given ids (at most `limit`
 * of each, oldest first), and the newest ids seen: what a node that missed notifications publishes again.
 */
export async function ordersChangedAfter(db: Queryable, after: { er: number; action: number }, limit: number): Promise<{ orderIds: number[]; er: number; action: number }> {
  const [ers, actions] = await Promise.all([
    db.query<{ id: number; order_id: number }>('SELECT id, order_id FROM execution_reports WHERE id > $1 ORDER BY id LIMIT $2', [after.er, limit]),
    db.query<{ id: number; order_id: number | null }>('SELECT id, order_id FROM order_actions WHERE id > $1 ORDER BY id LIMIT $2', [after.action, limit]),
  ]);
  const orderIds = new Set<number>();
  for (const r of ers.rows) orderIds.add(r.order_id);
  for (const r of actions.rows) if (r.order_id !== null) orderIds.add(r.order_id);
  return {
    orderIds: [...orderIds],
    er: ers.rows.at(-1)?.id ?? after.er,
    action: actions.rows.at(-1)?.id ?? after.action,
  };
}
