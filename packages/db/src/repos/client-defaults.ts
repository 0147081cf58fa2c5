import type { ClientFieldDefault } from '@fixdesk/protocol';
import type { Queryable } from '../db';

// Client FIX defaults: field defaults per client, message type and ExecType, and repeating-group
// instances (Parties …). A default with exec_type null applies to every ExecType; one for a given
// ExecType takes its place for that ExecType (fields tag by tag, groups block by block).

/** A client default row as SQL returns it; `toClientFieldDefault` makes it the API's `ClientFieldDefault`. */
type ClientDefaultSqlRow = Omit<ClientFieldDefault, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

/** The one mapping of a client default row to the protocol's ClientFieldDefault (timestamps as ISO text). */
function toClientFieldDefault(row: ClientDefaultSqlRow): ClientFieldDefault {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

/** `execType` is the SQL of the ExecType asked about (a parameter or NULL), for is_mandatory. */
const defaultSelect = (execType: string) => `
  SELECT d.default_id, d.client_connector_id, d.msg_type, d.exec_type, d.tag, d.default_value, d.notes,
         f.field_name, f.description AS field_description,
         EXISTS (SELECT 1 FROM fix_message_specs s
                  WHERE s.msg_type = d.msg_type AND s.field_number = d.tag AND s.is_mandatory
                    AND (coalesce(d.exec_type, ${execType}) IS NULL OR s.exec_type IS NULL OR s.exec_type = coalesce(d.exec_type, ${execType}))) AS is_mandatory,
         d.created_at, d.updated_at
    FROM fix_client_defaults d JOIN fix_fields f ON f.field_number = d.tag`;

/**
 * The defaults in force for a client's message type: without an ExecType those for every ExecType;
 * with one, that ExecType's own plus the general ones it does not override. In tag order.
 */
export async function listClientDefaults(
  db: Queryable,
  connectorId: number,
  msgType: string,
  execType: string | null,
): Promise<ClientFieldDefault[]> {
  const { rows } = await db.query<ClientDefaultSqlRow>(
    `SELECT DISTINCT ON (x.tag) x.* FROM (${defaultSelect('$3::text')}
      WHERE d.client_connector_id = $1 AND d.msg_type = $2 AND (d.exec_type IS NULL OR d.exec_type = $3::text)) x
     ORDER BY x.tag, x.exec_type NULLS LAST`,
    [connectorId, msgType, execType],
  );
  return rows.map(toClientFieldDefault);
}

export async function getClientDefault(db: Queryable, defaultId: number): Promise<ClientFieldDefault | undefined> {
  const { rows } = await db.query<ClientDefaultSqlRow>(`${defaultSelect('NULL::text')} WHERE d.default_id = $1`, [defaultId]);
  return rows[0] && toClientFieldDefault(rows[0]);
}

export async function insertClientDefault(
  db: Queryable,
  d: { client_connector_id: number; msg_type: string; exec_type: string | null; tag: number; default_value: string; notes: string | null },
): Promise<ClientFieldDefault> {
  const { rows } = await db.query<{ default_id: number }>(
    `INSERT INTO fix_client_defaults (client_connector_id, msg_type, exec_type, tag, default_value, notes)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING default_id`,
    [d.client_connector_id, d.msg_type, d.exec_type, d.tag, d.default_value, d.notes],
  );
  return (await getClientDefault(db, rows[0]!.default_id))!;
}

export async function updateClientDefault(
  db: Queryable,
  defaultId: number,
  change: { default_value?: string; notes?: string | null },
): Promise<ClientFieldDefault | undefined> {
  const r = await db.query(
    `UPDATE fix_client_defaults
        SET default_value = coalesce($2, default_value),
            notes = CASE WHEN $3::boolean THEN $4 ELSE notes END,
            updated_at = now()
      WHERE default_id = $1`,
    [defaultId, change.default_value ?? null, change.notes !== undefined, change.notes ?? null],
  );
  if (r.rowCount === 0) return undefined;
  return getClientDefault(db, defaultId);
}

export async function deleteClientDefault(db: Queryable, defaultId: number): Promise<boolean> {
  const r = await db.query('DELETE FROM fix_client_defaults WHERE default_id = $1', [defaultId]);
  return r.rowCount > 0;
}

// ───────────────────────────── repeating groups ─────────────────────────────

export interface GroupInstanceFieldRow {
  component_block_id: number;
  block_name: string;
  description: string | null;
  reference_url: string | null;
  group_field_number: number;
  exec_type: string | null;
  group_instance_number: number;
  tag: number;
  field_name: string;
  default_value: string;
  notes: string | null;
}

/**
 * The group instances in force for a client's message type, one row per field, ordered by block,
 * instance and the block's field order. With an ExecType, a block that has instances for that ExecType
 * uses only those; otherwise the general ones.
 */
export async function listGroupDefaults(
  db: Queryable,
  connectorId: number,
  msgType: string,
  execType: string | null,
): Promise<GroupInstanceFieldRow[]> {
  const { rows } = await db.query<GroupInstanceFieldRow>(
    `WITH inst AS (
       SELECT i.*,
              bool_or(i.exec_type IS NOT NULL) OVER (PARTITION BY i.component_block_id) AS has_specific
         FROM fix_client_group_instances i
        WHERE i.client_connector_id = $1 AND i.msg_type = $2 AND (i.exec_type IS NULL OR i.exec_type = $3::text)
     )
     SELECT b.id AS component_block_id, b.block_name, b.description, b.reference_url, b.group_field_number,
            inst.exec_type, inst.group_instance_number, f.tag, ff.field_name, f.default_value, f.notes
       FROM inst
       JOIN component_blocks b ON b.id = inst.component_block_id
       JOIN fix_client_group_fields f ON f.instance_id = inst.id
       JOIN fix_fields ff ON ff.field_number = f.tag
       LEFT JOIN component_block_fields bf ON bf.block_id = b.id AND bf.field_number = f.tag
      WHERE b.group_field_number IS NOT NULL AND (inst.exec_type IS NOT NULL OR NOT inst.has_specific)
      ORDER BY b.group_field_number, b.id, inst.group_instance_number, bf.field_position NULLS LAST, f.tag`,
    [connectorId, msgType, execType],
  );
  return rows;
}

export interface ComponentBlockRow {
  id: number;
  block_name: string;
  description: string | null;
  reference_url: string | null;
  group_field_number: number | null;
}

export async function getComponentBlock(db: Queryable, blockId: number): Promise<ComponentBlockRow | undefined> {
  const { rows } = await db.query<ComponentBlockRow>(
    'SELECT id, block_name, description, reference_url, group_field_number FROM component_blocks WHERE id = $1',
    [blockId],
  );
  return rows[0];
}

/**
 * Adds one group instance with its fields. The number is the given one, or the next (highest + 1,
 * from 1). Returns undefined when that instance already exists.
 */
export async function insertGroupInstance(
  tx: Queryable,
  g: {
    client_connector_id: number;
    msg_type: string;
    exec_type: string | null;
    component_block_id: number;
    group_instance_number: number | null;
    fields: { tag: number; default_value: string; notes: string | null }[];
  },
): Promise<number | undefined> {
  let number = g.group_instance_number;
  if (number === null) {
    const { rows } = await tx.query<{ next: number }>(
      `SELECT coalesce(max(group_instance_number), 0) + 1 AS next FROM fix_client_group_instances
        WHERE client_connector_id = $1 AND msg_type = $2 AND coalesce(exec_type, '') = coalesce($3::text, '') AND component_block_id = $4`,
      [g.client_connector_id, g.msg_type, g.exec_type, g.component_block_id],
    );
    number = rows[0]!.next;
  }
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO fix_client_group_instances (client_connector_id, msg_type, exec_type, component_block_id, group_instance_number)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id`,
    [g.client_connector_id, g.msg_type, g.exec_type, g.component_block_id, number],
  );
  const id = inserted.rows[0]?.id;
  if (id === undefined) return undefined;
  await tx.query(
    `INSERT INTO fix_client_group_fields (instance_id, tag, default_value, notes)
     SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[])`,
    [id, g.fields.map((f) => f.tag), g.fields.map((f) => f.default_value), g.fields.map((f) => f.notes)],
  );
  return number;
}

export async function deleteGroupInstance(
  db: Queryable,
  k: { client_connector_id: number; msg_type: string; exec_type: string | null; component_block_id: number; group_instance_number: number },
): Promise<boolean> {
  const r = await db.query(
    `DELETE FROM fix_client_group_instances
      WHERE client_connector_id = $1 AND msg_type = $2 AND coalesce(exec_type, '') = coalesce($3::text, '')
        AND component_block_id = $4 AND group_instance_number = $5`,
    [k.client_connector_id, k.msg_type, k.exec_type, k.component_block_id, k.group_instance_number],
  );
  return r.rowCount > 0;
}

// ───────────────────────────── the dictionary as the defaults screen reads it ─────────────────────────────

export interface FieldInfoRow {
  field_number: number;
  field_name: string;
  field_type: string;
  description: string | null;
  enums: { code: string; description: string }[];
}

export async function getFieldInfo(db: Queryable, tag: number): Promise<FieldInfoRow | undefined> {
  const { rows } = await db.query<Omit<FieldInfoRow, 'enums'>>(
    'SELECT field_number, field_name, field_type, description FROM fix_fields WHERE field_number = $1',
    [tag],
  );
  const f = rows[0];
  if (!f) return undefined;
  const e = await db.query<{ code: string; description: string }>(
    'SELECT enum_value AS code, description FROM fix_enums WHERE field_number = $1 ORDER BY enum_value',
    [tag],
  );
  return { ...f, enums: e.rows };
}

// What shapes the messages sent to one client (its "profile"): every default, every group field, and
// the mandatory fields of our message specs, read at once.

export async function listProfileDefaults(
  db: Queryable,
  connectorId: number,
): Promise<Array<{ msg_type: string; exec_type: string | null; tag: number; default_value: string }>> {
  const { rows } = await db.query<{ msg_type: string; exec_type: string | null; tag: number; default_value: string }>(
    'SELECT msg_type, exec_type, tag, default_value FROM fix_client_defaults WHERE client_connector_id = $1 ORDER BY tag',
    [connectorId],
  );
  return rows;
}

export interface ProfileGroupFieldRow {
  msg_type: string;
  exec_type: string | null;
  group_field_number: number | null;
  group_instance_number: number;
  tag: number;
  default_value: string;
  position: number | null;
}

/** Every field of the client's group instances, in message, group, instance and field order. */
export async function listProfileGroupFields(db: Queryable, connectorId: number): Promise<ProfileGroupFieldRow[]> {
  const { rows } = await db.query<ProfileGroupFieldRow>(
    `SELECT i.msg_type, i.exec_type, b.group_field_number, i.group_instance_number, f.tag, f.default_value, bf.field_position AS position
       FROM fix_client_group_instances i
       JOIN component_blocks b ON b.id = i.component_block_id
       JOIN fix_client_group_fields f ON f.instance_id = i.id
       LEFT JOIN component_block_fields bf ON bf.block_id = b.id AND bf.field_number = f.tag
      WHERE i.client_connector_id = $1
      ORDER BY i.msg_type, i.exec_type NULLS FIRST, b.group_field_number, i.group_instance_number, bf.field_position NULLS LAST, f.tag`,
    [connectorId],
  );
  return rows;
}

export async function listMandatoryFields(
  db: Queryable,
): Promise<Array<{ msg_type: string; exec_type: string | null; field_number: number }>> {
  const { rows } = await db.query<{ msg_type: string; exec_type: string | null; field_number: number }>(
    'SELECT msg_type, exec_type, field_number FROM fix_message_specs WHERE is_mandatory ORDER BY field_position',
  );
  return rows;
}
