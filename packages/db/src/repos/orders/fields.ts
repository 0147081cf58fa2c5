import type { ExecutionReport, Order, OrderLeg, OrderParty, OrderRequest } from '@fixdesk/protocol';
import type { ExecReportRow, OrderLegRow, ListedOrderRow, OrderPartyRow, OrderRequestRow } from './rows';

// The one mapping of each part of an order from its columns to the protocol's keys: per protocol key
// (in the order the JSON carries them), the column it comes from and how its value is written. The
// object rows (present.ts), the text rows' SELECT lists (list.ts) and the order list's JSON
// (list-json.ts) are all read from these tables. Each is typed against the protocol's type and the
// row's: a protocol key missing or extra, a column the row does not have, or a kind that does not fit
// the column or the key is a compile error.

/**
 * How a column becomes its protocol value: 'int' and 'string' as they are; 'decimal' as its digits
 * without trailing zeros ('decimal?' when the column may be null); 'time' as ISO 8601 UTC text
 * (Date#toISOString; 'time?' when the column may be null).
 */
export type FieldKind = 'int' | 'string' | 'decimal' | 'decimal?' | 'time' | 'time?';

/** What a column of each kind holds in an object row, and what its protocol value is. */
interface KindTypes {
  int: { column: number | null; wire: number | null };
  string: { column: string | null; wire: string | null };
  decimal: { column: string; wire: string };
  'decimal?': { column: string | null; wire: string | null };
  time: { column: Date; wire: string };
  'time?': { column: Date | null; wire: string | null };
}

/** The value a kind makes of a column: ints and strings keep their own (literal) type. */
type WireOf<K extends FieldKind, Column> = K extends 'int' | 'string' ? Column : KindTypes[K]['wire'];

/** Every [column, kind] of `Row` that can give a protocol value of type `Wire`. */
type FieldOf<Wire, Row> = {
  [C in keyof Row & string]: {
    [K in FieldKind]: [Row[C]] extends [KindTypes[K]['column']] ? ([WireOf<K, Row[C]>] extends [Wire] ? readonly [C, K] : never) : never;
  }[FieldKind];
}[keyof Row & string];

/** A mapping table: each key of `Wire` (all of them, and no other) from a column of `Row`. */
type FieldTable<Wire, Row> = { readonly [K in keyof Wire]-?: FieldOf<Wire[K], Row> };

/** An order's own fields; its parts (legs, parties, request, reports) and the refusal are written apart. */
type OrderScalars = Omit<Order, 'legs' | 'parties' | 'pendingRequest' | 'execReports' | 'refusal' | 'reportText'>;
/** A leg's stored fields; contractMonth (from the maturity) and orderQty (ratio × the order's quantity), its last two keys, are computed. */
type LegScalars = Omit<OrderLeg, 'contractMonth' | 'orderQty'>;

export const ORDER_FIELDS = {
  id: ['id', 'int'],
  brokerorderid: ['brokerorderid', 'string'],
  orderid: ['brokerorderid', 'string'],
  clordid: ['clordid', 'string'],
  origclordid: ['origclordid', 'string'],
  client_connector_id: ['client_connector_id', 'int'],
  sendercompid: ['sendercompid', 'string'],
  targetcompid: ['targetcompid', 'string'],
  client_name: ['client_name', 'string'],
  client_phone: ['client_phone', 'string'],
  company_name: ['company_name', 'string'],
  msg_type: ['msg_type', 'string'],
  symbol: ['symbol', 'string'],
  security_type: ['security_type', 'string'],
  maturity_month_year: ['maturity_month_year', 'string'],
  side: ['side', 'string'],
  ordtype: ['ordtype', 'string'],
  price: ['price', 'decimal?'],
  orderqty: ['orderqty', 'decimal'],
  order_qty: ['orderqty', 'decimal'],
  timeinforce: ['timeinforce', 'string'],
  exchange: ['exchange', 'string'],
  currency: ['currency', 'string'],
  account: ['account', 'string'],
  text: ['text', 'string'],
  ordstatus: ['ordstatus', 'string'],
  cumqty: ['cumqty', 'decimal'],
  leavesqty: ['leavesqty', 'decimal'],
  avgpx: ['avgpx', 'decimal'],
  lastqty: ['lastqty', 'decimal?'],
  lastpx: ['lastpx', 'decimal?'],
  transacttime: ['transacttime', 'time'],
  accepted_by: ['accepted_by', 'string'],
  created_at: ['created_at', 'time'],
  updated_at: ['updated_at', 'time'],
} as const satisfies FieldTable<OrderScalars, ListedOrderRow>;

export const LEG_FIELDS = {
  legIndex: ['leg_index', 'int'],
  legSymbol: ['leg_symbol', 'string'],
  legSecurityType: ['leg_security_type', 'string'],
  legMaturityMonthYear: ['leg_maturity_month_year', 'string'],
  legSide: ['leg_side', 'string'],
  legRatioQty: ['leg_ratio_qty', 'decimal'],
  legPrice: ['leg_price', 'decimal?'],
  legCumQty: ['leg_cumqty', 'decimal'],
  legAvgPx: ['leg_avgpx', 'decimal'],
  symbol: ['leg_symbol', 'string'],
  side: ['leg_side', 'string'],
  ratio: ['leg_ratio_qty', 'decimal'],
} as const satisfies FieldTable<LegScalars, OrderLegRow>;

export const PARTY_FIELDS = {
  partyID: ['party_id', 'string'],
  partyIDSource: ['party_id_source', 'string'],
  partyRole: ['party_role', 'int'],
  legIndex: ['leg_index', 'int'],
} as const satisfies FieldTable<OrderParty, OrderPartyRow>;

export const REQUEST_FIELDS = {
  id: ['id', 'int'],
  request_type: ['request_type', 'string'],
  clordid: ['clordid', 'string'],
  origclordid: ['origclordid', 'string'],
  new_orderqty: ['new_orderqty', 'decimal?'],
  new_price: ['new_price', 'decimal?'],
  new_ordtype: ['new_ordtype', 'string'],
  text: ['text', 'string'],
  status: ['status', 'string'],
  decided_by: ['decided_by', 'string'],
  decided_at: ['decided_at', 'time?'],
  decision_text: ['decision_text', 'string'],
  created_at: ['created_at', 'time'],
} as const satisfies FieldTable<OrderRequest, OrderRequestRow>;

export const EXEC_REPORT_FIELDS = {
  id: ['id', 'int'],
  order_id: ['order_id', 'int'],
  execid: ['execid', 'string'],
  clordid: ['clordid', 'string'],
  origclordid: ['origclordid', 'string'],
  orderid: ['orderid', 'string'],
  exectype: ['exectype', 'string'],
  ordstatus: ['ordstatus', 'string'],
  side: ['side', 'string'],
  symbol: ['symbol', 'string'],
  orderqty: ['orderqty', 'decimal?'],
  price: ['price', 'decimal?'],
  lastqty: ['lastqty', 'decimal?'],
  lastpx: ['lastpx', 'decimal?'],
  cumqty: ['cumqty', 'decimal'],
  avgpx: ['avgpx', 'decimal'],
  leavesqty: ['leavesqty', 'decimal'],
  legIndex: ['leg_index', 'int'],
  ordrejreason: ['ordrejreason', 'int'],
  text: ['text', 'string'],
  transacttime: ['transacttime', 'time'],
  timestamp: ['created_at', 'time'],
} as const satisfies FieldTable<ExecutionReport, ExecReportRow>;

/** Any of the tables above. */
export type AnyFieldTable = { readonly [key: string]: readonly [column: string, kind: FieldKind] };

/** One field of a table: the protocol key, its column and kind. */
interface Field {
  readonly key: string;
  readonly column: string;
  readonly kind: FieldKind;
}

/** A table's fields as a list, in its keys' order. */
export function fieldList(table: AnyFieldTable): readonly Field[] {
  return Object.entries(table).map(([key, [column, kind]]) => ({ key, column, kind }));
}

/** A table's columns, each once (with the kind they are read as), in the order of their first key. */
export function fieldColumns<T extends AnyFieldTable>(table: T): readonly (Field & { column: T[keyof T][0] })[] {
  const byColumn = new Map<string, Field>();
  for (const f of fieldList(table)) {
    const first = byColumn.get(f.column);
    if (!first) byColumn.set(f.column, f);
    else if (first.kind !== f.kind) throw new Error(`column ${f.column} read as ${first.kind} and as ${f.kind}`);
  }
  return [...byColumn.values()] as (Field & { column: T[keyof T][0] })[];
}
