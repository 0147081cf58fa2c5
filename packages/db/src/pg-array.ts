/**
 * A PostgreSQL array literal (`{…}`) of scalar values, for a parameter cast to an array type
 * (`$1::text[]`). The driver builds the same text itself, but with two regular expressions per element
 * and its general value conversion (a Date through local-time formatting); on the intake path, whose
 * statements carry a few dozen arrays per batch, that was a tenth of the server's CPU. Strings are
 * always quoted (an unquoted NULL or empty string would mean something else) and escaped only when they
 * hold a quote or a backslash; dates are written in UTC; numbers must be finite.
 */
export type PgArrayElement = string | number | boolean | Date | null | undefined;

export function pgArray(values: readonly PgArrayElement[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'string') out += quote(v);
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new RangeError(`array element ${i} is not a finite number: ${v}`);
      out += String(v);
    } else if (typeof v === 'boolean') out += v ? 't' : 'f';
    else out += `"${v.toISOString()}"`;
  }
  return `${out}}`;
}

function quote(s: string): string {
  if (s.indexOf('"') < 0 && s.indexOf('\\') < 0) return `"${s}"`;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
