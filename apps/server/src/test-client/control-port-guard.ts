import type { FastifyInstance } from 'fastify';
import { apiError } from '../http/errors';

/**
 * What a simulated client's localhost control port refuses before its sign-in check: a
 * Host other than the address it listens on (DNS rebinding: a page of another site resolving its own
 * name to 127.0.0.1), and any request a web page of another origin makes (it carries an Origin, or
 * Sec-Fetch-Site other than none). The web app itself uses the proxy path of the main server.
 */
export function installControlPortGuard(app: FastifyInstance, listeningPort: () => number | undefined): void {
  app.addHook('onRequest', async (req, reply) => {
    const port = listeningPort();
    const host = (req.headers.host ?? '').toLowerCase();
    const allowed = port !== undefined && [`127.0.0.1:${port}`, `localhost:${port}`].includes(host);
    if (!allowed) return reply.status(403).send(apiError(403, `Host ${host || '(none)'} is not this control port's address`));
    const site = req.headers['sec-fetch-site'];
    if (req.headers.origin !== undefined || (site !== undefined && site !== 'none')) {
      return reply
        .status(403)
        .send(apiError(403, 'Requests from web pages are refused here; use the proxy path /test-client/{comp_id}/… of the main server'));
    }
  });
}
