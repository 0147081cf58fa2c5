import { z } from 'zod';
import { MIC_TEXT } from './identifiers';
import {
  adminInteger,
  adminOptionalInteger,
  adminOptionalPositiveDecimal,
  adminOptionalText,
  normalizeDecimalText,
  type AdminFields,
} from './admin-fields';
import { ASSET_CLASSES, EXCHANGES } from './security-master';

// Client capabilities (spec 001 §2 "Client Capabilities", §3, §5 "Capability form", §6, §7, §8): what
// each client may trade. The order intake enforces every field: enabled, buy/sell, short selling and
// the net position limits (against the client's worst-case exposure in the contract: its filled
// position with its working orders counted as if filled, docs/adr/0013), the order
// quantity limits, the exchange and the market identifier. A change applies to the next order.

/** Spec 001 §8 "Capabilities" and the screen's other texts. */
export const CapabilityText = {
  created: 'Capability created successfully',
  updated: 'Capability updated successfully',
  deleted: (id: number) => `Capability ${id} deleted successfully`,
  createFailed: 'Failed to create capability',
  updateFailed: 'Failed to update capability',
  deleteFailed: 'Failed to delete capability',
  fetchFailed: 'Failed to fetch client capabilities',
  allSecurities: 'All Securities',
  noPermissions: 'No Permissions',
  confirmDelete: 'Are you sure you want to delete this capability?',
} as const;

const DECIMAL = /^\d{1,12}(\.\d{1,10})?$/;

/** A limit that may be 0: decimal text, or null when empty (spec 001 §5: parsed as decimals, or null). */
const optionalLimit = (what: string) =>
  z.preprocess(
    (v) =>
      v === '' || v === undefined || (typeof v === 'string' && v.trim() === '')
        ? null
        : typeof v === 'number' && Number.isFinite(v)
          ? String(v)
          : typeof v === 'string'
            ? v.trim()
            : v,
    z
      .string({ error: `must be ${what}` })
      .regex(DECIMAL, `must be ${what}`)
      .transform((s) => normalizeDecimalText(s))
      .nullable()
      .optional(),
  );

const code = (what: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ error: `must be ${what}` })
      .trim()
      .regex(/^[A-Za-z0-9]{2,10}$/, `must be ${what}`)
      .transform((s) => s.toUpperCase())
      .nullable()
      .optional(),
  );

/** additional_params: a JSON object (the form edits it as JSON text). */
const additionalParams = z.preprocess(
  (v) => {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return {};
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z
    .record(z.string(), z.unknown(), { error: 'must be a JSON object such as {"desk": "freight"}' })
    .refine((o) => JSON.stringify(o).length <= 4000, 'has at most 4000 characters'),
);

const flag = (dflt: boolean) => z.boolean({ error: 'must be true or false' }).default(dflt);

const CapabilityShape = {
  clientconnectors_id: adminInteger(1, 2_147_483_647, 'a client connector'),
  security_master_id: adminOptionalInteger(1, 2_147_483_647, 'a security'),
  client_symbol: adminOptionalText(64),
  client_symbol_text: adminOptionalText(200),
  asset_class: z.enum(ASSET_CLASSES, {
    error: (i) =>
      i.input === undefined || i.input === null || i.input === '' ? 'is required' : `must be one of ${ASSET_CLASSES.join(', ')}`,
  }),
  exchange: code('an exchange code such as SGX'),
  market_identifier: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ error: MIC_TEXT })
      .trim()
      .regex(/^[A-Za-z0-9]{4}$/, MIC_TEXT)
      .transform((s) => s.toUpperCase())
      .nullable()
      .optional(),
  ),
  is_enabled: flag(true),
  can_buy: flag(true),
  can_sell: flag(true),
  can_short: flag(false),
  min_order_qty: optionalLimit('a quantity of 0 or more'),
  max_order_qty: adminOptionalPositiveDecimal('a quantity greater than 0'),
  max_position_long: optionalLimit('a position of 0 or more'),
  max_position_short: optionalLimit('a position of 0 or more'),
  additional_params: additionalParams,
};

/** POST /api/client-capabilities. */
export const CreateCapabilitySchema = z.strictObject(CapabilityShape);
export type CreateCapabilityInput = z.input<typeof CreateCapabilitySchema>;
export type CapabilityInput = z.output<typeof CreateCapabilitySchema>;

/** PUT /api/client-capabilities/{id}: fields left out keep their value; the row's read-only fields may be echoed. */
export const UpdateCapabilitySchema = z.strictObject({
  ...Object.fromEntries(Object.entries(CapabilityShape).map(([k, v]) => [k, v.optional()])),
  id: z.unknown().optional(),
  comp_id: z.unknown().optional(),
  client_name: z.unknown().optional(),
  security_symbol: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
}) as unknown as z.ZodType<Partial<CapabilityInput>, Partial<CreateCapabilityInput> & Record<string, unknown>>;

export const CapabilityIdParamsSchema = z.strictObject({ id: adminInteger(1, 2_147_483_647, 'a capability id') });
export const CapabilityListQuerySchema = z.strictObject({ comp_id: z.string().trim().max(64).optional() });

/** One capability as the API answers it (limits exact, as text). */
export interface ClientCapabilityRecord {
  id: number;
  clientconnectors_id: number;
  comp_id: string;
  client_name: string | null;
  security_master_id: number | null;
  security_symbol: string | null;
  client_symbol: string | null;
  client_symbol_text: string | null;
  asset_class: (typeof ASSET_CLASSES)[number];
  exchange: string | null;
  market_identifier: string | null;
  is_enabled: boolean;
  can_buy: boolean;
  can_sell: boolean;
  can_short: boolean;
  min_order_qty: string | null;
  max_order_qty: string | null;
  max_position_long: string | null;
  max_position_short: string | null;
  additional_params: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** How each field is edited on the Client Capabilities screen (form order). */
export const CAPABILITY_FIELDS: AdminFields<CreateCapabilityInput> = {
  clientconnectors_id: {
    name: 'clientconnectors_id',
    label: 'Client',
    kind: 'select',
    required: true,
    description: 'The client connector this capability belongs to',
  },
  security_master_id: {
    name: 'security_master_id',
    label: 'Security',
    kind: 'select',
    placeholder: 'All Securities',
    description: 'Empty: every security',
  },
  asset_class: {
    name: 'asset_class',
    label: 'Asset Class',
    kind: 'select',
    required: true,
    options: options(ASSET_CLASSES),
    defaultValue: 'FUTURES',
  },
  exchange: {
    name: 'exchange',
    label: 'Exchange',
    kind: 'select',
    options: options(EXCHANGES),
    description: "Empty: any exchange; set: the order's ExDestination (100) must be it or absent",
  },
  min_order_qty: { name: 'min_order_qty', label: 'Min Order Qty', kind: 'decimal', placeholder: 'none' },
  max_order_qty: { name: 'max_order_qty', label: 'Max Order Qty', kind: 'decimal', placeholder: 'none' },
  max_position_long: {
    name: 'max_position_long',
    label: 'Max Position Long',
    kind: 'decimal',
    placeholder: 'none',
    description: 'Net long lots per contract, fills plus working buys',
  },
  max_position_short: {
    name: 'max_position_short',
    label: 'Max Position Short',
    kind: 'decimal',
    placeholder: 'none',
    description: 'Net short lots per contract, fills plus working sales',
  },
  is_enabled: {
    name: 'is_enabled',
    label: 'Enabled',
    kind: 'boolean',
    defaultValue: true,
    description: 'Disabled: every order under this capability is refused',
  },
  can_buy: { name: 'can_buy', label: 'Can Buy', kind: 'boolean', defaultValue: true },
  can_sell: { name: 'can_sell', label: 'Can Sell', kind: 'boolean', defaultValue: true },
  can_short: {
    name: 'can_short',
    label: 'Can Short',
    kind: 'boolean',
    defaultValue: false,
    description: 'Off: a sale may not take the net position in a contract below zero, counting working sales as filled',
  },
  market_identifier: {
    name: 'market_identifier',
    label: 'Market Identifier (MIC)',
    kind: 'text',
    maxLength: 10,
    placeholder: 'e.g. XSES',
    description: 'Set: the order must name this market in ExDestination (100)',
  },
  client_symbol: {
    name: 'client_symbol',
    label: 'Client Symbol',
    kind: 'text',
    maxLength: 64,
    placeholder: "The client's own code for the security",
  },
  client_symbol_text: { name: 'client_symbol_text', label: 'Client Symbol Text', kind: 'text', maxLength: 200 },
  additional_params: { name: 'additional_params', label: 'Additional Parameters (JSON)', kind: 'textarea', placeholder: '{}', span: 2 },
};
