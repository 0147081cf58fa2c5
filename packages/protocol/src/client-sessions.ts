import { z } from 'zod';
import { adminInteger, adminOptionalText, adminText, type AdminFields } from './admin-fields';

// Client sessions (spec 001 §2 "Client Sessions", §3 "Client session", §4 session status, §5 "Session
// form", §7, §8): the acceptor records every FIX session of every client; administrators correct or
// add sessions. A recorded session's automatic values stay visible beside a correction.

export const SessionText = {
  created: 'Session created successfully',
  updated: 'Session updated successfully',
  deleted: (id: number) => `Session ${id} deleted successfully`,
  fetchFailed: 'Failed to fetch client sessions',
  createFailed: 'Failed to create session',
  updateFailed: 'Failed to update session',
  deleteFailed: 'Failed to delete session',
  confirmDelete: (id: number) => `Delete session ${id}? A recorded session is part of the client's history.`,
  endBeforeStart: 'must not be before the start',
} as const;

/** Spec 001 §4: no end → Active; an end with a disconnect reason → Disconnected; an end without → Completed. */
export type SessionStatus = 'Active' | 'Disconnected' | 'Completed';
export function sessionStatus(s: { session_end: string | null; disconnect_reason: string | null }): SessionStatus {
  if (!s.session_end) return 'Active';
  return s.disconnect_reason && s.disconnect_reason.trim() !== '' ? 'Disconnected' : 'Completed';
}

/** Duration as hours and minutes ("2h 05m"); to now while the session is active. */
export function sessionDuration(start: string, end: string | null, now: Date = new Date()): string {
  const ms = Math.max(0, (end ? Date.parse(end) : now.getTime()) - Date.parse(start));
  if (!Number.isFinite(ms)) return '';
  const minutes = Math.floor(ms / 60_000);
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A date and time: ISO 8601, or 'YYYY-MM-DD HH:MM[:SS]' read as UTC; sent on as ISO UTC. */
const timestamp = adminText(40).transform((s, ctx) => {
  const m = TIMESTAMP.exec(s);
  const t = m ? Date.parse(`${m[1]}T${m[2]}${m[3] ?? ':00'}${m[5] ?? 'Z'}`) : NaN;
  if (!Number.isFinite(t)) {
    ctx.addIssue({ code: 'custom', message: s === '' ? 'is required' : 'must be a date and time such as 2026-01-31 09:00 (UTC)' });
    return z.NEVER;
  }
  return new Date(t).toISOString();
});

/**
 * Spec 001 §5: counts have a minimum of 0 and are whole numbers; empty falls back to 0. Anything else is
 * refused, not read as a number it does not say ("abc" was saved as 0, "1.5" as 1).
 */
const count = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? 0 : v),
  adminInteger(0, 2_147_483_647, 'a whole number'),
);

const SessionShape = {
  comp_id: adminText(64).min(1, 'is required'),
  session_start: timestamp,
  session_end: z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
    timestamp.nullable(),
  ),
  disconnect_reason: adminOptionalText(500),
  messages_sent: count,
  messages_received: count,
  orders_processed: count,
};

const endAfterStart = (v: { session_start?: string; session_end?: string | null }) =>
  !v.session_start || !v.session_end || v.session_end >= v.session_start;

/** POST /api/client-sessions. */
export const CreateSessionSchema = z
  .strictObject(SessionShape)
  .refine(endAfterStart, { path: ['session_end'], message: SessionText.endBeforeStart });
export type CreateSessionInput = z.input<typeof CreateSessionSchema>;

/** PUT /api/client-sessions/{id}: the comp id is fixed (it may be echoed unchanged); fields left out keep their value. */
export const UpdateSessionSchema = z
  .strictObject({
    ...Object.fromEntries(Object.entries(SessionShape).map(([k, v]) => [k, v.optional()])),
    id: z.unknown().optional(),
    status: z.unknown().optional(),
    duration: z.unknown().optional(),
    remote_address: z.unknown().optional(),
    node_id: z.unknown().optional(),
    recorded: z.unknown().optional(),
    original: z.unknown().optional(),
    corrected_by: z.unknown().optional(),
    corrected_at: z.unknown().optional(),
  })
  .refine((v) => endAfterStart(v as { session_start?: string; session_end?: string | null }), {
    path: ['session_end'],
    message: SessionText.endBeforeStart,
  }) as unknown as z.ZodType<Partial<z.output<typeof CreateSessionSchema>>, Partial<CreateSessionInput> & Record<string, unknown>>;

export const SessionIdParamsSchema = z.strictObject({ id: adminInteger(1, Number.MAX_SAFE_INTEGER, 'a session id') });
export const SessionListQuerySchema = z.strictObject({ comp_id: z.string().trim().max(64).optional() });

export interface SessionValues {
  session_start: string;
  session_end: string | null;
  disconnect_reason: string | null;
  messages_sent: number;
  messages_received: number;
  orders_processed: number;
}

/** One session as the API answers it: the values in force (a correction's where there is one). */
export interface ClientSessionRecord extends SessionValues {
  id: number;
  comp_id: string;
  status: SessionStatus;
  remote_address: string | null;
  /** True when the acceptor recorded it, false when an administrator added it. */
  recorded: boolean;
  /** A corrected recorded session: what the acceptor recorded. Null otherwise. */
  original: SessionValues | null;
  corrected_by: string | null;
  corrected_at: string | null;
}

/** How each field is edited on the Client Sessions screen. */
export const SESSION_FIELDS: AdminFields<CreateSessionInput> = {
  comp_id: { name: 'comp_id', label: 'Comp ID', kind: 'select', required: true },
  session_start: {
    name: 'session_start',
    label: 'Session Start (UTC)',
    kind: 'text',
    required: true,
    maxLength: 40,
    placeholder: '2026-01-31 09:00',
  },
  session_end: { name: 'session_end', label: 'Session End (UTC)', kind: 'text', maxLength: 40, placeholder: 'empty: still active' },
  disconnect_reason: {
    name: 'disconnect_reason',
    label: 'Disconnect Reason',
    kind: 'text',
    maxLength: 500,
    span: 2,
    description: 'Empty with an end: Completed; set: Disconnected',
  },
  messages_sent: { name: 'messages_sent', label: 'Messages Sent', kind: 'integer', defaultValue: '0' },
  messages_received: { name: 'messages_received', label: 'Messages Received', kind: 'integer', defaultValue: '0' },
  orders_processed: { name: 'orders_processed', label: 'Orders Processed', kind: 'integer', defaultValue: '0' },
};
