import { partsIn } from '@fixdesk/domain';

/**
 * The Insights screen's date range: a named range (today, yesterday, the last 7 or 30 days) or custom
 * days, resolved into the instants the server is asked for, [from, to), in the zone the screen shows
 * times in (UTC or the user's, the blotter's choice). A day in Asia/Singapore runs from 16:00 UTC to
 * 16:00 UTC; a day with a daylight-saving change is 23 or 25 hours long.
 */
export type RangePreset = 'today' | 'yesterday' | '7d' | '30d' | 'custom';

export const RANGE_PRESETS: readonly { value: RangePreset; label: string }[] = [
  { value: 'today', label: 'Today' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'custom', label: 'Custom' },
];

/** The range the screen opens on. */
export const FIRST_PRESET: RangePreset = '7d';

export interface ResolvedRange {
  from: string;
  to: string;
  /** The first and last day of the range (YYYY-MM-DD, in the zone). */
  firstDay: string;
  lastDay: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function wallClock(instant: number, timeZone: string): { y: number; m: number; d: number; h: number; mi: number; s: number } {
  const p = partsIn(new Date(instant), timeZone);
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour), mi: Number(p.minute), s: Number(p.second) };
}

/** The zone's offset from UTC at an instant, in ms (Singapore +8 h). */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s) - Math.floor(instant / 1000) * 1000;
}

/** The day (YYYY-MM-DD) an instant falls on in the zone. */
export function dayIn(instant: number, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${pad(w.y, 4)}-${pad(w.m)}-${pad(w.d)}`;
}

/** The first instant of a day in the zone (midnight, or the first hour a daylight-saving day has). */
export function startOfDay(day: string, timeZone: string): number {
  const m = DAY.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  const midnight = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // The wall clock's midnight less the offset there; a second pass settles a change of offset in between.
  let guess = midnight - offsetAt(midnight, timeZone);
  guess = midnight - offsetAt(guess, timeZone);
  return guess;
}

/** The day `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
  const m = DAY.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + n));
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Whether a text is a calendar day (YYYY-MM-DD, 2026-02-31 is not). */
export function isDay(text: string): boolean {
  const m = DAY.exec(text);
  return !!m && addDays(text, 0) === text;
}

/**
 * The instants of a range in the zone: whole days, the last one included. Today and the last 7 and 30
 * days end at the end of today (the hours still to come are empty); custom days come as given.
 */
export function resolveRange(
  preset: RangePreset,
  timeZone: string,
  now: number,
  custom?: { firstDay: string; lastDay: string },
): ResolvedRange | { error: string } {
  const today = dayIn(now, timeZone);
  let firstDay: string;
  let lastDay = today;
  switch (preset) {
    case 'today':
      firstDay = today;
      break;
    case 'yesterday':
      firstDay = lastDay = addDays(today, -1);
      break;
    case '7d':
      firstDay = addDays(today, -6);
      break;
    case '30d':
      firstDay = addDays(today, -29);
      break;
    case 'custom':
      if (!custom || !isDay(custom.firstDay) || !isDay(custom.lastDay)) return { error: 'Choose the first and last day of the range' };
      if (custom.lastDay < custom.firstDay) return { error: 'The last day must not be before the first' };
      if (addDays(custom.firstDay, 366) < custom.lastDay) return { error: 'A range is at most 367 days' };
      firstDay = custom.firstDay;
      lastDay = custom.lastDay;
      break;
  }
  return {
    from: new Date(startOfDay(firstDay, timeZone)).toISOString(),
    to: new Date(startOfDay(addDays(lastDay, 1), timeZone)).toISOString(),
    firstDay,
    lastDay,
  };
}

/** Whether now falls in the range: its figures can still move, so the screen follows live updates. */
export function rangeIsLive(range: { from: string; to: string }, now: number): boolean {
  return Date.parse(range.from) <= now && now < Date.parse(range.to);
}

/**
 * Every period of a range as the server names them in the zone ('2026-11-29T14:00' by hour,
 * '2026-11-29' by day), so a chart's axis has its places before the figures arrive.
 */
export function periodsOf(range: { from: string; to: string }, timeZone: string, bucket: 'hour' | 'day'): string[] {
  const out = new Set<string>();
  const [from, to] = [Date.parse(range.from), Date.parse(range.to)];
  for (let t = from; t < to; t += 3_600_000) {
    const w = wallClock(t, timeZone);
    const day = `${pad(w.y, 4)}-${pad(w.m)}-${pad(w.d)}`;
    out.add(bucket === 'day' ? day : `${day}T${pad(w.h)}:00`);
  }
  return [...out];
}
