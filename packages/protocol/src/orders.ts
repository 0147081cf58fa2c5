import { z } from 'zod';
import type { FixMessageRecord } from './audit';

// Orders as the API and the live connection carry them (spec 000 §3). Prices and quantities are
// decimal strings ('27000', '12.5'): exact, never binary floating point.

export type DecimalString = string;

export interface OrderParty {
  partyID: string;
  partyIDSource: string | null;
  partyRole: number;
  /** The leg the party belongs to (nested leg parties, 539), or null for the order's own (453). */
  legIndex: number | null;
}

export interface OrderLeg {
  legIndex: number;
  legSymbol: string;
  legSecurityType: string | null;
  /** YYYYMM */
  legMaturityMonthYear: string | null;
  legSide: '1' | '2';
  legRatioQty: DecimalString;
  legPrice: DecimalString | null;
  legCumQty: DecimalString;
  legAvgPx: DecimalString;
  // the short names the spec's screens also read
  symbol: string;
  side: '1' | '2';
  ratio: DecimalString;
  /** Mon-YY, e.g. Jan-26 */
  contractMonth: string | null;
  /** ratio × order quantity */
  orderQty: DecimalString;
}

export interface ExecutionReport {
  id: number;
  order_id: number;
  execid: string;
  clordid: string;
  origclordid: string | null;
  orderid: string;
  exectype: string;
  ordstatus: string;
  side: string | null;
  symbol: string | null;
  orderqty: DecimalString | null;
  price: DecimalString | null;
  lastqty: DecimalString | null;
  lastpx: DecimalString | null;
  cumqty: DecimalString;
  avgpx: DecimalString;
  leavesqty: DecimalString;
  legIndex: number | null;
  ordrejreason: number | null;
  text: string | null;
  transacttime: string;
  timestamp: string;
}

export interface OrderRequest {
  id: number;
  request_type: 'F' | 'G';
  clordid: string;
  origclordid: string;
  new_orderqty: DecimalString | null;
  new_price: DecimalString | null;
  new_ordtype: string | null;
  text: string | null;
  status: 'PENDING' | 'CONFIRMED' | 'REFUSED';
  decided_by: string | null;
  decided_at: string | null;
  decision_text: string | null;
  created_at: string;
}

export interface Order {
  id: number;
  brokerorderid: string;
  /** Our OrderID (37) sent to the client: the broker order id. */
  orderid: string;
  clordid: string;
  origclordid: string | null;
  client_connector_id: number;
  sendercompid: string;
  targetcompid: string;
  client_name: string | null;
  client_phone: string | null;
  company_name: string | null;
  msg_type: 'D' | 'AB';
  symbol: string;
  security_type: string | null;
  maturity_month_year: string | null;
  side: '1' | '2';
  ordtype: '1' | '2';
  price: DecimalString | null;
  orderqty: DecimalString;
  order_qty: DecimalString;
  timeinforce: string;
  exchange: string | null;
  currency: string | null;
  account: string | null;
  /** The client's own Text (58) from the order: its instructions. Never replaced by a report's text. */
  text: string | null;
  /**
   * Set by the browser's live cache only (spec 000 §4 copies a report's text onto the order for
   * status 4 or 8): the Text of the latest cancel or reject report, kept apart from the client's text.
   */
  reportText?: string | null;
  ordstatus: string;
  cumqty: DecimalString;
  leavesqty: DecimalString;
  avgpx: DecimalString;
  lastqty: DecimalString | null;
  lastpx: DecimalString | null;
  transacttime: string;
  accepted_by: string | null;
  created_at: string;
  updated_at: string;
  legs: OrderLeg[];
  parties: OrderParty[];
  /** The cancel or replace request awaiting the broker's decision, if any. */
  pendingRequest: OrderRequest | null;
  execReports?: ExecutionReport[];
  /**
   * Set only on an order refused at intake (never stored as an order: no broker order id, status 8,
   * its terms as far as they were terms): the OrdRejReason (103) and Text (58) the client was sent.
   */
  refusal?: { ordRejReason: number; text: string };
}

/** One entry of an order's timeline (GET /api/orders/{id}/timeline), in time order. */
export type OrderTimelineEntry =
  | {
      kind: 'fix';
      /** ISO 8601 UTC with microseconds. */
      at: string;
      message: FixMessageRecord;
      /** ExecType (150), OrdStatus (39), Text (58)... of the message, tag → value, as far as present. */
      fields: Record<string, string>;
    }
  | {
      kind: 'state';
      at: string;
      /** The execution report that made the change, or null for a refusal at intake. */
      reportId: number | null;
      execId: string | null;
      execType: string;
      ordStatus: string;
      /** The status before this change (null for the first). */
      previousStatus: string | null;
      lastQty: DecimalString | null;
      lastPx: DecimalString | null;
      cumQty: DecimalString | null;
      leavesQty: DecimalString | null;
      ordRejReason: number | null;
      text: string | null;
      /** The FIX message that told the client, when one was sent. */
      fixMessageId: number | null;
      /** The report's copies to drop copy sessions (docs/adr/0017): to whom, and the number it went out under (null: waiting). */
      copies?: Array<{ session: string; sentAt: string | null; seqNum: number | null }>;
    }
  | {
      kind: 'action';
      at: string;
      actionId: number;
      actionType: ActionType;
      userId: string;
      notes: string | null;
      fillQty: DecimalString | null;
      fillPrice: DecimalString | null;
      legIndex: number | null;
      /** The message the action's report went out in. */
      fixMessageId: number | null;
    };

export interface OrderTimeline {
  orderId: number;
  brokerorderid: string;
  clordid: string;
  sendercompid: string;
  refused: boolean;
  entries: OrderTimelineEntry[];
}

export const ACTION_TYPES = [
  'ACCEPT',
  'REJECT',
  'FILL',
  'PARTIAL_FILL',
  'DONE_FOR_DAY',
  'CANCEL',
  'CANCEL_CONFIRM',
  'CANCEL_REFUSE',
  'REPLACE_CONFIRM',
  'REPLACE_REFUSE',
  'EXPIRE',
  /** The kill switch (no order: the cancels it caused are the orders' own CANCEL actions). */
  'CLIENT_STOP',
  'CLIENT_RESUME',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export interface OrderAction {
  id: number;
  order_id: number | null;
  timestamp: string;
  created_at: string;
  brokerorderid: string | null;
  clordid: string | null;
  sendercompid: string | null;
  client_name: string | null;
  company_name: string | null;
  symbol: string | null;
  side: string | null;
  orderqty: DecimalString | null;
  price: DecimalString | null;
  action_type: ActionType;
  user_id: string;
  notes: string | null;
  action_data: Record<string, unknown>;
  fillQty: DecimalString | null;
  fillPrice: DecimalString | null;
  legIndex: number | null;
}

// ------------------------------------------------------------------------------------------------
// Requests

/** A decimal given as a JSON number or a string; kept as its exact text. */
const DecimalInputSchema = z
  .union([z.number().finite(), z.string().trim().max(40)])
  .transform((v) => (typeof v === 'number' ? String(v) : v))
  .refine((s) => /^-?\d+(\.\d+)?$/.test(s) && s.replace(/^-|\./g, '').length <= 30, 'must be a decimal number');

const Notes = z.string().max(2000).optional();
/** The claimed actor (the simulators send it); the signed-in user is what the audit records. */
const UserIdClaim = z.string().max(64).optional();

/** An order's numeric id or its broker order id (BO00000042). */
export const OrderIdParamsSchema = z.strictObject({
  id: z.string().regex(/^(\d{1,15}|[A-Za-z][A-Za-z0-9_-]{0,39})$/, 'must be an order id or a broker order id'),
});

/** OrdRejReason (103) values FIX 4.4 defines. */
const ORD_REJ_REASONS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '13', '14', '15', '99'] as const;

export const AcceptOrderSchema = z.strictObject({ notes: Notes, userId: UserIdClaim });

export const RejectOrderSchema = z
  .strictObject({
    rejectReason: z
      .union([z.string(), z.number().int()])
      .transform(String)
      .refine((v) => (ORD_REJ_REASONS as readonly string[]).includes(v), 'must be a FIX 4.4 OrdRejReason (0-11, 13-15 or 99)')
      .optional(),
    text: z.string().max(500).optional(),
    reason: z.string().max(500).optional(),
    notes: Notes,
    userId: UserIdClaim,
  })
  .transform((b) => ({ ...b, reasonText: (b.text ?? b.reason ?? b.notes ?? '').trim() }))
  .refine((b) => b.reasonText.length > 0, { message: 'A rejection reason is required', path: ['text'] });

export const FillOrderSchema = z.strictObject({
  fillQty: DecimalInputSchema,
  fillPrice: DecimalInputSchema,
  legIndex: z.number().int().min(0).max(99).optional(),
  notes: Notes,
  userId: UserIdClaim,
});

export const DoneForDaySchema = z.strictObject({ notes: Notes, userId: UserIdClaim }).optional();

export const DecisionSchema = z.strictObject({ reason: z.string().max(500).optional(), notes: Notes, userId: UserIdClaim }).optional();

export const BrokerCancelSchema = z.strictObject({
  reason: z.string().trim().min(1, 'A cancel reason is required').max(500),
  notes: Notes,
  userId: UserIdClaim,
});

export interface OrderActionResponse {
  success: true;
  order: Order;
  fullyFilled: boolean;
  message: string;
}

export const OrdersQuerySchema = z.strictObject({
  /** ISO date or date-time, inclusive. */
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  status: z.string().max(40).optional(),
  sendercompid: z.string().max(64).optional(),
  symbol: z.string().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
  includeExecReports: z.enum(['true', 'false']).optional(),
  /** Orders refused at intake (status 8): listed with the rest (default), left out, or alone. */
  refused: z.enum(['include', 'exclude', 'only']).optional(),
});
