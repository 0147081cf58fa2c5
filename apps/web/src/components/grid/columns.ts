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
  /**
   * When the grid is too narrow for every column at its width (a flex column at its minWidth), the columns
   * with a giveWay hide, 1 first, until the rest fit: no sideways scroll. Columns without stay.
   */
  giveWay?: number;
}

/** The room a column needs: a flex column's minimum, else its width. */
function neededWidth(def: ColDef): number {
  return (def.flex ? def.minWidth : undefined) ?? def.width ?? def.minWidth ?? 0;
}

/**
 * The columns (ids) that give way in a grid `available` px wide: those with a giveWay in the definitions'
 * context, lowest first, until the others fit. None when every column fits.
 */
export function columnsGivingWay(defs: readonly ColDef[], available: number): string[] {
  let needed = defs.reduce((sum, d) => sum + neededWidth(d), 0);
  const candidates = defs
    .filter((d) => typeof (d.context as { giveWay?: unknown } | undefined)?.giveWay === 'number')
    .sort((a, b) => (a.context as { giveWay: number }).giveWay - (b.context as { giveWay: number }).giveWay);
  const hidden: string[] = [];
  for (const d of candidates) {
    if (needed <= available) break;
    hidden.push(d.colId!);
    needed -= neededWidth(d);
  }
  return hidden;
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
    ...(c.giveWay !== undefined ? { context: { giveWay: c.giveWay } } : {}),
    ...c.grid,
  }));
}
