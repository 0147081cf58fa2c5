import { loggedOnState } from './logged-on-state';
import { loggedOnMessage } from './in-session';
import { MsgType } from '../dictionary/tags.generated';
import type { InboundMessage } from './message';
import type { SessionContext, SessionState } from './session-state';

/**
 * Logged on with an inbound gap: our ResendRequest is out, later messages wait in the gap queue
 * (inbound.ts) and reach the application only once the gap is filled, in MsgSeqNum order. A message
 * above the expected number opens the gap (from in session) or widens it (here, without asking again).
 */
export const resendState: SessionState = loggedOnState('resend', (ctx, message) => loggedOnMessage(ctx, message));

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
export async function drainQueue(ctx: SessionContext, process: (ctx: SessionContext, message: InboundMessage, audited: boolean, resendAnswered: boolean) => Promise<boolean>): Promise<boolean> {
  for (let entry = ctx.inbound.takeReady(); entry; entry = ctx.inbound.takeReady()) {
    if (!ctx.settings.pipelineApplication.includes(entry.message.msgType)) await ctx.inbound.settle();
    if (!(await process(ctx, entry.message, true, entry.resendAnswered))) return false;
  }
  return true;
}
