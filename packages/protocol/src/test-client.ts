import { z } from 'zod';
import type { DecimalString } from './orders';

// The test-client service (spec 000 §7 "Test client service"): one simulated client FIX session per
// active client connector, controlled over HTTP on the connector's test_port (localhost only) or
// through the main server at TEST_CLIENT_PROXY_PREFIX/{comp_id}/... (signed-in broker or admin).

export const TEST_CLIENT_PROXY_PREFIX = '/test-client';

/** The proxy path of one client's control API, e.g. /test-client/SGX_CLIENT_1/send-order. */
export function testClientPath(compId: string, endpoint: TestClientEndpoint): string {
  return `${TEST_CLIENT_PROXY_PREFIX}/${encodeURIComponent(compId)}/${endpoint}`;
}

export type TestClientEndpoint =
  'status' | 'health' | 'connect' | 'disconnect' | 'send-order' | 'cancel-order' | 'replace-order' | 'orders';

/** Where the client is in its life: stopped by the user, trying to log on, logged on. */
export type TestClientState = 'stopped' | 'connecting' | 'logged_on';

export interface TestClientStatus {
  compId: string;
  /** Our acceptor's comp id: the TargetCompID the client sends to. */
  targetCompId: string;
  clientName: string | null;
  /** Started with /connect and not stopped since (it keeps reconnecting while running). */
  running: boolean;
  state: TestClientState;
  /** Logged on to the acceptor right now. */
  fixConnected: boolean;
  /** The connector's configured test_port. */
  testPort: number | null;
  /** The port the control API actually listens on (localhost), null when not listening. */
  listeningPort: number | null;
  /** Why the control port is not listening (port in use, disabled, no test_port). */
  portProblem: string | null;
  nextSenderMsgSeqNum: number;
  nextTargetMsgSeqNum: number;
  /** Orders this connector has in the order book, all days (the client order id rule counts them). */
  ordersFromSender: number;
  /** The next ClOrdID by the rule {execution_id_prefix}-{ordersFromSender + 1}.1 (spec 000 §9). */
  nextClOrdId: string;
  executionIdPrefix: string;
  counters: TestClientCounters;
  /** The last connection problem or logout reason, for the status line. */
  lastEvent: string | null;
  lastEventAt: string | null;
}

/** The FIX Client Simulator's counters, over the orders this client session sent. */
export interface TestClientCounters {
  /** Orders sent (35=D and 35=AB). */
  sent: number;
  /** Not yet filled or finished: sent, pending new, accepted, partially filled, pending cancel/replace. */
  pending: number;
  /** Fully filled (OrdStatus 2). */
  filled: number;
  /** Finished: done for day, canceled, rejected or expired. */
  completed: number;
}

export interface TestClientHealth {
  status: 'ok';
  compId: string;
  fixConnected: boolean;
  running: boolean;
}

/** Answer of /connect and /disconnect. */
export interface TestClientControlResponse {
  success: boolean;
  message?: string;
  error?: string;
  status: TestClientStatus;
}

// ------------------------------------------------------------------------------------------------
// Sending

/** The largest raw message the control API takes. */
const TEST_CLIENT_MAX_MESSAGE_BYTES = 32 * 1024;

export const SendOrderSchema = z.strictObject({
  /** A complete FIX message, fields separated by SOH or '|'; its session header is replaced before sending. */
  fixMessage: z
    .string({ error: 'fixMessage is required' })
    .min(1, 'fixMessage is required')
    .max(TEST_CLIENT_MAX_MESSAGE_BYTES, 'fixMessage is too long'),
});

const ClOrdIdInput = z.string().trim().min(1, 'is required').max(64);
const Text = z.string().trim().max(500).optional();

/** OrderCancelRequest (35=F) for an order this client sent. */
export const CancelOrderSchema = z.strictObject({
  origClOrdId: ClOrdIdInput,
  /** The new request's own ClOrdID; derived from the original when absent. */
  clOrdId: ClOrdIdInput.optional(),
  text: Text,
});
export type CancelOrderRequest = z.infer<typeof CancelOrderSchema>;

const PositiveDecimal = z
  .union([z.number().finite(), z.string().trim().max(40)])
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .refine((s) => /^-?\d+(\.\d+)?$/.test(s), 'must be a decimal number');

/** OrderCancelReplaceRequest (35=G): new quantity and/or price for an order this client sent. */
export const ReplaceOrderSchema = z
  .strictObject({
    origClOrdId: ClOrdIdInput,
    clOrdId: ClOrdIdInput.optional(),
    orderQty: PositiveDecimal.optional(),
    price: PositiveDecimal.optional(),
    text: Text,
  })
  .refine((b) => b.orderQty !== undefined || b.price !== undefined, { message: 'give a new quantity or a new price', path: ['orderQty'] });
export type ReplaceOrderRequest = z.infer<typeof ReplaceOrderSchema>;

export interface SendOrderResponse {
  success: boolean;
  /** ClOrdID (11) of the message sent. */
  clOrdId?: string;
  /** The same as clOrdId, under the name the spec's client reads. */
  clOrderId?: string;
  msgType?: string;
  /** MsgSeqNum (34) the session gave the message. */
  msgSeqNum?: number;
  error?: string;
  message?: string;
  /** The tag at fault when the message was refused, if one is. */
  field?: string;
}

// ------------------------------------------------------------------------------------------------
// The client's own blotter (spec 001 §2 FIX Client, §3 client blotter row and execution)

export interface ClientOrderLeg {
  legSymbol: string;
  legSide: string;
  /** YYYYMM */
  legMaturityMonthYear: string | null;
  legRatioQty: DecimalString;
  legSecurityType: string | null;
  /** ratio × order quantity */
  orderQty: DecimalString | null;
}

export interface ClientOrderParty {
  partyID: string;
  partyIDSource: string | null;
  partyRole: string;
}

/** One order the client sent, as its own blotter sees it (kept up to date from the reports it receives). */
export interface ClientOrder {
  /** The first ClOrdID of the order: the row key, stable across cancel/replace. */
  id: string;
  /** The ClOrdID the order currently carries (changes when a replace is confirmed). */
  clordid: string;
  origclordid: string | null;
  msgtype: 'D' | 'AB';
  /** Null until the broker's first report (shown as Sent). */
  ordstatus: string | null;
  /** When the order was sent. */
  timestamp: string;
  transacttime: string | null;
  tradername: string | null;
  side: string;
  orderqty: DecimalString;
  symbol: string;
  /** YYYYMM for an outright. */
  maturity: string | null;
  ordtype: string;
  price: DecimalString | null;
  timeinforce: string | null;
  exchange: string | null;
  lastqty: DecimalString | null;
  lastpx: DecimalString | null;
  cumqty: DecimalString;
  avgpx: DecimalString;
  leavesqty: DecimalString;
  text: string | null;
  /** The broker's OrderID (37). */
  brokerorderid: string | null;
  orderid: string | null;
  legs: ClientOrderLeg[];
  parties: ClientOrderParty[];
  /** A cancel (F) or replace (G) this client sent that the broker has not answered yet. */
  pendingRequest: { type: 'F' | 'G'; clOrdId: string; sentAt: string } | null;
  msgSeqNum: number;
}

/** A report the client received about one of its orders: ExecutionReport (8) or OrderCancelReject (9). */
export interface ClientExecution {
  /** ExecID, or a made-up key for messages without one (cancel rejects). */
  id: string;
  orderKey: string;
  msgtype: '8' | '9';
  clordid: string;
  origclordid: string | null;
  execid: string | null;
  exectype: string | null;
  ordstatus: string | null;
  transacttime: string | null;
  /** When the client received it. */
  timestamp: string;
  symbol: string | null;
  side: string | null;
  orderqty: DecimalString | null;
  price: DecimalString | null;
  lastpx: DecimalString | null;
  lastqty: DecimalString | null;
  cumqty: DecimalString | null;
  avgpx: DecimalString | null;
  leavesqty: DecimalString | null;
  text: string | null;
  orderid: string | null;
  msgSeqNum: number;
}

export interface ClientBlotterResponse {
  success: true;
  compId: string;
  orders: ClientOrder[];
  executions: ClientExecution[];
}

// ------------------------------------------------------------------------------------------------
// Live pushes over /ws

/** The client's session changed state (started, logged on, logged out, stopped). */
export interface WsTestClientStatus {
  type: 'test_client_status';
  comp_id: string;
  data: TestClientStatus;
}

/** The client sent an order, a cancel or a replace: the order as it now stands. */
export interface WsTestClientOrder {
  type: 'test_client_order';
  comp_id: string;
  order: ClientOrder;
}

/** The client received a report for one of its orders: the report and the order as it now stands. */
export interface WsTestClientExecution {
  type: 'test_client_execution';
  comp_id: string;
  execution: ClientExecution;
  order: ClientOrder;
}

export type WsTestClientMessage = WsTestClientStatus | WsTestClientOrder | WsTestClientExecution;
