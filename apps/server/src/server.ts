import { mkdirSync, readFileSync } from 'node:fs';
import { migrate, openDb, seed, type Db, type SeedUser } from '@fixdesk/db';
import pino from 'pino';
import { buildApp } from './app';
import { AuthService } from './auth/auth-service';
import { generatePassword, hashPassword } from './auth/passwords';
import type { Config } from './config';
import type { AppContext } from './context';
import { loadDictionaryData } from './dictionary';
import { ServerEventBus } from './events';
import { FixGateway } from './fix/gateway';
import { DayOrderExpiry } from './orders/day-expiry';
import { OrderService } from './orders/order-service';
import { ClientOutbox } from './orders/outbox';
import { OrderPublisher } from './orders/publisher';
import { TestClientService, testClientOptionsFromEnv, type TestClientOptions } from './test-client/service';
import { WsHub } from './ws/hub';
import { listConnectors } from '@fixdesk/db';
import { ServiceMonitor } from './status/service-monitor';

export interface RunningServer {
  ctx: AppContext;
  url: string;
  /** Demo users created at this start with generated passwords (printed once). */
  generatedPasswords: Record<string, string>;
  /** End-of-session expiry of Day orders (sweeps every minute; tests call sweep with a clock). */
  dayOrderExpiry: DayOrderExpiry;
  close(): Promise<void>;
}

export const VERSION = '0.1.0';

/** Opens the database, migrates, seeds on first start, and listens. The composition root. */
export async function startServer(
  config: Config,
  opts: { db?: Db; logger?: pino.Logger; /** Defaults to TEST_CLIENT_PORTS from the environment. */ testClient?: TestClientOptions } = {},
): Promise<RunningServer> {
  const log = opts.logger ?? pino({ level: config.logLevel });
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const db = opts.db ?? (await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const ownsDb = !opts.db;
  try {
    const m = await migrate(db);
    if (m.applied.length) log.info({ applied: m.applied }, 'database migrated');

    // Each demo user gets its own password: ADMIN_PASSWORD for admin, DEMO_PASSWORD for broker and
    // viewer when set (a demo convenience), otherwise one generated per user and printed once.
    const generated: Record<string, string> = {};
    const passwordFor = (name: string, given: string | undefined) => given ?? (generated[name] = generatePassword());
    const users: SeedUser[] = [
      { username: 'admin', role: 'admin', password: passwordFor('admin', config.adminPassword), first_name: 'Ada', last_name: 'Admin', email: 'admin@fixdesk.example' },
      { username: 'broker', role: 'broker', password: passwordFor('broker', config.demoPassword), first_name: 'Ben', last_name: 'Broker', email: 'broker@fixdesk.example' },
      { username: 'viewer', role: 'viewer', password: passwordFor('viewer', config.demoPassword), first_name: 'Vera', last_name: 'Viewer', email: 'viewer@fixdesk.example' },
    ];
    const report = await seed(db, { dictionary: loadDictionaryData(), users, hashPassword });
    if (report.dictionary || report.demo) log.info({ dictionary: report.dictionary, demo: report.demo }, 'database seeded');
    // Only passwords that were actually set now are worth printing; later starts find the users there.
    const printed: Record<string, string> = {};
    for (const name of report.usersCreated) if (generated[name]) printed[name] = generated[name];

    const auth = new AuthService(db);
    const hub = new WsHub(auth, log);
    const events = new ServerEventBus();
    const outbox = new ClientOutbox(db, log);
    const orders = new OrderService(db, outbox, new OrderPublisher(db, hub, log), log);
    events.on('connector-changed', (compId) => {
      orders.invalidate(compId);
      outbox.invalidateProfiles();
    });
    // The next report to the client is shaped by its new defaults.
    events.on('client-defaults-changed', (connectorId) => outbox.invalidateProfiles(connectorId));
    // A new, changed or (de)activated security applies to the next order; new specs to the next report.
    events.on('security-changed', () => orders.invalidate());
    events.on('message-specs-changed', () => outbox.invalidateProfiles());
    const fix = new FixGateway(db, config, orders, outbox, hub, events, log);
    const testClients = new TestClientService(db, config, fix, hub, events, log, opts.testClient ?? testClientOptionsFromEnv());
    const dayOrderExpiry = new DayOrderExpiry(db, orders, log);
    const services = new ServiceMonitor(
      {
        nodeId: config.nodeId,
        version: VERSION,
        databaseKind: db.kind,
        probeDatabase: async () => void (await db.query('SELECT 1')),
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
    events.on('fix-session-changed', () => services.poke());
    events.on('connector-changed', () => services.poke());
    const { app, ctx } = await buildApp({ config, db, auth, hub, events, orders, outbox, fix, testClients, services, version: VERSION }, log);
    hub.start();
    await app.listen({ port: config.port, host: config.host });
    try {
      await fix.start();
      await testClients.start();
      dayOrderExpiry.start();
      services.start();
    } catch (err) {
      await testClients.stop().catch(() => {});
      await fix.stop().catch(() => {});
      await app.close();
      throw err;
    }
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    const local = ['0.0.0.0', '127.0.0.1', '::', '::1'].includes(config.host);
    const url = `http://${local ? 'localhost' : config.host}:${port}`;

    let closing: Promise<void> | undefined;
    return {
      ctx,
      url,
      generatedPasswords: printed,
      dayOrderExpiry,
      close: () =>
        (closing ??= (async () => {
          services.stop();
          await dayOrderExpiry.stop();
          // FIX first: clients get a Logout while the database still records it; our own simulated clients log out before the acceptor goes.
          await testClients.stop().catch((err) => log.error({ err }, 'test-client service stop failed'));
          await fix.stop().catch((err) => log.error({ err }, 'FIX acceptor stop failed'));
          await hub.close();
          await app.close();
          if (ownsDb) await db.close();
        })()),
    };
  } catch (err) {
    if (ownsDb) await db.close().catch(() => {});
    throw err;
  }
}

export function readPackageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return VERSION;
  }
}
