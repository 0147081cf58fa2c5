import type { Refused } from './order-state';

/**
 * Why the order core refused a request, whoever made it (a broker over HTTP, a FIX client, the
 * day-expiry job). The HTTP layer maps the kind to a status code in one place (apps/server
 * http/errors.ts); nothing below it knows about HTTP.
 */
export type DomainErrorKind =
  /** The order (or other thing named) does not exist. */
  | 'not_found'
  /** The request itself is wrong (a quantity, a price, a missing reason): fixing it would help. */
  | 'invalid'
  /** The request is fine but the order's state does not allow it now. */
  | 'conflict';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The request field at fault, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFoundError = (message: string) => new DomainError('not_found', message);
export const invalidError = (message: string, field?: string) => new DomainError('invalid', message, field);
export const conflictError = (message: string) => new DomainError('conflict', message);

/** A refusal of the order state table as an error: a bad quantity, price or reason is invalid, the rest a conflict. */
export function refusalError(r: Refused): DomainError {
  const invalid = r.code === 'INVALID_QUANTITY' || r.code === 'INVALID_PRICE' || r.code === 'REASON_REQUIRED';
  return new DomainError(invalid ? 'invalid' : 'conflict', r.reason);
}
