import { z } from 'zod';
import { adminInteger } from './admin-fields';
import { optionalLei } from './identifiers';

// Client connectors: one FIX session each (spec 001 §3 fields, §5 validations, §9 defaults).

export const FIX_VERSIONS = ['FIX.4.2', 'FIX.4.4', 'FIX.5.0', 'FIXT.1.1'] as const;
export const RESET_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'NEVER'] as const;
export const CONNECTOR_TIMEZONES = ['Asia/Singapore', 'UTC', 'Asia/Tokyo', 'Europe/London', 'America/New_York'] as const;
export const EXECUTION_ID_PREFIX_MAX = 3;
/**
 * A connector's FIX session (docs/adr/0017): a client's own (orders in, reports out) or a drop copy
 * session, which receives a copy of the reports sent to the clients it names and never trades.
 */
export const SESSION_TYPES = ['order_entry', 'drop_copy'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];
export const SESSION_TYPE_LABELS: Record<SessionType, string> = { order_entry: 'Order Entry', drop_copy: 'Drop Copy' };
/**
 * A client that trades: every connector but a drop copy session. The screens that pick a client to
 * trade as, to filter orders or capabilities by, or to shape its reports list only these.
 */
export const isTradingClient = (c: { session_type?: SessionType | undefined }): boolean => c.session_type !== 'drop_copy';
/** Most clients one drop copy session names (none: every client). */
const DROP_COPY_OF_MAX = 500;
export const LEI_MAX = 20;

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
/** A whole number from min to max, given as a number or digits; the refusal in words (never zod's 'Too big: …'). */
const whole = (min: number, max: number, what = 'a whole number') => adminInteger(min, max, what);
const port = whole(1, 65535, 'a port number from 1 to 65535');
const ipList = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (s) =>
      s === '' ||
      s
        .split(/[,\s]+/)
        .filter(Boolean)
        .every((p) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p)),
    'must be IP addresses or CIDR ranges separated by commas',
  );

/** A web address of one of these schemes, written out with its `//` (or empty), else `message`. */
const webAddress = (max: number, schemes: readonly ('http' | 'https')[], message: string) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => {
      if (s === '') return true;
      try {
        const scheme = new URL(s).protocol.slice(0, -1);
        return schemes.some((x) => x === scheme) && s.slice(0, scheme.length + 3).toLowerCase() === `${scheme}://`;
      } catch {
        return false;
      }
    }, message);

/**
 * An http(s) address and nothing else: no `javascript:`, `data:`, `file:` or protocol-relative URL can
 * reach a link or an image of any screen.
 */
const httpUrl = (max: number) => webAddress(max, ['http', 'https'], 'must be an http:// or https:// address');

/**
 * A logo's address: https only, since the server fetches it (once, and serves the image from
 * the desk's own origin) and a plain http answer could be anyone's.
 */
const httpsUrl = (max: number) => webAddress(max, ['https'], 'must be an https:// address');

/** Where the desk serves a connector's logo from (same origin); `v` changes with the logo_url it was fetched from. */
export function connectorLogoPath(compId: string, version: string): string {
  return `/api/client-connectors/${encodeURIComponent(compId)}/logo?v=${encodeURIComponent(version)}`;
}

/** A new connector's HeartBtInt (108) settings (spec 001 §9: heartbeat 30 s; a Logon may ask for 5-120 s). */
export const HEARTBEAT_DEFAULTS = { heartbeatint: 30, heartbeat_min_sec: 5, heartbeat_max_sec: 120 } as const;

/**
 * The one rule across the heartbeat fields (checked on the row as it will be after a write): the range is
 * not empty, and the connector's own interval, the one its documents and settings file give, is inside it.
 */
export function heartbeatSettingsProblem(h: {
  heartbeatint: number;
  heartbeat_min_sec: number;
  heartbeat_max_sec: number;
}): { field: 'heartbeat_min_sec' | 'heartbeatint'; message: string } | undefined {
  if (h.heartbeat_min_sec > h.heartbeat_max_sec) {
    return {
      field: 'heartbeat_min_sec',
      message: `Minimum heartbeat ${h.heartbeat_min_sec} s is above the maximum ${h.heartbeat_max_sec} s`,
    };
  }
  if (h.heartbeatint < h.heartbeat_min_sec || h.heartbeatint > h.heartbeat_max_sec) {
    return {
      field: 'heartbeatint',
      message: `Heartbeat interval ${h.heartbeatint} s is outside the allowed range ${h.heartbeat_min_sec}-${h.heartbeat_max_sec} s`,
    };
  }
  return undefined;
}

const compId = z
  .string({ error: 'Component ID is required' })
  .trim()
  .min(1, 'Component ID is required')
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'may contain letters, digits, _ . and - only');

/** The clients a drop copy session copies: comp ids, each once, in the order given. */
const dropCopyOf = z
  .array(compId, { error: 'must be a list of client comp IDs' })
  .max(DROP_COPY_OF_MAX, `names at most ${DROP_COPY_OF_MAX} clients`)
  .transform((ids) => [...new Set(ids)]);

const ConnectorFields = {
  target_comp_id: text(64).min(1).optional(),
  fix_version: z.enum(FIX_VERSIONS).optional(),
  broker_id: z.number().int().positive().nullable().optional(),
  client_name: optText(200),
  client_contact: optText(200),
  client_email: z.string().trim().max(254).email('must be an e-mail address').nullable().optional().or(z.literal('')),
  client_phone: optText(50),
  client_lei: optionalLei,
  lei: optionalLei,
  company_website: httpUrl(500).nullable().optional(),
  company_name: optText(200),
  logo_url: httpsUrl(2000).nullable().optional(),
  is_active: z.boolean().optional(),
  test_port: port.nullable().optional(),
  host: optText(255),
  timeout: whole(100, 600_000, 'a whole number of milliseconds').optional(),
  sessiontimeout: whole(100, 600_000, 'a whole number of milliseconds').optional(),
  protocol: z.enum(['ascii', 'binary']).optional(),
  dictionary: z.enum(['repo44', 'fixt11', 'custom']).optional(),
  fix_username: optText(128),
  fix_password: z.string().max(256).nullable().optional(),
  heartbeatint: whole(1, 3600, 'a whole number of seconds').optional(),
  heartbeat_min_sec: whole(1, 3600, 'a whole number of seconds').optional(),
  heartbeat_max_sec: whole(1, 3600, 'a whole number of seconds').optional(),
  heartbeat_allow_zero: z.boolean().optional(),
  targetsubid: optText(64),
  encryptmethod: whole(0, 3, 'an EncryptMethod code from 0 to 3').optional(),
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
  max_orders_per_second: whole(1, 100_000).optional(),
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
  session_type: z.enum(SESSION_TYPES, { error: `must be one of ${SESSION_TYPES.join(', ')}` }).optional(),
  drop_copy_of: dropCopyOf.optional(),
};

/**
 * The drop copy rules on a connector as it will be after a write (the API's 400s; docs/adr/0017): only a
 * drop copy session names clients, and each one it names is an order-entry connector other than itself.
 * `sessionTypes`: the session type of every existing connector named, by comp id.
 */
export function dropCopyProblem(
  c: { comp_id: string; session_type: SessionType; drop_copy_of: readonly string[] },
  sessionTypes: ReadonlyMap<string, string>,
): { field: 'drop_copy_of'; message: string } | undefined {
  if (c.session_type !== 'drop_copy') {
    return c.drop_copy_of.length ? { field: 'drop_copy_of', message: 'Clients copied are only for a drop copy session' } : undefined;
  }
  for (const id of c.drop_copy_of) {
    if (id === c.comp_id) return { field: 'drop_copy_of', message: `${id} is this drop copy session, not a client` };
    const type = sessionTypes.get(id);
    if (type === undefined) return { field: 'drop_copy_of', message: `${id} is not a client connector` };
    if (type !== 'order_entry') return { field: 'drop_copy_of', message: `${id} is a drop copy session, not a client` };
  }
  return undefined;
}

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
  address: z.unknown().optional(),
  logo_src: z.unknown().optional(),
  // Every client connects to the desk's FIX_PORT (or its TLS port): the server answers it, never stores one.
  port: z.unknown().optional(),
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
  /** The address the logo was fetched from (an administrator sets it); screens never load it. */
  logo_url: string | null;
  /**
   * The logo as the desk serves it from its own origin (`GET /api/client-connectors/{comp_id}/logo`), or
   * null when there is no logo_url or its fetch was refused: screens show this, else the initials.
   */
  logo_src: string | null;
  is_active: boolean;
  is_connected: boolean;
  test_port: number | null;
  /** The address the client is given when it is not the desk's own (a NAT, a load balancer); null: the desk's. */
  host: string | null;
  /** The port the client connects to (address.port): the desk's, never the connector's own. */
  port: number;
  /** Where the client connects, as its session config says (host, FIX_PORT or the TLS port). */
  address: ConnectorAddress;
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
  /** Always null: the client's private key is handed out once, in the certificate generation's answer (GenerateCertsResult). */
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
  /** An order-entry session (a client's) or a drop copy session. */
  session_type: SessionType;
  /** A drop copy session's clients, by comp id; empty: every client (always empty for order entry). */
  drop_copy_of: string[];
  created_at: string;
  updated_at: string;
  /** The kill switch: set while the desk stops the client's orders (any signed-in user sees it). */
  trading_stop: ClientTradingStop | null;
  /** In the list only: the session and capability state an operator needs at a glance. */
  live?: ConnectorLiveState;
}

// ── the kill switch ─────────────────────────────────────────────────────────────────

/** A client stopped by the desk: every new order refused until a broker resumes it. */
export interface ClientTradingStop {
  stopped_at: string;
  stopped_by: string;
  reason: string;
}

/** `POST /api/client-connectors/{comp_id}/stop`: why, and whether to log the client's session out too. */
export const ClientStopSchema = z.object({
  reason: z.string({ error: 'A reason is required' }).trim().min(1, 'A reason is required').max(500, 'At most 500 characters'),
  logout: z.boolean().optional(),
});
export type ClientStopInput = z.infer<typeof ClientStopSchema>;

/** `POST /api/client-connectors/{comp_id}/resume`: why. */
export const ClientResumeSchema = z.object({
  reason: z.string({ error: 'A reason is required' }).trim().min(1, 'A reason is required').max(500, 'At most 500 characters'),
});
export type ClientResumeInput = z.infer<typeof ClientResumeSchema>;

/** What a stop or a resume did. */
export interface ClientStopResult {
  comp_id: string;
  trading_stop: ClientTradingStop | null;
  /** Working orders canceled by the stop (their Canceled reports sent, or queued for the client's next logon). */
  canceled_orders: number;
  /** Orders the stop could not cancel (changed meanwhile), by broker order id, with why. */
  not_canceled: { order_id: string; reason: string }[];
  logged_out: boolean;
}

/** The kill switch's texts, shared by the screens that offer it. */
export const KillSwitchText = {
  stopAction: 'Stop client',
  resumeAction: 'Resume client',
  stopTitle: (compId: string) => `Stop ${compId}`,
  resumeTitle: (compId: string) => `Resume ${compId}`,
  stopConsequences: (compId: string, working: number | null) =>
    `Every new order from ${compId} will be refused until the client is resumed. ${
      working === null
        ? 'Every working order of the client will be canceled at once'
        : working === 0
          ? 'It has no working order to cancel'
          : `Its ${working} working order${working === 1 ? '' : 's'} will be canceled at once`
    } (Canceled reports are sent now, or when the client next logs on). Resuming does not restore canceled orders.`,
  logoutOption: 'Also log the FIX session out',
  resumeConsequences: (compId: string) => `New orders from ${compId} will be accepted again. Orders canceled by the stop stay canceled.`,
  reasonLabel: 'Reason',
  stoppedBanner: (compId: string, by: string, at: string, reason: string) => `${compId} stopped by ${by} at ${at}: ${reason}`,
} as const;

/** Where a client connects: the connector's host or the desk's, and the desk's port (the TLS one once the connector has a certificate). */
export interface ConnectorAddress {
  host: string;
  port: number;
  /** Over TLS (the connector has a certificate and the desk a TLS port). */
  tls: boolean;
}

/** The desk's FIX acceptor (GET /api/fix-acceptor): what every client connects to. */
export interface FixAcceptorInfo {
  host: string;
  port: number;
  /** null: no TLS port (FIX_TLS_PORT unset): no connector may have a certificate. */
  tls_port: number | null;
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
