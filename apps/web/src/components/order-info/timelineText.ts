import { execTypeLabel, formatBlotterPrice, formatQuantity, ordRejReasonLabel, ordStatusLabel } from '@fixdesk/domain';
import type { OrderTimelineEntry } from '@fixdesk/protocol';
import { msgTypeLabel } from '@fixdesk/domain';

/** How a timeline entry reads: who or which way, what, and the details under it. */
export interface TimelineLine {
  /** 'Client → Desk', 'Desk → Client', 'State', or the user who acted. */
  actor: string;
  title: string;
  details: string[];
  tone: 'in' | 'out' | 'state' | 'action' | 'reject';
}

const actionLabel = (t: string) => t.replaceAll('_', ' ');
const qtyAtPx = (qty: string | null | undefined, px: string | null | undefined) =>
  qty && Number(qty) !== 0 ? `${formatQuantity(qty)} @ ${px ? formatBlotterPrice(px) : '—'}` : '';

/** A report's drop copies, one line each: sent with its number, or waiting for its session. */
const copyLines = (copies: ReadonlyArray<{ session: string; seqNum: number | null }> | undefined) =>
  (copies ?? []).map((c) => (c.seqNum === null ? `Copy to ${c.session}: waiting` : `Copy to ${c.session}: sent, seq ${c.seqNum}`));

export function timelineLine(e: OrderTimelineEntry): TimelineLine {
  if (e.kind === 'fix') {
    const m = e.message;
    const f = e.fields;
    const details: string[] = [`Seq ${m.msgseqnum}${m.poss_dup ? ' (PossDup)' : ''}`];
    if (f['11']) details.push(`ClOrdID ${f['11']}${f['41'] ? ` (orig ${f['41']})` : ''}`);
    let title = msgTypeLabel(m.msgtype);
    if (m.msgtype === '8' && f['150']) {
      title += ` · ${execTypeLabel(f['150'])}${f['39'] && f['39'] !== f['150'] ? ` / ${ordStatusLabel(f['39'])}` : ''}`;
      const last = qtyAtPx(f['32'], f['31']);
      if (last) details.push(`Last ${last}`);
      if (f['103']) details.push(ordRejReasonLabel(f['103']));
    } else if (m.msgtype === 'G') {
      details.push(`New ${formatQuantity(f['38'] ?? '')}${f['44'] ? ` @ ${formatBlotterPrice(f['44'])}` : ''}`.trim());
    }
    if (f['58']) details.push(`Text: ${f['58']}`);
    const rejected = (m.msgtype === '8' && f['150'] === '8') || m.msgtype === '9' || m.msgtype === '3' || m.msgtype === 'j';
    return {
      actor: m.direction === 'RX' ? 'Client → Desk' : 'Desk → Client',
      title,
      details,
      tone: rejected ? 'reject' : m.direction === 'RX' ? 'in' : 'out',
    };
  }
  if (e.kind === 'state') {
    const to = ordStatusLabel(e.ordStatus);
    if (e.reportId === null) {
      return {
        actor: 'State',
        title: `Refused at intake: ${to}`,
        details: [ordRejReasonLabel(e.ordRejReason), e.text ?? '', ...copyLines(e.copies)].filter(Boolean),
        tone: 'reject',
      };
    }
    const title =
      e.previousStatus === null
        ? `Status ${to}`
        : e.previousStatus === e.ordStatus
          ? `Status stays ${to}`
          : `${ordStatusLabel(e.previousStatus)} → ${to}`;
    const details: string[] = [`${execTypeLabel(e.execType)} · ExecID ${e.execId}`];
    const last = qtyAtPx(e.lastQty, e.lastPx);
    if (last) details.push(`Last ${last}`);
    if (e.cumQty !== null && e.leavesQty !== null)
      details.push(`Filled ${formatQuantity(e.cumQty)}, leaves ${formatQuantity(e.leavesQty)}`);
    if (e.ordRejReason !== null) details.push(ordRejReasonLabel(e.ordRejReason));
    if (e.text) details.push(`Text: ${e.text}`);
    details.push(...copyLines(e.copies));
    return { actor: 'State', title, details, tone: e.ordStatus === '8' ? 'reject' : 'state' };
  }
  const details: string[] = [];
  const fill = qtyAtPx(e.fillQty, e.fillPrice);
  if (fill) details.push(`${fill}${e.legIndex !== null ? ` · leg ${e.legIndex + 1}` : ''}`);
  if (e.notes) details.push(`Notes: ${e.notes}`);
  return { actor: e.userId, title: actionLabel(e.actionType), details, tone: 'action' };
}
