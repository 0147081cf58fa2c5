import { MsgType } from '@fixdesk/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { badRequest, parse } from '../http/errors';
import { presentAction, type OrderActionRow } from '../orders/present';
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

interface FixMessageRow {
  id: number;
  created_at: Date;
  sending_time: Date | null;
  direction: 'TX' | 'RX';
  msg_type: string;
  msg_seq_num: number;
  sender_comp_id: string;
  target_comp_id: string;
  clordid: string | null;
  brokerorderid: string | null;
  poss_dup: boolean;
  raw_fix: string;
}

export function auditRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };

  async function fixMessages(q: z.infer<typeof FixMessagesQuery>, defaultLimit: number) {
    const where: string[] = [];
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    // Rows are stored by session, from that session's side. Ours (the acceptor's) have our comp id,
    // the target of some client connector, as the session's sender; the simulated clients' copies of
    // the same traffic are hidden unless asked for.
    if (q.includeSimulated !== 'true') where.push(`sender_comp_id IN (SELECT DISTINCT target_comp_id FROM client_connectors)`);
    if (q.ignoreHeartbeats !== 'false') where.push(`msg_type <> '0'`);
    if (q.ignoreSessionMessages === 'true') where.push(`msg_type <> ALL(${p([...SESSION_MSG_TYPES])}::text[])`);
    const start = parseDateParam(q.start, 'start');
    const end = parseDateParam(q.end, 'end', true);
    if (start) where.push(`created_at >= ${p(start)}`);
    if (end) where.push(`created_at <= ${p(end)}`);
    if (q.clordid) where.push(`clordid = ${p(q.clordid)}`);
    if (q.brokerorderid) where.push(`brokerorderid = ${p(q.brokerorderid)}`);
    if (q.compId) where.push(`(sender_comp_id = ${p(q.compId)} OR target_comp_id = $${params.length})`);
    if (q.msgType) where.push(`msg_type = ${p(q.msgType)}`);
    if (q.direction) where.push(`direction = ${p(q.direction)}`);
    if (q.beforeId) where.push(`id < ${p(q.beforeId)}`);
    // A page is the newest rows by id (the primary key: cheap at any size; beforeId pages on), listed
    // by the time each message crossed the wire on our clock: an inbound message's row is written once
    // it was processed, after the replies it caused, but carries the time it arrived; an outbound one
    // carries its SendingTime. Within one millisecond an answer is listed above the message it answers.
    const { rows } = await ctx.db.query<FixMessageRow>(
      `SELECT * FROM (
         SELECT id, created_at, sending_time, direction, msg_type, msg_seq_num, sender_comp_id, target_comp_id, clordid, brokerorderid, poss_dup, raw_fix
           FROM fix_messages ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY id DESC LIMIT ${p(q.limit ?? defaultLimit)}) page
        ORDER BY created_at DESC, direction = 'TX' DESC, id DESC`,
      params,
    );
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
    const where: string[] = [];
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const start = parseDateParam(q.start, 'start');
    const end = parseDateParam(q.end, 'end', true);
    if (start) where.push(`a.created_at >= ${p(start)}`);
    if (end) where.push(`a.created_at <= ${p(end)}`);
    if (q.brokerorderid) where.push(`a.brokerorderid = ${p(q.brokerorderid)}`);
    if (q.actionType) where.push(`a.action_type = ${p(q.actionType)}`);
    const { rows } = await ctx.db.query<OrderActionRow>(
      `SELECT a.*, c.client_name, c.company_name
         FROM order_actions a LEFT JOIN client_connectors c ON c.comp_id = a.sendercompid
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY a.id DESC LIMIT ${p(q.limit ?? 10_000)}`,
      params,
    );
    const actions = rows.map(presentAction);
    return { success: true, actions, data: actions };
  });
}
