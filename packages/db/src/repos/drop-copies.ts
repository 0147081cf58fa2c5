// The copies owed to drop copy sessions (docs/adr/0017, migrations 24 and 26). The triggers of
// migration 24 write them with every report; the intake's statements write the copies of its refusals
// (refusalCopiesCte); this file reads them for their sessions and marks them sent.
import type { Queryable } from '../db';
import { pgArray } from '../pg-array';
import { cancelRejectsByIds, ordersWithLegs, type UnsentCancelRejectRow } from './orders/writes';
import type { ExecReportRow, OrderLegRow, OrderRow } from './orders/rows';

/** How many copies were ever owed to a drop copy connector (they keep it from being deleted). */
export async function countDropCopiesOwed(db: Queryable, connectorId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies WHERE drop_copy_connector_id = $1', [
    connectorId,
  ]);
  return rows[0]!.n;
}

/** An active drop copy connector and the clients it covers (empty: every client). */
export interface DropCopyCoverRow {
  id: number;
  comp_id: string;
  drop_copy_of: string[];
}

/** Every active drop copy connector with its clients: which sessions a client's new reports concern. */
export async function listDropCopyCovers(db: Queryable): Promise<DropCopyCoverRow[]> {
  const { rows } = await db.query<DropCopyCoverRow>(
    "SELECT id, comp_id, drop_copy_of FROM client_connectors WHERE session_type = 'drop_copy' AND is_active ORDER BY id",
  );
  return rows;
}

/**
 * What a refusal at intake (150=8, no order row) tells the client besides its ExecID and time: the
 * order's terms as the client sent them (wire text, possibly missing or malformed) and why it was refused.
 */
export interface RefusalTerms {
  clOrdId: string | null;
  side: string | null;
  symbol: string | null;
  orderQty: string | null;
  ordType: string | null;
  price: string | null;
  account: string | null;
  ordRejReason: string;
  text: string;
}

/** A refusal copy's facts (drop_copies.refusal): everything the refusal report the client got is built from. */
export interface RefusalCopyFacts extends RefusalTerms {
  execId: string;
  /** The report's TransactTime, as ISO 8601 text. */
  transactTime: string;
}

/** A refusal whose ExecID its statement drew: its copies are written with it. */
export interface RefusalToCopy {
  /** The refused client's comp id. */
  readonly client: string;
  readonly execId: string;
  readonly transactTime: Date;
  readonly terms: RefusalTerms;
}

/**
 * The CTE (named refusal_copies) writing one copy of each refusal per active drop copy connector covering
 * its client (fixdesk_drop_copy_covers, the rule of the report copies' trigger), in the refusals' order.
 * `rows` yields (ord, client, refusal jsonb). It reads client_connectors and nothing else.
 */
function refusalCopiesFrom(rows: string): string {
  return `refusal_copies AS (
  INSERT INTO drop_copies (drop_copy_connector_id, client_comp_id, source, refusal)
  SELECT d.id, r.client, 'refusal', r.refusal
    FROM (${rows}) r JOIN client_connectors d ON fixdesk_drop_copy_covers(d, r.client)
   ORDER BY r.ord, d.id
)`;
}

/** refusal_copies from parameter `$${param}`, refusalCopiesParam's JSON (the refusals fully known). */
export function refusalCopiesCte(param: number): string {
  return refusalCopiesFrom(
    `SELECT e.ord, e.value ->> 'client' AS client, e.value -> 'refusal' AS refusal FROM jsonb_array_elements($${param}::jsonb) WITH ORDINALITY AS e(value, ord)`,
  );
}

/** The parameter of refusalCopiesCte. */
export function refusalCopiesParam(copies: readonly RefusalToCopy[]): string {
  return JSON.stringify(
    copies.map((c) => {
      const refusal: RefusalCopyFacts = { ...c.terms, execId: c.execId, transactTime: c.transactTime.toISOString() };
      return { client: c.client, refusal };
    }),
  );
}

/**
 * refusal_copies for the entries of a statement that draws their ExecIDs itself: parameter `$${param}`
 * is JSON [{ord, client, terms}] and `input` the statement's CTE holding (ord, execid, report_time).
 */
export function drawnRefusalCopiesCte(param: number, input: string): string {
  return refusalCopiesFrom(
    `SELECT i.ord, f.value ->> 'client' AS client,
            (f.value -> 'terms') || jsonb_build_object('execId', i.execid, 'transactTime', i.report_time) AS refusal
       FROM jsonb_array_elements($${param}::jsonb) AS f(value) JOIN ${input} i ON i.ord = (f.value ->> 'ord')::int8`,
  );
}

/**
 * Refusal copies in a statement of their own: for a duplicate ClOrdID refused by a batch that committed
 * on its own (nothing else of it was left to write), right after that commit.
 */
export async function storeRefusalCopies(db: Queryable, copies: readonly RefusalToCopy[]): Promise<void> {
  if (!copies.length) return;
  await db.query(`WITH ${refusalCopiesCte(1)} SELECT 1`, [refusalCopiesParam(copies)], { name: 'refusal_copies' });
}

/** One copy waiting for its drop copy session, with what it is built from (the rows the client's outbox reads). */
export type UnsentDropCopy =
  | { id: number; clientCompId: string; source: 'er'; er: ExecReportRow; order: OrderRow; legs: OrderLegRow[] }
  | { id: number; clientCompId: string; source: 'cxlrej'; reject: UnsentCancelRejectRow }
  | { id: number; clientCompId: string; source: 'refusal'; refusal: RefusalCopyFacts };

/**
 * The oldest `limit` unsent copies of a drop copy connector, in id order, each with its report and
 * order (and legs): two rounds however many (the copies with their execution reports; then the orders,
 * legs and cancel rejects). `skip`: copies already handed to the session whose mark has not committed
 * yet. `marks`: [copy id, MsgSeqNum] of copies sent, marked sent by the first statement
 * (markDropCopiesSent's UPDATE, in a CTE; its read sees the table as it was before the statement, so
 * they are skipped too). A refusal copy carries its facts itself.
 */
export async function unsentDropCopies(
  db: Queryable,
  dropCopyConnectorId: number,
  limit: number,
  skip: readonly number[] = [],
  marks: ReadonlyArray<readonly [number, number]> = [],
): Promise<UnsentDropCopy[]> {
  const params: unknown[] = [dropCopyConnectorId, limit, pgArray([...skip, ...marks.map((m) => m[0])])];
  if (marks.length) params.push(pgArray(marks.map((m) => m[0])), pgArray(marks.map((m) => m[1])));
  const { rows } = await db.query<
    ExecReportRow & {
      copy_id: string;
      copy_source: UnsentDropCopy['source'];
      copy_client: string;
      copy_cxlrej: string | null;
      copy_refusal: RefusalCopyFacts | null;
    }
  >(
    `${marks.length ? `WITH ${markCtes(4, 5)} ` : ''}SELECT c.id AS copy_id, c.source AS copy_source, c.client_comp_id AS copy_client, c.cancel_reject_id AS copy_cxlrej,
            c.refusal AS copy_refusal, e.*
       FROM drop_copies c LEFT JOIN execution_reports e ON e.id = c.exec_report_id
      WHERE c.drop_copy_connector_id = $1 AND c.sent_at IS NULL
        AND NOT (c.id = ANY($3::int8[]))
      ORDER BY c.id LIMIT $2`,
    params,
  );
  if (!rows.length) return [];
  const rejectIds = rows.flatMap((r) => (r.copy_source === 'cxlrej' ? [Number(r.copy_cxlrej)] : []));
  const rejects = new Map((await cancelRejectsByIds(db, rejectIds)).map((r) => [Number(r.id), r]));
  const { orders, legs } = await ordersWithLegs(db, rows.filter((r) => r.copy_source === 'er') as Array<{ order_id: number }>);
  const out: UnsentDropCopy[] = [];
  for (const r of rows) {
    const { copy_id, copy_source, copy_client, copy_cxlrej, copy_refusal, ...er } = r;
    const id = Number(copy_id);
    if (copy_source === 'refusal') out.push({ id, clientCompId: copy_client, source: 'refusal', refusal: copy_refusal! });
    else if (copy_source === 'er') {
      const order = orders.get(Number(er.order_id))!;
      out.push({ id, clientCompId: copy_client, source: 'er', er, order, legs: legs.get(Number(er.order_id)) ?? [] });
    } else {
      out.push({ id, clientCompId: copy_client, source: 'cxlrej', reject: rejects.get(Number(copy_cxlrej))! });
    }
  }
  return out;
}

/** The newest copy waiting for a drop copy connector (null when none): what its logon's recovery flags PossResend. */
export async function newestUnsentDropCopyId(db: Queryable, dropCopyConnectorId: number): Promise<number | null> {
  const { rows } = await db.query<{ id: string | null }>(
    'SELECT max(id) AS id FROM drop_copies WHERE drop_copy_connector_id = $1 AND sent_at IS NULL',
    [dropCopyConnectorId],
  );
  return rows[0]?.id == null ? null : Number(rows[0].id);
}

/**
 * The CTEs marking copies sent, copy ids in parameter `$${ids}` and their MsgSeqNums in `$${seqs}`; the
 * commit does not wait for the WAL flush (markDropCopiesSent). A data-modifying CTE runs whether or
 * not the statement reads it. `d.id = ANY` lets the planner find the rows by their key: joined to
 * unnest alone, it hashed the whole table (every copy ever made) for each mark.
 */
function markCtes(ids: number, seqs: number): string {
  return `relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
  marked AS (UPDATE drop_copies d SET sent_at = now(), sent_seq_num = m.seq
               FROM unnest($${ids}::int8[], $${seqs}::int[]) AS m(id, seq), relaxed
              WHERE d.id = ANY ($${ids}::int8[]) AND d.id = m.id AND d.sent_at IS NULL)`;
}

/**
 * Marks copies sent, [copy id, MsgSeqNum] pairs, in one statement. As for the client's reports
 * (markExecReportsSent) the commit does not wait for the WAL flush: the copy is already durable in the
 * FIX store, and a mark a crash loses only means the copy goes out again at the next logon, PossResend.
 */
export async function markDropCopiesSent(db: Queryable, marks: ReadonlyArray<readonly [number, number]>): Promise<void> {
  if (!marks.length) return;
  await db.query(`WITH ${markCtes(1, 2)} SELECT 1`, [pgArray(marks.map((m) => m[0])), pgArray(marks.map((m) => m[1]))]);
}

/** A drop copy connector's queue: unsent copies and the creation time of the oldest (null when none). */
export interface DropCopyQueueRow {
  comp_id: string;
  depth: number;
  oldest_unsent_at: Date | null;
}

/** Every drop copy connector's queue depth and the age of its oldest unsent copy (operator screens, metrics). */
export async function countUnsentDropCopies(db: Queryable): Promise<DropCopyQueueRow[]> {
  const { rows } = await db.query<DropCopyQueueRow>(
    `SELECT d.comp_id, count(c.id)::int AS depth, min(c.created_at) AS oldest_unsent_at
       FROM client_connectors d LEFT JOIN drop_copies c ON c.drop_copy_connector_id = d.id AND c.sent_at IS NULL
      WHERE d.session_type = 'drop_copy'
      GROUP BY d.comp_id ORDER BY d.comp_id`,
  );
  return rows;
}
