import type { ColDef, ValueFormatterParams, ValueGetterParams } from 'ag-grid-community';

type FilterSetting = 'filter' | 'filterParams' | 'floatingFilter' | 'filterValueGetter' | 'suppressHeaderFilterButton';

/**
 * A grid's columns, declared once (STYLE "columns declared once"): header, value and display format
 * come from one table (an export, when a screen gets one, takes its text from `format` too). No column filters: spec 000 §2 gives the blotter none, and AG Grid
 * Community has no column menu to open them from (they were configured but unreachable), so a table
 * cannot declare one, not even through `grid`.
 */
export interface BlotterColumn<T> {
  id: string;
  header: string;
  /** The raw value (sorting). */
  value: (row: T) => string | number | null;
  /** Shown text. */
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
    // The rightAligned type's own cellClass would be replaced by ours: both classes, or the values sit left.
    ...(c.numeric ? { type: 'rightAligned', cellClass: ['fd-num', 'ag-right-aligned-cell'] } : {}),
    filter: false,
    sortable: true,
    resizable: true,
    ...c.grid,
  }));
}
