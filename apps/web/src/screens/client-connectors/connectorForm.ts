import {
  CONNECTOR_TIMEZONES,
  EXECUTION_ID_PREFIX_MAX,
  FIX_VERSIONS,
  LEI_MAX,
  RESET_FREQUENCIES,
  type AdminField,
  type ClientConnector,
  type CreateConnectorInput,
} from '@fixdesk/protocol';
import type { FormValues } from '../../components/admin/formValues';

/**
 * The connector dialog's fields (spec 001 §3 "Client connector", §5 "Connector form", §9 "Connector
 * defaults"), by tab. Pure: the dialog draws them, these functions fill and read them (unit-tested).
 */

export type ConnectorTab = 'basic' | 'connection' | 'authentication' | 'trading';
export type ConnectorInputKind = 'text' | 'email' | 'url' | 'time' | 'number' | 'select' | 'switch' | 'password';

export interface ConnectorField {
  name: keyof CreateConnectorInput & string;
  label: string;
  tab: ConnectorTab;
  input: ConnectorInputKind;
  required?: boolean;
  options?: readonly string[] | readonly { value: string; label: string }[];
  defaultValue?: string | boolean;
  maxLength?: number;
  placeholder?: string;
  description?: string;
  /** Empty means "leave as it is" (or the server's default): not sent. */
  omitEmpty?: boolean;
  /** Empty is sent as null (a number that may be none). */
  nullWhenEmpty?: boolean;
  /** Fixed once the connector exists (spec 001 §5). */
  lockedWhenEditing?: string;
}

/** The product's comp id: the connectors' default TargetCompID (spec 001 §9 "{product}"). */
export const PRODUCT_COMP_ID = 'FIXDESK';

const ENCRYPT_METHODS = [
  { value: '0', label: '0 — None' },
  { value: '1', label: '1 — PKCS' },
  { value: '2', label: '2 — DES' },
  { value: '3', label: '3 — PKCS/DES' },
];

export const CONNECTOR_FIELDS: readonly ConnectorField[] = [
  // Basic
  {
    name: 'comp_id',
    label: 'Component ID',
    tab: 'basic',
    input: 'text',
    required: true,
    maxLength: 64,
    placeholder: 'e.g. ACME_FIX_1',
    description: "The client's SenderCompID (49)",
    lockedWhenEditing: 'The component ID is the session key; create a new connector instead',
  },
  {
    name: 'execution_id_prefix',
    label: 'Execution ID Prefix',
    tab: 'basic',
    input: 'text',
    required: true,
    maxLength: EXECUTION_ID_PREFIX_MAX,
    placeholder: 'e.g. AC1',
    description: `At most ${EXECUTION_ID_PREFIX_MAX} characters; starts every ExecID`,
    lockedWhenEditing: "Fixed once created: the client's ExecIDs carry it",
  },
  { name: 'client_name', label: 'Client Name', tab: 'basic', input: 'text', maxLength: 200 },
  { name: 'company_name', label: 'Company Name', tab: 'basic', input: 'text', maxLength: 200 },
  { name: 'client_contact', label: 'Contact', tab: 'basic', input: 'text', maxLength: 200 },
  { name: 'client_email', label: 'E-mail', tab: 'basic', input: 'email', maxLength: 254 },
  { name: 'client_phone', label: 'Phone', tab: 'basic', input: 'text', maxLength: 50 },
  {
    name: 'client_lei',
    label: 'LEI',
    tab: 'basic',
    input: 'text',
    maxLength: LEI_MAX,
    description: `ISO 17442: ${LEI_MAX} characters, the last 2 check digits`,
  },
  { name: 'company_website', label: 'Website', tab: 'basic', input: 'url', maxLength: 500, placeholder: 'https://' },
  { name: 'logo_url', label: 'Logo URL', tab: 'basic', input: 'url', maxLength: 2000, placeholder: 'https://' },
  {
    name: 'is_active',
    label: 'Active',
    tab: 'basic',
    input: 'switch',
    defaultValue: true,
    description: 'Inactive: logons refused, a logged-on client is logged out at once',
  },
  // Connection
  {
    name: 'host',
    label: 'Host',
    tab: 'connection',
    input: 'text',
    maxLength: 255,
    placeholder: "empty: the desk's own address",
    description: 'Only when the client is given another address (a NAT, a load balancer)',
  },
  {
    name: 'test_port',
    label: 'Test Port',
    tab: 'connection',
    input: 'number',
    nullWhenEmpty: true,
    description: "The client test service's port (default 3333)",
  },
  {
    name: 'target_comp_id',
    label: 'Target Comp ID',
    tab: 'connection',
    input: 'text',
    maxLength: 64,
    defaultValue: PRODUCT_COMP_ID,
    omitEmpty: true,
    description: 'Our comp id: the TargetCompID (56) the client sends',
  },
  {
    name: 'fix_version',
    label: 'FIX Version',
    tab: 'connection',
    input: 'select',
    options: FIX_VERSIONS,
    defaultValue: 'FIX.4.4',
    omitEmpty: true,
  },
  {
    name: 'protocol',
    label: 'Protocol',
    tab: 'connection',
    input: 'select',
    options: ['ascii', 'binary'],
    defaultValue: 'ascii',
    omitEmpty: true,
  },
  {
    name: 'dictionary',
    label: 'Dictionary',
    tab: 'connection',
    input: 'select',
    options: ['repo44', 'fixt11', 'custom'],
    defaultValue: 'repo44',
    omitEmpty: true,
  },
  {
    name: 'heartbeatint',
    label: 'Heartbeat Interval (s)',
    tab: 'connection',
    input: 'number',
    defaultValue: '30',
    omitEmpty: true,
    description: 'HeartBtInt (108); applies from the next logon',
  },
  {
    name: 'heartbeat_min_sec',
    label: 'Min Heartbeat (s)',
    tab: 'connection',
    input: 'number',
    defaultValue: '5',
    omitEmpty: true,
    description: 'A Logon asking for less is refused',
  },
  {
    name: 'heartbeat_max_sec',
    label: 'Max Heartbeat (s)',
    tab: 'connection',
    input: 'number',
    defaultValue: '120',
    omitEmpty: true,
    description: 'A Logon asking for more is refused',
  },
  {
    name: 'heartbeat_allow_zero',
    label: 'Allow HeartBtInt 0',
    tab: 'connection',
    input: 'switch',
    defaultValue: false,
    description: 'No heartbeats at all; refused unless on',
  },
  { name: 'timeout', label: 'Connection Timeout (ms)', tab: 'connection', input: 'number', defaultValue: '10000', omitEmpty: true },
  { name: 'sessiontimeout', label: 'Session Timeout (ms)', tab: 'connection', input: 'number', defaultValue: '10000', omitEmpty: true },
  { name: 'targetsubid', label: 'Target Sub ID', tab: 'connection', input: 'text', maxLength: 64, defaultValue: 'fix' },
  {
    name: 'encryptmethod',
    label: 'Encrypt Method',
    tab: 'connection',
    input: 'select',
    options: ENCRYPT_METHODS,
    defaultValue: '0',
    omitEmpty: true,
  },
  {
    name: 'whitelisted_ips',
    label: 'Allowed Source Addresses',
    tab: 'connection',
    input: 'text',
    maxLength: 2000,
    placeholder: 'e.g. 10.1.2.3, 192.168.0.0/24',
    description: 'Empty: any address',
  },
  // Authentication
  {
    name: 'fix_username',
    label: 'FIX Username',
    tab: 'authentication',
    input: 'text',
    maxLength: 128,
    description: 'Username (553) the Logon must carry; empty: none asked',
  },
  {
    name: 'fix_password',
    label: 'FIX Password',
    tab: 'authentication',
    input: 'password',
    description: 'Password (554) the Logon must carry; empty: none asked',
  },
  {
    name: 'reset_frequency',
    label: 'Sequence Reset',
    tab: 'authentication',
    input: 'select',
    options: RESET_FREQUENCIES,
    defaultValue: 'DAILY',
    omitEmpty: true,
    description: 'When both sides start again at 1',
  },
  { name: 'resetseqnumflag', label: 'Reset on Logon (141=Y)', tab: 'authentication', input: 'switch', defaultValue: false },
  { name: 'resetseqnums', label: 'Reset Sequence Numbers', tab: 'authentication', input: 'switch', defaultValue: false },
  { name: 'useresetseqnums', label: "Honour the Client's Reset", tab: 'authentication', input: 'switch', defaultValue: false },
  // Trading
  {
    name: 'trading_enabled',
    label: 'Trading Enabled',
    tab: 'trading',
    input: 'switch',
    defaultValue: true,
    description: 'Off: every order is refused (the session stays up)',
  },
  {
    name: 'start_time',
    label: 'Session Start',
    tab: 'trading',
    input: 'time',
    defaultValue: '09:00:00',
    omitEmpty: true,
    description: 'Logons accepted from here',
  },
  {
    name: 'end_time',
    label: 'Session End',
    tab: 'trading',
    input: 'time',
    defaultValue: '17:00:00',
    omitEmpty: true,
    description: 'Day orders expire here',
  },
  {
    name: 'trading_days',
    label: 'Trading Days',
    tab: 'trading',
    input: 'text',
    maxLength: 40,
    defaultValue: 'M,T,W,T,F',
    omitEmpty: true,
    description: 'Day letters Monday first, e.g. M,T,W,T,F',
  },
  {
    name: 'timezone',
    label: 'Time Zone',
    tab: 'trading',
    input: 'select',
    options: CONNECTOR_TIMEZONES,
    defaultValue: 'Asia/Singapore',
    omitEmpty: true,
  },
  { name: 'max_orders_per_second', label: 'Max Orders per Second', tab: 'trading', input: 'number', defaultValue: '100', omitEmpty: true },
  { name: 'alert_email', label: 'Alert E-mail', tab: 'trading', input: 'email', maxLength: 254 },
  { name: 'risk_check_enabled', label: 'Risk Checks', tab: 'trading', input: 'switch', defaultValue: true },
  { name: 'receive_notifications', label: 'Receive Notifications', tab: 'trading', input: 'switch', defaultValue: false },
  {
    name: 'enabletrace',
    label: 'Trace',
    tab: 'trading',
    input: 'switch',
    defaultValue: false,
    description: 'Log every message of the session in full',
  },
];

/** The notes box under the tabs. */
export const NOTES_FIELD = 'notes';

/** For the shared validation: the descriptors as the admin pattern's fields (labels for its messages). */
export const CONNECTOR_ADMIN_FIELDS: readonly AdminField[] = [
  ...CONNECTOR_FIELDS.map((f) => ({ name: f.name, label: f.label, kind: f.input === 'switch' ? ('boolean' as const) : ('text' as const) })),
  { name: NOTES_FIELD, label: 'Notes', kind: 'textarea' as const },
];

/** A new connector's values (the defaults of spec 001 §9), or an existing one's. */
export function connectorValues(c: ClientConnector | null): FormValues {
  const out: FormValues = {};
  for (const f of CONNECTOR_FIELDS) {
    const v = c ? (c as unknown as Record<string, unknown>)[f.name] : f.defaultValue;
    if (f.input === 'switch') out[f.name] = typeof v === 'boolean' ? v : Boolean(f.defaultValue);
    else out[f.name] = v === undefined || v === null ? '' : String(v);
  }
  out[NOTES_FIELD] = c?.notes ?? '';
  return out;
}

/** What the dialog sends: text trimmed; empty numbers, times and choices left out (or null where none is allowed). */
export function connectorPayload(values: FormValues, editing: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of CONNECTOR_FIELDS) {
    if (editing && f.lockedWhenEditing) continue;
    const v = values[f.name];
    if (typeof v === 'boolean') {
      out[f.name] = v;
      continue;
    }
    const text = (v ?? '').trim();
    if (text === '' && f.omitEmpty) continue;
    if (text === '' && f.nullWhenEmpty) {
      out[f.name] = null;
      continue;
    }
    if (text === '' && f.input === 'password' && !editing) continue;
    out[f.name] = f.name === 'execution_id_prefix' ? text.toUpperCase() : text;
  }
  out[NOTES_FIELD] = String(values[NOTES_FIELD] ?? '').trim();
  return out;
}
