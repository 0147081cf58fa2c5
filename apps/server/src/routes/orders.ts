import { Readable } from 'node:stream';
import { BROKER_SIM_USER_ID } from '@fixdesk/client';
import {
  getOrderBundle,
  getRefusedOrderRow,
  listOrderRows,
  orderListJson,
  orderTimelineRows,
  presentFixMessage,
  presentOrders,
  refusedOrdersFromRows,
} from '@fixdesk/db';
import {
  AcceptOrderSchema,
  BrokerCancelSchema,
  DecisionSchema,
  DoneForDaySchema,
  FillOrderSchema,
  OrderIdParamsSchema,
  OrdersQuerySchema,
  RejectOrderSchema,
  type OrderActionResponse,
} from '@fixdesk/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { dateRangeOf } from '../http/date-range';
import { invalidField, notFound, parse } from '../http/errors';
import type { ActionOutcome } from '../orders/broker-actions';
import { buildTimeline } from '../orders/timeline';
import { recordLook } from '../audit/who-looked';

function startOfTodayUtc(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export function orderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const orders = ctx.orders;
  const user = (req: FastifyRequest) => req.user!;

  app.get('/api/orders', { config: { access: 'read' } }, async (req, reply) => {
    const q = parse(OrdersQuerySchema, req.query, 'query');
    const statuses = q.status
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (statuses?.some((s) => !/^[0-9A-Z]$/.test(s))) throw invalidField('status', 'must be a comma-separated list of OrdStatus codes');
    const withExecReports = q.includeExecReports !== 'false';
    const { start: from, end: to } = dateRangeOf(q, ['from', 'to']);
    const rows = await listOrderRows(
      ctx.db,
      {
        from,
        to,
        statuses,
        sendercompid: q.sendercompid,
        symbol: q.symbol,
        limit: q.limit,
        todayStart: startOfTodayUtc(),
        refused: q.refused,
      },
      withExecReports,
    );
    // The JSON of presentOrders, written from the rows piece by piece as the reply takes it.
    reply.type('application/json; charset=utf-8');
    return Readable.from(orderListJson(rows, withExecReports), { objectMode: false });
  });

  app.get('/api/orders/:id', { config: { access: 'read' } }, async (req) => {
    const { id } = parse(OrderIdParamsSchema, req.params, 'params');
    const bundle = await getOrderBundle(ctx.db, id);
    if (!bundle) {
      // An order refused at intake, by its id.
      const refused = /^\d+$/.test(id) ? await getRefusedOrderRow(ctx.db, Number(id)) : undefined;
      if (refused) return { success: true, data: { ...refusedOrdersFromRows([refused])[0]!, execReports: [] } };
      throw notFound(`Order ${id} not found`);
    }
    return { success: true, data: presentOrders(bundle, true)[0] };
  });

  // The order's whole story: FIX messages in and out, state changes and user actions in time order.
  app.get('/api/orders/:id/timeline', { config: { access: 'read' } }, async (req) => {
    const { id } = parse(OrderIdParamsSchema, req.params, 'params');
    const rows = await orderTimelineRows(ctx.db, id);
    if (!rows) throw notFound(`Order ${id} not found`);
    const timeline = buildTimeline(rows, presentFixMessage);
    // Its FIX messages, reports and actions are the compliance record: who looked is recorded.
    await recordLook(ctx.db, req, 'view_order_timeline', { subjectId: rows.order.id, rowCount: timeline.entries.length });
    return { success: true, data: timeline };
  });

  // The whole order as the screens show it (legs, parties, client, pending request), after the commit.
  const answer = async (o: ActionOutcome): Promise<OrderActionResponse> => {
    const bundle = (await o.stored) ?? (await getOrderBundle(ctx.db, o.order.id));
    return {
      success: true,
      order: presentOrders(
        bundle ?? {
          orders: [{ ...o.order, client_name: null, client_phone: null, company_name: null }],
          legs: [],
          parties: [],
          requests: [],
          execReports: [],
        },
        false,
      )[0]!,
      fullyFilled: o.fullyFilled,
      message: o.message,
    };
  };
  const trade = { config: { access: 'trade' as const } };
  /**
   * The actor a body claims (`userId`) is kept on the action as `via` only when it names one of our
   * simulators (the Broker Simulator acting under a broker's sign-in). A person's claim is ignored:
   * a broker could otherwise have any name written beside their own in the audit.
   */
  const via = (claimed: string | undefined) => (claimed === BROKER_SIM_USER_ID ? claimed : undefined);

  app.post('/api/orders/:id/accept', trade, async (req) => {
    const { id } = parse(OrderIdParamsSchema, req.params, 'params');
    const body = parse(AcceptOrderSchema, req.body ?? {}, 'body');
    // A person's notes on Accept are the "Message to client": sent as Text (58) on the New report. The
    // simulators (which claim a userId) label their actions in the notes for the audit only.
    const simulator = via(body.userId);
    return answer(await orders.accept(id, user(req), body.notes, simulator, simulator === undefined ? body.notes : undefined));
  });

  app.post('/api/orders/:id/reject', trade, async (req) => {
    const { id } = parse(OrderIdParamsSchema, req.params, 'params');
    const body = parse(RejectOrderSchema, req.body ?? {}, 'body');
    return answer(
      await orders.reject(
        id,
        user(req),
        body.reasonText,
        body.rejectReason === undefined ? undefined : String(body.rejectReason),
        body.notes,
        via(body.userId),
      ),
    );
  });

  app.post('/api/orders/:id/fill', trade, async (req) => {
    const { id } = parse(OrderIdParamsSchema, req.params, 'params');
    const body = parse(FillOrderSchema, req.body, 'body');
    return answer(await orders.fill(id, user(req), body.fillQty, body.fillPrice, body.legIndex, body.notes, via(body.userId)));
  });

  app.post('/api/orders/:id/done-for-day', trade, async (req) => {
    const { id } = parse(OrderIdParamsSchema, req.params, 'params');
    const body = parse(DoneForDaySchema, req.body ?? undefined, 'body');
    return answer(await orders.doneForDay(id, user(req), body?.notes, via(body?.userId)));
  });

  app.post('/api/orders/:id/cancel', trade, async (req) => {
    const { id } = parse(OrderIdParamsSchema, req.params, 'params');
    const body = parse(BrokerCancelSchema, req.body, 'body');
    return answer(await orders.brokerCancel(id, user(req), body.reason, body.notes, via(body.userId)));
  });

  for (const kind of ['cancel', 'replace'] as const) {
    for (const decision of ['confirm', 'refuse'] as const) {
      app.post(`/api/orders/:id/${kind}-request/${decision}`, trade, async (req) => {
        const { id } = parse(OrderIdParamsSchema, req.params, 'params');
        const body = parse(DecisionSchema, req.body ?? undefined, 'body');
        const reason = body?.reason ?? body?.notes;
        if (decision === 'refuse' && !reason?.trim()) throw invalidField('reason', 'A reason is required to refuse the request');
        return answer(await orders.decideRequest(id, user(req), kind, decision, reason, via(body?.userId)));
      });
    }
  }
}
