import { Tag } from '../dictionary/tags.generated';
import { handleLoggedOn } from './in-session';
import { msgSeqNum } from './inbound';
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

/** The peer's Logout while logged on: answer (unless we asked) and close. */
export async function handleLogout(ctx: SessionContext, message: InboundMessage): Promise<boolean> {
  const seq = msgSeqNum(message)!;
  if (seq === ctx.numbers.nextTarget) await ctx.inbound.consume(message, seq + 1);
  else await ctx.inbound.audit(message);
  const text = message.get(Tag.Text);
  if (ctx.connection.logoutSentAt === undefined) await ctx.send.logout();
  await ctx.dropConnection(text ? `peer logged out: ${text}` : 'peer logged out');
  return false;
}
