import { MsgType, Tag } from '../dictionary/tags.generated';
import type { InboundMessage } from './message';
import type { Session } from './session';
import type { SessionState, StateName } from './session-state';

/**
 * Connected, not yet logged on. Acceptor: the first message must be the peer's Logon (already
 * authenticated by the acceptor); we answer it. Initiator: our Logon is out; we wait for the answer.
 */
export const logonState: SessionState = {
  name: 'logon',

  async onConnect(s: Session): Promise<StateName> {
    throw new Error(`${s.key}: connect while a connection is already logging on`);
  },

  async onMessage(s: Session, message: InboundMessage): Promise<StateName> {
    if (message.msgType === MsgType.Logout) {
      const text = message.get(Tag.Text);
      await s.auditInbound(message);
      await s.dropConnection(text ? `Logout before logon completed: ${text}` : 'Logout before logon completed');
      return 'disconnected';
    }
    if (message.msgType !== MsgType.Logon) {
      await s.auditInbound(message);
      if (s.settings.role === 'initiator') await s.logoutAndDrop(`First message was not a Logon (35=${message.msgType})`);
      else await s.dropConnection(`first message was not a Logon (35=${message.msgType})`);
      return 'disconnected';
    }
    // An invalid Logon (header, format, dictionary) ends the connection with nothing sent, as QuickFIX
    // does. A valid one refused (the application's RejectLogon, a MsgSeqNum too low) gets a Logout
    // with the reason. Neither changes a sequence number: nothing of this Logon was processed.
    const headerProblem = s.logonHeaderProblem(message);
    if (headerProblem !== undefined) return s.dropInvalidLogon(message, headerProblem);
    if (s.settings.validate) {
      const issue = s.codec.validate(message);
      if (issue) return s.dropInvalidLogon(message, `${issue.text}${issue.refTagID !== undefined ? ` (${issue.refTagID})` : ''}`);
    }
    const heartBtInt = message.get(Tag.HeartBtInt);
    if (heartBtInt === undefined || !/^\d{1,6}$/.test(heartBtInt)) return s.dropInvalidLogon(message, 'HeartBtInt (108) missing or not a whole number of seconds');
    const refused = await s.admitLogon(message);
    if (refused !== undefined) return s.refuseLogon(message, refused);

    const peerReset = message.get(Tag.ResetSeqNumFlag) === 'Y';
    if (s.settings.role === 'acceptor') {
      if (peerReset) {
        await s.resetStore('peer Logon with ResetSeqNumFlag=Y');
        s.resetSentInLogon = true;
      } else if (s.settings.resetOnLogon) {
        await s.resetStore('reset on logon');
      } else if (s.isScheduledResetDue()) {
        await s.resetStore(`scheduled ${s.settings.resetFrequency} reset`);
      }
      const seqCheck = await s.checkLogonSeq(message);
      if (seqCheck === 'disconnected') return 'disconnected';
      // The client's HeartBtInt governs the session and is echoed back.
      s.heartBtIntSec = Number(heartBtInt);
      s.startTicking();
      await s.sendLogon();
      s.resetSentInLogon = false;
      return s.completeLogon(message, seqCheck);
    }

    if (s.resetSentInLogon && !peerReset) s.log.onEvent('peer answered our ResetSeqNumFlag=Y Logon without the flag');
    s.resetSentInLogon = false;
    const seqCheck = await s.checkLogonSeq(message);
    if (seqCheck === 'disconnected') return 'disconnected';
    return s.completeLogon(message, seqCheck);
  },

  async onGarbled(): Promise<StateName> {
    return 'logon';
  },

  async onTick(s: Session): Promise<StateName> {
    if (s.clock.now() - s.connectedAt >= s.settings.logonTimeoutMs) {
      await s.dropConnection(`no Logon within ${s.settings.logonTimeoutMs} ms`);
      return 'disconnected';
    }
    return 'logon';
  },

  async onDisconnect(s: Session, reason: string): Promise<StateName> {
    await s.dropConnection(reason);
    return 'disconnected';
  },

  async onOperatorLogout(s: Session, reason: string): Promise<StateName> {
    await s.dropConnection(reason);
    return 'disconnected';
  },
};
