import type { Security } from '@fixdesk/protocol';
import type { Queryable } from '../db';

// Reads of the reference data the screens load (spec 000 §7). Writes arrive with their admin screens.

/** The columns of a security the order core reads (the protocol's names and types). */
export type SecurityRow = Pick<
  Security,
  'id' | 'symbol' | 'instrument_name' | 'is_active' | 'price_tick_size' | 'qty_tick_size' | 'exchange' | 'currency'
>;

export async function findSecurity(db: Queryable, symbol: string): Promise<SecurityRow | undefined> {
  const { rows } = await db.query<SecurityRow>(
    'SELECT id, symbol, instrument_name, is_active, price_tick_size, qty_tick_size, exchange, currency FROM security_master WHERE upper(symbol) = upper($1)',
    [symbol],
  );
  return rows[0];
}

export async function listMessageSpecs(db: Queryable, opts: { msgType?: string; execType?: string } = {}) {
  const { rows } = await db.query(
    `SELECT s.id, s.msg_type, coalesce(s.msg_name, t.msg_name) AS msg_name, s.fix_version, s.exec_type, s.field_number,
            f.field_name, f.field_type, s.field_position, s.is_mandatory, coalesce(s.description, f.description) AS description,
            s.component_block_id, s.created_at, s.updated_at
       FROM fix_message_specs s
       JOIN fix_fields f ON f.field_number = s.field_number
       LEFT JOIN fix_message_types t ON t.msg_type = s.msg_type
      WHERE ($1::text IS NULL OR s.msg_type = $1) AND ($2::text IS NULL OR s.exec_type = $2)
      ORDER BY s.msg_type, s.exec_type NULLS FIRST, s.field_position NULLS LAST, s.field_number`,
    [opts.msgType ?? null, opts.execType ?? null],
  );
  return rows;
}

export async function listFixFields(db: Queryable) {
  const { rows } = await db.query(
    `SELECT f.field_number, f.field_name, f.field_type, f.description, f.valid_values,
            (SELECT string_agg(e.enum_value || '=' || e.description, ', ' ORDER BY e.enum_value)
               FROM fix_enums e WHERE e.field_number = f.field_number) AS valid_values_display
       FROM fix_fields f ORDER BY f.field_number`,
  );
  return rows;
}

export async function listFixEnums(db: Queryable, opts: { fieldNumber?: number } = {}) {
  const { rows } = await db.query(
    `SELECT field_number, enum_value, description FROM fix_enums
      WHERE ($1::int IS NULL OR field_number = $1) ORDER BY field_number, enum_value`,
    [opts.fieldNumber ?? null],
  );
  return rows;
}

/** For each repeating group (keyed by its NumInGroup tag): its member fields in order. */
export async function repeatingGroupFields(db: Queryable): Promise<Record<string, unknown[]>> {
  const { rows } = await db.query<{
    group_field_number: number;
    block_name: string;
    field_number: number;
    field_name: string;
    field_position: number;
    is_mandatory: boolean;
  }>(
    `SELECT b.group_field_number, b.block_name, bf.field_number, f.field_name, bf.field_position, bf.is_mandatory
       FROM component_blocks b
       JOIN component_block_fields bf ON bf.block_id = b.id
       JOIN fix_fields f ON f.field_number = bf.field_number
      WHERE b.group_field_number IS NOT NULL AND bf.field_number <> b.group_field_number
      ORDER BY b.group_field_number, bf.field_position`,
  );
  const out: Record<string, unknown[]> = {};
  for (const r of rows) {
    const key = String(r.group_field_number);
    (out[key] ??= []).push({
      block_name: r.block_name,
      field_number: r.field_number,
      field_name: r.field_name,
      field_position: r.field_position,
      is_mandatory: r.is_mandatory,
    });
  }
  return out;
}

export async function listBrokers(db: Queryable) {
  const { rows } = await db.query(
    `SELECT b.*, p.company_name AS parent_company_name
       FROM broker_information b LEFT JOIN broker_information p ON p.id = b.parent_company_id
      ORDER BY b.id`,
  );
  return rows;
}

/** The latest fill price per symbol, type and contract, from our own trade history. */
export async function latestPrices(db: Queryable) {
  const { rows } = await db.query(
    `SELECT DISTINCT ON (symbol, type, contract)
            symbol, type, contract, price, quantity, executed_at AS executed, securityid
       FROM trade_history
      ORDER BY symbol, type, contract, executed_at DESC, id DESC`,
  );
  return rows;
}
