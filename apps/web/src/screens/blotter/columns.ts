import type { ColDef, ValueFormatterParams, ValueGetterParams } from 'ag-grid-community';

type FilterSetting = 'filter' | 'filterParams' | 'floatingFilter' | 'filterValueGetter' | 'suppressHeaderFilterButton';

/**
 * A grid's columns, declared once (STYLE "columns declared once"): header, value, display format and
 * CSV text come from one table. No column filters: spec 000 §2 gives the blotter none, and AG Grid
 * Community has no column menu to open them from (they were configured but unreachable), so a table
 * cannot declare one, not even through `grid`.
 */
export interface BlotterColumn<T> {
  id: string;
  header: string;
  /** The raw value (sorting). */
  value: (row: T) => string | number | null;
  /** Shown text and CSV text. */
  format?: (row: T) => string;
  width: number;
  numeric?: boolean;
  /** Extra AG Grid settings (renderers, classes). */
  grid?: Partial<Omit<ColDef<T>, FilterSetting>>;
}

/** AG Grid column definitions generated from a column table. */
export function toColDefs<T>(columns: readonly BlotterColumn<T>[]): ColDef<T>[] {
  return columns.map((c) => ({
    colId: c.id,
    headerName: c.header,
    width: c.width,
    valueGetter: (p: ValueGetterParams<T>) => (p.data ? c.value(p.data) : null),
    ...(c.format ? { valueFormatter: (p: ValueFormatterParams<T>) => (p.data ? c.format!(p.data) : '') } : {}),
    ...(c.numeric ? { type: 'rightAligned', cellClass: 'fd-num' } : {}),
    filter: false,
    sortable: true,
    resizable: true,
    ...c.grid,
  }));
}

/** A column table as CSV text (header row, then each row with its shown text). */
export function toCsv<T>(columns: readonly BlotterColumn<T>[], rows: readonly T[]): string {
  const cell = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = [columns.map((c) => cell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.format ? c.format(row) : String(c.value(row) ?? ''))).join(','));
  return lines.join('\n');
}
