import { listFixMessages, listOrderActions } from '@fixdesk/db';
import { MsgType } from '@fixdesk/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { badRequest, parse } from '../http/errors';
import { presentAction } from '../orders/present';
import { parseDateParam } from './orders';

/**
 * Credentials inside FIX messages (Password 554, NewPassword 925, RawData 96 on a Logon) are never
 * shown: the stored message is the compliance record, the screen gets it with the values masked.
 */
const SECRET_TAGS = /(^|\x01)(554|925|96)=[^\x01]*/g;
export function redactFix(raw: string): string {
  return raw.replace(SECRET_TAGS, (_m, sep: string, tag: string) => `${sep}${tag}=********`);
}

/** Session-level message types (hidden by "ignore session messages"). */
export const SESSION_MSG_TYPES = [MsgType.Heartbeat, MsgType.TestRequest, MsgType.ResendRequest, MsgType.Reject, MsgType.SequenceReset, MsgType.Logout, MsgType.Logon] as const;

const bool = z.enum(['true', 'false']).optional();

const FixMessagesQuery = z.strictObject({
  ignoreHeartbeats: bool,
  ignoreSessionMessages: bool,
  start: z.string().max(40).optional(),
  end: z.string().max(40).optional(),
  clordid: z.string().max(64).optional(),
  brokerorderid: z.string().max(64).optional(),
  compId: z.string().max(64).optional(),
  msgType: z.string().max(4).optional(),
  direction: z.enum(['TX', 'RX']).optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
  beforeId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /** Also the simulated clients' own copies (the test-client service's sessions). */
  includeSimulated: bool,
});

const ActionsQuery = z.strictObject({
  start: z.string().max(40).optional(),
  end: z.string().max(40).optional(),
  brokerorderid: z.string().max(64).optional(),
  actionType: z.string().max(32).optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
});

export function auditRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };

  async function fixMessages(q: z.infer<typeof FixMessagesQuery>, defaultLimit: number) {
    const rows = await listFixMessages(ctx.db, {
      includeSimulated: q.includeSimulated === 'true',
      ignoreHeartbeats: q.ignoreHeartbeats !== 'false',
      excludeMsgTypes: q.ignoreSessionMessages === 'true' ? SESSION_MSG_TYPES : undefined,
      start: parseDateParam(q.start, 'start'),
      end: parseDateParam(q.end, 'end', true),
      clordid: q.clordid,
      brokerorderid: q.brokerorderid,
      compId: q.compId,
      msgType: q.msgType,
      direction: q.direction,
      beforeId: q.beforeId,
      limit: q.limit ?? defaultLimit,
    });
    return rows.map((r) => ({
      id: r.id,
      timestamp: r.created_at.toISOString(),
      transacttime: (r.sending_time ?? r.created_at).toISOString(),
      direction: r.direction,
      msgtype: r.msg_type,
      msgseqnum: r.msg_seq_num,
      // The message's own SenderCompID / TargetCompID (the session key is from our side).
      sender_comp_id: r.direction === 'TX' ? r.sender_comp_id : r.target_comp_id,
      target_comp_id: r.direction === 'TX' ? r.target_comp_id : r.sender_comp_id,
      clordid: r.clordid,
      brokerorderid: r.brokerorderid,
      poss_dup: r.poss_dup,
      raw_fix: redactFix(r.raw_fix),
    }));
  }

  app.get('/api/fix-messages', read, async (req) => {
    const q = parse(FixMessagesQuery, req.query, 'query');
    const messages = await fixMessages(q, 1000);
    return { success: true, messages, data: messages };
  });

  app.get('/api/fix-messages/export', read, async (req) => {
    const q = parse(FixMessagesQuery, req.query, 'query');
    if (!q.start || !q.end) throw badRequest('Invalid query: start and end dates are required for an export', q.start ? 'end' : 'start');
    const messages = await fixMessages(q, 100_000);
    return { success: true, messages, data: messages };
  });

  app.get('/api/order-actions', read, async (req) => {
    const q = parse(ActionsQuery, req.query, 'query');
    const rows = await listOrderActions(ctx.db, {
      start: parseDateParam(q.start, 'start'),
      end: parseDateParam(q.end, 'end', true),
      brokerorderid: q.brokerorderid,
      actionType: q.actionType,
      limit: q.limit ?? 10_000,
    });
    const actions = rows.map(presentAction);
    return { success: true, actions, data: actions };
  });
}
