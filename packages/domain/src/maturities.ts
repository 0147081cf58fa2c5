/**
 * Contract months, quarters and calendar years (spec 000 §9): maturities travel as FIX MonthYear
 * 'YYYYMM' and are shown as 'Mon-YY'; the pickers of the order screens.
 */

const MONTH_ABBREVIATIONS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A calendar month; `month` is 1-12. */
export interface YearMonth {
  year: number;
  month: number;
}

const MIN_YEAR = 1900;
const MAX_YEAR = 2199;

/** Two-digit years below 50 are 20xx, the rest 19xx (spec 000 §9). */
export function expandTwoDigitYear(yy: number): number {
  return yy < 50 ? 2000 + yy : 1900 + yy;
}

function validYearMonth(year: number, month: number): YearMonth | null {
  if (!Number.isInteger(year) || !Number.isInteger(month)) return null;
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12) return null;
  return { year, month };
}

function monthIndex(abbr: string): number {
  const i = MONTH_ABBREVIATIONS.findIndex((m) => m.toLowerCase() === abbr.toLowerCase());
  return i + 1;
}

/**
 * Reads a contract month in the forms that reach us: 'YYYYMM' (FIX), 'YYYYMMDD' (FIX MonthYear with a
 * day), 'YYYY-MM', 'Mon-YY', 'Mon-YYYY', 'MonYY', 'Mon YY'. Null for anything else.
 */
export function parseMaturity(value: unknown): YearMonth | null {
  if (typeof value === 'number' && Number.isInteger(value)) value = String(value);
  if (typeof value !== 'string') return null;
  const v = value.trim();
  let m = /^(\d{4})(\d{2})(\d{2})?$/.exec(v);
  if (m) return validYearMonth(Number(m[1]), Number(m[2]));
  m = /^(\d{4})-(\d{2})$/.exec(v);
  if (m) return validYearMonth(Number(m[1]), Number(m[2]));
  m = /^([A-Za-z]{3})[- ]?(\d{2}|\d{4})$/.exec(v);
  if (m) {
    const month = monthIndex(m[1]!);
    if (month === 0) return null;
    const y = Number(m[2]);
    return validYearMonth(m[2]!.length === 2 ? expandTwoDigitYear(y) : y, month);
  }
  return null;
}

/** 'YYYYMM' */
export function toMaturity(ym: YearMonth): string {
  return `${ym.year}${String(ym.month).padStart(2, '0')}`;
}

/** 'Mon-YY', e.g. Sep-25 */
export function toMonthLabel(ym: YearMonth): string {
  return `${MONTH_ABBREVIATIONS[ym.month - 1]}-${String(ym.year % 100).padStart(2, '0')}`;
}

/**
 * A string form's answer, remembered: every order names a contract month, and the same few come back
 * all day. Bounded (cleared when full); only short texts are kept.
 */
function remembered(read: (value: unknown) => string | null): (value: unknown) => string | null {
  const known = new Map<string, string | null>();
  return (value) => {
    if (typeof value !== 'string' || value.length > 16) return read(value);
    const hit = known.get(value);
    if (hit !== undefined) return hit;
    const answer = read(value);
    if (known.size >= 1024) known.clear();
    known.set(value, answer);
    return answer;
  };
}

/** Any accepted contract-month form → 'YYYYMM'; null when unreadable. */
export const normalizeMaturity = remembered((value) => {
  const ym = parseMaturity(value);
  return ym ? toMaturity(ym) : null;
});

/** Any accepted contract-month form → 'Mon-YY'; null when unreadable. */
export const maturityLabel = remembered((value) => {
  const ym = parseMaturity(value);
  return ym ? toMonthLabel(ym) : null;
});

export function addMonths(ym: YearMonth, months: number): YearMonth {
  const index = ym.year * 12 + (ym.month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function compareYearMonth(a: YearMonth, b: YearMonth): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

/**
 * The calendar month `now` falls in at a given time zone (default UTC). The desk's pickers start from the
 * trader's current month, which differs from UTC around midnight on the first of a month.
 */
// Building an Intl.DateTimeFormat costs far more than using one; order intake calls this per order.
const yearMonthFormatters = new Map<string, Intl.DateTimeFormat>();

/** The last answer per time zone, by minute (a month starts on a minute in every zone). */
const lastYearMonth = new Map<string, { minute: number; ym: YearMonth }>();

export function currentYearMonth(now: Date, timeZone = 'UTC'): YearMonth {
  const minute = Math.floor(now.getTime() / 60_000);
  const hit = lastYearMonth.get(timeZone);
  if (hit && hit.minute === minute) return { ...hit.ym };
  const ym = computeYearMonth(now, timeZone);
  lastYearMonth.set(timeZone, { minute, ym });
  return { ...ym };
}

function computeYearMonth(now: Date, timeZone: string): YearMonth {
  let f = yearMonthFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric' });
    yearMonthFormatters.set(timeZone, f);
  }
  const parts = f.formatToParts(now);
  const year = Number(parts.find((p) => p.type === 'year')?.value);
  const month = Number(parts.find((p) => p.type === 'month')?.value);
  return { year, month };
}

export interface PickerOption<V = string> {
  value: V;
  label: string;
}

/** Contract months from the current month for `years` years, labelled like 'Sep-25 (202509)' (spec 000 §2). */
export function contractMonthOptions(now: Date, options: { years?: number; timeZone?: string } = {}): PickerOption[] {
  const start = currentYearMonth(now, options.timeZone);
  const count = (options.years ?? 8) * 12;
  return Array.from({ length: count }, (_, i) => {
    const ym = addMonths(start, i);
    const value = toMaturity(ym);
    return { value, label: `${toMonthLabel(ym)} (${value})` };
  });
}

// ───────────────────────────── quarters and calendar years ─────────────────────────────

export interface QuarterDefinition {
  quarter: 1 | 2 | 3 | 4;
  /** 'Jan-Mar' */
  months: string;
  /** First month as two digits: '01', '04', '07', '10'. */
  startMonth: string;
}

export const QUARTERS: readonly QuarterDefinition[] = [
  { quarter: 1, months: 'Jan-Mar', startMonth: '01' },
  { quarter: 2, months: 'Apr-Jun', startMonth: '04' },
  { quarter: 3, months: 'Jul-Sep', startMonth: '07' },
  { quarter: 4, months: 'Oct-Dec', startMonth: '10' },
];

export interface YearQuarter {
  year: number;
  quarter: 1 | 2 | 3 | 4;
}

export function quarterOfMonth(month: number): 1 | 2 | 3 | 4 {
  return (Math.floor((month - 1) / 3) + 1) as 1 | 2 | 3 | 4;
}

/** 'Q3-25' */
export function quarterLabel(q: YearQuarter): string {
  return `Q${q.quarter}-${String(q.year % 100).padStart(2, '0')}`;
}

/** Reads 'Q3-25', 'Q3-2025', 'Q325', '2025-Q3', '2025Q3' (any case). */
export function parseQuarter(value: unknown): YearQuarter | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toUpperCase();
  let quarter: number;
  let year: number;
  let m = /^Q([1-4])[- ]?(\d{2}|\d{4})$/.exec(v);
  if (m) {
    quarter = Number(m[1]);
    year = m[2]!.length === 2 ? expandTwoDigitYear(Number(m[2])) : Number(m[2]);
  } else if ((m = /^(\d{4})[- ]?Q([1-4])$/.exec(v))) {
    year = Number(m[1]);
    quarter = Number(m[2]);
  } else {
    return null;
  }
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  return { year, quarter: quarter as 1 | 2 | 3 | 4 };
}

/** The three contract months of a quarter, 'YYYYMM'. */
export function quarterMonths(q: YearQuarter): string[] {
  const first = (q.quarter - 1) * 3 + 1;
  return [0, 1, 2].map((i) => toMaturity({ year: q.year, month: first + i }));
}

/** Quarters from the current one for `years` years (spec 000 §2: 8 years), valued and labelled 'Qn-YY'. */
export function quarterOptions(now: Date, options: { years?: number; timeZone?: string } = {}): PickerOption[] {
  const ym = currentYearMonth(now, options.timeZone);
  const startIndex = ym.year * 4 + quarterOfMonth(ym.month) - 1;
  return Array.from({ length: (options.years ?? 8) * 4 }, (_, i) => {
    const idx = startIndex + i;
    const label = quarterLabel({ year: Math.floor(idx / 4), quarter: ((idx % 4) + 1) as 1 | 2 | 3 | 4 });
    return { value: label, label };
  });
}

/** Reads a calendar year as 2026, '2026', '26' or 'CAL-26'. */
export function parseCalYear(value: unknown): number | null {
  let year: number;
  if (typeof value === 'number') year = value;
  else if (typeof value === 'string') {
    const m = /^(?:CAL[- ]?)?(\d{2}|\d{4})$/i.exec(value.trim());
    if (!m) return null;
    year = m[1]!.length === 2 ? expandTwoDigitYear(Number(m[1])) : Number(m[1]);
  } else return null;
  return Number.isInteger(year) && year >= MIN_YEAR && year <= MAX_YEAR ? year : null;
}

/** 'CAL-26' */
export function calLabel(year: number): string {
  return `CAL-${String(year % 100).padStart(2, '0')}`;
}

export function calendarMonths(year: number): string[] {
  return Array.from({ length: 12 }, (_, i) => toMaturity({ year, month: i + 1 }));
}

/** The year picker: `years` years from the current one (spec 000 §9: 10). */
export function yearOptions(now: Date, options: { years?: number; timeZone?: string } = {}): PickerOption<number>[] {
  const { year } = currentYearMonth(now, options.timeZone);
  return Array.from({ length: options.years ?? 10 }, (_, i) => ({ value: year + i, label: String(year + i) }));
}
