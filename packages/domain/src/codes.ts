import * as Fix44 from '@fixdesk/fix-codes';

/**
 * The FIX 4.4 codes the desk's rules talk about. Every value comes from the generated code table of
 * `@fixdesk/fix-codes` (the same one the engine uses); this file only chooses which of a field's values
 * the desk handles, and under which name (names differ from the dictionary's where the desk's are older,
 * e.g. OrdRejReason.BrokerOption for the dictionary's BrokerCredit). The few codes the FIX 4.4
 * dictionary lacks are below, in `BEYOND_FIX44`, and nowhere else. codes.test.ts holds the values.
 */

/** Codes the desk reads or sends that are not FIX 4.4 values: older rows and client documents use them. */
const BEYOND_FIX44 = {
  /** ExecType 1 and 2 are FIX 4.2 fill codes (4.4 uses F, Trade), labelled for old rows. */
  ExecTypePartialFill: '1',
  ExecTypeFill: '2',
  /** OrdStatus 5 (Replaced) left FIX with 4.3; kept only to label legacy rows. */
  OrdStatusReplaced: '5',
  /** PartyIDSource N (LEI) came with FIX 5.0 SP2; clients send their LEI with it. */
  PartyIDSourceLEI: 'N',
} as const;

export const Side = { Buy: Fix44.Side.Buy, Sell: Fix44.Side.Sell } as const;
export type SideCode = (typeof Side)[keyof typeof Side];
export const SIDE_LABELS: Record<SideCode, string> = { '1': 'Buy', '2': 'Sell' };

export const OrdType = { Market: Fix44.OrdType.Market, Limit: Fix44.OrdType.Limit } as const;
export type OrdTypeCode = (typeof OrdType)[keyof typeof OrdType];
export const ORD_TYPE_LABELS: Record<OrdTypeCode, string> = { '1': 'Market', '2': 'Limit' };

export const TimeInForce = { Day: Fix44.TimeInForce.Day, GoodTillCancel: Fix44.TimeInForce.GoodTillCancel } as const;
export type TimeInForceCode = (typeof TimeInForce)[keyof typeof TimeInForce];
export const TIME_IN_FORCE_LABELS: Record<TimeInForceCode, string> = { '0': 'Day', '1': 'Good Till Cancel' };

/** OrdStatus (39). Replaced (5) is not a FIX 4.4 status any more; it is kept only to label legacy rows. */
export const OrdStatus = {
  PendingNew: Fix44.OrdStatus.PendingNew,
  New: Fix44.OrdStatus.New,
  PartiallyFilled: Fix44.OrdStatus.PartiallyFilled,
  Filled: Fix44.OrdStatus.Filled,
  DoneForDay: Fix44.OrdStatus.DoneForDay,
  Canceled: Fix44.OrdStatus.Canceled,
  Replaced: BEYOND_FIX44.OrdStatusReplaced,
  PendingCancel: Fix44.OrdStatus.PendingCancel,
  Rejected: Fix44.OrdStatus.Rejected,
  Expired: Fix44.OrdStatus.Expired,
  PendingReplace: Fix44.OrdStatus.PendingReplace,
} as const;
export type OrdStatusCode = (typeof OrdStatus)[keyof typeof OrdStatus];
export const ORD_STATUS_CODES: readonly OrdStatusCode[] = Object.values(OrdStatus);

/** ExecType (150). 1 and 2 are FIX 4.2 fill codes, still labelled because client documents and old rows use them. */
export const ExecType = {
  New: Fix44.ExecType.New,
  PartialFill: BEYOND_FIX44.ExecTypePartialFill,
  Fill: BEYOND_FIX44.ExecTypeFill,
  DoneForDay: Fix44.ExecType.DoneForDay,
  Canceled: Fix44.ExecType.Canceled,
  Replaced: Fix44.ExecType.Replaced,
  PendingCancel: Fix44.ExecType.PendingCancel,
  Rejected: Fix44.ExecType.Rejected,
  PendingNew: Fix44.ExecType.PendingNew,
  Expired: Fix44.ExecType.Expired,
  Restated: Fix44.ExecType.Restated,
  PendingReplace: Fix44.ExecType.PendingReplace,
  Trade: Fix44.ExecType.Trade,
  TradeCorrect: Fix44.ExecType.TradeCorrect,
  TradeCancel: Fix44.ExecType.TradeCancel,
  OrderStatus: Fix44.ExecType.OrderStatus,
} as const;
export type ExecTypeCode = (typeof ExecType)[keyof typeof ExecType];

/** OrdRejReason (103) values we send. */
export const OrdRejReason = {
  BrokerOption: Fix44.OrdRejReason.BrokerCredit,
  UnknownSymbol: Fix44.OrdRejReason.UnknownSymbol,
  ExchangeClosed: Fix44.OrdRejReason.ExchangeClosed,
  OrderExceedsLimit: Fix44.OrdRejReason.OrderExceedsLimit,
  TooLateToEnter: Fix44.OrdRejReason.TooLateToEnter,
  UnknownOrder: Fix44.OrdRejReason.UnknownOrder,
  DuplicateOrder: Fix44.OrdRejReason.DuplicateOrder,
  StaleOrder: Fix44.OrdRejReason.StaleOrder,
  UnsupportedOrderCharacteristic: Fix44.OrdRejReason.UnsupportedOrderCharacteristic,
  IncorrectQuantity: Fix44.OrdRejReason.IncorrectQuantity,
  Other: Fix44.OrdRejReason.Other,
} as const;
export type OrdRejReasonCode = (typeof OrdRejReason)[keyof typeof OrdRejReason];

/** CxlRejReason (102). */
export const CxlRejReason = {
  TooLateToCancel: Fix44.CxlRejReason.TooLateToCancel,
  UnknownOrder: Fix44.CxlRejReason.UnknownOrder,
  BrokerOption: Fix44.CxlRejReason.BrokerCredit,
  AlreadyPending: Fix44.CxlRejReason.OrderAlreadyInPendingStatus,
  DuplicateClOrdId: Fix44.CxlRejReason.DuplicateClOrdId,
  Other: Fix44.CxlRejReason.Other,
} as const;
export type CxlRejReasonCode = (typeof CxlRejReason)[keyof typeof CxlRejReason];

/** CxlRejResponseTo (434): which request an OrderCancelReject answers. */
export const CxlRejResponseTo = {
  CancelRequest: Fix44.CxlRejResponseTo.OrderCancelRequest,
  CancelReplaceRequest: Fix44.CxlRejResponseTo.OrderCancel,
} as const;
export type CxlRejResponseToCode = (typeof CxlRejResponseTo)[keyof typeof CxlRejResponseTo];

export const PartyRole = {
  EnteringFirm: Fix44.PartyRole.EnteringFirm,
  OrderOriginationTrader: Fix44.PartyRole.OrderOriginationTrader,
} as const;
export const PartyIDSource = { Proprietary: Fix44.PartyIDSource.Proprietary, LEI: BEYOND_FIX44.PartyIDSourceLEI } as const;

export const SecurityType = { Future: Fix44.SecurityType.Future, Multileg: Fix44.SecurityType.MultilegInstrument } as const;
export type SecurityTypeCode = (typeof SecurityType)[keyof typeof SecurityType];

export const MsgType = {
  Heartbeat: Fix44.MsgType.Heartbeat,
  TestRequest: Fix44.MsgType.TestRequest,
  ResendRequest: Fix44.MsgType.ResendRequest,
  Reject: Fix44.MsgType.Reject,
  SequenceReset: Fix44.MsgType.SequenceReset,
  Logout: Fix44.MsgType.Logout,
  ExecutionReport: Fix44.MsgType.ExecutionReport,
  OrderCancelReject: Fix44.MsgType.OrderCancelReject,
  Logon: Fix44.MsgType.Logon,
  NewOrderSingle: Fix44.MsgType.NewOrderSingle,
  OrderCancelRequest: Fix44.MsgType.OrderCancelRequest,
  OrderCancelReplaceRequest: Fix44.MsgType.OrderCancelReplaceRequest,
  NewOrderMultileg: Fix44.MsgType.NewOrderMultileg,
  MultilegOrderCancelReplace: Fix44.MsgType.MultilegOrderCancelReplace,
} as const;
export type MsgTypeCode = (typeof MsgType)[keyof typeof MsgType];

/** Friendly names shown next to msg types in the audit screens (spec 000 §9 names 8, A, 5, 0, 1, 2, 4, G, F, D, AB). */
const MSG_TYPE_NAMES: Record<MsgTypeCode, string> = {
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
