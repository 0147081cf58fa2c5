import {
  brokerReferences,
  deleteBroker,
  deleteContact,
  getBrokerById,
  getContact,
  insertBroker,
  insertContact,
  listContacts,
  recordReferenceChange,
  UniqueViolation,
  updateBroker,
  updateContact,
  type Queryable,
} from '@fixdesk/db';
import {
  BrokerIdParamsSchema,
  BrokerText,
  ContactIdParamsSchema,
  CreateBrokerSchema,
  CreateContactSchema,
  LOGO_MAX_BYTES,
  UpdateBrokerSchema,
  UpdateContactSchema,
  onlyGiven,
  type Broker,
  type BrokerValues,
} from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { HttpError, conflict, invalidField, notFound, parse } from '../http/errors';
import { sanitizeSvgLogo } from '../reference/svg-logo';
import { actor } from './users';

/**
 * Broker Information (spec 001 §2 "Broker Information Management", §3, §5 "Broker form", §7, §8).
 * The list (GET /api/broker-information) is the reference data's; reads here are open to every signed-in
 * user, writes are admin only. A logo is sanitised before it is stored; every change is in the change trail.
 */

const duplicateName = (name: string | undefined) => new HttpError(409, `A broker named ${name ?? ''} already exists`, 'company_name');

/** The logo as stored: sanitised, or refused (too deep or too many elements to parse, or nothing of an SVG image left). */
function cleanLogo(values: Partial<BrokerValues>): void {
  if (typeof values.company_logo !== 'string') return;
  const clean = sanitizeSvgLogo(values.company_logo);
  if (!clean.ok) throw new HttpError(400, clean.reason, 'company_logo', [{ path: 'company_logo', message: clean.reason }]);
  values.company_logo = clean.svg;
}

/** Parent company rules (spec 001 §5): a parent-type broker only, not itself; a parent has none. */
async function checkParent(db: Queryable, values: Partial<BrokerValues>, self: number | null): Promise<void> {
  if (values.branch_type === 'parent') {
    values.parent_company_id = null;
    return;
  }
  const parentId = values.parent_company_id;
  if (parentId === undefined || parentId === null) return;
  if (parentId === self) throw invalidField('parent_company_id', `${BrokerText.parentSelf}`);
  const parent = await getBrokerById(db, parentId);
  if (!parent || parent.branch_type !== 'parent') throw invalidField('parent_company_id', `${BrokerText.parentNotParent}`);
}

export function brokerInformationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };
  const admin = { config: { access: 'admin' as const } };
  // A logo may be up to 500KB of SVG, more once escaped in JSON.
  const adminWithLogo = { ...admin, bodyLimit: 2 * LOGO_MAX_BYTES };
  const changed = (id: number) => ctx.events.emit('broker-changed', id);

  app.get('/api/broker-information/:id', read, async (req) => {
    const { id } = parse(BrokerIdParamsSchema, req.params, 'params');
    const row = await getBrokerById(ctx.db, id);
    if (!row) throw notFound(`Broker ${id} not found`);
    return { success: true, data: row };
  });

  app.post('/api/broker-information', adminWithLogo, async (req) => {
    const values = parse(CreateBrokerSchema, req.body, 'body');
    cleanLogo(values);
    let row: Broker;
    try {
      row = await ctx.db.transaction(async (tx) => {
        await checkParent(tx, values, null);
        const created = await insertBroker(tx, values);
        await recordReferenceChange(tx, {
          entity: 'broker_information',
          entityId: created.id,
          action: 'CREATE',
          ...actor(req),
          before: null,
          after: created,
        });
        return created;
      });
    } catch (err) {
      throw err instanceof UniqueViolation ? duplicateName(values.company_name) : err;
    }
    changed(row.id);
    ctx.log.info({ brokerId: row.id, by: req.user?.username }, 'broker created');
    return { success: true, data: row, message: BrokerText.created };
  });

  app.put('/api/broker-information/:id', adminWithLogo, async (req) => {
    const { id } = parse(BrokerIdParamsSchema, req.params, 'params');
    const values = onlyGiven(parse(UpdateBrokerSchema, req.body, 'body'), req.body);
    cleanLogo(values);
    let after: Broker;
    try {
      after = await ctx.db.transaction(async (tx) => {
        const before = await getBrokerById(tx, id, { lock: true });
        if (!before) throw notFound(`Broker ${id} not found`);
        const merged = {
          branch_type: values.branch_type ?? before.branch_type,
          parent_company_id: values.parent_company_id === undefined ? before.parent_company_id : values.parent_company_id,
        };
        await checkParent(tx, merged, id);
        if (merged.branch_type !== 'parent' && before.branch_type === 'parent') {
          const refs = await brokerReferences(tx, id);
          if (refs.branches > 0)
            throw new HttpError(
              409,
              `Broker ${before.company_name} is the parent of ${refs.branches} branch(es): it stays a parent while they name it`,
              'branch_type',
            );
        }
        const row = (await updateBroker(tx, id, { ...values, parent_company_id: merged.parent_company_id }))!;
        await recordReferenceChange(tx, {
          entity: 'broker_information',
          entityId: id,
          action: 'UPDATE',
          ...actor(req),
          before: before,
          after: row,
        });
        return row;
      });
    } catch (err) {
      throw err instanceof UniqueViolation ? duplicateName(values.company_name) : err;
    }
    changed(id);
    ctx.log.info({ brokerId: id, fields: Object.keys(values), by: req.user?.username }, 'broker updated');
    return { success: true, data: after, message: BrokerText.updated };
  });

  app.delete('/api/broker-information/:id', admin, async (req) => {
    const { id } = parse(BrokerIdParamsSchema, req.params, 'params');
    const row = await ctx.db.transaction(async (tx) => {
      const before = await getBrokerById(tx, id, { lock: true });
      if (!before) throw notFound(`Broker ${id} not found`);
      const refs = await brokerReferences(tx, id);
      if (refs.users || refs.connectors || refs.branches) {
        throw conflict(
          `Cannot delete broker ${before.company_name} - ${refs.connectors} client connector(s), ${refs.users} user(s) and ${refs.branches} branch(es) name it. Deactivate it instead, or move them first.`,
        );
      }
      const contacts = await listContacts(tx, id);
      await deleteBroker(tx, id);
      await recordReferenceChange(tx, {
        entity: 'broker_information',
        entityId: id,
        action: 'DELETE',
        ...actor(req),
        before: { ...before, contacts: contacts },
        after: null,
      });
      return before;
    });
    changed(id);
    ctx.log.info({ brokerId: id, by: req.user?.username }, 'broker deleted');
    return { success: true, data: { id }, message: BrokerText.deleted(row.company_name) };
  });

  // ── contacts ──

  app.get('/api/broker-information/:id/contacts', read, async (req) => {
    const { id } = parse(BrokerIdParamsSchema, req.params, 'params');
    if (!(await getBrokerById(ctx.db, id))) throw notFound(`Broker ${id} not found`);
    return { success: true, data: await listContacts(ctx.db, id) };
  });

  app.post('/api/broker-information/:id/contacts', admin, async (req) => {
    const { id } = parse(BrokerIdParamsSchema, req.params, 'params');
    const values = parse(CreateContactSchema, req.body, 'body');
    const row = await ctx.db.transaction(async (tx) => {
      if (!(await getBrokerById(tx, id, { lock: true }))) throw notFound(`Broker ${id} not found`);
      const created = await insertContact(tx, id, values);
      await recordReferenceChange(tx, {
        entity: 'broker_contacts',
        entityId: created.id,
        action: 'CREATE',
        ...actor(req),
        before: null,
        after: created,
      });
      return created;
    });
    return { success: true, data: row, message: BrokerText.contactAdded };
  });

  app.put('/api/broker-information/:id/contacts/:contactId', admin, async (req) => {
    const { id, contactId } = parse(ContactIdParamsSchema, req.params, 'params');
    const { id: _i, broker_id: _b, created_at: _c, updated_at: _u, ...values } = parse(UpdateContactSchema, req.body, 'body');
    const row = await ctx.db.transaction(async (tx) => {
      const before = await getContact(tx, id, contactId);
      if (!before) throw notFound(`Contact ${contactId} of broker ${id} not found`);
      const after = (await updateContact(tx, id, contactId, values))!;
      await recordReferenceChange(tx, {
        entity: 'broker_contacts',
        entityId: contactId,
        action: 'UPDATE',
        ...actor(req),
        before: before,
        after: after,
      });
      return after;
    });
    return { success: true, data: row, message: BrokerText.contactUpdated };
  });

  app.delete('/api/broker-information/:id/contacts/:contactId', admin, async (req) => {
    const { id, contactId } = parse(ContactIdParamsSchema, req.params, 'params');
    await ctx.db.transaction(async (tx) => {
      const before = await getContact(tx, id, contactId);
      if (!before || !(await deleteContact(tx, id, contactId))) throw notFound(`Contact ${contactId} of broker ${id} not found`);
      await recordReferenceChange(tx, {
        entity: 'broker_contacts',
        entityId: contactId,
        action: 'DELETE',
        ...actor(req),
        before: before,
        after: null,
      });
    });
    return { success: true, data: { id: contactId }, message: BrokerText.contactDeleted };
  });
}
