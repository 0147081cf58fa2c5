import { maturityLabel } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import {
  EXEC_REPORT_FIELDS,
  fieldList,
  LEG_FIELDS,
  ORDER_FIELDS,
  PARTY_FIELDS,
  REQUEST_FIELDS,
  type AnyFieldTable,
  type FieldKind,
} from './fields';
import { ORDER_LIST_COLUMNS, type OrderListRows, type TextRow } from './list';

// GET /api/orders answers up to 100,000 orders (with their execution reports, well over 100 MB of
// JSON). Building an Order object per order (presentOrders) and letting the framework stringify the
// whole array held all of it in memory at once and cost seconds; this writes the same JSON text
// straight from the rows of listOrderRows, whose values already come in their JSON form (decimals
// without trailing zeros, ISO times), in chunks that go out while the rest is written. Keys, their
// order and every value are those of presentOrders: both follow the tables of fields.ts (a test pins
// the two together).

/**
 * How a column's text goes into the JSON: 'num' unquoted (integers), 'plain' quoted as is (decimals and
 * ISO times, which hold nothing to escape), 'str' as a JSON string; null is null for all three.
 */
type JsonKind = 'num' | 'plain' | 'str';

const JSON_KIND: { readonly [K in FieldKind]: JsonKind } = {
  int: 'num',
  string: 'str',
  decimal: 'plain',
  'decimal?': 'plain',
  time: 'plain',
  'time?': 'plain',
};

interface JsonField {
  /** `"key":`, after a comma unless it is the object's first key. */
  prefix: string;
  col: number;
  kind: JsonKind;
}

/** The fields of a table of fields.ts, read from the text rows of `rows`. */
function fieldsOf(rows: keyof typeof ORDER_LIST_COLUMNS, table: AnyFieldTable, first = true): JsonField[] {
  const names: readonly string[] = ORDER_LIST_COLUMNS[rows];
  return fieldList(table).map(({ key, column, kind }, i) => {
    const col = names.indexOf(column);
    if (col < 0) throw new Error(`order list: no column ${column} in ${rows}`);
    return { prefix: `${i === 0 && first ? '' : ','}${JSON.stringify(key)}:`, col, kind: JSON_KIND[kind] };
  });
}

const ORDER = fieldsOf('orders', ORDER_FIELDS);

// An order refused at intake carries its refusal last: `"refusal":{"ordRejReason":N,"text":"…"}`.
const REFUSED_REASON = ORDER_LIST_COLUMNS.orders.indexOf('refused_reason');
const REFUSED_TEXT = ORDER_LIST_COLUMNS.orders.indexOf('refused_text');

// A leg's last two keys are computed: contractMonth from the maturity here, orderQty by the SELECT.
const LEG_HEAD = fieldsOf('legs', LEG_FIELDS);
const LEG_MATURITY = ORDER_LIST_COLUMNS.legs.indexOf('leg_maturity_month_year');
const LEG_TAIL = fieldsOf('legs', { orderQty: ['orderqty', 'decimal'] }, false);

const PARTY = fieldsOf('parties', PARTY_FIELDS);
const REQUEST = fieldsOf('requests', REQUEST_FIELDS);
const EXEC_REPORT = fieldsOf('execReports', EXEC_REPORT_FIELDS);

// Characters JSON.stringify writes differently from the plain text: quote, backslash, control
// characters, and (lone) surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function jsonString(v: string): string {
  return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
}

function writeFields(row: TextRow, fields: readonly JsonField[]): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const v = row[f.col];
    out += f.prefix;
    if (v === null || v === undefined) out += 'null';
    else if (f.kind === 'str') out += jsonString(v);
    else if (f.kind === 'plain') out += `"${v}"`;
    else out += v;
  }
  return out;
}

/** Rows whose first column (the order id) is `id`, from `start` on; returns the index after them. */
function childrenOf(
  rows: readonly TextRow[],
  start: number,
  id: string,
  idNumber: number,
  each: (row: TextRow, first: boolean) => void,
): number {
  let i = start;
  // Children of orders not in the list (none, as they are read by the orders' ids) are passed over.
  while (i < rows.length && rows[i]![0] !== id && Number(rows[i]![0]) > idNumber) i++;
  let first = true;
  while (i < rows.length && rows[i]![0] === id) {
    each(rows[i]!, first);
    first = false;
    i++;
  }
  return i;
}

/** Size of the pieces handed to the reply, in characters. */
const CHUNK = 1 << 17;

/** Order list rows of orders refused at intake (no legs, parties or reports of their own) as Orders. */
export function refusedOrdersFromRows(rows: TextRow[]): Order[] {
  if (!rows.length) return [];
  return JSON.parse([...orderListJson({ orders: rows, legs: [], parties: [], requests: [], execReports: [] }, false)].join('')) as Order[];
}

/** The JSON array of presentOrders(listOrders(…), withExecReports), as consecutive pieces of text. */
export function* orderListJson(rows: OrderListRows, withExecReports: boolean): Generator<string, void, undefined> {
  let out = '[';
  let li = 0;
  let pi = 0;
  let ri = 0;
  let ei = 0;
  for (let i = 0; i < rows.orders.length; i++) {
    const o = rows.orders[i]!;
    const id = o[0]!;
    const idNumber = Number(id);
    out += i === 0 ? '{' : ',{';
    out += writeFields(o, ORDER);
    out += ',"legs":[';
    li = childrenOf(rows.legs, li, id, idNumber, (l, first) => {
      const month = maturityLabel(l[LEG_MATURITY]);
      out += `${first ? '{' : ',{'}${writeFields(l, LEG_HEAD)},"contractMonth":${month === null ? 'null' : jsonString(month)}${writeFields(l, LEG_TAIL)}}`;
    });
    out += '],"parties":[';
    pi = childrenOf(rows.parties, pi, id, idNumber, (p, first) => {
      out += `${first ? '{' : ',{'}${writeFields(p, PARTY)}}`;
    });
    out += '],"pendingRequest":';
    let request = 'null';
    ri = childrenOf(rows.requests, ri, id, idNumber, (r) => {
      request = `{${writeFields(r, REQUEST)}}`;
    });
    out += request;
    if (withExecReports) {
      out += ',"execReports":[';
      ei = childrenOf(rows.execReports, ei, id, idNumber, (e, first) => {
        out += `${first ? '{' : ',{'}${writeFields(e, EXEC_REPORT)}}`;
      });
      out += ']';
    }
    const refusedReason = o[REFUSED_REASON];
    if (refusedReason !== null && refusedReason !== undefined)
      out += `,"refusal":{"ordRejReason":${refusedReason},"text":${jsonString(o[REFUSED_TEXT] ?? '')}}`;
    out += '}';
    if (out.length >= CHUNK) {
      yield out;
      out = '';
    }
  }
  yield `${out}]`;
}
