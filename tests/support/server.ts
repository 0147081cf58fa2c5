// Starts a real server (in this process) on a fresh database of either kind, for the API tests.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seed, type DatabaseKind } from '@fixdesk/db';
import { createTestDatabase, type TestDatabase, type TestTemplate } from '@fixdesk/db/testing';
import pino from 'pino';
import { hashPassword } from '../../apps/server/src/auth/passwords';
import { loadConfig, type Config } from '../../apps/server/src/config';
import { loadDictionaryData } from '../../apps/server/src/dictionary';
import type { ClientMessageSender } from '../../apps/server/src/orders/outbox';
import { demoUsers, startServer, type RunningServer } from '../../apps/server/src/server';

export const ADMIN_PASSWORD = 'admin-test-pw-1';
export const DEMO_PASSWORD = 'demo-test-pw-1';

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
    }),
    ...overrides,
  };
}

const repoRoot = new URL('../..', import.meta.url).pathname;

/** Every file under a directory of the repository, in a stable order. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * A database as the server's first start leaves it (migrated, dictionary and demo data seeded, the
 * demo users with the test passwords), built once and copied for each test server: the server's own
 * start then finds everything there, as on any later start. The key covers what the seed reads (the
 * database package's sources, the dictionary) and the passwords.
 */
let seededTemplate: TestTemplate | undefined;
function seededDatabase(): TestTemplate {
  if (seededTemplate) return seededTemplate;
  const h = createHash('sha256').update(`${ADMIN_PASSWORD}\n${DEMO_PASSWORD}\n${readFileSync(join(repoRoot, 'apps/server/src/server.ts'))}`);
  for (const file of [...filesUnder('packages/db/src'), join(repoRoot, 'packages/fix/src/dictionary/fix44.generated.json')]) h.update(file).update(readFileSync(file));
  seededTemplate = {
    key: `seeded server database ${h.digest('hex')}`,
    build: async (db) => {
      await seed(db, { dictionary: loadDictionaryData(), users: demoUsers({ adminPassword: ADMIN_PASSWORD, demoPassword: DEMO_PASSWORD }).users, hashPassword });
    },
  };
  return seededTemplate;
}

export async function startTestServer(
  kind: DatabaseKind,
  overrides: Partial<Config> = {},
  /** Where the outbox sends instead of the clients' FIX sessions (to record what the clients would get). */
  opts: { clientSender?: ClientMessageSender } = {},
): Promise<TestServer> {
  const database = await createTestDatabase(kind, { template: seededDatabase() });
  const config = testConfig(overrides);
  // No fixed localhost ports for the simulated clients: tests run several servers at once.
  const server = await startServer(config, { db: database.db, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), testClient: { ports: 'off' }, ...opts });
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
    async login(username) {
      const password = username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD;
      const r = await api('/api/auth/login', { method: 'POST', json: { username, password } });
      const body = (await r.json()) as { token?: string; message?: string };
      if (!r.ok || !body.token) throw new Error(`login ${username} failed: ${r.status} ${body.message}`);
      return body.token;
    },
    async stop() {
      await server.close();
      await database.dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
