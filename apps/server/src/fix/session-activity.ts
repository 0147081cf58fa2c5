import type { SessionID, SessionLog } from '@fixdesk/fix';
import type { LastMessage } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionStats } from '../status/session-stats';
import { isNewOrderMessage } from './order-messages';

// What this node saw of its clients' sessions: counters of each logged-on session (written to its
// client_sessions row at logout), when the client last spoke, what it is doing now, and the last raw
// message each way (for the console). The engine's session log feeds it.

/** How long a client must have sent no application message before its session may be handed over to another node. */
const HANDOVER_IDLE_MS = 1_000;

interface LiveSession {
  rowId: number;
  sent: number;
  received: number;
  orders: number;
  /** When the client's last message arrived (ms since the epoch): the session's heartbeat. */
  lastReceivedAt: number;
  /** Application messages of the client being handled now (an order in its intake commit, …). */
  inFlight: number;
  /** When the client's last application message was done with (ms since the epoch; its logon at first). */
  lastAppAt: number;
}

/** The last raw message each way of a client's session, and when (parsed only when the console asks). */
interface LastTraffic {
  inRaw?: string;
  inAt?: number;
  outRaw?: string;
  outAt?: number;
  tls?: boolean;
}

/** What the console shows of a raw message: its type and number, and when. */
function lastMessage(raw: string | undefined, at: number | undefined): LastMessage | null {
  if (raw === undefined || at === undefined) return null;
  const type = /(?:^|\x01)35=([^\x01]*)/.exec(raw)?.[1] ?? '?';
  const seq = /\x0134=(\d+)/.exec(raw)?.[1];
  return { msgType: type, msgSeqNum: seq === undefined ? null : Number(seq), at: new Date(at).toISOString() };
}

export class SessionActivity {
  private readonly live = new Map<string, LiveSession>();
  private readonly traffic = new Map<string, LastTraffic>();

  constructor(
    /** The operator's counters per client session (the message log and logon decisions feed them). */
    private readonly stats: SessionStats,
  ) {}

  /**
   * The engine's log of a session (id null: the acceptor's own): counts and keeps its traffic; events
   * go to the server's log, those `quiet` picks (our own health probes) at debug level.
   */
  sessionLog(id: SessionID | null, parent: FastifyBaseLogger, quiet: (event: string) => boolean): SessionLog {
    const log = parent.child({ fix: id ? `${id.senderCompID}->${id.targetCompID}` : 'acceptor' });
    const compId = id?.targetCompID;
    return {
      onIncoming: (raw) => {
        if (!compId) return;
        const now = Date.now();
        const l = this.live.get(compId);
        if (l) {
          l.received++;
          l.lastReceivedAt = now;
        }
        const t = this.trafficOf(compId);
        t.inRaw = raw;
        t.inAt = now;
        this.stats.incoming(compId, raw);
      },
      onOutgoing: (raw) => {
        if (!compId) return;
        const l = this.live.get(compId);
        if (l) l.sent++;
        const t = this.trafficOf(compId);
        t.outRaw = raw;
        t.outAt = Date.now();
        this.stats.outgoing(compId, raw);
      },
      onEvent: (text) => {
        if (!id && quiet(text)) log.debug(text);
        else log.info(text);
      },
    };
  }

  /** A client logged on here; `rowId` is its client_sessions row. */
  loggedOn(compId: string, rowId: number): void {
    const now = Date.now();
    this.live.set(compId, { rowId, sent: 0, received: 0, orders: 0, lastReceivedAt: now, inFlight: 0, lastAppAt: now });
  }

  /** A client logged out: its session's row and counters, if it was logged on here. */
  loggedOut(compId: string): { rowId: number; sent: number; received: number; orders: number } | undefined {
    const l = this.live.get(compId);
    this.live.delete(compId);
    return l && { rowId: l.rowId, sent: l.sent, received: l.received, orders: l.orders };
  }

  isLoggedOn(compId: string): boolean {
    return this.live.has(compId);
  }

  /** The client's session came over TLS (true) or plain TCP (false). */
  transport(compId: string, tls: boolean): void {
    this.trafficOf(compId).tls = tls;
  }

  /** Runs the handling of a client's application message, counted as in flight meanwhile. */
  async handlingApp<T>(compId: string, msgType: string, handle: () => Promise<T>): Promise<T> {
    const l = this.live.get(compId);
    if (l) {
      l.inFlight++;
      if (isNewOrderMessage(msgType)) l.orders++;
    }
    try {
      return await handle();
    } finally {
      if (l) {
        l.inFlight--;
        l.lastAppAt = Date.now();
      }
    }
  }

  /** Nothing in flight and no application message for a while: a session that may be handed over. */
  isQuiet(compId: string, now = Date.now()): boolean {
    const l = this.live.get(compId);
    return !!l && l.inFlight === 0 && now - l.lastAppAt >= HANDOVER_IDLE_MS;
  }

  /** The clients logged on here. */
  loggedOnClients(): string[] {
    return [...this.live.keys()];
  }

  /** The counters of the sessions logged on to this node so far, by their client_sessions row (written at logout). */
  counts(): Map<number, { sent: number; received: number; orders: number }> {
    return new Map([...this.live.values()].map((l) => [l.rowId, { sent: l.sent, received: l.received, orders: l.orders }]));
  }

  /** When the logged-on client's last message arrived (ms since the epoch); undefined when it is not logged on. */
  lastReceivedAt(compId: string): number | undefined {
    return this.live.get(compId)?.lastReceivedAt;
  }

  /** The last message each way seen since this process started, and whether the session came over TLS. */
  lastTraffic(compId: string): { lastIn: LastMessage | null; lastOut: LastMessage | null; tls: boolean } {
    const t = this.traffic.get(compId);
    return { lastIn: lastMessage(t?.inRaw, t?.inAt), lastOut: lastMessage(t?.outRaw, t?.outAt), tls: t?.tls ?? false };
  }

  private trafficOf(compId: string): LastTraffic {
    let t = this.traffic.get(compId);
    if (!t) {
      t = {};
      this.traffic.set(compId, t);
    }
    return t;
  }
}
