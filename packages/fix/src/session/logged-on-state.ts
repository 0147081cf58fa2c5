import type { InboundMessage } from './message';
import type { SessionContext, SessionState, StateName } from './session-state';

/**
 * What the logged-on states (in session, resend) share: the schedule end, heartbeats and liveness on
 * each tick, the operator's Logout and the socket closing. Each passes its own message handling.
 */
export function loggedOnState(
  name: 'inSession' | 'resend',
  onMessage: (ctx: SessionContext, message: InboundMessage) => Promise<StateName>,
): SessionState {
  return {
    name,

    async onConnect(ctx: SessionContext): Promise<StateName> {
      throw new Error(`${ctx.key}: connect while logged on`);
    },

    onMessage,

    async onGarbled(): Promise<StateName> {
      return name;
    },

    async onTick(ctx: SessionContext): Promise<StateName> {
      if (!ctx.isWithinSchedule()) {
        await ctx.send.logout('Session end time reached');
        return 'logout';
      }
      return (await checkLiveness(ctx)) ? name : 'disconnected';
    },

    async onDisconnect(ctx: SessionContext, reason: string): Promise<StateName> {
      await ctx.dropConnection(reason);
      return 'disconnected';
    },

    async onOperatorLogout(ctx: SessionContext, reason: string): Promise<StateName> {
      await ctx.send.logout(reason);
      return 'logout';
    },
  };
}

/**
 * Heartbeat when we have been quiet for HeartBtInt; TestRequest when the peer has been quiet for
 * HeartBtInt x factor; disconnect when it stays quiet as long again. As at QuickFIX, no Heartbeat
 * goes out while our TestRequest waits for its answer. Returns false when dropped.
 */
export async function checkLiveness(ctx: SessionContext): Promise<boolean> {
  if (ctx.connection.heartBtIntSec <= 0 || !ctx.connection.connected) return true;
  const now = ctx.now();
  const hb = ctx.connection.heartBtIntSec * 1000;
  const silence = hb * ctx.settings.testRequestDelayFactor;
  if (
    ctx.connection.testRequestSentAt !== undefined &&
    now - ctx.connection.lastReceivedAt >= silence &&
    now - ctx.connection.testRequestSentAt >= silence
  ) {
    await ctx.dropConnection(`peer silent for ${Math.round((now - ctx.connection.lastReceivedAt) / 1000)}s after TestRequest`);
    return false;
  }
  if (ctx.connection.testRequestSentAt === undefined && now - ctx.connection.lastReceivedAt >= silence) {
    await ctx.send.testRequest();
  } else if (ctx.connection.testRequestSentAt === undefined && now - ctx.connection.lastSentAt >= hb) {
    await ctx.send.heartbeat();
  }
  if (ctx.connection.testRequestSentAt !== undefined && ctx.connection.lastReceivedAt > ctx.connection.testRequestSentAt)
    ctx.connection.testRequestAnswered();
  return true;
}
