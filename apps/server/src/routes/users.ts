import {
  deleteUser,
  ForeignKeyViolation,
  getUserById,
  insertUser,
  listReferenceChanges,
  listUsers,
  lockActiveAdmins,
  recordReferenceChange,
  UniqueViolation,
  updateUser,
  userHasOrderActions,
  type Queryable,
} from '@fixdesk/db';
import {
  CreateUserSchema,
  UpdateUserSchema,
  UserIdParamsSchema,
  UserText,
  brokerUserProblemsOfChange,
  onlyGiven,
  type OrganisationChange,
  type UserSummary,
  type UsersListResponse,
} from '@fixdesk/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { passwordProblem } from '../auth/password-policy';
import { HttpError, invalidField, notFound, parse } from '../http/errors';

/**
 * User Management (spec 001 §2, §3 "User", §5 "User form", §6, §7 "Users", §8), admin only.
 *
 * - A new password (create, or an administrator's reset) must pass the password policy.
 * - Deactivating a user, changing their role or resetting their password ends their sessions and
 *   closes their sockets at once (in the change's transaction; the sockets after the commit).
 * - The last active administrator cannot be deleted, deactivated or demoted (the active administrators
 *   are locked while this is checked, so two administrators demoting each other cannot both pass).
 * - A user who has acted on an order is deactivated instead of deleted: the order trail names them.
 * - Every change is kept in the change trail (who, whom, from what to what, when); a password change is
 *   recorded as a change of the password field, never its value.
 */

/** The record kept in the change trail: the user without timestamps that change by themselves. */
function trailOf(u: UserSummary, passwordChanged = false): Record<string, unknown> {
  const { last_login: _l, created_at: _c, updated_at: _u, ...rest } = u;
  return passwordChanged ? { ...rest, password: '(changed)' } : rest;
}

export function actor(req: FastifyRequest): { changedBy: string; userRef: number | null } {
  return { changedBy: req.user?.username ?? 'unknown', userRef: req.user?.user_id ?? null };
}

/** A unique violation of users, as a 409 naming the field. */
function duplicate(err: unknown, values: { username?: string | undefined; email?: string | undefined }): HttpError | undefined {
  if (!(err instanceof UniqueViolation)) return undefined;
  if (err.constraint === 'users_email_key') return new HttpError(409, `A user with email ${values.email ?? ''} already exists`, 'email');
  return new HttpError(409, `A user with username ${values.username ?? ''} already exists`, 'username');
}

function unknownBranch(err: unknown): HttpError | undefined {
  return err instanceof ForeignKeyViolation ? invalidField('broker_branch_id', 'must be an existing broker') : undefined;
}

function checkPassword(password: string | undefined, username: string): void {
  if (password === undefined) return;
  const problem = passwordProblem(password, username);
  if (problem) throw invalidField('password', `${problem}`);
}

function checkBrokerRule(before: UserSummary, merged: Parameters<typeof brokerUserProblemsOfChange>[1]): void {
  const problems = brokerUserProblemsOfChange(before, merged);
  if (problems.length) throw new HttpError(400, problems[0]!.message, problems[0]!.path, problems);
}

/** Refuses a change that would leave no active administrator (call inside the change's transaction). */
async function keepAnAdmin(tx: Queryable, target: UserSummary, stillAdmin: boolean, field: string): Promise<void> {
  if (target.role !== 'admin' || !target.is_active || stillAdmin) return;
  const admins = await lockActiveAdmins(tx);
  if (admins.length <= 1 && admins.includes(target.user_id)) throw new HttpError(409, UserText.lastAdmin, field);
}

/** Which fields differ between two trail records (what a change changed). */
function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((k) => JSON.stringify(before?.[k] ?? null) !== JSON.stringify(after?.[k] ?? null)).sort();
}

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = { config: { access: 'admin' as const } };
  const closeSockets = (hashes: string[], reason: string, userId: number) => ctx.hub.revokeTokenHashes(hashes, reason, userId);

  app.get('/api/users', admin, async () => {
    const users = await listUsers(ctx.db);
    const answer: UsersListResponse = { success: true, users: users };
    return answer;
  });

  /** The change trail of users and broker information (who changed whom, what, when), newest first. */
  app.get('/api/users/changes', admin, async (req) => {
    const q = parse(
      z.strictObject({
        entity: z.enum(['users', 'broker_information', 'broker_contacts']).default('users'),
        id: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number().int().min(1).optional()),
      }),
      req.query,
      'query',
    );
    const rows = await listReferenceChanges(ctx.db, q.entity, q.id);
    const data: OrganisationChange[] = rows.map((r) => ({
      ...r,
      fields: changedFields(r.before, r.after),
      created_at: r.created_at.toISOString(),
    }));
    return { success: true, data };
  });

  app.post('/api/users', admin, async (req) => {
    const input = parse(CreateUserSchema, req.body, 'body');
    checkPassword(input.password, input.username);
    const { password, ...values } = input;
    const hash = await ctx.auth.hashPassword(password);
    let user: UserSummary;
    try {
      user = await ctx.db.transaction(async (tx) => {
        const created = await insertUser(tx, values, hash);
        await recordReferenceChange(tx, {
          entity: 'users',
          entityId: created.user_id,
          action: 'CREATE',
          ...actor(req),
          before: null,
          after: trailOf(created, true),
        });
        return created;
      });
    } catch (err) {
      throw duplicate(err, input) ?? unknownBranch(err) ?? err;
    }
    ctx.log.info({ userId: user.user_id, username: user.username, role: user.role, by: req.user?.username }, 'user created');
    return { success: true, user: user, message: UserText.created };
  });

  app.put('/api/users/:user_id', admin, async (req) => {
    const { user_id } = parse(UserIdParamsSchema, req.params, 'params');
    const values = onlyGiven(parse(UpdateUserSchema, req.body, 'body'), req.body);
    const { password, ...fields } = values;
    const hash = password !== undefined ? await ctx.auth.hashPassword(password) : undefined;
    let result: { after: UserSummary; ended: string[] };
    try {
      result = await ctx.db.transaction(async (tx) => {
        const before = await getUserById(tx, user_id, { lock: true });
        if (!before) throw notFound(`User ${user_id} not found`);
        if (fields.username !== undefined && fields.username.toLowerCase() !== before.username.toLowerCase()) {
          throw invalidField('username', 'cannot be changed (it is locked when editing)');
        }
        delete fields.username;
        checkPassword(password, before.username);
        checkBrokerRule(before, { ...before, ...fields });
        const demoted = fields.role !== undefined && fields.role !== 'admin';
        const deactivated = fields.is_active === false;
        await keepAnAdmin(tx, before, !demoted && !deactivated, demoted ? 'role' : 'is_active');
        const after = (await updateUser(tx, user_id, fields, hash))!;
        await recordReferenceChange(tx, {
          entity: 'users',
          entityId: user_id,
          action: 'UPDATE',
          ...actor(req),
          before: trailOf(before),
          after: trailOf(after, hash !== undefined),
        });
        // Whatever the user's sessions were allowed to do may no longer hold: they sign in again.
        const why =
          before.is_active && !after.is_active
            ? 'deactivated'
            : before.role !== after.role
              ? 'role_changed'
              : hash !== undefined
                ? 'password_reset'
                : null;
        const ended = why ? await ctx.auth.endSessions(tx, user_id, why) : [];
        return { after, ended };
      });
    } catch (err) {
      throw duplicate(err, { username: fields.username, email: fields.email }) ?? unknownBranch(err) ?? err;
    }
    closeSockets(result.ended, 'Your account was changed by an administrator: please sign in again', user_id);
    ctx.log.info(
      { userId: user_id, fields: Object.keys(values), sessionsEnded: result.ended.length, by: req.user?.username },
      'user updated',
    );
    return { success: true, user: result.after, message: UserText.updated, sessionsEnded: result.ended.length };
  });

  app.delete('/api/users/:user_id', admin, async (req) => {
    const { user_id } = parse(UserIdParamsSchema, req.params, 'params');
    const outcome = await ctx.db.transaction(async (tx) => {
      const row = await getUserById(tx, user_id, { lock: true });
      if (!row) throw notFound(`User ${user_id} not found`);
      await keepAnAdmin(tx, row, false, 'user_id');
      const ended = await ctx.auth.endSessions(tx, user_id, 'deleted');
      if (await userHasOrderActions(tx, user_id, row.username)) {
        // The order trail names this user: keep the row, deactivated.
        const after = (await updateUser(tx, user_id, { is_active: false }))!;
        if (row.is_active)
          await recordReferenceChange(tx, {
            entity: 'users',
            entityId: user_id,
            action: 'UPDATE',
            ...actor(req),
            before: trailOf(row),
            after: trailOf(after),
          });
        return { row, deactivated: true, ended };
      }
      await deleteUser(tx, user_id);
      await recordReferenceChange(tx, {
        entity: 'users',
        entityId: user_id,
        action: 'DELETE',
        ...actor(req),
        before: trailOf(row),
        after: null,
      });
      return { row, deactivated: false, ended };
    });
    closeSockets(outcome.ended, 'Your account was removed by an administrator', user_id);
    const name = outcome.row.username;
    ctx.log.info(
      { userId: user_id, username: name, deactivated: outcome.deactivated, by: req.user?.username },
      outcome.deactivated ? 'user deactivated instead of deleted' : 'user deleted',
    );
    const message = outcome.deactivated
      ? `User ${name} has acted on orders, which keep naming them: the account was deactivated instead of deleted`
      : UserText.deleted(name);
    return { success: true, deactivated: outcome.deactivated, data: { user_id }, message };
  });
}
