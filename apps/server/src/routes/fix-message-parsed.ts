import { fixFieldDescriptions, getFixMessageText, redactFix } from '@fixdesk/db';
import type { ParsedFixMessage } from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { describeFixMessage } from '../audit/describe-fix-message';
import { recordLook } from '../audit/who-looked';
import type { AppContext } from '../context';
import { notFound, parse } from '../http/errors';

const Params = z.strictObject({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * GET /api/fix-messages/:id/parsed: one stored message read with the engine's FIX 4.4 dictionary (the
 * one the sessions validate with), for the FIX Messages screen's detail view. Credentials are masked
 * before parsing, exactly as the list shows the raw text.
 */
export function fixMessageParsedRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/fix-messages/:id/parsed', { config: { access: 'read' } }, async (req) => {
    const { id } = parse(Params, req.params, 'params');
    const row = await getFixMessageText(ctx.db, id);
    if (!row) throw notFound(`FIX message ${id} not found`);
    const raw = redactFix(row.raw_fix);
    const tags = [...raw.matchAll(/(?:^|\x01)(\d{1,9})=/g)].map((m) => Number(m[1]));
    const described = describeFixMessage(raw, await fixFieldDescriptions(ctx.db, tags));
    const data: ParsedFixMessage = { id: row.id, ...described, msgType: described.msgType || row.msg_type };
    await recordLook(ctx.db, req, 'view_fix_message', { subjectId: id });
    return { success: true, data };
  });
}
