import { mkdirSync } from 'node:fs';
import type { Server } from 'node:net';
import { relative } from 'node:path';
import { migrate, openDb, seed, type Db, type ModeChange, type SeedUser } from '@fixdesk/db';
import pino from 'pino';
import { buildApp } from './app';
import { generatePassword, hashPassword } from './auth/passwords';
import type { Config } from './config';
import type { AppContext } from './context';
import type { RouteAccess } from './http/access';
import { loadDictionaryData } from './dictionary';
import type { DayOrderExpiry } from './orders/day-expiry';
import type { LogoFetchOptions } from './reference/remote-logo';
import type { ClientMessageSender } from './orders/outbox';
import { testClientOptionsFromEnv, type TestClientOptions } from './test-client/service';
import { wireServer } from './wiring';

export interface RunningServer {
  ctx: AppContext;
  url: string;
  /** Demo users created at this start with generated passwords (printed once). */
  generatedPasswords: Record<string, string>;
  /** End-of-session expiry of Day orders (sweeps every minute; tests call sweep with a clock). */
  dayOrderExpiry: DayOrderExpiry;
  /** Every route with its declared access (the authorization matrix test walks it). */
  routes: readonly RouteAccess[];
  close(): Promise<void>;
}

export const VERSION = '0.1.0';

/**
 * The demo users a first start creates. Each gets its own password: ADMIN_PASSWORD for admin,
 * DEMO_PASSWORD for broker and viewer when set (a demo convenience), otherwise one generated per user
 * (in `generated`, printed once).
 */
export function demoUsers(config: Pick<Config, 'adminPassword' | 'demoPassword'>): {
  users: SeedUser[];
  generated: Record<string, string>;
} {
  const generated: Record<string, string> = {};
  const passwordFor = (name: string, given: string | undefined) => given ?? (generated[name] = generatePassword());
  const users: SeedUser[] = [
    {
      username: 'admin',
      role: 'admin',
      password: passwordFor('admin', config.adminPassword),
      first_name: 'Ada',
      last_name: 'Admin',
      email: 'admin@fixdesk.example',
    },
    {
      username: 'broker',
      role: 'broker',
      password: passwordFor('broker', config.demoPassword),
      first_name: 'Ben',
      last_name: 'Broker',
      email: 'broker@fixdesk.example',
    },
    {
      username: 'viewer',
      role: 'viewer',
      password: passwordFor('viewer', config.demoPassword),
      first_name: 'Vera',
      last_name: 'Viewer',
      email: 'viewer@fixdesk.example',
    },
  ];
  return { users, generated };
}

/**
 * Logs what the embedded database's directory had open to other local users and is now closed (issue
 * 34): a warning naming what changed in a directory that existed, a debug line for PGlite's own files
 * of a first start.
 */
function dataDirSecured(log: pino.Logger, dataDir: string) {
  return ({ existing, created }: { existing: readonly ModeChange[]; created: readonly ModeChange[] }) => {
    const shown = (changes: readonly ModeChange[]) =>
      changes.slice(0, 20).map((c) => `${relative(dataDir, c.path) || '.'} ${c.from} → ${c.to}`);
    if (existing.length) {
      log.warn(
        { dataDir, changed: existing.length, first: shown(existing) },
        'DATA_DIR was readable by other local users: its directories are now 0700 and its files 0600',
      );
    }
    if (created.length)
      log.debug({ dataDir, changed: created.length }, "the embedded database's new files closed to other local users (0600)");
  };
}

/** Opens the database, migrates, seeds on first start, wires the parts (wiring.ts) and listens. */
export async function startServer(
  config: Config,
  opts: {
    db?: Db;
    logger?: pino.Logger;
    /** Defaults to TEST_CLIENT_PORTS from the environment. */
    testClient?: TestClientOptions;
    /** Tests: where the outbox sends instead of the clients' live FIX sessions. */
    clientSender?: ClientMessageSender;
    /** Tests: how connector logos are fetched (a local https server's CA and address). */
    logoFetch?: LogoFetchOptions;
  } = {},
): Promise<RunningServer> {
  const log = opts.logger ?? pino({ level: config.logLevel });
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const db =
    opts.db ??
    (await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, onDataDirSecured: dataDirSecured(log, config.dataDir) }));
  const ownsDb = !opts.db;
  try {
    const m = await migrate(db);
    if (m.applied.length) log.info({ applied: m.applied }, 'database migrated');

    const { users, generated } = demoUsers(config);
    const report = await seed(db, { dictionary: loadDictionaryData(), users, hashPassword });
    if (report.dictionary || report.demo) log.info({ dictionary: report.dictionary, demo: report.demo }, 'database seeded');
    // Only passwords that were actually set now are worth printing; later starts find the users there.
    const printed: Record<string, string> = {};
    for (const name of report.usersCreated) if (generated[name]) printed[name] = generated[name];

    const {
      auth,
      hub,
      events,
      orders,
      killSwitch,
      outbox,
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
    } = wireServer(db, config, log, {
      version: VERSION,
      testClient: opts.testClient ?? testClientOptionsFromEnv(),
      clientSender: opts.clientSender,
    });
    const { app, ctx, routes } = await buildApp(
      {
        config,
        db,
        auth,
        hub,
        events,
        orders,
        killSwitch,
        outbox,
        fix,
        sessionConsole,
        testClients,
        services,
        metrics,
        version: VERSION,
        logoFetch: opts.logoFetch ?? {},
      },
      log,
    );
    hub.start();
    await app.listen({ port: config.port, host: config.host });
    apiEndpoint.url = ownUrl(app.server.address(), config);
    try {
      leases.start();
      await nodeLink.start();
      await fix.start();
      rebalancer?.start();
      await testClients.start();
      dayOrderExpiry.start();
      auditSealer.start();
      insightsRollup.start();
      tableUpkeep?.start();
      services.start();
    } catch (err) {
      await rebalancer?.stop().catch(() => {});
      await testClients.stop().catch(() => {});
      await fix.stop().catch(() => {});
      await nodeLink.stop().catch(() => {});
      await leases.stop().catch(() => {});
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
      routes,
      close: () =>
        (closing ??= (async () => {
          services.stop();
          await dayOrderExpiry.stop();
          await rebalancer?.stop();
          // FIX first: clients get a Logout while the database still records it; our own simulated clients log out before the acceptor goes.
          await testClients.stop().catch((err) => log.error({ err }, 'test-client service stop failed'));
          await fix.stop().catch((err) => log.error({ err }, 'FIX acceptor stop failed'));
          await nodeLink.stop().catch((err) => log.error({ err }, 'leaving the node bus failed'));
          await hub.close();
          await app.close();
          await auditSealer.stop();
          await insightsRollup.stop();
          await tableUpkeep?.stop();
          // What this node owned may move to another node at once.
          await leases.stop().catch((err) => log.error({ err }, 'releasing the leases failed'));
          if (ownsDb) await db.close();
        })()),
    };
  } catch (err) {
    if (ownsDb) await db.close().catch(() => {});
    throw err;
  }
}

/** This node's API as it can reach itself (a wildcard address through the loopback). */
function ownUrl(addr: ReturnType<Server['address']>, config: Config): string {
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host =
    config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '[::1]' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}
