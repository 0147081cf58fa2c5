import type { FastifyInstance } from 'fastify';
import {
  latestPrices,
  listBrokers,
  listCapabilities,
  listFixEnums,
  listFixFields,
  listMessageSpecs,
  listSecurities,
  repeatingGroupFields,
} from '@fixdesk/db';
import { z } from 'zod';
import type { AppContext } from '../context';
import { parse } from '../http/errors';

const MsgTypeSchema = z.string().regex(/^[0-9A-Za-z]{1,2}$/, 'must be a FIX MsgType such as D, AB or 8');

export function referenceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };

  app.get('/api/security-master', read, async (req) => {
    const q = parse(z.strictObject({ active: z.enum(['true', 'false']).optional() }), req.query, 'query');
    return { success: true, data: await listSecurities(ctx.db, { activeOnly: q.active === 'true' }) };
  });

  app.get('/api/client-capabilities', read, async (req) => {
    const q = parse(z.strictObject({ comp_id: z.string().max(64).optional() }), req.query, 'query');
    return { success: true, data: await listCapabilities(ctx.db, { compId: q.comp_id }) };
  });

  app.get('/api/fix-message-specs', read, async (req) => {
    const q = parse(z.strictObject({ msg_type: MsgTypeSchema.optional(), exec_type: z.string().max(2).optional() }), req.query, 'query');
    return { success: true, data: await listMessageSpecs(ctx.db, { msgType: q.msg_type, execType: q.exec_type }) };
  });

  app.get('/api/fix-message-specs/:msgType', read, async (req) => {
    const p = parse(z.strictObject({ msgType: MsgTypeSchema }), req.params, 'params');
    const q = parse(z.strictObject({ execType: z.string().max(2).optional() }), req.query, 'query');
    return { success: true, data: await listMessageSpecs(ctx.db, { msgType: p.msgType, execType: q.execType }) };
  });

  app.get('/api/fix-fields', read, async () => ({ success: true, data: await listFixFields(ctx.db) }));

  app.get('/api/fix-enums', read, async (req) => {
    const q = parse(z.strictObject({ field_number: z.coerce.number().int().positive().optional() }), req.query, 'query');
    return { success: true, data: await listFixEnums(ctx.db, { fieldNumber: q.field_number }) };
  });

  app.get('/api/repeating-group-fields', read, async () => ({ success: true, data: await repeatingGroupFields(ctx.db) }));

  app.get('/api/broker-information', read, async () => ({ success: true, data: await listBrokers(ctx.db) }));

  app.get('/api/trade-history/latest-prices', read, async () => ({ success: true, data: await latestPrices(ctx.db) }));
}
