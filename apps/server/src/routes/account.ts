import { getUserById, listUserSessions, recordReferenceChange, revokeUserSession, updateUser } from '@fixdesk/db';
import { AccountText, ChangeOwnPasswordSchema, type AccountProfile, type AccountSession } from '@fixdesk/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hashToken } from '../auth/auth-service';
import { passwordProblem } from '../auth/password-policy';
import type { AppContext } from '../context';
import { HttpError, notFound, parse, invalidField } from '../http/errors';
import { actor } from './users';

/**
 * The signed-in user's own account: their profile, a change of their own password (the
 * current one required, and wrong ones counted like failed sign-ins; the same policy as an
 * administrator's; the change ends their other sessions),
 * and their active sessions with a sign-out for each. Any signed-in user, about themselves only.
 */
export function accountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };
  const me = (req: FastifyRequest) => req.user!.user_id;

  app.get('/api/account', read, async (req) => {
    const u = await getUserById(ctx.db, me(req));
    if (!u) throw notFound('User not found');
    const data: AccountProfile = {
      user_id: u.user_id,
      username: u.username,
      email: u.email,
      first_name: u.first_name,
      last_name: u.last_name,
      whatsapp_number: u.whatsapp_number,
      role: u.role,
      user_type: u.user_type,
      last_login: u.last_login,
      broker_company_name: u.broker_company_name,
      trader_id: u.trader_id,
      trader_full_name: u.trader_full_name,
      trader_party_id_source: u.trader_party_id_source,
    };
    return { success: true, data };
  });

  app.post('/api/account/password', read, async (req, reply) => {
    const body = parse(ChangeOwnPasswordSchema, req.body, 'body');
    const userId = me(req);
    const current = await ctx.auth.checkCurrentPassword(req.user!, body.current_password, req.ip);
    if (current.kind === 'locked') {
      // Counted like sign-ins (login_attempts): the attempt is recorded as rate_limited.
      ctx.log.warn({ userId, ip: req.ip, retryAfterSeconds: current.retryAfterSeconds }, 'password change throttled');
      reply.header('retry-after', String(current.retryAfterSeconds));
      const message = AccountText.tooManyWrongCurrent(current.retryAfterSeconds);
      throw new HttpError(429, message, 'current_password', [{ path: 'current_password', message }]);
    }
    if (current.kind === 'invalid') {
      throw new HttpError(400, AccountText.wrongCurrent, 'current_password', [
        { path: 'current_password', message: AccountText.wrongCurrent },
      ]);
    }
    const problem = passwordProblem(body.new_password, req.user!.username);
    if (problem) throw invalidField('new_password', `${problem}`);
    const hash = await ctx.auth.hashPassword(body.new_password);
    const ended = await ctx.db.transaction(async (tx) => {
      const before = await getUserById(tx, userId, { lock: true });
      if (!before) throw notFound('User not found');
      await updateUser(tx, userId, {}, hash);
      await recordReferenceChange(tx, {
        entity: 'users',
        entityId: userId,
        action: 'UPDATE',
        ...actor(req),
        before: { password: null },
        after: { password: '(changed by the user)' },
      });
      return ctx.auth.endSessions(tx, userId, 'password_changed', req.authToken);
    });
    ctx.hub.revokeTokenHashes(ended, 'Your password was changed: please sign in again', userId);
    ctx.log.info({ userId, sessionsEnded: ended.length }, 'own password changed');
    return { success: true, message: AccountText.passwordChanged, sessionsEnded: ended.length };
  });

  app.get('/api/account/sessions', read, async (req) => {
    const mine = req.authToken ? hashToken(req.authToken) : '';
    const rows = await listUserSessions(ctx.db, me(req));
    const data: AccountSession[] = rows.map((s) => ({
      id: Number(s.id),
      device: s.user_agent,
      address: s.ip,
      since: s.created_at.toISOString(),
      last_seen_at: s.last_seen_at.toISOString(),
      expires_at: s.expires_at.toISOString(),
      current: s.token_hash === mine,
    }));
    return { success: true, data };
  });

  app.delete('/api/account/sessions/:id', read, async (req) => {
    const { id } = parse(
      z.strictObject({
        id: z
          .string()
          .regex(/^\d{1,18}$/, 'must be a session id')
          .transform(Number),
      }),
      req.params,
      'params',
    );
    const hash = await revokeUserSession(ctx.db, me(req), id, 'signed_out_from_account');
    if (!hash) throw notFound(`Session ${id} not found`);
    ctx.hub.revokeTokenHashes([hash], 'Signed out from another session', me(req));
    return { success: true, message: AccountText.sessionEnded, current: req.authToken ? hash === hashToken(req.authToken) : false };
  });
}
