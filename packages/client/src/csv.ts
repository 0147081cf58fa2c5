import Papa from 'papaparse';

/**
 * CSV files of the desk (audit exports), written in one place: quoting and escaping are papaparse's,
 * lines end CRLF (RFC 4180), and a cell a spreadsheet could run as a formula is written as text.
 */

/** One column of a file: its heading and its text for a record. */
export interface CsvField<T> {
  /** The grid column it stands for (tests keep the file and the table in step by these). */
  readonly id: string;
  readonly header: string;
  readonly value: (row: T) => string | number | null | undefined;
}

/**
 * A cell a spreadsheet could run as a formula: one starting with '=', '+', '-', '@', tab or carriage
 * return (OWASP "CSV Injection"), or with the full-width '＝', '＋', '－', '＠' some spreadsheets read as
 * those. Such a cell is written as text: prefixed with ' and quoted. A plain negative number
 * (-5, -12.25: spread prices are negative) is not a formula and stays a number.
 */
export const FORMULA_TRIGGER = /^(?:[=+@\t\r\uFF1D\uFF0B\uFF0D\uFF20]|-(?!\d+(?:\.\d+)?$))/;

const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** A whole file's text: the heading row, then one row per record, CRLF between lines (no BOM). */
export function csvText<T>(fields: readonly CsvField<T>[], rows: readonly T[], heading = true): string {
  return Papa.unparse(
    { fields: fields.map((f) => f.header), data: rows.map((row) => fields.map((f) => cell(f.value(row)))) },
    { escapeFormulae: FORMULA_TRIGGER, newline: '\r\n', header: heading },
  );
}

/**
 * Rows of a file as text, each ending CRLF; with `heading`, the heading row first. Pieces written one
 * after the other make one file (a streamed export writes a page at a time).
 */
export function csvChunk<T>(fields: readonly CsvField<T>[], rows: readonly T[], heading = false): string {
  if (!rows.length && !heading) return '';
  // Without rows, papaparse ends the heading with a line break of its own (an empty line would follow).
  const text = rows.length ? csvText(fields, rows, heading) : csvText(fields, [], true).replace(/\r\n$/, '');
  return text ? `${text}\r\n` : '';
}
