// Two server nodes in this process on one PostgreSQL database (docs/adr/0012), for the
// cluster integration tests: node A on the test database's own connection, node B on a pool of its own.
import { rmSync } from 'node:fs';
import { openDb, type Db } from '@fixdesk/db';
import { createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { WebSocket } from 'ws';
import type { Config } from '../../apps/server/src/config';
import { startServer, type RunningServer } from '../../apps/server/src/server';
import { freePort } from './free-port';
import { seededDatabase } from './seeded-database';
import { until } from './until';
import { testConfig } from './server';

const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export interface TestNode {
  readonly config: Config;
  server: RunningServer | undefined;
  readonly db: Db;
  /** Starts (or starts again, same NODE_ID) this node. */
  start(): Promise<RunningServer>;
  /** Closes it as a graceful stop does. */
  stop(): Promise<void>;
  readonly url: string;
}

export interface TwoNodes {
  readonly database: TestDatabase;
  readonly a: TestNode;
  readonly b: TestNode;
  close(): Promise<void>;
}

/** A seeded PostgreSQL database and two nodes on it (started; same config but for their ids). */
export async function startTwoNodes(ids: [string, string] = ['node-a', 'node-b'], overrides: Partial<Config> = {}): Promise<TwoNodes> {
  const database = await createTestDatabase('postgres', { template: seededDatabase() });
  const dbB = await openDb({ databaseUrl: database.url, poolSize: 5 });
  const node = (id: string, db: Db, ports: { port: number; fixPort: number }): TestNode => {
    // Fixed ports (below the ephemeral range: free-port.ts), so that a node started again listens where its clients look.
    const config = testConfig({ nodeId: id, leaseTtlMs: 1_000, ...ports, ...overrides });
    const n: TestNode = {
      get config() {
        return config;
      },
      server: undefined,
      db,
      async start() {
        n.server = await startServer(config, { db, logger: silent, testClient: { ports: 'off' } });
        return n.server;
      },
      async stop() {
        const s = n.server;
        n.server = undefined;
        await s?.close();
      },
      get url() {
        if (!n.server) throw new Error(`${id} is not running`);
        return n.server.url;
      },
    };
    return n;
  };
  const a = node(ids[0], database.db, { port: await freePort(), fixPort: await freePort() });
  const b = node(ids[1], dbB, { port: await freePort(), fixPort: await freePort() });
  await a.start();
  await b.start();
  return {
    database,
    a,
    b,
    async close() {
      await a.stop();
      await b.stop();
      await dbB.close();
      await database.dispose();
      rmSync(a.config.dataDir, { recursive: true, force: true });
      rmSync(b.config.dataDir, { recursive: true, force: true });
    },
  };
}

export { signIn } from './server';

export interface TestSocket {
  readonly ws: WebSocket;
  /** Every message received, parsed. */
  readonly messages: Array<{ type: string } & Record<string, unknown>>;
  /** Set once the socket closed: its code and reason. */
  closed: { code: number; reason: string } | undefined;
  close(): void;
}

/** A browser's WebSocket at a node, authenticated with `token` (resolves once `authenticated` came). */
export async function openSocket(url: string, token: string): Promise<TestSocket> {
  const ws = new WebSocket(url.replace('http', 'ws') + '/ws');
  const s: TestSocket = { ws, messages: [], closed: undefined, close: () => ws.close() };
  ws.on('message', (d) => s.messages.push(JSON.parse(String(d)) as { type: string }));
  ws.on('close', (code, reason) => (s.closed = { code, reason: String(reason) }));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'authenticate', token }));
  await until(
    'ws authenticated',
    () =>
      s.messages.find((m) => m.type === 'authenticated') ??
      (s.closed ? Promise.reject(new Error(`socket closed: ${s.closed.reason}`)) : undefined),
  );
  return s;
}
