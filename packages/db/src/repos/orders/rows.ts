import type { ExecutionReport } from '@fixdesk/protocol';

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

export interface OrderRow {
  id: number;
  brokerorderid: string;
  clordid: string;
  origclordid: string | null;
  client_connector_id: number;
  sendercompid: string;
  targetcompid: string;
  session_date: string;
  msg_type: 'D' | 'AB';
  symbol: string;
  security_type: string | null;
  maturity_month_year: string | null;
  side: '1' | '2';
  ordtype: '1' | '2';
  price: string | null;
  orderqty: string;
  timeinforce: string;
  exchange: string | null;
  currency: string | null;
  account: string | null;
  text: string | null;
  ordstatus: string;
  cumqty: string;
  leavesqty: string;
  avgpx: string;
  lastqty: string | null;
  lastpx: string | null;
  transacttime: Date;
  accepted_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface OrderLegRow {
  id: number;
  order_id: number;
  leg_index: number;
  leg_symbol: string;
  leg_security_type: string | null;
  leg_maturity_month_year: string | null;
  leg_side: '1' | '2';
  leg_ratio_qty: string;
  leg_price: string | null;
  leg_cumqty: string;
  leg_avgpx: string;
}

export interface OrderPartyRow {
  order_id: number;
  leg_index: number | null;
  position: number;
  party_id: string;
  party_id_source: string | null;
  party_role: number;
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

export interface OrderRequestRow {
  id: number;
  order_id: number;
  request_type: 'F' | 'G';
  clordid: string;
  origclordid: string;
  new_orderqty: string | null;
  new_price: string | null;
  new_ordtype: string | null;
  text: string | null;
  status: 'PENDING' | 'CONFIRMED' | 'REFUSED';
  decided_by: string | null;
  decided_at: Date | null;
  decision_text: string | null;
  created_at: Date;
}
