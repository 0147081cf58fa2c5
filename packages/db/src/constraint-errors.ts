// What a refused write means, the one place that reads PostgreSQL's error codes (the same on the
// embedded database): every query of this package raises a ConstraintViolation in place of the
// driver's error when a constraint refuses the write (db.ts), and routes answer it with their own words
// (a 409 naming the field), telling one constraint from another by its name.

/** Which kind of constraint refused a write. */
export type ConstraintKind = 'unique' | 'foreign-key' | 'check';

const KIND_OF_CODE: Readonly<Record<string, ConstraintKind>> = { '23505': 'unique', '23503': 'foreign-key', '23514': 'check' };

/** A write refused by a constraint: its kind and the constraint's name ('' when the database did not say). */
export class ConstraintViolation extends Error {
  /** PostgreSQL's SQLSTATE, as the driver's error had it. */
  readonly code: string;
  constructor(
    readonly kind: ConstraintKind,
    readonly constraint: string,
    message: string,
    code: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A unique constraint refused the write (a duplicate key). */
export class UniqueViolation extends ConstraintViolation {}
/** A foreign key refused the write (it names no row). */
export class ForeignKeyViolation extends ConstraintViolation {}
/** A check constraint refused the write (a value out of range). */
export class CheckViolation extends ConstraintViolation {}

const CLASS_OF_KIND = { unique: UniqueViolation, 'foreign-key': ForeignKeyViolation, check: CheckViolation } as const;

/**
 * The error a query raises: the driver's error as a ConstraintViolation when it is one (its message
 * kept, the driver's error as its cause), any other error as it is. The name comes from the error
 * or, failing that, its message.
 */
export function asConstraintViolation(err: unknown): unknown {
  if (err instanceof ConstraintViolation) return err;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  const kind = typeof e?.code === 'string' ? KIND_OF_CODE[e.code] : undefined;
  if (!kind) return err;
  const message = String(e!.message ?? '');
  const named = typeof e!.constraint === 'string' ? e!.constraint : /constraint "([^"]+)"/.exec(message)?.[1];
  return new CLASS_OF_KIND[kind](kind, named ?? '', message, e!.code as string, { cause: err });
}
