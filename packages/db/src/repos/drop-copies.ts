// The copies owed to drop copy sessions (docs/adr/0017, migrations 24 and 26). The triggers of
// migration 24 write them with every report; the intake's statements write the copies of its refusals
// (refusalCopiesCte); this file reads them for their sessions and marks them sent.
import type { Queryable } from '../db';
import { persistReservedOutboundAtomically, RESERVED_PARAMS, type ReservedOutbound } from '../fix-message-store';
import { pgArray } from '../pg-array';
import { cancelRejectsByIds, type UnsentCancelRejectRow } from './orders/writes';
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

/** One copy waiting for its drop copy session, with what it is built from. */
export type UnsentDropCopy =
  | { id: number; clientCompId: string; source: 'er'; er: CopiedReportRow; order: CopiedOrderRow; legs: OrderLegRow[] }
  | { id: number; clientCompId: string; source: 'cxlrej'; reject: UnsentCancelRejectRow }
  | { id: number; clientCompId: string; source: 'refusal'; refusal: RefusalCopyFacts };

/** The report's and the order's columns a copy reads, [key, expression] (numeric as text: exact). */
const REPORT_COLUMNS = [
  ['id', 'id'],
  ['order_id', 'order_id'],
  ['execid', 'execid'],
  ['clordid', 'clordid'],
  ['origclordid', 'origclordid'],
  ['orderid', 'orderid'],
  ['exectype', 'exectype'],
  ['ordstatus', 'ordstatus'],
  ['ordrejreason', 'ordrejreason'],
  ['orderqty', 'orderqty::text'],
  ['price', 'price::text'],
  ['lastqty', 'lastqty::text'],
  ['lastpx', 'lastpx::text'],
  ['cumqty', 'cumqty::text'],
  ['avgpx', 'avgpx::text'],
  ['leavesqty', 'leavesqty::text'],
  ['text', 'text'],
  ['transacttime', 'transacttime'],
  ['leg_index', 'leg_index'],
  ['executing_trader_id', 'executing_trader_id'],
  ['executing_trader_source', 'executing_trader_source'],
  ['executing_trader_name', 'executing_trader_name'],
] as const;
const ORDER_COLUMNS = [
  ['msg_type', 'msg_type'],
  ['symbol', 'symbol'],
  ['security_type', 'security_type'],
  ['maturity_month_year', 'maturity_month_year'],
  ['side', 'side'],
  ['orderqty', 'orderqty::text'],
  ['ordtype', 'ordtype'],
  ['price', 'price::text'],
  ['timeinforce', 'timeinforce'],
  ['exchange', 'exchange'],
  ['currency', 'currency'],
  ['account', 'account'],
] as const;
/**
 * The report columns a copy of an execution report is built from (buildExecutionReport's), and its
 * order's (with its id): the drain reads these, not every column (on PGlite a result's cost is mostly
 * its bytes). Named once, in the column lists above.
 */
export type CopiedReportRow = Pick<ExecReportRow, (typeof REPORT_COLUMNS)[number][0]>;
export type CopiedOrderRow = Pick<OrderRow, 'id' | (typeof ORDER_COLUMNS)[number][0]>;
/**
 * Each copy as one JSON array: the copy's 5 values, then the report's, then the order's. One value per
 * row, not forty: PGlite decodes a result value by value in JavaScript, and that decoding was most of
 * a burst's read (a micro-measure of 25-copy reads: about 200 us of CPU per copy with every column of
 * the report and the order, 115 with these columns as columns, 60 as one JSON array each).
 */
const COPY_READ = `json_build_array(c.id, c.source, c.client_comp_id, c.cancel_reject_id, c.refusal,
            ${REPORT_COLUMNS.map(([, c]) => `e.${c}`).join(', ')},
            ${ORDER_COLUMNS.map(([, c]) => `o.${c}`).join(', ')})`;
const REPORT_AT = 5;
const ORDER_AT = REPORT_AT + REPORT_COLUMNS.length;

/**
 * The oldest `limit` unsent copies of a drop copy connector, in id order, each with what it is built
 * from, in one statement: the copies with the columns of their reports and orders that the message
 * carries (a join; each row one JSON array). Legs are read only for a multileg order's copies
 * (msg_type AB: a NewOrderSingle has none) and cancel rejects only for theirs, each in a statement of
 * its own when the burst has any. `marks`: [copy id, MsgSeqNum] of copies sent and not marked yet,
 * marked sent by the same statement (markDropCopiesSent's UPDATE, in a CTE; its read sees the table as
 * it was before the statement, so they are skipped by id). A refusal copy carries its facts itself.
 */
export async function unsentDropCopies(
  db: Queryable,
  dropCopyConnectorId: number,
  limit: number,
  marks: ReadonlyArray<readonly [number, number]> = [],
): Promise<UnsentDropCopy[]> {
  const params: unknown[] = [dropCopyConnectorId, limit];
  if (marks.length) params.push(pgArray(marks.map((m) => m[0])), pgArray(marks.map((m) => m[1])));
  const { rows } = await db.query<[unknown[]]>(
    `${marks.length ? `WITH ${markCtes(3, 4)} ` : ''}SELECT ${COPY_READ}
       FROM drop_copies c LEFT JOIN execution_reports e ON e.id = c.exec_report_id LEFT JOIN orders o ON o.id = e.order_id
      WHERE c.drop_copy_connector_id = $1 AND c.sent_at IS NULL${marks.length ? ' AND NOT (c.id = ANY($3::int8[]))' : ''}
      ORDER BY c.id LIMIT $2`,
    params,
    { rowMode: 'array' },
  );
  if (!rows.length) return [];
  const rejectIds: number[] = [];
  const multileg: number[] = [];
  for (const [r] of rows) {
    if (r[1] === 'cxlrej') rejectIds.push(Number(r[3]));
    else if (r[1] === 'er' && r[ORDER_AT] !== 'D') multileg.push(Number(r[REPORT_AT + 1]));
  }
  const [rejects, legs] = await Promise.all([
    rejectIds.length ? cancelRejectsByIds(db, rejectIds) : [],
    multileg.length ? legsOf(db, multileg) : new Map<number, OrderLegRow[]>(),
  ]);
  const rejectById = new Map(rejects.map((r) => [Number(r.id), r]));
  const out: UnsentDropCopy[] = [];
  for (const [r] of rows) {
    const id = Number(r[0]);
    const clientCompId = r[2] as string;
    if (r[1] === 'refusal') out.push({ id, clientCompId, source: 'refusal', refusal: r[4] as RefusalCopyFacts });
    else if (r[1] === 'er') {
      const er: Record<string, unknown> = {};
      for (let i = 0; i < REPORT_COLUMNS.length; i++) er[REPORT_COLUMNS[i]![0]] = r[REPORT_AT + i];
      er.transacttime = new Date(er.transacttime as string);
      const order: Record<string, unknown> = { id: er.order_id };
      for (let i = 0; i < ORDER_COLUMNS.length; i++) order[ORDER_COLUMNS[i]![0]] = r[ORDER_AT + i];
      const report = er as CopiedReportRow;
      out.push({ id, clientCompId, source: 'er', er: report, order: order as CopiedOrderRow, legs: legs.get(report.order_id) ?? [] });
    } else out.push({ id, clientCompId, source: 'cxlrej', reject: rejectById.get(Number(r[3]))! });
  }
  return out;
}

/** The legs of these orders, each order's in leg order. */
async function legsOf(db: Queryable, orderIds: readonly number[]): Promise<Map<number, OrderLegRow[]>> {
  const { rows } = await db.query<OrderLegRow>('SELECT * FROM order_legs WHERE order_id = ANY($1::int8[]) ORDER BY order_id, leg_index', [
    pgArray([...new Set(orderIds)]),
  ]);
  const legs = new Map<number, OrderLegRow[]>();
  for (const l of rows) {
    const list = legs.get(Number(l.order_id));
    if (list) list.push(l);
    else legs.set(Number(l.order_id), [l]);
  }
  return legs;
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

/**
 * Stores copies whose numbers the drop copy session reserved (Session.reserveSend) and marks them sent,
 * in one statement that is its own transaction: the copies' messages in the FIX store and their marks
 * commit together, with the WAL flush the store needs before the bytes leave. `marks`: [copy id,
 * MsgSeqNum], one per message. Fails as a whole (nothing stored, nothing marked) when a session's
 * store was reset since its numbers were taken or its lease fence no longer holds. The statement is
 * prepared (named): a copy not yet marked is told by `sent_seq_num IS NULL` (the marks set it with
 * `sent_at`), not `sent_at IS NULL`, which let PostgreSQL's generic plan scan the partial index of every
 * unsent copy for each mark, where this one probes the key.
 */
export async function storeDropCopiesSent(
  db: Queryable,
  messages: readonly ReservedOutbound[],
  marks: ReadonlyArray<readonly [number, number]>,
): Promise<void> {
  if (!messages.length) return;
  const ids = RESERVED_PARAMS + 1;
  await persistReservedOutboundAtomically(db, messages, {
    name: 'drop_copies_sent',
    ctes: `marked AS (UPDATE drop_copies d SET sent_at = now(), sent_seq_num = k.seq
             FROM unnest($${ids}::int8[], $${ids + 1}::int[]) AS k(id, seq)
            WHERE d.id = ANY ($${ids}::int8[]) AND d.id = k.id AND d.sent_seq_num IS NULL)`,
    params: [pgArray(marks.map((m) => m[0])), pgArray(marks.map((m) => m[1]))],
    // On PGlite its generic plan took 69 ms a burst of about 475 copies where a plan for the burst's
    // own parameters takes 13 (order benchmark with a drop copy session, full speed).
    replan: true,
  });
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
