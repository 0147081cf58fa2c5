import type { Queryable } from '../db';
import { storedNextSenderSeq } from '../fix-message-store';
import { NODE_LEASE_PREFIX } from '../leases';
import { pgArray } from '../pg-array';

// The clients' FIX sessions as the Client Sessions and service screens see them: one client_sessions
// row per logon, and the connection flag of each session's stored state (fix_session_state).

/** The session key as stored (our side's view). */
export interface StoredSessionKey {
  beginString: string;
  senderCompID: string;
  targetCompID: string;
}

/** Nodes that hold no live lease (docs/adr/0012): what they had connected is gone with them. */
const GONE_NODE = (column: string) =>
  `(${column} IS NULL OR ${column} = $1 OR ${column} NOT IN (SELECT owner FROM leases WHERE expires_at > now()))`;

/**
 * At a node's start: the sessions this database believed connected to this node (its previous
 * process), or to a node that holds no live lease any more, belonged to a process that is gone.
 * Sessions of the other live nodes stay as they are.
 */
export async function closeSessionsOfStoppedProcess(db: Queryable, nodeId: string): Promise<void> {
  await db.query(`UPDATE fix_session_state SET is_connected = false, owner_node = NULL WHERE is_connected AND ${GONE_NODE('owner_node')}`, [
    nodeId,
  ]);
  await db.query(
    `UPDATE client_sessions SET session_end = now(), disconnect_reason = 'server restarted' WHERE session_end IS NULL AND ${GONE_NODE('node_id')}`,
    [nodeId],
  );
}

/** A client logged on: its session row (returns its id) and the session marked connected to this node. */
export async function openClientSession(
  db: Queryable,
  key: StoredSessionKey,
  compId: string,
  remoteAddress: string | null,
  nodeId: string,
): Promise<number> {
  // A row still open is of a node that lost the session (it died or stalled): this logon ends it.
  await db.query(
    "UPDATE client_sessions SET session_end = now(), disconnect_reason = 'session taken over by node ' || $2 WHERE comp_id = $1 AND session_end IS NULL",
    [compId, nodeId],
  );
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO client_sessions (comp_id, session_start, remote_address, node_id) VALUES ($1, now(), $2, $3) RETURNING id',
    [compId, remoteAddress, nodeId],
  );
  await db.query(
    'UPDATE fix_session_state SET is_connected = true, connected_at = now(), owner_node = $4 WHERE begin_string = $1 AND sender_comp_id = $2 AND target_comp_id = $3',
    [key.beginString, key.senderCompID, key.targetCompID, nodeId],
  );
  return rows[0]!.id;
}

/**
 * A configured client's logon was refused (unknown address, wrong credentials, inactive, outside its
 * hours): a closed session row saying why, so the operator sees every attempt in the client's
 * session history, including the refusals the client itself was told nothing about.
 */
export async function recordRefusedLogon(
  db: Queryable,
  compId: string,
  remoteAddress: string | null,
  nodeId: string,
  reason: string,
): Promise<void> {
  await db.query(
    `INSERT INTO client_sessions (comp_id, session_start, session_end, disconnect_reason, remote_address, node_id)
     SELECT comp_id, now(), now(), $2, $3, $4 FROM client_connectors WHERE comp_id = $1`,
    [compId, `logon refused: ${reason}`.slice(0, 500), remoteAddress, nodeId],
  );
}

/**
 * A client logged out of `nodeId`: its session row closed with its counters (when it had one), the
 * session marked disconnected unless another node has it connected meanwhile.
 */
export async function closeClientSession(
  db: Queryable,
  key: StoredSessionKey,
  row: { id: number; disconnectReason: string | null; sent: number; received: number; orders: number } | undefined,
  nodeId: string,
): Promise<void> {
  if (row) {
    await db.query(
      'UPDATE client_sessions SET session_end = now(), disconnect_reason = $2, messages_sent = $3, messages_received = $4, orders_processed = $5 WHERE id = $1',
      [row.id, row.disconnectReason, row.sent, row.received, row.orders],
    );
  }
  await db.query(
    `UPDATE fix_session_state SET is_connected = false, owner_node = NULL
      WHERE begin_string = $1 AND sender_comp_id = $2 AND target_comp_id = $3 AND (owner_node IS NULL OR owner_node = $4)`,
    [key.beginString, key.senderCompID, key.targetCompID, nodeId],
  );
}

/**
 * A session recorded connected at `column`'s node counts as connected while that node is live (holds
 * its node lease; docs/adr/0012): the sessions of a node that died drop when its lease runs out.
 */
export const ON_LIVE_NODE = (column: string) =>
  `(${column} IS NULL OR EXISTS (SELECT 1 FROM leases nl WHERE nl.name = '${NODE_LEASE_PREFIX}' || ${column} AND nl.expires_at > now()))`;

/** Whether the client's FIX session is connected to some live node, and to which (as the node that has it recorded). */
export async function sessionConnection(db: Queryable, compId: string): Promise<{ connected: boolean; node: string | null }> {
  const { rows } = await db.query<{ is_connected: boolean; owner_node: string | null }>(
    `SELECT is_connected AND ${ON_LIVE_NODE('owner_node')} AS is_connected, owner_node FROM fix_session_state WHERE target_comp_id = $1 ORDER BY is_connected DESC LIMIT 1`,
    [compId],
  );
  return { connected: rows[0]?.is_connected ?? false, node: rows[0]?.owner_node ?? null };
}

/** The clients whose sessions are recorded connected at one of these nodes (by comp id). */
export async function sessionsConnectedAt(db: Queryable, nodeIds: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ target_comp_id: string }>(
    'SELECT target_comp_id FROM fix_session_state WHERE is_connected AND owner_node = ANY($1::text[]) ORDER BY 1',
    [pgArray(nodeIds)],
  );
  return rows.map((r) => r.target_comp_id);
}

/** The next sequence numbers stored for a session (1 and 1 when it never ran). */
export async function storedSequenceNumbers(db: Queryable, key: StoredSessionKey): Promise<{ nextSender: number; nextTarget: number }> {
  const { rows } = await db.query<{ next_sender_seq: number; next_target_seq: number }>(
    `SELECT ${storedNextSenderSeq('st')} AS next_sender_seq, next_target_seq FROM fix_session_state st
      WHERE begin_string = $1 AND sender_comp_id = $2 AND target_comp_id = $3`,
    [key.beginString, key.senderCompID, key.targetCompID],
  );
  return { nextSender: rows[0]?.next_sender_seq ?? 1, nextTarget: rows[0]?.next_target_seq ?? 1 };
}

/** The stored next sequence numbers of every session, by the client's comp id (our target). */
export async function listStoredSequenceNumbers(db: Queryable): Promise<Map<string, { nextSender: number; nextTarget: number }>> {
  const { rows } = await db.query<{ target_comp_id: string; next_sender_seq: number; next_target_seq: number }>(
    `SELECT target_comp_id, ${storedNextSenderSeq('st')} AS next_sender_seq, next_target_seq FROM fix_session_state st`,
  );
  return new Map(rows.map((r) => [r.target_comp_id, { nextSender: r.next_sender_seq, nextTarget: r.next_target_seq }]));
}
