import {
  ClientsAnswerSchema,
  ContractsAnswerSchema,
  FixSessionsAnswerSchema,
  OrderFlowAnswerSchema,
  TimeToAnswerAnswerSchema,
  type ClientConnector,
  type ClientsAnswer,
  type ContractsAnswer,
  type FixSessionsAnswer,
  type InsightChart,
  type OrderFlowAnswer,
  type Security,
  type TimeToAnswerAnswer,
} from '@fixdesk/protocol';
import type { ApiClient } from '@fixdesk/client';

/** What each chart's call answers (packages/protocol/src/insights.ts). */
export interface InsightAnswers {
  'order-flow': OrderFlowAnswer;
  'time-to-answer': TimeToAnswerAnswer;
  clients: ClientsAnswer;
  contracts: ContractsAnswer;
  'fix-sessions': FixSessionsAnswer;
}

const SCHEMAS = {
  'order-flow': OrderFlowAnswerSchema,
  'time-to-answer': TimeToAnswerAnswerSchema,
  clients: ClientsAnswerSchema,
  contracts: ContractsAnswerSchema,
  'fix-sessions': FixSessionsAnswerSchema,
} as const;

/** The filters of the Insights screen as the calls take them: instants, the zone, comp ids, an exchange. */
export interface InsightsQuery {
  from: string;
  to: string;
  tz: string;
  clients: readonly string[];
  exchange: string | null;
}

/** The query string of `GET /api/insights/{chart}` (InsightsQuerySchema). */
export function insightsQueryParams(q: InsightsQuery): Record<string, string> {
  return {
    from: q.from,
    to: q.to,
    tz: q.tz,
    ...(q.clients.length ? { client: q.clients.join(',') } : {}),
    ...(q.exchange ? { exchange: q.exchange } : {}),
  };
}

interface Answer<T> {
  data: T;
}

/** The Desk Insights calls (issue 31): one per chart, and the clients and exchanges the filters offer. */
export function createInsightsApi(api: ApiClient) {
  return {
    async chart<C extends InsightChart>(chart: C, q: InsightsQuery, signal?: AbortSignal): Promise<InsightAnswers[C]> {
      const body = await api.get<unknown>(`/api/insights/${chart}`, { query: insightsQueryParams(q), signal });
      // The answer is checked against the shared schema: a chart never draws a shape it does not know.
      return SCHEMAS[chart].parse(body) as InsightAnswers[C];
    },
    clients: async (signal?: AbortSignal) => (await api.get<Answer<ClientConnector[]>>('/api/client-connectors', { signal })).data,
    securities: async (signal?: AbortSignal) => (await api.get<Answer<Security[]>>('/api/security-master', { signal })).data,
  };
}
export type InsightsApi = ReturnType<typeof createInsightsApi>;
