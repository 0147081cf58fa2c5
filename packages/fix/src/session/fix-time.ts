/** FIX UTCTimestamp text <-> epoch milliseconds, for SendingTime (52) and OrigSendingTime (122). */

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** "YYYYMMDD-HH:MM:SS.sss" */
export function formatUtcTimestamp(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`
  );
}

const UTC_TIMESTAMP = /^(\d{4})(\d{2})(\d{2})-(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;

/** Parses "YYYYMMDD-HH:MM:SS[.fraction]"; undefined when malformed or out of range. */
export function parseUtcTimestamp(text: string): number | undefined {
  const m = UTC_TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const t = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms);
  if (new Date(t).getUTCDate() !== d) return undefined;
  return t;
}
