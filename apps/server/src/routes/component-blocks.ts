import { componentBlockFields, componentBlocksByName } from '@fixdesk/db';
import { Dictionary } from '@fixdesk/fix';
import {
  ComponentBlockMessageParamsSchema,
  ComponentBlockParamsSchema,
  type ComponentBlock,
  type ComponentBlockField,
} from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { loadDictionaryData } from '../dictionary';
import { HttpError, notFound, parse } from '../http/errors';
import { messageStructure } from '../reference/message-structure';

/**
 * Component blocks (spec 001 §3 "Component block", §7): the blocks a message type uses, in the order
 * the message names them (nested blocks after their parent), and a block's fields. Read by the FIX
 * Client Defaults screen (which groups a client may give instances of) and the FIX specification page.
 */

const FIX44 = Dictionary.fix44();
const DATA = loadDictionaryData();

export function componentBlockRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };

  app.get('/api/component-blocks/by-message/:msgType', read, async (req) => {
    const { msgType } = parse(ComponentBlockMessageParamsSchema, req.params, 'params');
    const structure = messageStructure(DATA, msgType);
    if (!structure || !FIX44.message(msgType)) throw new HttpError(404, `'${msgType}' is not a FIX 4.4 message type`, 'msgType');
    const required = new Map(structure.components.map((c) => [c.name, c.required]));
    const rows = await componentBlocksByName(
      ctx.db,
      structure.components.map((c) => c.name),
    );
    const data: ComponentBlock[] = rows.map((r) => ({ ...r, is_required: required.get(r.block_name) ?? false }));
    return { success: true, data };
  });

  app.get('/api/component-blocks/:blockId/fields', read, async (req) => {
    const { blockId } = parse(ComponentBlockParamsSchema, req.params, 'params');
    const rows: ComponentBlockField[] | undefined = await componentBlockFields(ctx.db, blockId);
    if (!rows) throw notFound(`Component block ${blockId} not found`);
    return { success: true, data: rows };
  });
}
