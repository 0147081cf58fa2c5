import { z } from 'zod';
import { adminInteger, adminOptionalInteger, adminOptionalText, type AdminFields } from './admin-fields';

// FIX message specifications (spec 001 §3 "FIX message spec row", §5 "Message spec form", §7, §8):
// the fields we promise per message type, and per ExecType for execution reports. The outbound check
// of mandatory fields reads them; the FIX specification page shows them.

const FIX_SPEC_VERSIONS = ['4.4', '4.2', '5.0'] as const;

/** Spec 001 §5: written by the FIX session itself; no edit or delete, field and position locked. */
const SYSTEM_CONTROLLED_FIELDS: readonly number[] = [8, 9, 10, 34, 35, 52, 150];
/** Spec 001 §5: header-type fields; position locked, delete not offered. */
const HEADER_TYPE_FIELDS: readonly number[] = [
  49, 56, 115, 128, 90, 91, 50, 142, 57, 143, 116, 144, 129, 145, 43, 97, 122, 212, 213, 347, 369, 627, 628, 629, 630, 93, 89,
];

export const isSystemControlledField = (field: number) => SYSTEM_CONTROLLED_FIELDS.includes(field);
export const isHeaderTypeField = (field: number) => HEADER_TYPE_FIELDS.includes(field);

/** Spec 001 §5 and §8: the texts of the screen. */
export const MessageSpecText = {
  execTypeRequired: 'ExecType is required for ExecutionReport specifications',
  created: 'Message specification created successfully',
  updated: 'Message specification updated successfully',
  deleted: 'Message specification deleted successfully',
  operationFailed: 'Operation failed',
  deleteFailed: 'Delete failed',
  error: (message: string) => `Error: ${message}`,
  systemControlled: (label: string) => `${label} is system controlled: it cannot be edited or deleted`,
  headerPositionLocked: (label: string) => `${label} is a header-type field: its position is locked`,
  headerNoDelete: (label: string) => `${label} is a header-type field: it cannot be deleted`,
} as const;

const msgType = z
  .string({ error: (i) => (i.input === undefined || i.input === null ? 'is required' : 'must be a FIX MsgType such as D, AB or 8') })
  .trim()
  .min(1, 'is required')
  .regex(/^[0-9A-Za-z]{1,2}$/, 'must be a FIX MsgType such as D, AB or 8');

const execType = z.preprocess(
  (v) => (v === '' ? null : v),
  z
    .string({ error: 'must be an ExecType (150) code such as 0, F or 8' })
    .trim()
    .regex(/^[0-9A-Za-z]$/, 'must be an ExecType (150) code such as 0, F or 8')
    .nullable()
    .optional(),
);

const SpecShape = {
  msg_type: msgType,
  msg_name: adminOptionalText(100),
  fix_version: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? '4.4' : v),
    z.enum(FIX_SPEC_VERSIONS, { error: `must be one of ${FIX_SPEC_VERSIONS.join(', ')}` }),
  ),
  exec_type: execType,
  field_number: adminInteger(1, 99_999, 'a FIX tag number'),
  field_position: adminOptionalInteger(1, 9_999, 'a whole number'),
  /** Echoed from the dictionary; when given it must agree with it. */
  field_name: adminOptionalText(100),
  field_type: adminOptionalText(40),
  is_mandatory: z.boolean({ error: 'must be true or false' }).default(false),
  description: adminOptionalText(1000),
};

/**
 * Spec 001 §5: ExecType is required for type 8 and removed for the other types (the form drops it;
 * the server does the same, so a stale value never lands on a non-8 spec).
 */
function execTypeRule<T extends { msg_type?: string; exec_type?: string | null }>(v: T, ctx: z.RefinementCtx): void {
  if (v.msg_type === '8' && !v.exec_type) ctx.addIssue({ code: 'custom', path: ['exec_type'], message: MessageSpecText.execTypeRequired });
}

export const CreateMessageSpecSchema = z
  .strictObject(SpecShape)
  .superRefine(execTypeRule)
  .transform((v) => ({ ...v, exec_type: v.msg_type === '8' ? (v.exec_type ?? null) : null }));
export type CreateMessageSpecInput = z.input<typeof CreateMessageSpecSchema>;

/** PUT: the same body; fields left out keep their value (read it with onlyGiven). */
export const UpdateMessageSpecSchema = z.strictObject({
  msg_type: msgType.optional(),
  msg_name: SpecShape.msg_name,
  fix_version: SpecShape.fix_version.optional(),
  exec_type: execType,
  field_number: adminInteger(1, 99_999, 'a FIX tag number').optional(),
  field_position: SpecShape.field_position,
  field_name: SpecShape.field_name,
  field_type: SpecShape.field_type,
  is_mandatory: z.boolean({ error: 'must be true or false' }).optional(),
  description: SpecShape.description,
  id: z.unknown().optional(),
  component_block_id: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
});

export const MessageSpecIdParamsSchema = z.strictObject({ id: adminInteger(1, 2_147_483_647, 'a message specification id') });
export const MessageSpecQuerySchema = z.strictObject({ msg_type: msgType.optional(), exec_type: z.string().trim().max(2).optional() });

export interface MessageSpec {
  id: number;
  msg_type: string;
  msg_name: string | null;
  fix_version: string;
  exec_type: string | null;
  field_number: number;
  field_name: string;
  field_type: string;
  field_position: number | null;
  is_mandatory: boolean;
  description: string | null;
  component_block_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A row of the FIX Fields Reference (spec 001 §3 "FIX field"). */
export interface FixField {
  field_number: number;
  field_name: string;
  field_type: string;
  description: string | null;
  valid_values: string[] | null;
  valid_values_display: string | null;
}

/** A component block a message uses (spec 001 §3 "Component block"). */
export interface ComponentBlock {
  id: number;
  block_name: string;
  description: string | null;
  reference_url: string | null;
  /** The NumInGroup tag for a repeating group; null for a plain component. */
  group_field_number: number | null;
  /** Whether the message requires the block. */
  is_required?: boolean;
}

export interface ComponentBlockField {
  field_number: number;
  field_name: string;
  field_type: string;
  field_description: string | null;
  field_position: number;
  is_mandatory: boolean;
}

export const ComponentBlockParamsSchema = z.strictObject({ blockId: adminInteger(1, 2_147_483_647, 'a component block id') });
export const ComponentBlockMessageParamsSchema = z.strictObject({ msgType });

/** How each field is edited in the spec modal. */
export const MESSAGE_SPEC_FIELDS: AdminFields<CreateMessageSpecInput> = {
  msg_type: { name: 'msg_type', label: 'Message Type', kind: 'select', required: true, placeholder: 'Choose a message type' },
  msg_name: {
    name: 'msg_name',
    label: 'Message Name',
    kind: 'text',
    maxLength: 100,
    description: 'Filled from the FIX 4.4 dictionary when left empty',
  },
  fix_version: {
    name: 'fix_version',
    label: 'FIX Version',
    kind: 'select',
    options: FIX_SPEC_VERSIONS.map((v) => ({ value: v, label: `FIX ${v}` })),
    defaultValue: '4.4',
  },
  exec_type: { name: 'exec_type', label: 'ExecType (150)', kind: 'select', description: 'ExecutionReport (8) specifications only' },
  field_number: { name: 'field_number', label: 'Field Number', kind: 'integer', required: true, placeholder: 'e.g. 55' },
  field_position: { name: 'field_position', label: 'Position', kind: 'integer', placeholder: 'optional' },
  field_name: { name: 'field_name', label: 'Field Name', kind: 'text', description: 'From the dictionary' },
  field_type: { name: 'field_type', label: 'Field Type', kind: 'text', description: 'From the dictionary' },
  is_mandatory: { name: 'is_mandatory', label: 'Mandatory', kind: 'boolean', defaultValue: false },
  description: { name: 'description', label: 'Description', kind: 'textarea', maxLength: 1000, span: 2 },
};
