import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '@fixdesk/domain';
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

const WORDS: Record<string, string> = {
  id: 'ID',
  ids: 'IDs',
  lei: 'LEI',
  mic: 'MIC',
  fix: 'FIX',
  msg: 'message',
  qty: 'quantity',
  tls: 'TLS',
  ip: 'IP',
  ips: 'IPs',
  tz: 'time zone',
};

/**
 * A field's name as a person reads it ('new_password' → 'New password', 'comp_id' → 'Comp ID',
 * 'targetCompId' → 'Target comp ID'): answers name fields in words, never as the API spells them.
 */
function fieldWords(field: string): string {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_.\s]+/)
    .filter(Boolean)
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One refusal of a field's value, worded for people: 'Password must have at least 12 characters'. */
function fieldProblem(field: string, reason: string): string {
  return /^[a-z]/.test(reason) ? `${fieldWords(field)} ${reason}` : reason;
}

/** A 400 naming the field, its message in words (the field's name is in `field` for the forms). */
export const invalidField = (field: string, reason: string) =>
  new HttpError(400, fieldProblem(field, reason), field, [{ path: field, message: reason }]);
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
    throw new HttpError(400, fieldProblem(field, 'must not contain a NUL character'), field, [
      { path: nul, message: 'must not contain a NUL character' },
    ]);
  }
  const r = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: issuePath(i), message: issueMessage(i) }));
  const first = issues[0]!;
  const field = first.path || where;
  const unknownKeys = r.error.issues[0]?.code === 'unrecognized_keys';
  const message = unknownKeys
    ? `Not a field here: ${first.path} (unknown field)`
    : first.path
      ? fieldProblem(first.path, first.message)
      : `The request's ${where} ${first.message}`;
  throw new HttpError(400, message, field, issues);
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
  // zod's stock size limits ('Too big: expected string to have <=64 characters') in words; a schema's own message wins.
  if ((i.code === 'too_big' && i.message.startsWith('Too big')) || (i.code === 'too_small' && i.message.startsWith('Too small'))) {
    const big = i.code === 'too_big';
    const n = String(big ? i.maximum : i.minimum);
    const bound = big ? 'at most' : 'at least';
    if (i.origin === 'string') return `must have ${bound} ${n} characters`;
    if (i.origin === 'array' || i.origin === 'set') return `must have ${bound} ${n} entries`;
    return `must be ${bound} ${n}`;
  }
  return i.message;
}

/** The HTTP status of each kind of domain error: the one place the order core's refusals meet HTTP. */
const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, number> = { not_found: 404, invalid: 400, conflict: 409 };

/** One error shape for every API answer; a 500 never reveals internals. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError | DomainError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof DomainError) {
      const status = DOMAIN_ERROR_STATUS[err.kind];
      return reply.status(status).send(apiError(status, err.message, err.field ? { field: err.field } : {}));
    }
    if (err instanceof HttpError) {
      const extra: Partial<ApiError> = {};
      if (err.field) extra.field = err.field;
      if (err.issues) extra.issues = err.issues;
      return reply.status(err.statusCode).send(apiError(err.statusCode, err.message, extra));
    }
    const status = (err as FastifyError).statusCode;
    const code = (err as FastifyError).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send(apiError(413, 'Request body is too large'));
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.status(415).send(apiError(415, 'Unsupported content type: send application/json'));
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
      return reply.status(400).send(apiError(400, 'The request was empty: it needs a JSON body', { field: 'body' }));
    if (err instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.status(400).send(apiError(400, `The request's JSON could not be read (${err.message})`, { field: 'body' }));
    }
    if (status && status >= 400 && status < 500) return reply.status(status).send(apiError(status, err.message));
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(apiError(500, 'Internal server error'));
  });
}
