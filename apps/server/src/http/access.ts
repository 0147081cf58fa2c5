import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AUTH_COOKIE,
  AUTH_REQUIRED_MESSAGE,
  COOKIE_CHANGE_NEEDS_JSON_MESSAGE,
  FORBIDDEN_MESSAGE,
  type Role,
  type SessionUser,
} from '@fixdesk/protocol';
import type { AuthService } from '../auth/auth-service';
import { apiError } from './errors';

/**
 * Who may call a route. Every /api route declares one in its config; a route without one is
 * refused at start (see assertAccessDeclared), so nothing is public by accident.
 *  - public: anyone
 *  - read:   any signed-in user (viewer and up)
 *  - trade:  trading actions (broker, admin)
 *  - admin:  configuration writes and user administration
 */
export type Access = 'public' | 'read' | 'trade' | 'admin';

const ALLOWED: Record<Exclude<Access, 'public'>, readonly Role[]> = {
  read: ['admin', 'broker', 'viewer', 'user'],
  trade: ['admin', 'broker'],
  admin: ['admin'],
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    authToken: string | null;
  }
}

/** The sign-in token a request carries and where: `Authorization: Bearer …` or, failing that, the HttpOnly session cookie. */
function tokenSource(req: FastifyRequest): { token: string; from: 'bearer' | 'cookie' } | null {
  const h = req.headers.authorization;
  if (h) {
    const m = /^Bearer\s+(\S+)$/i.exec(h);
    if (m) return { token: m[1]!, from: 'bearer' };
  }
  const cookie = req.cookies?.[AUTH_COOKIE];
  return cookie ? { token: cookie, from: 'cookie' } : null;
}

/** The token from `Authorization: Bearer …` or, failing that, the HttpOnly session cookie. */
export function tokenFrom(req: FastifyRequest): string | null {
  return tokenSource(req)?.token ?? null;
}

/** Methods that change nothing: the only ones the cookie alone may carry in any form. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const isJson = (contentType: string | undefined) => /^\s*application\/json\s*(;|$)/i.test(contentType ?? '');

/**
 * Whether a request is refused as a possible cross-site request forgery: a change (any method
 * but GET, HEAD and OPTIONS) signed in by the session cookie alone and not sent as JSON. A form or a
 * plain `text/plain` request another page makes carries the cookie wherever SameSite lets it through (a
 * sibling site, an older browser); a JSON request from another origin needs a CORS preflight, which the
 * desk never grants, and a Bearer token is never sent by a browser on its own. The web client sends
 * every change as JSON (`{}` when it has nothing to say).
 */
export function forgeableChange(req: FastifyRequest): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  return tokenSource(req)?.from === 'cookie' && !isJson(req.headers['content-type']);
}

/** One route that declares who may call it (every /api route must; the test client's proxy does too). */
export interface RouteAccess {
  readonly method: string;
  readonly url: string;
  readonly access: Access;
}

/**
 * Installs the session and role check, and returns the table of every route with its declared
 * access, filled as routes are registered (the authorization matrix test walks it, so a new route is
 * covered the moment it exists).
 */
export function installAccessControl(app: FastifyInstance, auth: AuthService): readonly RouteAccess[] {
  const routes: RouteAccess[] = [];
  app.decorateRequest('user', null);
  app.decorateRequest('authToken', null);

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) {
      if (route.url.startsWith('/api/')) throw new Error(`route ${route.method} ${route.url} declares no access level`);
      return; // the web app's files, the WebSocket upgrade
    }
    // The HEAD route fastify adds for each GET is the GET's twin.
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, access });
  });

  // Before the body is read: a change that may be forged is refused whatever it carries (one place for
  // every route with an access level, the API's, the test client's proxy path and its control ports).
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.routeOptions.config?.access) return;
    if (forgeableChange(req)) return reply.status(403).send(apiError(403, COOKIE_CHANGE_NEEDS_JSON_MESSAGE, { field: 'content-type' }));
  });

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    const access = req.routeOptions.config?.access;
    if (!access) return; // static files and the not-found handler
    const token = tokenFrom(req);
    if (token) {
      const s = await auth.authenticate(token);
      if (s) {
        req.user = s.user;
        req.authToken = token;
      }
    }
    if (access === 'public') return;
    if (!req.user) return reply.status(401).send(apiError(401, AUTH_REQUIRED_MESSAGE));
    if (!ALLOWED[access].includes(req.user.role)) return reply.status(403).send(apiError(403, FORBIDDEN_MESSAGE));
  });
  return routes;
}
