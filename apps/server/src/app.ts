import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppContext } from './context';
import { installAccessControl, type RouteAccess } from './http/access';
import { apiError, installErrorHandling } from './http/errors';
import { authRoutes } from './routes/auth';
import { healthRoutes } from './routes/health';
import { userRoutes } from './routes/users';
import { accountRoutes } from './routes/account';
import { brokerInformationRoutes } from './routes/broker-information';
import { referenceRoutes } from './routes/reference';
import { clientCapabilityRoutes } from './routes/client-capabilities';
import { clientConnectorRoutes } from './routes/client-connectors';
import { connectorCertificateRoutes } from './routes/connector-certificates';
import { fixSpecificationRoutes } from './routes/fix-specification';
import { clientKillSwitchRoutes } from './routes/client-kill-switch';
import { sessionConsoleRoutes } from './routes/session-console';
import { clientSessionRoutes } from './routes/client-sessions';
import { fixClientDefaultsRoutes } from './routes/fix-client-defaults';
import { orderRoutes } from './routes/orders';
import { auditRoutes } from './routes/audit';
import { fixMessageParsedRoutes } from './routes/fix-message-parsed';
import { testClientRoutes } from './routes/test-client';
import { securityMasterRoutes } from './routes/security-master';
import { fixMessageSpecRoutes } from './routes/fix-message-specs';
import { componentBlockRoutes } from './routes/component-blocks';
import { metricsRoutes } from './routes/metrics';
import { insightsRoutes } from './routes/insights';

/** Bodies above this are refused with 413; the largest legitimate body (a connector with certificates) is far smaller. */
const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * What the browser may load: our own scripts only, no inline script; styles inline too,
 * as the grid and the component library set style attributes; images from our own origin and data:
 * URLs only (a client's logo is fetched by the server and served from here, so no browser
 * fetches an address an administrator typed); never framed.
 */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

function defaultWebDist(): string {
  // src/app.ts in development, dist/main.js when bundled: both sit two levels below apps/.
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, '..', '..', 'web', 'dist');
}

export async function buildApp(
  ctx: Omit<AppContext, 'log'>,
  logger: Logger,
): Promise<{ app: FastifyInstance; ctx: AppContext; routes: readonly RouteAccess[] }> {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    // A number of hops: the nearest that many proxies are believed.
    trustProxy:
      typeof ctx.config.trustProxy === 'number'
        ? (_addr: string, hop: number) => hop < (ctx.config.trustProxy as number)
        : ctx.config.trustProxy,
    // Path parameters longer than this are refused before routing.
    routerOptions: { maxParamLength: 200 },
  });
  const full: AppContext = { ...ctx, log: app.log };

  installErrorHandling(app);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { directives: CONTENT_SECURITY_POLICY },
    referrerPolicy: { policy: 'same-origin' },
  });
  // Answers of the API are never kept by a browser or a proxy cache.
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  await app.register(fastifyCookie);
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  const routes = installAccessControl(app, ctx.auth);

  app.get('/ws', { websocket: true }, (socket) => full.hub.accept(socket));
  metricsRoutes(app, full);
  healthRoutes(app, full);
  authRoutes(app, full);
  userRoutes(app, full);
  accountRoutes(app, full);
  brokerInformationRoutes(app, full);
  referenceRoutes(app, full);
  clientConnectorRoutes(app, full);
  connectorCertificateRoutes(app, full);
  sessionConsoleRoutes(app, full);
  clientKillSwitchRoutes(app, full);
  clientCapabilityRoutes(app, full);
  clientSessionRoutes(app, full);
  fixClientDefaultsRoutes(app, full);
  orderRoutes(app, full);
  auditRoutes(app, full);
  fixMessageParsedRoutes(app, full);
  testClientRoutes(app, full);
  securityMasterRoutes(app, full);
  fixMessageSpecRoutes(app, full);
  componentBlockRoutes(app, full);
  fixSpecificationRoutes(app, full);
  insightsRoutes(app, full);

  const webDist = ctx.config.webDist ?? defaultWebDist();
  const indexHtml = join(webDist, 'index.html');
  const hasWeb = existsSync(indexHtml);
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, maxAge: '1h', immutable: false });
  } else {
    app.log.warn({ webDist }, 'web app not built: run npm run build');
  }

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    if (path.startsWith('/api/') || path === '/api' || path === '/ws') {
      return reply.status(404).send(apiError(404, `No such API route: ${req.method} ${path}`));
    }
    // Client routes of the single-page app (history fallback): anything that is not a file.
    if ((req.method === 'GET' || req.method === 'HEAD') && hasWeb && !/\.[a-z0-9]+$/i.test(path)) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(readFileSync(indexHtml));
    }
    return reply.status(404).type('text/plain').send('Not found');
  });

  return { app, ctx: full, routes };
}
