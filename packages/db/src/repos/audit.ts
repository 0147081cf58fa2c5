import type { FixMessageRecord, OrderAction } from '@fixdesk/protocol';
import type { Queryable } from '../db';
import { redactFix } from '../redact-fix';
import { decimalText, isoText } from './sql-text';

// The compliance reads: FIX messages in and out, and the order actions (who did what to which order).

/**
 * A FIX message as the audit screens, exports and order timelines read it: times as ISO 8601 UTC text
 * (sql-text.ts; with microseconds on a timeline), the protocol's FixMessageRecord fields under their
 * column names; presentFixMessage presents it.
 */
export type FixMessageRow = Pick<
  FixMessageRecord,
  'id' | 'direction' | 'sender_comp_id' | 'target_comp_id' | 'clordid' | 'brokerorderid' | 'poss_dup' | 'raw_fix'
> & {
  created_at: string;
  sending_time: string | null;
  msg_type: string;
  msg_seq_num: number;
};

/** A stored FIX message in the protocol's shape, its credentials masked. */
export function presentFixMessage(r: FixMessageRow): FixMessageRecord {
  return {
    id: r.id,
    timestamp: r.created_at,
    transacttime: r.sending_time ?? r.created_at,
    direction: r.direction,
    msgtype: r.msg_type,
    msgseqnum: r.msg_seq_num,
    // The message's own SenderCompID / TargetCompID (the row's are the session's, from our side).
    sender_comp_id: r.direction === 'TX' ? r.sender_comp_id : r.target_comp_id,
    target_comp_id: r.direction === 'TX' ? r.target_comp_id : r.sender_comp_id,
    clordid: r.clordid,
    brokerorderid: r.brokerorderid,
    poss_dup: r.poss_dup,
    raw_fix: redactFix(r.raw_fix),
  };
}

export interface FixMessageFilter {
  /** Also the simulated clients' own copies (the test-client service's sessions). */
  includeSimulated: boolean;
  ignoreHeartbeats: boolean;
  /** Leave out these message types (the session-level ones). */
  excludeMsgTypes?: readonly string[] | undefined;
  start?: Date | undefined;
  end?: Date | undefined;
  clordid?: string | undefined;
  brokerorderid?: string | undefined;
  compId?: string | undefined;
  msgType?: string | undefined;
  direction?: 'TX' | 'RX' | undefined;
  beforeId?: number | undefined;
  limit: number;
}

/** Numbered parameters for a statement built piece by piece. */
function params() {
  const values: unknown[] = [];
  return {
    values,
    p: (v: unknown) => {
      values.push(v);
      return `$${values.length}`;
    },
  };
}

/**
 * A page of FIX messages: the newest rows by id (the primary key: cheap at any size; beforeId pages
 * on), listed by the time each message crossed the wire on our clock: an inbound message's row is
 * written once it was processed, after the replies it caused, but carries the time it arrived; an
 * outbound one carries its SendingTime. Within one millisecond an answer is listed above the message
 * it answers.
 */
export async function listFixMessages(db: Queryable, f: FixMessageFilter): Promise<FixMessageRow[]> {
  const { values, p } = params();
  const where = fixMessageWhere(f, p, values);
  const { rows } = await db.query<FixMessageRow>(
    `SELECT id, ${isoText('created_at')} AS created_at, ${isoText('sending_time')} AS sending_time, direction, msg_type, msg_seq_num,
            sender_comp_id, target_comp_id, clordid, brokerorderid, poss_dup, raw_fix
       FROM (SELECT id, created_at, sending_time, direction, msg_type, msg_seq_num, sender_comp_id, target_comp_id, clordid, brokerorderid, poss_dup, raw_fix
               FROM fix_messages ${where}
              ORDER BY ${readsRangeWhole(f) ? 'id + 0' : 'id'} DESC LIMIT ${p(f.limit)}) page
      ORDER BY page.created_at DESC, page.direction = 'TX' DESC, page.id DESC`,
    values,
  );
  return rows;
}

/** The widest date range whose first page is read through the time index rather than down the ids. */
const NARROW_RANGE_MS = 2 * 86_400_000;

/**
 * Whether a page is read as the whole date range, found through the time index (BRIN on created_at),
 * then sorted: the first page of a range of at most two days (a day in any time zone). Walking down
 * the ids until enough rows of the range turn up is the planner's usual pick for ORDER BY id LIMIT,
 * as it takes the range's rows to be spread over all ids; they sit together, so for a day months
 * back that walk crosses every newer row first (seconds at millions of rows, where the range itself
 * is read in milliseconds). Ordering by the expression id + 0 rules the walk out. Next pages start
 * at their beforeId, inside the range, and keep the walk; so do wide ranges (an export, a year).
 */
function readsRangeWhole(f: Omit<FixMessageFilter, 'limit'>): boolean {
  return f.beforeId === undefined && f.start !== undefined && f.end !== undefined && f.end.getTime() - f.start.getTime() <= NARROW_RANGE_MS;
}

/** How many FIX messages a filter selects (an export's total, for its progress). */
export async function countFixMessages(db: Queryable, f: Omit<FixMessageFilter, 'limit' | 'beforeId'>): Promise<number> {
  const { values, p } = params();
  const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM fix_messages ${fixMessageWhere(f, p, values)}`, values);
  return Number(rows[0]?.n ?? 0);
}

function fixMessageWhere(f: Omit<FixMessageFilter, 'limit'>, p: (v: unknown) => string, values: unknown[]): string {
  const where: string[] = [];
  // Rows are stored by session, from that session's side. Ours (the acceptor's) have our comp id,
  // the target of some client connector, as the session's sender; the simulated clients' copies of
  // the same traffic are hidden unless asked for.
  if (!f.includeSimulated) where.push(`sender_comp_id IN (SELECT DISTINCT target_comp_id FROM client_connectors)`);
  if (f.ignoreHeartbeats) where.push(`msg_type <> '0'`);
  if (f.excludeMsgTypes) where.push(`msg_type <> ALL(${p([...f.excludeMsgTypes])}::text[])`);
  if (f.start) where.push(`created_at >= ${p(f.start)}`);
  if (f.end) where.push(`created_at <= ${p(f.end)}`);
  if (f.clordid) where.push(`clordid = ${p(f.clordid)}`);
  if (f.brokerorderid) where.push(`brokerorderid = ${p(f.brokerorderid)}`);
  if (f.compId) where.push(`(sender_comp_id = ${p(f.compId)} OR target_comp_id = $${values.length})`);
  if (f.msgType) where.push(`msg_type = ${p(f.msgType)}`);
  if (f.direction) where.push(`direction = ${p(f.direction)}`);
  if (f.beforeId) where.push(`id < ${p(f.beforeId)}`);
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** A session's own messages of the given types, newest first (a simulated client rebuilding its blotter). */
export async function listSessionMessages(
  db: Queryable,
  session: { beginString: string; senderCompID: string; targetCompID: string },
  msgTypes: readonly string[],
  limit: number,
): Promise<Array<{ direction: 'TX' | 'RX'; msg_seq_num: number; raw_fix: string; created_at: Date }>> {
  const { rows } = await db.query<{ direction: 'TX' | 'RX'; msg_seq_num: number; raw_fix: string; created_at: Date }>(
    `SELECT direction, msg_seq_num, raw_fix, created_at FROM fix_messages
      WHERE begin_string = $1 AND sender_comp_id = $2 AND target_comp_id = $3 AND msg_type = ANY($4::text[])
        AND NOT (direction = 'TX' AND poss_dup)
      ORDER BY id DESC LIMIT ${Number(limit)}`,
    [session.beginString, session.senderCompID, session.targetCompID, [...msgTypes]],
  );
  return rows;
}

/**
 * An order action with its client's names as SQL reads it (toOrderAction makes it the API's OrderAction): decimals
 * without trailing zeros and the time as ISO 8601 UTC, as text (sql-text.ts).
 */
type OrderActionSqlRow = Omit<OrderAction, 'timestamp' | 'action_type' | 'fillQty' | 'fillPrice' | 'legIndex'> & {
  action_type: string;
  fill_qty: OrderAction['fillQty'];
  fill_price: OrderAction['fillPrice'];
  leg_index: OrderAction['legIndex'];
};

/** The one mapping of an order action row to the protocol's OrderAction. */
function toOrderAction(a: OrderActionSqlRow): OrderAction {
  // The row's time and decimals come as the text the API writes (a streamed export presents a million).
  return {
    id: a.id,
    order_id: a.order_id,
    timestamp: a.created_at,
    created_at: a.created_at,
    brokerorderid: a.brokerorderid,
    clordid: a.clordid,
    sendercompid: a.sendercompid,
    client_name: a.client_name,
    company_name: a.company_name,
    symbol: a.symbol,
    side: a.side,
    orderqty: a.orderqty,
    price: a.price,
    action_type: a.action_type as OrderAction['action_type'],
    user_id: a.user_id,
    notes: a.notes,
    action_data: a.action_data,
    fillQty: a.fill_qty,
    fillPrice: a.fill_price,
    legIndex: a.leg_index,
  };
}

export interface OrderActionFilter {
  start?: Date | undefined;
  end?: Date | undefined;
  brokerorderid?: string | undefined;
  actionType?: string | undefined;
  /** Keyset paging (newest first): only rows with a smaller id. */
  beforeId?: number | undefined;
  limit: number;
}

const ACTION_WITH_CLIENT = `SELECT a.id, a.order_id, a.brokerorderid, a.clordid, a.sendercompid, c.client_name, c.company_name, a.symbol, a.side,
       ${decimalText('a.orderqty')} AS orderqty, ${decimalText('a.price')} AS price, a.action_type, a.user_id, a.notes, a.action_data,
       ${decimalText('a.fill_qty')} AS fill_qty, ${decimalText('a.fill_price')} AS fill_price, a.leg_index, ${isoText('a.created_at')} AS created_at
  FROM order_actions a LEFT JOIN client_connectors c ON c.comp_id = a.sendercompid`;

function orderActionWhere(f: Omit<OrderActionFilter, 'limit'>, p: (v: unknown) => string): string {
  const where: string[] = [];
  if (f.start) where.push(`a.created_at >= ${p(f.start)}`);
  if (f.end) where.push(`a.created_at <= ${p(f.end)}`);
  if (f.brokerorderid) where.push(`a.brokerorderid = ${p(f.brokerorderid)}`);
  if (f.actionType) where.push(`a.action_type = ${p(f.actionType)}`);
  if (f.beforeId !== undefined) where.push(`a.id < ${p(f.beforeId)}`);
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

export async function listOrderActions(db: Queryable, f: OrderActionFilter): Promise<OrderAction[]> {
  const { values, p } = params();
  const { rows } = await db.query<OrderActionSqlRow>(
    `${ACTION_WITH_CLIENT} ${orderActionWhere(f, p)} ORDER BY a.id DESC LIMIT ${p(f.limit)}`,
    values,
  );
  return rows.map(toOrderAction);
}

export async function countOrderActions(db: Queryable, f: Omit<OrderActionFilter, 'limit' | 'beforeId'>): Promise<number> {
  const { values, p } = params();
  const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM order_actions a ${orderActionWhere(f, p)}`, values);
  return Number(rows[0]?.n ?? 0);
}

export async function getOrderAction(db: Queryable, id: number): Promise<OrderAction | undefined> {
  const { rows } = await db.query<OrderActionSqlRow>(`${ACTION_WITH_CLIENT} WHERE a.id = $1`, [id]);
  return rows[0] && toOrderAction(rows[0]);
}

/** Order actions by id (those that exist), in id order. */
export async function getOrderActions(db: Queryable, ids: readonly number[]): Promise<OrderAction[]> {
  const { rows } = await db.query<OrderActionSqlRow>(`${ACTION_WITH_CLIENT} WHERE a.id = ANY($1::int8[]) ORDER BY a.id`, [[...ids]]);
  return rows.map(toOrderAction);
}
