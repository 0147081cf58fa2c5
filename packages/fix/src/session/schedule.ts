/**
 * Session schedules and scheduled sequence resets, evaluated in the connector's IANA time zone.
 * Day-of-week numbers follow Date#getDay(): 0 = Sunday ... 6 = Saturday.
 */
export interface SessionSchedule {
  /** IANA zone, e.g. "Asia/Singapore". */
  readonly timeZone: string;
  /** Days on which a session window starts. */
  readonly tradingDays: ReadonlySet<number>;
  /** "HH:MM[:SS]" local; a window with end <= start runs over midnight into the next day. */
  readonly startTime: string;
  readonly endTime: string;
}

export type ResetFrequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'NEVER';

export const RESET_FREQUENCIES: readonly ResetFrequency[] = ['DAILY', 'WEEKLY', 'MONTHLY', 'NEVER'];

export function parseResetFrequency(text: string): ResetFrequency {
  const up = text.trim().toUpperCase();
  if ((RESET_FREQUENCIES as readonly string[]).includes(up)) return up as ResetFrequency;
  throw new RangeError(`unknown reset frequency "${text}" (expected DAILY, WEEKLY, MONTHLY or NEVER)`);
}

const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/**
 * Parses trading days written as names ("MON,TUE"), numbers ("1,2,3") or the connector form's letters
 * ("M,T,W,T,F"), where a T or S is read by its place in the week after the previous day.
 */
export function parseTradingDays(text: string): Set<number> {
  const days = new Set<number>();
  let previous = -1;
  for (const part of text.split(/[\s,;]+/).filter(Boolean)) {
    const p = part.trim().toUpperCase();
    let day: number;
    if (/^[0-6]$/.test(p)) day = Number(p);
    else if (p.length >= 3 && DAY_NAMES.some((n) => p.startsWith(n))) day = DAY_NAMES.findIndex((n) => p.startsWith(n));
    else if (p === 'M') day = 1;
    else if (p === 'W') day = 3;
    else if (p === 'F') day = 5;
    else if (p === 'T') day = previous >= 2 ? 4 : 2;
    else if (p === 'S' || p === 'SU') day = p === 'S' && previous === 5 ? 6 : 0;
    else throw new RangeError(`unknown trading day "${part}"`);
    days.add(day);
    previous = day;
  }
  if (days.size === 0) throw new RangeError('no trading days given');
  return days;
}

interface LocalParts {
  year: number;
  month: number; // 1..12
  day: number;
  weekday: number; // 0 = Sunday
  secondsOfDay: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The last answer per time zone: sessions ask for the same second over and over (one Intl call per second). */
const lastParts = new Map<string, { second: number; parts: LocalParts }>();

export function localParts(instant: number, timeZone: string): LocalParts {
  const second = Math.floor(instant / 1000);
  const hit = lastParts.get(timeZone);
  if (hit && hit.second === second) return hit.parts;
  const parts = computeLocalParts(second * 1000, timeZone);
  lastParts.set(timeZone, { second, parts });
  return parts;
}

function computeLocalParts(instant: number, timeZone: string): LocalParts {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) parts[p.type] = p.value;
  const weekday = DAY_NAMES.indexOf((parts.weekday ?? '').toUpperCase().slice(0, 3));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday,
    secondsOfDay: Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second),
  };
}

/** Seconds after local midnight for "HH:MM[:SS]". */
export function parseTimeOfDay(text: string): number {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) throw new RangeError(`invalid time of day "${text}" (expected HH:MM or HH:MM:SS)`);
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) throw new RangeError(`invalid time of day "${text}"`);
  return h * 3600 + mi * 60 + s;
}

/** The UTC instant of a local wall-clock time in a zone (for a time skipped by DST, the instant after the gap). */
export function zonedToInstant(year: number, month: number, day: number, secondsOfDay: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day) + secondsOfDay * 1000;
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const p = localParts(guess, timeZone);
    const seen = Date.UTC(p.year, p.month - 1, p.day) + p.secondsOfDay * 1000;
    const diff = wall - seen;
    if (diff === 0) return guess;
    guess += diff;
  }
  return guess;
}

/** True when `instant` lies inside a session window of the schedule. */
export function isWithinSchedule(schedule: SessionSchedule, instant: number): boolean {
  const start = parseTimeOfDay(schedule.startTime);
  const end = parseTimeOfDay(schedule.endTime);
  const now = localParts(instant, schedule.timeZone);
  if (end > start) return schedule.tradingDays.has(now.weekday) && now.secondsOfDay >= start && now.secondsOfDay < end;
  // Over midnight: either in the evening part of a window starting today, or the morning part of one that began yesterday.
  if (now.secondsOfDay >= start && schedule.tradingDays.has(now.weekday)) return true;
  return now.secondsOfDay < end && schedule.tradingDays.has((now.weekday + 6) % 7);
}

/**
 * The most recent scheduled reset boundary at or before `instant`: the session start time (midnight when
 * no schedule) of today (DAILY), of this week's Monday (WEEKLY) or of the 1st of the month (MONTHLY).
 */
export function lastResetBoundary(
  frequency: ResetFrequency,
  instant: number,
  timeZone: string,
  startTime = '00:00:00',
): number | undefined {
  if (frequency === 'NEVER') return undefined;
  const start = parseTimeOfDay(startTime);
  const now = localParts(instant, timeZone);
  const base = Date.UTC(now.year, now.month - 1, now.day);
  const step = (days: number) => {
    const d = new Date(base + days * 86_400_000);
    return zonedToInstant(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), start, timeZone);
  };
  const back = (f: () => number, shift: () => number) => {
    const b = f();
    return b <= instant ? b : shift();
  };
  switch (frequency) {
    case 'DAILY':
      return back(
        () => step(0),
        () => step(-1),
      );
    case 'WEEKLY': {
      const sinceMonday = (now.weekday + 6) % 7;
      return back(
        () => step(-sinceMonday),
        () => step(-sinceMonday - 7),
      );
    }
    case 'MONTHLY': {
      const first = (y: number, m: number) => zonedToInstant(y, m, 1, start, timeZone);
      const prev = now.month === 1 ? first(now.year - 1, 12) : first(now.year, now.month - 1);
      return back(
        () => first(now.year, now.month),
        () => prev,
      );
    }
  }
}

/** Whether the sequence created at `creationTime` must be reset at a logon at `instant`. */
export function isResetDue(
  frequency: ResetFrequency,
  creationTime: number,
  instant: number,
  timeZone: string,
  startTime?: string,
): boolean {
  const boundary = lastResetBoundary(frequency, instant, timeZone, startTime);
  return boundary !== undefined && creationTime < boundary;
}
