import { csvText, type CsvField } from '@fixdesk/client';

/**
 * CSV exports of the audit screens, built in one place from the same column tables as their grids
 * (a grid's columns plus, where the file needs other text than the screen, `csv` / `csvHeader`).
 * The writer (quoting, escaping, formula neutralisation with OWASP's trigger characters) is the one
 * the server's streamed exports use, in @fixdesk/client.
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

function cellText<T>(column: CsvColumn<T>, row: T): string | number | null {
  return column.csv ? column.csv(row) : column.format ? column.format(row) : column.value(row);
}

/** The file's text: a heading row, then one row per record; CRLF line ends (RFC 4180); formula-safe (@fixdesk/client's writer). */
export function toCsvText<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const fields = columns
    .filter((c) => !c.noCsv)
    .map((c): CsvField<T> => ({ id: c.header, header: c.csvHeader ?? c.header, value: (row) => cellText(c, row) }));
  return csvText(fields, rows);
}

/** Saves text as a CSV file through the browser's download (a UTF-8 BOM so spreadsheets read accents). */
export function downloadCsv(fileName: string, text: string): void {
  downloadFile(fileName, ['\ufeff', text], 'text/csv;charset=utf-8');
}

/** Saves text the page made as a file (a CSV export, a certificate, a settings file). */
export function downloadFile(fileName: string, parts: BlobPart[], type: string): void {
  downloadBlob(fileName, new Blob(parts, { type }));
}

/** Saves a file the page holds (a CSV streamed from the server) through the browser's download. */
export function downloadBlob(fileName: string, blob: Blob): void {
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
