import type { Queryable } from '../db';

// Notifications between the nodes of one desk (docs/adr/0012): NOTIFY carries ids, never the rows;
// a node that missed some (a gap in a sender's numbers, its listening connection re-made) finds what
// changed from the tables here.

/** NOTIFY on a channel (delivered when the statement's transaction commits: here, at once). */
export async function notifyNodes(db: Queryable, channel: string, payload: string): Promise<void> {
  // A NOTIFY is a transaction of its own with a transaction id, so its commit waited for a WAL flush
  // like an order's, about a hundred times a second under load, queueing with the orders' commits. A
  // notification is never durable (a crash loses it, and the nodes resync), so its commit does not wait.
  await db.query(`SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`, [channel, payload]);
}

/** The newest execution report, order action and refused order ids: where a resync starts from. */
export async function latestOrderActivity(db: Queryable): Promise<{ er: number; action: number; refused: number }> {
  const { rows } = await db.query<{ er: number | null; action: number | null; refused: number | null }>(
    'SELECT (SELECT max(id) FROM execution_reports) AS er, (SELECT max(id) FROM order_actions) AS action, (SELECT max(id) FROM refused_orders) AS refused',
  );
  return { er: Number(rows[0]?.er ?? 0), action: Number(rows[0]?.action ?? 0), refused: Number(rows[0]?.refused ?? 0) };
}

/**
 * The orders with an execution report or an order action newer than the given ids (at most `limit`
 * of each, oldest first), and the newest ids seen: what a node that missed notifications publishes again.
 * `truncated`: the limit was reached, so there may be more (the caller cannot publish them all).
 */
export async function ordersChangedAfter(
  db: Queryable,
  after: { er: number; action: number },
  limit: number,
): Promise<{ orderIds: number[]; er: number; action: number; truncated: boolean }> {
  const [ers, actions] = await Promise.all([
    db.query<{ id: number; order_id: number }>('SELECT id, order_id FROM execution_reports WHERE id > $1 ORDER BY id LIMIT $2', [
      after.er,
      limit,
    ]),
    db.query<{ id: number; order_id: number | null }>('SELECT id, order_id FROM order_actions WHERE id > $1 ORDER BY id LIMIT $2', [
      after.action,
      limit,
    ]),
  ]);
  const orderIds = new Set<number>();
  for (const r of ers.rows) orderIds.add(r.order_id);
  for (const r of actions.rows) if (r.order_id !== null) orderIds.add(r.order_id);
  return {
    orderIds: [...orderIds],
    er: ers.rows.at(-1)?.id ?? after.er,
    action: actions.rows.at(-1)?.id ?? after.action,
    truncated: ers.rows.length >= limit || actions.rows.length >= limit,
  };
}

/**
 * The orders refused at intake with ids above `after` (at most `limit`, lowest first), and the highest
 * id among them: what a node that missed notifications publishes again beside the changed orders.
 */
export async function refusedOrdersAfter(db: Queryable, after: number, limit: number): Promise<{ ids: number[]; last: number }> {
  const { rows } = await db.query<{ id: string | number }>('SELECT id FROM refused_orders WHERE id > $1 ORDER BY id LIMIT $2', [
    after,
    limit,
  ]);
  const ids = rows.map((r) => Number(r.id));
  return { ids, last: ids.at(-1) ?? after };
}
