import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '@fixdesk/protocol';
import type { z } from 'zod';

/** An error with an HTTP status and a message meant for the user. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new HttpError(400, message, field);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

export function apiError(statusCode: number, message: string, extra: Partial<ApiError> = {}): ApiError {
  return { success: false, message, error: message, ...extra };
}

type Where = 'body' | 'query' | 'params';

/**
 * Validates one part of a request; a failure becomes a 400 naming the field and the reason. A text
 * holding a NUL character, which no database text column can store, is refused here for every route.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where: Where): z.infer<S> {
  const nul = nulPath(value, '');
  if (nul !== undefined) {
    const field = nul || where;
    throw new HttpError(400, `Invalid ${where}: ${field}: must not contain a NUL character`, field, [{ path: nul, message: 'must not contain a NUL character' }]);
  }
  const r = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: issuePath(i), message: issueMessage(i) }));
  const first = issues[0]!;
  const field = first.path || where;
  throw new HttpError(400, `Invalid ${where}: ${field}: ${first.message}`, field, issues);
}

/** The path of the first string (or key) holding a NUL character, or undefined when there is none. */
function nulPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  for (const [key, v] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\0')) return at;
    const found = nulPath(v, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function issuePath(i: z.core.$ZodIssue): string {
  if (i.code === 'unrecognized_keys') return i.keys.join(', ');
  return i.path.map(String).join('.');
}

function issueMessage(i: z.core.$ZodIssue): string {
  if (i.code === 'unrecognized_keys') return `unknown field${i.keys.length > 1 ? 's' : ''}`;
  // zod's stock wording for a missing value is 'Invalid input: expected …'; a schema's own message wins.
  if (i.code === 'invalid_type' && i.input === undefined && i.message.startsWith('Invalid input')) return 'is required';
  return i.message;
}

/** One error shape for every API answer; a 500 never reveals internals. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof HttpError) {
      const extra: Partial<ApiError> = {};
      if (err.field) extra.field = err.field;
      if (err.issues) extra.issues = err.issues;
      return reply.status(err.statusCode).send(apiError(err.statusCode, err.message, extra));
    }
    const status = (err as FastifyError).statusCode;
    const code = (err as FastifyError).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send(apiError(413, 'Request body is too large'));
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.status(415).send(apiError(415, 'Unsupported content type: send application/json'));
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return reply.status(400).send(apiError(400, 'Invalid body: empty JSON body', { field: 'body' }));
    if (err instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.status(400).send(apiError(400, `Invalid body: malformed JSON (${err.message})`, { field: 'body' }));
    }
    if (status && status >= 400 && status < 500) return reply.status(status).send(apiError(status, err.message));
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(apiError(500, 'Internal server error'));
  });
}
