import { z } from 'zod';

// Client connectors: one FIX session each (spec 001 §3 fields, §5 validations, §9 defaults).

export const FIX_VERSIONS = ['FIX.4.2', 'FIX.4.4', 'FIX.5.0', 'FIXT.1.1'] as const;
export const RESET_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'NEVER'] as const;
export const CONNECTOR_TIMEZONES = ['Asia/Singapore', 'UTC', 'Asia/Tokyo', 'Europe/London', 'America/New_York'] as const;
export const EXECUTION_ID_PREFIX_MAX = 3;
export const LEI_MAX = 20;

/** Fields only an administrator may read. */
export const CONNECTOR_SECRET_FIELDS = ['fix_password', 'tls_key'] as const;

const text = (max: number) => z.string().trim().max(max);
const optText = (max: number) => text(max).nullable().optional();
const time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time HH:MM or HH:MM:SS')
  .transform((s) => (s.length === 5 ? `${s}:00` : s));
const tradingDays = z
  .string()
  .trim()
  .max(40)
  .regex(/^[MTWFS](,[MTWFS])*$/, "must be day letters separated by commas, e.g. 'M,T,W,T,F'");
const port = z.coerce.number().int().min(1).max(65535);
const ipList = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (s) => s === '' || s.split(/[,\s]+/).filter(Boolean).every((p) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p)),
    'must be IP addresses or CIDR ranges separated by commas',
  );

/**
 * An http(s) address and nothing else: no `javascript:`, `data:`, `file:` or protocol-relative URL can
 * reach a link or an image of any screen (issue 21).
 */
export const httpUrl = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => {
      if (s === '') return true;
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && /^https?:\/\//i.test(s);
      } catch {
        return false;
      }
    }, 'must be an http:// or https:// address');

/** A new connector's HeartBtInt (108) settings (spec 001 §9: heartbeat 30 s; issue 21: a Logon may ask for 5-120 s). */
export const HEARTBEAT_DEFAULTS = { heartbeatint: 30, heartbeat_min_sec: 5, heartbeat_max_sec: 120 } as const;

/**
 * The one rule across the heartbeat fields (checked on the row as it will be after a write): the range is
 * not empty, and the connector's own interval, the one its documents and settings file give, is inside it.
 */
export function heartbeatSettingsProblem(h: { heartbeatint: number; heartbeat_min_sec: number; heartbeat_max_sec: number }):
  | { field: 'heartbeat_min_sec' | 'heartbeatint'; message: string }
  | undefined {
  if (h.heartbeat_min_sec > h.heartbeat_max_sec) {
    return { field: 'heartbeat_min_sec', message: `Minimum heartbeat ${h.heartbeat_min_sec} s is above the maximum ${h.heartbeat_max_sec} s` };
  }
  if (h.heartbeatint < h.heartbeat_min_sec || h.heartbeatint > h.heartbeat_max_sec) {
    return { field: 'heartbeatint', message: `Heartbeat interval ${h.heartbeatint} s is outside the allowed range ${h.heartbeat_min_sec}-${h.heartbeat_max_sec} s` };
  }
  return undefined;
}

const ConnectorFields = {
  target_comp_id: text(64).min(1).optional(),
  fix_version: z.enum(FIX_VERSIONS).optional(),
  broker_id: z.number().int().positive().nullable().optional(),
  client_name: optText(200),
  client_contact: optText(200),
  client_email: z.string().trim().max(254).email('must be an e-mail address').nullable().optional().or(z.literal('')),
  client_phone: optText(50),
  client_lei: z.string().trim().max(LEI_MAX, `LEI has at most ${LEI_MAX} characters`).nullable().optional(),
  lei: z.string().trim().max(LEI_MAX, `LEI has at most ${LEI_MAX} characters`).nullable().optional(),
  company_website: httpUrl(500).nullable().optional(),
  company_name: optText(200),
  logo_url: httpUrl(2000).nullable().optional(),
  is_active: z.boolean().optional(),
  test_port: port.nullable().optional(),
  host: optText(255),
  port: port.optional(),
  timeout: z.coerce.number().int().min(100).max(600_000).optional(),
  sessiontimeout: z.coerce.number().int().min(100).max(600_000).optional(),
  protocol: z.enum(['ascii', 'binary']).optional(),
  dictionary: z.enum(['repo44', 'fixt11', 'custom']).optional(),
  fix_username: optText(128),
  fix_password: z.string().max(256).nullable().optional(),
  heartbeatint: z.coerce.number().int().min(1).max(3600).optional(),
  heartbeat_min_sec: z.coerce.number().int().min(1).max(3600).optional(),
  heartbeat_max_sec: z.coerce.number().int().min(1).max(3600).optional(),
  heartbeat_allow_zero: z.boolean().optional(),
  targetsubid: optText(64),
  encryptmethod: z.coerce.number().int().min(0).max(3).optional(),
  reset_frequency: z.enum(RESET_FREQUENCIES).optional(),
  start_time: time.optional(),
  end_time: time.optional(),
  trading_days: tradingDays.optional(),
  timezone: z
    .string()
    .trim()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Asia/Singapore')
    .optional(),
  max_orders_per_second: z.coerce.number().int().min(1).max(100_000).optional(),
  alert_email: z.string().trim().max(254).email('must be an e-mail address').nullable().optional().or(z.literal('')),
  enabletrace: z.boolean().optional(),
  notes: optText(5000),
  whitelisted_ips: ipList.nullable().optional(),
  receive_notifications: z.boolean().optional(),
  whatsapp_notifications: z.boolean().optional(),
  trading_enabled: z.boolean().optional(),
  risk_check_enabled: z.boolean().optional(),
  resetseqnumflag: z.boolean().optional(),
  resetseqnums: z.boolean().optional(),
  useresetseqnums: z.boolean().optional(),
};

const compId = z
  .string({ error: 'Component ID is required' })
  .trim()
  .min(1, 'Component ID is required')
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'may contain letters, digits, _ . and - only');

const executionIdPrefix = z
  .string({ error: 'Execution ID prefix is required' })
  .trim()
  .min(1, 'Execution ID prefix is required')
  .max(EXECUTION_ID_PREFIX_MAX, `Execution ID prefix has at most ${EXECUTION_ID_PREFIX_MAX} characters`)
  .regex(/^[A-Za-z0-9]+$/, 'letters and digits only');

/**
 * Read-only fields a client may echo back from a read (as every admin resource takes them): accepted and
 * ignored. The certificate, its key and the desk CA are among them: only generate-certs writes them, so a
 * PUT cannot swap in a certificate the desk's CA did not issue.
 */
const CONNECTOR_READ_ONLY = {
  id: z.unknown().optional(),
  is_connected: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  tls_key: z.unknown().optional(),
  tls_cert: z.unknown().optional(),
  tls_ca: z.unknown().optional(),
  tls_enabled: z.unknown().optional(),
  live: z.unknown().optional(),
};
export const CONNECTOR_READ_ONLY_FIELDS = Object.keys(CONNECTOR_READ_ONLY) as (keyof typeof CONNECTOR_READ_ONLY)[];

export const CreateConnectorSchema = z.strictObject({
  comp_id: compId,
  execution_id_prefix: executionIdPrefix,
  ...ConnectorFields,
  ...CONNECTOR_READ_ONLY,
});
export type CreateConnectorInput = z.infer<typeof CreateConnectorSchema>;

/** An update may not change comp_id or execution_id_prefix (fixed once created); echoing them unchanged is fine. */
export const UpdateConnectorSchema = z.strictObject({
  comp_id: compId.optional(),
  execution_id_prefix: executionIdPrefix.optional(),
  ...ConnectorFields,
  ...CONNECTOR_READ_ONLY,
});
export type UpdateConnectorInput = z.infer<typeof UpdateConnectorSchema>;

export const CompIdParamsSchema = z.strictObject({ comp_id: compId });

export interface ClientConnector {
  id: number;
  comp_id: string;
  execution_id_prefix: string;
  target_comp_id: string;
  fix_version: string;
  broker_id: number | null;
  client_name: string | null;
  client_contact: string | null;
  client_email: string | null;
  client_phone: string | null;
  client_lei: string | null;
  /** Same as client_lei (the spec's forms use both names). */
  lei: string | null;
  company_website: string | null;
  company_name: string | null;
  logo_url: string | null;
  is_active: boolean;
  is_connected: boolean;
  test_port: number | null;
  host: string | null;
  port: number;
  timeout: number;
  sessiontimeout: number;
  protocol: string;
  dictionary: string;
  fix_username: string | null;
  /** Only for administrators; null for everyone else. */
  fix_password: string | null;
  heartbeatint: number;
  /** The HeartBtInt (108) a Logon may ask for, in seconds; 0 only when heartbeat_allow_zero. */
  heartbeat_min_sec: number;
  heartbeat_max_sec: number;
  heartbeat_allow_zero: boolean;
  targetsubid: string | null;
  encryptmethod: number;
  reset_frequency: (typeof RESET_FREQUENCIES)[number];
  start_time: string;
  end_time: string;
  trading_days: string;
  timezone: string;
  max_orders_per_second: number;
  alert_email: string | null;
  enabletrace: boolean;
  /** Only for administrators; null for everyone else. */
  tls_key: string | null;
  tls_cert: string | null;
  tls_ca: string | null;
  tls_enabled: boolean;
  notes: string | null;
  whitelisted_ips: string | null;
  receive_notifications: boolean;
  whatsapp_notifications: boolean;
  trading_enabled: boolean;
  risk_check_enabled: boolean;
  resetseqnumflag: boolean;
  resetseqnums: boolean;
  useresetseqnums: boolean;
  created_at: string;
  updated_at: string;
  /** In the list only: the session and capability state an operator needs at a glance. */
  live?: ConnectorLiveState;
}

/** A connector's FIX session as the desk sees it, and how many capabilities it has. */
export interface ConnectorLiveState {
  /** Logged on at any live node of the desk. */
  logged_on: boolean;
  /** The client's address when it is logged on at the node answering. */
  remote_address: string | null;
  /** The next MsgSeqNum we send and the next we expect (the live session's, else the stored ones). */
  next_sender_seq: number | null;
  next_target_seq: number | null;
  capabilities: number;
  capabilities_enabled: number;
}
