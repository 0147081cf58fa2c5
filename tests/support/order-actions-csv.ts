// The Order Actions CSV file as a reader sees it: the columns it must have, in order, and its rows.
// Shared by the file's unit test (packages/client's writer), the export route's test and the browser
// download's test, so the three check one list.
import assert from 'node:assert/strict';
import Papa from 'papaparse';

/** The table's columns, with the time in UTC. */
export const ORDER_ACTIONS_CSV_HEADER = [
  'ID',
  'Timestamp (UTC)',
  'Client',
  'Broker Order ID',
  'Client Order ID',
  'Symbol',
  'Side',
  'Order Qty',
  'Order Price',
  'Action Type',
  'User ID',
  'Fill Qty',
  'Fill Price',
  'Notes',
  'Action Data',
] as const;

export type OrderActionsCsvColumn = (typeof ORDER_ACTIONS_CSV_HEADER)[number];

/**
 * Reads an Order Actions CSV (a leading BOM dropped, blank lines skipped), asserts its header is
 * ORDER_ACTIONS_CSV_HEADER, and returns its rows with a reader of one row's cell by column name.
 */
export function readOrderActionsCsv(text: string): {
  rows: string[][];
  cell: (row: readonly string[], column: OrderActionsCsvColumn) => string | undefined;
} {
  const [head, ...rows] = Papa.parse<string[]>(text.replace(/^\ufeff/, ''), { skipEmptyLines: true }).data;
  assert.deepEqual(head, ORDER_ACTIONS_CSV_HEADER, 'the Order Actions file header');
  return { rows, cell: (row, column) => row[ORDER_ACTIONS_CSV_HEADER.indexOf(column)] };
}
