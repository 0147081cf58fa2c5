import { FIX_MESSAGE_CSV_FIELDS, ORDER_ACTION_CSV_FIELDS, type CsvField } from '@fixdesk/client';
import {
  countFixMessages,
  countOrderActions,
  getOrderAction,
  listAuditAccess,
  listFixMessages,
  listOrderActions,
  presentFixMessage,
  type AuditAccessAction,
  type Db,
} from '@fixdesk/db';
import { MsgType } from '@fixdesk/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { recordLook } from '../audit/who-looked';
import { sendCsvExport } from '../http/csv-export';
import { dateRangeOf, type DateRange } from '../http/date-range';
import { notFound, parse } from '../http/errors';

/** Session-level message types (hidden by "ignore session messages"). */
const SESSION_MSG_TYPES = [
  MsgType.Heartbeat,
  MsgType.TestRequest,
  MsgType.ResendRequest,
  MsgType.Reject,
  MsgType.SequenceReset,
  MsgType.Logout,
  MsgType.Logon,
] as const;

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
  /** Keyset paging, newest first: the next page is the rows below the smallest id shown. */
  beforeId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

const IdParams = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const AccessQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
  beforeId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  username: z.string().max(128).optional(),
});

/** A stored message as the API and the export give it. */
/**
 * A list's answer: its rows under their own name and again as `data`, as the API gives them,
 * serialised once and written twice (the Order Actions screen's 10,000 rows otherwise spend half
 * their answer's time serialising the same rows a second time). The same text JSON.stringify writes.
 */
function listAnswer(reply: FastifyReply, name: 'messages' | 'actions', rows: readonly unknown[]): FastifyReply {
  const json = JSON.stringify(rows);
  return reply.type('application/json; charset=utf-8').send(`{"success":true,"${name}":${json},"data":${json}}`);
}

/** The audit lists' date filter: `start` and `end` (a bare end date includes its whole day). */
const RANGE = ['start', 'end'] as const;

export function auditRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };

  const fixFilter = (q: z.infer<typeof FixMessagesQuery>) => ({
    includeSimulated: q.includeSimulated === 'true',
    ignoreHeartbeats: q.ignoreHeartbeats !== 'false',
    excludeMsgTypes: q.ignoreSessionMessages === 'true' ? SESSION_MSG_TYPES : undefined,
    ...dateRangeOf(q, RANGE),
    clordid: q.clordid,
    brokerorderid: q.brokerorderid,
    compId: q.compId,
    msgType: q.msgType,
    direction: q.direction,
  });

  async function fixMessages(q: z.infer<typeof FixMessagesQuery>, defaultLimit: number) {
    const rows = await listFixMessages(ctx.db, { ...fixFilter(q), beforeId: q.beforeId, limit: q.limit ?? defaultLimit });
    return rows.map(presentFixMessage);
  }

  // A list's read is a look at the record as an export is (up to 100,000 rows at once, or page after
  // page): recorded with its filter and row count before the answer goes out.
  app.get('/api/fix-messages', read, async (req, reply) => {
    const q = parse(FixMessagesQuery, req.query, 'query');
    const range = dateRangeOf(q, RANGE);
    const messages = await fixMessages(q, 1000);
    await recordLook(ctx.db, req, 'list_fix_messages', { rangeStart: range.start, rangeEnd: range.end, rowCount: messages.length });
    return listAnswer(reply, 'messages', messages);
  });

  app.get('/api/fix-messages/export', read, async (req, reply) => {
    const q = parse(FixMessagesQuery, req.query, 'query');
    const range = dateRangeOf(q, RANGE, 'an export');
    const messages = await fixMessages(q, 100_000);
    await recordLook(ctx.db, req, 'export_fix_messages', { rangeStart: range.start, rangeEnd: range.end, rowCount: messages.length });
    return listAnswer(reply, 'messages', messages);
  });

  /**
   * The whole range of an audit table as a CSV file, streamed page by page (keyset by id), never held
   * in memory: a million rows leave in seconds. Counted first (X-Export-Rows gives the browser its
   * progress) and recorded in the who-looked log before anything is sent. The columns are the
   * table's (`@fixdesk/client`), cells neutralised against formulas.
   */
  async function exportCsv<F extends DateRange, R, T extends { id: number }>(
    req: FastifyRequest,
    reply: FastifyReply,
    filter: F,
    table: {
      look: AuditAccessAction;
      fileName: string;
      fields: readonly CsvField<T>[];
      count: (db: Db, f: F) => Promise<number>;
      list: (db: Db, f: F & { beforeId?: number; limit: number }) => Promise<R[]>;
      present: (row: R) => T;
    },
  ): Promise<FastifyReply> {
    const total = await table.count(ctx.db, filter);
    await recordLook(ctx.db, req, table.look, { rangeStart: filter.start, rangeEnd: filter.end, rowCount: total });
    return sendCsvExport(reply, {
      fileName: table.fileName,
      total,
      fields: table.fields,
      page: async (beforeId, limit) => (await table.list(ctx.db, { ...filter, beforeId, limit })).map(table.present),
    });
  }

  app.get('/api/fix-messages/export.csv', read, async (req, reply) => {
    const q = parse(FixMessagesQuery, req.query, 'query');
    dateRangeOf(q, RANGE, 'an export');
    return exportCsv(req, reply, fixFilter(q), {
      look: 'export_fix_messages',
      fileName: 'fix_messages.csv',
      fields: FIX_MESSAGE_CSV_FIELDS,
      count: countFixMessages,
      list: listFixMessages,
      present: presentFixMessage,
    });
  });

  const orderActions = (q: z.infer<typeof ActionsQuery>, defaultLimit: number) =>
    listOrderActions(ctx.db, {
      ...dateRangeOf(q, RANGE),
      brokerorderid: q.brokerorderid,
      actionType: q.actionType,
      beforeId: q.beforeId,
      limit: q.limit ?? defaultLimit,
    });

  app.get('/api/order-actions', read, async (req, reply) => {
    const q = parse(ActionsQuery, req.query, 'query');
    const range = dateRangeOf(q, RANGE);
    const actions = await orderActions(q, 10_000);
    await recordLook(ctx.db, req, 'list_order_actions', { rangeStart: range.start, rangeEnd: range.end, rowCount: actions.length });
    return listAnswer(reply, 'actions', actions);
  });

  app.get('/api/order-actions/export', read, async (req, reply) => {
    const q = parse(ActionsQuery, req.query, 'query');
    const range = dateRangeOf(q, RANGE, 'an export');
    const actions = await orderActions(q, 100_000);
    await recordLook(ctx.db, req, 'export_order_actions', { rangeStart: range.start, rangeEnd: range.end, rowCount: actions.length });
    return listAnswer(reply, 'actions', actions);
  });

  app.get('/api/order-actions/export.csv', read, async (req, reply) => {
    const q = parse(ActionsQuery, req.query, 'query');
    const filter = { ...dateRangeOf(q, RANGE, 'an export'), brokerorderid: q.brokerorderid, actionType: q.actionType };
    return exportCsv(req, reply, filter, {
      look: 'export_order_actions',
      fileName: 'order_actions.csv',
      fields: ORDER_ACTION_CSV_FIELDS,
      count: countOrderActions,
      list: listOrderActions,
      present: (action) => action,
    });
  });

  app.get('/api/order-actions/:id', read, async (req) => {
    const { id } = parse(IdParams, req.params, 'params');
    const row = await getOrderAction(ctx.db, id);
    if (!row) throw notFound(`Order action ${id} not found`);
    await recordLook(ctx.db, req, 'view_order_action', { subjectId: id });
    return { success: true, action: row, data: row };
  });

  // Who looked: every export and detail view of the audit screens, for administrators.
  app.get('/api/audit-access', { config: { access: 'admin' as const } }, async (req) => {
    const q = parse(AccessQuery, req.query, 'query');
    const rows = await listAuditAccess(ctx.db, { limit: q.limit ?? 1000, beforeId: q.beforeId, username: q.username });
    const data = rows.map((r) => ({
      id: r.id,
      timestamp: r.created_at.toISOString(),
      user_id: r.user_id,
      username: r.username,
      role: r.role,
      action: r.action,
      subject_id: r.subject_id,
      range_start: r.range_start?.toISOString() ?? null,
      range_end: r.range_end?.toISOString() ?? null,
      filter: r.filter,
      row_count: r.row_count,
      ip: r.ip,
    }));
    return { success: true, data };
  });
}
