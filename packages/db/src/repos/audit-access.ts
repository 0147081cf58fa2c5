import type { Queryable } from '../db';

// Who looked at the compliance record: exports and detail views of the audit screens, the
// lists' reads and orders' timelines.

export type AuditAccessAction =
  | 'export_fix_messages'
  | 'export_order_actions'
  | 'view_fix_message'
  | 'view_order_action'
  | 'list_fix_messages'
  | 'list_order_actions'
  | 'view_order_timeline';

export interface AuditAccess {
  readonly userId: number | null;
  readonly username: string;
  readonly role: string;
  readonly action: AuditAccessAction;
  readonly subjectId?: number | undefined;
  readonly rangeStart?: Date | undefined;
  readonly rangeEnd?: Date | undefined;
  /** The filter as asked (query parameters), kept as given. */
  readonly filter?: Record<string, unknown> | undefined;
  readonly rowCount?: number | undefined;
  readonly ip: string;
}

export interface AuditAccessRow {
  id: number;
  user_id: number | null;
  username: string;
  role: string;
  action: AuditAccessAction;
  subject_id: number | null;
  range_start: Date | null;
  range_end: Date | null;
  filter: Record<string, unknown>;
  row_count: number | null;
  ip: string | null;
  created_at: Date;
}

export async function recordAuditAccess(db: Queryable, a: AuditAccess): Promise<void> {
  await db.query(
    `INSERT INTO audit_access (user_id, username, role, action, subject_id, range_start, range_end, filter, row_count, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      a.userId,
      a.username,
      a.role,
      a.action,
      a.subjectId ?? null,
      a.rangeStart ?? null,
      a.rangeEnd ?? null,
      JSON.stringify(a.filter ?? {}),
      a.rowCount ?? null,
      a.ip,
    ],
  );
}

/** The newest accesses first; `beforeId` pages on. */
export async function listAuditAccess(
  db: Queryable,
  f: { limit: number; beforeId?: number | undefined; username?: string | undefined },
): Promise<AuditAccessRow[]> {
  const { rows } = await db.query<AuditAccessRow>(
    `SELECT * FROM audit_access
      WHERE ($1::bigint IS NULL OR id < $1) AND ($2::text IS NULL OR username = $2)
      ORDER BY id DESC LIMIT $3`,
    [f.beforeId ?? null, f.username ?? null, f.limit],
  );
  return rows;
}
