import type { InboundMessage } from './message';
import type { SessionContext, SessionState, StateName } from './session-state';

/** No connection. The session object, its store and its sequence numbers live on between connections. */
export const disconnectedState: SessionState = {
  name: 'disconnected',

  async onConnect(ctx: SessionContext): Promise<StateName> {
    // The durable numbers are the truth after a restart or an operator change made elsewhere.
    await ctx.reloadSequenceState();
    if (ctx.settings.role === 'initiator') {
      const scheduled = ctx.isScheduledResetDue();
      if (ctx.settings.resetOnLogon || scheduled) {
        await ctx.resetStore(scheduled ? `scheduled ${ctx.settings.resetFrequency} reset` : 'reset on logon');
        ctx.resetSentInLogon = true;
      }
      ctx.heartBtIntSec = ctx.settings.heartBtIntSec;
      ctx.startTicking();
      await ctx.sendLogon();
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
