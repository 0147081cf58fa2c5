import { TEST_CLIENT_PROXY_PREFIX } from '@fixdesk/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { notFound, parse } from '../http/errors';
import { registerControlApi } from '../test-client/control-api';

const Params = z.object({ compId: z.string().min(1).max(64) });

/**
 * The test-client service's control API through the main server: /test-client/{comp_id}/status,
 * /health, /connect, /disconnect, /send-order, /cancel-order, /replace-order, /orders. Unlike the
 * localhost ports it needs a signed-in broker or admin: it sends orders in a client's name.
 */
export function testClientRoutes(app: FastifyInstance, ctx: AppContext): void {
  const resolve = (req: FastifyRequest) => ctx.testClients.require(parse(Params, req.params, 'params').compId);
  registerControlApi(app, `${TEST_CLIENT_PROXY_PREFIX}/:compId`, resolve, { config: { access: 'trade' } });
  // Anything else under the proxy path is an API miss, not a page of the web app.
  app.all(`${TEST_CLIENT_PROXY_PREFIX}/*`, { config: { access: 'trade' } }, async (req) => {
    throw notFound(`No such test client endpoint: ${req.method} ${req.url.split('?')[0]}`);
  });
}
