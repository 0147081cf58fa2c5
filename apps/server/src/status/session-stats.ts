import type { CountsBy, ResendRange } from '@fixdesk/protocol';

const SOH = '\x01';

/** The value of a tag in a raw FIX message (first occurrence after the header's start), or undefined. */
export function rawField(raw: string, tag: number): string | undefined {
  const key = `${SOH}${tag}=`;
  const at = raw.indexOf(key);
  if (at < 0) return undefined;
  const from = at + key.length;
  const end = raw.indexOf(SOH, from);
  return raw.slice(from, end < 0 ? raw.length : end);
}

/** MsgType (35): always the third field, so this looks only near the start. */
export function rawMsgType(raw: string): string | undefined {
  const at = raw.indexOf(`${SOH}35=`);
  if (at < 0 || at > 40) return undefined;
  const end = raw.indexOf(SOH, at + 4);
  return raw.slice(at + 4, end < 0 ? raw.length : end);
}

const RECENT_RESENDS = 5;

/** One client's FIX session counters, kept across its logons for the life of the server. */
export class SessionCounters {
  messagesIn = 0;
  messagesOut = 0;
  ordersIn = 0;
  /** MsgSeqNum of the latest message in each direction (to size an open-ended resend request). */
  lastSeqIn = 0;
  lastSeqOut = 0;
  testRequestsSent = 0;
  /** TestReqIDs we sent and the client has not answered yet (cleared at each logon and logout). */
  readonly pendingTestRequests = new Set<string>();
  resendIn = 0;
  resendInGap = 0;
  resendOut = 0;
  resendOutGap = 0;
  readonly recentResends: Array<ResendRange & { direction: 'in' | 'out' }> = [];
  readonly sessionRejectsSent: CountsBy = {};
  readonly sessionRejectsReceived: CountsBy = {};
  readonly businessRejectsSent: CountsBy = {};
  readonly businessRejectsReceived: CountsBy = {};
  readonly refusedLogons: CountsBy = {};
}

function bump(counts: CountsBy, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Counts what an operator watches on each client's FIX session, from the session's message log (every
 * message in and out, as the engine hands it to the log) and from the acceptor's logon decisions.
 * Application messages cost one look at MsgType; only session-level messages are read further.
 */
export class SessionStats {
  private readonly byClient = new Map<string, SessionCounters>();
  /** Called for each counted event, for the metrics (kind, client, reason). */
  constructor(private readonly onEvent?: (kind: SessionEventKind, compId: string, detail?: string, amount?: number) => void) {}

  of(compId: string): SessionCounters {
    let c = this.byClient.get(compId);
    if (!c) {
      c = new SessionCounters();
      this.byClient.set(compId, c);
    }
    return c;
  }

  clients(): string[] {
    return [...this.byClient.keys()];
  }

  /** A logon or logout: test requests still open belong to the connection that ended. */
  connectionChanged(compId: string): void {
    this.of(compId).pendingTestRequests.clear();
  }

  refusedLogon(compId: string, cause: string): void {
    if (compId) bump(this.of(compId).refusedLogons, cause);
    this.onEvent?.('refused_logon', compId, cause);
  }

  incoming(compId: string, raw: string): void {
    const c = this.of(compId);
    c.messagesIn++;
    c.lastSeqIn = Number(rawField(raw, 34) ?? c.lastSeqIn);
    const type = rawMsgType(raw);
    this.onEvent?.('message_in', compId, type);
    if (type === 'D' || type === 'AB') c.ordersIn++;
    else if (type === '0') {
      const id = rawField(raw, 112);
      if (id !== undefined) c.pendingTestRequests.delete(id);
    } else this.countSessionLevel(c, compId, raw, type, 'in');
  }

  outgoing(compId: string, raw: string): void {
    const c = this.of(compId);
    c.messagesOut++;
    const type = rawMsgType(raw);
    this.onEvent?.('message_out', compId, type);
    if (type === '1') {
      const id = rawField(raw, 112);
      c.testRequestsSent++;
      if (id !== undefined) c.pendingTestRequests.add(id);
      this.onEvent?.('test_request_out', compId);
    } else this.countSessionLevel(c, compId, raw, type, 'out');
    this.noteSeqOut(c, raw);
  }

  /** ResendRequests (2), Rejects (3) and BusinessMessageRejects (j), either way. */
  private countSessionLevel(c: SessionCounters, compId: string, raw: string, type: string | undefined, direction: 'in' | 'out'): void {
    const into = direction === 'in';
    if (type === '2') {
      const gap = this.resend(c, raw, direction);
      if (into) {
        c.resendIn++;
        c.resendInGap += gap;
      } else {
        c.resendOut++;
        c.resendOutGap += gap;
      }
      this.onEvent?.(into ? 'resend_in' : 'resend_out', compId, undefined, gap);
    } else if (type === '3') {
      const reason = rawField(raw, 373) ?? 'none';
      bump(into ? c.sessionRejectsReceived : c.sessionRejectsSent, reason);
      this.onEvent?.(into ? 'session_reject_in' : 'session_reject_out', compId, reason);
    } else if (type === 'j') {
      const reason = rawField(raw, 380) ?? 'none';
      bump(into ? c.businessRejectsReceived : c.businessRejectsSent, reason);
      this.onEvent?.(into ? 'business_reject_in' : 'business_reject_out', compId, reason);
    }
  }

  /** After an outgoing message: its number (read apart so a ResendRequest's own number is not its end). */
  private noteSeqOut(c: SessionCounters, raw: string): void {
    c.lastSeqOut = Number(rawField(raw, 34) ?? c.lastSeqOut);
  }

  /**
   * Records a ResendRequest's range and returns its gap size. An open end (EndSeqNo 0, "everything
   * after") is sized by what was there: the client asking us, up to the last number we sent; we asking
   * the client, up to the message whose number was too high (the last one in), not included.
   */
  private resend(c: SessionCounters, raw: string, direction: 'in' | 'out'): number {
    const begin = Number(rawField(raw, 7) ?? 0);
    const endRaw = Number(rawField(raw, 16) ?? 0);
    const end = endRaw > 0 ? endRaw : null;
    c.recentResends.unshift({ direction, begin, end, at: new Date().toISOString() });
    c.recentResends.length = Math.min(c.recentResends.length, RECENT_RESENDS);
    const last = end ?? (direction === 'in' ? c.lastSeqOut : c.lastSeqIn - 1);
    return Math.max(0, last - begin + 1);
  }
}

export type SessionEventKind =
  | 'message_in'
  | 'message_out'
  | 'test_request_out'
  | 'resend_in'
  | 'resend_out'
  | 'session_reject_in'
  | 'session_reject_out'
  | 'business_reject_in'
  | 'business_reject_out'
  | 'refused_logon';

/** A refused logon's reason (the authenticator's text) as a cause to count by. */
export function refusalCause(reason: string): string {
  if (/^Unknown session/i.test(reason)) return 'unknown-session';
  if (/not allowed/i.test(reason)) return 'address-not-allowed';
  if (/username or password/i.test(reason)) return 'bad-credentials';
  if (/not active/i.test(reason)) return 'inactive';
  if (/outside of session time/i.test(reason)) return 'outside-hours';
  if (/^HeartBtInt \(108\)/.test(reason)) return 'heartbeat-out-of-range';
  if (/^Session owned by node /.test(reason)) return 'owned-by-another-node';
  if (/^Session moving to node /.test(reason)) return 'moving-to-another-node';
  return 'other';
}
