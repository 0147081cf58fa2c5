import { insightsClients, insightsContracts, insightsFixSessions, insightsOrderFlow, insightsTimeToAnswer } from '@fixdesk/db';
import {
  InsightsQuerySchema,
  type ClientsAnswer,
  type ContractsAnswer,
  type FixSessionsAnswer,
  type InsightChart,
  type InsightsFilters,
  type OrderFlowAnswer,
  type TimeToAnswerAnswer,
} from '@fixdesk/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { parse } from '../http/errors';

/** The filters as the answer states them. */
const applied = (f: InsightsFilters, bucket = f.bucket) => ({
  from: f.from,
  to: f.to,
  tz: f.tz,
  clients: f.clients ?? null,
  exchange: f.exchange ?? null,
  bucket,
});

/**
 * Desk Insights (issue 31): one read per chart, every signed-in role (read-only), the filters in the
 * query string (InsightsQuerySchema: a bad value is a 400 naming the field). The figures are computed
 * by the database (packages/db/src/repos/insights.ts).
 */
export function insightsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const charts: Record<InsightChart, (f: InsightsFilters) => Promise<unknown>> = {
    'order-flow': async (f): Promise<OrderFlowAnswer> => ({
      chart: 'order-flow',
      filters: applied(f),
      series: await insightsOrderFlow(ctx.db, f),
    }),
    'time-to-answer': async (f): Promise<TimeToAnswerAnswer> => ({
      chart: 'time-to-answer',
      filters: applied(f),
      ...(await insightsTimeToAnswer(ctx.db, f)),
    }),
    clients: async (f): Promise<ClientsAnswer> => ({ chart: 'clients', filters: applied(f), ...(await insightsClients(ctx.db, f)) }),
    contracts: async (f): Promise<ContractsAnswer> => ({
      chart: 'contracts',
      filters: applied(f),
      contracts: await insightsContracts(ctx.db, f),
    }),
    // Per client per day, whatever the period asked for.
    'fix-sessions': async (f): Promise<FixSessionsAnswer> => ({
      chart: 'fix-sessions',
      filters: applied(f, 'day'),
      series: await insightsFixSessions(ctx.db, f),
    }),
  };
  for (const [chart, answer] of Object.entries(charts)) {
    app.get(`/api/insights/${chart}`, { config: { access: 'read' } }, async (req) =>
      answer(parse(InsightsQuerySchema, req.query, 'query')),
    );
  }
}
