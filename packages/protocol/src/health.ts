import type { ClientTradingStop } from './connectors';
export type DatabaseKind = 'pglite' | 'postgres';
export interface HealthResponse {
  status: 'ok';
  database: DatabaseKind;
  version: string;
  uptimeSeconds: number;
}

/**
 * How a service is doing. `healthy`: working; `degraded`: working with a problem (slow, partly
 * unavailable, a client missing in its hours); `stale`: its last heartbeat is too old to say it works
 * (a FIX session silent past its HeartBtInt, a probe that stopped answering in time); `down`: not
 * working; `offline`: not running and not expected to be (a client's FIX session while the client is
 * logged off outside its hours, the test clients while none runs). Screens show down and offline as Offline.
 */
export type ServiceHealth = 'healthy' | 'degraded' | 'stale' | 'down' | 'offline';

/** Counts by a reason (a FIX reject reason code, a refused logon's cause). */
export type CountsBy = Record<string, number>;

/** A resend request: the sequence range asked for (end null: to the end), when. */
export interface ResendRange {
  begin: number;
  end: number | null;
  at: string;
}

/**
 * What an operator needs about one client's FIX session (counts since this server started unless
 * said otherwise). Spec 001 names the session's connection and sequence numbers; the rest is what
 * FIX engines' operator consoles show.
 */
export interface FixSessionFigures {
  loggedOn: boolean;
  /** Inside the connector's trading days and hours now. */
  inSchedule: boolean;
  /** logged-on | outside-hours (absent, and that is normal) | awaited (start was under 5 minutes ago) | missing (the alert). */
  expectation: 'logged-on' | 'outside-hours' | 'awaited' | 'missing';
  schedule: { startTime: string; endTime: string; tradingDays: string; timeZone: string };
  /** Seconds since the last inbound message while logged on, null otherwise. */
  secondsSinceInbound: number | null;
  /** The HeartBtInt in force (the client's Logon), else the connector's. */
  heartBtIntSec: number;
  testRequests: { sent: number; unanswered: number };
  resendRequests: {
    /** The client asked us to resend. */
    received: number;
    receivedGap: number;
    /** We asked the client. */
    sent: number;
    sentGap: number;
    /** The latest few, newest first. */
    recent: Array<ResendRange & { direction: 'in' | 'out' }>;
  };
  /** Session-level Rejects (35=3) by SessionRejectReason (373), ours to the client and the client's. */
  sessionRejects: { sent: CountsBy; received: CountsBy };
  /** BusinessMessageRejects (35=j) by BusinessRejectReason (380). */
  businessRejects: { sent: CountsBy; received: CountsBy };
  /** Logons refused, by cause. */
  refusedLogons: CountsBy;
  /** Messages waiting in the outbox to go out to the client. */
  queueDepth: number;
  /** A drop copy session only (docs/adr/0017): the copies owed to it. */
  dropCopy?: DropCopyQueue;
  /** Days until the connector's TLS certificate expires; null when it has none. */
  tlsDaysLeft: number | null;
  /** Order arrival to the broker's accept, orders of today (UTC). */
  orderToAccept: { count: number; p50Ms: number; worstMs: number } | null;
  messages: { received: number; sent: number };
}

/**
 * A drop copy session's queue: copies committed with their reports and not sent yet (they wait while
 * the session is logged off), read from the database, so every node gives the same figures.
 */
export interface DropCopyQueue {
  /** The clients whose reports it copies; empty: every client. */
  clients: string[];
  /** Copies not sent yet. */
  depth: number;
  /** Seconds since the oldest of them was made; null when none waits. */
  lagSeconds: number | null;
}

/** One entry of the service status list (spec 001 §7 "Service status entry"). */
export interface ServiceStatusEntry {
  /** Unique, stable: `database`, `fix-acceptor`, `fix-session:{comp id}`, `api`, `test-clients`. */
  name: string;
  /** Drawn in the spec's type colours: database blue, fix-acceptor orange (acceptor), fix-session teal (it routes a client's orders in), api green, simulator pink (driven from the browser). */
  type: 'database' | 'fix-acceptor' | 'fix-session' | 'api' | 'simulator';
  description: string;
  /** The desk cannot trade without it. */
  critical: boolean;
  status: ServiceHealth;
  /** The last time it was seen working (ISO 8601), null when never. */
  lastHeartbeat: string | null;
  isConnected: boolean;
  /** Milliseconds since lastHeartbeat when the list was made (0 when never seen). */
  staleDuration: number;
  /** A FIX session's: connected, senderCompID, targetCompID, txSeqNum, rxSeqNum, sessionID. */
  metadata: Record<string, unknown>;
  /** A client's FIX session only: the operator's figures. */
  session?: FixSessionFigures;
  /** A client's FIX session only: the desk's kill switch on the client (null while it may trade). */
  trading_stop?: ClientTradingStop | null;
  /** The server node that reports it. */
  containerName: string;
}

/** GET /api/service-status */
export interface ServiceStatusResponse {
  data: { services: ServiceStatusEntry[]; lastUpdated: string };
}
