import { Decimal, maturityLabel } from '@fixdesk/domain';
import type { ExecutionReport, Order, OrderLeg, OrderParty, OrderRequest } from '@fixdesk/protocol';
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
import type { OrderBundle } from './list';
import type { ExecReportRow, ListedOrderRow, OrderLegRow, OrderPartyRow, OrderRequestRow } from './rows';

// An order's object rows (listOrders, getOrderBundles, getOrderBundle) in the protocol's shape, field
// by field as the tables of fields.ts say.

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * A decimal without trailing zeros. Database and wire text ('27000.500') is trimmed as text (lists of
 * 100,000 orders present millions of these); anything else goes through Decimal.
 */
export function trimDecimal(v: string): string {
  if (!PLAIN_DECIMAL.test(v)) return Decimal.from(v).stripTrailingZeros().toString();
  let start = v.charCodeAt(0) === 45 ? 1 : 0;
  // Leading zeros of the integer part ('007.50'): Decimal drops them.
  while (start < v.length - 1 && v.charCodeAt(start) === 48 && v.charCodeAt(start + 1) !== 46) start++;
  let end = v.length;
  if (v.includes('.')) {
    while (v.charCodeAt(end - 1) === 48) end--;
    if (v.charCodeAt(end - 1) === 46) end--;
  }
  const digits = v.slice(start, end);
  if (digits === '0') return '0';
  return v.charCodeAt(0) === 45 ? `-${digits}` : digits;
}

/** How a column's value of each kind becomes the protocol's; none: as it is. */
const CONVERT: { readonly [K in FieldKind]: ((v: never) => unknown) | undefined } = {
  int: undefined,
  string: undefined,
  decimal: trimDecimal,
  'decimal?': (v: string | null | undefined) => (v === null || v === undefined ? null : trimDecimal(v)),
  time: (v: Date) => v.toISOString(),
  'time?': (v: Date | null | undefined) => v?.toISOString() ?? null,
};

/**
 * The function presenting a row by a table, compiled once from it: one object literal of the table's
 * keys in their order, each the row's column as it is or through its kind's conversion. The keys and
 * columns are the constants of fields.ts, written in as JSON strings. A loop over the fields per row
 * built each object a key at a time and made presentOrders twice as slow, and it is on the order
 * intake's path: every committed batch is presented.
 */
function presenter<Row, Wire>(table: AnyFieldTable): (row: Row) => Wire {
  const fields = fieldList(table);
  const converts = fields.map((f) => CONVERT[f.kind]);
  const values = fields.map((f, i) => {
    const column = `row[${JSON.stringify(f.column)}]`;
    return `${JSON.stringify(f.key)}: ${converts[i] ? `convert[${i}](${column})` : column}`;
  });
  const compile = new Function('convert', `return (row) => ({ ${values.join(', ')} });`) as (
    convert: typeof converts,
  ) => (row: Row) => Wire;
  return compile(converts);
}

export const presentExecReport = presenter<ExecReportRow, ExecutionReport>(EXEC_REPORT_FIELDS);
const presentOrderFields = presenter<ListedOrderRow, Order>(ORDER_FIELDS);
const presentLegFields = presenter<OrderLegRow, OrderLeg>(LEG_FIELDS);
const presentParty = presenter<OrderPartyRow, OrderParty>(PARTY_FIELDS);
const presentRequest = presenter<OrderRequestRow, OrderRequest>(REQUEST_FIELDS);

function presentLeg(l: OrderLegRow, orderQty: string): OrderLeg {
  const leg = presentLegFields(l);
  leg.contractMonth = maturityLabel(l.leg_maturity_month_year);
  leg.orderQty = Decimal.from(l.leg_ratio_qty).mul(orderQty).stripTrailingZeros().toString();
  return leg;
}

function groupBy<T extends { order_id: number }>(rows: T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    let list = m.get(r.order_id);
    if (!list) m.set(r.order_id, (list = []));
    list.push(r);
  }
  return m;
}

export function presentOrders(b: OrderBundle, withExecReports: boolean): Order[] {
  const legs = groupBy(b.legs);
  const parties = groupBy(b.parties);
  const requests = new Map(b.requests.map((r) => [r.order_id, r]));
  const ers = withExecReports ? groupBy(b.execReports) : undefined;
  return b.orders.map((o) => {
    const order = presentOrderFields(o);
    order.legs = (legs.get(o.id) ?? []).map((l) => presentLeg(l, o.orderqty));
    order.parties = (parties.get(o.id) ?? []).map(presentParty);
    const req = requests.get(o.id);
    order.pendingRequest = req ? presentRequest(req) : null;
    if (ers) order.execReports = (ers.get(o.id) ?? []).map(presentExecReport);
    return order;
  });
}
