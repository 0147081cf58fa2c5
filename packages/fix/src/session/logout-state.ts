import { handleLoggedOn } from './in-session';
import type { InboundMessage } from './message';
import type { SessionContext, SessionState, StateName } from './session-state';

/** Our Logout is out: keep processing what arrives until the peer's Logout, or give up after the timeout. */
export const logoutState: SessionState = {
  name: 'logout',

  async onConnect(ctx: SessionContext): Promise<StateName> {
    throw new Error(`${ctx.key}: connect while logging out`);
  },

  async onMessage(ctx: SessionContext, message: InboundMessage): Promise<StateName> {
    return (await handleLoggedOn(ctx, message)) ? 'logout' : 'disconnected';
  },

  async onGarbled(): Promise<StateName> {
    return 'logout';
  },

  async onTick(ctx: SessionContext): Promise<StateName> {
    if (ctx.connection.logoutSentAt !== undefined && ctx.now() - ctx.connection.logoutSentAt >= ctx.settings.logoutTimeoutMs) {
      await ctx.dropConnection(`no Logout answer within ${ctx.settings.logoutTimeoutMs} ms`);
      return 'disconnected';
    }
    return 'logout';
  },

  async onDisconnect(ctx: SessionContext, reason: string): Promise<StateName> {
    await ctx.dropConnection(reason);
    return 'disconnected';
  },

  async onOperatorLogout(): Promise<StateName> {
    return 'logout';
  },
};
