import { z } from 'zod';
import { adminInteger, adminOptionalText, type AdminFields } from './admin-fields';
import { ROLES, ROLE_LABELS, USERNAME_MAX, PASSWORD_MAX, type Role } from './auth';

/** Kinds of account (spec 001 §6). */
const USER_TYPES = ['client', 'broker', 'admin', 'system'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const USER_TYPE_LABELS: Record<UserType, string> = {
  client: 'Client',
  broker: 'Broker/Trader',
  admin: 'Admin',
  system: 'System',
};

const TRADER_ID_SOURCES = ['PROPRIETARY', 'LICENSE', 'REGULATORY', 'EXCHANGE'] as const;
export type TraderIdSource = (typeof TRADER_ID_SOURCES)[number];

/**
 * The FIX PartyIDSource (447) a trader ID source is sent as when a report names the executing trader:
 * a firm's own or licence number is a proprietary code (D); an exchange or regulator's identifier is a
 * generally accepted market participant identifier (C).
 */
export const TRADER_PARTY_ID_SOURCE: Record<TraderIdSource, string> = { PROPRIETARY: 'D', LICENSE: 'D', REGULATORY: 'C', EXCHANGE: 'C' };

/** The password policy's length (the common-password and username checks run on the server). */
export const PASSWORD_MIN = 12;

/** Spec 001 §5 "User form" and §8 "Users": the screen's texts. */
export const UserText = {
  usernameAndEmail: 'Username and email are required',
  passwordForNew: 'Password is required for new users',
  brokerBranch: 'Broker branch is required for broker users',
  traderId: 'Trader ID is required for broker users',
  traderFullName: 'Trader full name is required for broker users',
  deleted: (name: string) => `User ${name} deleted successfully`,
  created: 'User created successfully',
  updated: 'User updated successfully',
  fetchFailed: 'Failed to fetch users',
  connectionError: 'Error connecting to server',
  deleteFailed: 'Failed to delete user',
  lastAdmin: 'The last active administrator cannot be deleted, deactivated or demoted',
  passwordTooShort: `must have at least ${PASSWORD_MIN} characters`,
  passwordIsUsername: 'must not be the username or contain it',
  passwordRepeated: 'must not be one character repeated',
  passwordBlank: 'must not be only spaces',
  passwordCommon: 'is too common: it is in the list of commonly used passwords',
} as const;

/** The password policy as the screens state it (apps/server/src/auth/password-policy.ts checks it). */
export const PASSWORD_POLICY_TEXT = `At least ${PASSWORD_MIN} characters, not containing the username, not one character repeated or only spaces, not a common password`;

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .enum(values, { error: `must be one of ${values.join(', ')}` })
      .nullable()
      .optional(),
  );

const email = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string({ error: UserText.usernameAndEmail })
    .min(1, UserText.usernameAndEmail)
    .max(254, 'has at most 254 characters')
    .regex(/^[^\s@<>"']+@[^\s@<>"']+\.[^\s@<>"']+$/, 'must be an e-mail address such as name@example.com'),
);

const username = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string({ error: UserText.usernameAndEmail })
    .min(1, UserText.usernameAndEmail)
    .max(USERNAME_MAX, `has at most ${USERNAME_MAX} characters`)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]*$/, 'must be letters, digits and . _ @ - (starting with a letter or digit)'),
);

/** A new password: the length half of the policy (PASSWORD_MIN to PASSWORD_MAX characters, not trimmed). */
const newPassword = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .min(PASSWORD_MIN, UserText.passwordTooShort)
    .max(PASSWORD_MAX, `has at most ${PASSWORD_MAX} characters`);

/** An administrator's new user's password (spec 001 §5: 'Password is required for new users'). */
const NewPasswordSchema = newPassword(UserText.passwordForNew);

const phone = adminOptionalText(32).refine(
  (s) => s == null || /^\+?[0-9 ()-]{5,31}$/.test(s),
  'must be a phone number such as +65 6123 4567',
);

const UserShape = {
  username,
  email,
  first_name: adminOptionalText(100),
  last_name: adminOptionalText(100),
  whatsapp_number: phone,
  password: NewPasswordSchema,
  role: z.preprocess((v) => (v === undefined || v === '' ? 'user' : v), z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` })),
  user_type: z.preprocess(
    (v) => (v === undefined || v === '' ? 'broker' : v),
    z.enum(USER_TYPES, { error: `must be one of ${USER_TYPES.join(', ')}` }),
  ),
  is_active: z.boolean({ error: 'must be true or false' }).default(true),
  broker_branch_id: z.preprocess((v) => (v === '' ? null : v), adminInteger(1, 2_147_483_647, 'a broker id').nullable().optional()),
  trader_id: adminOptionalText(64),
  trader_license: adminOptionalText(64),
  trader_full_name: adminOptionalText(200),
  trader_party_id_source: optionalEnum(TRADER_ID_SOURCES),
};

/** The three fields a broker-type user must have (spec 001 §5, §6), checked on the merged record. */
function brokerUserProblems(u: {
  user_type?: string | null;
  broker_branch_id?: number | null;
  trader_id?: string | null;
  trader_full_name?: string | null;
}): { path: string; message: string }[] {
  if (u.user_type !== 'broker') return [];
  const out: { path: string; message: string }[] = [];
  if (u.broker_branch_id == null) out.push({ path: 'broker_branch_id', message: UserText.brokerBranch });
  if (!u.trader_id) out.push({ path: 'trader_id', message: UserText.traderId });
  if (!u.trader_full_name) out.push({ path: 'trader_full_name', message: UserText.traderFullName });
  return out;
}

/**
 * The broker-type rule on an edit (checked on the merged record): what the change leaves missing, except
 * what the user already lacked as a broker-type user. A record saved before the rule, or seeded without a
 * branch (the demo viewer), can still have its password reset or be made active again; once its type
 * becomes Broker/Trader, or a rule field is changed, the rule holds in full for what is still missing.
 */
export function brokerUserProblemsOfChange(
  before: Parameters<typeof brokerUserProblems>[0],
  after: Parameters<typeof brokerUserProblems>[0],
): { path: string; message: string }[] {
  const already = before.user_type === 'broker' ? new Set(brokerUserProblems(before).map((p) => p.path)) : new Set<string>();
  return brokerUserProblems(after).filter((p) => !already.has(p.path));
}

const withBrokerRule = <T extends z.ZodType<Record<string, unknown>>>(schema: T) =>
  schema.superRefine((u, ctx) => {
    for (const p of brokerUserProblems(u as Parameters<typeof brokerUserProblems>[0]))
      ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
  });

/** POST /api/users. Unknown fields are refused. */
export const CreateUserSchema = withBrokerRule(z.strictObject(UserShape));
export type CreateUserInput = z.input<typeof CreateUserSchema>;
export type UserValues = z.output<typeof CreateUserSchema>;

/**
 * PUT /api/users/{user_id}: fields left out keep their value; a blank password is dropped by the form
 * (and means "unchanged" here). The username cannot change (locked when editing); the row's read-only
 * fields may be echoed back and are ignored. The broker-type rule runs on the merged record (server).
 */
export const UpdateUserSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(UserShape).map(([k, v]) => [k, v.optional()])),
  password: z.preprocess((v) => (v === '' || v === null ? undefined : v), NewPasswordSchema.optional()),
  user_id: z.unknown().optional(),
  last_login: z.unknown().optional(),
  broker_company_name: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  has_orders: z.unknown().optional(),
}) as unknown as z.ZodType<Partial<UserValues>, Partial<CreateUserInput> & Record<string, unknown>>;

export const UserIdParamsSchema = z.strictObject({ user_id: adminInteger(1, 2_147_483_647, 'a user id') });

/** One row of GET /api/users (admin only). Timestamps are ISO strings. Never a password or its hash. */
export interface UserSummary {
  user_id: number;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  whatsapp_number: string | null;
  role: Role;
  user_type: UserType;
  is_active: boolean;
  last_login: string | null;
  broker_branch_id: number | null;
  broker_company_name: string | null;
  trader_id: string | null;
  trader_license: string | null;
  trader_full_name: string | null;
  trader_party_id_source: TraderIdSource | null;
  created_at: string;
  updated_at: string;
}

export interface UsersListResponse {
  success: true;
  users: UserSummary[];
}

/** One entry of the change trail of users and brokers (GET /api/users/changes, admin only). */
export interface OrganisationChange {
  id: number;
  entity: string;
  entity_id: number;
  action: 'CREATE' | 'UPDATE' | 'DELETE';
  changed_by: string;
  /** What changed: field names (a password change names the field, never the value). */
  fields: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
}

const options = <T extends string>(values: readonly T[], labels?: Record<T, string>) =>
  values.map((value) => ({ value, label: labels?.[value] ?? value }));

/** How each field is edited on the User Management screen (order = the form's order). */
export const USER_FIELDS: AdminFields<CreateUserInput> = {
  username: {
    name: 'username',
    label: 'Username',
    kind: 'text',
    required: true,
    maxLength: USERNAME_MAX,
    placeholder: 'e.g. jtan',
    lockedOnEdit: 'The username cannot be changed',
  },
  email: { name: 'email', label: 'Email', kind: 'text', required: true, maxLength: 254, placeholder: 'name@broker.com' },
  first_name: { name: 'first_name', label: 'First Name', kind: 'text', maxLength: 100 },
  last_name: { name: 'last_name', label: 'Last Name', kind: 'text', maxLength: 100 },
  password: {
    name: 'password',
    label: 'Password',
    kind: 'password',
    required: true,
    maxLength: PASSWORD_MAX,
    description: PASSWORD_POLICY_TEXT,
    whenEmpty: 'omit',
  },
  whatsapp_number: { name: 'whatsapp_number', label: 'WhatsApp Number', kind: 'text', maxLength: 32, placeholder: '+65 6123 4567' },
  role: { name: 'role', label: 'Role', kind: 'select', required: true, options: options(ROLES, ROLE_LABELS), defaultValue: 'user' },
  user_type: {
    name: 'user_type',
    label: 'User Type',
    kind: 'select',
    required: true,
    options: options(USER_TYPES, USER_TYPE_LABELS),
    defaultValue: 'broker',
  },
  is_active: {
    name: 'is_active',
    label: 'Active',
    kind: 'boolean',
    defaultValue: true,
    description: 'An inactive user cannot sign in; deactivating ends their sessions at once',
  },
  broker_branch_id: { name: 'broker_branch_id', label: 'Broker Branch', kind: 'select', placeholder: 'Choose a broker…' },
  trader_id: {
    name: 'trader_id',
    label: 'Trader ID',
    kind: 'text',
    maxLength: 64,
    description: 'Named as the executing trader on their fills',
  },
  trader_party_id_source: {
    name: 'trader_party_id_source',
    label: 'Trader ID Source',
    kind: 'select',
    options: options(TRADER_ID_SOURCES),
  },
  trader_full_name: { name: 'trader_full_name', label: 'Trader Full Name', kind: 'text', maxLength: 200 },
  trader_license: { name: 'trader_license', label: 'Trader License', kind: 'text', maxLength: 64 },
};

/**
 * POST /api/account/password: the signed-in user's own password (the current one is required). The new
 * one must differ from it: a "change" to the same password would sign the other sessions out and
 * change nothing.
 */
export const ChangeOwnPasswordSchema = z
  .strictObject({
    current_password: z.string({ error: 'is required' }).min(1, 'is required').max(PASSWORD_MAX),
    new_password: newPassword('is required'),
  })
  .refine((v) => v.new_password !== v.current_password, { path: ['new_password'], message: 'must differ from the current password' });

export const AccountText = {
  passwordChanged: 'Password changed. Your other sessions were signed out.',
  wrongCurrent: 'The current password is not correct',
  tooManyWrongCurrent: (seconds: number) => `Too many wrong current passwords. Try again in ${seconds} seconds.`,
  sessionEnded: 'Session signed out',
} as const;

/** One of the signed-in user's own active sessions (GET /api/account/sessions). */
export interface AccountSession {
  id: number;
  /** The browser's user agent as it signed in. */
  device: string | null;
  address: string | null;
  since: string;
  last_seen_at: string;
  expires_at: string;
  /** The session this request came with. */
  current: boolean;
}

/** The signed-in user's own profile (GET /api/account). */
export interface AccountProfile {
  user_id: number;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  whatsapp_number: string | null;
  role: Role;
  user_type: UserType;
  last_login: string | null;
  broker_company_name: string | null;
  trader_id: string | null;
  trader_full_name: string | null;
  trader_party_id_source: TraderIdSource | null;
}
