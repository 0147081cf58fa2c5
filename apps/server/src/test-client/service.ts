import { getConnector, listConnectors, PgMessageStoreFactory, type ConnectorRow, type Db } from '@fixdesk/db';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { ServerEventBus } from '../events';
import type { FixGateway } from '../fix/gateway';
import type { AuthService } from '../auth/auth-service';
import { installAccessControl } from '../http/access';
import { HttpError, installErrorHandling } from '../http/errors';
import type { WsHub } from '../ws/hub';
import { TestClient } from './client';
import { registerControlApi } from './control-api';
import { installControlPortGuard } from './control-port-guard';

/**
 * Where each client's control API listens besides the proxy path:
 *  - connector: on the connector's test_port (spec 000 §7; the default)
 *  - auto:      on a free port the OS picks (tests running several servers side by side)
 *  - off:       nowhere; the proxy path only
 * Always on localhost, and guarded like the proxy path (control-port-guard.ts): a signed-in broker or
 * admin, the listening address as Host, and no request from a web page of another origin.
 */
type TestClientPortMode = 'connector' | 'auto' | 'off';
const TEST_CLIENT_PORT_MODES: readonly TestClientPortMode[] = ['connector', 'auto', 'off'];

export interface TestClientOptions {
  ports: TestClientPortMode;
}

/** TEST_CLIENT_PORTS from the environment; a bad value stops the start with the variable's name. */
export function testClientOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): TestClientOptions {
  const raw = (env.TEST_CLIENT_PORTS ?? '').trim().toLowerCase();
  if (raw === '') return { ports: 'connector' };
  if (!(TEST_CLIENT_PORT_MODES as readonly string[]).includes(raw)) {
    throw new Error(
      `invalid configuration:\n  TEST_CLIENT_PORTS: must be one of ${TEST_CLIENT_PORT_MODES.join(', ')} (got '${env.TEST_CLIENT_PORTS}')`,
    );
  }
  return { ports: raw as TestClientPortMode };
}

const LOCALHOST = '127.0.0.1';
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/**
 * The test-client service: one simulated client (TestClient) per active client connector, each with
 * its control API on a localhost port and under the main server's proxy path, following connector
 * changes as they happen. Runs inside the server process, after the FIX acceptor.
 */
export class TestClientService {
  private readonly clients = new Map<string, TestClient>();
  private readonly ports = new Map<string, { app: FastifyInstance; port: number }>();
  /** Connector changes are applied one at a time per comp id. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly storeFactory: PgMessageStoreFactory;
  private started = false;
  private stopping = false;
  private readonly onConnectorChanged = (compId: string) => this.enqueue(compId, () => this.refresh(compId));

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly fix: FixGateway,
    private readonly hub: WsHub,
    private readonly events: ServerEventBus,
    private readonly log: FastifyBaseLogger,
    private readonly options: TestClientOptions,
    private readonly auth: AuthService,
  ) {
    this.storeFactory = new PgMessageStoreFactory(db);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const row of await listConnectors(this.db)) {
      if (row.is_active) await this.add(row);
    }
    this.events.on('connector-changed', this.onConnectorChanged);
    this.log.info({ clients: [...this.clients.keys()], ports: this.options.ports }, 'test-client service started');
  }

  /** The client for a comp id, or a 404 in the spec's words. */
  require(compId: string): TestClient {
    const client = this.clients.get(compId);
    if (!client) throw new HttpError(404, `No test client proxy path configured for comp_id: ${compId}`);
    return client;
  }

  get(compId: string): TestClient | undefined {
    return this.clients.get(compId);
  }

  list(): TestClient[] {
    return [...this.clients.values()];
  }

  /** For the service status page. */
  summary(): { clients: number; running: number; loggedOn: number } {
    const all = this.list();
    return { clients: all.length, running: all.filter((c) => c.running).length, loggedOn: all.filter((c) => c.fixConnected).length };
  }

  private acceptorAddress(): { host: string; port: number } {
    const host = WILDCARD_HOSTS.has(this.config.host) ? LOCALHOST : this.config.host === '::1' ? '::1' : this.config.host;
    return { host, port: this.fix.port };
  }

  private async add(row: ConnectorRow): Promise<void> {
    const client = new TestClient(row, {
      db: this.db,
      storeFactory: this.storeFactory,
      acceptor: () => this.acceptorAddress(),
      publish: (message) => this.hub.broadcast(message),
      log: this.log,
    });
    try {
      await client.loadHistory();
    } catch (err) {
      this.log.warn({ err, compId: row.comp_id }, 'test client history not loaded; its blotter starts empty');
    }
    this.clients.set(row.comp_id, client);
    await this.openPort(client);
  }

  private enqueue(compId: string, job: () => Promise<void>): void {
    const next = (this.chains.get(compId) ?? Promise.resolve())
      .then(job)
      .catch((err) => this.log.error({ err, compId }, 'test client update failed'));
    this.chains.set(compId, next);
    void next.finally(() => {
      if (this.chains.get(compId) === next) this.chains.delete(compId);
    });
  }

  /** A connector was created, changed or deleted: follow it. */
  private async refresh(compId: string): Promise<void> {
    if (this.stopping) return;
    const row = await getConnector(this.db, compId);
    const client = this.clients.get(compId);
    if (!row || !row.is_active) {
      if (!client) return;
      this.clients.delete(compId);
      await client.disconnect();
      await this.closePort(compId);
      this.log.info(
        { compId },
        row ? 'client connector deactivated: test client removed' : 'client connector deleted: test client removed',
      );
      return;
    }
    if (!client) {
      await this.add(row);
      return;
    }
    const portChanged = row.test_port !== client.row.test_port;
    client.update(row);
    if (portChanged && this.options.ports === 'connector') {
      await this.closePort(compId);
      await this.openPort(client);
    }
  }

  private async openPort(client: TestClient): Promise<void> {
    const compId = client.compId;
    client.port.listeningPort = null;
    if (this.options.ports === 'off') {
      client.port.portProblem = 'Control ports are off (TEST_CLIENT_PORTS=off); use the proxy path';
      return;
    }
    const wanted = this.options.ports === 'auto' ? 0 : client.row.test_port;
    if (wanted === null || wanted === undefined) {
      client.port.portProblem = `Missing test_port for client ${compId}`;
      return;
    }
    // Requests on the control port are not worth a log line each; failures still are.
    const logger = this.log.child({ testClientPort: compId }, { level: 'warn' }) as FastifyBaseLogger;
    const app = Fastify({ loggerInstance: logger, bodyLimit: 64 * 1024 });
    installErrorHandling(app);
    installControlPortGuard(app, () => this.ports.get(compId)?.port);
    installAccessControl(app, this.auth);
    registerControlApi(app, '', () => this.require(compId), { config: { access: 'trade' } });
    try {
      await app.listen({ port: wanted, host: LOCALHOST });
    } catch (err) {
      await app.close().catch(() => {});
      const code = (err as { code?: string }).code;
      client.port.portProblem =
        code === 'EADDRINUSE' ? `Port ${wanted} is in use` : `Port ${wanted} could not be opened: ${(err as Error).message}`;
      this.log.warn(
        { compId, port: wanted, err: (err as Error).message },
        'test client control port not opened; the proxy path still works',
      );
      return;
    }
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : wanted;
    this.ports.set(compId, { app, port });
    client.port.listeningPort = port;
    client.port.portProblem = null;
  }

  private async closePort(compId: string): Promise<void> {
    const open = this.ports.get(compId);
    if (!open) return;
    this.ports.delete(compId);
    await open.app.close().catch((err) => this.log.warn({ err, compId }, 'test client control port close failed'));
  }

  /** Logs every client out (while the acceptor still records it) and closes the control ports. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.events.off('connector-changed', this.onConnectorChanged);
    await Promise.allSettled([...this.chains.values()]);
    await Promise.allSettled(this.list().map((c) => c.disconnect()));
    await Promise.allSettled([...this.ports.keys()].map((compId) => this.closePort(compId)));
    this.clients.clear();
  }
}
