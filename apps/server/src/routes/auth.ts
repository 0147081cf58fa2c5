import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  AUTH_COOKIE,
  AUTH_REQUIRED_MESSAGE,
  LoginRequestSchema,
  SESSION_TTL_MS,
  type LoginResponse,
  type MeResponse,
} from '@fixdesk/protocol';
import { INVALID_CREDENTIALS } from '../auth/auth-service';
import type { AppContext } from '../context';
import { apiError, parse } from '../http/errors';

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  const setCookie = (reply: FastifyReply, token: string, secure: boolean) =>
    reply.setCookie(AUTH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/',
      maxAge: SESSION_TTL_MS / 1000,
    });

  app.post('/api/auth/login', { config: { access: 'public' } }, async (req, reply) => {
    const body = parse(LoginRequestSchema, req.body, 'body');
    const result = await ctx.auth.login(body.username, body.password, req.ip, req.headers['user-agent'] ?? null);
    if (result.kind === 'locked') {
      // The attempt is in login_attempts as rate_limited; the log names it too, for whoever watches.
      ctx.log.warn({ username: body.username, ip: req.ip, retryAfterSeconds: result.retryAfterSeconds }, 'sign-in throttled');
      reply.header('retry-after', String(result.retryAfterSeconds));
      const message = `Too many failed sign-in attempts. Try again in ${result.retryAfterSeconds} seconds.`;
      return reply.status(429).send({ success: false, message, error: message } satisfies LoginResponse & { error: string });
    }
    if (result.kind === 'invalid') {
      return reply.status(401).send({ success: false, message: INVALID_CREDENTIALS, error: INVALID_CREDENTIALS });
    }
    ctx.log.info({ username: result.user.username, role: result.user.role, ip: req.ip }, 'signed in');
    // Secure when the browser reached us over TLS, directly or through a trusted proxy (TRUST_PROXY).
    setCookie(reply, result.token, req.protocol === 'https');
    const ok: LoginResponse = {
      success: true,
      user: result.user,
      token: result.token,
      expiresAt: result.expiresAt.toISOString(),
      message: `Welcome, ${result.user.first_name ?? result.user.username}`,
    };
    return ok;
  });

  app.post('/api/auth/logout', { config: { access: 'public' } }, async (req, reply) => {
    if (req.authToken) {
      await ctx.auth.logout(req.authToken);
      if (req.user) ctx.hub.signedOut(req.authToken, req.user.user_id);
    }
    reply.clearCookie(AUTH_COOKIE, { path: '/' });
    return { success: true };
  });

  app.get('/api/auth/me', { config: { access: 'public' } }, async (req, reply) => {
    if (!req.user || !req.authToken) return reply.status(401).send(apiError(401, AUTH_REQUIRED_MESSAGE));
    const s = await ctx.auth.authenticate(req.authToken);
    if (!s) return reply.status(401).send(apiError(401, AUTH_REQUIRED_MESSAGE));
    const me: MeResponse = { success: true, user: s.user, expiresAt: s.expiresAt.toISOString() };
    return me;
  });
}
