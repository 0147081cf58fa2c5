// Format checks on bytes, one per ValueType family; shared by the parser and the typed getters.
import { ValueType } from '../dictionary/dictionary';

export function isValidFormat(raw: Uint8Array, type: number, start: number, end: number): boolean {
  switch (type) {
    case ValueType.Int: {
      let k = start;
      if (raw[k] === 0x2d) k++;
      return k < end && allDigits(raw, k, end);
    }
    case ValueType.UnsignedInt:
      return allDigits(raw, start, end);
    case ValueType.Decimal:
      return isDecimalBytes(raw, start, end);
    case ValueType.Char:
      return end - start === 1;
    case ValueType.Boolean:
      return end - start === 1 && (raw[start] === 0x59 || raw[start] === 0x4e);
    case ValueType.UtcTimestamp:
      return isTimestampBytes(raw, start, end);
    case ValueType.UtcTimeOnly:
      return isTimeBytes(raw, start, end);
    case ValueType.Date:
      return end - start === 8 && isDateBytes(raw, start);
    case ValueType.MonthYear:
      return isMonthYearBytes(raw, start, end);
    case ValueType.DayOfMonth: {
      if (end - start > 2 || !allDigits(raw, start, end)) return false;
      const v = numberAt(raw, start, end);
      return v >= 1 && v <= 31;
    }
    default:
      return true;
  }
}

function allDigits(raw: Uint8Array, start: number, end: number): boolean {
  if (start >= end) return false;
  for (let k = start; k < end; k++) {
    const c = raw[k]!;
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function numberAt(raw: Uint8Array, start: number, end: number): number {
  let v = 0;
  for (let k = start; k < end; k++) v = v * 10 + (raw[k]! - 0x30);
  return v;
}

function isDecimalBytes(raw: Uint8Array, start: number, end: number): boolean {
  let k = start;
  if (raw[k] === 0x2d) k++;
  let digits = 0;
  let dot = false;
  for (; k < end; k++) {
    const c = raw[k]!;
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x2e && !dot) dot = true;
    else return false;
  }
  return digits > 0;
}

function isDateBytes(raw: Uint8Array, start: number): boolean {
  let year = 0;
  for (let k = start; k < start + 4; k++) {
    const d = raw[k]! - 0x30;
    if (d >>> 0 > 9) return false;
    year = year * 10 + d;
  }
  const mo1 = raw[start + 4]! - 0x30;
  const mo2 = raw[start + 5]! - 0x30;
  const d1 = raw[start + 6]! - 0x30;
  const d2 = raw[start + 7]! - 0x30;
  if (mo1 >>> 0 > 1 || mo2 >>> 0 > 9 || d1 >>> 0 > 3 || d2 >>> 0 > 9) return false;
  const month = mo1 * 10 + mo2;
  const day = d1 * 10 + d2;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** HH:MM:SS[.f{1,9}] starting at `start`, ending at `end`. */
function isTimeBytes(raw: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len < 8 || raw[start + 2] !== 0x3a || raw[start + 5] !== 0x3a) return false;
  const h1 = raw[start]! - 0x30;
  const h2 = raw[start + 1]! - 0x30;
  const m1 = raw[start + 3]! - 0x30;
  const m2 = raw[start + 4]! - 0x30;
  const s1 = raw[start + 6]! - 0x30;
  const s2 = raw[start + 7]! - 0x30;
  // Each digit in 0-9 (unsigned compare rejects negatives), then the ranges.
  if (h1 >>> 0 > 2 || h2 >>> 0 > 9 || m1 >>> 0 > 5 || m2 >>> 0 > 9 || s1 >>> 0 > 6 || s2 >>> 0 > 9) return false;
  if (h1 * 10 + h2 > 23 || s1 * 10 + s2 > 60) return false;
  if (len === 8) return true;
  return raw[start + 8] === 0x2e && len >= 10 && len <= 18 && allDigits(raw, start + 9, end);
}

function isTimestampBytes(raw: Uint8Array, start: number, end: number): boolean {
  return end - start >= 17 && raw[start + 8] === 0x2d && isDateBytes(raw, start) && isTimeBytes(raw, start + 9, end);
}

function isMonthYearBytes(raw: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len !== 6 && len !== 8) return false;
  if (!allDigits(raw, start, start + 6)) return false;
  const month = numberAt(raw, start + 4, start + 6);
  if (month < 1 || month > 12) return false;
  if (len === 6) return true;
  if (raw[start + 6] === 0x77) return raw[start + 7]! >= 0x31 && raw[start + 7]! <= 0x35;
  return isDateBytes(raw, start);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
