// FIX value formats: exact decimals, UTC timestamps with milliseconds, MonthYear.
// Prices and quantities stay decimal strings end to end; arithmetic goes through scaled bigints,
// never through Number.

/** Thrown when a field value does not have the format its FIX type requires. */
export class FixValueError extends Error {
  constructor(
    readonly tag: number,
    readonly value: string,
    readonly expected: string,
  ) {
    super(`FIX tag ${tag}: '${value}' is not a valid ${expected}`);
    this.name = 'FixValueError';
  }
}

// ---------------------------------------------------------------------------------------------
// Decimals

const DECIMAL_RE = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** True when s is a FIX float (PRICE, QTY, AMT, ...): optional '-', digits, optional fraction. */
export function isFixDecimal(s: string): boolean {
  return DECIMAL_RE.test(s);
}

/**
 * Canonical form of a FIX decimal: no leading zeros, no trailing fractional zeros, no '-0'.
 * '001.500' → '1.5', '-0.0' → '0', '.25' → '0.25'.
 */
export function normalizeDecimal(s: string): string {
  if (!DECIMAL_RE.test(s)) throw new RangeError(`'${s}' is not a decimal`);
  let negative = false;
  let t = s;
  if (t.startsWith('-')) {
    negative = true;
    t = t.slice(1);
  }
  let [int = '', frac = ''] = t.split('.');
  int = int.replace(/^0+/, '') || '0';
  frac = frac.replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return negative && body !== '0' ? `-${body}` : body;
}

/**
 * The decimal as an integer count of 10^-scale units ('12.345', 3 → 12345n). Throws if the value
 * has more fractional digits than scale, because silently rounding a price or quantity is a bug.
 */
export function decimalToScaled(s: string, scale: number): bigint {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`bad scale ${scale}`);
  if (!DECIMAL_RE.test(s)) throw new RangeError(`'${s}' is not a decimal`);
  const negative = s.startsWith('-');
  const t = negative ? s.slice(1) : s;
  const dot = t.indexOf('.');
  const int = dot < 0 ? t : t.slice(0, dot);
  let frac = dot < 0 ? '' : t.slice(dot + 1);
  const trimmed = frac.replace(/0+$/, '');
  if (trimmed.length > scale) throw new RangeError(`'${s}' has more than ${scale} decimal places`);
  frac = frac.slice(0, scale).padEnd(scale, '0');
  const v = BigInt((int || '0') + frac);
  return negative ? -v : v;
}

/** Inverse of decimalToScaled: 12345n, 3 → '12.345'; trailing fractional zeros are dropped. */
export function scaledToDecimal(v: bigint, scale: number): string {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`bad scale ${scale}`);
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return negative && body !== '0' ? `-${body}` : body;
}

/** Exact comparison of two FIX decimals: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(fractionDigits(a), fractionDigits(b));
  const x = decimalToScaled(a, scale);
  const y = decimalToScaled(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

function fractionDigits(s: string): number {
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

// ---------------------------------------------------------------------------------------------
// UTC timestamps

/** A UTCTimestamp as received: the exact text plus its instant (sub-millisecond digits are kept in text only). */
export class FixTimestamp {
  constructor(
    readonly text: string,
    readonly epochMs: number,
  ) {}

  get date(): Date {
    return new Date(this.epochMs);
  }

  toString(): string {
    return this.text;
  }
}

let cachedSecond = -1;
let cachedSecondText = '';

/** YYYYMMDD-HH:MM:SS.sss in UTC, the SendingTime format QuickFIX writes for FIX 4.4 with milliseconds. */
export function formatUtcTimestamp(time: Date | number): string {
  const ms = typeof time === 'number' ? time : time.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid time');
  const second = Math.floor(ms / 1000);
  // Messages sent within the same second share the date-time prefix; only the milliseconds change.
  if (second !== cachedSecond) {
    const d = new Date(second * 1000);
    const year = d.getUTCFullYear();
    if (year < 0 || year > 9999) throw new RangeError('time outside the FIX timestamp range');
    cachedSecondText =
      pad(year, 4) +
      pad(d.getUTCMonth() + 1, 2) +
      pad(d.getUTCDate(), 2) +
      '-' +
      pad(d.getUTCHours(), 2) +
      ':' +
      pad(d.getUTCMinutes(), 2) +
      ':' +
      pad(d.getUTCSeconds(), 2) +
      '.';
    cachedSecond = second;
  }
  return cachedSecondText + pad(ms - second * 1000, 3);
}

/** YYYYMMDD in UTC (UTCDateOnly). */
export function formatUtcDate(time: Date | number): string {
  const d = typeof time === 'number' ? new Date(time) : time;
  return pad(d.getUTCFullYear(), 4) + pad(d.getUTCMonth() + 1, 2) + pad(d.getUTCDate(), 2);
}

function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}

/** Parses YYYYMMDD-HH:MM:SS[.fraction] (1-9 fraction digits); returns epoch ms or NaN. */
export function parseUtcTimestamp(s: string): number {
  const len = s.length;
  if (len < 17 || s.charCodeAt(8) !== 45 || s.charCodeAt(11) !== 58 || s.charCodeAt(14) !== 58) return NaN;
  const year = digits(s, 0, 4);
  const month = digits(s, 4, 2);
  const day = digits(s, 6, 2);
  const hour = digits(s, 9, 2);
  const minute = digits(s, 12, 2);
  const second = digits(s, 15, 2);
  if ((year | month | day | hour | minute | second) < 0) return NaN;
  let millis = 0;
  if (len > 17) {
    if (s.charCodeAt(17) !== 46 || len === 18 || len > 27) return NaN;
    const fraction = digits(s, 18, len - 18);
    if (fraction < 0) return NaN;
    millis = len - 18 >= 3 ? digits(s, 18, 3) : fraction * 10 ** (3 - (len - 18));
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 60) return NaN;
  // A leap second (:60) is accepted as FIX allows it and folded into the next second.
  return Date.UTC(year, month - 1, day, hour, minute, second, millis);
}

/**
 * Date.UTC(year, month - 1, day, hour, minute, second, millis) for the ranges a checked timestamp
 * has (month 1-12, day valid for it, second up to 60), computed without Date.UTC's generic argument
 * handling (days from civil date: the Gregorian calendar repeats every 400 years of 146097 days).
 */
export function utcEpochMs(year: number, month: number, day: number, hour: number, minute: number, second: number, millis: number): number {
  if (year < 100) return Date.UTC(year, month - 1, day, hour, minute, second, millis); // Date.UTC's 19xx years
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1; // from March 1
  const days = era * 146097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719468;
  return ((days * 24 + hour) * 60 + minute) * 60000 + second * 1000 + millis;
}

/** Parses HH:MM:SS[.fraction]; returns ms since midnight or NaN. */
export function parseUtcTimeOnly(s: string): number {
  const len = s.length;
  if (len < 8 || s.charCodeAt(2) !== 58 || s.charCodeAt(5) !== 58) return NaN;
  const hour = digits(s, 0, 2);
  const minute = digits(s, 3, 2);
  const second = digits(s, 6, 2);
  if ((hour | minute | second) < 0 || hour > 23 || minute > 59 || second > 60) return NaN;
  let millis = 0;
  if (len > 8) {
    if (s.charCodeAt(8) !== 46 || len === 9 || len > 18) return NaN;
    if (digits(s, 9, len - 9) < 0) return NaN;
    millis = len - 9 >= 3 ? digits(s, 9, 3) : digits(s, 9, len - 9) * 10 ** (3 - (len - 9));
  }
  return ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

/** Validates YYYYMMDD; returns true when it is a calendar date. */
export function isFixDate(s: string): boolean {
  if (s.length !== 8) return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 4, 2);
  const day = digits(s, 6, 2);
  return (year | month | day) >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** A MonthYear (YYYYMM, YYYYMMDD or YYYYMMwN), as used for contract maturities. */
export interface FixMonthYear {
  readonly text: string;
  readonly year: number;
  readonly month: number;
  readonly day: number | undefined;
  readonly week: number | undefined;
}

export function parseMonthYear(s: string): FixMonthYear | undefined {
  if (s.length !== 6 && s.length !== 8) return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 4, 2);
  if ((year | month) < 0 || month < 1 || month > 12) return undefined;
  if (s.length === 6) return { text: s, year, month, day: undefined, week: undefined };
  if (s.charCodeAt(6) === 119 /* w */) {
    const week = s.charCodeAt(7) - 48;
    return week >= 1 && week <= 5 ? { text: s, year, month, day: undefined, week } : undefined;
  }
  const day = digits(s, 6, 2);
  return day >= 1 && day <= daysInMonth(year, month) ? { text: s, year, month, day, week: undefined } : undefined;
}

function digits(s: string, from: number, count: number): number {
  let v = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

function daysInMonth(year: number, month: number): number {
  return month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}
