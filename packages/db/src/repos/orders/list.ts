import type { Queryable } from '../../db';
import { decimalText, intText, isoText } from '../sql-text';
import {
  EXEC_REPORT_FIELDS,
  fieldColumns,
  LEG_FIELDS,
  ORDER_FIELDS,
  PARTY_FIELDS,
  REQUEST_FIELDS,
  type AnyFieldTable,
  type FieldKind,
} from './fields';
import type { ExecReportRow, ListedOrderRow, OrderLegRow, OrderPartyRow, OrderRequestRow } from './rows';

// The order list read model: bundles of orders with their legs, parties, requests and reports, and
// the same as text rows for the API's JSON.

// ------------------------------------------------------------------------------------------------
// Reads

export interface OrderListFilter {
  from?: Date;
  to?: Date;
  statuses?: string[];
  sendercompid?: string;
  symbol?: string;
  limit?: number;
  /** With no range: today's orders (since `todayStart`) plus every open one. */
  todayStart?: Date;
  /**
   * Orders refused at intake (table refused_orders, status 8): listed with the others ('include', the
   * default, in id order among them), left out ('exclude') or alone ('only'). Only listOrderRows reads them.
   */
  refused?: 'include' | 'exclude' | 'only';
}

export interface OrderBundle {
  orders: ListedOrderRow[];
  legs: OrderLegRow[];
  parties: OrderPartyRow[];
  requests: OrderRequestRow[];
  execReports: ExecReportRow[];
}

/** The WHERE clause and parameters of an order list (orders aliased `o`); the limit is the last parameter. */
function orderListWhere(f: OrderListFilter): { where: string; limit: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.from || f.to) {
    if (f.from) where.push(`o.created_at >= ${p(f.from)}`);
    if (f.to) where.push(`o.created_at <= ${p(f.to)}`);
  } else if (f.todayStart) {
    where.push(`(o.created_at >= ${p(f.todayStart)} OR o.ordstatus IN ('A', '0', '1', '6', 'E'))`);
  }
  if (f.statuses?.length) where.push(`o.ordstatus = ANY(${p(f.statuses)}::text[])`);
  if (f.sendercompid) where.push(`o.sendercompid = ${p(f.sendercompid)}`);
  if (f.symbol) where.push(`o.symbol = ${p(f.symbol)}`);
  const limit = p(f.limit ?? 100_000);
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', limit, params };
}

export async function listOrders(db: Queryable, f: OrderListFilter, withExecReports: boolean): Promise<OrderBundle> {
  const { where, limit, params } = orderListWhere(f);
  const { rows: orders } = await db.query<OrderBundle['orders'][number]>(
    `SELECT o.*, o.session_date::text AS session_date, c.client_name, c.client_phone, c.company_name
       FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id
      ${where}
      ORDER BY o.id DESC LIMIT ${limit}`,
    params,
  );
  return withParts(db, orders, withExecReports);
}

/**
 * The orders of `ids` that exist, with their legs, parties and pending requests, in three reads
 * whatever their number (the other nodes' changes published to this node's browsers, a batch at a
 * time); without their reports.
 */
export async function getOrderBundles(db: Queryable, ids: readonly number[]): Promise<OrderBundle> {
  const { rows: orders } = await db.query<OrderBundle['orders'][number]>(
    `SELECT o.*, o.session_date::text AS session_date, c.client_name, c.client_phone, c.company_name
       FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id WHERE o.id = ANY($1::int8[])`,
    [[...ids]],
  );
  return withParts(db, orders, false);
}

/** Execution reports by id (those that exist), in id order. */
export async function getExecReports(db: Queryable, ids: readonly number[]): Promise<ExecReportRow[]> {
  const { rows } = await db.query<ExecReportRow>('SELECT * FROM execution_reports WHERE id = ANY($1::int8[]) ORDER BY id', [[...ids]]);
  return rows;
}

async function withParts(db: Queryable, orders: OrderBundle['orders'], withExecReports: boolean): Promise<OrderBundle> {
  const ids = orders.map((o) => o.id);
  if (!ids.length) return { orders, legs: [], parties: [], requests: [], execReports: [] };
  const [legs, parties, requests, execReports] = await Promise.all([
    db.query<OrderLegRow>('SELECT * FROM order_legs WHERE order_id = ANY($1::int8[]) ORDER BY order_id, leg_index', [ids]),
    db.query<OrderPartyRow>('SELECT * FROM order_parties WHERE order_id = ANY($1::int8[]) ORDER BY order_id, position', [ids]),
    db.query<OrderRequestRow>("SELECT * FROM order_requests WHERE order_id = ANY($1::int8[]) AND status = 'PENDING'", [ids]),
    withExecReports
      ? db.query<ExecReportRow>('SELECT * FROM execution_reports WHERE order_id = ANY($1::int8[]) ORDER BY order_id, id', [ids])
      : Promise.resolve({ rows: [] as ExecReportRow[], rowCount: 0 }),
  ]);
  return { orders, legs: legs.rows, parties: parties.rows, requests: requests.rows, execReports: execReports.rows };
}

// ---------------------------------------------------------------------------------------------
// The order list as text rows, for writing the API's JSON without building objects (see
// listOrderRows). Every value is a string or null, already in the form the JSON carries (sql-text.ts).

function columns<const N extends string>(cols: readonly (readonly [N, string])[]): { names: readonly N[]; sql: string } {
  return { names: cols.map(([n]) => n), sql: cols.map(([, e]) => e).join(', ') };
}

/** How a column of each kind is read into a text row: in the form the JSON carries (sql-text.ts). */
const TEXT_OF: { readonly [K in FieldKind]: (expr: string) => string } = {
  int: intText,
  string: (expr) => expr,
  decimal: decimalText,
  'decimal?': decimalText,
  time: isoText,
  'time?': isoText,
};

/** The columns of a table of fields.ts (each once, from `alias`) as text. */
function textColumns<T extends AnyFieldTable>(table: T, alias: (column: string) => string) {
  return fieldColumns(table).map((f) => [f.column, TEXT_OF[f.kind](alias(f.column))] as const);
}

/** The columns of a part of an order (from table `alias`): its order's id first, then the part's own. */
function partColumns<T extends AnyFieldTable>(table: T, alias: string) {
  return [
    ['order_id', intText(`${alias}.order_id`)] as const,
    ...textColumns(table, (column) => `${alias}.${column}`).filter(([column]) => column !== 'order_id'),
  ];
}

const CONNECTOR_NAMES: ReadonlySet<string> = new Set(['client_name', 'client_phone', 'company_name']);

/** Columns of the order rows of listOrderRows, in this order: the columns of ORDER_FIELDS, then the refusal's. */
const ORDER_LIST_ORDER = columns([
  ...textColumns(ORDER_FIELDS, (column) => `${CONNECTOR_NAMES.has(column) ? 'c' : 'o'}.${column}`),
  // Set only on orders refused at intake: their OrdRejReason (103) and Text (58).
  ['refused_reason', 'NULL::text'],
  ['refused_text', 'NULL::text'],
]);

/** A refused order's wire text as a decimal, when it is one. */
const wireDecimal = (col: string) => `CASE WHEN ${col} ~ '^-?[0-9]{1,30}([.][0-9]{1,30})?$' THEN ${decimalText(`${col}::numeric`)} END`;

/**
 * The same columns for an order refused at intake (refused_orders `r`, its connector `c` if known):
 * status Rejected, nothing filled, the terms as far as they are terms (a side or type outside the
 * codes stays as sent, a quantity or price that is no number is left out), no broker order id.
 */
const REFUSED_LIST_ORDER = columns<(typeof ORDER_LIST_ORDER.names)[number]>([
  ['id', intText('r.id')],
  ['brokerorderid', "''"],
  ['clordid', "coalesce(r.clordid, '')"],
  ['origclordid', 'NULL::text'],
  ['client_connector_id', 'coalesce(r.client_connector_id, 0)::text'],
  ['sendercompid', 'r.sendercompid'],
  ['targetcompid', 'r.targetcompid'],
  ['client_name', 'c.client_name'],
  ['client_phone', 'c.client_phone'],
  ['company_name', 'c.company_name'],
  ['msg_type', 'r.msg_type'],
  ['symbol', "coalesce(r.symbol, '')"],
  ['security_type', 'r.security_type'],
  ['maturity_month_year', 'r.maturity_month_year'],
  ['side', "coalesce(r.side, '')"],
  ['ordtype', "coalesce(r.ordtype, '')"],
  ['price', wireDecimal('r.price')],
  ['orderqty', `coalesce(${wireDecimal('r.orderqty')}, '0')`],
  ['timeinforce', "coalesce(r.timeinforce, '0')"],
  ['exchange', 'r.exchange'],
  ['currency', 'r.currency'],
  ['account', 'r.account'],
  ['text', 'r.text'],
  ['ordstatus', "'8'"],
  ['cumqty', "'0'"],
  ['leavesqty', "'0'"],
  ['avgpx', "'0'"],
  ['lastqty', 'NULL::text'],
  ['lastpx', 'NULL::text'],
  ['transacttime', isoText('coalesce(r.transacttime, r.created_at)')],
  ['accepted_by', 'NULL::text'],
  ['created_at', isoText('r.created_at')],
  ['updated_at', isoText('r.created_at')],
  ['refused_reason', intText('r.ordrejreason')],
  ['refused_text', 'r.reject_text'],
]);
if (REFUSED_LIST_ORDER.names.join() !== ORDER_LIST_ORDER.names.join())
  throw new Error('refused order columns differ from the order list columns');

/**
 * The SELECT of refused orders as order list rows (columns: ORDER_LIST_COLUMNS.orders), from the table
 * or from rows shaped like it (an insert's RETURNING *); the caller adds WHERE and ORDER BY.
 */
export function refusedOrderRowsSql(source = 'refused_orders'): string {
  return `SELECT ${REFUSED_LIST_ORDER.sql} FROM ${source} r LEFT JOIN client_connectors c ON c.id = r.client_connector_id`;
}

/** Columns of the leg rows; `orderqty` is the leg's quantity (ratio × the order's quantity). */
const ORDER_LIST_LEG = columns([...partColumns(LEG_FIELDS, 'l'), ['orderqty', decimalText('l.leg_ratio_qty * o.orderqty')]]);
const ORDER_LIST_PARTY = columns(partColumns(PARTY_FIELDS, 'p'));
const ORDER_LIST_REQUEST = columns(partColumns(REQUEST_FIELDS, 'r'));
const ORDER_LIST_EXEC_REPORT = columns(partColumns(EXEC_REPORT_FIELDS, 'e'));

/** Names of the columns of each kind of row of an OrderListRows, by position. */
export const ORDER_LIST_COLUMNS = {
  orders: ORDER_LIST_ORDER.names,
  legs: ORDER_LIST_LEG.names,
  parties: ORDER_LIST_PARTY.names,
  requests: ORDER_LIST_REQUEST.names,
  execReports: ORDER_LIST_EXEC_REPORT.names,
};

export type TextRow = (string | null)[];

/**
 * The same orders, legs, parties, pending requests and execution reports as listOrders, as rows of
 * text (columns: ORDER_LIST_COLUMNS). Orders come newest first (id descending); every child row starts
 * with its order's id, and the children come in the orders' order (legs by index, parties by
 * position, reports by id), so a writer walks them alongside the orders.
 */
export interface OrderListRows {
  orders: TextRow[];
  legs: TextRow[];
  parties: TextRow[];
  requests: TextRow[];
  execReports: TextRow[];
}

/** The refused orders of a list, newest first (they are never open: with no range, today's). */
async function listRefusedOrderRows(db: Queryable, f: OrderListFilter): Promise<TextRow[]> {
  if (f.refused === 'exclude' || (f.statuses?.length && !f.statuses.includes('8'))) return [];
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.from || f.to) {
    if (f.from) where.push(`r.created_at >= ${p(f.from)}`);
    if (f.to) where.push(`r.created_at <= ${p(f.to)}`);
  } else if (f.todayStart) {
    where.push(`r.created_at >= ${p(f.todayStart)}`);
  }
  if (f.sendercompid) where.push(`r.sendercompid = ${p(f.sendercompid)}`);
  if (f.symbol) where.push(`r.symbol = ${p(f.symbol)}`);
  const { rows } = await db.query<TextRow>(
    `${refusedOrderRowsSql()} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY r.id DESC LIMIT ${p(f.limit ?? 100_000)}`,
    params,
    { rowMode: 'array' },
  );
  return rows;
}

/** Two lists of order rows, each newest first (by id), merged newest first and cut at `limit`. */
function mergeById(a: TextRow[], b: TextRow[], limit: number): TextRow[] {
  if (!b.length) return a;
  if (!a.length) return b.slice(0, limit);
  const out: TextRow[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && Number(a[i]![0]) > Number(b[j]![0]))) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

export async function listOrderRows(db: Queryable, f: OrderListFilter, withExecReports: boolean): Promise<OrderListRows> {
  const { where, limit, params } = orderListWhere(f);
  const array = { rowMode: 'array' } as const;
  // The orders' own statement is the one it always was; refused orders are read apart (few, indexed by
  // time) and merged in by id.
  const [{ rows: accepted }, refused] = await Promise.all([
    f.refused === 'only'
      ? Promise.resolve({ rows: [] as TextRow[] })
      : db.query<TextRow>(
          `SELECT ${ORDER_LIST_ORDER.sql}
             FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id
            ${where}
            ORDER BY o.id DESC LIMIT ${limit}`,
          params,
          array,
        ),
    listRefusedOrderRows(db, f),
  ]);
  const orders = mergeById(accepted, refused, f.limit ?? 100_000);
  if (!orders.length) return { orders, legs: [], parties: [], requests: [], execReports: [] };
  // The ids as an array literal (their digits as read), not a JavaScript array for the driver to convert.
  let ids = '{';
  for (let i = 0; i < orders.length; i++) ids += (i ? ',' : '') + orders[i]![0]!;
  ids += '}';
  const [legs, parties, requests, execReports] = await Promise.all([
    db.query<TextRow>(
      `SELECT ${ORDER_LIST_LEG.sql} FROM order_legs l JOIN orders o ON o.id = l.order_id
        WHERE l.order_id = ANY($1::int8[]) ORDER BY l.order_id DESC, l.leg_index`,
      [ids],
      array,
    ),
    db.query<TextRow>(
      `SELECT ${ORDER_LIST_PARTY.sql} FROM order_parties p WHERE p.order_id = ANY($1::int8[]) ORDER BY p.order_id DESC, p.position`,
      [ids],
      array,
    ),
    db.query<TextRow>(
      `SELECT ${ORDER_LIST_REQUEST.sql} FROM order_requests r WHERE r.order_id = ANY($1::int8[]) AND r.status = 'PENDING' ORDER BY r.order_id DESC`,
      [ids],
      array,
    ),
    withExecReports
      ? db.query<TextRow>(
          `SELECT ${ORDER_LIST_EXEC_REPORT.sql} FROM execution_reports e WHERE e.order_id = ANY($1::int8[]) ORDER BY e.order_id DESC, e.id`,
          [ids],
          array,
        )
      : Promise.resolve({ rows: [] as TextRow[], rowCount: 0 }),
  ]);
  return { orders, legs: legs.rows, parties: parties.rows, requests: requests.rows, execReports: execReports.rows };
}

/** The id of the order a reference names: its id in digits, or its broker order id. */
async function orderIdOf(db: Queryable, ref: string): Promise<number | undefined> {
  const byId = /^\d+$/.test(ref);
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM orders WHERE ${byId ? 'id = $1::int8' : 'brokerorderid = $1'}`, [ref]);
  return rows[0]?.id;
}

export async function getOrderBundle(db: Queryable, idOrBrokerId: string | number): Promise<OrderBundle | undefined> {
  // A number is the order's id already (the publisher's case, after every change): no lookup.
  const id = typeof idOrBrokerId === 'number' ? idOrBrokerId : await orderIdOf(db, idOrBrokerId);
  if (id === undefined) return undefined;
  const [{ rows: orders }, legs, parties, requests, execReports] = await Promise.all([
    db.query<OrderBundle['orders'][number]>(
      `SELECT o.*, o.session_date::text AS session_date, c.client_name, c.client_phone, c.company_name
         FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id WHERE o.id = $1`,
      [id],
    ),
    db.query<OrderLegRow>('SELECT * FROM order_legs WHERE order_id = $1 ORDER BY leg_index', [id]),
    db.query<OrderPartyRow>('SELECT * FROM order_parties WHERE order_id = $1 ORDER BY position', [id]),
    db.query<OrderRequestRow>("SELECT * FROM order_requests WHERE order_id = $1 AND status = 'PENDING'", [id]),
    db.query<ExecReportRow>('SELECT * FROM execution_reports WHERE order_id = $1 ORDER BY id', [id]),
  ]);
  if (!orders.length) return undefined;
  return { orders, legs: legs.rows, parties: parties.rows, requests: requests.rows, execReports: execReports.rows };
}
