import { MsgType, Tag } from '@fixdesk/fix-codes';
import { RejectLogon } from './application';
import { msgSeqNum } from './inbound';
import type { InboundMessage } from './message';
import { errorText } from './outbound';
import type { SessionContext, SessionState, StateName } from './session-state';

/**
 * Connected, not yet logged on. Acceptor: the first message must be the peer's Logon (already
 * authenticated by the acceptor); we answer it. Initiator: our Logon is out; we wait for the answer.
 */
export const logonState: SessionState = {
  name: 'logon',

  async onConnect(ctx: SessionContext): Promise<StateName> {
    throw new Error(`${ctx.key}: connect while a connection is already logging on`);
  },

  async onMessage(ctx: SessionContext, message: InboundMessage): Promise<StateName> {
    if (message.msgType === MsgType.Logout) {
      const text = message.get(Tag.Text);
      await ctx.inbound.audit(message);
      await ctx.dropConnection(text ? `Logout before logon completed: ${text}` : 'Logout before logon completed');
      return 'disconnected';
    }
    if (message.msgType !== MsgType.Logon) {
      await ctx.inbound.audit(message);
      if (ctx.settings.role === 'initiator') await ctx.logoutAndDrop(`First message was not a Logon (35=${message.msgType})`);
      else await ctx.dropConnection(`first message was not a Logon (35=${message.msgType})`);
      return 'disconnected';
    }
    // An invalid Logon (header, format, dictionary) ends the connection with nothing sent, as QuickFIX
    // does. A valid one refused (the application's RejectLogon, a MsgSeqNum too low) gets a Logout
    // with the reason. Neither changes a sequence number: nothing of this Logon was processed.
    const headerProblem = logonHeaderProblem(ctx, message);
    if (headerProblem !== undefined) return dropInvalidLogon(ctx, message, headerProblem);
    if (ctx.settings.validate) {
      const issue = ctx.codec.validate(message);
      if (issue) return dropInvalidLogon(ctx, message, `${issue.text}${issue.refTagID !== undefined ? ` (${issue.refTagID})` : ''}`);
    }
    const heartBtInt = message.get(Tag.HeartBtInt);
    if (heartBtInt === undefined || !/^\d{1,6}$/.test(heartBtInt))
      return dropInvalidLogon(ctx, message, 'HeartBtInt (108) missing or not a whole number of seconds');
    const refused = await admitLogon(ctx, message);
    if (refused !== undefined) return refuseLogon(ctx, message, refused);

    const peerReset = message.get(Tag.ResetSeqNumFlag) === 'Y';
    if (ctx.settings.role === 'acceptor') {
      if (peerReset) {
        await ctx.numbers.reset('peer Logon with ResetSeqNumFlag=Y');
      } else if (ctx.settings.resetOnLogon) {
        await ctx.numbers.reset('reset on logon');
      } else if (ctx.numbers.resetDue()) {
        await ctx.numbers.reset(`scheduled ${ctx.settings.resetFrequency} reset`);
      }
      const seqCheck = await checkLogonSeq(ctx, message);
      if (seqCheck === 'disconnected') return 'disconnected';
      // The client's HeartBtInt governs the session and is echoed back.
      ctx.startHeartbeats(Number(heartBtInt));
      await ctx.send.logonAnswer(peerReset);
      return completeLogon(ctx, message, seqCheck);
    }

    if (ctx.connection.resetSentInLogon && !peerReset) ctx.log.onEvent('peer answered our ResetSeqNumFlag=Y Logon without the flag');
    ctx.connection.resetAnswered();
    const seqCheck = await checkLogonSeq(ctx, message);
    if (seqCheck === 'disconnected') return 'disconnected';
    return completeLogon(ctx, message, seqCheck);
  },

  async onGarbled(): Promise<StateName> {
    return 'logon';
  },

  async onTick(ctx: SessionContext): Promise<StateName> {
    if (ctx.now() - ctx.connection.connectedAt >= ctx.settings.logonTimeoutMs) {
      await ctx.dropConnection(`no Logon within ${ctx.settings.logonTimeoutMs} ms`);
      return 'disconnected';
    }
    return 'logon';
  },

  async onDisconnect(ctx: SessionContext, reason: string): Promise<StateName> {
    await ctx.dropConnection(reason);
    return 'disconnected';
  },

  async onOperatorLogout(ctx: SessionContext, reason: string): Promise<StateName> {
    await ctx.dropConnection(reason);
    return 'disconnected';
  },
};

/** The header check a Logon fails, for the log; undefined when it passes. */
function logonHeaderProblem(ctx: SessionContext, message: InboundMessage): string | undefined {
  const problem = ctx.inbound.headerProblem(message, true);
  if (!problem) return undefined;
  return problem.logout?.why ?? problem.reject![1] + (problem.reject![2] !== undefined ? ` (${problem.reject![2]})` : '');
}

/**
 * An invalid Logon (a header, format or dictionary problem): the connection is closed with nothing
 * sent, as QuickFIX does, and no number changes; the Logon is kept in the audit.
 */
async function dropInvalidLogon(ctx: SessionContext, logon: InboundMessage, why: string): Promise<'disconnected'> {
  await ctx.inbound.audit(logon);
  await ctx.dropConnection(`invalid Logon: ${why}`);
  return 'disconnected';
}

/**
 * Refuses a Logon: a Logout with the reason, then close, and no sequence number changes. The Logout
 * reuses our next number without taking it and the Logon's number is not consumed (both are kept
 * in the audit only), so the next logon starts from exactly the numbers the store had before.
 */
async function refuseLogon(ctx: SessionContext, logon: InboundMessage, text: string): Promise<'disconnected'> {
  await ctx.inbound.audit(logon);
  await ctx.send.refusalLogout(text);
  await ctx.dropConnection(`logon refused: ${text}`);
  return 'disconnected';
}

/** The sequence-number check for a Logon (or its answer); too low ends the connection. */
async function checkLogonSeq(ctx: SessionContext, message: InboundMessage): Promise<'ok' | 'tooHigh' | 'disconnected'> {
  const seq = msgSeqNum(message);
  if (seq === undefined) return dropInvalidLogon(ctx, message, 'MsgSeqNum (34) missing or invalid');
  // A refusal like any other: neither side's number moves.
  if (seq < ctx.numbers.nextTarget)
    return refuseLogon(ctx, message, `MsgSeqNum too low, expecting ${ctx.numbers.nextTarget} but received ${seq}`);
  return seq > ctx.numbers.nextTarget ? 'tooHigh' : 'ok';
}

/** Completes a logon whose numbers checked out; returns the state to enter. */
async function completeLogon(ctx: SessionContext, message: InboundMessage, seqCheck: 'ok' | 'tooHigh'): Promise<StateName> {
  const seq = msgSeqNum(message)!;
  ctx.connection.markLoggedOn();
  ctx.log.onEvent(
    `logged on (HeartBtInt ${ctx.connection.heartBtIntSec}s, next sender ${ctx.numbers.nextSender}, next target ${ctx.numbers.nextTarget})`,
  );
  let next: StateName = 'inSession';
  if (seqCheck === 'ok') await ctx.inbound.consume(message, seq + 1);
  else {
    // The Logon itself stays unconsumed: the peer's resend will gap-fill it.
    await ctx.inbound.audit(message);
    ctx.inbound.extendGap(seq);
    await ctx.send.resendRequest(ctx.numbers.nextTarget);
    next = 'resend';
  }
  try {
    await ctx.app.onLogon();
  } catch (err) {
    ctx.log.onEvent(`onLogon failed: ${errorText(err)}`);
  }
  return next;
}

/** fromAdmin for a Logon; RejectLogon refuses it. */
async function admitLogon(ctx: SessionContext, message: InboundMessage): Promise<string | undefined> {
  try {
    await ctx.app.fromAdmin(message);
    return undefined;
  } catch (err) {
    if (err instanceof RejectLogon) return err.text;
    throw err;
  }
}
