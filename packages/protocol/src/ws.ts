import { z } from 'zod';
import type { SessionUser } from './auth';
import type { ExecutionReport, Order, OrderAction } from './orders';
import type { ServiceHealth, ServiceStatusEntry } from './health';
import type { WsTestClientMessage } from './test-client';

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
export type WsClientMessage = z.infer<typeof WsClientMessageSchema>;

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
/** A service's health changed (sent on every change of status or connection, not periodically). */
export interface WsServiceStatus {
  type: 'service_status';
  data: { service_name: string; status: ServiceHealth; timestamp: string; metadata?: Record<string, unknown>; service: ServiceStatusEntry };
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
  | WsExecutionReportMessage
  | WsOrderActionMessage
  | WsClientConnectionStatus
  | WsServiceStatus
  | WsTestClientMessage;
