/**
 * The FIX 4.4 code values the desk's rules talk about, as named constants. Local on purpose: the domain
 * package stays free of the FIX engine, and these few enums are stable parts of FIX 4.4.
 */

export const Side = { Buy: '1', Sell: '2' } as const;
export type SideCode = (typeof Side)[keyof typeof Side];
export const SIDE_LABELS: Record<SideCode, string> = { '1': 'Buy', '2': 'Sell' };

export const OrdType = { Market: '1', Limit: '2' } as const;
export type OrdTypeCode = (typeof OrdType)[keyof typeof OrdType];
export const ORD_TYPE_LABELS: Record<OrdTypeCode, string> = { '1': 'Market', '2': 'Limit' };

export const TimeInForce = { Day: '0', GoodTillCancel: '1' } as const;
export type TimeInForceCode = (typeof TimeInForce)[keyof typeof TimeInForce];
export const TIME_IN_FORCE_LABELS: Record<TimeInForceCode, string> = { '0': 'Day', '1': 'Good Till Cancel' };

/** OrdStatus (39). Replaced (5) is not a FIX 4.4 status any more; it is kept only to label legacy rows. */
export const OrdStatus = {
  PendingNew: 'A',
  New: '0',
  PartiallyFilled: '1',
  Filled: '2',
  DoneForDay: '3',
  Canceled: '4',
  Replaced: '5',
  PendingCancel: '6',
  Rejected: '8',
  Expired: 'C',
  PendingReplace: 'E',
} as const;
export type OrdStatusCode = (typeof OrdStatus)[keyof typeof OrdStatus];
export const ORD_STATUS_CODES: readonly OrdStatusCode[] = Object.values(OrdStatus);

/** ExecType (150). 1 and 2 are FIX 4.2 fill codes, still labelled because client documents and old rows use them. */
export const ExecType = {
  New: '0',
  PartialFill: '1',
  Fill: '2',
  DoneForDay: '3',
  Canceled: '4',
  Replaced: '5',
  PendingCancel: '6',
  Rejected: '8',
  PendingNew: 'A',
  Expired: 'C',
  Restated: 'D',
  PendingReplace: 'E',
  Trade: 'F',
  TradeCorrect: 'G',
  TradeCancel: 'H',
  OrderStatus: 'I',
} as const;
export type ExecTypeCode = (typeof ExecType)[keyof typeof ExecType];

/** OrdRejReason (103) values we send. */
export const OrdRejReason = {
  BrokerOption: '0',
  UnknownSymbol: '1',
  ExchangeClosed: '2',
  OrderExceedsLimit: '3',
  TooLateToEnter: '4',
  UnknownOrder: '5',
  DuplicateOrder: '6',
  StaleOrder: '8',
  UnsupportedOrderCharacteristic: '11',
  IncorrectQuantity: '13',
  Other: '99',
} as const;
export type OrdRejReasonCode = (typeof OrdRejReason)[keyof typeof OrdRejReason];

/** CxlRejReason (102). */
export const CxlRejReason = {
  TooLateToCancel: '0',
  UnknownOrder: '1',
  BrokerOption: '2',
  AlreadyPending: '3',
  DuplicateClOrdId: '6',
  Other: '99',
} as const;
export type CxlRejReasonCode = (typeof CxlRejReason)[keyof typeof CxlRejReason];

/** CxlRejResponseTo (434): which request an OrderCancelReject answers. */
export const CxlRejResponseTo = { CancelRequest: '1', CancelReplaceRequest: '2' } as const;
export type CxlRejResponseToCode = (typeof CxlRejResponseTo)[keyof typeof CxlRejResponseTo];

export const PartyRole = { EnteringFirm: '7', OrderOriginationTrader: '11' } as const;
export const PartyIDSource = { Proprietary: 'D', LEI: 'N' } as const;

export const SecurityType = { Future: 'FUT', Multileg: 'MLEG' } as const;
export type SecurityTypeCode = (typeof SecurityType)[keyof typeof SecurityType];

export const MsgType = {
  Heartbeat: '0',
  TestRequest: '1',
  ResendRequest: '2',
  Reject: '3',
  SequenceReset: '4',
  Logout: '5',
  ExecutionReport: '8',
  OrderCancelReject: '9',
  Logon: 'A',
  NewOrderSingle: 'D',
  OrderCancelRequest: 'F',
  OrderCancelReplaceRequest: 'G',
  NewOrderMultileg: 'AB',
  MultilegOrderCancelReplace: 'AC',
} as const;
export type MsgTypeCode = (typeof MsgType)[keyof typeof MsgType];

/** Friendly names shown next to msg types in the audit screens (spec 000 §9 names 8, A, 5, 0, 1, 2, 4, G, F, D, AB). */
export const MSG_TYPE_NAMES: Record<MsgTypeCode, string> = {
  '0': 'Heartbeat',
  '1': 'Test Request',
  '2': 'Resend Request',
  '3': 'Reject',
  '4': 'Sequence Reset',
  '5': 'Logout',
  '8': 'Execution Report',
  '9': 'Order Cancel Reject',
  A: 'Logon',
  D: 'New Order Single',
  F: 'Order Cancel Request',
  G: 'Order Cancel/Replace Request',
  AB: 'New Order Multileg',
  AC: 'Multileg Order Cancel/Replace',
};

/** Friendly name for any msg type; the raw code when we have none. */
export function msgTypeName(msgType: string): string {
  return (MSG_TYPE_NAMES as Record<string, string>)[msgType] ?? msgType;
}

/** Types the desk sends or answers beyond the named ones above, for the audit screens and files. */
const MORE_MSG_TYPE_NAMES: Record<string, string> = { H: 'Order Status Request', j: 'Business Message Reject', AE: 'Trade Capture Report' };

/** '8 · Execution Report' (spec 000 §2: msg type with its friendly name); the code alone when unnamed. */
export function msgTypeLabel(msgType: string): string {
  const name = msgTypeName(msgType);
  const friendly = name !== msgType ? name : MORE_MSG_TYPE_NAMES[msgType];
  return friendly ? `${msgType} · ${friendly}` : msgType;
}

export function isSideCode(value: unknown): value is SideCode {
  return value === Side.Buy || value === Side.Sell;
}

export function isOrdStatusCode(value: unknown): value is OrdStatusCode {
  return typeof value === 'string' && (ORD_STATUS_CODES as readonly string[]).includes(value);
}

/**
 * Side codes as they arrive from older rows and screens ('1', '2', 'Buy', 'Sell', any case) → '1' | '2';
 * null for anything else, which callers treat as fatal (spec 000 §4).
 */
export function normalizeSide(value: unknown): SideCode | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  if (v === '1' || v === 'buy') return Side.Buy;
  if (v === '2' || v === 'sell') return Side.Sell;
  return null;
}

export function oppositeSide(side: SideCode): SideCode {
  return side === Side.Buy ? Side.Sell : Side.Buy;
}
