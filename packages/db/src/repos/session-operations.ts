import type { Queryable } from '../db';

// The audit trail of the live session console: every operator action on a client's FIX
// session and every certificate issued, with who, why, and the state before and after. Append-only.

export type SessionOperationAction = 'LOGOUT' | 'DISCONNECT' | 'RESET_SEQNUMS' | 'SET_NEXT_SENDER' | 'SET_NEXT_TARGET' | 'GENERATE_CERTS';

export interface SessionOperation {
  compId: string;
  action: SessionOperationAction;
  reason: string;
  before: unknown;
  after: unknown;
  changedBy: string;
  userRef: number | null;
}

export interface SessionOperationRow {
  id: number;
  comp_id: string;
  action: SessionOperationAction;
  reason: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  changed_by: string;
  created_at: Date;
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export async function recordSessionOperation(db: Queryable, op: SessionOperation): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO session_operations (comp_id, action, reason, before, after, changed_by, user_ref)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7) RETURNING id`,
    [op.compId, op.action, op.reason, json(op.before), json(op.after), op.changedBy, op.userRef],
  );
  return Number(rows[0]!.id);
}

/** One client's console history, newest first. */
export async function listSessionOperations(db: Queryable, compId: string, limit = 50): Promise<SessionOperationRow[]> {
  const { rows } = await db.query<SessionOperationRow & { id: string | number }>(
    `SELECT id, comp_id, action, reason, before, after, changed_by, created_at FROM session_operations
      WHERE comp_id = $1 ORDER BY id DESC LIMIT $2`,
    [compId, limit],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export interface LastMessageRow {
  direction: 'TX' | 'RX';
  msg_type: string;
  msg_seq_num: number;
  created_at: Date;
}

/**
 * The last message stored in each direction between us and a client (what the console shows after a
 * restart). The store keys both directions by the session: sender_comp_id is ours.
 */
export async function lastSessionMessages(db: Queryable, ourCompId: string, clientCompId: string): Promise<LastMessageRow[]> {
  const { rows } = await db.query<LastMessageRow>(
    `(SELECT direction, msg_type, msg_seq_num, created_at FROM fix_messages
       WHERE sender_comp_id = $1 AND target_comp_id = $2 AND direction = 'RX' ORDER BY id DESC LIMIT 1)
     UNION ALL
     (SELECT direction, msg_type, msg_seq_num, created_at FROM fix_messages
       WHERE sender_comp_id = $1 AND target_comp_id = $2 AND direction = 'TX' ORDER BY id DESC LIMIT 1)`,
    [ourCompId, clientCompId],
  );
  return rows;
}
