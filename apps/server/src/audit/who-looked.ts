import { recordAuditAccess, type AuditAccessAction, type Db } from '@fixdesk/db';
import type { FastifyRequest } from 'fastify';

/**
 * Records that the signed-in user exported from or opened a record of the audit screens (who
 * looked), read one of their lists or an order's timeline. Recorded before the answer
 * goes out: a look that could not be recorded is refused.
 */
export async function recordLook(
  db: Db,
  req: FastifyRequest,
  action: AuditAccessAction,
  details: { subjectId?: number; rangeStart?: Date; rangeEnd?: Date; rowCount?: number } = {},
): Promise<void> {
  const user = req.user!;
  const filter = typeof req.query === 'object' && req.query !== null ? (req.query as Record<string, unknown>) : {};
  await recordAuditAccess(db, { userId: user.user_id, username: user.username, role: user.role, action, filter, ip: req.ip, ...details });
}
