import { z } from 'zod';
import { CURRENCY_TEXT, ISO_4217_CODES } from './identifiers';
import {
  adminInteger,
  adminOptionalInteger,
  adminOptionalPositiveDecimal,
  adminOptionalText,
  adminPositiveDecimal,
  adminText,
  type AdminFields,
} from './admin-fields';

// The security master (spec 001 §3 "Security", §5 "Security form", §7, §8, §9): the instruments
// clients may trade. A security is tradable from the moment it is saved active; an inactive one is
// refused at intake.

const INSTRUMENT_TYPES = ['Commodities', 'Equities', 'FX', 'Bonds', 'Derivatives'] as const;
/** Spec 001 §9 "Asset classes". */
export const ASSET_CLASSES = ['FUTURES', 'EQUITIES', 'FX', 'OPTIONS', 'COMMODITIES', 'CRYPTO', 'BONDS'] as const;
/** Spec 001 §9 "Exchanges", plus EEX, where the European freight and energy contracts are listed. */
export const EXCHANGES = ['SGX', 'EEX', 'CME', 'ICE', 'EUREX', 'NYSE', 'NASDAQ', 'LSE', 'HKEX'] as const;
const DEFAULT_EXCHANGE_MICS = 'SGX,EEX';
const DEFAULT_CURRENCY = 'USD';

/** Spec 001 §8 "Security": the success and failure texts of the screen. */
export const SecurityText = {
  created: 'Security created successfully',
  updated: 'Security updated successfully',
  deleted: (symbol: string) => `Security ${symbol} deleted successfully`,
  createFailed: 'Failed to create security',
  updateFailed: 'Failed to update security',
  createError: (message: string) => `Error creating security: ${message}`,
  updateError: (message: string) => `Error updating security: ${message}`,
  deleteFailed: 'Failed to delete security',
  deleteError: (message: string) => `Error deleting security: ${message}`,
  /** Spec 001 §5: delete refused while orders exist. */
  hasOrders: (symbol: string, n: number) =>
    `Cannot delete security ${symbol} - it has ${n} order(s) in the system. Please remove all orders for this security before deleting.`,
  /** Spec 001 §5: the delete confirmation. */
  typeToConfirm: (name: string) => `Please type "${name}" exactly to confirm deletion`,
} as const;

const symbol = adminText(32)
  .min(1, 'is required')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'must be letters, digits and . _ / - (starting with a letter or digit)')
  .transform((s) => s.toUpperCase());

const currency = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? DEFAULT_CURRENCY : v),
  z
    .string({ error: CURRENCY_TEXT })
    .trim()
    .transform((s) => s.toUpperCase())
    .refine((s) => ISO_4217_CODES.has(s), CURRENCY_TEXT),
);

/** Comma-separated market identifiers; default SGX,EEX (spec 001 §3, §9). */
const exchangeMics = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? DEFAULT_EXCHANGE_MICS : v),
  z
    .string({ error: 'must be exchange codes separated by commas, e.g. SGX,EEX' })
    .max(200, 'has at most 200 characters')
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim().toUpperCase())
        .filter(Boolean),
    )
    .refine(
      (list) => list.length > 0 && list.every((p) => /^[A-Z0-9]{2,10}$/.test(p)),
      'must be exchange codes separated by commas, e.g. SGX,EEX',
    )
    .refine((list) => new Set(list).size === list.length, 'lists an exchange twice')
    .transform((list) => list.join(',')),
);

const exchange = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string({ error: 'must be an exchange code such as SGX' })
    .trim()
    .regex(/^[A-Za-z0-9]{2,10}$/, 'must be an exchange code such as SGX')
    .transform((s) => s.toUpperCase())
    .nullable()
    .optional(),
);

const SecurityShape = {
  symbol,
  instrument_name: adminText(200).min(1, 'is required'),
  instrument_type: z.enum(INSTRUMENT_TYPES, {
    error: (i) =>
      i.input === undefined || i.input === '' || i.input === null ? 'is required' : `must be one of ${INSTRUMENT_TYPES.join(', ')}`,
  }),
  asset_class: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 'FUTURES' : v),
    z.enum(ASSET_CLASSES, { error: `must be one of ${ASSET_CLASSES.join(', ')}` }),
  ),
  description: adminOptionalText(1000),
  is_active: z.boolean({ error: 'must be true or false' }).default(true),
  price_tick_size: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? '0.01' : v),
    adminPositiveDecimal('a tick size greater than 0, e.g. 0.01'),
  ),
  qty_tick_size: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? '1' : v),
    adminPositiveDecimal('a quantity step greater than 0, e.g. 1'),
  ),
  contract_size: adminOptionalPositiveDecimal('a size greater than 0'),
  contract_unit: adminOptionalText(100),
  settlement_days: z.preprocess((v) => (v === undefined || v === null || v === '' ? 0 : v), adminInteger(0, 30, 'a whole number of days')),
  series_months: adminOptionalInteger(1, 240, 'a whole number of months'),
  currency,
  exchange,
  exchange_mics: exchangeMics,
  trading_hours: adminOptionalText(100),
};

/** POST /api/security-master: a new security. Unknown fields are refused. */
export const CreateSecuritySchema = z.strictObject(SecurityShape);
export type CreateSecurityInput = z.input<typeof CreateSecuritySchema>;
export type SecurityValues = z.output<typeof CreateSecuritySchema>;

/**
 * PUT /api/security-master/{id}: "same body" (spec 001 §7); fields left out keep their value (read the
 * result with onlyGiven, which drops the defaults the schema filled in for absent fields). The row's
 * own read-only fields may be echoed back and are ignored.
 */
export const UpdateSecuritySchema = z.strictObject({
  ...Object.fromEntries(Object.entries(SecurityShape).map(([k, v]) => [k, v.optional()])),
  id: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  order_count: z.unknown().optional(),
}) as unknown as z.ZodType<Partial<SecurityValues>, Partial<CreateSecurityInput> & Record<string, unknown>>;

export const SecurityIdParamsSchema = z.strictObject({ id: adminInteger(1, 2_147_483_647, 'a security id') });

/** One row of the security master as the API answers it (numbers exact, as text). */
export interface Security {
  id: number;
  symbol: string;
  instrument_name: string;
  description: string | null;
  instrument_type: (typeof INSTRUMENT_TYPES)[number];
  asset_class: string;
  is_active: boolean;
  price_tick_size: string;
  qty_tick_size: string;
  settlement_days: number;
  contract_size: string | null;
  contract_unit: string | null;
  series_months: number | null;
  currency: string;
  trading_hours: string | null;
  exchange: string | null;
  exchange_mics: string;
  created_at: string;
  updated_at: string;
}

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** How each field is edited on the Security Master screen (order = the form's order). */
export const SECURITY_FIELDS: AdminFields<CreateSecurityInput> = {
  symbol: {
    name: 'symbol',
    label: 'Symbol',
    kind: 'text',
    required: true,
    maxLength: 32,
    placeholder: 'e.g. C5TC',
    description: 'The FIX Symbol (55) clients send; stored upper-case',
  },
  instrument_name: {
    name: 'instrument_name',
    label: 'Instrument Name',
    kind: 'text',
    required: true,
    maxLength: 200,
    placeholder: 'e.g. Capesize 5TC Timecharter Average',
  },
  instrument_type: {
    name: 'instrument_type',
    label: 'Instrument Type',
    kind: 'select',
    required: true,
    options: options(INSTRUMENT_TYPES),
    defaultValue: 'Commodities',
  },
  asset_class: { name: 'asset_class', label: 'Asset Class', kind: 'select', options: options(ASSET_CLASSES), defaultValue: 'FUTURES' },
  description: { name: 'description', label: 'Description', kind: 'textarea', maxLength: 1000, span: 2 },
  is_active: {
    name: 'is_active',
    label: 'Active (tradable)',
    kind: 'boolean',
    defaultValue: true,
    description: 'Inactive securities are refused at order intake',
  },
  price_tick_size: {
    name: 'price_tick_size',
    label: 'Price Tick Size',
    kind: 'decimal',
    defaultValue: '0.01',
    description: 'Order and fill prices must be a multiple of it',
  },
  qty_tick_size: { name: 'qty_tick_size', label: 'Quantity Tick Size', kind: 'decimal', defaultValue: '1' },
  contract_size: { name: 'contract_size', label: 'Contract Size', kind: 'decimal', placeholder: 'e.g. 1000' },
  contract_unit: { name: 'contract_unit', label: 'Contract Unit', kind: 'text', maxLength: 100, placeholder: 'e.g. tonnes ($/t)' },
  settlement_days: { name: 'settlement_days', label: 'Settlement Days', kind: 'integer', defaultValue: '0' },
  series_months: {
    name: 'series_months',
    label: 'Series Months',
    kind: 'integer',
    placeholder: 'e.g. 36',
    description: 'Contract months listed from the current one',
  },
  currency: { name: 'currency', label: 'Currency', kind: 'text', maxLength: 3, defaultValue: DEFAULT_CURRENCY },
  exchange: { name: 'exchange', label: 'Primary Exchange', kind: 'select', options: options(EXCHANGES) },
  exchange_mics: {
    name: 'exchange_mics',
    label: 'Exchange MICs',
    kind: 'text',
    maxLength: 200,
    defaultValue: DEFAULT_EXCHANGE_MICS,
    description: 'Comma-separated, e.g. SGX,EEX',
  },
  trading_hours: { name: 'trading_hours', label: 'Trading Hours', kind: 'text', maxLength: 100, placeholder: 'e.g. 08:00-19:00 SGT' },
};
