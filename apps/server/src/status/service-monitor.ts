import type { ServiceHealth, ServiceStatusEntry, WsServerMessage } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';

/** What the monitor reads; the composition root wires the real parts in, tests their own. */
export interface MonitoredParts {
  /** This server node's name (the entries' containerName). */
  readonly nodeId: string;
  readonly version: string;
  readonly databaseKind: string;
  /** A trivial query on the database; rejects when it cannot be reached. */
  probeDatabase(): Promise<void>;
  /** The FIX acceptor's port, 0 while it is not listening. */
  acceptorPort(): number;
  /** The active client connectors (comp id, and our comp id towards them). */
  activeConnectors(): Promise<ReadonlyArray<{ compId: string; ourCompId: string }>>;
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
  testClients(): { clients: number; running: number; loggedOn: number };
  browsersConnected(): number;
  broadcast(msg: WsServerMessage): void;
  now?(): number;
}

/** How often the list is rebuilt (and changes pushed) without anything poking it. */
export const SERVICE_REFRESH_MS = 10_000;
/** A database probe slower than this makes the database degraded; one that takes 5 s fails. */
const DB_SLOW_MS = 1_000;
const DB_TIMEOUT_MS = 5_000;

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
      const key = `${s.status}/${s.isConnected}`;
      if (this.pushed.get(s.name) === key) continue;
      this.pushed.set(s.name, key);
      this.parts.broadcast({ type: 'service_status', data: { service_name: s.name, status: s.status, timestamp, metadata: s.metadata, service: s } });
    }
    const names = new Set(services.map((s) => s.name));
    for (const name of [...this.pushed.keys()]) if (!names.has(name)) this.pushed.delete(name);
  }

  private async build(): Promise<ServiceStatusEntry[]> {
    const p = this.parts;
    const entry = (e: Omit<ServiceStatusEntry, 'staleDuration' | 'containerName' | 'lastHeartbeat'> & { lastHeartbeat: number | undefined }): ServiceStatusEntry => ({
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
        description: p.databaseKind === 'postgres' ? 'PostgreSQL, the system of record' : 'Embedded PostgreSQL (PGlite), the system of record',
        critical: true,
        status: dbStatus,
        isConnected: dbStatus !== 'down',
        lastHeartbeat: this.dbLastOk,
        metadata: { engine: p.databaseKind, probeMs: this.now() - t0, ...(dbError ? { error: dbError } : {}) },
      }),
    ];

    const port = p.acceptorPort();
    const sessions = p.sessions();
    services.push(
      entry({
        name: 'fix-acceptor',
        type: 'fix-acceptor',
        description: 'FIX 4.4 acceptor for client sessions',
        critical: true,
        status: port > 0 ? 'healthy' : 'down',
        isConnected: port > 0,
        lastHeartbeat: port > 0 ? this.now() : undefined,
        metadata: { port, sessionsLoggedOn: sessions.filter((s) => s.loggedOn).length },
      }),
    );

    // Each active client's session, whether or not it is logged on now (the database may be down: then only the live ones).
    let connectors: ReadonlyArray<{ compId: string; ourCompId: string }> = [];
    if (dbStatus !== 'down') {
      try {
        connectors = await withTimeout(p.activeConnectors(), DB_TIMEOUT_MS);
      } catch (err) {
        this.log.warn({ err }, 'service status: could not read the client connectors');
      }
    }
    const byClient = new Map(sessions.map((s) => [s.sessionID.targetCompID, s]));
    const compIds = [...new Set([...connectors.map((c) => c.compId), ...sessions.filter((s) => s.connected).map((s) => s.sessionID.targetCompID)])].sort();
    for (const compId of compIds) {
      const s = byClient.get(compId);
      const ours = s?.sessionID.senderCompID ?? connectors.find((c) => c.compId === compId)?.ourCompId ?? '';
      const loggedOn = !!s?.loggedOn;
      const lastReceived = loggedOn ? p.lastReceivedAt(compId) : undefined;
      // Silent for longer than the engine's own TestRequest and timeout would allow: something is wrong.
      const silentTooLong = loggedOn && lastReceived !== undefined && s!.heartBtIntSec > 0 && this.now() - lastReceived > s!.heartBtIntSec * 2_500;
      services.push(
        entry({
          name: `fix-session:${compId}`,
          type: 'fix-session',
          description: `FIX session with ${compId}`,
          critical: false,
          status: loggedOn ? (silentTooLong ? 'degraded' : 'healthy') : 'offline',
          isConnected: loggedOn,
          lastHeartbeat: lastReceived,
          metadata: {
            connected: loggedOn,
            senderCompID: ours,
            targetCompID: compId,
            txSeqNum: s ? s.nextSenderMsgSeqNum - 1 : null,
            rxSeqNum: s ? s.nextTargetMsgSeqNum - 1 : null,
            sessionID: `FIX.4.4:${ours}->${compId}`,
            ...(s?.remoteAddress && loggedOn ? { remoteAddress: s.remoteAddress } : {}),
          },
        }),
      );
    }

    services.push(
      entry({
        name: 'api',
        type: 'api',
        description: 'HTTP API and live updates (WebSocket)',
        critical: true,
        status: 'healthy',
        isConnected: true,
        lastHeartbeat: this.now(),
        metadata: { version: p.version, uptimeSeconds: Math.round((this.now() - this.startedAt) / 1000), browsersConnected: p.browsersConnected() },
      }),
    );
    const tc = p.testClients();
    services.push(
      entry({
        name: 'test-clients',
        type: 'simulator',
        description: 'Simulated FIX clients (FIX Client Simulator)',
        critical: false,
        status: tc.running > 0 ? 'healthy' : 'offline',
        isConnected: tc.loggedOn > 0,
        lastHeartbeat: tc.running > 0 ? this.now() : undefined,
        metadata: { ...tc },
      }),
    );
    return services;
  }
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
