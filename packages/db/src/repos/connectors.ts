import type { ClientConnector } from '@fixdesk/protocol';
import type { Queryable } from '../db';
import { pgArray } from '../pg-array';
import { ON_LIVE_NODE } from './client-sessions';

/**
 * Columns a create or update may write (comp_id and execution_id_prefix only on create). Not the TLS
 * columns: only the desk CA's issuing (desk-pki) writes a certificate, its key and the CA.
 */
export const CONNECTOR_WRITABLE = [
  'target_comp_id',
  'fix_version',
  'broker_id',
  'client_name',
  'client_contact',
  'client_email',
  'client_phone',
  'client_lei',
  'company_website',
  'company_name',
  'logo_url',
  'is_active',
  'test_port',
  'host',
  'port',
  'timeout',
  'sessiontimeout',
  'protocol',
  'dictionary',
  'fix_username',
  'fix_password',
  'heartbeatint',
  'heartbeat_min_sec',
  'heartbeat_max_sec',
  'heartbeat_allow_zero',
  'targetsubid',
  'encryptmethod',
  'reset_frequency',
  'start_time',
  'end_time',
  'trading_days',
  'timezone',
  'max_orders_per_second',
  'alert_email',
  'enabletrace',
  'notes',
  'whitelisted_ips',
  'receive_notifications',
  'whatsapp_notifications',
  'trading_enabled',
  'risk_check_enabled',
  'resetseqnumflag',
  'resetseqnums',
  'useresetseqnums',
  'session_type',
  'drop_copy_of',
] as const;
export type ConnectorColumn = (typeof CONNECTOR_WRITABLE)[number];

/**
 * A client connector as stored: the protocol's ClientConnector fields that are columns (secrets included;
 * the route presents it for the caller's role), with the timestamps as dates, the kill switch's columns
 * and the logo fetch's state.
 */
export type ConnectorRow = Omit<
  ClientConnector,
  'lei' | 'logo_src' | 'address' | 'tls_enabled' | 'trading_stop' | 'live' | 'created_at' | 'updated_at'
> & {
  tls_expires_at: Date | null;
  /** The kill switch: set while the desk stops the client's orders. */
  trading_stopped_at: Date | null;
  trading_stopped_by: string | null;
  trading_stop_reason: string | null;
  /** What the logo's fetch gave (client_connector_logos): the URL fetched, the image's hash or why it was refused; null when never fetched. */
  logo_source_url: string | null;
  logo_sha256: string | null;
  logo_problem: string | null;
  created_at: Date;
  updated_at: Date;
};

// Connected: logged on at a node that is live (a node that died takes its sessions' connection with it).
// The logo's state: what the fetch of its logo_url gave, never the image itself.
const SELECT = `
  SELECT c.*, c.start_time::text AS start_time, c.end_time::text AS end_time,
         EXISTS (SELECT 1 FROM fix_session_state s WHERE s.target_comp_id = c.comp_id AND s.is_connected AND ${ON_LIVE_NODE('s.owner_node')}) AS is_connected,
         l.source_url AS logo_source_url, l.sha256 AS logo_sha256, l.problem AS logo_problem
    FROM client_connectors c
    LEFT JOIN client_connector_logos l ON l.connector_id = c.id`;

export async function listConnectors(db: Queryable): Promise<ConnectorRow[]> {
  const { rows } = await db.query<ConnectorRow>(`${SELECT} ORDER BY c.id`);
  return rows;
}

export async function getConnector(db: Queryable, compId: string): Promise<ConnectorRow | undefined> {
  const { rows } = await db.query<ConnectorRow>(`${SELECT} WHERE c.comp_id = $1`, [compId]);
  return rows[0];
}

export async function insertConnector(
  db: Queryable,
  compId: string,
  executionIdPrefix: string,
  values: Partial<Record<ConnectorColumn, unknown>>,
): Promise<ConnectorRow> {
  const cols = Object.keys(values).filter((k): k is ConnectorColumn => (CONNECTOR_WRITABLE as readonly string[]).includes(k));
  const names = ['comp_id', 'execution_id_prefix', ...cols];
  const params = [compId, executionIdPrefix, ...cols.map((c) => columnValue(c, values[c]))];
  const { rows } = await db.query<{ comp_id: string }>(
    `INSERT INTO client_connectors (${names.join(', ')}) VALUES (${names.map((n, i) => `$${i + 1}${cast(n)}`).join(', ')}) RETURNING comp_id`,
    params,
  );
  return (await getConnector(db, rows[0]!.comp_id))!;
}

export async function updateConnector(
  db: Queryable,
  compId: string,
  values: Partial<Record<ConnectorColumn, unknown>>,
): Promise<ConnectorRow | undefined> {
  const cols = Object.keys(values).filter((k): k is ConnectorColumn => (CONNECTOR_WRITABLE as readonly string[]).includes(k));
  if (cols.length > 0) {
    const sets = cols.map((c, i) => `${c} = $${i + 2}${cast(c)}`);
    const r = await db.query(`UPDATE client_connectors SET ${sets.join(', ')}, updated_at = now() WHERE comp_id = $1`, [
      compId,
      ...cols.map((c) => columnValue(c, values[c])),
    ]);
    if (r.rowCount === 0) return undefined;
  }
  return getConnector(db, compId);
}

/** The list column goes as an array literal (the same text on PostgreSQL and PGlite). */
function columnValue(column: string, value: unknown): unknown {
  return column === 'drop_copy_of' && Array.isArray(value) ? pgArray(value as string[]) : value;
}

const cast = (column: string) => (column === 'drop_copy_of' ? '::text[]' : '');

/** The connectors that would be left naming `compId` as a client they copy, by comp id. */
export async function dropCopiesNaming(db: Queryable, compId: string): Promise<string[]> {
  const { rows } = await db.query<{ comp_id: string }>(
    `SELECT comp_id FROM client_connectors WHERE session_type = 'drop_copy' AND $1 = ANY (drop_copy_of) ORDER BY comp_id`,
    [compId],
  );
  return rows.map((r) => r.comp_id);
}

/** Each of these comp ids with its connector's session type; a comp id with no connector is left out. */
export async function connectorSessionTypes(db: Queryable, compIds: readonly string[]): Promise<Map<string, string>> {
  if (!compIds.length) return new Map();
  const { rows } = await db.query<{ comp_id: string; session_type: string }>(
    'SELECT comp_id, session_type FROM client_connectors WHERE comp_id = ANY ($1::text[])',
    [pgArray(compIds)],
  );
  return new Map(rows.map((r) => [r.comp_id, r.session_type]));
}

export async function countConnectorOrders(db: Queryable, connectorId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE client_connector_id = $1', [connectorId]);
  return rows[0]!.n;
}

export async function deleteConnector(db: Queryable, compId: string): Promise<boolean> {
  const r = await db.query('DELETE FROM client_connectors WHERE comp_id = $1', [compId]);
  return r.rowCount > 0;
}

/** What the order core reads of a connector for every order (kept in its cache). */
export interface OrderConnectorRow {
  id: number;
  comp_id: string;
  client_name: string | null;
  client_phone: string | null;
  company_name: string | null;
  execution_id_prefix: string;
  is_active: boolean;
  trading_enabled: boolean;
  timezone: string;
  max_orders_per_second: number;
  /** The client's LEI: an order's Entering Firm must not name another. */
  client_lei: string | null;
  /** The kill switch: set while the desk stops the client's orders. */
  trading_stopped_at: Date | null;
  trading_stopped_by: string | null;
  trading_stop_reason: string | null;
}

export async function getOrderConnector(db: Queryable, compId: string): Promise<OrderConnectorRow | undefined> {
  const { rows } = await db.query<OrderConnectorRow>(
    `SELECT id, comp_id, client_name, client_phone, company_name, execution_id_prefix, is_active, trading_enabled, timezone, max_orders_per_second,
            client_lei, trading_stopped_at, trading_stopped_by, trading_stop_reason
       FROM client_connectors WHERE comp_id = $1`,
    [compId],
  );
  return rows[0];
}

export async function connectorExists(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM client_connectors WHERE id = $1', [id]);
  return rows.length > 0;
}

/** Every connector's CompID with the identities its orders' parties are checked against. */
export interface ConnectorIdentityRow {
  comp_id: string;
  client_lei: string | null;
  client_contact: string | null;
  client_email: string | null;
}

export async function listConnectorIdentities(db: Queryable): Promise<ConnectorIdentityRow[]> {
  const { rows } = await db.query<ConnectorIdentityRow>(
    'SELECT comp_id, client_lei, client_contact, client_email FROM client_connectors ORDER BY id',
  );
  return rows;
}

/** A connector with its broker's names, what a client's %VARIABLES% resolve from. */
export interface ConnectorAndBrokerRow {
  id: number;
  comp_id: string;
  target_comp_id: string;
  execution_id_prefix: string;
  client_name: string | null;
  client_contact: string | null;
  client_email: string | null;
  client_phone: string | null;
  client_lei: string | null;
  company_name: string | null;
  b_company_name: string | null;
  b_lei: string | null;
  b_party_id: string | null;
}

export async function getConnectorAndBroker(db: Queryable, connectorId: number): Promise<ConnectorAndBrokerRow | undefined> {
  const { rows } = await db.query<ConnectorAndBrokerRow>(
    `SELECT c.id, c.comp_id, c.target_comp_id, c.execution_id_prefix, c.client_name, c.client_contact, c.client_email,
            c.client_phone, c.client_lei, c.company_name, b.company_name AS b_company_name, b.lei AS b_lei, b.party_id AS b_party_id
       FROM client_connectors c LEFT JOIN broker_information b ON b.id = c.broker_id WHERE c.id = $1`,
    [connectorId],
  );
  return rows[0];
}

/** Day orders (TimeInForce 0) still open, with their client's session end and time zone. */
export interface OpenDayOrderRow {
  id: number;
  brokerorderid: string;
  sendercompid: string;
  created_at: Date;
  end_time: string;
  timezone: string;
}

export async function listOpenDayOrders(db: Queryable): Promise<OpenDayOrderRow[]> {
  const { rows } = await db.query<OpenDayOrderRow>(
    `SELECT o.id, o.brokerorderid, o.sendercompid, o.created_at, c.end_time::text AS end_time, c.timezone
       FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id
      WHERE o.timeinforce = '0' AND o.ordstatus IN ('A', '0', '1', '6', 'E')
      ORDER BY o.id`,
  );
  return rows;
}
