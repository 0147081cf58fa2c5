import { MsgType, Tag } from '@fixdesk/fix-codes';
import type { AppReceipt } from './application';
import { msgSeqNum } from './inbound';
import { loggedOnState } from './logged-on-state';
import { ADMIN_MSG_TYPES, type InboundMessage } from './message';
import { TEST_REQ_ID } from './admin-messages';
import { errorText } from './outbound';
import { drainQueue, queueAhead } from './gap-queue';
import type { HeaderProblem, SessionContext, SessionState, StateName } from './session-state';

/** Outcome of the checks every logged-on inbound message goes through. */
type Verdict = 'process' | 'done' | 'disconnected';

/**
 * Logged on, inbound numbers in line: the rules for each message (header and sequence checks, then
 * Heartbeat, TestRequest, ResendRequest, Reject, SequenceReset, Logon, Logout, application messages).
 * The resend and logout states handle messages with the same rules (handleLoggedOn).
 */
export const inSessionState: SessionState = loggedOnState('inSession', loggedOnMessage);

export async function loggedOnMessage(ctx: SessionContext, message: InboundMessage): Promise<StateName> {
  if (!(await handleLoggedOn(ctx, message))) return 'disconnected';
  return ctx.inbound.gapOpen ? 'resend' : 'inSession';
}

/**
 * The full handling of one inbound message while logged on (inSession, resend and logout states):
 * header checks, sequence checks (gap → queue + ResendRequest; too low → Logout), then processing,
 * then any queued messages the gap fill released. Returns false when the connection was dropped.
 */
export async function handleLoggedOn(ctx: SessionContext, message: InboundMessage): Promise<boolean> {
  // Message types whose MsgSeqNum is not checked before they act.
  if (message.msgType === MsgType.Logon && message.get(Tag.ResetSeqNumFlag) === 'Y') return handleResetLogon(ctx, message);
  if (message.msgType === MsgType.SequenceReset && message.get(Tag.GapFillFlag) !== 'Y') {
    // Reset mode: the MsgSeqNum is ignored (FIX 4.4 vol. 2; QuickFIX 11a-11c).
    const v = await verifyHeader(ctx, message, true, false);
    if (v !== 'process') return v !== 'disconnected';
    await handleSequenceResetReset(ctx, message);
    return drainQueue(ctx, processInSequence);
  }
  const checked = verifyHeader(ctx, message);
  const verdict = checked === 'process' ? checked : await checked;
  if (verdict !== 'process') return verdict !== 'disconnected';
  const seq = msgSeqNum(message)!;
  if (message.msgType === MsgType.Logout) return handleLogout(ctx, message);
  if (seq > ctx.numbers.nextTarget) return queueAhead(ctx, message, seq);
  if (seq < ctx.numbers.nextTarget) {
    if (message.msgType === MsgType.ResendRequest) {
      // A ResendRequest is answered whatever its number (QuickFIX): the peer is missing our messages.
      // Its own number is not consumed, and one too low is not a reason to end the session.
      ctx.log.onEvent(`ResendRequest with MsgSeqNum ${seq} below the expected ${ctx.numbers.nextTarget} answered`);
      await ctx.inbound.audit(message);
      return ctx.inbound.answerResendRequest(message);
    }
    if (message.get(Tag.PossDupFlag) === 'Y') {
      ctx.log.onEvent(`duplicate MsgSeqNum ${seq} ignored (expecting ${ctx.numbers.nextTarget})`);
      await ctx.inbound.audit(message);
      return true;
    }
    const text = `MsgSeqNum too low, expecting ${ctx.numbers.nextTarget} but received ${seq}`;
    await ctx.inbound.audit(message);
    await ctx.logoutAndDrop(text);
    return false;
  }
  if (!(await processInSequence(ctx, message, false, false))) return false;
  return ctx.inbound.queuedCount > 0 ? drainQueue(ctx, processInSequence) : true;
}

/** BeginString, CompIDs, SendingTime accuracy, PossDup rules: the header checks of FIX 4.4 vol. 2. */
function verifyHeader(ctx: SessionContext, message: InboundMessage, checkLatency = true, checkSeq = true): Verdict | Promise<Verdict> {
  const problem = ctx.inbound.headerProblem(message, checkLatency, checkSeq);
  return problem ? answerHeaderProblem(ctx, message, problem) : 'process';
}

/** Reject (consuming the number when it was the expected one), then Logout and close when the problem calls for it. */
async function answerHeaderProblem(ctx: SessionContext, message: InboundMessage, problem: HeaderProblem): Promise<Verdict> {
  if (problem.reject) await rejectAndConsume(ctx, message, ...problem.reject);
  if (problem.logout === undefined) return 'done';
  await ctx.logoutAndDrop(problem.logout.text, problem.logout.why);
  return 'disconnected';
}

/** Sends a Reject and, when the message was the one expected, consumes its number (it was processed). */
async function rejectAndConsume(
  ctx: SessionContext,
  message: InboundMessage,
  reason: string,
  text: string,
  refTagID?: number,
): Promise<void> {
  await ctx.send.reject(message, reason, text, refTagID);
  const seq = msgSeqNum(message);
  if (seq === ctx.numbers.nextTarget) await ctx.inbound.consume(message, seq + 1);
  else await ctx.inbound.audit(message);
}

/** A message whose MsgSeqNum is the expected one. */
async function processInSequence(
  ctx: SessionContext,
  message: InboundMessage,
  audited: boolean,
  resendAnswered: boolean,
): Promise<boolean> {
  const seq = msgSeqNum(message)!;
  let receipt: AppReceipt | undefined;
  if (ctx.settings.validate) {
    const issue = ctx.codec.validate(message);
    if (issue) {
      await ctx.send.reject(message, issue.reason, issue.text, issue.refTagID);
      await ctx.inbound.consume(message, seq + 1, audited);
      return true;
    }
  }
  if (ADMIN_MSG_TYPES.has(message.msgType)) {
    try {
      await ctx.app.fromAdmin(message);
    } catch (err) {
      ctx.log.onEvent(`fromAdmin failed: ${errorText(err)}`);
    }
  }
  switch (message.msgType) {
    case MsgType.Heartbeat: {
      const id = message.get(Tag.TestReqID);
      if (id === TEST_REQ_ID) ctx.connection.testRequestAnswered();
      break;
    }
    case MsgType.TestRequest:
      await ctx.send.heartbeat(message.get(Tag.TestReqID));
      break;
    case MsgType.ResendRequest:
      if (!resendAnswered && !(await ctx.inbound.answerResendRequest(message))) return false;
      break;
    case MsgType.Reject:
      ctx.log.onEvent(`peer rejected our MsgSeqNum ${message.get(Tag.RefSeqNum)}: ${message.get(Tag.Text) ?? ''}`);
      break;
    case MsgType.SequenceReset: {
      // GapFill in sequence: jump to NewSeqNo.
      const newSeqNo = Number(message.get(Tag.NewSeqNo));
      if (!Number.isSafeInteger(newSeqNo) || newSeqNo <= seq) {
        await ctx.send.reject(
          message,
          '5',
          `Attempt to lower sequence number, invalid value NewSeqNo(36)=${message.get(Tag.NewSeqNo)}`,
          Tag.NewSeqNo,
        );
        await ctx.inbound.consume(message, seq + 1, audited);
        return true;
      }
      await ctx.inbound.consume(message, newSeqNo, audited);
      return true;
    }
    case MsgType.Logon:
      await ctx.send.reject(message, '5', 'Logon received while already logged on (without ResetSeqNumFlag)', Tag.MsgType);
      break;
    default:
      if (ctx.settings.pipelineApplication.includes(message.msgType)) {
        ctx.inbound.handOn(message, seq + 1, audited);
        return true;
      }
      receipt = await deliverToApp(ctx, message);
  }
  await ctx.inbound.consume(message, seq + 1, audited, receipt);
  return true;
}

async function deliverToApp(ctx: SessionContext, message: InboundMessage): Promise<AppReceipt | undefined> {
  try {
    return (await ctx.app.fromApp(message)) || undefined;
  } catch (err) {
    await ctx.app.answerFailure(message, err);
    return undefined;
  }
}

/** SequenceReset in Reset mode: MsgSeqNum is ignored; NewSeqNo may only move forward. */
async function handleSequenceResetReset(ctx: SessionContext, message: InboundMessage): Promise<void> {
  const raw = message.get(Tag.NewSeqNo);
  const newSeqNo = Number(raw);
  if (raw === undefined) {
    await ctx.send.reject(message, '1', 'Required tag missing', Tag.NewSeqNo);
    return;
  }
  if (!Number.isSafeInteger(newSeqNo) || newSeqNo < ctx.numbers.nextTarget) {
    // QuickFIX's answer, without RefTagID; the log says what was wrong.
    ctx.log.onEvent(`SequenceReset to NewSeqNo ${raw} below the expected ${ctx.numbers.nextTarget} rejected`);
    await ctx.send.reject(message, '5', 'Value is incorrect (out of range) for this tag');
    await ctx.inbound.audit(message);
    return;
  }
  if (newSeqNo === ctx.numbers.nextTarget) ctx.log.onEvent(`SequenceReset to the expected ${newSeqNo} (no change)`);
  else ctx.log.onEvent(`SequenceReset: next expected MsgSeqNum ${ctx.numbers.nextTarget} -> ${newSeqNo}`);
  await ctx.inbound.consume(message, newSeqNo);
}

/** A Logon with ResetSeqNumFlag=Y while logged on: both sides start again at 1. */
async function handleResetLogon(ctx: SessionContext, message: InboundMessage): Promise<boolean> {
  const verdict = await verifyHeader(ctx, message);
  if (verdict !== 'process') return verdict !== 'disconnected';
  const seq = msgSeqNum(message)!;
  if (seq !== 1) {
    await ctx.logoutAndDrop(`MsgSeqNum must be 1 on a Logon with ResetSeqNumFlag=Y, received ${seq}`);
    return false;
  }
  if (ctx.connection.resetSentInLogon && ctx.connection.logoutSentAt === undefined && ctx.numbers.nextTarget === 1) {
    // The answer to our own reset Logon (initiator side of a mid-session reset).
    await ctx.inbound.consume(message, 2);
    ctx.connection.resetAnswered();
    return true;
  }
  await ctx.numbers.reset('peer Logon with ResetSeqNumFlag=Y');
  await ctx.send.logonAnswer(true);
  await ctx.inbound.consume(message, 2);
  return true;
}

/** The peer's Logout while logged on: answer (unless we asked) and close. */
async function handleLogout(ctx: SessionContext, message: InboundMessage): Promise<boolean> {
  const seq = msgSeqNum(message)!;
  if (seq === ctx.numbers.nextTarget) await ctx.inbound.consume(message, seq + 1);
  else await ctx.inbound.audit(message);
  const text = message.get(Tag.Text);
  if (ctx.connection.logoutSentAt === undefined) await ctx.send.logout();
  await ctx.dropConnection(text ? `peer logged out: ${text}` : 'peer logged out');
  return false;
}
