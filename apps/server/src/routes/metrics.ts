import { safeEqual } from '@fixdesk/fix';
import { AUTH_REQUIRED_MESSAGE, FORBIDDEN_MESSAGE } from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { tokenFrom } from '../http/access';
import { apiError } from '../http/errors';

/**
 * GET /metrics: the Prometheus text format, for the monitoring an operator already runs. A scraper
 * presents METRICS_TOKEN as `Authorization: Bearer …`; a signed-in administrator's token (or cookie)
 * works too. Every HTTP request's duration is recorded here as well, by method, route and status.
 */
export function metricsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onResponse', async (req, reply) => {
    // The route's pattern, not the path (ids would make a series each); unmatched paths as one.
    const route = req.routeOptions.url ?? 'unmatched';
    ctx.metrics.httpRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  // Access is decided here: the scraper's token is no user's session.
  app.get('/metrics', { config: { access: 'public' } }, async (req, reply) => {
    const token = tokenFrom(req);
    const scraper = !!ctx.config.metricsToken && !!token && safeEqual(token, ctx.config.metricsToken);
    if (!scraper) {
      if (!req.user) return reply.status(401).header('www-authenticate', 'Bearer').send(apiError(401, AUTH_REQUIRED_MESSAGE));
      if (req.user.role !== 'admin') return reply.status(403).send(apiError(403, FORBIDDEN_MESSAGE));
    }
    const text = await ctx.metrics.text();
    return reply.header('content-type', ctx.metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
