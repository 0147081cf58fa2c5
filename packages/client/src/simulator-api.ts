import type { FieldDefault, GroupDefault, LatestPrice } from '@fixdesk/domain';
import {
  testClientPath,
  type CancelOrderRequest,
  type ClientFieldDefault,
  type ClientGroupDefaults,
  type ClientBlotterResponse,
  type ClientConnector,
  type Order,
  type OrderActionResponse,
  type ReplaceOrderRequest,
  type SendOrderResponse,
  type TestClientControlResponse,
  type TestClientHealth,
  type TestClientStatus,
} from '@fixdesk/protocol';
import type { ApiClient } from './api-client';
import type { BrokerSimApi } from './broker-simulator';
import { loadReference } from './reference-load';

/** What the simulators read of a security master row. */
export interface SecurityRef {
  symbol: string;
  instrument_name: string | null;
  is_active: boolean;
  price_tick_size: string | null;
  exchange_mics: string | null;
}

/** What the order builders read of the executing broker a connector belongs to (for %BROKER_…% variables). */
export interface BrokerRef {
  id: number;
  company_name: string | null;
  lei: string | null;
  party_id: string | null;
}

/** A client's FIX defaults for one message type, as the order builders take them. */
export interface ClientMessageDefaults {
  defaults: FieldDefault[];
  groups: GroupDefault[];
}

export interface MessageSpecField {
  field_number: number;
  field_name: string | null;
  is_mandatory: boolean;
}

/**
 * The calls the three simulator screens and the headless broker simulator make, over the app's one
 * HTTP client (or, headless, an ApiClient of their own). The test-client service is reached through
 * the main server's signed-in proxy path.
 */
export interface SimulatorApi extends BrokerSimApi {
  testClientStatus(compId: string, signal?: AbortSignal): Promise<TestClientStatus>;
  testClientHealth(compId: string, signal?: AbortSignal): Promise<TestClientHealth>;
  startClient(compId: string): Promise<TestClientControlResponse>;
  stopClient(compId: string): Promise<TestClientControlResponse>;
  sendOrder(compId: string, fixMessage: string): Promise<SendOrderResponse>;
  cancelOrder(compId: string, request: CancelOrderRequest): Promise<SendOrderResponse>;
  replaceOrder(compId: string, request: ReplaceOrderRequest): Promise<SendOrderResponse>;
  clientBlotter(compId: string, signal?: AbortSignal): Promise<ClientBlotterResponse>;
  clientConnectors(signal?: AbortSignal): Promise<ClientConnector[]>;
  securities(signal?: AbortSignal): Promise<SecurityRef[]>;
  /** Mandatory fields of a message type's spec (cached per type, spec 000 §7). */
  mandatoryTags(msgType: string): Promise<number[]>;
  /** The client's FIX defaults and group instances for a message type (spec 001 §7), fetched afresh. */
  clientDefaults(connectorId: number, msgType: string, signal?: AbortSignal): Promise<ClientMessageDefaults>;
  brokers(signal?: AbortSignal): Promise<BrokerRef[]>;
  orders(signal?: AbortSignal): Promise<Order[]>;
  latestPrices(signal?: AbortSignal): Promise<LatestPrice[]>;
}

function list<T>(body: { data?: T[] } | T[]): T[] {
  return Array.isArray(body) ? body : (body.data ?? []);
}

export function createSimulatorApi(api: ApiClient): SimulatorApi {
  const specCache = new Map<string, Promise<number[]>>();
  const order = (id: number, action: string) => `/api/orders/${id}/${action}`;
  return {
    testClientStatus: (compId, signal) => api.get(testClientPath(compId, 'status'), { signal }),
    testClientHealth: (compId, signal) => api.get(testClientPath(compId, 'health'), { signal }),
    startClient: (compId) => api.post(testClientPath(compId, 'connect')),
    stopClient: (compId) => api.post(testClientPath(compId, 'disconnect')),
    sendOrder: (compId, fixMessage) => api.post(testClientPath(compId, 'send-order'), { fixMessage }),
    cancelOrder: (compId, request) => api.post(testClientPath(compId, 'cancel-order'), request),
    replaceOrder: (compId, request) => api.post(testClientPath(compId, 'replace-order'), request),
    clientBlotter: (compId, signal) => api.get(testClientPath(compId, 'orders'), { signal }),
    clientConnectors: (signal) =>
      loadReference('clientConnectors', async () =>
        list(await api.get<{ data?: ClientConnector[] } | ClientConnector[]>('/api/client-connectors', { signal })),
      ),
    securities: (signal) =>
      loadReference('securityMaster', async () =>
        list(await api.get<{ data?: SecurityRef[] } | SecurityRef[]>('/api/security-master', { signal })).filter((s) => s.is_active),
      ),
    mandatoryTags(msgType) {
      let cached = specCache.get(msgType);
      if (!cached) {
        cached = loadReference('fixMessageSpecs', async () =>
          list(await api.get<{ data?: MessageSpecField[] }>(`/api/fix-message-specs/${encodeURIComponent(msgType)}`))
            .filter((f) => f.is_mandatory)
            .map((f) => f.field_number),
        );
        // A failed load is retried next time rather than cached.
        cached.catch(() => specCache.delete(msgType));
        specCache.set(msgType, cached);
      }
      return cached;
    },
    async clientDefaults(connectorId, msgType, signal) {
      const base = `/api/fix-client-defaults/${connectorId}/${encodeURIComponent(msgType)}`;
      const [fields, groups] = await Promise.all([
        api.get<{ data?: ClientFieldDefault[] }>(base, { signal }),
        api.get<{ data?: ClientGroupDefaults[] }>(`${base}/groups`, { signal }),
      ]);
      return {
        defaults: list(fields).map((d) => ({ tag: d.tag, value: d.default_value })),
        groups: list(groups).map((g) => ({
          countTag: g.group_field_number,
          instances: g.instances.map((i) => i.fields.map((f) => ({ tag: f.tag, value: f.default_value }))),
        })),
      };
    },
    brokers: (signal) =>
      loadReference('brokerInformation', async () =>
        list(await api.get<{ data?: BrokerRef[] } | BrokerRef[]>('/api/broker-information', { signal })),
      ),
    orders: (signal) => api.get<Order[]>('/api/orders', { signal, query: { includeExecReports: false } }),
    latestPrices: (signal) =>
      loadReference('latestPrices', async () =>
        list(await api.get<{ data?: LatestPrice[] } | LatestPrice[]>('/api/trade-history/latest-prices', { signal })),
      ),
    accept: (id, body) => api.post<OrderActionResponse>(order(id, 'accept'), body),
    fill: (id, body) => api.post<OrderActionResponse>(order(id, 'fill'), body),
    doneForDay: (id, body) => api.post<OrderActionResponse>(order(id, 'done-for-day'), body),
  };
}
