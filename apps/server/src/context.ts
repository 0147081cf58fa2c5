import type { Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthService } from './auth/auth-service';
import type { Config } from './config';
import type { ServerEventBus } from './events';
import type { FixGateway } from './fix/gateway';
import type { SessionConsole } from './fix/session-console';
import type { ClientKillSwitch } from './orders/kill-switch';
import type { OrderService } from './orders/order-service';
import type { TestClientService } from './test-client/service';
import type { ClientOutbox } from './orders/outbox';
import type { WsHub } from './ws/hub';
import type { LogoFetchOptions } from './reference/remote-logo';
import type { ServiceMonitor } from './status/service-monitor';
import type { ServerMetrics } from './status/metrics';

/** What the routes share: built once in the composition root (main.ts) and passed down. */
export interface AppContext {
  config: Config;
  db: Db;
  auth: AuthService;
  hub: WsHub;
  events: ServerEventBus;
  orders: OrderService;
  killSwitch: ClientKillSwitch;
  outbox: ClientOutbox;
  fix: FixGateway;
  /** The live session console's reads and actions, on whichever node holds the session. */
  sessionConsole: SessionConsole;
  testClients: TestClientService;
  services: ServiceMonitor;
  metrics: ServerMetrics;
  log: FastifyBaseLogger;
  version: string;
  /** How connector logos are fetched (tests trust their local https server here; empty in production). */
  logoFetch: LogoFetchOptions;
}
