import type { AdminField, AdminFields } from './admin-fields';
import {
  CONNECTOR_TIMEZONES,
  EXECUTION_ID_PREFIX_MAX,
  FIX_VERSIONS,
  LEI_MAX,
  RESET_FREQUENCIES,
  SESSION_TYPE_LABELS,
  SESSION_TYPES,
  type CONNECTOR_READ_ONLY_FIELDS,
  type CreateConnectorInput,
} from './connectors';

/** The product's comp id: the connectors' default TargetCompID (spec 001 §9 "{product}"). */
const PRODUCT_COMP_ID = 'FIXDESK';

/** Spec 001 §5 and §8: the texts of the Client Connectors screen and its dialog. */
export const ConnectorText = {
  created: 'Client connector created successfully!',
  updated: 'Client connector updated successfully!',
  failed: 'Operation failed',
  fetchFailed: 'Failed to fetch client connectors',
  deleteFailed: 'Delete failed',
  typeToConfirm: (compId: string) => `Please type "${compId}" to confirm deletion`,
  deleted: (compId: string) => `Client connector ${compId} deleted successfully`,
} as const;

/** The connector dialog's tabs of fields (spec 001 §2 "Client Connectors"); the notes are under the tabs. */
export const CONNECTOR_TABS = [
  { value: 'basic', label: 'Basic' },
  { value: 'connection', label: 'Connection' },
  { value: 'authentication', label: 'Authentication' },
  { value: 'trading', label: 'Trading' },
] as const;
export type ConnectorTab = (typeof CONNECTOR_TABS)[number]['value'];

/** What the dialog edits: the schema's fields but the read-only ones and those no screen sets. */
export type ConnectorFormInput = Omit<
  CreateConnectorInput,
  (typeof CONNECTOR_READ_ONLY_FIELDS)[number] | 'broker_id' | 'lei' | 'whatsapp_notifications'
>;

const choices = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));
const field = <K extends keyof ConnectorFormInput & string>(
  name: K,
  label: string,
  tab: ConnectorTab | undefined,
  rest: Omit<AdminField<K>, 'name' | 'label' | 'tab'>,
): AdminField<K> => ({ name, label, ...(tab ? { tab } : {}), ...rest });

/**
 * How each connector field is edited (spec 001 §3 "Client connector", §5 "Connector form", §9 "Connector
 * defaults"), tab by tab in form order. An emptied number, time or choice is left out (the connector keeps
 * its value, a new one gets the default); the test port may be none.
 */
export const CONNECTOR_FIELDS: AdminFields<ConnectorFormInput> = {
  comp_id: field('comp_id', 'Component ID', 'basic', {
    kind: 'text',
    required: true,
    maxLength: 64,
    placeholder: 'e.g. ACME_FIX_1',
    description: "The client's SenderCompID (49)",
    lockedOnEdit: 'The component ID is the session key; create a new connector instead',
  }),
  execution_id_prefix: field('execution_id_prefix', 'Execution ID Prefix', 'basic', {
    kind: 'text',
    required: true,
    maxLength: EXECUTION_ID_PREFIX_MAX,
    placeholder: 'e.g. AC1',
    description: `At most ${EXECUTION_ID_PREFIX_MAX} characters; starts every ExecID`,
    lockedOnEdit: "Fixed once created: the client's ExecIDs carry it",
  }),
  session_type: field('session_type', 'Session Type', 'basic', {
    kind: 'select',
    options: SESSION_TYPES.map((t) => ({ value: t, label: SESSION_TYPE_LABELS[t] })),
    defaultValue: 'order_entry',
    whenEmpty: 'omit',
    description: 'Drop copy: receives a copy of client reports, cannot trade',
  }),
  drop_copy_of: field('drop_copy_of', 'Clients Copied', 'basic', {
    kind: 'multiselect',
    span: 2,
    placeholder: 'Every client',
    description: 'Empty: every client. Reports from the change on are copied, none made before it',
  }),
  client_name: field('client_name', 'Client Name', 'basic', { kind: 'text', maxLength: 200 }),
  company_name: field('company_name', 'Company Name', 'basic', { kind: 'text', maxLength: 200 }),
  client_contact: field('client_contact', 'Contact', 'basic', { kind: 'text', maxLength: 200 }),
  client_email: field('client_email', 'E-mail', 'basic', { kind: 'text', input: 'email', maxLength: 254 }),
  client_phone: field('client_phone', 'Phone', 'basic', { kind: 'text', maxLength: 50 }),
  client_lei: field('client_lei', 'LEI', 'basic', {
    kind: 'text',
    maxLength: LEI_MAX,
    description: `ISO 17442: ${LEI_MAX} characters, the last 2 check digits`,
  }),
  company_website: field('company_website', 'Website', 'basic', { kind: 'text', input: 'url', maxLength: 500, placeholder: 'https://' }),
  logo_url: field('logo_url', 'Logo URL', 'basic', { kind: 'text', input: 'url', maxLength: 2000, placeholder: 'https://' }),
  is_active: field('is_active', 'Active', 'basic', {
    kind: 'boolean',
    defaultValue: true,
    description: 'Inactive: logons refused, a logged-on client is logged out at once',
  }),
  host: field('host', 'Host', 'connection', {
    kind: 'text',
    maxLength: 255,
    placeholder: "empty: the desk's own address",
    description: 'Only when the client is given another address (a NAT, a load balancer)',
  }),
  test_port: field('test_port', 'Test Port', 'connection', {
    kind: 'text',
    input: 'number',
    whenEmpty: 'null',
    description: "The client test service's port (default 3333)",
  }),
  target_comp_id: field('target_comp_id', 'Target Comp ID', 'connection', {
    kind: 'text',
    maxLength: 64,
    defaultValue: PRODUCT_COMP_ID,
    whenEmpty: 'omit',
    description: 'Our comp id: the TargetCompID (56) the client sends',
  }),
  fix_version: field('fix_version', 'FIX Version', 'connection', {
    kind: 'select',
    options: choices(FIX_VERSIONS),
    defaultValue: 'FIX.4.4',
    whenEmpty: 'omit',
  }),
  protocol: field('protocol', 'Protocol', 'connection', {
    kind: 'select',
    options: choices(['ascii', 'binary']),
    defaultValue: 'ascii',
    whenEmpty: 'omit',
  }),
  dictionary: field('dictionary', 'Dictionary', 'connection', {
    kind: 'select',
    options: choices(['repo44', 'fixt11', 'custom']),
    defaultValue: 'repo44',
    whenEmpty: 'omit',
  }),
  heartbeatint: field('heartbeatint', 'Heartbeat Interval (s)', 'connection', {
    kind: 'text',
    input: 'number',
    defaultValue: '30',
    whenEmpty: 'omit',
    description: 'HeartBtInt (108); applies from the next logon',
  }),
  heartbeat_min_sec: field('heartbeat_min_sec', 'Min Heartbeat (s)', 'connection', {
    kind: 'text',
    input: 'number',
    defaultValue: '5',
    whenEmpty: 'omit',
    description: 'A Logon asking for less is refused',
  }),
  heartbeat_max_sec: field('heartbeat_max_sec', 'Max Heartbeat (s)', 'connection', {
    kind: 'text',
    input: 'number',
    defaultValue: '120',
    whenEmpty: 'omit',
    description: 'A Logon asking for more is refused',
  }),
  heartbeat_allow_zero: field('heartbeat_allow_zero', 'Allow HeartBtInt 0', 'connection', {
    kind: 'boolean',
    defaultValue: false,
    description: 'No heartbeats at all; refused unless on',
  }),
  timeout: field('timeout', 'Connection Timeout (ms)', 'connection', {
    kind: 'text',
    input: 'number',
    defaultValue: '10000',
    whenEmpty: 'omit',
  }),
  sessiontimeout: field('sessiontimeout', 'Session Timeout (ms)', 'connection', {
    kind: 'text',
    input: 'number',
    defaultValue: '10000',
    whenEmpty: 'omit',
  }),
  targetsubid: field('targetsubid', 'Target Sub ID', 'connection', { kind: 'text', maxLength: 64, defaultValue: 'fix' }),
  encryptmethod: field('encryptmethod', 'Encrypt Method', 'connection', {
    kind: 'select',
    options: [
      { value: '0', label: '0 — None' },
      { value: '1', label: '1 — PKCS' },
      { value: '2', label: '2 — DES' },
      { value: '3', label: '3 — PKCS/DES' },
    ],
    defaultValue: '0',
    whenEmpty: 'omit',
  }),
  whitelisted_ips: field('whitelisted_ips', 'Allowed Source Addresses', 'connection', {
    kind: 'text',
    maxLength: 2000,
    placeholder: 'e.g. 10.1.2.3, 192.168.0.0/24',
    description: 'Empty: any address',
  }),
  fix_username: field('fix_username', 'FIX Username', 'authentication', {
    kind: 'text',
    maxLength: 128,
    description: 'Username (553) the Logon must carry; empty: none asked',
  }),
  fix_password: field('fix_password', 'FIX Password', 'authentication', {
    kind: 'password',
    maxLength: 256,
    description: 'Password (554) the Logon must carry; empty: none asked',
  }),
  reset_frequency: field('reset_frequency', 'Sequence Reset', 'authentication', {
    kind: 'select',
    options: choices(RESET_FREQUENCIES),
    defaultValue: 'DAILY',
    whenEmpty: 'omit',
    description: 'When both sides start again at 1',
  }),
  resetseqnumflag: field('resetseqnumflag', 'Reset on Logon (141=Y)', 'authentication', { kind: 'boolean', defaultValue: false }),
  resetseqnums: field('resetseqnums', 'Reset Sequence Numbers', 'authentication', { kind: 'boolean', defaultValue: false }),
  useresetseqnums: field('useresetseqnums', "Honour the Client's Reset", 'authentication', { kind: 'boolean', defaultValue: false }),
  trading_enabled: field('trading_enabled', 'Trading Enabled', 'trading', {
    kind: 'boolean',
    defaultValue: true,
    description: 'Off: every order is refused (the session stays up)',
  }),
  start_time: field('start_time', 'Session Start', 'trading', {
    kind: 'text',
    input: 'time',
    defaultValue: '09:00:00',
    whenEmpty: 'omit',
    description: 'Logons accepted from here',
  }),
  end_time: field('end_time', 'Session End', 'trading', {
    kind: 'text',
    input: 'time',
    defaultValue: '17:00:00',
    whenEmpty: 'omit',
    description: 'Day orders expire here',
  }),
  trading_days: field('trading_days', 'Trading Days', 'trading', {
    kind: 'text',
    maxLength: 40,
    defaultValue: 'M,T,W,T,F',
    whenEmpty: 'omit',
    description: 'Day letters Monday first, e.g. M,T,W,T,F',
  }),
  timezone: field('timezone', 'Time Zone', 'trading', {
    kind: 'select',
    options: choices(CONNECTOR_TIMEZONES),
    defaultValue: 'Asia/Singapore',
    whenEmpty: 'omit',
  }),
  max_orders_per_second: field('max_orders_per_second', 'Max Orders per Second', 'trading', {
    kind: 'text',
    input: 'number',
    defaultValue: '100',
    whenEmpty: 'omit',
  }),
  alert_email: field('alert_email', 'Alert E-mail', 'trading', { kind: 'text', input: 'email', maxLength: 254 }),
  risk_check_enabled: field('risk_check_enabled', 'Risk Checks', 'trading', { kind: 'boolean', defaultValue: true }),
  receive_notifications: field('receive_notifications', 'Receive Notifications', 'trading', { kind: 'boolean', defaultValue: false }),
  enabletrace: field('enabletrace', 'Trace', 'trading', {
    kind: 'boolean',
    defaultValue: false,
    description: 'Log every message of the session in full',
  }),
  notes: field('notes', 'Notes', undefined, { kind: 'textarea', maxLength: 5000 }),
};
