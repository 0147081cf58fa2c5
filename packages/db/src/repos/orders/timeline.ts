import type { Queryable } from '../../db';
import type { FixMessageRow } from '../audit';
import { decimalText, microText } from '../sql-text';

// An order's whole story for the timeline (GET /api/orders/{id}/timeline): every FIX message in and out
// for it, every action on it, every execution report (each a state change), and for an order refused at
// intake its refusal. Times come as text in UTC with microseconds ('2026-03-15T10:30:01.123456Z').

export interface TimelineOrderRow {
  id: number;
  /** '' for an order refused at intake. */
  brokerorderid: string;
  clordid: string;
  sendercompid: string;
  targetcompid: string;
  ordstatus: string;
  created_at: string;
  refused: boolean;
  ordrejreason: number | null;
  reject_text: string | null;
  refusal_execid: string | null;
}

export interface TimelineReportRow {
  id: number;
  at: string;
  execid: string;
  clordid: string;
  origclordid: string | null;
  exectype: string;
  ordstatus: string;
  lastqty: string | null;
  lastpx: string | null;
  cumqty: string;
  leavesqty: string;
  avgpx: string;
  leg_index: number | null;
  ordrejreason: number | null;
  text: string | null;
  sent_at: string | null;
}

export interface TimelineActionRow {
  id: number;
  at: string;
  action_type: string;
  user_id: string;
  notes: string | null;
  fill_qty: string | null;
  fill_price: string | null;
  leg_index: number | null;
  action_data: Record<string, unknown>;
}

/** A copy of one of the order's reports owed to a drop copy session (docs/adr/0017). */
export interface TimelineCopyRow {
  /** Null for the copies of a refused order's refusal (it has no report row). */
  report_id: number | null;
  /** The drop copy session's comp id. */
  session: string;
  /** When it was sent, with microseconds; null while it waits. */
  sent_at: string | null;
  sent_seq_num: number | null;
}

export interface OrderTimelineRows {
  order: TimelineOrderRow;
  /** Their created_at and sending_time with microseconds. */
  messages: FixMessageRow[];
  reports: TimelineReportRow[];
  actions: TimelineActionRow[];
  /** The reports' copies, in the order they were made. */
  copies: TimelineCopyRow[];
}

const FIX_COLUMNS = `m.id, ${microText('m.created_at')} AS created_at, m.direction, m.msg_type, m.msg_seq_num, m.sender_comp_id, m.target_comp_id, m.clordid,
       m.brokerorderid, m.poss_dup, ${microText('m.sending_time')} AS sending_time, m.raw_fix`;

/**
 * The rows of an order's timeline, by its id or broker order id (an accepted order) or its id (a refused
 * one); undefined when there is no such order.
 */
export async function orderTimelineRows(db: Queryable, idOrBrokerId: string): Promise<OrderTimelineRows | undefined> {
  const byId = /^\d+$/.test(idOrBrokerId);
  const { rows: orders } = await db.query<TimelineOrderRow>(
    `SELECT o.id, o.brokerorderid, o.clordid, o.sendercompid, o.targetcompid, o.ordstatus, ${microText('o.created_at')} AS created_at,
            false AS refused, NULL::int AS ordrejreason, NULL::text AS reject_text, NULL::text AS refusal_execid
       FROM orders o WHERE ${byId ? 'o.id = $1::int8' : 'o.brokerorderid = $1'}
     ${
       byId
         ? `UNION ALL
     SELECT r.id, '', coalesce(r.clordid, ''), r.sendercompid, r.targetcompid, '8', ${microText('r.created_at')}, true, r.ordrejreason, r.reject_text, r.execid
       FROM refused_orders r WHERE r.id = $1::int8`
         : ''
     }`,
    [idOrBrokerId],
  );
  const order = orders[0];
  if (!order) return undefined;
  if (order.refused) return refusedTimeline(db, order);
  const id = order.id;
  // The ClOrdIDs of the order's chain after its own: its cancel/replace requests'.
  const { rows: chain } = await db.query<{ clordid: string }>(
    `SELECT r.clordid FROM order_requests r WHERE r.order_id = $1
     UNION SELECT e.clordid FROM execution_reports e WHERE e.order_id = $1 AND e.clordid <> $2`,
    [id, order.clordid],
  );
  const [messages, reports, actions, copies] = await Promise.all([
    // Our side of the client's session: the messages naming the order (our reports and cancel rejects,
    // its D or AB, requests carrying OrderID), and the client's cancel/replace requests, which may name
    // only their own ClOrdID, by the ClOrdIDs of the chain. Both through their indexes (a BitmapOr of
    // fix_messages_brokerorderid_idx and fix_messages_clordid_idx), never a scan of the whole log.
    db.query<FixMessageRow>(
      `SELECT ${FIX_COLUMNS}
         FROM fix_messages m
        WHERE m.sender_comp_id = $1 AND m.target_comp_id = $2
          AND (m.brokerorderid = $3
               OR (m.clordid = ANY($5::text[]) AND m.brokerorderid IS NULL AND m.created_at >= $4::timestamptz - interval '1 minute'))
        ORDER BY m.created_at, m.id`,
      [order.targetcompid, order.sendercompid, order.brokerorderid, order.created_at, chain.map((c) => c.clordid)],
    ),
    db.query<TimelineReportRow>(
      `SELECT e.id, ${microText('e.created_at')} AS at, e.execid, e.clordid, e.origclordid, e.exectype, e.ordstatus,
              ${decimalText('e.lastqty')} AS lastqty, ${decimalText('e.lastpx')} AS lastpx, ${decimalText('e.cumqty')} AS cumqty,
              ${decimalText('e.leavesqty')} AS leavesqty, ${decimalText('e.avgpx')} AS avgpx, e.leg_index, e.ordrejreason, e.text,
              ${microText('e.sent_at')} AS sent_at
         FROM execution_reports e WHERE e.order_id = $1 ORDER BY e.id`,
      [id],
    ),
    db.query<TimelineActionRow>(
      `SELECT a.id, ${microText('a.created_at')} AS at, a.action_type, a.user_id, a.notes, ${decimalText('a.fill_qty')} AS fill_qty,
              ${decimalText('a.fill_price')} AS fill_price, a.leg_index, a.action_data
         FROM order_actions a WHERE a.order_id = $1 ORDER BY a.id`,
      [id],
    ),
    // Through drop_copies_exec_report_idx, per report of the order.
    db.query<TimelineCopyRow>(
      `SELECT d.exec_report_id AS report_id, c.comp_id AS session, ${microText('d.sent_at')} AS sent_at, d.sent_seq_num
         FROM execution_reports e
         JOIN drop_copies d ON d.exec_report_id = e.id
         JOIN client_connectors c ON c.id = d.drop_copy_connector_id
        WHERE e.order_id = $1 ORDER BY d.id`,
      [id],
    ),
  ]);
  return { order, messages: messages.rows, reports: reports.rows, actions: actions.rows, copies: copies.rows };
}

/**
 * A refused order's story: the client's message (its ClOrdID, arrived within the minute before the
 * refusal was stored, the latest such), our refusal (the report carrying the refusal's ExecID) and the
 * refusal's drop copies (by its ExecID, through drop_copies_refusal_execid_idx).
 */
async function refusedTimeline(db: Queryable, order: TimelineOrderRow): Promise<OrderTimelineRows> {
  const copies = order.refusal_execid
    ? db.query<TimelineCopyRow>(
        `SELECT NULL::int8 AS report_id, c.comp_id AS session, ${microText('d.sent_at')} AS sent_at, d.sent_seq_num
           FROM drop_copies d JOIN client_connectors c ON c.id = d.drop_copy_connector_id
          WHERE d.source = 'refusal' AND d.refusal ->> 'execId' = $1 AND d.client_comp_id = $2 ORDER BY d.id`,
        [order.refusal_execid, order.sendercompid],
      )
    : undefined;
  const { rows } = await db.query<FixMessageRow>(
    `(SELECT ${FIX_COLUMNS} FROM fix_messages m
       WHERE m.sender_comp_id = $1 AND m.target_comp_id = $2 AND m.direction = 'RX' AND m.clordid = $3 AND m.msg_type IN ('D', 'AB')
         AND m.created_at <= $4::timestamptz AND m.created_at >= $4::timestamptz - interval '1 minute'
       ORDER BY m.created_at DESC, m.id DESC LIMIT 1)
     UNION ALL
     (SELECT ${FIX_COLUMNS} FROM fix_messages m
       WHERE m.sender_comp_id = $1 AND m.target_comp_id = $2 AND m.direction = 'TX' AND m.msg_type = '8' AND m.clordid = $3
         AND m.created_at >= $4::timestamptz - interval '1 minute' AND m.created_at <= $4::timestamptz + interval '1 minute'
         AND position(E'\\x0117=' || $5 || E'\\x01' IN m.raw_fix) > 0
       ORDER BY m.id LIMIT 1)`,
    [order.targetcompid, order.sendercompid, order.clordid, order.created_at, order.refusal_execid ?? ''],
  );
  return { order, messages: rows, reports: [], actions: [], copies: copies ? (await copies).rows : [] };
}
