import { formatFixTimestamp } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import { toCsvText } from '../../components/export/csv';
import { ORDER_COLUMNS, type OrderColumn } from './orderColumns';

const BY_ID = new Map(ORDER_COLUMNS.map((c) => [c.id, c]));

/**
 * The CSV of what the Orders grid shows: its shown columns in their order, its rows after the filters
 * and the sort, each cell from the same column table as the grid (the file's writer neutralises
 * formulas). Pure: unit-tested.
 */
export function ordersCsvText(columnIds: readonly string[], rows: readonly Order[]): string {
  const columns = columnIds.map((id) => BY_ID.get(id)).filter((c): c is OrderColumn => c !== undefined);
  return toCsvText(columns, rows);
}

/** blotter_orders_20260315-103001.csv (the time of the export, UTC). */
export function ordersCsvFileName(now = new Date()): string {
  return `blotter_orders_${formatFixTimestamp(now).replace(/:/g, '')}.csv`;
}
