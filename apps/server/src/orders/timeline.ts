import type { FixMessageRow, OrderTimelineRows } from '@fixdesk/db';
import type { ActionType, FixMessageRecord, OrderTimeline, OrderTimelineEntry } from '@fixdesk/protocol';

// An order's timeline from its rows (repos/orders/timeline.ts): FIX messages, state changes (one per
// execution report, or the refusal at intake) and user actions merged in time order, each state change
// and action linked to the message that told the client.

/** The tags of a message worth showing on its line (the rest is one click away, in the message). */
const SUMMARY_TAGS = [
  '35',
  '11',
  '41',
  '37',
  '17',
  '150',
  '39',
  '103',
  '102',
  '434',
  '32',
  '31',
  '14',
  '151',
  '38',
  '44',
  '54',
  '55',
  '58',
];

/** Tag → value of a raw FIX message (the first occurrence of each tag). */
export function fixFields(raw: string, tags: readonly string[] = SUMMARY_TAGS): Record<string, string> {
  const out: Record<string, string> = {};
  const want = new Set(tags);
  for (const part of raw.split('\x01')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const tag = part.slice(0, eq);
    if (want.has(tag) && !(tag in out)) out[tag] = part.slice(eq + 1);
  }
  return out;
}

/** Where entries at the very same time go: what came in, what it changed, who acted, what went out. */
const RANK: Record<OrderTimelineEntry['kind'] | 'fixRX' | 'fixTX', number> = { fixRX: 0, state: 1, action: 2, fixTX: 3, fix: 3 };
const rank = (e: OrderTimelineEntry) => (e.kind === 'fix' ? (e.message.direction === 'RX' ? RANK.fixRX : RANK.fixTX) : RANK[e.kind]);

export function buildTimeline(rows: OrderTimelineRows, present: (m: FixMessageRow) => FixMessageRecord): OrderTimeline {
  const entries: OrderTimelineEntry[] = [];
  // The message each ExecID went out in (our reports carry it in tag 17).
  const byExecId = new Map<string, number>();
  for (const m of rows.messages) {
    const fields = fixFields(m.raw_fix);
    if (m.direction === 'TX' && fields['17'] && !byExecId.has(fields['17'])) byExecId.set(fields['17'], m.id);
    entries.push({ kind: 'fix', at: m.created_at, message: present(m), fields });
  }
  // By report; a refused order's refusal (no report row) under null.
  const copiesOf = new Map<number | null, Array<{ session: string; sentAt: string | null; seqNum: number | null }>>();
  for (const c of rows.copies) {
    const list = copiesOf.get(c.report_id) ?? [];
    list.push({ session: c.session, sentAt: c.sent_at, seqNum: c.sent_seq_num });
    copiesOf.set(c.report_id, list);
  }
  let previous: string | null = null;
  // Reports and actions written by one transaction share its time: an action's report is the one of its instant.
  const reportAt = new Map<string, string>();
  for (const r of rows.reports) {
    entries.push({
      kind: 'state',
      at: r.at,
      reportId: r.id,
      execId: r.execid,
      execType: r.exectype,
      ordStatus: r.ordstatus,
      previousStatus: previous,
      lastQty: r.lastqty,
      lastPx: r.lastpx,
      cumQty: r.cumqty,
      leavesQty: r.leavesqty,
      ordRejReason: r.ordrejreason,
      text: r.text,
      fixMessageId: byExecId.get(r.execid) ?? null,
      ...(copiesOf.has(r.id) ? { copies: copiesOf.get(r.id) } : {}),
    });
    previous = r.ordstatus;
    if (!reportAt.has(r.at)) reportAt.set(r.at, r.execid);
  }
  if (rows.order.refused) {
    const execId = rows.order.refusal_execid;
    entries.push({
      kind: 'state',
      at: rows.order.created_at,
      reportId: null,
      execId,
      execType: '8',
      ordStatus: '8',
      previousStatus: null,
      lastQty: null,
      lastPx: null,
      cumQty: null,
      leavesQty: null,
      ordRejReason: rows.order.ordrejreason,
      text: rows.order.reject_text,
      fixMessageId: (execId && byExecId.get(execId)) || null,
      ...(copiesOf.has(null) ? { copies: copiesOf.get(null) } : {}),
    });
  }
  for (const a of rows.actions) {
    const execId = reportAt.get(a.at);
    entries.push({
      kind: 'action',
      at: a.at,
      actionId: a.id,
      actionType: a.action_type as ActionType,
      userId: a.user_id,
      notes: a.notes,
      fillQty: a.fill_qty,
      fillPrice: a.fill_price,
      legIndex: a.leg_index,
      fixMessageId: (execId && byExecId.get(execId)) || null,
    });
  }
  const id = (e: OrderTimelineEntry) => (e.kind === 'fix' ? e.message.id : e.kind === 'action' ? e.actionId : (e.reportId ?? 0));
  entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : rank(a) - rank(b) || id(a) - id(b)));
  return {
    orderId: rows.order.id,
    brokerorderid: rows.order.brokerorderid,
    clordid: rows.order.clordid,
    sendercompid: rows.order.sendercompid,
    refused: rows.order.refused,
    entries,
  };
}
