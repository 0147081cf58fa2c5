import type { FastifyInstance } from 'fastify';
import { latestPrices, listBrokers, listFixEnums, listFixFields, repeatingGroupFields } from '@fixdesk/db';
import { z } from 'zod';
import type { AppContext } from '../context';
import { parse } from '../http/errors';

export function referenceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };

  app.get('/api/fix-fields', read, async () => ({ success: true, data: await listFixFields(ctx.db) }));

  app.get('/api/fix-enums', read, async (req) => {
    const q = parse(z.strictObject({ field_number: z.coerce.number().int().positive().optional() }), req.query, 'query');
    return { success: true, data: await listFixEnums(ctx.db, { fieldNumber: q.field_number }) };
  });

  app.get('/api/repeating-group-fields', read, async () => ({ success: true, data: await repeatingGroupFields(ctx.db) }));

  app.get('/api/broker-information', read, async () => ({ success: true, data: await listBrokers(ctx.db) }));

  app.get('/api/trade-history/latest-prices', read, async () => ({ success: true, data: await latestPrices(ctx.db) }));
}
