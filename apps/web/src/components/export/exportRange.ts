/**
 * The export dialog's dates (spec 000 §5, §9): both required, the last 30 days by default, the end day
 * inclusive to 23:59:59.999. Days are the user's own (the browser's time zone), like the times shown.
 */
const EXPORT_DEFAULT_DAYS = 30;

export interface ExportRange {
  /** YYYY-MM-DD */
  start: string;
  /** YYYY-MM-DD */
  end: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function localDay(d: Date): string {
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** From 30 days ago to today. */
export function defaultExportRange(now = new Date()): ExportRange {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - EXPORT_DEFAULT_DAYS);
  return { start: localDay(start), end: localDay(now) };
}

function parseDay(text: string, endOfDay: boolean): Date | null {
  const m = DAY.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = endOfDay ? new Date(y, mo - 1, d, 23, 59, 59, 999) : new Date(y, mo - 1, d, 0, 0, 0, 0);
  // 2026-02-31 rolls over: not a day.
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  return date;
}

export type RangeCheck = { ok: true; startIso: string; endIso: string } | { ok: false; field: 'start' | 'end'; message: string };

/** The instants the server is asked for: the start day's first millisecond, the end day's last. */
export function checkExportRange(range: ExportRange): RangeCheck {
  if (!range.start.trim()) return { ok: false, field: 'start', message: 'Start date is required' };
  if (!range.end.trim()) return { ok: false, field: 'end', message: 'End date is required' };
  const start = parseDay(range.start, false);
  if (!start) return { ok: false, field: 'start', message: 'Start date must be a date (YYYY-MM-DD)' };
  const end = parseDay(range.end, true);
  if (!end) return { ok: false, field: 'end', message: 'End date must be a date (YYYY-MM-DD)' };
  if (end.getTime() < start.getTime()) return { ok: false, field: 'end', message: 'End date must not be before the start date' };
  return { ok: true, startIso: start.toISOString(), endIso: end.toISOString() };
}

/** order_actions_{start}_to_{end}.csv (spec 000 §7). */
export function exportFileName(prefix: 'order_actions' | 'fix_messages', range: ExportRange): string {
  return `${prefix}_${range.start}_to_${range.end}.csv`;
}
