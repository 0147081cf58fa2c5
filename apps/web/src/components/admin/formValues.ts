import { fieldMessage, issuesByField, type AdminField } from '@fixdesk/protocol';
import type { z } from 'zod';

/**
 * The admin form's values (pure; unit-tested): what the inputs hold (text, or a flag for a switch),
 * how a record fills them, what is sent, and the schema's verdict per field in the form's words.
 */
export type FormValue = string | boolean | readonly string[];
export type FormValues = Record<string, FormValue>;

/** A new record's values (each field's default) or an existing record's (null shows as empty). */
export function initialValues<T extends object>(fields: readonly AdminField[], record?: T | null): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const v: unknown = record ? Reflect.get(record, f.name) : f.defaultValue;
    if (f.kind === 'boolean') out[f.name] = typeof v === 'boolean' ? v : Boolean(f.defaultValue);
    else if (f.kind === 'multiselect') out[f.name] = Array.isArray(v) ? v.map(String) : [];
    else out[f.name] = v === undefined || v === null ? '' : String(v);
  }
  return out;
}

/**
 * What is sent: text trimmed, flags as they are; empty text is left to the schema (none, or its default),
 * or left out or sent as null where the field says so (`whenEmpty`).
 */
export function toPayload(fields: readonly AdminField[], values: FormValues, omit: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (omit.includes(f.name)) continue;
    const v = values[f.name];
    if (Array.isArray(v)) out[f.name] = [...(v as readonly string[])];
    else if (typeof v !== 'string') out[f.name] = v;
    else if (v.trim() !== '' || !f.whenEmpty) out[f.name] = v.trim();
    else if (f.whenEmpty === 'null') out[f.name] = null;
  }
  return out;
}

/** The schema's verdict: null when valid, otherwise one message per field ("Symbol is required"). */
export function validate(
  schema: z.ZodType,
  fields: readonly AdminField[],
  payload: Record<string, unknown>,
): Record<string, string> | null {
  const r = schema.safeParse(payload);
  if (r.success) return null;
  const labels = new Map(fields.map((f) => [f.name, f.label]));
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(issuesByField(r.error))) out[name] = fieldMessage(labels.get(name) ?? name, message);
  return out;
}
