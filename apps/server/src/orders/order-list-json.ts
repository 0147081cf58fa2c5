import { ORDER_LIST_COLUMNS, type OrderListRows, type TextRow } from '@fixdesk/db';
import { maturityLabel } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';

// GET /api/orders answers up to 100,000 orders (with their execution reports, well over 100 MB of
// JSON). Building an Order object per order (presentOrders) and letting the framework stringify the
// whole array held all of it in memory at once and cost seconds; this writes the same JSON text
// straight from the rows of listOrderRows, whose values already come in their JSON form (decimals
// without trailing zeros, ISO times), in chunks that go out while the rest is written. Keys, their
// order and every value are those of presentOrders (a test pins the two together).

/**
 * How a column's text goes into the JSON: 'num' unquoted (integers), 'plain' quoted as is (decimals and
 * ISO times, which hold nothing to escape), 'str' as a JSON string; null is null for all three.
 */
type Kind = 'num' | 'plain' | 'str';

interface Field {
  /** `"key":`, after a comma unless it is the object's first key. */
  prefix: string;
  col: number;
  kind: Kind;
}

function fieldsOf(
  table: keyof typeof ORDER_LIST_COLUMNS,
  spec: readonly (readonly [key: string, column: string, kind: Kind])[],
  first = true,
): Field[] {
  const names: readonly string[] = ORDER_LIST_COLUMNS[table];
  return spec.map(([key, column, kind], i) => {
    const col = names.indexOf(column);
    if (col < 0) throw new Error(`order list: no column ${column} in ${table}`);
    return { prefix: `${i === 0 && first ? '' : ','}${JSON.stringify(key)}:`, col, kind };
  });
}

const ORDER = fieldsOf('orders', [
  ['id', 'id', 'num'],
  ['brokerorderid', 'brokerorderid', 'str'],
  ['orderid', 'brokerorderid', 'str'],
  ['clordid', 'clordid', 'str'],
  ['origclordid', 'origclordid', 'str'],
  ['client_connector_id', 'client_connector_id', 'num'],
  ['sendercompid', 'sendercompid', 'str'],
  ['targetcompid', 'targetcompid', 'str'],
  ['client_name', 'client_name', 'str'],
  ['client_phone', 'client_phone', 'str'],
  ['company_name', 'company_name', 'str'],
  ['msg_type', 'msg_type', 'str'],
  ['symbol', 'symbol', 'str'],
  ['security_type', 'security_type', 'str'],
  ['maturity_month_year', 'maturity_month_year', 'str'],
  ['side', 'side', 'str'],
  ['ordtype', 'ordtype', 'str'],
  ['price', 'price', 'plain'],
  ['orderqty', 'orderqty', 'plain'],
  ['order_qty', 'orderqty', 'plain'],
  ['timeinforce', 'timeinforce', 'str'],
  ['exchange', 'exchange', 'str'],
  ['currency', 'currency', 'str'],
  ['account', 'account', 'str'],
  ['text', 'text', 'str'],
  ['ordstatus', 'ordstatus', 'str'],
  ['cumqty', 'cumqty', 'plain'],
  ['leavesqty', 'leavesqty', 'plain'],
  ['avgpx', 'avgpx', 'plain'],
  ['lastqty', 'lastqty', 'plain'],
  ['lastpx', 'lastpx', 'plain'],
  ['transacttime', 'transacttime', 'plain'],
  ['accepted_by', 'accepted_by', 'str'],
  ['created_at', 'created_at', 'plain'],
  ['updated_at', 'updated_at', 'plain'],
]);

// An order refused at intake carries its refusal last: `"refusal":{"ordRejReason":N,"text":"…"}`.
const REFUSED_REASON = ORDER_LIST_COLUMNS.orders.indexOf('refused_reason');
const REFUSED_TEXT = ORDER_LIST_COLUMNS.orders.indexOf('refused_text');

// contractMonth (between ratio and orderQty) is derived from the maturity here.
const LEG_HEAD = fieldsOf('legs', [
  ['legIndex', 'leg_index', 'num'],
  ['legSymbol', 'leg_symbol', 'str'],
  ['legSecurityType', 'leg_security_type', 'str'],
  ['legMaturityMonthYear', 'leg_maturity_month_year', 'str'],
  ['legSide', 'leg_side', 'str'],
  ['legRatioQty', 'leg_ratio_qty', 'plain'],
  ['legPrice', 'leg_price', 'plain'],
  ['legCumQty', 'leg_cumqty', 'plain'],
  ['legAvgPx', 'leg_avgpx', 'plain'],
  ['symbol', 'leg_symbol', 'str'],
  ['side', 'leg_side', 'str'],
  ['ratio', 'leg_ratio_qty', 'plain'],
]);
const LEG_MATURITY = ORDER_LIST_COLUMNS.legs.indexOf('leg_maturity_month_year');
const LEG_TAIL = fieldsOf('legs', [['orderQty', 'orderqty', 'plain']], false);

const PARTY = fieldsOf('parties', [
  ['partyID', 'party_id', 'str'],
  ['partyIDSource', 'party_id_source', 'str'],
  ['partyRole', 'party_role', 'num'],
  ['legIndex', 'leg_index', 'num'],
]);

const REQUEST = fieldsOf('requests', [
  ['id', 'id', 'num'],
  ['request_type', 'request_type', 'str'],
  ['clordid', 'clordid', 'str'],
  ['origclordid', 'origclordid', 'str'],
  ['new_orderqty', 'new_orderqty', 'plain'],
  ['new_price', 'new_price', 'plain'],
  ['new_ordtype', 'new_ordtype', 'str'],
  ['text', 'text', 'str'],
  ['status', 'status', 'str'],
  ['decided_by', 'decided_by', 'str'],
  ['decided_at', 'decided_at', 'plain'],
  ['decision_text', 'decision_text', 'str'],
  ['created_at', 'created_at', 'plain'],
]);

const EXEC_REPORT = fieldsOf('execReports', [
  ['id', 'id', 'num'],
  ['order_id', 'order_id', 'num'],
  ['execid', 'execid', 'str'],
  ['clordid', 'clordid', 'str'],
  ['origclordid', 'origclordid', 'str'],
  ['orderid', 'orderid', 'str'],
  ['exectype', 'exectype', 'str'],
  ['ordstatus', 'ordstatus', 'str'],
  ['side', 'side', 'str'],
  ['symbol', 'symbol', 'str'],
  ['orderqty', 'orderqty', 'plain'],
  ['price', 'price', 'plain'],
  ['lastqty', 'lastqty', 'plain'],
  ['lastpx', 'lastpx', 'plain'],
  ['cumqty', 'cumqty', 'plain'],
  ['avgpx', 'avgpx', 'plain'],
  ['leavesqty', 'leavesqty', 'plain'],
  ['legIndex', 'leg_index', 'num'],
  ['ordrejreason', 'ordrejreason', 'num'],
  ['text', 'text', 'str'],
  ['transacttime', 'transacttime', 'plain'],
  ['timestamp', 'created_at', 'plain'],
]);

// Characters JSON.stringify writes differently from the plain text: quote, backslash, control
// characters, and (lone) surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function jsonString(v: string): string {
  return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
}

function writeFields(row: TextRow, fields: readonly Field[]): string {
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
