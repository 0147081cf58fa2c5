// Starts a real server (in this process) on a fresh database of either kind, for the API tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseKind } from '@fixdesk/db';
import { createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { loadConfig, type Config } from '../../apps/server/src/config';
import type { ClientMessageSender } from '../../apps/server/src/orders/outbox';
import type { LogoFetchOptions } from '../../apps/server/src/reference/remote-logo';
import { startServer, type RunningServer } from '../../apps/server/src/server';
import { ADMIN_PASSWORD, DEMO_PASSWORD, seededDatabase } from './seeded-database';

export { ADMIN_PASSWORD, DEMO_PASSWORD };

export interface TestServer {
  url: string;
  server: RunningServer;
  database: TestDatabase;
  config: Config;
  /** Signs in and returns the bearer token. */
  login(username: 'admin' | 'broker' | 'viewer'): Promise<string>;
  api(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  stop(): Promise<void>;
}

/** Signs in as a seeded user at a server's API; the bearer token (fails on anything but a token). */
export async function signIn(url: string, username: 'admin' | 'broker' | 'viewer'): Promise<string> {
  const password = username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD;
  const r = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await r.json()) as { token?: string; message?: string };
  if (!r.ok || !body.token) throw new Error(`sign-in of ${username} failed: ${r.status} ${body.message}`);
  return body.token;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = mkdtempSync(join(tmpdir(), 'fixdesk-test-'));
  return {
    ...loadConfig({
      PORT: '0',
      FIX_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      DEMO_PASSWORD,
      LOG_LEVEL: 'silent',
      WEB_DIST: join(dataDir, 'no-web'),
      // Tests write rows dated in the past after the server started: the Desk Insights roll-up runs
      // when a test asks (rollUpInsights), not on its own (tests/integration/insights-rollup.test.ts).
      INSIGHTS_ROLLUP_MS: '0',
    }),
    ...overrides,
  };
}

export async function startTestServer(
  kind: DatabaseKind,
  overrides: Partial<Config> = {},
  /** Where the outbox sends instead of the clients' FIX sessions (to record what the clients would get). */
  opts: { clientSender?: ClientMessageSender; logoFetch?: LogoFetchOptions } = {},
): Promise<TestServer> {
  const database = await createTestDatabase(kind, { template: seededDatabase() });
  const config = testConfig(overrides);
  // No fixed localhost ports for the simulated clients: tests run several servers at once.
  const server = await startServer(config, {
    db: database.db,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    testClient: { ports: 'off' },
    ...opts,
  });
  const url = server.url;
  const api: TestServer['api'] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return fetch(url + path, { ...init, headers, body });
  };
  return {
    url,
    server,
    database,
    config,
    api,
    login: (username) => signIn(url, username),
    async stop() {
      await server.close();
      await database.dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
