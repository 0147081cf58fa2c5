import type { ClientConnector, ExecutionReport, Order, OrderAction, OrderActionResponse, OrderTimeline } from '@fixdesk/protocol';
import type { LatestPrice } from '@fixdesk/domain';
import { loadReference, type ApiClient } from '@fixdesk/client';

/**
 * The order calls of spec 000 §7 over the app's one HTTP client. The server is the authority on
 * every action: its 400/409 answers come back as ApiError with the server's own message, and the
 * callers show that message to the broker.
 */
export interface FillRequest {
  fillQty: string;
  fillPrice: string;
  /** A leg fill of a multileg order; absent for a fill of the whole strategy. */
  legIndex?: number;
  notes?: string;
}

export type RequestKind = 'cancel' | 'replace';
export type RequestDecision = 'confirm' | 'refuse';

export interface OrdersApi {
  /** Today's orders and every open order, newest first; `limit` keeps only the newest. */
  list(options?: { limit?: number; signal?: AbortSignal }): Promise<Order[]>;
  /** One order with its legs, parties and execution reports; null when the server does not know it. */
  get(id: number | string, signal?: AbortSignal): Promise<(Order & { execReports: ExecutionReport[] }) | null>;
  accept(id: number, notes?: string): Promise<OrderActionResponse>;
  reject(id: number, reason: string): Promise<OrderActionResponse>;
  fill(id: number, fill: FillRequest): Promise<OrderActionResponse>;
  doneForDay(id: number): Promise<OrderActionResponse>;
  /** A broker cancel (unsolicited): ExecutionReport 150=4 with the reason as Text. */
  cancel(id: number, reason: string): Promise<OrderActionResponse>;
  decide(id: number, kind: RequestKind, decision: RequestDecision, reason?: string): Promise<OrderActionResponse>;
  actions(brokerOrderId: string, signal?: AbortSignal): Promise<OrderAction[]>;
  /** The order's whole story (FIX messages, state changes, actions in time order), by id or broker order id. */
  timeline(id: number | string, signal?: AbortSignal): Promise<OrderTimeline>;
  clientConnectors(signal?: AbortSignal): Promise<ClientConnector[]>;
  latestPrices(signal?: AbortSignal): Promise<LatestPrice[]>;
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && (error as { status: unknown }).status === 404;
}

export function createOrdersApi(api: ApiClient): OrdersApi {
  const path = (id: number | string) => `/api/orders/${encodeURIComponent(String(id))}`;
  return {
    list: ({ limit, signal } = {}) => api.get<Order[]>('/api/orders', { signal, query: { includeExecReports: false, limit } }),
    async get(id, signal) {
      try {
        const body = await api.get<{ success: boolean; data: Order & { execReports: ExecutionReport[] } }>(path(id), { signal });
        return { ...body.data, execReports: body.data.execReports ?? [] };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    accept: (id, notes) => api.post(`${path(id)}/accept`, notes?.trim() ? { notes: notes.trim() } : {}),
    // Spec 000 §7: rejectReason '0' (broker option) with the reason as text.
    reject: (id, reason) => api.post(`${path(id)}/reject`, { rejectReason: '0', text: reason.trim() }),
    fill: (id, fill) =>
      api.post(`${path(id)}/fill`, {
        fillQty: fill.fillQty.trim(),
        fillPrice: fill.fillPrice.trim(),
        ...(fill.legIndex === undefined ? {} : { legIndex: fill.legIndex }),
        ...(fill.notes?.trim() ? { notes: fill.notes.trim() } : {}),
      }),
    doneForDay: (id) => api.post(`${path(id)}/done-for-day`),
    cancel: (id, reason) => api.post(`${path(id)}/cancel`, { reason: reason.trim() }),
    decide: (id, kind, decision, reason) =>
      api.post(`${path(id)}/${kind}-request/${decision}`, reason?.trim() ? { reason: reason.trim() } : {}),
    async actions(brokerOrderId, signal) {
      const body = await api.get<{ actions?: OrderAction[] } | OrderAction[]>('/api/order-actions', {
        signal,
        query: { brokerorderid: brokerOrderId, limit: 500 },
      });
      return Array.isArray(body) ? body : (body.actions ?? []);
    },
    async timeline(id, signal) {
      const body = await api.get<{ success: boolean; data: OrderTimeline }>(`${path(id)}/timeline`, { signal });
      return body.data;
    },
    clientConnectors: (signal) =>
      loadReference('clientConnectors', async () => {
        const body = await api.get<{ data?: ClientConnector[] } | ClientConnector[]>('/api/client-connectors', { signal });
        return Array.isArray(body) ? body : (body.data ?? []);
      }),
    latestPrices: (signal) =>
      loadReference('latestPrices', async () => {
        const body = await api.get<{ data?: LatestPrice[] } | LatestPrice[]>('/api/trade-history/latest-prices', { signal });
        return Array.isArray(body) ? body : (body.data ?? []);
      }),
  };
}
