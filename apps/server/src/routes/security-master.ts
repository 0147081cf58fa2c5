import {
  countSecurityOrders,
  deleteSecurity,
  getSecurityById,
  insertSecurity,
  listReferenceChanges,
  listSecurities,
  lockOrdersForCount,
  recordReferenceChange,
  UniqueViolation,
  updateSecurity,
} from '@fixdesk/db';
import {
  CreateSecuritySchema,
  onlyGiven,
  SecurityIdParamsSchema,
  SecurityText,
  UpdateSecuritySchema,
  type Security,
} from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { actor } from '../http/actor';
import { HttpError, conflict, notFound, parse } from '../http/errors';

/**
 * The security master (spec 001 §2 "Security Master Configuration", §5, §7, §8).
 *
 * Reads are open to every signed-in user (the order forms list the securities); writes are admin only.
 * A write takes effect for the next FIX order at once: the route tells the order service, which drops
 * its cached securities. Every change is kept in reference_changes with who made it, in the change's
 * own transaction. A security with orders (outright or as a leg) cannot be deleted, and its symbol
 * cannot be changed, because the orders name it: deactivate it instead.
 */

const duplicateSymbol = (symbol: string) => new HttpError(409, `A security with symbol ${symbol} already exists`, 'symbol');

export function securityMasterRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };
  const admin = { config: { access: 'admin' as const } };
  const changed = (symbol: string) => ctx.events.emit('security-changed', symbol);

  app.get('/api/security-master', read, async (req) => {
    const q = parse(z.strictObject({ active: z.enum(['true', 'false']).optional() }), req.query, 'query');
    return { success: true, data: await listSecurities(ctx.db, { activeOnly: q.active === 'true' }) };
  });

  app.get('/api/security-master/:id', read, async (req) => {
    const { id } = parse(SecurityIdParamsSchema, req.params, 'params');
    const row = await getSecurityById(ctx.db, id);
    if (!row) throw notFound(`Security ${id} not found`);
    return { success: true, data: row };
  });

  /** Who changed the security and how, newest first (the compliance trail of the reference data). */
  app.get('/api/security-master/:id/history', admin, async (req) => {
    const { id } = parse(SecurityIdParamsSchema, req.params, 'params');
    const rows = await listReferenceChanges(ctx.db, 'security_master', id);
    return { success: true, data: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
  });

  app.post('/api/security-master', admin, async (req) => {
    const input = parse(CreateSecuritySchema, req.body, 'body');
    let row: Security;
    try {
      row = await ctx.db.transaction(async (tx) => {
        const created = await insertSecurity(tx, input);
        await recordReferenceChange(tx, {
          entity: 'security_master',
          entityId: created.id,
          action: 'CREATE',
          ...actor(req),
          before: null,
          after: created,
        });
        return created;
      });
    } catch (err) {
      if (err instanceof UniqueViolation) throw duplicateSymbol(input.symbol);
      throw err;
    }
    changed(row.symbol);
    ctx.log.info({ securityId: row.id, symbol: row.symbol, active: row.is_active, by: req.user?.username }, 'security created');
    return { success: true, data: row, message: SecurityText.created };
  });

  app.put('/api/security-master/:id', admin, async (req) => {
    const { id } = parse(SecurityIdParamsSchema, req.params, 'params');
    const values = onlyGiven(parse(UpdateSecuritySchema, req.body, 'body'), req.body);
    let result: { before: Security; after: Security };
    try {
      result = await ctx.db.transaction(async (tx) => {
        const before = await getSecurityById(tx, id, { lock: true });
        if (!before) throw notFound(`Security ${id} not found`);
        if (values.symbol !== undefined && values.symbol !== before.symbol) {
          const orders = await countSecurityOrders(tx, before.symbol);
          if (orders > 0) {
            throw new HttpError(
              409,
              `Cannot change the symbol of security ${before.symbol} - it has ${orders} order(s) in the system. Create a new security instead.`,
              'symbol',
            );
          }
        }
        const after = (await updateSecurity(tx, id, values))!;
        await recordReferenceChange(tx, {
          entity: 'security_master',
          entityId: id,
          action: 'UPDATE',
          ...actor(req),
          before: before,
          after: after,
        });
        return { before, after };
      });
    } catch (err) {
      if (err instanceof UniqueViolation) throw duplicateSymbol(values.symbol ?? '');
      throw err;
    }
    changed(result.before.symbol);
    if (result.after.symbol !== result.before.symbol) changed(result.after.symbol);
    ctx.log.info({ securityId: id, symbol: result.after.symbol, fields: Object.keys(values), by: req.user?.username }, 'security updated');
    return { success: true, data: result.after, message: SecurityText.updated };
  });

  app.delete('/api/security-master/:id', admin, async (req) => {
    const { id } = parse(SecurityIdParamsSchema, req.params, 'params');
    const deleted = await ctx.db.transaction(async (tx) => {
      const row = await getSecurityById(tx, id, { lock: true });
      if (!row) throw notFound(`Security ${id} not found`);
      // Orders are compliance records and name the symbol: a traded security is deactivated, never deleted.
      // No order can be written between the count and the commit (orders being written are waited for).
      await lockOrdersForCount(tx);
      const orders = await countSecurityOrders(tx, row.symbol);
      if (orders > 0) throw conflict(SecurityText.hasOrders(row.symbol, orders));
      await deleteSecurity(tx, id);
      await recordReferenceChange(tx, {
        entity: 'security_master',
        entityId: id,
        action: 'DELETE',
        ...actor(req),
        before: row,
        after: null,
      });
      return row;
    });
    changed(deleted.symbol);
    ctx.log.info({ securityId: id, symbol: deleted.symbol, by: req.user?.username }, 'security deleted');
    return { success: true, data: { id }, message: SecurityText.deleted(deleted.symbol) };
  });
}
