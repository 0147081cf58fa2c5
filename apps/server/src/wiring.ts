import { listConnectors, pingDatabase, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';
import { AuthService } from './auth/auth-service';
import { AuditSealer } from './compliance/audit-sealer';
import type { Config } from './config';
import { ServerEventBus } from './events';
import { ClientSessions } from './fix/client-sessions';
import { FixGateway } from './fix/gateway';
import { DayOrderExpiry } from './orders/day-expiry';
import { OrderService } from './orders/order-service';
import { ClientOutbox, type ClientMessageSender } from './orders/outbox';
import { OrderPublisher } from './orders/publisher';
import { ServiceMonitor } from './status/service-monitor';
import { TestClientService, type TestClientOptions } from './test-client/service';
import { WsHub } from './ws/hub';

/**
 * The server's parts and who gets what, in construction order. Nothing is attached after
 * construction: the one cycle (the gateway feeds the order core, whose replies go out on the
 * gateway's sessions) is broken by ClientSessions, built first and handed to all three.
 *
 *   ClientSessions ─┬─> ClientOutbox ──> OrderService <── FixGateway (opens sessions at logon)
 *                   └──────────────────> OrderService (reserves intake replies in the commit)
 */
export function wireServer(db: Db, config: Config, log: FastifyBaseLogger, opts: { version: string; testClient: TestClientOptions; clientSender?: ClientMessageSender | undefined }) {
  const auth = new AuthService(db);
  const hub = new WsHub(auth, log);
  const events = new ServerEventBus();
  const sessions = new ClientSessions();
  const outbox = new ClientOutbox(db, opts.clientSender ?? sessions, log);
  const publish = new OrderPublisher(db, hub, log);
  const orders = new OrderService({ db, outbox, publish, sessions, log });
  const fix = new FixGateway(db, config, orders, outbox, sessions, hub, events, log);
  const testClients = new TestClientService(db, config, fix, hub, events, log, opts.testClient, auth);
  const dayOrderExpiry = new DayOrderExpiry(db, orders, log);
  const auditSealer = new AuditSealer(db, log);
  const services = new ServiceMonitor(
    {
      nodeId: config.nodeId,
      version: opts.version,
      databaseKind: db.kind,
      probeDatabase: () => pingDatabase(db),
      acceptorPort: () => fix.port,
      activeConnectors: async () => (await listConnectors(db)).filter((c) => c.is_active).map((c) => ({ compId: c.comp_id, ourCompId: c.target_comp_id })),
      sessions: () => fix.list(),
      lastReceivedAt: (compId) => fix.lastReceivedAt(compId),
      testClients: () => testClients.summary(),
      browsersConnected: () => hub.onlineUsers().reduce((n, u) => n + u.connections, 0),
      broadcast: (msg) => hub.broadcast(msg),
    },
    log,
  );

  // Who follows which change.
  events.on('connector-changed', (compId) => {
    orders.invalidate(compId);
    outbox.invalidateProfiles();
  });
  // The next report to the client is shaped by its new defaults.
  events.on('client-defaults-changed', (connectorId) => outbox.invalidateProfiles(connectorId));
  // A new, changed or (de)activated security applies to the next order; new specs to the next report.
  events.on('security-changed', () => orders.invalidate());
  // A capability change applies to the client's next order.
  events.on('capabilities-changed', () => orders.invalidate());
  events.on('message-specs-changed', () => outbox.invalidateProfiles());
  events.on('fix-session-changed', () => services.poke());
  events.on('connector-changed', () => services.poke());

  return { auth, hub, events, sessions, outbox, orders, fix, testClients, dayOrderExpiry, auditSealer, services };
}
