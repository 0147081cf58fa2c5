/**
 * Times on the audit screens: stored in UTC, shown in the user's time zone with the zone named
 * ('2026-03-15 10:30:01.123 GMT+1'), the CSV keeps ISO 8601 UTC.
 */

/** The browser's IANA zone (Europe/London), UTC when it names none. */
export function userTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** 'YYYY-MM-DD HH:MM:SS.mmm ZONE' in the given zone; '' for nothing, the text itself when unreadable. */
export function formatLocalTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(d)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}.${parts.fractionalSecond} ${parts.timeZoneName}`;
}

/** To the second, for times whose milliseconds mean nothing (a session's start, a certificate's expiry). */
export function formatLocalSeconds(iso: string | null | undefined, timeZone: string): string {
  return formatLocalTime(iso, timeZone).replace(/(\d{2}:\d{2}:\d{2})\.\d{3} /, '$1 ');
}

/** The zone as named on screen: 'Europe/London (GMT)'; 'UTC' alone for UTC. */
export function timeZoneLabel(timeZone: string, at = new Date()): string {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 'UTC';
  const short = formatter(timeZone)
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return short ? `${timeZone} (${short})` : timeZone;
}

/**
 * As formatLocalTime, to the microsecond when the ISO text carries one ('…:01.123456Z' →
 * '… 10:30:01.123456 GMT+1'): a Date holds milliseconds, the digits beyond come from the text.
 */
export function formatLocalTimeMicros(iso: string | null | undefined, timeZone: string): string {
  const shown = formatLocalTime(iso, timeZone);
  const micros = iso ? /\.\d{3}(\d{3})/.exec(iso)?.[1] : undefined;
  if (!micros || !shown || shown === iso) return shown;
  return shown.replace(/(\d{2}:\d{2}:\d{2}\.\d{3})/, `$1${micros}`);
}
