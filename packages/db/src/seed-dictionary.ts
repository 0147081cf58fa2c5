import type { Queryable } from './db';

// The engine's generated dictionary data (packages/fix/src/dictionary/fix44.generated.json).
import type { DictionaryData, DictionaryItem } from '@fixdesk/fix';

export type { DictionaryData, DictionaryItem };

// Links to our own FIX specification page, never to an outside site.
const REFERENCE_BASE = '/fix-specification?component=';

/** Writes fields, enums, message types and component blocks from the engine's dictionary data. */
export async function seedDictionary(tx: Queryable, dict: DictionaryData): Promise<void> {
  // Batched through unnest so a first start writes ~1,000 fields and ~1,700 enums in a few statements.
  const fields = dict.fields;
  await tx.query(
    `INSERT INTO fix_fields (field_number, field_name, field_type, description, valid_values)
     SELECT t.n, t.name, t.type, t.descr, t.vals::jsonb FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[])
       AS t(n, name, type, descr, vals)`,
    [
      fields.map((f) => f.tag),
      fields.map((f) => f.name),
      fields.map((f) => f.type),
      fields.map((f) => describeField(f.name, f.type)),
      fields.map((f) => (f.enums ? JSON.stringify(f.enums.map((e) => `${e.value}=${e.description}`)) : null)),
    ],
  );
  const enums = fields.flatMap((f) => (f.enums ?? []).map((e) => ({ tag: f.tag, ...e })));
  await tx.query(
    `INSERT INTO fix_enums (field_number, enum_value, description)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`,
    [enums.map((e) => e.tag), enums.map((e) => e.value), enums.map((e) => e.description)],
  );
  await tx.query(`INSERT INTO fix_message_types (msg_type, msg_name, category) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`, [
    dict.messages.map((m) => m.msgType),
    dict.messages.map((m) => m.name),
    dict.messages.map((m) => m.category),
  ]);
  for (const [name, items] of Object.entries(dict.components)) {
    const group = items.length === 1 && items[0] && 'group' in items[0] ? items[0].group : null;
    const block = await tx.query<{ id: number }>(
      'INSERT INTO component_blocks (block_name, description, reference_url, group_field_number) VALUES ($1, $2, $3, $4) RETURNING id',
      [name, describeComponent(name, group), `${REFERENCE_BASE}${name}`, group],
    );
    const flat = flatten(items, dict.components);
    const seen = new Set<number>();
    const rows = flat.filter((f) => !seen.has(f.tag) && seen.add(f.tag));
    await tx.query(
      `INSERT INTO component_block_fields (block_id, field_number, field_position, is_mandatory)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::bool[])`,
      [block.rows[0]!.id, rows.map((r) => r.tag), rows.map((_, i) => i + 1), rows.map((r) => r.required)],
    );
  }
}

/** The fields of a component in order, with nested components expanded and group members included. */
export function flatten(
  items: DictionaryItem[],
  components: Record<string, DictionaryItem[]>,
  depth = 0,
): { tag: number; required: boolean }[] {
  if (depth > 16) throw new Error('component nesting too deep');
  const out: { tag: number; required: boolean }[] = [];
  for (const item of items) {
    if ('field' in item) out.push({ tag: item.field, required: item.required });
    else if ('group' in item) {
      out.push({ tag: item.group, required: item.required });
      out.push(...flatten(item.items, components, depth + 1));
    } else {
      const inner = components[item.component];
      if (!inner) throw new Error(`unknown component ${item.component}`);
      out.push(...flatten(inner, components, depth + 1).map((f) => ({ ...f, required: f.required && item.required })));
    }
  }
  return out;
}

function describeField(name: string, type: string): string {
  // Split CamelCase into words: "OrdRejReason" → "Ord Rej Reason (INT)". The dictionary has no prose.
  return `${name.replace(/([a-z0-9])([A-Z])/g, '$1 $2')} (${type})`;
}

function describeComponent(name: string, group: number | null): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return group ? `${words}: repeating group counted by tag ${group}` : `${words} component block`;
}
