import type { ColDef } from 'ag-grid-community';

/** The admin grids' status colours: on (Active, Enabled, Logged on), off, and a stop or a fault. */
export const STATUS_COLOURS = { on: '#2b8a3e', off: '#868e96', alert: '#c92a2a' } as const;

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
