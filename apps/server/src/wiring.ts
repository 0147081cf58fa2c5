import {
  countUnsentDropCopies,
  fixSessionLeaseName,
  getConnector,
  getOrderConnector,
  leaseSubject,
  listConnectors,
  listLeases,
  nodeLeaseName,
  orderAcceptTimesSince,
  pingDatabase,
  sessionConnection,
  sessionsConnectedAt,
  type Db,
} from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';
import { AuthService } from './auth/auth-service';
import { LeaseKeeper } from './cluster/lease-keeper';
import { PgNodeBus } from './cluster/node-bus';
import { relayDeskEvents, relaySessionConnections } from './cluster/event-relay';
import { OrderFanOut, orderActivity, OUTBOX_CHANNEL, relayWaitingMessages } from './cluster/order-fan-out';
import { NodeWatch } from './cluster/node-watch';
import { SessionRebalancer } from './cluster/rebalancer';
import { AuditSealer } from './compliance/audit-sealer';
import { InsightsRollupJob } from './insights/rollup-job';
import { TableUpkeepJob } from './database/table-upkeep-job';
import type { Config } from './config';
import { ServerEventBus } from './events';
import { ClientSessions } from './fix/client-sessions';
import { FixGateway } from './fix/gateway';
import { SessionConsole } from './fix/session-console';
import { DayOrderExpiry } from './orders/day-expiry';
import { DropCopyOutbox } from './orders/drop-copy-outbox';
import { OrderService } from './orders/order-service';
import { ClientOutbox, type ClientMessageSender } from './orders/outbox';
import { ClientKillSwitch } from './orders/kill-switch';
import { OrderPublisher } from './orders/publisher';
import { liveMonth } from './orders/reference-data';
import { RiskState } from './orders/risk-state';
import { ServerMetrics } from './status/metrics';
import { ServiceMonitor, type LeaseView } from './status/service-monitor';
import { SessionStats } from './status/session-stats';
import { TestClientService, type TestClientOptions } from './test-client/service';
import { DeskPresence } from './ws/desk-presence';
import { WsHub } from './ws/hub';

/**
 * The server's parts and who gets what, in construction order. Nothing is attached after
 * construction: the one cycle (the gateway feeds the order core, whose replies go out on the
 * gateway's sessions) is broken by ClientSessions, built first and handed to all three.
 *
 *   ClientSessions ─┬─> ClientOutbox ──> OrderService <── FixGateway (opens sessions at logon)
 *                   └──────────────────> OrderService (reserves intake replies in the commit)
 */
export function wireServer(
  db: Db,
  config: Config,
  log: FastifyBaseLogger,
  opts: { version: string; testClient: TestClientOptions; clientSender?: ClientMessageSender | undefined },
) {
  const auth = new AuthService(db);
  const events = new ServerEventBus();
  // What this node owns of the desk (FIX sessions, desk-wide jobs, its own node lease), by lease (docs/adr/0012).
  const leases = new LeaseKeeper(db, config.nodeId, config.leaseTtlMs, log);
  const sessions = new ClientSessions((id) => leases.fence(fixSessionLeaseName(id)));
  // The other nodes on the same PostgreSQL (docs/adr/0012); the embedded database has none.
  const bus = db.kind === 'postgres' ? new PgNodeBus(db, config.nodeId, log) : undefined;
  // Users online over the desk's nodes; the embedded database runs one node, whose own count is the desk's.
  const presence = bus && new DeskPresence(db, config.nodeId, log, bus);
  const hub = new WsHub(auth, log, (userId) => events.emit('sign-ins-ended', userId), presence);
  const fanOut =
    bus && new OrderFanOut(bus, orderActivity(db), log, { reloadBrowsers: (reason) => hub.broadcast({ type: 'resync', reason }) });
  const outbox = new ClientOutbox(db, opts.clientSender ?? sessions, log, bus && ((compId) => bus.publish(OUTBOX_CHANNEL, { c: compId })));
  // The drop copy sessions' copies (docs/adr/0017), sent through the same sessions; one on another node is told by the outbox channel.
  const dropCopies = new DropCopyOutbox(
    db,
    opts.clientSender ?? sessions,
    (compId) => sessions.isLive(compId),
    log,
    bus && ((compId) => bus.publish(OUTBOX_CHANNEL, { c: compId })),
    // Copies stored and marked in one commit on PGlite only: on PostgreSQL that commit of its own per
    // burst cost more backend CPU than the store's group commit it replaced (docs/adr/0017, amendment 1).
    opts.clientSender || db.kind !== 'pglite' ? undefined : sessions,
  );
  const metrics = new ServerMetrics();
  const stats = new SessionStats((kind, compId, detail, amount) => metrics.sessionEvent(kind, compId, detail, amount));
  // Pre-trade risk of the clients whose sessions are on this node, in memory (docs/adr/0013).
  const risk = new RiskState(db, log, async (compId) => liveMonth(new Date(), (await getOrderConnector(db, compId))?.timezone ?? 'UTC'));
  const publish = new OrderPublisher(db, hub, log, (er) => metrics.orderReport(er.exectype, er.ordstatus), fanOut, risk);
  /** This node's link to the others: their order changes to our browsers, their reports to our clients' sessions, their configuration changes. */
  const nodeLink = {
    start: async () => {
      // This node is live (for the others' users-online counts and session placement) while it holds its node lease.
      await leases.acquire(nodeLeaseName(config.nodeId));
      await presence?.start(() => hub.othersChanged());
      if (!bus || !fanOut) return;
      await fanOut.start(publish);
      await relayWaitingMessages(bus, sessions, outbox, log, dropCopies);
      await relayDeskEvents(bus, events, log);
      await relaySessionConnections(
        bus,
        events,
        (compId) => sessionConnection(db, compId),
        (msg) => hub.broadcast(msg),
        log,
      );
      await sessionConsole.start();
      nodeWatch?.start();
    },
    stop: async () => {
      await nodeWatch?.stop();
      // What this node changed last still reaches the others.
      fanOut?.flush();
      await bus?.close();
    },
  };
  // A node that died: its browsers leave the users online and its clients' sessions the connected ones, on this node's screens, at once.
  const nodeWatch =
    bus &&
    new NodeWatch(
      db,
      config.nodeId,
      config.leaseTtlMs,
      async (gone) => {
        hub.othersChanged();
        for (const compId of await sessionsConnectedAt(db, gone)) {
          hub.broadcast({
            type: 'client_connection_status',
            comp_id: compId,
            is_connected: false,
            timestamp: new Date().toISOString(),
            reason: `node ${gone.join(', ')} stopped`,
          });
        }
        services.poke();
      },
      log,
    );
  const orders = new OrderService({ db, outbox, publish, risk, sessions, dropCopies, log });
  const fix = new FixGateway(db, config, orders, outbox, dropCopies, sessions, hub, events, log, leases, stats, (seconds) =>
    metrics.orderIntake(seconds),
  );
  const sessionConsole = new SessionConsole(db, fix, config.nodeId, bus, log);
  // The kill switch per client; a stop may log the client's session out where it is logged on (this node).
  const killSwitch = new ClientKillSwitch(
    db,
    orders,
    events,
    hub,
    async (compId, reason) => {
      if (!fix.list().some((s) => s.sessionID.targetCompID === compId && s.loggedOn)) return false;
      const c = await getConnector(db, compId);
      if (!c) return false;
      await fix.operations.logout(c, reason);
      return true;
    },
    log,
  );
  // Sessions move to a node that joined (or came back) after they were placed (docs/adr/0012); one node has nowhere to move them.
  // The desk's own simulated clients (logged on from this node to this node) stay where they are.
  const rebalancer =
    bus && config.rebalanceSessions
      ? new SessionRebalancer(db, leases, fix.ownership, log, (compId) => testClients.get(compId)?.fixConnected ?? false)
      : undefined;
  const testClients = new TestClientService(db, config, fix, hub, events, log, opts.testClient, auth);
  /** This node's own API address, known once it listens (server.ts sets it): the API probe's target. */
  const apiEndpoint: { url: string | undefined } = { url: undefined };
  const dayOrderExpiry = new DayOrderExpiry(db, orders, log, () => leases.runsDeskJob('day-order-expiry'));
  const auditSealer = new AuditSealer(db, log, () => leases.runsDeskJob('audit-sealer'));
  const insightsRollup = new InsightsRollupJob(db, log, config.insightsRollupMs, () => leases.runsDeskJob('insights-rollup'));
  // PostgreSQL's autovacuum keeps its tables; embedded PGlite has none (docs/adr/0020).
  const tableUpkeep = db.kind === 'pglite' ? new TableUpkeepJob(db, log) : undefined;
  const services = new ServiceMonitor(
    {
      nodeId: config.nodeId,
      version: opts.version,
      databaseKind: db.kind,
      probeDatabase: () => pingDatabase(db),
      acceptorPort: () => fix.port,
      probeAcceptor: () => fix.probe(),
      probeApi: async () => {
        if (!apiEndpoint.url) throw new Error('not listening yet');
        const r = await fetch(`${apiEndpoint.url}/api/health/live`, { signal: AbortSignal.timeout(5_000) });
        if (!r.ok) throw new Error(`answered ${r.status}`);
      },
      activeConnectors: async () =>
        (await listConnectors(db))
          .filter((c) => c.is_active)
          .map((c) => ({
            compId: c.comp_id,
            ourCompId: c.target_comp_id,
            heartBtIntSec: c.heartbeatint,
            schedule: { startTime: c.start_time, endTime: c.end_time, tradingDays: c.trading_days, timeZone: c.timezone },
            tlsExpiresAt: c.tls_cert ? c.tls_expires_at : null,
            tradingStop: c.trading_stopped_at
              ? {
                  stopped_at: c.trading_stopped_at.toISOString(),
                  stopped_by: c.trading_stopped_by ?? '',
                  reason: c.trading_stop_reason ?? '',
                }
              : null,
            ...(c.session_type === 'drop_copy' ? { dropCopyOf: c.drop_copy_of } : {}),
          })),
      sessions: () => fix.list(),
      lastReceivedAt: (compId) => fix.activity.lastReceivedAt(compId),
      stats,
      queueDepth: (compId) => outbox.queued(compId),
      dropCopyQueues: async () =>
        new Map((await countUnsentDropCopies(db)).map((q) => [q.comp_id, { depth: q.depth, oldestUnsentAt: q.oldest_unsent_at }])),
      acceptTimes: (since) => orderAcceptTimesSince(db, since),
      testClients: () => ({
        ...testClients.summary(),
        runningCompIds: testClients
          .list()
          .filter((c) => c.running)
          .map((c) => c.compId),
      }),
      // The desk's browsers (every live node's), as the users-online count.
      browsersConnected: async () => (await hub.deskOnline()).reduce((n, u) => n + u.connections, 0),
      broadcast: (msg) => hub.broadcast(msg),
      leases: async () => {
        const sessions = new Map<string, LeaseView>();
        const jobs: Array<LeaseView & { job: string }> = [];
        for (const l of await listLeases(db)) {
          const view: LeaseView = { node: l.owner, term: l.term, expiresAt: l.expiresAt.toISOString(), live: l.live };
          const subject = leaseSubject(l.name);
          if (subject?.kind === 'fix') sessions.set(subject.targetCompID, view);
          else if (subject?.kind === 'job') jobs.push({ job: subject.job, ...view });
        }
        return { sessions, jobs };
      },
    },
    log,
  );
  metrics.readFrom({
    services: async () => (await services.list(5_000)).services,
    browsersConnected: () => hub.onlineUsers().reduce((n, u) => n + u.connections, 0),
    pool: () => db.poolStats?.(),
  });

  // Who follows which change.
  events.on('connector-changed', (compId) => {
    orders.invalidate(compId);
    outbox.invalidateProfiles();
    // Which drop copy sessions cover which clients.
    dropCopies.invalidate();
  });
  // The next report to the client is shaped by its new defaults.
  events.on('client-defaults-changed', (connectorId) => outbox.invalidateProfiles(connectorId));
  // A new, changed or (de)activated security applies to the next order; new specs to the next report.
  events.on('security-changed', () => orders.invalidate());
  // A capability change applies to the client's next order.
  events.on('capabilities-changed', () => orders.invalidate());
  events.on('message-specs-changed', () => outbox.invalidateProfiles());
  events.on('broker-changed', () => outbox.invalidateProfiles());
  events.on('fix-session-changed', () => services.poke());
  // Sign-ins ended on another node (or on this one): their sockets here close now, not at the next re-check.
  events.on(
    'sign-ins-ended',
    (userId) => void hub.recheck(userId).catch((err: unknown) => log.warn({ err, userId }, 'could not re-check sign-ins')),
  );
  events.on('connector-changed', () => services.poke());
  // A stop or a resume, made here or on another node: the browsers hear of it, the session's node sweeps.
  events.on(
    'connector-changed',
    (compId) =>
      void killSwitch
        .followConnectorChange(compId)
        .catch((err: unknown) => log.error({ err, compId }, 'kill switch: could not follow a connector change')),
  );

  return {
    auth,
    hub,
    events,
    sessions,
    outbox,
    dropCopies,
    orders,
    killSwitch,
    fix,
    sessionConsole,
    testClients,
    dayOrderExpiry,
    auditSealer,
    insightsRollup,
    tableUpkeep,
    services,
    metrics,
    apiEndpoint,
    leases,
    nodeLink,
    rebalancer,
  };
}
