import { z } from 'zod';
import { optionalLei } from './identifiers';
import { adminInteger, adminOptionalText, adminText, type AdminFields } from './admin-fields';

// Broker Information (spec 001 §2 "Broker Information Management", §3 "Broker information", "Broker
// contact", §5 "Broker form", §7, §8, §9 "Broker lists"): the executing broker companies, their FIX
// party data (what the execution reports' executing firm carries) and their contacts.

const BRANCH_TYPES = ['parent', 'branch', 'subsidiary'] as const;
const PARTY_ID_SOURCES = ['BIC', 'LEI', 'PROPRIETARY', 'MIC', 'ISITC'] as const;
/** Party type: a FIX PartyRole (452) value, 1 to 22 plus 24 (spec 001 §9). */
const PARTY_TYPES = [...Array.from({ length: 22 }, (_, i) => i + 1), 24] as const;
const PARTY_TYPE_LABELS: Record<number, string> = {
  1: 'Executing Firm',
  2: 'Broker of Credit',
  3: 'Client ID',
  4: 'Clearing Firm',
  5: 'Investor ID',
  6: 'Introducing Firm',
  7: 'Entering Firm',
  8: 'Locate/Lending Firm',
  9: 'Fund Manager Client ID',
  10: 'Settlement Location',
  11: 'Order Origination Trader',
  12: 'Executing Trader',
  13: 'Order Origination Firm',
  14: 'Giveup Clearing Firm',
  15: 'Correspondant Clearing Firm',
  16: 'Executing System',
  17: 'Contra Firm',
  18: 'Contra Clearing Firm',
  19: 'Sponsoring Firm',
  20: 'Underlying Contra Firm',
  21: 'Clearing Organization',
  22: 'Exchange',
  24: 'Customer Account',
};
const CONTACT_TYPES = ['business', 'trading_desk', 'backoffice', 'it_support'] as const;
export const CONTACT_TYPE_LABELS: Record<(typeof CONTACT_TYPES)[number], string> = {
  business: 'Business',
  trading_desk: 'Trading Desk',
  backoffice: 'Back Office',
  it_support: 'IT Support',
};
const CONTACT_TIMEZONES = ['Asia/Singapore', 'Asia/Hong_Kong', 'Asia/Tokyo', 'Europe/London', 'America/New_York', 'UTC'] as const;
const DEFAULT_AVAILABILITY_HOURS = '09:00-17:00';
const DEFAULT_CONTACT_TIMEZONE = 'Asia/Singapore';
/** Spec 001 §9: logo at most 500KB. */
export const LOGO_MAX_BYTES = 512_000;
/**
 * What a logo may hold, checked before it is parsed: parsing and sanitising deeply nested
 * elements, countless elements, attributes or comments stalls the server (quadratic in the nesting, in
 * one element's attributes and in the comments removed). A real logo nests 5-20 levels and has hundreds
 * of elements, a few attributes each and a comment or two.
 */
export const LOGO_MAX_DEPTH = 100;
export const LOGO_MAX_ELEMENTS = 5_000;
export const LOGO_MAX_ATTRIBUTES = 20_000;
export const LOGO_MAX_ELEMENT_ATTRIBUTES = 100;
/** Comments, CDATA sections, processing instructions and doctypes. */
export const LOGO_MAX_COMMENTS = 100;

/** Spec 001 §5 "Broker form" and §8 "Brokers": the screen's texts. */
export const BrokerText = {
  svgOnly: 'Please upload an SVG file only',
  logoTooLarge: 'Logo file must be less than 500KB',
  logoTooDeep: `The logo nests its elements more than ${LOGO_MAX_DEPTH} levels deep: please simplify it`,
  logoHtml: (tag: string) => `The logo holds HTML (${tag}), not only SVG: please upload a plain SVG file`,
  logoTooManyElements: `The logo has more than ${LOGO_MAX_ELEMENTS.toLocaleString('en-US')} elements: please simplify it`,
  logoTooManyAttributes: `The logo has more than ${LOGO_MAX_ATTRIBUTES.toLocaleString('en-US')} attributes, or an element with more than ${LOGO_MAX_ELEMENT_ATTRIBUTES}: please simplify it`,
  logoTooManyComments: `The logo has more than ${LOGO_MAX_COMMENTS} comments (or CDATA sections, processing instructions): please simplify it`,
  saveFirst: 'Please save the broker information first',
  created: 'Broker information created successfully!',
  updated: 'Broker information updated successfully',
  deleted: (name: string) => `Broker ${name} deleted successfully`,
  contactAdded: 'Contact added successfully!',
  contactUpdated: 'Contact updated successfully',
  contactDeleted: 'Contact deleted successfully',
  fetchContactsFailed: 'Failed to fetch contacts',
  contactFailed: 'Contact operation failed',
  fetchFailed: 'Failed to fetch broker information',
  saveFailed: 'Failed to save broker information',
  deleteFailed: 'Failed to delete broker information',
  contactReach: 'A contact needs an e-mail or a primary phone',
  parentNotParent: 'must be a broker whose branch type is parent',
  parentSelf: 'cannot be the broker itself',
} as const;

const enumOf = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? fallback : v),
    z.enum(values, { error: `must be one of ${values.join(', ')}` }),
  );

const optionalEmail = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v),
  z
    .string({ error: 'must be an e-mail address' })
    .max(254, 'has at most 254 characters')
    .regex(/^[^\s@<>"']+@[^\s@<>"']+\.[^\s@<>"']+$/, 'must be an e-mail address such as desk@broker.com')
    .nullable()
    .optional(),
);
const optionalPhone = adminOptionalText(32).refine(
  (s) => s == null || /^\+?[0-9 ()-]{5,31}$/.test(s),
  'must be a phone number such as +65 6123 4567',
);

const BrokerShape = {
  company_name: adminText(200).min(1, 'is required'),
  branch_type: enumOf(BRANCH_TYPES, 'branch'),
  /** Empty means none (sent as null); a parent-type broker has none. */
  parent_company_id: z.preprocess((v) => (v === '' ? null : v), adminInteger(1, 2_147_483_647, 'a broker id').nullable().optional()),
  address_line1: adminOptionalText(200),
  address_line2: adminOptionalText(200),
  city: adminOptionalText(100),
  state_province: adminOptionalText(100),
  postal_code: adminOptionalText(20),
  country: adminOptionalText(100),
  lei: optionalLei,
  party_type: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 1 : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z
      .number({ error: 'must be a FIX PartyRole: 1 to 22 or 24' })
      .refine((n) => (PARTY_TYPES as readonly number[]).includes(n), 'must be a FIX PartyRole: 1 to 22 or 24'),
  ),
  party_id: adminOptionalText(64),
  party_id_source: enumOf(PARTY_ID_SOURCES, 'PROPRIETARY'),
  clearing_firm_name: adminOptionalText(200),
  clearing_firm_id: adminOptionalText(64),
  regulatory_id: adminOptionalText(64),
  is_active: z.boolean({ error: 'must be true or false' }).default(true),
  notes: adminOptionalText(4000),
  /** SVG text; sanitised on the server before it is stored. '' or null removes the logo. */
  company_logo: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ error: 'must be SVG text' })
      .refine((s) => new TextEncoder().encode(s).length < LOGO_MAX_BYTES, BrokerText.logoTooLarge)
      .refine((s) => /<svg[\s>]/i.test(s), BrokerText.svgOnly)
      .nullable()
      .optional(),
  ),
};

/** POST /api/broker-information. */
export const CreateBrokerSchema = z.strictObject(BrokerShape);
export type CreateBrokerInput = z.input<typeof CreateBrokerSchema>;
export type BrokerValues = z.output<typeof CreateBrokerSchema>;

/** PUT /api/broker-information/{id}: fields left out keep their value; read-only fields echoed back are ignored. */
export const UpdateBrokerSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(BrokerShape).map(([k, v]) => [k, v.optional()])),
  id: z.unknown().optional(),
  parent_company_name: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  contact_count: z.unknown().optional(),
}) as unknown as z.ZodType<Partial<BrokerValues>, Partial<CreateBrokerInput> & Record<string, unknown>>;

export const BrokerIdParamsSchema = z.strictObject({ id: adminInteger(1, 2_147_483_647, 'a broker id') });
export const ContactIdParamsSchema = z.strictObject({
  id: adminInteger(1, 2_147_483_647, 'a broker id'),
  contactId: adminInteger(1, 2_147_483_647, 'a contact id'),
});

export interface Broker {
  id: number;
  company_name: string;
  branch_type: (typeof BRANCH_TYPES)[number];
  parent_company_id: number | null;
  parent_company_name: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state_province: string | null;
  postal_code: string | null;
  country: string | null;
  lei: string | null;
  party_type: number;
  party_id: string | null;
  party_id_source: (typeof PARTY_ID_SOURCES)[number];
  clearing_firm_name: string | null;
  clearing_firm_id: string | null;
  regulatory_id: string | null;
  is_active: boolean;
  notes: string | null;
  /** Sanitised SVG text: shown as an image (a data: URL in an <img>), never as inline markup. */
  company_logo: string | null;
  created_at: string;
  updated_at: string;
}

const ContactShape = {
  contact_type: enumOf(CONTACT_TYPES, 'business'),
  contact_name: adminText(200).min(1, 'is required'),
  title: adminOptionalText(100),
  department: adminOptionalText(100),
  email: optionalEmail,
  phone_primary: optionalPhone,
  phone_mobile: optionalPhone,
  phone_direct: optionalPhone,
  is_primary: z.boolean({ error: 'must be true or false' }).default(false),
  is_emergency: z.boolean({ error: 'must be true or false' }).default(false),
  availability_hours: z.preprocess(
    (v) =>
      v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
        ? DEFAULT_AVAILABILITY_HOURS
        : typeof v === 'string'
          ? v.trim()
          : v,
    z
      .string({ error: 'must be hours such as 09:00-17:00' })
      .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$/, 'must be hours such as 09:00-17:00'),
  ),
  timezone: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? DEFAULT_CONTACT_TIMEZONE : v),
    z
      .string({ error: 'must be a time zone such as Asia/Singapore' })
      .max(64)
      .regex(/^(UTC|[A-Z][A-Za-z_]+\/[A-Za-z_/+-]+)$/, 'must be a time zone such as Asia/Singapore'),
  ),
  is_active: z.boolean({ error: 'must be true or false' }).default(true),
  notes: adminOptionalText(2000),
};

/** A contact needs a name and an e-mail or a primary phone (spec 001 §5). */
function contactReach(c: { email?: string | null; phone_primary?: string | null }, ctx: z.RefinementCtx) {
  if (!c.email && !c.phone_primary) ctx.addIssue({ code: 'custom', path: ['email'], message: BrokerText.contactReach });
}

/** POST /api/broker-information/{id}/contacts. */
export const CreateContactSchema = z.strictObject(ContactShape).superRefine(contactReach);
export type CreateContactInput = z.input<typeof CreateContactSchema>;

/** PUT …/contacts/{contactId}: the whole contact (the form sends every field). */
export const UpdateContactSchema = z
  .strictObject({
    ...ContactShape,
    id: z.unknown().optional(),
    broker_id: z.unknown().optional(),
    created_at: z.unknown().optional(),
    updated_at: z.unknown().optional(),
  })
  .superRefine(contactReach);

export interface BrokerContact {
  id: number;
  broker_id: number;
  contact_type: (typeof CONTACT_TYPES)[number];
  contact_name: string;
  title: string | null;
  department: string | null;
  email: string | null;
  phone_primary: string | null;
  phone_mobile: string | null;
  phone_direct: string | null;
  is_primary: boolean;
  is_emergency: boolean;
  availability_hours: string;
  timezone: string;
  is_active: boolean;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

const options = <T extends string | number>(values: readonly T[], label?: (v: T) => string) =>
  values.map((v) => ({ value: String(v), label: label ? label(v) : String(v) }));

/** The broker dialog's tabs (spec 001 §2: Basic Info, Address, FIX Party Info, Contacts, Notes); each field names its tab. */
export const BROKER_TABS = [
  { value: 'basic', label: 'Basic Info' },
  { value: 'address', label: 'Address' },
  { value: 'party', label: 'FIX Party Info' },
  { value: 'contacts', label: 'Contacts' },
  { value: 'notes', label: 'Notes' },
] as const;
export type BrokerTab = (typeof BROKER_TABS)[number]['value'];

/** How each broker field is edited (company_logo has its own upload control on the Basic Info tab). */
export const BROKER_FIELDS: AdminFields<CreateBrokerInput> = {
  company_name: { name: 'company_name', tab: 'basic', label: 'Company Name', kind: 'text', required: true, maxLength: 200 },
  branch_type: {
    name: 'branch_type',
    tab: 'basic',
    label: 'Branch Type',
    kind: 'select',
    required: true,
    options: options(BRANCH_TYPES, (v) => v[0]!.toUpperCase() + v.slice(1)),
    defaultValue: 'branch',
  },
  parent_company_id: {
    name: 'parent_company_id',
    tab: 'basic',
    label: 'Parent Company',
    kind: 'select',
    placeholder: 'None',
    whenEmpty: 'null',
    description: 'Parent-type brokers only',
  },
  is_active: { name: 'is_active', tab: 'basic', label: 'Active', kind: 'boolean', defaultValue: true },
  company_logo: {
    name: 'company_logo',
    tab: 'basic',
    label: 'Company Logo (SVG)',
    kind: 'text',
    description: 'SVG only, under 500KB; sanitised on the server',
  },
  address_line1: { name: 'address_line1', tab: 'address', label: 'Address Line 1', kind: 'text', maxLength: 200, span: 2 },
  address_line2: { name: 'address_line2', tab: 'address', label: 'Address Line 2', kind: 'text', maxLength: 200, span: 2 },
  city: { name: 'city', tab: 'address', label: 'City', kind: 'text', maxLength: 100 },
  state_province: { name: 'state_province', tab: 'address', label: 'State / Province', kind: 'text', maxLength: 100 },
  postal_code: { name: 'postal_code', tab: 'address', label: 'Postal Code', kind: 'text', maxLength: 20 },
  country: { name: 'country', tab: 'address', label: 'Country', kind: 'text', maxLength: 100 },
  lei: {
    name: 'lei',
    tab: 'party',
    label: 'LEI',
    kind: 'text',
    maxLength: 20,
    description: 'Legal Entity Identifier (ISO 17442): 20 characters, the last 2 check digits',
  },
  party_type: {
    name: 'party_type',
    tab: 'party',
    label: 'Party Type (PartyRole 452)',
    kind: 'select',
    required: true,
    options: options(PARTY_TYPES, (v) => `${v} - ${PARTY_TYPE_LABELS[v]}`),
    defaultValue: '1',
  },
  party_id: { name: 'party_id', tab: 'party', label: 'Party ID (448)', kind: 'text', maxLength: 64 },
  party_id_source: {
    name: 'party_id_source',
    tab: 'party',
    label: 'Party ID Source (447)',
    kind: 'select',
    required: true,
    options: options(PARTY_ID_SOURCES),
    defaultValue: 'PROPRIETARY',
  },
  clearing_firm_name: { name: 'clearing_firm_name', tab: 'party', label: 'Clearing Firm Name', kind: 'text', maxLength: 200 },
  clearing_firm_id: { name: 'clearing_firm_id', tab: 'party', label: 'Clearing Firm ID', kind: 'text', maxLength: 64 },
  regulatory_id: { name: 'regulatory_id', tab: 'party', label: 'Regulatory ID', kind: 'text', maxLength: 64 },
  notes: { name: 'notes', tab: 'notes', label: 'Notes', kind: 'textarea', maxLength: 4000, span: 2 },
};

export const CONTACT_FIELDS: AdminFields<CreateContactInput> = {
  contact_type: {
    name: 'contact_type',
    label: 'Contact Type',
    kind: 'select',
    required: true,
    options: options(CONTACT_TYPES, (v) => CONTACT_TYPE_LABELS[v]),
    defaultValue: 'business',
  },
  contact_name: { name: 'contact_name', label: 'Name', kind: 'text', required: true, maxLength: 200 },
  title: { name: 'title', label: 'Title', kind: 'text', maxLength: 100 },
  department: { name: 'department', label: 'Department', kind: 'text', maxLength: 100 },
  email: { name: 'email', label: 'Email', kind: 'text', maxLength: 254, description: 'An e-mail or a primary phone is required' },
  phone_primary: { name: 'phone_primary', label: 'Primary Phone', kind: 'text', maxLength: 32 },
  phone_mobile: { name: 'phone_mobile', label: 'Mobile', kind: 'text', maxLength: 32 },
  phone_direct: { name: 'phone_direct', label: 'Direct Line', kind: 'text', maxLength: 32 },
  availability_hours: {
    name: 'availability_hours',
    label: 'Availability Hours',
    kind: 'text',
    maxLength: 11,
    defaultValue: DEFAULT_AVAILABILITY_HOURS,
  },
  timezone: {
    name: 'timezone',
    label: 'Time Zone',
    kind: 'select',
    options: options(CONTACT_TIMEZONES),
    defaultValue: DEFAULT_CONTACT_TIMEZONE,
  },
  is_primary: { name: 'is_primary', label: 'Primary contact', kind: 'boolean', defaultValue: false },
  is_emergency: { name: 'is_emergency', label: 'Emergency contact', kind: 'boolean', defaultValue: false },
  is_active: { name: 'is_active', label: 'Active', kind: 'boolean', defaultValue: true },
  notes: { name: 'notes', label: 'Notes', kind: 'textarea', maxLength: 2000, span: 2 },
};
