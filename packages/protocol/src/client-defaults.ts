import { z } from 'zod';

// Client FIX defaults (spec 001 §2 "Client FIX field defaults", §3 entities, §7 "Client FIX defaults"):
// per-client values written into the messages of one message type (and, for execution reports, one
// ExecType), and instances of repeating groups such as Parties. The checks against the FIX dictionary
// (does the tag exist, does it belong to the message) are the server's; these schemas check the shape.

/**
 * The message types whose defaults are applied, and by whom: D and AB by the FIX Client and FIX Client
 * Simulator order builders, F and G by the simulated client's cancel and replace requests, 8 and 9 by
 * the server's execution reports and cancel rejects. Reads answer for any FIX 4.4 message type.
 */
export const CLIENT_DEFAULT_MSG_TYPES = ['D', 'AB', 'F', 'G', '8', '9'] as const;

const DEFAULT_VALUE_MAX = 500;
const DEFAULT_NOTES_MAX = 1000;
/** Most fields one group instance may configure, and the highest instance number. */
const GROUP_FIELDS_MAX = 40;
const GROUP_INSTANCE_MAX = 99;

const INT_MAX = 2_147_483_647;

/** A positive integer given as a JSON number or as digits (path parameters are text). */
const positiveInt = (what: string, max = INT_MAX) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: (i) => (i.input === undefined ? 'is required' : `must be ${what}`) })
      .int(`must be ${what}`)
      .min(1, `must be ${what}`)
      .max(max, `must be at most ${max}`),
  );

const MsgTypeSchema = z
  .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a FIX MsgType such as D, AB or 8') })
  .trim()
  .regex(/^[0-9A-Za-z]{1,2}$/, 'must be a FIX MsgType such as D, AB or 8');

/** ExecType (150) code; '' or null means "every ExecType". */
const ExecTypeSchema = z.preprocess(
  (v) => (v === '' ? null : v),
  z
    .string({ error: 'must be an ExecType (150) code such as 0, F or 8' })
    .trim()
    .regex(/^[0-9A-Za-z]$/, 'must be an ExecType (150) code such as 0, F or 8')
    .nullable()
    .optional(),
);

const TagSchema = positiveInt('a FIX tag number', 99_999);

const DefaultValueSchema = z
  .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be text') })
  .trim()
  .min(1, 'must not be empty')
  .max(DEFAULT_VALUE_MAX, `has at most ${DEFAULT_VALUE_MAX} characters`)
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters (such as the SOH delimiter)');

const NotesSchema = z.string().trim().max(DEFAULT_NOTES_MAX, `has at most ${DEFAULT_NOTES_MAX} characters`).nullable().optional();

/** ExecType only for execution reports (as the message spec form, spec 001 §5). */
function execTypeOnlyFor8(v: { msg_type: string; exec_type?: string | null }, ctx: z.RefinementCtx): void {
  if (v.exec_type && v.msg_type !== '8') {
    ctx.addIssue({ code: 'custom', path: ['exec_type'], message: 'applies to ExecutionReport (8) defaults only' });
  }
}

export const CreateClientDefaultSchema = z
  .strictObject({
    client_connector_id: positiveInt('a client connector id'),
    msg_type: MsgTypeSchema,
    exec_type: ExecTypeSchema,
    tag: TagSchema,
    default_value: DefaultValueSchema,
    notes: NotesSchema,
  })
  .superRefine(execTypeOnlyFor8);

/**
 * PUT changes the value and the notes. The edit form may echo the default back: the fields that say
 * which default it is must then be unchanged (the server compares), the rest are ignored.
 */
export const UpdateClientDefaultSchema = z
  .strictObject({
    default_value: DefaultValueSchema.optional(),
    notes: NotesSchema,
    client_connector_id: positiveInt('a client connector id').optional(),
    msg_type: MsgTypeSchema.optional(),
    exec_type: ExecTypeSchema,
    tag: TagSchema.optional(),
    default_id: z.unknown().optional(),
    field_name: z.unknown().optional(),
    field_description: z.unknown().optional(),
    is_mandatory: z.unknown().optional(),
    created_at: z.unknown().optional(),
    updated_at: z.unknown().optional(),
  })
  .refine((v) => v.default_value !== undefined || v.notes !== undefined, {
    message: 'give default_value or notes to change',
    path: ['default_value'],
  });

const GroupFieldDefaultSchema = z.strictObject({
  tag: TagSchema,
  default_value: DefaultValueSchema,
  notes: NotesSchema,
});

export const CreateGroupDefaultSchema = z
  .strictObject({
    client_connector_id: positiveInt('a client connector id'),
    msg_type: MsgTypeSchema,
    exec_type: ExecTypeSchema,
    component_block_id: positiveInt('a component block id'),
    /** Absent or null: the next number (the highest existing plus 1, starting at 1). */
    group_instance_number: z.preprocess(
      (v) => (v === '' ? null : v),
      positiveInt('an instance number', GROUP_INSTANCE_MAX).nullable().optional(),
    ),
    fields: z
      .array(GroupFieldDefaultSchema, { error: 'must be a list of {tag, default_value, notes}' })
      .min(1, 'needs at least one field')
      .max(GROUP_FIELDS_MAX, `has at most ${GROUP_FIELDS_MAX} fields`),
  })
  .superRefine((v, ctx) => {
    execTypeOnlyFor8(v, ctx);
    const seen = new Set<number>();
    v.fields.forEach((f, i) => {
      if (seen.has(f.tag))
        ctx.addIssue({ code: 'custom', path: ['fields', i, 'tag'], message: `tag ${f.tag} appears more than once in the instance` });
      seen.add(f.tag);
    });
  });

export const PreviewClientDefaultsSchema = z
  .strictObject({
    client_connector_id: positiveInt('a client connector id'),
    msg_type: MsgTypeSchema,
    exec_type: ExecTypeSchema,
  })
  .superRefine(execTypeOnlyFor8);

export const ClientDefaultsParamsSchema = z.strictObject({ clientId: positiveInt('a client connector id'), msgType: MsgTypeSchema });
export const ExecTypeQuerySchema = z.strictObject({ execType: ExecTypeSchema });
export const DefaultIdParamsSchema = z.strictObject({ default_id: positiveInt('a default id') });
export const FieldInfoParamsSchema = z.strictObject({ tag: TagSchema });
export const GroupInstanceParamsSchema = z.strictObject({
  connectorId: positiveInt('a client connector id'),
  msgType: MsgTypeSchema,
  blockId: positiveInt('a component block id'),
  instanceNumber: positiveInt('an instance number', GROUP_INSTANCE_MAX),
});

// ───────────────────────────── answers ─────────────────────────────

/** One default (spec 001 §3 "FIX field default (full)"). */
export interface ClientFieldDefault {
  default_id: number;
  client_connector_id: number;
  msg_type: string;
  /** null: applies to every ExecType (and to message types other than 8). */
  exec_type: string | null;
  tag: number;
  default_value: string;
  notes: string | null;
  field_name: string;
  field_description: string | null;
  /** Mandatory in our message spec for this message type (and ExecType). */
  is_mandatory: boolean;
  created_at: string;
  updated_at: string;
}

export interface ClientGroupFieldDefault {
  tag: number;
  field_name: string;
  default_value: string;
  notes: string | null;
}

export interface ClientGroupInstance {
  group_instance_number: number;
  exec_type: string | null;
  /** In the group's field order (its delimiter first). */
  fields: ClientGroupFieldDefault[];
}

/** A repeating group (component block) with the client's instances of it. */
export interface ClientGroupDefaults {
  component_block_id: number;
  block_name: string;
  description: string | null;
  reference_url: string | null;
  /** The NumInGroup tag that counts the instances (453 for Parties). */
  group_field_number: number;
  msg_type: string;
  instances: ClientGroupInstance[];
}

export interface ClientVariableInfo {
  name: string;
  /** As written in a default: %NAME%. */
  placeholder: string;
  description: string;
  source: string;
}

export interface FixFieldInfo {
  field_number: number;
  field_name: string;
  field_type: string;
  description: string | null;
  enums: { code: string; description: string }[];
}

export interface ClientDefaultPreviewRow {
  tag: number;
  field_name: string;
  exec_type: string | null;
  default_value: string;
  resolved_value: string;
  notes: string | null;
  /** Variable names that are not ours (left as written). */
  unresolved: string[];
  /** Variables this client has no data for (resolved to nothing; the field is left out). */
  empty: string[];
}

export interface ClientDefaultsPreview {
  client_connector: {
    id: number;
    comp_id: string;
    target_comp_id: string;
    client_name: string | null;
    client_contact: string | null;
    client_lei: string | null;
  };
  msg_type: string;
  exec_type: string | null;
  /** The client's variables and their values now. */
  variables: Record<string, string>;
  defaults: ClientDefaultPreviewRow[];
  groups: Array<
    Omit<ClientGroupDefaults, 'instances'> & {
      instances: Array<{ group_instance_number: number; fields: Array<ClientGroupFieldDefault & { resolved_value: string }> }>;
    }
  >;
}
