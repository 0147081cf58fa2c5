// Values read as the text the API writes, formatted by PostgreSQL in the statement: reading wide
// result sets (the order list, the audit screens and their exports of a million rows) then builds no
// Date or decimal per value in the server. One definition of each form, for every read that uses it.

/** A decimal without trailing zeros ('27000.500' → '27000.5', '0.000' → '0'), as text. */
export const decimalText = (col: string) => `trim_scale(${col})::text`;

/**
 * A timestamptz as JavaScript's Date#toISOString writes it: UTC, milliseconds truncated as reading it
 * into a Date does, four-digit years, and outside years 1–9999 a signed six-digit year ('+010000',
 * '0000' for 1 BC, '-000001' for 2 BC).
 */
export function isoText(col: string): string {
  const utc = `(${col} AT TIME ZONE 'UTC')`;
  const year = `(extract(year FROM ${utc})::int + CASE WHEN ${utc} < '0001-01-01' THEN 1 ELSE 0 END)`;
  return `CASE WHEN ${utc} >= '0001-01-01' AND ${utc} < '10000-01-01' THEN to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    ELSE CASE WHEN ${year} < 0 THEN '-' || lpad((-${year})::text, 6, '0') WHEN ${year} = 0 THEN '0000' ELSE '+' || lpad(${year}::text, 6, '0') END
         || to_char(${utc}, '-MM-DD"T"HH24:MI:SS.MS"Z"') END`;
}

/** A timestamptz as ISO 8601 UTC text with microseconds ('2026-03-15T10:30:01.123456Z'). */
export const microText = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Integers as their digits. */
export const intText = (col: string) => `${col}::text`;
