import type { Db, Queryable } from '../db';
import { NODE_LEASE_PREFIX } from '../leases';
import { pgArray } from '../pg-array';

// Desk-wide users online (docs/adr/0012): each node's signed-in browser connections per user. A
// node's rows count while it holds its live node lease (or for the node itself, asking).

/** A user signed in on some live node, with their browser connections over all nodes. */
export interface PresentUser {
  username: string;
  first_name: string | null;
  last_name: string | null;
  role: 'admin' | 'broker' | 'viewer' | 'user';
  connections: number;
}

/**
 * Replaces this node's rows with its connections now (user id → connections; a deleted user is left
 * out), and drops the rows of nodes that hold no live node lease any more (their users are gone).
 */
export async function replaceNodePresence(db: Db, nodeId: string, connections: ReadonlyMap<number, number>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM browser_presence p
        WHERE p.node_id = $1
           OR NOT EXISTS (SELECT 1 FROM leases l WHERE l.name = $2 || p.node_id AND l.expires_at > now())`,
      [nodeId, NODE_LEASE_PREFIX],
    );
    if (connections.size === 0) return;
    await tx.query(
      `INSERT INTO browser_presence (node_id, user_id, connections)
       SELECT $1, c.user_id, c.n FROM unnest($2::int[], $3::int[]) AS c(user_id, n) JOIN users u ON u.user_id = c.user_id`,
      [nodeId, pgArray([...connections.keys()]), pgArray([...connections.values()])],
    );
  });
}

/** Every user with a browser connected to a live node (or to `nodeId`, the asking node), by username. */
export async function deskPresence(db: Queryable, nodeId: string): Promise<PresentUser[]> {
  const { rows } = await db.query<PresentUser>(
    `SELECT u.username, u.first_name, u.last_name, u.role, sum(p.connections)::int AS connections
       FROM browser_presence p
       JOIN users u ON u.user_id = p.user_id
      WHERE p.node_id = $1 OR EXISTS (SELECT 1 FROM leases l WHERE l.name = $2 || p.node_id AND l.expires_at > now())
      GROUP BY u.user_id
      ORDER BY u.username`,
    [nodeId, NODE_LEASE_PREFIX],
  );
  return rows;
}
