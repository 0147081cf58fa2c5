import {
  deleteMessageSpec,
  getFixField,
  getMessageSpec,
  insertMessageSpec,
  listMessageSpecs,
  recordReferenceChange,
  UniqueViolation,
  updateMessageSpec,
  type MessageSpecWrite,
  type Queryable,
} from '@fixdesk/db';
import { Dictionary } from '@fixdesk/fix';
import {
  CreateMessageSpecSchema,
  isHeaderTypeField,
  isSystemControlledField,
  MessageSpecIdParamsSchema,
  MessageSpecQuerySchema,
  MessageSpecText,
  onlyGiven,
  UpdateMessageSpecSchema,
  type MessageSpec,
} from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { actor } from '../http/actor';
import { loadDictionaryData } from '../dictionary';
import { HttpError, invalidField, notFound, parse } from '../http/errors';
import { messageStructure } from '../reference/message-structure';

/**
 * FIX message specifications (spec 001 §2 "FIX Message Specifications Management", §5, §7, §8).
 *
 * Reads for every signed-in user (the FIX specification page shows them), writes admin only. A spec is
 * checked against the FIX 4.4 dictionary: the message type exists, the ExecType is a 150 code (required
 * for 8, dropped for the others), the field exists and belongs to the message at some depth, and a
 * field name or type sent along agrees with the dictionary. Fields the session writes (8, 9, 10, 34,
 * 35, 52, 150) cannot be edited or deleted; header-type fields keep their position and cannot be
 * deleted. A change reaches the outbound check of mandatory fields with the next report.
 */

const FIX44 = Dictionary.fix44();
const DATA = loadDictionaryData();

const invalid = (field: string, reason: string) => invalidField(field, reason);
const fieldLabel = (tag: number, name?: string) => `${name ?? FIX44.field(tag)?.name ?? 'Field'} (${tag})`;

interface SpecTerms {
  msg_type: string;
  exec_type: string | null;
  field_number: number;
  field_name?: string | null | undefined;
  field_type?: string | null | undefined;
  msg_name?: string | null | undefined;
}

/** The dictionary's verdict on a spec's message, ExecType and field; the message's name. */
async function checkAgainstDictionary(db: Queryable, s: SpecTerms): Promise<string> {
  const message = FIX44.message(s.msg_type);
  if (!message) throw invalid('msg_type', `'${s.msg_type}' is not a FIX 4.4 message type`);
  if (s.exec_type !== null && !FIX44.isValidEnumValue(150, s.exec_type))
    throw invalid('exec_type', `'${s.exec_type}' is not an ExecType (150) code`);
  const field = await getFixField(db, s.field_number);
  if (!field) throw invalid('field_number', `${s.field_number} is not a FIX 4.4 field`);
  const structure = messageStructure(DATA, s.msg_type);
  if (structure && !structure.tags.has(s.field_number)) {
    throw invalid(
      'field_number',
      `${fieldLabel(s.field_number, field.field_name)} is not a field of ${message.name} (${s.msg_type}) in FIX 4.4`,
    );
  }
  if (s.field_name && s.field_name.toLowerCase() !== field.field_name.toLowerCase()) {
    throw invalid('field_name', `Field ${s.field_number} is ${field.field_name}, not ${s.field_name}`);
  }
  if (s.field_type && s.field_type.toUpperCase() !== field.field_type.toUpperCase()) {
    throw invalid('field_type', `${fieldLabel(s.field_number, field.field_name)} is of type ${field.field_type}, not ${s.field_type}`);
  }
  return message.name;
}

const duplicate = (s: SpecTerms) =>
  new HttpError(
    409,
    `${fieldLabel(s.field_number)} is already specified for ${FIX44.message(s.msg_type)?.name ?? s.msg_type} (${s.msg_type})${s.exec_type ? ` ExecType ${s.exec_type}` : ''}: edit that specification instead`,
    'field_number',
  );

export function fixMessageSpecRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };
  const admin = { config: { access: 'admin' as const } };
  const changed = (msgType: string) => ctx.events.emit('message-specs-changed', msgType);

  app.get('/api/fix-message-specs', read, async (req) => {
    const q = parse(MessageSpecQuerySchema, req.query, 'query');
    return { success: true, data: await listMessageSpecs(ctx.db, { msgType: q.msg_type, execType: q.exec_type }) };
  });

  app.get('/api/fix-message-specs/:msgType', read, async (req) => {
    const p = parse(z.strictObject({ msgType: MessageSpecQuerySchema.shape.msg_type.unwrap() }), req.params, 'params');
    const q = parse(z.strictObject({ execType: z.string().trim().max(2).optional() }), req.query, 'query');
    return { success: true, data: await listMessageSpecs(ctx.db, { msgType: p.msgType, execType: q.execType }) };
  });

  app.post('/api/fix-message-specs', admin, async (req) => {
    const input = parse(CreateMessageSpecSchema, req.body, 'body');
    const msgName = await checkAgainstDictionary(ctx.db, input);
    const values: MessageSpecWrite = {
      msg_type: input.msg_type,
      msg_name: input.msg_name ?? msgName,
      fix_version: input.fix_version,
      exec_type: input.exec_type,
      field_number: input.field_number,
      field_position: input.field_position ?? null,
      is_mandatory: input.is_mandatory,
      description: input.description ?? null,
    };
    let row: MessageSpec;
    try {
      row = await ctx.db.transaction(async (tx) => {
        const created = await insertMessageSpec(tx, values);
        await recordReferenceChange(tx, {
          entity: 'fix_message_specs',
          entityId: created.id,
          action: 'CREATE',
          ...actor(req),
          before: null,
          after: created,
        });
        return created;
      });
    } catch (err) {
      if (err instanceof UniqueViolation) throw duplicate(input);
      throw err;
    }
    changed(row.msg_type);
    ctx.log.info(
      { specId: row.id, msgType: row.msg_type, execType: row.exec_type, field: row.field_number, by: req.user?.username },
      'message spec created',
    );
    return { success: true, data: row, message: MessageSpecText.created };
  });

  app.put('/api/fix-message-specs/:id', admin, async (req) => {
    const { id } = parse(MessageSpecIdParamsSchema, req.params, 'params');
    const given = onlyGiven(parse(UpdateMessageSpecSchema, req.body, 'body'), req.body);
    let result: { before: MessageSpec; after: MessageSpec };
    let terms: SpecTerms | undefined;
    try {
      result = await ctx.db.transaction(async (tx) => {
        const before = await getMessageSpec(tx, id, { lock: true });
        if (!before) throw notFound(`Message specification ${id} not found`);
        const label = fieldLabel(before.field_number, before.field_name);
        if (isSystemControlledField(before.field_number)) throw new HttpError(409, MessageSpecText.systemControlled(label), 'field_number');
        const msgType = given.msg_type ?? before.msg_type;
        // ExecType is required for 8 and removed for the other types (spec 001 §5).
        const execType = msgType === '8' ? (given.exec_type !== undefined ? given.exec_type : before.exec_type) : null;
        if (msgType === '8' && !execType) throw invalidField('exec_type', MessageSpecText.execTypeRequired);
        const fieldNumber = given.field_number ?? before.field_number;
        if (fieldNumber !== before.field_number && isHeaderTypeField(before.field_number)) {
          throw new HttpError(409, `${label} is a header-type field: its field number is locked`, 'field_number');
        }
        if (isSystemControlledField(fieldNumber))
          throw new HttpError(409, MessageSpecText.systemControlled(fieldLabel(fieldNumber)), 'field_number');
        if (
          isHeaderTypeField(before.field_number) &&
          given.field_position !== undefined &&
          (given.field_position ?? null) !== before.field_position
        ) {
          throw new HttpError(409, MessageSpecText.headerPositionLocked(label), 'field_position');
        }
        terms = {
          msg_type: msgType,
          exec_type: execType,
          field_number: fieldNumber,
          field_name: given.field_name,
          field_type: given.field_type,
        };
        // A name or type echoed from the row describes the row's field; compare it only when the field stays.
        if (fieldNumber !== before.field_number) {
          if (given.field_name === before.field_name) terms.field_name = undefined;
          if (given.field_type === before.field_type) terms.field_type = undefined;
        }
        const msgName = await checkAgainstDictionary(tx, terms);
        const values: MessageSpecWrite = {
          msg_type: msgType,
          exec_type: execType,
          field_number: fieldNumber,
          fix_version: given.fix_version,
          field_position: given.field_position === undefined ? undefined : given.field_position,
          is_mandatory: given.is_mandatory,
          description: given.description === undefined ? undefined : given.description,
          msg_name: given.msg_name === undefined ? (msgType !== before.msg_type ? msgName : undefined) : (given.msg_name ?? msgName),
        };
        const after = (await updateMessageSpec(tx, id, values))!;
        await recordReferenceChange(tx, {
          entity: 'fix_message_specs',
          entityId: id,
          action: 'UPDATE',
          ...actor(req),
          before: before,
          after: after,
        });
        return { before, after };
      });
    } catch (err) {
      if (err instanceof UniqueViolation && terms) throw duplicate(terms);
      throw err;
    }
    changed(result.before.msg_type);
    if (result.after.msg_type !== result.before.msg_type) changed(result.after.msg_type);
    ctx.log.info(
      { specId: id, msgType: result.after.msg_type, field: result.after.field_number, fields: Object.keys(given), by: req.user?.username },
      'message spec updated',
    );
    return { success: true, data: result.after, message: MessageSpecText.updated };
  });

  app.delete('/api/fix-message-specs/:id', admin, async (req) => {
    const { id } = parse(MessageSpecIdParamsSchema, req.params, 'params');
    const deleted = await ctx.db.transaction(async (tx) => {
      const row = await getMessageSpec(tx, id, { lock: true });
      if (!row) throw notFound(`Message specification ${id} not found`);
      const label = fieldLabel(row.field_number, row.field_name);
      if (isSystemControlledField(row.field_number)) throw new HttpError(409, MessageSpecText.systemControlled(label), 'field_number');
      if (isHeaderTypeField(row.field_number)) throw new HttpError(409, MessageSpecText.headerNoDelete(label), 'field_number');
      await deleteMessageSpec(tx, id);
      await recordReferenceChange(tx, {
        entity: 'fix_message_specs',
        entityId: id,
        action: 'DELETE',
        ...actor(req),
        before: row,
        after: null,
      });
      return row;
    });
    changed(deleted.msg_type);
    ctx.log.info({ specId: id, msgType: deleted.msg_type, field: deleted.field_number, by: req.user?.username }, 'message spec deleted');
    return { success: true, data: { id }, message: MessageSpecText.deleted };
  });
}
