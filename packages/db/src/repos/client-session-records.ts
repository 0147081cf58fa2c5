import { sessionStatus, type ClientSessionRecord, type SessionValues } from '@fixdesk/protocol';
import type { Queryable } from '../db';

// The Client Sessions screen's records (spec 001 §3 "Client session", §7): what the acceptor recorded
// of each FIX session (client-sessions.ts writes them) and the administrator's corrections and
// additions. A correction of a recorded session is stored beside the original (correction: the
// corrected fields; corrected_by, corrected_at), so the recorded values are never lost.

/** A client session as stored: the recorded values and, beside them, an administrator's correction. */
export interface ClientSessionRow extends Omit<SessionValues, 'session_start' | 'session_end'> {
  id: number;
  comp_id: string;
  session_start: Date;
  session_end: Date | null;
  remote_address: string | null;
  node_id: string | null;
  /** True when the acceptor recorded it; false when an administrator added it. */
  recorded: boolean;
  /** The corrected fields of a recorded session (the columns keep what was recorded). */
  correction: Partial<SessionValues> | null;
  corrected_by: string | null;
  corrected_at: Date | null;
}

const iso = (d: Date | string | null | undefined) => (d === null || d === undefined ? null : new Date(d).toISOString());

function recordedValues(row: ClientSessionRow): SessionValues {
  return {
    session_start: iso(row.session_start)!,
    session_end: iso(row.session_end),
    disconnect_reason: row.disconnect_reason,
    messages_sent: row.messages_sent,
    messages_received: row.messages_received,
    orders_processed: row.orders_processed,
  };
}

/**
 * The one mapping of a stored session to the protocol's ClientSessionRecord: the values in force (a
 * correction's where there is one), and for a corrected recorded session what was recorded (`original`).
 */
export function toClientSessionRecord(row: ClientSessionRow): ClientSessionRecord {
  const recorded = recordedValues(row);
  const corrected = row.recorded && row.correction ? { ...recorded, ...row.correction } : recorded;
  return {
    id: row.id,
    comp_id: row.comp_id,
    ...corrected,
    status: sessionStatus(corrected),
    remote_address: row.remote_address,
    recorded: row.recorded,
    original: row.recorded && row.correction ? recorded : null,
    corrected_by: row.corrected_by,
    corrected_at: iso(row.corrected_at),
  };
}

const SELECT = `SELECT id::int AS id, comp_id, session_start, session_end, disconnect_reason, messages_sent, messages_received,
                       orders_processed, remote_address, node_id, recorded, correction, corrected_by, corrected_at
                  FROM client_sessions`;

export async function listClientSessions(db: Queryable, opts: { compId?: string; limit?: number } = {}): Promise<ClientSessionRow[]> {
  const { rows } = await db.query<ClientSessionRow>(
    `${SELECT} WHERE ($1::text IS NULL OR comp_id = $1) ORDER BY session_start DESC, id DESC LIMIT $2`,
    [opts.compId ?? null, opts.limit ?? 2000],
  );
  return rows;
}

export async function getClientSession(db: Queryable, id: number, opts: { lock?: boolean } = {}): Promise<ClientSessionRow | undefined> {
  const { rows } = await db.query<ClientSessionRow>(`${SELECT} WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

/** A session added by hand (recorded = false). Undefined when the comp id names no connector. */
export async function insertClientSession(db: Queryable, compId: string, v: SessionValues, by: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO client_sessions (comp_id, session_start, session_end, disconnect_reason, messages_sent, messages_received, orders_processed,
                                  recorded, corrected_by, corrected_at)
     SELECT comp_id, $2, $3, $4, $5, $6, $7, false, $8, now() FROM client_connectors WHERE comp_id = $1
     RETURNING id::int AS id`,
    [compId, v.session_start, v.session_end, v.disconnect_reason, v.messages_sent, v.messages_received, v.orders_processed, by],
  );
  return rows[0]?.id;
}

/**
 * An edit: a session added by hand is changed in place; a recorded one keeps its columns and gets the
 * corrected values as its correction (merged with an earlier one).
 */
export async function updateClientSession(db: Queryable, row: ClientSessionRow, v: Partial<SessionValues>, by: string): Promise<void> {
  if (!row.recorded) {
    const cols = (Object.keys(v) as (keyof SessionValues)[]).filter((k) => v[k] !== undefined);
    const sets = cols.map((c, i) => `${c} = $${i + 2}`);
    await db.query(
      `UPDATE client_sessions SET ${[...sets, `corrected_by = $${cols.length + 2}`, 'corrected_at = now()'].join(', ')} WHERE id = $1`,
      [row.id, ...cols.map((c) => v[c]), by],
    );
    return;
  }
  const correction = { ...(row.correction ?? {}), ...Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) };
  await db.query('UPDATE client_sessions SET correction = $2::jsonb, corrected_by = $3, corrected_at = now() WHERE id = $1', [
    row.id,
    JSON.stringify(correction),
    by,
  ]);
}

export async function deleteClientSession(db: Queryable, id: number): Promise<boolean> {
  const r = await db.query('DELETE FROM client_sessions WHERE id = $1', [id]);
  return r.rowCount > 0;
}
