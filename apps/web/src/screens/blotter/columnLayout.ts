import type { ColumnState } from 'ag-grid-community';

/**
 * The Orders grid's column layout (order, widths, hidden columns, sort) as the broker left it,
 * remembered per user in this browser. Only what the broker can change is kept; columns the saved
 * layout does not know (added by a later release) keep their defaults.
 */
export interface SavedColumn {
  colId: string;
  width?: number;
  hide?: boolean;
  sort?: 'asc' | 'desc' | null;
  sortIndex?: number | null;
}

const VERSION = 1;

export const columnLayoutKey = (userId: number | string) => `fixdesk.blotter.${userId}.orderColumns`;

/** The columns' state to keep (pure: unit-tested). */
export function toSavedLayout(state: readonly ColumnState[]): SavedColumn[] {
  return state.map((c) => ({
    colId: c.colId,
    ...(typeof c.width === 'number' ? { width: c.width } : {}),
    hide: c.hide ?? false,
    sort: c.sort ?? null,
    sortIndex: c.sortIndex ?? null,
  }));
}

/** A saved layout read back: only known columns, well-formed values; null when there is nothing usable. */
export function parseSavedLayout(text: string | null, knownColumns: readonly string[]): SavedColumn[] | null {
  if (!text) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (
    typeof data !== 'object' ||
    data === null ||
    (data as { v?: unknown }).v !== VERSION ||
    !Array.isArray((data as { columns?: unknown }).columns)
  )
    return null;
  const known = new Set(knownColumns);
  const seen = new Set<string>();
  const columns: SavedColumn[] = [];
  for (const raw of (data as { columns: unknown[] }).columns) {
    if (typeof raw !== 'object' || raw === null) continue;
    const c = raw as Record<string, unknown>;
    if (typeof c.colId !== 'string' || !known.has(c.colId) || seen.has(c.colId)) continue;
    seen.add(c.colId);
    const col: SavedColumn = {
      colId: c.colId,
      hide: c.hide === true,
      sort: c.sort === 'asc' || c.sort === 'desc' ? c.sort : null,
      sortIndex: typeof c.sortIndex === 'number' ? c.sortIndex : null,
    };
    if (typeof c.width === 'number' && Number.isFinite(c.width) && c.width >= 20 && c.width <= 2000) col.width = Math.round(c.width);
    columns.push(col);
  }
  return columns.length > 0 ? columns : null;
}

export function serializeLayout(columns: readonly SavedColumn[]): string {
  return JSON.stringify({ v: VERSION, columns });
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function loadColumnLayout(key: string, knownColumns: readonly string[]): SavedColumn[] | null {
  return parseSavedLayout(storage()?.getItem(key) ?? null, knownColumns);
}

export function saveColumnLayout(key: string, state: readonly ColumnState[]): void {
  try {
    storage()?.setItem(key, serializeLayout(toSavedLayout(state)));
  } catch {
    // A full or blocked storage: the layout simply is not remembered.
  }
}

export function clearColumnLayout(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // As above.
  }
}
