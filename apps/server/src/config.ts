import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const EnvSchema = z.object({
  PORT: port(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  FIX_PORT: port(9876),
  /** A TLS port for client FIX sessions beside FIX_PORT; unset: no TLS listener. */
  FIX_TLS_PORT: z.union([z.literal('').transform(() => undefined), z.coerce.number().int().min(0).max(65535)]).optional(),
  /** Host names and addresses the acceptor's server certificate names (comma-separated). */
  FIX_TLS_NAMES: z.string().trim().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  DEMO_PASSWORD: z.string().min(1).optional(),
  // GET /metrics: a scraper's bearer token (at least 16 characters); an administrator's sign-in works too.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the built web app lives; defaults to apps/web/dist next to this server. */
  WEB_DIST: z.string().optional(),
  /**
   * This node's name in the leases (docs/adr/0012): unique per running node, the same across its
   * restarts (a restarted node reclaims its own leases at once). Default: host name and FIX port.
   */
  NODE_ID: z.string().trim().min(1).max(100).optional(),
  /** How long a node's leases (FIX sessions, desk-wide jobs) last without renewal: a dead node's sessions move after this. */
  LEASE_TTL_MS: z.coerce.number().int().min(300).max(600_000).default(3_000),
  INSIGHTS_ROLLUP_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  /**
   * Whether a node that joins or returns takes over the client sessions whose home it is (docs/adr/0012,
   * "Rebalancing"). Off for a desk whose clients each know one node's address only (a handed-over
   * client could not reach its new node) or that places sessions by its load balancer.
   */
  REBALANCE_SESSIONS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * Which proxies in front of the server to believe about the client's address (X-Forwarded-For):
   * unset or false none; true every one; a number that many hops; or addresses and CIDR ranges
   * separated by commas. The sign-in throttle counts failures per client address.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx): boolean | number | string[] => {
      if (v === undefined || v === '' || v === 'false') return false;
      if (v === 'true') return true;
      if (/^\d{1,2}$/.test(v)) return Number(v);
      const list = v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      if (list.every((p) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p))) return list;
      ctx.addIssue({ code: 'custom', message: 'must be true, false, a number of hops, or addresses and CIDR ranges separated by commas' });
      return z.NEVER;
    }),
});

export interface Config {
  port: number;
  host: string;
  fixPort: number;
  /** The TLS acceptor's port; undefined when none is configured (0 picks a free one). */
  fixTlsPort: number | undefined;
  /** The names the acceptor's server certificate carries (what clients connect to). */
  fixTlsNames: string[];
  dataDir: string;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  demoPassword: string | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  webDist: string | undefined;
  nodeId: string;
  /** How long a lease lasts without renewal (renewed every third of it). */
  leaseTtlMs: number;
  /** How often the Desk Insights roll-up runs (INSIGHTS_ROLLUP_MS; 0: never, every chart read raw beyond what is folded). */
  insightsRollupMs: number;
  /** Sessions move to a node that joins or returns (REBALANCE_SESSIONS). */
  rebalanceSessions: boolean;
  trustProxy: boolean | number | string[];
  /** The bearer token a metrics scraper presents on GET /metrics (unset: only an administrator's sign-in). */
  metricsToken: string | undefined;
}

/** Reads the configuration from the environment; a bad value stops the start with the variable's name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    fixPort: e.FIX_PORT,
    fixTlsPort: e.FIX_TLS_PORT,
    fixTlsNames: tlsNames(e.FIX_TLS_NAMES, e.HOST),
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminPassword: e.ADMIN_PASSWORD,
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    nodeId: e.NODE_ID ?? `${hostname()}:${e.FIX_PORT}`,
    leaseTtlMs: e.LEASE_TTL_MS,
    insightsRollupMs: e.INSIGHTS_ROLLUP_MS,
    rebalanceSessions: e.REBALANCE_SESSIONS,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
  };
}

/** FIX_TLS_NAMES, or localhost, 127.0.0.1 and HOST (when it names one address). */
function tlsNames(configured: string | undefined, host: string): string[] {
  const names = configured
    ? configured
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
    : ['localhost', '127.0.0.1'];
  if (!configured && host !== '0.0.0.0' && host !== '::' && !names.includes(host)) names.push(host);
  return names;
}
