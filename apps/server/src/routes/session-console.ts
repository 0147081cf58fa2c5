import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getConnector, listSessionOperations, recordSessionOperation, type ConnectorRow, type SessionOperationAction } from '@fixdesk/db';
import {
  CompIdParamsSchema,
  previewSessionAction,
  sessionActionProblem,
  SessionActionSchema,
  type SessionActionInput,
  type SessionConsoleState,
  type SessionConsoleView,
} from '@fixdesk/protocol';
import type { AppContext } from '../context';
import { SessionElsewhereError } from '../fix/session-console';
import { conflict, HttpError, notFound, parse } from '../http/errors';

const AUDIT_ACTION: Record<SessionActionInput['action'], SessionOperationAction> = {
  logout: 'LOGOUT',
  disconnect: 'DISCONNECT',
  reset_seqnums: 'RESET_SEQNUMS',
  set_next_sender: 'SET_NEXT_SENDER',
  set_next_target: 'SET_NEXT_TARGET',
};

function snapshot(s: SessionConsoleState): Record<string, unknown> {
  return {
    state: s.state,
    loggedOn: s.loggedOn,
    connected: s.connected,
    remoteAddress: s.remoteAddress,
    nextSenderMsgSeqNum: s.nextSenderMsgSeqNum,
    nextTargetMsgSeqNum: s.nextTargetMsgSeqNum,
  };
}

/**
 * The live session console: a client's FIX session as it is now, and the operator's actions
 * on it, each allowed only in the state where it is safe, with a typed reason, recorded in
 * session_operations with the user and the numbers before and after. Admin only. On any node: the
 * session is read and acted on where it is (fix/session-console.ts).
 */
export function sessionConsoleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = { config: { access: 'admin' as const } };

  const connector = async (req: FastifyRequest): Promise<ConnectorRow> => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const c = await getConnector(ctx.db, comp_id);
    if (!c) throw notFound(`Client connector ${comp_id} not found`);
    return c;
  };

  /** Work on the session where it is: the node holding it not answering is a 503 saying so. */
  const whereItIs = <T>(work: Promise<T>): Promise<T> =>
    work.catch((err: unknown) => {
      throw err instanceof SessionElsewhereError ? new HttpError(503, err.message) : err;
    });
  const state = (c: ConnectorRow): Promise<SessionConsoleState> => whereItIs(ctx.sessionConsole.state(c));

  const view = async (c: ConnectorRow): Promise<SessionConsoleView> => {
    const [session, ops] = await Promise.all([state(c), listSessionOperations(ctx.db, c.comp_id, 50)]);
    return {
      session,
      operations: ops.map((o) => ({
        id: o.id,
        action: o.action,
        reason: o.reason,
        before: o.before,
        after: o.after,
        changedBy: o.changed_by,
        createdAt: o.created_at.toISOString(),
      })),
    };
  };

  app.get('/api/client-connectors/:comp_id/session', admin, async (req) => {
    return { success: true, data: await view(await connector(req)) };
  });

  app.post('/api/client-connectors/:comp_id/session/actions', admin, async (req) => {
    const c = await connector(req);
    const input = parse(SessionActionSchema, req.body, 'body');
    const before = await state(c);
    const problem = sessionActionProblem(input.action, before);
    if (problem)
      throw conflict(`${problem} (${c.comp_id} is ${before.loggedOn ? 'logged on' : before.connected ? 'connected' : 'logged out'})`);
    const value = 'value' in input ? input.value : undefined;
    const preview = previewSessionAction(input.action, before, value);
    const after = await whereItIs(ctx.sessionConsole.act(c, input));
    await recordSessionOperation(ctx.db, {
      compId: c.comp_id,
      action: AUDIT_ACTION[input.action],
      reason: input.reason,
      before: snapshot(before),
      after: { ...snapshot(after), ...(value !== undefined ? { value } : {}), preview },
      changedBy: req.user?.username ?? 'unknown',
      userRef: req.user?.user_id ?? null,
    });
    ctx.log.info({ compId: c.comp_id, by: req.user?.username, action: input.action, value }, 'session console action');
    ctx.events.emit('fix-session-changed', c.comp_id);
    return { success: true, data: await view(c), message: `${input.action.replace(/_/g, ' ')} done for ${c.comp_id}` };
  });
}
