import { ApiError, serverMessage } from '@fixdesk/client';
import { fieldMessage } from '@fixdesk/protocol';

/**
 * Spec 001 §8: an error banner shows the server's message or error field, falling back to the screen's
 * generic text; a failure without an answer (network, or a fault in the page) gets "{prefix}: {message}".
 */
export function adminErrorText(err: unknown, fallback: string, whenNoAnswer: (message: string) => string): string {
  if (err instanceof ApiError) return serverMessage(err.body) ?? fallback;
  return whenNoAnswer(err instanceof Error ? err.message : String(err));
}

/**
 * A refusal's problems under the fields they are about (errors under the field): every issue
 * the server listed for a field of this form, worded with the form's own label ("Trader ID is required
 * for broker users" under Trader ID, "Password must have at least 12 characters" under Password), the
 * answer's one field when it listed none. Null when the refusal names no field of the form.
 */
export function serverFieldErrors(
  err: unknown,
  fields: readonly { name: string; label: string }[],
  text: string,
): Record<string, string> | null {
  if (!(err instanceof ApiError)) return null;
  const labels = new Map(fields.map((f) => [f.name, f.label]));
  const out: Record<string, string> = {};
  const body = err.body as { issues?: unknown } | null;
  if (body && Array.isArray(body.issues)) {
    for (const issue of body.issues as { path?: unknown; message?: unknown }[]) {
      const path = typeof issue.path === 'string' ? issue.path.split('.')[0]! : '';
      const label = labels.get(path);
      if (label && typeof issue.message === 'string' && !(path in out)) out[path] = fieldMessage(label, issue.message);
    }
  }
  const field = err.field;
  if (Object.keys(out).length === 0 && field && labels.has(field)) out[field] = text;
  return Object.keys(out).length ? out : null;
}
