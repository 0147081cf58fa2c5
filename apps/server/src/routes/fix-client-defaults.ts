import {
  connectorExists,
  deleteClientDefault,
  deleteGroupInstance,
  getClientDefault,
  getComponentBlock,
  getFieldInfo,
  insertClientDefault,
  insertGroupInstance,
  listClientDefaults,
  listGroupDefaults,
  UniqueViolation,
  updateClientDefault,
  type GroupInstanceFieldRow,
  type Queryable,
} from '@fixdesk/db';
import { CLIENT_VARIABLES, clientVariables, MsgType, substituteVariables, unknownVariables } from '@fixdesk/domain';
import { Dictionary, isValidFormat, MemberKind, type GroupDef, type MessageDef } from '@fixdesk/fix';
import {
  CLIENT_DEFAULT_MSG_TYPES,
  ClientDefaultsParamsSchema,
  CreateClientDefaultSchema,
  CreateGroupDefaultSchema,
  DefaultIdParamsSchema,
  ExecTypeQuerySchema,
  FieldInfoParamsSchema,
  GroupInstanceParamsSchema,
  PreviewClientDefaultsSchema,
  UpdateClientDefaultSchema,
  type ClientDefaultsPreview,
  type ClientGroupDefaults,
  type ClientVariableInfo,
} from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { HttpError, invalidField, parse } from '../http/errors';
import { loadClientData } from '../orders/client-profile';

/**
 * Client FIX defaults (spec 001 §7 "Client FIX defaults"; docs/adr/0007-client-fix-defaults.md).
 *
 * Access: the reads the FIX Client screen needs to build a client's orders (the defaults and group
 * instances of a message type) and the dictionary lookups (variables, field info) are `read`, because
 * /fix-client is open to every signed-in user (spec 001 §2). The preview and every write belong to the
 * FIX Client Defaults screen, /config/fix-client-defaults, which is admin only: `admin`.
 *
 * Checked against the FIX 4.4 dictionary: the message type exists (and, to write, is one whose defaults
 * are applied), an ExecType is a valid 150 code and only for 8, a field default's tag is a top-level field
 * of that message (not a session header field, not a group), a group instance's block is a repeating group
 * of that message and its fields are members of it with the delimiter given, every %variable% is known,
 * and a value without variables has the field's format and, for enumerated fields, a valid code.
 */

const FIX44 = Dictionary.fix44();
const utf8 = new TextEncoder();
const WRITABLE = new Set<string>(CLIENT_DEFAULT_MSG_TYPES);

type Where = 'body' | 'query' | 'params';
const invalid = (_where: Where, field: string, reason: string) => invalidField(field, reason);

const fieldLabel = (tag: number) => {
  const f = FIX44.field(tag);
  return f ? `${f.name} (${tag})` : `tag ${tag}`;
};

function messageOf(msgType: string, where: Where, field: string): MessageDef {
  const def = FIX44.message(msgType);
  if (!def) throw invalid(where, field, `'${msgType}' is not a FIX 4.4 message type`);
  return def;
}

function writableMessage(msgType: string, field = 'msg_type'): MessageDef {
  const def = messageOf(msgType, 'body', field);
  if (!WRITABLE.has(msgType)) {
    throw invalid(
      'body',
      field,
      `Defaults for ${def.name} (${msgType}) are not applied: a client's defaults shape ${CLIENT_DEFAULT_MSG_TYPES.join(', ')}`,
    );
  }
  return def;
}

function checkExecType(msgType: string, execType: string | null | undefined, where: Where, field: string): string | null {
  if (execType === null || execType === undefined) return null;
  if (msgType !== MsgType.ExecutionReport) throw invalid(where, field, 'applies to ExecutionReport (8) defaults only');
  if (!FIX44.isValidEnumValue(150, execType)) throw invalid(where, field, `'${execType}' is not an ExecType (150) code`);
  return execType;
}

/** A default's value: known variables only; without variables, the field's format and codes. */
function checkValue(tag: number, value: string, field: string): void {
  const unknown = unknownVariables(value);
  if (unknown.length > 0) {
    throw invalid(
      'body',
      field,
      `has an unknown variable ${unknown.map((n) => `%${n}%`).join(', ')} (the Variables list names the ones there are)`,
    );
  }
  if (/%[A-Za-z][A-Za-z0-9_]*%/.test(value)) return; // resolved per client: checked when the message is built
  const def = FIX44.field(tag);
  if (!def) return;
  if (!FIX44.isValidEnumValue(tag, value)) {
    const codes = [...(def.enums?.keys() ?? [])];
    throw invalid(
      'body',
      field,
      `'${value}' is not a valid ${fieldLabel(tag)} value (${codes.slice(0, 12).join(', ')}${codes.length > 12 ? ', …' : ''})`,
    );
  }
  const bytes = utf8.encode(value);
  if (!isValidFormat(bytes, def.valueType, 0, bytes.length))
    throw invalid('body', field, `'${value}' is not a valid ${def.type} for ${fieldLabel(tag)}`);
}

/** A field default's tag: a top-level field of the message, not the session's and not a group's. */
function checkFieldTag(def: MessageDef, tag: number): void {
  if (!FIX44.field(tag)) throw invalid('body', 'tag', `Tag ${tag} is not a FIX 4.4 field`);
  if (FIX44.isHeaderTag(tag) || FIX44.isTrailerTag(tag))
    throw invalid('body', 'tag', `${fieldLabel(tag)} is written by the FIX session, not by defaults`);
  const kind = def.body.memberKind[tag];
  if (kind === MemberKind.Group) {
    throw invalid('body', 'tag', `${fieldLabel(tag)} counts a repeating group: add its instances in the group's table instead`);
  }
  if (kind !== MemberKind.Field)
    throw invalid('body', 'tag', `${fieldLabel(tag)} is not a field of ${def.name} (${def.msgType}) in FIX 4.4`);
}

async function requireConnector(db: Queryable, id: number, field: string): Promise<void> {
  if (!(await connectorExists(db, id))) throw new HttpError(404, `Client connector ${id} not found`, field);
}

function presentGroups(msgType: string, rows: GroupInstanceFieldRow[]): ClientGroupDefaults[] {
  const blocks = new Map<number, ClientGroupDefaults>();
  for (const r of rows) {
    let b = blocks.get(r.component_block_id);
    if (!b) {
      b = {
        component_block_id: r.component_block_id,
        block_name: r.block_name,
        description: r.description,
        reference_url: r.reference_url,
        group_field_number: r.group_field_number,
        msg_type: msgType,
        instances: [],
      };
      blocks.set(r.component_block_id, b);
    }
    let inst = b.instances.at(-1);
    if (!inst || inst.group_instance_number !== r.group_instance_number) {
      inst = { group_instance_number: r.group_instance_number, exec_type: r.exec_type, fields: [] };
      b.instances.push(inst);
    }
    inst.fields.push({ tag: r.tag, field_name: r.field_name, default_value: r.default_value, notes: r.notes });
  }
  return [...blocks.values()];
}

export function fixClientDefaultsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { access: 'read' as const } };
  const admin = { config: { access: 'admin' as const } };
  const changed = (connectorId: number) => ctx.events.emit('client-defaults-changed', connectorId);

  // Static paths before the parameterised ones share their first segment; the router prefers them.
  app.get('/api/fix-client-defaults/variables', read, async () => {
    const variables: ClientVariableInfo[] = CLIENT_VARIABLES.map((v) => ({ ...v, placeholder: `%${v.name}%` }));
    return { success: true, data: { variables } };
  });

  app.get('/api/fix-client-defaults/field-info/:tag', read, async (req) => {
    const { tag } = parse(FieldInfoParamsSchema, req.params, 'params');
    const info = await getFieldInfo(ctx.db, tag);
    if (!info) throw new HttpError(404, `Tag ${tag} is not a FIX 4.4 field`, 'tag');
    return { success: true, data: info };
  });

  app.get('/api/fix-client-defaults/:clientId/:msgType', read, async (req) => {
    const { clientId, msgType } = parse(ClientDefaultsParamsSchema, req.params, 'params');
    const q = parse(ExecTypeQuerySchema, req.query, 'query');
    messageOf(msgType, 'params', 'msgType');
    const execType = checkExecType(msgType, q.execType, 'query', 'execType');
    await requireConnector(ctx.db, clientId, 'clientId');
    const rows = await listClientDefaults(ctx.db, clientId, msgType, execType);
    return { success: true, data: rows };
  });

  app.get('/api/fix-client-defaults/:clientId/:msgType/groups', read, async (req) => {
    const { clientId, msgType } = parse(ClientDefaultsParamsSchema, req.params, 'params');
    const q = parse(ExecTypeQuerySchema, req.query, 'query');
    messageOf(msgType, 'params', 'msgType');
    const execType = checkExecType(msgType, q.execType, 'query', 'execType');
    await requireConnector(ctx.db, clientId, 'clientId');
    return { success: true, data: presentGroups(msgType, await listGroupDefaults(ctx.db, clientId, msgType, execType)) };
  });

  app.post('/api/fix-client-defaults/preview', admin, async (req) => {
    const input = parse(PreviewClientDefaultsSchema, req.body, 'body');
    messageOf(input.msg_type, 'body', 'msg_type');
    const execType = checkExecType(input.msg_type, input.exec_type, 'body', 'exec_type');
    const loaded = await loadClientData(ctx.db, input.client_connector_id);
    if (!loaded) throw new HttpError(404, `Client connector ${input.client_connector_id} not found`, 'client_connector_id');
    const variables = clientVariables(loaded.client, new Date());
    const resolve = (value: string) => {
      const s = substituteVariables(value, variables);
      return { resolved_value: s.text.trim(), unresolved: s.unresolved, empty: s.empty };
    };
    const defaults = await listClientDefaults(ctx.db, input.client_connector_id, input.msg_type, execType);
    const groups = presentGroups(input.msg_type, await listGroupDefaults(ctx.db, input.client_connector_id, input.msg_type, execType));
    const { row } = loaded;
    const data: ClientDefaultsPreview = {
      client_connector: {
        id: row.id,
        comp_id: row.comp_id,
        target_comp_id: row.target_comp_id,
        client_name: row.client_name,
        client_contact: row.client_contact,
        client_lei: row.client_lei,
      },
      msg_type: input.msg_type,
      exec_type: execType,
      variables,
      defaults: defaults.map((d) => ({
        tag: d.tag,
        field_name: d.field_name,
        exec_type: d.exec_type,
        default_value: d.default_value,
        notes: d.notes,
        ...resolve(d.default_value),
      })),
      groups: groups.map((g) => ({
        ...g,
        instances: g.instances.map((i) => ({
          group_instance_number: i.group_instance_number,
          fields: i.fields.map((f) => ({ ...f, resolved_value: resolve(f.default_value).resolved_value })),
        })),
      })),
    };
    return { success: true, data };
  });

  app.post('/api/fix-client-defaults', admin, async (req) => {
    const input = parse(CreateClientDefaultSchema, req.body, 'body');
    const def = writableMessage(input.msg_type);
    const execType = checkExecType(input.msg_type, input.exec_type, 'body', 'exec_type');
    checkFieldTag(def, input.tag);
    checkValue(input.tag, input.default_value, 'default_value');
    await requireConnector(ctx.db, input.client_connector_id, 'client_connector_id');
    try {
      const row = await insertClientDefault(ctx.db, { ...input, exec_type: execType, notes: input.notes || null });
      changed(row.client_connector_id);
      ctx.log.info(
        { connectorId: row.client_connector_id, msgType: row.msg_type, execType, tag: row.tag, by: req.user?.username },
        'client default created',
      );
      return { success: true, data: row, message: 'Default created successfully' };
    } catch (err) {
      if (err instanceof UniqueViolation) {
        throw new HttpError(
          409,
          `Client connector ${input.client_connector_id} already has a default for ${fieldLabel(input.tag)} on ${def.name} (${input.msg_type})${execType ? ` ExecType ${execType}` : ''}: change that one`,
          'tag',
        );
      }
      throw err;
    }
  });

  app.put('/api/fix-client-defaults/:default_id', admin, async (req) => {
    const { default_id } = parse(DefaultIdParamsSchema, req.params, 'params');
    const input = parse(UpdateClientDefaultSchema, req.body, 'body');
    const existing = await getClientDefault(ctx.db, default_id);
    if (!existing) throw new HttpError(404, `Default ${default_id} not found`, 'default_id');
    // Which default it is cannot change: that is another default (delete and create).
    const fixed = [
      ['client_connector_id', input.client_connector_id, existing.client_connector_id],
      ['msg_type', input.msg_type, existing.msg_type],
      ['tag', input.tag, existing.tag],
    ] as const;
    for (const [field, given, stored] of fixed) {
      if (given !== undefined && given !== stored)
        throw invalid('body', field, `cannot be changed (it is ${stored}); delete this default and create another`);
    }
    if (input.exec_type !== undefined && (input.exec_type ?? null) !== existing.exec_type) {
      throw invalid(
        'body',
        'exec_type',
        `cannot be changed (it is ${existing.exec_type ?? 'empty'}); delete this default and create another`,
      );
    }
    if (input.default_value !== undefined) checkValue(existing.tag, input.default_value, 'default_value');
    const row = await updateClientDefault(ctx.db, default_id, {
      default_value: input.default_value,
      notes: input.notes === undefined ? undefined : input.notes || null,
    });
    if (!row) throw new HttpError(404, `Default ${default_id} not found`, 'default_id');
    changed(row.client_connector_id);
    ctx.log.info({ defaultId: default_id, tag: row.tag, by: req.user?.username }, 'client default updated');
    return { success: true, data: row, message: 'Default updated successfully' };
  });

  app.delete('/api/fix-client-defaults/:default_id', admin, async (req) => {
    const { default_id } = parse(DefaultIdParamsSchema, req.params, 'params');
    const existing = await getClientDefault(ctx.db, default_id);
    if (!existing || !(await deleteClientDefault(ctx.db, default_id)))
      throw new HttpError(404, `Default ${default_id} not found`, 'default_id');
    changed(existing.client_connector_id);
    ctx.log.info({ defaultId: default_id, tag: existing.tag, by: req.user?.username }, 'client default deleted');
    return { success: true, message: 'Default deleted successfully' };
  });

  app.post('/api/fix-client-defaults/group', admin, async (req) => {
    const input = parse(CreateGroupDefaultSchema, req.body, 'body');
    const def = writableMessage(input.msg_type);
    const execType = checkExecType(input.msg_type, input.exec_type, 'body', 'exec_type');
    await requireConnector(ctx.db, input.client_connector_id, 'client_connector_id');
    const block = await getComponentBlock(ctx.db, input.component_block_id);
    if (!block) throw new HttpError(404, `Component block ${input.component_block_id} not found`, 'component_block_id');
    const group: GroupDef | undefined = block.group_field_number === null ? undefined : def.body.group(block.group_field_number);
    if (!group) {
      throw invalid(
        'body',
        'component_block_id',
        `${block.block_name} is not a repeating group of ${def.name} (${input.msg_type}) in FIX 4.4`,
      );
    }
    input.fields.forEach((f, i) => {
      if (group.memberKind[f.tag] !== MemberKind.Field) {
        throw invalid('body', `fields.${i}.tag`, `${fieldLabel(f.tag)} is not a field of a ${block.block_name} entry`);
      }
      checkValue(f.tag, f.default_value, `fields.${i}.default_value`);
    });
    if (!input.fields.some((f) => f.tag === group.delimiter)) {
      throw invalid('body', 'fields', `A ${block.block_name} entry starts with ${fieldLabel(group.delimiter)}: give it a value`);
    }
    const fields = [...input.fields]
      .sort((a, b) => group.rank[a.tag]! - group.rank[b.tag]!)
      .map((f) => ({ tag: f.tag, default_value: f.default_value, notes: f.notes || null }));
    let number: number | undefined;
    try {
      number = await ctx.db.transaction((tx) =>
        insertGroupInstance(tx, { ...input, exec_type: execType, group_instance_number: input.group_instance_number ?? null, fields }),
      );
    } catch (err) {
      if (!(err instanceof UniqueViolation)) throw err;
    }
    if (number === undefined) {
      throw new HttpError(
        409,
        `Instance ${input.group_instance_number ?? ''} of ${block.block_name} already exists for client connector ${input.client_connector_id} on ${def.name} (${input.msg_type})${execType ? ` ExecType ${execType}` : ''}: delete it first or add the next one`,
        'group_instance_number',
      );
    }
    changed(input.client_connector_id);
    ctx.log.info(
      {
        connectorId: input.client_connector_id,
        msgType: input.msg_type,
        execType,
        block: block.block_name,
        instance: number,
        by: req.user?.username,
      },
      'client group default created',
    );
    return {
      success: true,
      data: {
        client_connector_id: input.client_connector_id,
        msg_type: input.msg_type,
        exec_type: execType,
        component_block_id: block.id,
        block_name: block.block_name,
        group_field_number: group.countTag,
        group_instance_number: number,
        fields: fields.map((f) => ({ ...f, field_name: FIX44.field(f.tag)!.name })),
      },
      message: `${block.block_name} instance ${number} saved`,
    };
  });

  app.delete('/api/fix-client-defaults/group/:connectorId/:msgType/:blockId/:instanceNumber', admin, async (req) => {
    const p = parse(GroupInstanceParamsSchema, req.params, 'params');
    const q = parse(ExecTypeQuerySchema, req.query, 'query');
    messageOf(p.msgType, 'params', 'msgType');
    const execType = checkExecType(p.msgType, q.execType, 'query', 'execType');
    await requireConnector(ctx.db, p.connectorId, 'connectorId');
    const deleted = await deleteGroupInstance(ctx.db, {
      client_connector_id: p.connectorId,
      msg_type: p.msgType,
      exec_type: execType,
      component_block_id: p.blockId,
      group_instance_number: p.instanceNumber,
    });
    if (!deleted) {
      throw new HttpError(
        404,
        `No instance ${p.instanceNumber} of component block ${p.blockId} for client connector ${p.connectorId} on ${p.msgType}${execType ? ` ExecType ${execType}` : ''}`,
        'instanceNumber',
      );
    }
    changed(p.connectorId);
    ctx.log.info(
      { connectorId: p.connectorId, msgType: p.msgType, execType, blockId: p.blockId, instance: p.instanceNumber, by: req.user?.username },
      'client group default deleted',
    );
    return { success: true, message: `Instance ${p.instanceNumber} deleted` };
  });
}
