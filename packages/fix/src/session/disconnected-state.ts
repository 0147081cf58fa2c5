import type { InboundMessage } from './message';
import type { SessionContext, SessionState, StateName } from './session-state';

/** No connection. The session object, its store and its sequence numbers live on between connections. */
export const disconnectedState: SessionState = {
  name: 'disconnected',

  async onConnect(ctx: SessionContext): Promise<StateName> {
    // The durable numbers are the truth after a restart or an operator change made elsewhere.
    await ctx.numbers.reload();
    if (ctx.settings.role === 'initiator') {
      const scheduled = ctx.numbers.resetDue();
      const reset = ctx.settings.resetOnLogon || scheduled;
      if (reset) await ctx.numbers.reset(scheduled ? `scheduled ${ctx.settings.resetFrequency} reset` : 'reset on logon');
      ctx.startHeartbeats(ctx.settings.heartBtIntSec);
      await ctx.send.logon(reset);
    }
    return 'logon';
  },

  async onMessage(ctx: SessionContext, message: InboundMessage): Promise<StateName> {
    ctx.log.onEvent(`message type ${message.msgType} after disconnect dropped`);
    return 'disconnected';
  },

  async onGarbled(): Promise<StateName> {
    return 'disconnected';
  },

  async onTick(): Promise<StateName> {
    return 'disconnected';
  },

  async onDisconnect(): Promise<StateName> {
    return 'disconnected';
  },

  async onOperatorLogout(): Promise<StateName> {
    return 'disconnected';
  },
};
