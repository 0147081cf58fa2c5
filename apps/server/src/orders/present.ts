import type { ExecReportRow, OrderBundle, OrderLegRow, OrderPartyRow, OrderRequestRow } from '@fixdesk/db';
import { Decimal, maturityLabel } from '@fixdesk/domain';
import type { ExecutionReport, Order, OrderLeg, OrderParty, OrderRequest } from '@fixdesk/protocol';

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
const dec = (v: string | null | undefined): string | null => (v === null || v === undefined ? null : trimDecimal(v));
const decReq = (v: string) => trimDecimal(v);

export function presentExecReport(e: ExecReportRow): ExecutionReport {
  return {
    id: e.id,
    order_id: e.order_id,
    execid: e.execid,
    clordid: e.clordid,
    origclordid: e.origclordid,
    orderid: e.orderid,
    exectype: e.exectype,
    ordstatus: e.ordstatus,
    side: e.side,
    symbol: e.symbol,
    orderqty: dec(e.orderqty),
    price: dec(e.price),
    lastqty: dec(e.lastqty),
    lastpx: dec(e.lastpx),
    cumqty: decReq(e.cumqty),
    avgpx: decReq(e.avgpx),
    leavesqty: decReq(e.leavesqty),
    legIndex: e.leg_index,
    ordrejreason: e.ordrejreason,
    text: e.text,
    transacttime: e.transacttime.toISOString(),
    timestamp: e.created_at.toISOString(),
  };
}

function presentLeg(l: OrderLegRow, orderQty: string): OrderLeg {
  return {
    legIndex: l.leg_index,
    legSymbol: l.leg_symbol,
    legSecurityType: l.leg_security_type,
    legMaturityMonthYear: l.leg_maturity_month_year,
    legSide: l.leg_side,
    legRatioQty: decReq(l.leg_ratio_qty),
    legPrice: dec(l.leg_price),
    legCumQty: decReq(l.leg_cumqty),
    legAvgPx: decReq(l.leg_avgpx),
    symbol: l.leg_symbol,
    side: l.leg_side,
    ratio: decReq(l.leg_ratio_qty),
    contractMonth: maturityLabel(l.leg_maturity_month_year),
    orderQty: Decimal.from(l.leg_ratio_qty).mul(orderQty).stripTrailingZeros().toString(),
  };
}

function presentParty(p: OrderPartyRow): OrderParty {
  return { partyID: p.party_id, partyIDSource: p.party_id_source, partyRole: p.party_role, legIndex: p.leg_index };
}

function presentRequest(r: OrderRequestRow): OrderRequest {
  return {
    id: r.id,
    request_type: r.request_type,
    clordid: r.clordid,
    origclordid: r.origclordid,
    new_orderqty: dec(r.new_orderqty),
    new_price: dec(r.new_price),
    new_ordtype: r.new_ordtype,
    text: r.text,
    status: r.status,
    decided_by: r.decided_by,
    decided_at: r.decided_at?.toISOString() ?? null,
    decision_text: r.decision_text,
    created_at: r.created_at.toISOString(),
  };
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
    const orderqty = decReq(o.orderqty);
    const req = requests.get(o.id);
    const order: Order = {
      id: o.id,
      brokerorderid: o.brokerorderid,
      orderid: o.brokerorderid,
      clordid: o.clordid,
      origclordid: o.origclordid,
      client_connector_id: o.client_connector_id,
      sendercompid: o.sendercompid,
      targetcompid: o.targetcompid,
      client_name: o.client_name,
      client_phone: o.client_phone,
      company_name: o.company_name,
      msg_type: o.msg_type,
      symbol: o.symbol,
      security_type: o.security_type,
      maturity_month_year: o.maturity_month_year,
      side: o.side,
      ordtype: o.ordtype,
      price: dec(o.price),
      orderqty,
      order_qty: orderqty,
      timeinforce: o.timeinforce,
      exchange: o.exchange,
      currency: o.currency,
      account: o.account,
      text: o.text,
      ordstatus: o.ordstatus,
      cumqty: decReq(o.cumqty),
      leavesqty: decReq(o.leavesqty),
      avgpx: decReq(o.avgpx),
      lastqty: dec(o.lastqty),
      lastpx: dec(o.lastpx),
      transacttime: o.transacttime.toISOString(),
      accepted_by: o.accepted_by,
      created_at: o.created_at.toISOString(),
      updated_at: o.updated_at.toISOString(),
      legs: (legs.get(o.id) ?? []).map((l) => presentLeg(l, o.orderqty)),
      parties: (parties.get(o.id) ?? []).map(presentParty),
      pendingRequest: req ? presentRequest(req) : null,
    };
    if (ers) order.execReports = (ers.get(o.id) ?? []).map(presentExecReport);
    return order;
  });
}
