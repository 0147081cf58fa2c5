import type { Queryable } from '../db';

// One stored FIX message for the FIX Messages audit screen's detail view, and the field specs'
// descriptions of the tags it carries.

export interface StoredFixMessageText {
  id: number;
  msg_type: string;
  raw_fix: string;
}

export async function getFixMessageText(db: Queryable, id: number): Promise<StoredFixMessageText | undefined> {
  const { rows } = await db.query<StoredFixMessageText>('SELECT id, msg_type, raw_fix FROM fix_messages WHERE id = $1', [id]);
  return rows[0];
}

/** The description of each given tag that the FIX field specs (fix_fields) describe. */
export async function fixFieldDescriptions(db: Queryable, tags: readonly number[]): Promise<Map<number, string>> {
  const { rows } = await db.query<{ field_number: number; description: string | null }>(
    'SELECT field_number, description FROM fix_fields WHERE field_number = ANY($1::int[])',
    [[...new Set(tags)]],
  );
  return new Map(rows.filter((r) => r.description).map((r) => [r.field_number, r.description!]));
}
