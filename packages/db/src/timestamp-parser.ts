// PostgreSQL's text form of timestamptz ('2026-11-22 08:35:12.123456+00', DateStyle ISO) read into a
// Date by slicing: the driver's general parser runs a regular expression per value, which dominates
// reading wide result sets (an order list of 100,000 orders holds over a million timestamps). Anything
// not in that exact shape (BC dates, infinity, years before 100) goes to the general parser.

const isDigit = (c: number) => c >= 48 && c <= 57;

export function parseTimestamptz(s: string, fallback: (s: string) => unknown): unknown {
  const n = s.length;
  if (
    n < 22 ||
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 32 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58
  ) {
    return fallback(s);
  }
  const year = +s.slice(0, 4);
  if (!(year >= 100)) return fallback(s);
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    let j = i + 1;
    while (j < n && isDigit(s.charCodeAt(j))) j++;
    // Milliseconds, truncated, as the general parser gives them.
    ms = +(s.slice(i + 1, j) + '00').slice(0, 3);
    i = j;
  }
  const sign = s.charCodeAt(i);
  if ((sign !== 43 && sign !== 45) || n < i + 3) return fallback(s);
  let offset = +s.slice(i + 1, i + 3) * 3600;
  let end = i + 3;
  if (s.charCodeAt(end) === 58) {
    offset += +s.slice(end + 1, end + 3) * 60;
    end += 3;
    if (s.charCodeAt(end) === 58) {
      offset += +s.slice(end + 1, end + 3);
      end += 3;
    }
  }
  if (end !== n || Number.isNaN(offset)) return fallback(s);
  const local = Date.UTC(year, +s.slice(5, 7) - 1, +s.slice(8, 10), +s.slice(11, 13), +s.slice(14, 16), +s.slice(17, 19), ms);
  if (Number.isNaN(local)) return fallback(s);
  return new Date(local - (sign === 43 ? offset : -offset) * 1000);
}
