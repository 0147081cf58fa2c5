import type { ExecutionReport, Order, OrderLeg, OrderParty, OrderRequest } from '@fixdesk/protocol';

// The rows of the order tables as they are read, and a new order as the intake stores it.
// Decimal columns travel as strings in both directions.

export interface NewOrderLeg {
  legIndex: number;
  symbol: string;
  securityType: string | null;
  maturityMonthYear: string | null;
  side: '1' | '2';
  ratioQty: string;
  price: string | null;
}

export interface NewOrderParty {
  legIndex: number | null;
  partyId: string;
  partyIdSource: string | null;
  partyRole: number;
}

export interface NewOrderRecord {
  clordid: string;
  clientConnectorId: number;
  sendercompid: string;
  targetcompid: string;
  sessionDate: string;
  msgType: 'D' | 'AB';
  symbol: string;
  securityType: string | null;
  maturityMonthYear: string | null;
  side: '1' | '2';
  ordType: '1' | '2';
  price: string | null;
  orderQty: string;
  timeInForce: string;
  exchange: string | null;
  currency: string | null;
  account: string | null;
  text: string | null;
  transactTime: Date;
  legs: NewOrderLeg[];
  parties: NewOrderParty[];
}

/**
 * An order as stored: the protocol's Order fields under their column names (orders/present.ts presents
 * it), with its times as dates and its trading day; the connector's names and the nested parts are read
 * apart.
 */
export type OrderRow = Pick<
  Order,
  | 'id'
  | 'brokerorderid'
  | 'clordid'
  | 'origclordid'
  | 'client_connector_id'
  | 'sendercompid'
  | 'targetcompid'
  | 'msg_type'
  | 'symbol'
  | 'security_type'
  | 'maturity_month_year'
  | 'side'
  | 'ordtype'
  | 'price'
  | 'orderqty'
  | 'timeinforce'
  | 'exchange'
  | 'currency'
  | 'account'
  | 'text'
  | 'ordstatus'
  | 'cumqty'
  | 'leavesqty'
  | 'avgpx'
  | 'lastqty'
  | 'lastpx'
  | 'accepted_by'
> & {
  session_date: string;
  transacttime: Date;
  created_at: Date;
  updated_at: Date;
};

/** An order row with its client connector's names, as the order list and the published orders read it. */
export type ListedOrderRow = OrderRow & Pick<Order, 'client_name' | 'client_phone' | 'company_name'>;

// The leg and party columns are snake_case (leg_cumqty, party_id) where the protocol's keys are
// camelCase (legCumQty, partyID), and no rule turns one into the other: these rows name their columns
// here, each typed as the protocol field it is presented as, plus the columns the protocol leaves out.

export interface OrderLegRow {
  id: number;
  order_id: number;
  leg_index: OrderLeg['legIndex'];
  leg_symbol: OrderLeg['legSymbol'];
  leg_security_type: OrderLeg['legSecurityType'];
  leg_maturity_month_year: OrderLeg['legMaturityMonthYear'];
  leg_side: OrderLeg['legSide'];
  leg_ratio_qty: OrderLeg['legRatioQty'];
  leg_price: OrderLeg['legPrice'];
  leg_cumqty: OrderLeg['legCumQty'];
  leg_avgpx: OrderLeg['legAvgPx'];
}

export interface OrderPartyRow {
  order_id: number;
  leg_index: OrderParty['legIndex'];
  /** The party's place among its order's parties. */
  position: number;
  party_id: OrderParty['partyID'];
  party_id_source: OrderParty['partyIDSource'];
  party_role: OrderParty['partyRole'];
}

/**
 * An execution report as stored: the protocol's ExecutionReport fields under their column names (orders/present.ts
 * presents it), with its times as dates and what the outbox needs (the sender, the sequence number sent and when).
 */
export type ExecReportRow = Pick<
  ExecutionReport,
  | 'id'
  | 'order_id'
  | 'execid'
  | 'clordid'
  | 'origclordid'
  | 'orderid'
  | 'exectype'
  | 'ordstatus'
  | 'side'
  | 'symbol'
  | 'orderqty'
  | 'price'
  | 'lastqty'
  | 'lastpx'
  | 'cumqty'
  | 'avgpx'
  | 'leavesqty'
  | 'ordrejreason'
  | 'text'
> & {
  leg_index: ExecutionReport['legIndex'];
  transacttime: Date;
  created_at: Date;
  sendercompid: string | null;
  sent_seq_num: number | null;
  sent_at: Date | null;
  /** The executing trader (PartyRole 12) of a report a broker-type user's action produced: id, FIX PartyIDSource, full name. */
  executing_trader_id?: string | null;
  executing_trader_source?: string | null;
  executing_trader_name?: string | null;
};

/** A cancel or replace request as stored: the protocol's OrderRequest fields, its order and its times as dates. */
export type OrderRequestRow = Pick<
  OrderRequest,
  | 'id'
  | 'request_type'
  | 'clordid'
  | 'origclordid'
  | 'new_orderqty'
  | 'new_price'
  | 'new_ordtype'
  | 'text'
  | 'status'
  | 'decided_by'
  | 'decision_text'
> & {
  order_id: number;
  decided_at: Date | null;
  created_at: Date;
};
