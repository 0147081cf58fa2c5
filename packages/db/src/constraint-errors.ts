// What a refused write means, the one place that reads PostgreSQL's error codes (the same on the
// embedded database): routes ask here and answer with their own words (a 409 naming the field).

/** A write refused by a constraint: which kind, and the constraint's name. */
export interface ConstraintViolation {
  readonly kind: 'unique' | 'foreign-key' | 'check';
  readonly constraint: string;
}

const KIND_OF_CODE: Record<string, ConstraintViolation['kind']> = { '23505': 'unique', '23503': 'foreign-key', '23514': 'check' };

/** The constraint violation an error is, if it is one. The name comes from the error or, failing that, its message. */
export function constraintViolation(err: unknown): ConstraintViolation | undefined {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  const kind = typeof e?.code === 'string' ? KIND_OF_CODE[e.code] : undefined;
  if (!kind) return undefined;
  const named = typeof e!.constraint === 'string' ? e!.constraint : /constraint "([^"]+)"/.exec(String(e!.message ?? ''))?.[1];
  return { kind, constraint: named ?? '' };
}

/** Whether an error is a unique violation (of `constraint`, when named). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const v = constraintViolation(err);
  return v?.kind === 'unique' && (constraint === undefined || v.constraint === constraint);
}
