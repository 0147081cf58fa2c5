import type { ComponentBlockField, MessageSpec } from '@fixdesk/protocol';
import type { Queryable } from '../db';
import type { ComponentBlockRow } from './client-defaults';

// FIX message specifications: writes of the admin screen and the component-block reads
// (spec 001 §7 "GET /api/component-blocks/…"). Lists are in repos/reference.ts.

/** A message spec row as SQL returns it; `toMessageSpec` makes it the API's `MessageSpec`. */
type MessageSpecSqlRow = Omit<MessageSpec, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

/** The one mapping of a message spec row to the protocol's MessageSpec (timestamps as ISO text). */
function toMessageSpec(row: MessageSpecSqlRow): MessageSpec {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

export const MESSAGE_SPEC_COLUMNS = [
  'msg_type',
  'msg_name',
  'fix_version',
  'exec_type',
  'field_number',
  'field_position',
  'is_mandatory',
  'description',
] as const;
export type MessageSpecColumn = (typeof MESSAGE_SPEC_COLUMNS)[number];
export type MessageSpecWrite = { [K in MessageSpecColumn]?: unknown };

// The spec's own name and description; the dictionary's only where the spec has none (as the list).
const SELECT = `SELECT s.id, s.msg_type, coalesce(s.msg_name, t.msg_name) AS msg_name, s.fix_version, s.exec_type, s.field_number,
       f.field_name, f.field_type, s.field_position, s.is_mandatory, s.description, s.component_block_id, s.created_at, s.updated_at
  FROM fix_message_specs s
  JOIN fix_fields f ON f.field_number = s.field_number
  LEFT JOIN fix_message_types t ON t.msg_type = s.msg_type`;

export async function getMessageSpec(db: Queryable, id: number, opts: { lock?: boolean } = {}): Promise<MessageSpec | undefined> {
  if (opts.lock) await db.query('SELECT id FROM fix_message_specs WHERE id = $1 FOR UPDATE', [id]);
  const { rows } = await db.query<MessageSpecSqlRow>(`${SELECT} WHERE s.id = $1`, [id]);
  return rows[0] && toMessageSpec(rows[0]);
}

function columnsOf(values: MessageSpecWrite): MessageSpecColumn[] {
  return MESSAGE_SPEC_COLUMNS.filter((c) => values[c] !== undefined);
}

export async function insertMessageSpec(db: Queryable, values: MessageSpecWrite): Promise<MessageSpec> {
  const cols = columnsOf(values);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO fix_message_specs (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    cols.map((c) => values[c]),
  );
  return (await getMessageSpec(db, rows[0]!.id))!;
}

export async function updateMessageSpec(db: Queryable, id: number, values: MessageSpecWrite): Promise<MessageSpec | undefined> {
  const cols = columnsOf(values);
  if (cols.length === 0) return getMessageSpec(db, id);
  const { rowCount } = await db.query(
    `UPDATE fix_message_specs SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now() WHERE id = $1`,
    [id, ...cols.map((c) => values[c])],
  );
  return rowCount ? getMessageSpec(db, id) : undefined;
}

export async function deleteMessageSpec(db: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM fix_message_specs WHERE id = $1', [id]);
  return rowCount > 0;
}

export interface FixFieldRow {
  field_number: number;
  field_name: string;
  field_type: string;
  description: string | null;
}

export async function getFixField(db: Queryable, fieldNumber: number): Promise<FixFieldRow | undefined> {
  const { rows } = await db.query<FixFieldRow>(
    'SELECT field_number, field_name, field_type, description FROM fix_fields WHERE field_number = $1',
    [fieldNumber],
  );
  return rows[0];
}

/** Component blocks by name, in the order the names are given (unknown names are skipped). */
export async function componentBlocksByName(db: Queryable, names: readonly string[]): Promise<ComponentBlockRow[]> {
  if (names.length === 0) return [];
  const { rows } = await db.query<ComponentBlockRow>(
    'SELECT id, block_name, description, reference_url, group_field_number FROM component_blocks WHERE block_name = ANY($1::text[])',
    [names],
  );
  const byName = new Map(rows.map((r) => [r.block_name, r]));
  return names.flatMap((n) => byName.get(n) ?? []);
}

/** A block's fields in order (undefined when the block does not exist). */
export async function componentBlockFields(db: Queryable, blockId: number): Promise<ComponentBlockField[] | undefined> {
  const block = await db.query('SELECT 1 FROM component_blocks WHERE id = $1', [blockId]);
  if (block.rows.length === 0) return undefined;
  const { rows } = await db.query<ComponentBlockField>(
    `SELECT bf.field_number, f.field_name, f.field_type, f.description AS field_description, bf.field_position, bf.is_mandatory
       FROM component_block_fields bf JOIN fix_fields f ON f.field_number = bf.field_number
      WHERE bf.block_id = $1 ORDER BY bf.field_position`,
    [blockId],
  );
  return rows;
}
