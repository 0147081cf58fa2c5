import { z } from 'zod';

/**
 * The admin-screen pattern: each reference resource has one zod schema here, used by the
 * server to validate every write and by the web app to validate its form, plus one list of field
 * descriptors keyed by that schema's fields. The descriptors say how each field is edited (kind,
 * label, options, default) and whether it is a column of the resource's table; the compiler insists
 * every field of the schema has a descriptor, so a field added to the schema cannot be forgotten by
 * the form.
 */

export type AdminFieldKind = 'text' | 'textarea' | 'select' | 'multiselect' | 'integer' | 'decimal' | 'boolean' | 'password';

export interface AdminOption {
  value: string;
  label: string;
}

export interface AdminField<K extends string = string> {
  name: K;
  label: string;
  kind: AdminFieldKind;
  /** Marked required in the form (the schema decides what is valid). */
  required?: boolean;
  /** A select's choices; a multiselect's come from its screen (other records). */
  options?: readonly AdminOption[];
  /** The value a new record's form starts with. */
  defaultValue?: string | boolean;
  placeholder?: string;
  /** One line under the input. */
  description?: string;
  maxLength?: number;
  /** The form's grid: 1 (half a row) or 2 (whole row). */
  span?: 1 | 2;
  /** The tab of a form drawn in tabs (its screen names the tabs). */
  tab?: string;
  /** Read-only once the record exists (this reason shown under it); not sent on an edit. */
  lockedOnEdit?: string;
  /** The browser's input for a text field: an e-mail, a web address, a time of day, a number with a spinner. */
  input?: 'email' | 'url' | 'time' | 'number';
  /** What an emptied text field sends: nothing (the record keeps its value, or gets the server's default) or null. */
  whenEmpty?: 'omit' | 'null';
}

/** Descriptors for every field of a schema's input, in form order (`boolean` is drawn as a switch). */
export type AdminFields<T> = { readonly [K in keyof T & string]-?: AdminField<K> };

/** A string field: trimmed, at most `max` characters, no control characters. */
export function adminText(max: number) {
  return z
    .string({ error: (i) => (i.input === undefined || i.input === null ? 'is required' : 'must be text') })
    .trim()
    .max(max, `has at most ${max} characters`)
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), 'must not contain control characters');
}

/** Optional text: '' or null means none (stored as null). */
export function adminOptionalText(max: number) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), adminText(max).nullable().optional());
}

/** A whole number given as a JSON number or as digits; '' or null means none when optional. */
export function adminInteger(min: number, max: number, what = 'a whole number') {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: (i) => (i.input === undefined || i.input === null ? 'is required' : `must be ${what}`) })
      .int(`must be ${what}`)
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );
}

export function adminOptionalInteger(min: number, max: number, what?: string) {
  return z.preprocess(
    (v) => (v === '' || (typeof v === 'string' && v.trim() === '') ? null : v),
    adminInteger(min, max, what).nullable().optional(),
  );
}

const DECIMAL = /^\d{1,12}(\.\d{1,10})?$/;

/**
 * An exact positive decimal, kept as text (prices, tick sizes and sizes never become floats). A JSON
 * number is accepted and written out as it was given.
 */
export function adminPositiveDecimal(what = 'a number greater than 0') {
  return z.preprocess(
    (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: (i) => (i.input === undefined || i.input === null ? 'is required' : `must be ${what}`) })
      .min(1, 'is required')
      .regex(DECIMAL, `must be ${what}`)
      .refine((s) => /[1-9]/.test(s), `must be ${what}`)
      .transform((s) => normalizeDecimalText(s)),
  );
}

export function adminOptionalPositiveDecimal(what?: string) {
  return z.preprocess(
    (v) => (v === '' || (typeof v === 'string' && v.trim() === '') ? null : v),
    adminPositiveDecimal(what).nullable().optional(),
  );
}

/** '007.50' → '7.5': one spelling per value, so the table and the database agree. */
export function normalizeDecimalText(s: string): string {
  let [whole, frac = ''] = s.split('.') as [string, string?];
  whole = whole.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** What the form shows under a field for one schema issue: "Symbol is required". */
export function fieldMessage(label: string, message: string): string {
  return /^[a-z]/.test(message) ? `${label} ${message}` : message;
}

/** Issues of a failed parse by top-level field (the first message for each). */
export function issuesByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : String(issue.path[0] ?? '');
    if (!(key in out)) out[key] = issue.code === 'unrecognized_keys' ? 'is not a field of this form' : issue.message;
  }
  return out;
}

/** The parsed fields that were present in the raw body (a PUT changes only what it names). */
export function onlyGiven<T extends object>(parsed: T, raw: unknown): Partial<T> {
  const given = raw !== null && typeof raw === 'object' ? new Set(Object.keys(raw)) : new Set<string>();
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => given.has(k))) as Partial<T>;
}
