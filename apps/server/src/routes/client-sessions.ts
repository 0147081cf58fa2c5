import {
  deleteClientSession,
  getClientSession,
  insertClientSession,
  listClientSessions,
  recordReferenceChange,
  toClientSessionRecord,
  updateClientSession,
} from '@fixdesk/db';
import {
  CreateSessionSchema,
  onlyGiven,
  SessionIdParamsSchema,
  SessionListQuerySchema,
  SessionText,
  UpdateSessionSchema,
} from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { actor } from '../http/actor';
import { invalidField, notFound, parse } from '../http/errors';

/**
 * Client sessions (spec 001 §2, §3, §4, §5, §7, §8), administrators only. The acceptor
 * records every session (fix/gateway.ts); here administrators read them and correct or add sessions.
 * A recorded session keeps what was recorded: a correction is stored beside it and the answer shows
 * both (values in force, and `original`), with who corrected it. Every change is in reference_changes.
 */

export function clientSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = { config: { access: 'admin' as const } };

  app.get('/api/client-sessions', admin, async (req) => {
    const q = parse(SessionListQuerySchema, req.query, 'query');
    const rows = (await listClientSessions(ctx.db, { compId: q.comp_id || undefined })).map(toClientSessionRecord);
    // A session still logged on to this node: its counters so far (the row gets them at logout).
    const live = ctx.fix.activity.counts();
    for (const r of rows) {
      const c = r.session_end === null && !r.original ? live.get(r.id) : undefined;
      if (c) Object.assign(r, { messages_sent: c.sent, messages_received: c.received, orders_processed: c.orders });
    }
    return { success: true, data: rows };
  });

  app.post('/api/client-sessions', admin, async (req) => {
    const input = parse(CreateSessionSchema, req.body, 'body');
    const by = actor(req);
    const row = await ctx.db.transaction(async (tx) => {
      const id = await insertClientSession(
        tx,
        input.comp_id,
        { ...input, disconnect_reason: input.disconnect_reason ?? null },
        by.changedBy,
      );
      if (id === undefined) throw invalidField('comp_id', `Comp ID ${input.comp_id} is not a client connector`);
      const created = (await getClientSession(tx, id))!;
      await recordReferenceChange(tx, {
        entity: 'client_sessions',
        entityId: id,
        action: 'CREATE',
        ...by,
        before: null,
        after: toClientSessionRecord(created),
      });
      return created;
    });
    ctx.log.info({ sessionId: row.id, compId: row.comp_id, by: by.changedBy }, 'client session added');
    return { success: true, data: toClientSessionRecord(row), message: SessionText.created };
  });

  app.put('/api/client-sessions/:id', admin, async (req) => {
    const { id } = parse(SessionIdParamsSchema, req.params, 'params');
    const values = onlyGiven(parse(UpdateSessionSchema, req.body, 'body'), req.body);
    const by = actor(req);
    const row = await ctx.db.transaction(async (tx) => {
      const before = await getClientSession(tx, id, { lock: true });
      if (!before) throw notFound(`Session ${id} not found`);
      if (values.comp_id !== undefined && values.comp_id !== before.comp_id)
        throw invalidField('comp_id', 'The comp ID of a session cannot be changed');
      const { comp_id: _c, ...changes } = values;
      const inForce = { ...toClientSessionRecord(before), ...changes };
      if (inForce.session_end && inForce.session_end < inForce.session_start)
        throw invalidField('session_end', `${SessionText.endBeforeStart}`);
      await updateClientSession(tx, before, changes, by.changedBy);
      const after = (await getClientSession(tx, id))!;
      await recordReferenceChange(tx, {
        entity: 'client_sessions',
        entityId: id,
        action: 'UPDATE',
        ...by,
        before: toClientSessionRecord(before),
        after: toClientSessionRecord(after),
      });
      return after;
    });
    ctx.log.info({ sessionId: id, compId: row.comp_id, fields: Object.keys(values), by: by.changedBy }, 'client session corrected');
    return { success: true, data: toClientSessionRecord(row), message: SessionText.updated };
  });

  app.delete('/api/client-sessions/:id', admin, async (req) => {
    const { id } = parse(SessionIdParamsSchema, req.params, 'params');
    const by = actor(req);
    await ctx.db.transaction(async (tx) => {
      const before = await getClientSession(tx, id, { lock: true });
      if (!before) throw notFound(`Session ${id} not found`);
      await deleteClientSession(tx, id);
      await recordReferenceChange(tx, {
        entity: 'client_sessions',
        entityId: id,
        action: 'DELETE',
        ...by,
        before: toClientSessionRecord(before),
        after: null,
      });
    });
    ctx.log.info({ sessionId: id, by: by.changedBy }, 'client session deleted');
    return { success: true, data: { id }, message: SessionText.deleted(id) };
  });
}
