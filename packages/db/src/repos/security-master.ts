import type { Security } from '@fixdesk/protocol';
import type { Queryable } from '../db';

// The security master's writes and the reads the admin screen needs. Every change is
// written with its reference_changes row in the caller's transaction.

/** A security master row as SQL returns it; `toSecurity` makes it the API's `Security`. */
type SecuritySqlRow = Omit<Security, 'instrument_type' | 'created_at' | 'updated_at'> & {
  instrument_type: string;
  created_at: Date;
  updated_at: Date;
};

/** The one mapping of a security master row to the protocol's Security (timestamps as ISO text, currency trimmed). */
function toSecurity(row: SecuritySqlRow): Security {
  return {
    ...row,
    instrument_type: row.instrument_type as Security['instrument_type'],
    currency: row.currency.trim(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The columns an administrator writes. */
export const SECURITY_COLUMNS = [
  'symbol',
  'instrument_name',
  'description',
  'instrument_type',
  'asset_class',
  'is_active',
  'price_tick_size',
  'qty_tick_size',
  'settlement_days',
  'contract_size',
  'contract_unit',
  'series_months',
  'currency',
  'trading_hours',
  'exchange',
  'exchange_mics',
] as const;
export type SecurityColumn = (typeof SECURITY_COLUMNS)[number];
export type SecurityWrite = { [K in SecurityColumn]?: unknown };

const SELECT = `SELECT id, symbol, instrument_name, description, instrument_type, asset_class, is_active, price_tick_size, qty_tick_size,
       settlement_days, contract_size, contract_unit, series_months, currency, trading_hours, exchange, exchange_mics,
       created_at, updated_at FROM security_master`;

/** Every security, by symbol; only the active ones with `activeOnly`. */
export async function listSecurities(db: Queryable, opts: { activeOnly?: boolean } = {}): Promise<Security[]> {
  const { rows } = await db.query<SecuritySqlRow>(`${SELECT} ${opts.activeOnly ? 'WHERE is_active' : ''} ORDER BY symbol`);
  return rows.map(toSecurity);
}

export async function getSecurityById(db: Queryable, id: number, opts: { lock?: boolean } = {}): Promise<Security | undefined> {
  const { rows } = await db.query<SecuritySqlRow>(`${SELECT} WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] && toSecurity(rows[0]);
}

export async function findSecurityBySymbol(db: Queryable, symbol: string): Promise<Security | undefined> {
  const { rows } = await db.query<SecuritySqlRow>(`${SELECT} WHERE upper(symbol) = upper($1)`, [symbol]);
  return rows[0] && toSecurity(rows[0]);
}

function columnsOf(values: SecurityWrite): SecurityColumn[] {
  return SECURITY_COLUMNS.filter((c) => values[c] !== undefined);
}

export async function insertSecurity(db: Queryable, values: SecurityWrite): Promise<Security> {
  const cols = columnsOf(values);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO security_master (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    cols.map((c) => values[c]),
  );
  return (await getSecurityById(db, rows[0]!.id))!;
}

export async function updateSecurity(db: Queryable, id: number, values: SecurityWrite): Promise<Security | undefined> {
  const cols = columnsOf(values);
  if (cols.length === 0) return getSecurityById(db, id);
  const { rowCount } = await db.query(
    `UPDATE security_master SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now() WHERE id = $1`,
    [id, ...cols.map((c) => values[c])],
  );
  return rowCount ? getSecurityById(db, id) : undefined;
}

export async function deleteSecurity(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM security_master WHERE id = $1', [id]);
  return rowCount > 0;
}

/** Holds new orders back until the transaction ends, so a count of orders stays true until its commit. */
export async function lockOrdersForCount(tx: Queryable): Promise<void> {
  await tx.query('LOCK TABLE orders, order_legs IN SHARE MODE');
}

/** Orders that trade the symbol, outright or as a leg of a multileg order (each order counted once). */
export async function countSecurityOrders(db: Queryable, symbol: string): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM orders o
      WHERE upper(o.symbol) = upper($1)
         OR EXISTS (SELECT 1 FROM order_legs l WHERE l.order_id = o.id AND upper(l.leg_symbol) = upper($1))`,
    [symbol],
  );
  return Number(rows[0]?.n ?? 0);
}

export type ReferenceEntity =
  'security_master' | 'fix_message_specs' | 'users' | 'broker_information' | 'broker_contacts' | 'client_capabilities' | 'client_sessions';

export interface ReferenceChange {
  entity: ReferenceEntity;
  entityId: number;
  action: 'CREATE' | 'UPDATE' | 'DELETE';
  changedBy: string;
  userRef: number | null;
  before: unknown;
  after: unknown;
}

/** The audit record of one reference-data change (call it in the change's transaction). */
export async function recordReferenceChange(db: Queryable, c: ReferenceChange): Promise<void> {
  await db.query(
    `INSERT INTO reference_changes (entity, entity_id, action, changed_by, user_ref, before, after)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
    [
      c.entity,
      c.entityId,
      c.action,
      c.changedBy,
      c.userRef,
      c.before === null || c.before === undefined ? null : JSON.stringify(c.before),
      c.after === null || c.after === undefined ? null : JSON.stringify(c.after),
    ],
  );
}

export interface ReferenceChangeRow {
  id: number;
  entity: ReferenceEntity;
  entity_id: number;
  action: 'CREATE' | 'UPDATE' | 'DELETE';
  changed_by: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: Date;
}

/** The change history of one record (or of an entity), newest first. */
export async function listReferenceChanges(
  db: Queryable,
  entity: ReferenceEntity,
  entityId?: number,
  limit = 200,
): Promise<ReferenceChangeRow[]> {
  const { rows } = await db.query<ReferenceChangeRow>(
    `SELECT id, entity, entity_id, action, changed_by, before, after, created_at FROM reference_changes
      WHERE entity = $1 AND ($2::int IS NULL OR entity_id = $2) ORDER BY id DESC LIMIT $3`,
    [entity, entityId ?? null, limit],
  );
  return rows;
}
