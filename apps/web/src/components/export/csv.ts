import Papa from 'papaparse';

/**
 * CSV exports of the audit screens, built in one place from the same column tables as their grids
 * (a grid's columns plus, where the file needs other text than the screen, `csv` / `csvHeader`).
 * Quoting and escaping are papaparse's; formula neutralisation is papaparse's too, with OWASP's
 * trigger characters (see FORMULA_TRIGGER).
 */
export interface CsvColumn<T> {
  header: string;
  /** The raw value; the fallback text. */
  value: (row: T) => string | number | null;
  /** The shown text; the CSV text unless `csv` is given. */
  format?: (row: T) => string;
  /** The CSV text when it differs from the shown one (ISO 8601 UTC times, full notes, JSON). */
  csv?: (row: T) => string | number | null;
  /** The CSV heading when it differs from the grid's (a button column such as View Raw). */
  csvHeader?: string;
  /** Left out of the file (columns that hold only controls). */
  noCsv?: boolean;
}

/** What a grid's column table adds so the CSV can come from the same table. */
export type CsvExtras<T> = Pick<CsvColumn<T>, 'csv' | 'csvHeader' | 'noCsv'>;

/**
 * A cell a spreadsheet could run as a formula: one starting with '=', '+', '-', '@', tab or carriage
 * return (OWASP "CSV Injection"). Such a cell is written as text: prefixed with ' and quoted. A plain
 * negative number (-5, -12.25: spread prices are negative) is not a formula and stays a number.
 */
export const FORMULA_TRIGGER = /^(?:[=+@\t\r]|-(?!\d+(?:\.\d+)?$))/;

function cellText<T>(column: CsvColumn<T>, row: T): string {
  const v = column.csv ? column.csv(row) : column.format ? column.format(row) : column.value(row);
  return v === null || v === undefined ? '' : String(v);
}

/** The file's text: a heading row, then one row per record; CRLF line ends (RFC 4180). */
export function toCsvText<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const included = columns.filter((c) => !c.noCsv);
  return Papa.unparse(
    {
      fields: included.map((c) => c.csvHeader ?? c.header),
      data: rows.map((row) => included.map((c) => cellText(c, row))),
    },
    { escapeFormulae: FORMULA_TRIGGER, newline: '\r\n', header: true },
  );
}

/** Saves text as a CSV file through the browser's download (a UTF-8 BOM so spreadsheets read accents). */
export function downloadCsv(fileName: string, text: string): void {
  downloadFile(fileName, ['\ufeff', text], 'text/csv;charset=utf-8');
}

/** Saves text the page made as a file (a CSV export, a certificate, a settings file). */
export function downloadFile(fileName: string, parts: BlobPart[], type: string): void {
  const blob = new Blob(parts, { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
