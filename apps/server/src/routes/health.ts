import { pingDatabase } from '@fixdesk/db';
import type { FastifyInstance } from 'fastify';
import type { HealthResponse, ServiceStatusResponse } from '@fixdesk/protocol';
import type { AppContext } from '../context';
import { apiError } from '../http/errors';

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/health', { config: { access: 'public' } }, async (_req, reply) => {
    try {
      await pingDatabase(ctx.db);
    } catch (err) {
      ctx.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send(apiError(503, 'Database unavailable'));
    }
    const body: HealthResponse = {
      status: 'ok',
      database: ctx.db.kind,
      version: ctx.version,
      uptimeSeconds: Math.round(process.uptime()),
    };
    return body;
  });

  // Liveness of the HTTP API alone (no database round trip): the service monitor's API probe, a load balancer's check.
  app.get('/api/health/live', { config: { access: 'public' } }, async () => ({ status: 'ok' as const }));

  // Any signed-in user (spec 001: the service status screen is for everyone signed in).
  app.get('/api/service-status', { config: { access: 'read' } }, async () => {
    const body: ServiceStatusResponse = { data: await ctx.services.list() };
    return body;
  });
}
