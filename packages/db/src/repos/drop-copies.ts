// The copies owed to drop copy sessions (docs/adr/0017, migration 24). The triggers of migration 24
// write them with every report; this file reads them.
import type { Queryable } from '../db';

/** How many copies were ever owed to a drop copy connector (they keep it from being deleted). */
export async function countDropCopiesOwed(db: Queryable, connectorId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies WHERE drop_copy_connector_id = $1', [
    connectorId,
  ]);
  return rows[0]!.n;
}
