// The copies owed to drop copy sessions (docs/adr/0017, migration 24). A copy is written by the very
// statement that writes its report, through the one CTE fragment below, so that no report is ever
// committed without its copies nor a copy without its report, whatever path made the report and
// whether or not a drop copy session is logged on anywhere.
import type { Queryable } from '../db';

/** A copy as the statement that wrote it answers it: its id and the drop copy connector it is owed to. */
export interface WrittenDropCopy {
  id: number;
  connector_id: number;
}

/**
 * The drop copy connectors that receive a client's reports: active ones whose list names the client
 * or is empty (every client). `client` is an SQL expression of the client's comp id.
 */
function coveringDropCopies(client: string): string {
  return `client_connectors d ON d.session_type = 'drop_copy' AND d.is_active
                          AND (cardinality(d.drop_copy_of) = 0 OR ${client} = ANY (d.drop_copy_of))`;
}

/**
 * A CTE (named `copies`) inserting one copy of each row of the CTE `reports` per drop copy connector
 * covering the row's client, in the reports' order; `reports` gives `id` and `sendercompid`. `source`
 * says which table `reports` inserted into. With no drop copy connector it inserts nothing.
 */
export function dropCopiesCte(reports: string, source: 'er' | 'cxlrej'): string {
  const column = source === 'er' ? 'exec_report_id' : 'cancel_reject_id';
  return `copies AS (
  INSERT INTO drop_copies (drop_copy_connector_id, client_comp_id, source, ${column})
  SELECT d.id, r.sendercompid, '${source}', r.id
    FROM ${reports} r JOIN ${coveringDropCopies('r.sendercompid')}
   ORDER BY r.id, d.id
  RETURNING id, drop_copy_connector_id
)`;
}

/** The copies the `copies` CTE wrote, as one json column `drop_copies` (an empty list when none). */
export const WRITTEN_DROP_COPIES = `(SELECT coalesce(json_agg(json_build_object('id', c.id, 'connector_id', c.drop_copy_connector_id) ORDER BY c.id), '[]'::json)
     FROM copies c) AS drop_copies`;

/** How many copies were ever owed to a drop copy connector (they keep it from being deleted). */
export async function countDropCopiesOwed(db: Queryable, connectorId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies WHERE drop_copy_connector_id = $1', [
    connectorId,
  ]);
  return rows[0]!.n;
}
