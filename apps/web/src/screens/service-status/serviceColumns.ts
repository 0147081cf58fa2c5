import { formatStaleAge, serviceHealthLabel, type SessionExpectation } from '@fixdesk/domain';
import type { CountsBy, FixSessionFigures, ServiceStatusEntry } from '@fixdesk/protocol';

/** "5×2, 1×1": counts by reason, the most frequent first; '0' for none. */
export function countsText(counts: CountsBy | undefined): string {
  const entries = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  if (!entries.length) return '0';
  return entries
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${reason}×${n}`)
    .join(', ');
}

/** Sent and received in one cell: "out 5×1 · in 0". */
export function bothWays(c: { sent: CountsBy; received: CountsBy }): string {
  return `out ${countsText(c.sent)} · in ${countsText(c.received)}`;
}

export const EXPECTATION_TEXT: Record<SessionExpectation, string> = {
  'logged-on': 'Logged on',
  'outside-hours': 'Outside hours (normal)',
  awaited: 'Awaited (start under 5 min ago)',
  missing: 'Missing: expected in session',
};

/** A duration in ms as '850 ms', '12.4 s', '3m 05s'. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** The silence cell: seconds since the last inbound message against HeartBtInt. */
export function silenceText(f: FixSessionFigures): string {
  if (f.secondsSinceInbound === null) return '—';
  return f.heartBtIntSec > 0 ? `${f.secondsSinceInbound}s / ${f.heartBtIntSec}s` : `${f.secondsSinceInbound}s (no heartbeats)`;
}

export function resendText(f: FixSessionFigures): string {
  const r = f.resendRequests;
  return `in ${r.received} (${r.receivedGap} msgs) · out ${r.sent} (${r.sentGap} msgs)`;
}

export function scheduleText(f: FixSessionFigures): string {
  const s = f.schedule;
  if (!s.startTime) return '—';
  return `${s.startTime.slice(0, 5)}–${s.endTime.slice(0, 5)} ${s.timeZone} (${s.tradingDays})`;
}

export function acceptText(f: FixSessionFigures): string {
  const a = f.orderToAccept;
  return a ? `${formatDuration(a.p50Ms)} / ${formatDuration(a.worstMs)} (${a.count})` : '—';
}

/** What a drop copy session's badge says when pointed at: whose reports it receives. */
export function dropCopyTooltip(clients: readonly string[]): string {
  return clients.length ? `Receives a copy of the reports of ${clients.join(', ')}` : "Receives a copy of every client's reports";
}

/** The queue cell: a client's outbox, or a drop copy session's unsent copies and the oldest one's age. */
export function queueText(f: FixSessionFigures): string {
  const d = f.dropCopy;
  if (!d) return String(f.queueDepth);
  const copies = `${d.depth} ${d.depth === 1 ? 'copy' : 'copies'}`;
  if (d.lagSeconds === null) return copies;
  return `${copies}, oldest ${d.lagSeconds < 60 ? `${d.lagSeconds} s` : formatDuration(d.lagSeconds * 1000)}`;
}

export function tlsText(f: FixSessionFigures): string {
  if (f.tlsDaysLeft === null) return '—';
  return f.tlsDaysLeft < 0 ? `expired ${-f.tlsDaysLeft}d ago` : `${f.tlsDaysLeft}d`;
}

/** The stale-age cell: how long since the service was last seen working. */
export function staleAgeText(s: ServiceStatusEntry): string {
  return s.lastHeartbeat ? formatStaleAge(s.staleDuration) : '—';
}

/** What a screen reader and a test read in the status cell. */
export function statusText(s: Pick<ServiceStatusEntry, 'status'>): string {
  return serviceHealthLabel(s.status);
}

/** A session's lease as the status carries it (docs/adr/0012): which node owns it, its term and expiry. */
export interface SessionOwner {
  node: string;
  term: number;
  expiresAt: string;
  /** Whether the lease was still ahead of its expiry when the status was read. */
  live: boolean;
  /** Whether the node is the one answering (the entry's container). */
  thisNode: boolean;
}

/** The owner of a FIX session entry, when it has ever been owned. */
export function sessionOwner(s: Pick<ServiceStatusEntry, 'metadata' | 'containerName'>): SessionOwner | undefined {
  const o = s.metadata.owner as { node?: unknown; term?: unknown; expiresAt?: unknown; live?: unknown } | undefined;
  if (!o || typeof o.node !== 'string' || typeof o.term !== 'number' || typeof o.expiresAt !== 'string') return undefined;
  return { node: o.node, term: o.term, expiresAt: o.expiresAt, live: o.live === true, thisNode: o.node === s.containerName };
}

/** The owner cell's first line: the node, and whether it is this one. */
export function ownerNodeText(o: SessionOwner): string {
  return `${o.node}${o.thisNode ? ' (this node)' : ''}`;
}

/** The owner cell's second line: term and expiry (the expiry's time of day, in `timeOfDay`'s zone). */
export function ownerLeaseText(o: SessionOwner, timeOfDay: (iso: string) => string): string {
  return `term ${o.term} · ${o.live ? 'until' : 'expired'} ${timeOfDay(o.expiresAt)}`;
}
