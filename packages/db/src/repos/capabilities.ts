import type { ClientCapabilityRecord } from '@fixdesk/protocol';
import type { Queryable } from '../db';

// Client capabilities (spec 001 §3 "Client capability"): what each client may trade, read by the
// Client Capabilities screen and, through listClientCapabilities, by the order intake on every order.

/** The columns a create or an update writes. */
export interface CapabilityValues {
  clientconnectors_id: number;
  security_master_id: number | null;
  client_symbol: string | null;
  client_symbol_text: string | null;
  asset_class: string;
  exchange: string | null;
  is_enabled: boolean;
  can_buy: boolean;
  can_sell: boolean;
  can_short: boolean;
  max_order_qty: string | null;
  min_order_qty: string | null;
  max_position_long: string | null;
  max_position_short: string | null;
  market_identifier: string | null;
  additional_params: Record<string, unknown>;
}

/** A capability as SQL reads it (with its client's comp id and name and its security's symbol); `toCapabilityRecord` makes it the API's. */
type CapabilitySqlRow = Omit<ClientCapabilityRecord, 'asset_class' | 'created_at' | 'updated_at'> & {
  asset_class: string;
  created_at: Date;
  updated_at: Date;
};

/** The one mapping of a capability row to the protocol's ClientCapabilityRecord (timestamps as ISO text). */
function toCapabilityRecord(row: CapabilitySqlRow): ClientCapabilityRecord {
  return {
    ...row,
    asset_class: row.asset_class as ClientCapabilityRecord['asset_class'],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const COLUMNS = [
  'clientconnectors_id',
  'security_master_id',
  'client_symbol',
  'client_symbol_text',
  'asset_class',
  'exchange',
  'is_enabled',
  'can_buy',
  'can_sell',
  'can_short',
  'max_order_qty',
  'min_order_qty',
  'max_position_long',
  'max_position_short',
  'market_identifier',
  'additional_params',
] as const satisfies readonly (keyof CapabilityValues)[];

const SELECT = `
  SELECT cap.id, cap.clientconnectors_id, c.comp_id, c.client_name, cap.security_master_id, s.symbol AS security_symbol,
         cap.client_symbol, cap.client_symbol_text, cap.asset_class, cap.exchange, cap.is_enabled, cap.can_buy, cap.can_sell,
         cap.can_short, cap.max_order_qty::text AS max_order_qty, cap.min_order_qty::text AS min_order_qty,
         cap.max_position_long::text AS max_position_long, cap.max_position_short::text AS max_position_short,
         cap.market_identifier, cap.additional_params, cap.created_at, cap.updated_at
    FROM client_capabilities cap
    JOIN client_connectors c ON c.id = cap.clientconnectors_id
    LEFT JOIN security_master s ON s.id = cap.security_master_id`;

export async function listCapabilities(db: Queryable, opts: { compId?: string } = {}): Promise<ClientCapabilityRecord[]> {
  const { rows } = await db.query<CapabilitySqlRow>(`${SELECT} WHERE ($1::text IS NULL OR c.comp_id = $1) ORDER BY cap.id`, [
    opts.compId ?? null,
  ]);
  return rows.map(toCapabilityRecord);
}

export async function getCapability(db: Queryable, id: number, opts: { lock?: boolean } = {}): Promise<ClientCapabilityRecord | undefined> {
  const { rows } = await db.query<CapabilitySqlRow>(`${SELECT} WHERE cap.id = $1${opts.lock ? ' FOR UPDATE OF cap' : ''}`, [id]);
  return rows[0] && toCapabilityRecord(rows[0]);
}

const param = (col: (typeof COLUMNS)[number], v: unknown) => (col === 'additional_params' ? JSON.stringify(v ?? {}) : v);

export async function insertCapability(db: Queryable, v: CapabilityValues): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO client_capabilities (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c, i) => (c === 'additional_params' ? `$${i + 1}::jsonb` : `$${i + 1}`)).join(', ')}) RETURNING id`,
    COLUMNS.map((c) => param(c, v[c])),
  );
  return rows[0]!.id;
}

export async function updateCapability(db: Queryable, id: number, v: Partial<CapabilityValues>): Promise<boolean> {
  const cols = COLUMNS.filter((c) => c !== 'clientconnectors_id' && v[c] !== undefined);
  if (cols.length === 0) return true;
  const sets = cols.map((c, i) => `${c} = $${i + 2}${c === 'additional_params' ? '::jsonb' : ''}`);
  const r = await db.query(`UPDATE client_capabilities SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [
    id,
    ...cols.map((c) => param(c, v[c])),
  ]);
  return r.rowCount > 0;
}

export async function deleteCapability(db: Queryable, id: number): Promise<boolean> {
  const r = await db.query('DELETE FROM client_capabilities WHERE id = $1', [id]);
  return r.rowCount > 0;
}

/** Capabilities per connector id (the connectors screen's "cannot trade" when none is enabled). */
export async function countCapabilities(db: Queryable): Promise<Map<number, { total: number; enabled: number }>> {
  const { rows } = await db.query<{ id: number; total: number; enabled: number }>(
    'SELECT clientconnectors_id AS id, count(*)::int AS total, count(*) FILTER (WHERE is_enabled)::int AS enabled FROM client_capabilities GROUP BY clientconnectors_id',
  );
  return new Map(rows.map((r) => [r.id, { total: r.total, enabled: r.enabled }]));
}

/** A client's capabilities as the intake rules read them (every stored rule). */
export type ClientCapabilityRow = Pick<
  ClientCapabilityRecord,
  | 'exchange'
  | 'is_enabled'
  | 'can_buy'
  | 'can_sell'
  | 'can_short'
  | 'min_order_qty'
  | 'max_order_qty'
  | 'max_position_long'
  | 'max_position_short'
  | 'market_identifier'
> & { symbol: string | null };

export async function listClientCapabilities(db: Queryable, connectorId: number): Promise<ClientCapabilityRow[]> {
  const { rows } = await db.query<ClientCapabilityRow>(
    `SELECT s.symbol, cap.exchange, cap.is_enabled, cap.can_buy, cap.can_sell, cap.can_short,
            cap.min_order_qty::text AS min_order_qty, cap.max_order_qty::text AS max_order_qty,
            cap.max_position_long::text AS max_position_long, cap.max_position_short::text AS max_position_short,
            cap.market_identifier
       FROM client_capabilities cap LEFT JOIN security_master s ON s.id = cap.security_master_id
      WHERE cap.clientconnectors_id = $1`,
    [connectorId],
  );
  return rows;
}
