import { MsgType } from '@fixdesk/fix-codes';
import type { InboundMessage } from './message';
import type { SessionContext } from './session-state';

// The inbound gap while logged on (in session, resend and logout states, through in-session.ts's
// handleLoggedOn): a message above the expected number opens the gap or widens it and waits in the gap
// queue (inbound.ts); once the gap is filled the queue is drained in MsgSeqNum order.

export async function queueAhead(ctx: SessionContext, message: InboundMessage, seq: number): Promise<boolean> {
  if (ctx.inbound.queuedCount >= ctx.settings.maxQueuedMessages) {
    await ctx.logoutAndDrop(`Too many messages queued behind a sequence gap (${ctx.inbound.queuedCount})`);
    return false;
  }
  let resendAnswered = false;
  // The peer may be asking for our messages to fill its own gap: answer now, not after ours is filled.
  if (message.msgType === MsgType.ResendRequest) {
    if (!(await ctx.inbound.answerResendRequest(message))) return false;
    resendAnswered = true;
  }
  await ctx.inbound.audit(message);
  ctx.inbound.hold(seq, { message, resendAnswered });
  ctx.inbound.extendGap(seq);
  // One ResendRequest per gap: while in resend it is out already (EndSeqNo 0 covers later numbers).
  if (ctx.stateName !== 'resend') await ctx.send.resendRequest(ctx.numbers.nextTarget);
  return true;
}

/**
 * Processes queued messages that are now in sequence, in order. One that is not pipelined (an admin
 * message, a cancel) first waits for the pipelined messages still with the application: the gap may
 * have been filled by resent orders that overlap (session.ts, mayOverlap).
 */
export async function drainQueue(
  ctx: SessionContext,
  process: (ctx: SessionContext, message: InboundMessage, audited: boolean, resendAnswered: boolean) => Promise<boolean>,
): Promise<boolean> {
  for (let entry = ctx.inbound.takeReady(); entry; entry = ctx.inbound.takeReady()) {
    if (!ctx.settings.pipelineApplication.includes(entry.message.msgType)) await ctx.inbound.settle();
    if (!(await process(ctx, entry.message, true, entry.resendAnswered))) return false;
  }
  return true;
}
