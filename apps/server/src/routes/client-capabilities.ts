import {
  CheckViolation,
  deleteCapability,
  ForeignKeyViolation,
  getCapability,
  insertCapability,
  listCapabilities,
  recordReferenceChange,
  UniqueViolation,
  updateCapability,
  type CapabilityValues,
} from '@fixdesk/db';
import {
  CapabilityIdParamsSchema,
  CapabilityListQuerySchema,
  CapabilityText,
  CreateCapabilitySchema,
  onlyGiven,
  UpdateCapabilitySchema,
  type CapabilityInput,
  type ClientCapabilityRecord,
} from '@fixdesk/protocol';
import { Decimal } from '@fixdesk/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { actor } from '../http/actor';
import { badRequest, HttpError, notFound, parse, invalidField } from '../http/errors';

/**
 * Client capabilities (spec 001 §2, §3, §5, §6, §7, §8). Every signed-in user reads them (a
 * broker judges a client's orders by its limits, docs/adr/0014); only administrators change them. The intake
 * reads them cached; every write tells it (`capabilities-changed`), so the next order is checked
 * against the change. Each change is kept in reference_changes with who made it, in its transaction.
 */

function toValues(v: Partial<CapabilityInput>): Partial<CapabilityValues> {
  const out: Partial<CapabilityValues> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) (out as Record<string, unknown>)[k] = x;
  return out;
}

/** min ≤ max for the order quantity, on the values the row will hold. */
function checkLimits(v: { min_order_qty?: string | null; max_order_qty?: string | null }): void {
  if (v.min_order_qty && v.max_order_qty && Decimal.from(v.min_order_qty).gt(Decimal.from(v.max_order_qty))) {
    throw invalidField('min_order_qty', `must not be above the max order qty (${v.max_order_qty})`);
  }
}

function dbError(err: unknown): never {
  if (err instanceof UniqueViolation)
    throw new HttpError(
      409,
      'This client already has a capability for this security and exchange: edit that one instead',
      'security_master_id',
    );
  if (err instanceof ForeignKeyViolation) {
    if (err.constraint.includes('security')) throw invalidField('security_master_id', 'does not name a security');
    throw invalidField('clientconnectors_id', 'does not name a client connector');
  }
  if (err instanceof CheckViolation) throw badRequest('A limit is out of range');
  throw err;
}

export function clientCapabilityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };
  const admin = { config: { access: 'admin' as const } };
  const changed = (connectorId: number) => ctx.events.emit('capabilities-changed', connectorId);

  app.get('/api/client-capabilities', read, async (req) => {
    const q = parse(CapabilityListQuerySchema, req.query, 'query');
    return { success: true, data: await listCapabilities(ctx.db, { compId: q.comp_id || undefined }) };
  });

  app.get('/api/client-capabilities/:id', read, async (req) => {
    const { id } = parse(CapabilityIdParamsSchema, req.params, 'params');
    const row = await getCapability(ctx.db, id);
    if (!row) throw notFound(`Capability ${id} not found`);
    return { success: true, data: row };
  });

  app.post('/api/client-capabilities', admin, async (req) => {
    const input = parse(CreateCapabilitySchema, req.body, 'body');
    checkLimits(input);
    let row: ClientCapabilityRecord;
    try {
      row = await ctx.db.transaction(async (tx) => {
        const id = await insertCapability(tx, {
          ...input,
          security_master_id: input.security_master_id ?? null,
          client_symbol: input.client_symbol ?? null,
          client_symbol_text: input.client_symbol_text ?? null,
          exchange: input.exchange ?? null,
          market_identifier: input.market_identifier ?? null,
          min_order_qty: input.min_order_qty ?? null,
          max_order_qty: input.max_order_qty ?? null,
          max_position_long: input.max_position_long ?? null,
          max_position_short: input.max_position_short ?? null,
        });
        const created = (await getCapability(tx, id))!;
        await recordReferenceChange(tx, {
          entity: 'client_capabilities',
          entityId: id,
          action: 'CREATE',
          ...actor(req),
          before: null,
          after: created,
        });
        return created;
      });
    } catch (err) {
      dbError(err);
    }
    changed(row.clientconnectors_id);
    ctx.log.info({ capabilityId: row.id, compId: row.comp_id, by: req.user?.username }, 'client capability created');
    return { success: true, data: row, message: CapabilityText.created };
  });

  app.put('/api/client-capabilities/:id', admin, async (req) => {
    const { id } = parse(CapabilityIdParamsSchema, req.params, 'params');
    const values = onlyGiven(parse(UpdateCapabilitySchema, req.body, 'body'), req.body);
    let after: ClientCapabilityRecord;
    try {
      after = await ctx.db.transaction(async (tx) => {
        const before = await getCapability(tx, id, { lock: true });
        if (!before) throw notFound(`Capability ${id} not found`);
        if (values.clientconnectors_id !== undefined && values.clientconnectors_id !== before.clientconnectors_id) {
          throw invalidField(
            'clientconnectors_id',
            'The client of a capability cannot be changed; add a capability for the other client instead',
          );
        }
        checkLimits({
          min_order_qty: values.min_order_qty !== undefined ? values.min_order_qty : before.min_order_qty,
          max_order_qty: values.max_order_qty !== undefined ? values.max_order_qty : before.max_order_qty,
        });
        await updateCapability(tx, id, toValues(values));
        const row = (await getCapability(tx, id))!;
        await recordReferenceChange(tx, {
          entity: 'client_capabilities',
          entityId: id,
          action: 'UPDATE',
          ...actor(req),
          before: before,
          after: row,
        });
        return row;
      });
    } catch (err) {
      if (err instanceof HttpError) throw err;
      dbError(err);
    }
    changed(after.clientconnectors_id);
    ctx.log.info(
      { capabilityId: id, compId: after.comp_id, fields: Object.keys(values), by: req.user?.username },
      'client capability updated',
    );
    return { success: true, data: after, message: CapabilityText.updated };
  });

  app.delete('/api/client-capabilities/:id', admin, async (req) => {
    const { id } = parse(CapabilityIdParamsSchema, req.params, 'params');
    const row = await ctx.db.transaction(async (tx) => {
      const before = await getCapability(tx, id, { lock: true });
      if (!before) throw notFound(`Capability ${id} not found`);
      await deleteCapability(tx, id);
      await recordReferenceChange(tx, {
        entity: 'client_capabilities',
        entityId: id,
        action: 'DELETE',
        ...actor(req),
        before: before,
        after: null,
      });
      return before;
    });
    changed(row.clientconnectors_id);
    ctx.log.info({ capabilityId: id, compId: row.comp_id, by: req.user?.username }, 'client capability deleted');
    return { success: true, data: { id }, message: CapabilityText.deleted(id) };
  });
}
