import type { InboundMessage } from './message';
import type { SessionContext, SessionState, StateName } from './session-state';

/**
 * What the logged-on states (in session, resend) share: the schedule end, heartbeats and liveness on
 * each tick, the operator's Logout and the socket closing. Each passes its own message handling.
 */
export function loggedOnState(name: 'inSession' | 'resend', onMessage: (ctx: SessionContext, message: InboundMessage) => Promise<StateName>): SessionState {
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
        await ctx.sendLogout('Session end time reached');
        return 'logout';
      }
      return (await checkLiveness(ctx)) ? name : 'disconnected';
    },

    async onDisconnect(ctx: SessionContext, reason: string): Promise<StateName> {
      await ctx.dropConnection(reason);
      return 'disconnected';
    },

    async onOperatorLogout(ctx: SessionContext, reason: string): Promise<StateName> {
      await ctx.sendLogout(reason);
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
  if (ctx.heartBtIntSec <= 0 || !ctx.connected) return true;
  const now = ctx.now();
  const hb = ctx.heartBtIntSec * 1000;
  const silence = hb * ctx.settings.testRequestDelayFactor;
  if (ctx.testRequestSentAt !== undefined && now - ctx.lastReceivedAt >= silence && now - ctx.testRequestSentAt >= silence) {
    await ctx.dropConnection(`peer silent for ${Math.round((now - ctx.lastReceivedAt) / 1000)}s after TestRequest`);
    return false;
  }
  if (ctx.testRequestSentAt === undefined && now - ctx.lastReceivedAt >= silence) {
    await ctx.sendTestRequest();
  } else if (ctx.testRequestSentAt === undefined && now - ctx.lastSentAt >= hb) {
    await ctx.sendHeartbeat();
  }
  if (ctx.testRequestSentAt !== undefined && ctx.lastReceivedAt > ctx.testRequestSentAt) ctx.testRequestSentAt = undefined;
  return true;
}
