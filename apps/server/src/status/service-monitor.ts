import { daysUntil, heartbeatHealth, sessionExpectation, sessionSilenceHealth } from '@fixdesk/domain';
import { isWithinSchedule, localParts, parseTimeOfDay, parseTradingDays, type SessionSchedule } from '@fixdesk/fix';
import type { ClientTradingStop, FixSessionFigures, ServiceHealth, ServiceStatusEntry, WsServerMessage } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionStats } from './session-stats';

/** An active client connector as the monitor reads it. */
export interface MonitoredConnector {
  compId: string;
  /** Our comp id towards the client. */
  ourCompId: string;
  heartBtIntSec: number;
  schedule: { startTime: string; endTime: string; tradingDays: string; timeZone: string };
  /** When its TLS certificate expires; null without one. */
  tlsExpiresAt: Date | null;
  /** The kill switch: who stopped the client's orders, when and why; null while it may trade. */
  tradingStop?: ClientTradingStop | null;
  /** A drop copy session: the clients it copies (empty: every client); absent for a client's own session. */
  dropCopyOf?: readonly string[];
}

/** What the monitor reads; the composition root wires the real parts in, tests their own. */
/** Who holds a lease: the node, its term, until when (ISO 8601), and whether that is still ahead. */
export interface LeaseView {
  node: string;
  term: number;
  expiresAt: string;
  live: boolean;
}

export interface MonitoredParts {
  /** This server node's name (the entries' containerName). */
  readonly nodeId: string;
  readonly version: string;
  readonly databaseKind: string;
  /** A trivial query on the database; rejects when it cannot be reached. */
  probeDatabase(): Promise<void>;
  /** The FIX acceptor's port, 0 while it is not listening. */
  acceptorPort(): number;
  /** Opens a TCP connection to the acceptor and waits for the acceptor to close it; rejects when it cannot. */
  probeAcceptor(): Promise<void>;
  /** A request to this node's own HTTP API over its socket; rejects on no or a bad answer. */
  probeApi(): Promise<void>;
  /** The active client connectors. */
  activeConnectors(): Promise<readonly MonitoredConnector[]>;
  /** The acceptor's sessions as the engine reports them. */
  sessions(): ReadonlyArray<{
    sessionID: { beginString: string; senderCompID: string; targetCompID: string };
    connected: boolean;
    loggedOn: boolean;
    nextSenderMsgSeqNum: number;
    nextTargetMsgSeqNum: number;
    heartBtIntSec: number;
    remoteAddress: string | undefined;
  }>;
  /** When the client's last message arrived (ms since the epoch), while it is logged on. */
  lastReceivedAt(compId: string): number | undefined;
  /** The per-session counters (test requests, resends, rejects, refused logons). */
  readonly stats: SessionStats;
  /** Messages waiting to go out to the client. */
  queueDepth(compId: string): number;
  /** The drop copy sessions' unsent copies, by comp id (from the database: the same on every node). */
  dropCopyQueues?(): Promise<ReadonlyMap<string, { depth: number; oldestUnsentAt: Date | null }>>;
  /** Per client, order arrival to the broker's accept for the orders since `since`. */
  acceptTimes(since: Date): Promise<ReadonlyMap<string, { count: number; p50Ms: number; worstMs: number }>>;
  testClients(): { clients: number; running: number; loggedOn: number; runningCompIds: readonly string[] };
  /** Signed-in browser connections over the desk (every live node). */
  browsersConnected(): number | Promise<number>;
  broadcast(msg: WsServerMessage): void;
  /**
   * The desk's leases (docs/adr/0012), from the database, so any node answers for all: each client
   * session's owner by the client's comp id, and the desk-wide jobs'. Absent: a node without leases.
   */
  leases?(): Promise<{ sessions: ReadonlyMap<string, LeaseView>; jobs: ReadonlyArray<LeaseView & { job: string }> }>;
  now?(): number;
}

/** How often the list is rebuilt (and changes pushed) without anything poking it. */
const SERVICE_REFRESH_MS = 10_000;
/** A database probe slower than this makes the database degraded; one that takes 5 s fails. */
const DB_SLOW_MS = 1_000;
const DB_TIMEOUT_MS = 5_000;
/** The acceptor and API probes: a slower answer makes them degraded, none within 5 s down. */
const PROBE_SLOW_MS = 1_000;
const PROBE_TIMEOUT_MS = 5_000;
/** The order-to-accept figures are read again at most this often. */
const ACCEPT_TIMES_MAX_AGE_MS = 30_000;

/**
 * The health of what this node runs: the database, the FIX acceptor and each active client's FIX
 * session, the API itself and the simulated clients. Rebuilt every 10 s and at once when a client
 * logs on or off (poke); every change of a service's status or connection is pushed to the browsers
 * as `service_status`. GET /api/service-status answers the list.
 *
 * Each node reports what it runs; with several nodes each lists the sessions it owns as connected.
 */
export class ServiceMonitor {
  private timer: NodeJS.Timeout | undefined;
  private pokeTimer: NodeJS.Timeout | undefined;
  private running: Promise<ServiceStatusEntry[]> | undefined;
  private again = false;
  private last: { services: ServiceStatusEntry[]; at: number } | undefined;
  /** What was last pushed per service: status and connection. */
  private readonly pushed = new Map<string, string>();
  private dbLastOk: number | undefined;
  private acceptorLastOk: number | undefined;
  private apiLastOk: number | undefined;
  private acceptTimesCache:
    { at: number; day: number; data: ReadonlyMap<string, { count: number; p50Ms: number; worstMs: number }> } | undefined;
  private readonly startedAt: number;

  constructor(
    private readonly parts: MonitoredParts,
    private readonly log: FastifyBaseLogger,
  ) {
    this.startedAt = this.now();
  }

  private now(): number {
    return this.parts.now?.() ?? Date.now();
  }

  start(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), SERVICE_REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.pokeTimer);
  }

  /** After stop (the server closing): nothing is rebuilt or pushed any more. */
  private stopped = false;

  /** Something changed (a client logged on or off): rebuild soon, once for a burst of pokes. */
  poke(): void {
    if (this.pokeTimer || this.stopped) return;
    this.pokeTimer = setTimeout(() => {
      this.pokeTimer = undefined;
      void this.refresh();
    }, 50);
    this.pokeTimer.unref();
  }

  /** The list as of the latest rebuild, rebuilt first when it is older than maxAgeMs. */
  async list(maxAgeMs = 1_000): Promise<{ services: ServiceStatusEntry[]; lastUpdated: string }> {
    const last = this.last && this.now() - this.last.at <= maxAgeMs ? this.last : undefined;
    const services = last ? last.services : await this.refresh();
    return { services, lastUpdated: new Date(this.last?.at ?? this.now()).toISOString() };
  }

  /** Rebuilds the list and pushes what changed; one rebuild at a time (a call meanwhile gets the next). */
  refresh(): Promise<ServiceStatusEntry[]> {
    if (this.stopped) return Promise.resolve(this.last?.services ?? []);
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        let services: ServiceStatusEntry[];
        // A change during a rebuild gets one more rebuild (at most two more in a row: a stream of
        // changes must not keep a caller waiting; the next poke or tick catches up).
        let rounds = 0;
        do {
          this.again = false;
          services = await this.build();
          this.last = { services, at: this.now() };
          if (!this.stopped) this.pushChanges(services);
        } while (this.again && !this.stopped && ++rounds < 3);
        return services;
      } catch (err) {
        this.log.warn({ err }, 'service status: rebuilding the list failed');
        return this.last?.services ?? [];
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private pushChanges(services: readonly ServiceStatusEntry[]): void {
    const timestamp = new Date(this.now()).toISOString();
    for (const s of services) {
      const key = `${s.status}/${s.isConnected}/${s.session?.expectation ?? ''}/${s.trading_stop?.stopped_at ?? ''}`;
      if (this.pushed.get(s.name) === key) continue;
      this.pushed.set(s.name, key);
      this.parts.broadcast({
        type: 'service_status',
        data: { service_name: s.name, status: s.status, timestamp, metadata: s.metadata, service: s },
      });
    }
    const names = new Set(services.map((s) => s.name));
    for (const name of [...this.pushed.keys()]) if (!names.has(name)) this.pushed.delete(name);
  }

  private async build(): Promise<ServiceStatusEntry[]> {
    const p = this.parts;
    const entry = (
      e: Omit<ServiceStatusEntry, 'staleDuration' | 'containerName' | 'lastHeartbeat'> & { lastHeartbeat: number | undefined },
    ): ServiceStatusEntry => ({
      ...e,
      lastHeartbeat: e.lastHeartbeat === undefined ? null : new Date(e.lastHeartbeat).toISOString(),
      staleDuration: e.lastHeartbeat === undefined ? 0 : Math.max(0, this.now() - e.lastHeartbeat),
      containerName: p.nodeId,
    });

    // The database: a trivial query, timed.
    const t0 = this.now();
    let dbStatus: ServiceHealth;
    let dbError: string | undefined;
    try {
      await withTimeout(p.probeDatabase(), DB_TIMEOUT_MS);
      const took = this.now() - t0;
      this.dbLastOk = this.now();
      dbStatus = took > DB_SLOW_MS ? 'degraded' : 'healthy';
    } catch (err) {
      dbStatus = 'down';
      dbError = err instanceof Error ? err.message : String(err);
    }
    const services: ServiceStatusEntry[] = [
      entry({
        name: 'database',
        type: 'database',
        description:
          p.databaseKind === 'postgres' ? 'PostgreSQL, the system of record' : 'Embedded PostgreSQL (PGlite), the system of record',
        critical: true,
        status: dbStatus,
        isConnected: dbStatus !== 'down',
        lastHeartbeat: this.dbLastOk,
        metadata: { engine: p.databaseKind, probeMs: this.now() - t0, ...(dbError ? { error: dbError } : {}) },
      }),
    ];

    // The acceptor: a real connection to its port, closed by the acceptor (its event loop answered).
    const port = p.acceptorPort();
    const sessions = p.sessions();
    const acceptor = port > 0 ? await this.probe(() => p.probeAcceptor()) : { ok: false as const, error: 'not listening' };
    if (acceptor.ok) this.acceptorLastOk = this.now();
    services.push(
      entry({
        name: 'fix-acceptor',
        type: 'fix-acceptor',
        description: 'FIX 4.4 acceptor for client sessions',
        critical: true,
        status: acceptor.ok ? heartbeatHealth(acceptor.slow ? 'degraded' : 'healthy', this.acceptorLastOk, this.now()) : 'down',
        isConnected: acceptor.ok,
        lastHeartbeat: this.acceptorLastOk,
        metadata: {
          port,
          sessionsLoggedOn: sessions.filter((s) => s.loggedOn).length,
          ...(acceptor.ok ? { probeMs: acceptor.ms } : { error: acceptor.error }),
        },
      }),
    );

    // Each active client's session, whether or not it is logged on now (the database may be down: then only the live ones).
    let connectors: readonly MonitoredConnector[] = [];
    let acceptTimes: ReadonlyMap<string, { count: number; p50Ms: number; worstMs: number }> = new Map();
    if (dbStatus !== 'down') {
      try {
        connectors = await withTimeout(p.activeConnectors(), DB_TIMEOUT_MS);
        acceptTimes = await withTimeout(this.acceptTimes(), DB_TIMEOUT_MS);
      } catch (err) {
        this.log.warn({ err }, 'service status: could not read the client connectors or their accept times');
      }
    }
    let dropCopyQueues: Awaited<ReturnType<NonNullable<MonitoredParts['dropCopyQueues']>>> = new Map();
    if (dbStatus !== 'down' && p.dropCopyQueues && connectors.some((c) => c.dropCopyOf)) {
      try {
        dropCopyQueues = await withTimeout(p.dropCopyQueues(), DB_TIMEOUT_MS);
      } catch (err) {
        this.log.warn({ err }, 'service status: could not read the drop copy queues');
      }
    }
    let leases: Awaited<ReturnType<NonNullable<MonitoredParts['leases']>>> = { sessions: new Map(), jobs: [] };
    if (dbStatus !== 'down' && p.leases) {
      try {
        leases = await withTimeout(p.leases(), DB_TIMEOUT_MS);
      } catch (err) {
        this.log.warn({ err }, 'service status: could not read the leases');
      }
    }
    services[0]!.metadata.deskJobs = leases.jobs;
    const byClient = new Map(sessions.map((s) => [s.sessionID.targetCompID, s]));
    const connectorOf = new Map(connectors.map((c) => [c.compId, c]));
    const compIds = [
      ...new Set([...connectors.map((c) => c.compId), ...sessions.filter((s) => s.connected).map((s) => s.sessionID.targetCompID)]),
    ].sort();
    for (const compId of compIds) {
      const s = byClient.get(compId);
      const c = connectorOf.get(compId);
      const ours = s?.sessionID.senderCompID ?? c?.ourCompId ?? '';
      const loggedOn = !!s?.loggedOn;
      const lastReceived = loggedOn ? p.lastReceivedAt(compId) : undefined;
      const figures = this.figures(compId, loggedOn, s, c, lastReceived, acceptTimes.get(compId), dropCopyQueues.get(compId));
      const lease = leases.sessions.get(compId);
      // Logged on at another live node: that node has its figures; this one knows it is served.
      const elsewhere = !loggedOn && !!lease?.live && lease.node !== p.nodeId;
      let status: ServiceHealth;
      if (loggedOn) status = sessionSilenceHealth(figures.heartBtIntSec, lastReceived, this.now());
      else if (elsewhere) status = 'healthy';
      else status = figures.expectation === 'missing' ? 'down' : 'offline';
      services.push(
        entry({
          name: `fix-session:${compId}`,
          type: 'fix-session',
          description: c?.dropCopyOf ? `Drop copy session with ${compId}` : `FIX session with ${compId}`,
          critical: false,
          status,
          isConnected: loggedOn || elsewhere,
          lastHeartbeat: lastReceived,
          metadata: {
            connected: loggedOn,
            senderCompID: ours,
            targetCompID: compId,
            txSeqNum: s ? s.nextSenderMsgSeqNum - 1 : null,
            rxSeqNum: s ? s.nextTargetMsgSeqNum - 1 : null,
            sessionID: `FIX.4.4:${ours}->${compId}`,
            ...(s?.remoteAddress && loggedOn ? { remoteAddress: s.remoteAddress } : {}),
            // Which node owns the session, under which term, until when (absent: never owned).
            ...(lease ? { owner: lease } : {}),
            ...(elsewhere ? { servedBy: lease!.node } : {}),
          },
          session: figures,
          trading_stop: c?.tradingStop ?? null,
        }),
      );
    }

    // The API: a request over this node's own HTTP socket.
    const api = await this.probe(() => p.probeApi());
    if (api.ok) this.apiLastOk = this.now();
    services.push(
      entry({
        name: 'api',
        type: 'api',
        description: 'HTTP API and live updates (WebSocket)',
        critical: true,
        status: api.ok ? heartbeatHealth(api.slow ? 'degraded' : 'healthy', this.apiLastOk, this.now()) : 'down',
        isConnected: api.ok,
        lastHeartbeat: this.apiLastOk,
        metadata: {
          version: p.version,
          uptimeSeconds: Math.round((this.now() - this.startedAt) / 1000),
          browsersConnected: await p.browsersConnected(),
          ...(api.ok ? { probeMs: api.ms } : { error: api.error }),
        },
      }),
    );

    // The simulated clients: seen working when their messages reach our acceptor.
    const tc = p.testClients();
    const tcLast = tc.runningCompIds.reduce<number | undefined>((latest, id) => {
      const at = p.lastReceivedAt(id);
      return at !== undefined && (latest === undefined || at > latest) ? at : latest;
    }, undefined);
    services.push(
      entry({
        name: 'test-clients',
        type: 'simulator',
        description: 'Simulated FIX clients (FIX Client Simulator)',
        critical: false,
        status: tc.running === 0 ? 'offline' : tc.loggedOn < tc.running ? 'degraded' : heartbeatHealth('healthy', tcLast, this.now()),
        isConnected: tc.loggedOn > 0,
        lastHeartbeat: tcLast,
        metadata: { clients: tc.clients, running: tc.running, loggedOn: tc.loggedOn },
      }),
    );
    return services;
  }

  /** Runs a probe with the timeout; how long it took and whether that was slow. */
  private async probe(run: () => Promise<void>): Promise<{ ok: true; ms: number; slow: boolean } | { ok: false; error: string }> {
    const t0 = this.now();
    try {
      await withTimeout(run(), PROBE_TIMEOUT_MS);
      const ms = this.now() - t0;
      return { ok: true, ms, slow: ms > PROBE_SLOW_MS };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** Today's (UTC) order-to-accept figures, read at most every 30 s. */
  private async acceptTimes(): Promise<ReadonlyMap<string, { count: number; p50Ms: number; worstMs: number }>> {
    const now = this.now();
    const day = Math.floor(now / 86_400_000) * 86_400_000;
    const c = this.acceptTimesCache;
    if (c && c.day === day && now - c.at < ACCEPT_TIMES_MAX_AGE_MS) return c.data;
    const data = await this.parts.acceptTimes(new Date(day));
    this.acceptTimesCache = { at: now, day, data };
    return data;
  }

  private figures(
    compId: string,
    loggedOn: boolean,
    s: ReturnType<MonitoredParts['sessions']>[number] | undefined,
    c: MonitoredConnector | undefined,
    lastReceived: number | undefined,
    accept: { count: number; p50Ms: number; worstMs: number } | undefined,
    copies: { depth: number; oldestUnsentAt: Date | null } | undefined,
  ): FixSessionFigures {
    const now = this.now();
    const where = c ? scheduleNow(c.schedule, now) : { inSchedule: false, msSinceStart: undefined };
    const k = this.parts.stats.of(compId);
    return {
      loggedOn,
      inSchedule: where.inSchedule,
      expectation: sessionExpectation(loggedOn, where.inSchedule, where.msSinceStart),
      schedule: c?.schedule ?? { startTime: '', endTime: '', tradingDays: '', timeZone: '' },
      secondsSinceInbound: lastReceived === undefined ? null : Math.max(0, Math.floor((now - lastReceived) / 1000)),
      heartBtIntSec: loggedOn && s ? s.heartBtIntSec : (c?.heartBtIntSec ?? 0),
      testRequests: { sent: k.testRequestsSent, unanswered: loggedOn ? k.pendingTestRequests.size : 0 },
      resendRequests: {
        received: k.resendIn,
        receivedGap: k.resendInGap,
        sent: k.resendOut,
        sentGap: k.resendOutGap,
        recent: [...k.recentResends],
      },
      sessionRejects: { sent: { ...k.sessionRejectsSent }, received: { ...k.sessionRejectsReceived } },
      businessRejects: { sent: { ...k.businessRejectsSent }, received: { ...k.businessRejectsReceived } },
      refusedLogons: { ...k.refusedLogons },
      queueDepth: this.parts.queueDepth(compId),
      ...(c?.dropCopyOf
        ? {
            dropCopy: {
              clients: [...c.dropCopyOf],
              depth: copies?.depth ?? 0,
              lagSeconds: copies?.oldestUnsentAt ? Math.max(0, Math.floor((now - copies.oldestUnsentAt.getTime()) / 1000)) : null,
            },
          }
        : {}),
      tlsDaysLeft: daysUntil(c?.tlsExpiresAt, new Date(now)) ?? null,
      orderToAccept: accept ?? null,
      messages: { received: k.messagesIn, sent: k.messagesOut },
    };
  }
}

/**
 * Whether a connector's schedule is in force now, and since when (ms since today's session start,
 * for the late-logon alert). A schedule that cannot be read is never in force.
 */
export function scheduleNow(
  schedule: { startTime: string; endTime: string; tradingDays: string; timeZone: string },
  now: number,
): { inSchedule: boolean; msSinceStart: number | undefined } {
  let parsed: SessionSchedule;
  let start: number;
  try {
    parsed = {
      timeZone: schedule.timeZone,
      tradingDays: parseTradingDays(schedule.tradingDays),
      startTime: schedule.startTime,
      endTime: schedule.endTime,
    };
    start = parseTimeOfDay(schedule.startTime);
    if (!isWithinSchedule(parsed, now)) return { inSchedule: false, msSinceStart: undefined };
  } catch {
    return { inSchedule: false, msSinceStart: undefined };
  }
  const local = localParts(now, schedule.timeZone);
  const seconds = local.secondsOfDay >= start ? local.secondsOfDay - start : local.secondsOfDay + 86_400 - start;
  return { inSchedule: true, msSinceStart: seconds * 1000 + (now % 1000) };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_r, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
