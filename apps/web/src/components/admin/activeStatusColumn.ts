import type { ColDef } from 'ag-grid-community';

/** The admin grids' status colours: on (Active, Enabled, Logged on), off, a stop or a fault, and done (ended as it should). */
export const STATUS_COLOURS = { on: '#2b8a3e', off: '#868e96', alert: '#c92a2a', done: '#495057' } as const;

/**
 * The Active/Inactive cell of every admin grid: the word, green when on and grey when off, bold. A
 * grid whose rows are enabled rather than active names its own words and header.
 */
export function activeStatusColumn<T>({
  isActive,
  width,
  headerName = 'Status',
  colId = 'status',
  words = ['Active', 'Inactive'],
}: {
  isActive: (row: T) => boolean;
  width: number;
  headerName?: string;
  colId?: string;
  words?: readonly [on: string, off: string];
}): ColDef<T> {
  return {
    headerName,
    colId,
    width,
    valueGetter: (p) => (p.data ? words[isActive(p.data) ? 0 : 1] : words[1]),
    cellStyle: (p) => ({ color: p.value === words[0] ? STATUS_COLOURS.on : STATUS_COLOURS.off, fontWeight: 600 }),
  };
}

/** A Yes/No column of the FIX specifications' mandatory flag: Yes in the alert colour and bold, No grey. */
export function mandatoryColumn<T>({
  headerName,
  field,
  width,
}: {
  headerName: string;
  field: ColDef<T>['field'];
  width: number;
}): ColDef<T> {
  return {
    headerName,
    field,
    width,
    // Not a boolean column to the grid: it would draw its own checkbox and never show these words.
    cellDataType: false,
    valueFormatter: (p) => (p.value ? 'Yes' : 'No'),
    cellStyle: (p) => ({ color: p.value ? STATUS_COLOURS.alert : STATUS_COLOURS.off, fontWeight: p.value ? 600 : 400 }),
  };
}
