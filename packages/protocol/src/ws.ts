import { z } from 'zod';
import type { SessionUser } from './auth';
import type { ExecutionReport, Order, OrderAction } from './orders';
import type { ServiceHealth, ServiceStatusEntry } from './health';
import type { WsTestClientMessage } from './test-client';
import type { ClientTradingStop } from './connectors';

/**
 * The live connection at /ws. Bump the version on any incompatible change; a client that speaks
 * another version is told so in `welcome` and closed with WS_CLOSE.incompatible.
 */
export const WS_PROTOCOL_VERSION = 1;

/** Close codes (4000-4999 are the application's). */
export const WS_CLOSE = {
  authRequired: 4001,
  authFailed: 4003,
  incompatible: 4004,
  authTimeout: 4008,
  serverShutdown: 1001,
} as const;

/** A socket that has not authenticated within this time is closed. */
export const WS_AUTH_TIMEOUT_MS = 10_000;
/** The server's heartbeat (with the users online) interval. */
export const WS_HEARTBEAT_MS = 15_000;

export interface OnlineUser {
  username: string;
  first_name: string | null;
  last_name: string | null;
  role: SessionUser['role'];
  connections: number;
}

// ------------------------------------------------------------------------------------------------
// client → server

export const WsClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticate'), token: z.string().min(1).max(512), protocolVersion: z.number().int().optional() }),
  z.object({ type: z.literal('ping'), timestamp: z.number().optional() }),
  z.object({ type: z.literal('pong'), timestamp: z.number().optional() }),
]);

// ------------------------------------------------------------------------------------------------
// server → client

export interface WsWelcome {
  type: 'welcome';
  protocolVersion: number;
  serverTime: string;
  message: string;
}
export interface WsAuthenticated {
  type: 'authenticated';
  user: SessionUser;
  connectedUsers: number;
  activeUsers: OnlineUser[];
}
export interface WsPing {
  type: 'ping';
  timestamp: number;
}
export interface WsPong {
  type: 'pong';
  timestamp: number;
}
export interface WsHeartbeat {
  type: 'heartbeat';
  timestamp: string;
  connectedUsers: number;
  activeUsers: OnlineUser[];
}
export interface WsErrorMessage {
  type: 'error';
  message: string;
}

/** A new client order (Pending New). */
export interface WsNewOrder {
  type: 'new_order';
  orderData: Order;
}
/** An order changed (status, quantities, a pending request). The full order replaces the cached one. */
export interface WsOrderUpdate {
  type: 'order_update';
  orderData: Order;
}
/**
 * Why an order was sent without a change of its own (spec 000 §4: an update message that "carries order
 * info"). Today one reason: its client asked for its status (OrderStatusRequest, 35=H) and was answered
 * with an ExecutionReport of ExecType I; nothing of the order changed.
 */
export interface WsOrderInfo {
  event: 'status_request';
  comp_id: string;
  /** The ClOrdID the client asked about. */
  clordid: string;
  timestamp: string;
}
/**
 * Spec 000 §7's order_data: the order as stored, sent when something happened to it that is not a change
 * (orderInfo says what). A browser treats it as an order_update that changes nothing but the time it was seen.
 */
export interface WsOrderData {
  type: 'order_data';
  orderData: Order;
  orderInfo?: WsOrderInfo;
}
/**
 * Spec 000 §4: the synthetic status the Broker Simulator shows for an order whose last update message carried
 * order info (never a FIX OrdStatus, never stored).
 */
export const ORDER_STATUS_UPDATED = 'UPDATED';

/**
 * Spec 000 §4: an order message's order may sit in orderData, in data, or be the message itself. Our server
 * always sends orderData; the others are read so that any producer of these messages is understood. Null
 * when none of the three is an order (no numeric id).
 */
export function orderOfMessage(message: unknown): Order | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { orderData?: unknown; data?: unknown };
  for (const candidate of [m.orderData, m.data, message]) {
    if (typeof candidate === 'object' && candidate !== null && typeof (candidate as { id?: unknown }).id === 'number') {
      if (candidate !== message) return candidate as Order;
      // The message itself: without its envelope's type and order info.
      const { type: _type, orderInfo: _info, ...order } = candidate as Record<string, unknown>;
      return order as unknown as Order;
    }
  }
  return null;
}

export interface WsExecutionReportMessage {
  type: 'execution_report';
  data: ExecutionReport;
}
export interface WsOrderActionMessage {
  type: 'order_action';
  data: OrderAction;
}
/** A client's FIX session logged on or off. */
export interface WsClientConnectionStatus {
  type: 'client_connection_status';
  comp_id: string;
  is_connected: boolean;
  timestamp: string;
  reason?: string;
}
/** A client was stopped by the desk's kill switch, or resumed (trading_stop null). */
export interface WsClientTradingStatus {
  type: 'client_trading_status';
  comp_id: string;
  trading_stop: ClientTradingStop | null;
}
/** A service's health changed (sent on every change of status or connection, not periodically). */
export interface WsServiceStatus {
  type: 'service_status';
  data: { service_name: string; status: ServiceHealth; timestamp: string; metadata?: Record<string, unknown>; service: ServiceStatusEntry };
}

/**
 * The server missed live changes it cannot send one by one (another node's, beyond what it replays after
 * a gap): the browser reloads what it shows, as after a reconnect (LiveState.session is bumped).
 */
export interface WsResync {
  type: 'resync';
  reason: string;
}

export type WsServerMessage =
  | WsWelcome
  | WsAuthenticated
  | WsPing
  | WsPong
  | WsHeartbeat
  | WsErrorMessage
  | WsNewOrder
  | WsOrderUpdate
  | WsOrderData
  | WsExecutionReportMessage
  | WsOrderActionMessage
  | WsClientConnectionStatus
  | WsClientTradingStatus
  | WsServiceStatus
  | WsResync
  | WsTestClientMessage;
