import type { FastifyInstance } from 'fastify';
import { ClientResumeSchema, ClientStopSchema, CompIdParamsSchema } from '@fixdesk/protocol';
import type { AppContext } from '../context';
import { parse } from '../http/errors';

/**
 * The kill switch per client: `POST /api/client-connectors/{comp_id}/stop` refuses every new
 * order of the client and cancels its working orders; `/resume` lifts the refusal. Brokers and
 * administrators (trade access); each is an order action with who and why.
 */
export function clientKillSwitchRoutes(app: FastifyInstance, ctx: AppContext): void {
  const trade = { config: { access: 'trade' as const } };

  app.post('/api/client-connectors/:comp_id/stop', trade, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const body = parse(ClientStopSchema, req.body, 'body');
    const data = await ctx.killSwitch.stop(comp_id, req.user!, body.reason, body.logout ?? false);
    const n = data.canceled_orders;
    return {
      success: true,
      data,
      message: `${data.comp_id} stopped: ${n} working order${n === 1 ? '' : 's'} canceled${data.logged_out ? ', session logged out' : ''}`,
    };
  });

  app.post('/api/client-connectors/:comp_id/resume', trade, async (req) => {
    const { comp_id } = parse(CompIdParamsSchema, req.params, 'params');
    const body = parse(ClientResumeSchema, req.body, 'body');
    const data = await ctx.killSwitch.resume(comp_id, req.user!, body.reason);
    return { success: true, data, message: `${data.comp_id} resumed: new orders are accepted again` };
  });
}
