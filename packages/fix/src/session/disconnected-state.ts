import type { InboundMessage } from './message';
import type { Session } from './session';
import type { SessionState, StateName } from './session-state';

/** No connection. The session object, its store and its sequence numbers live on between connections. */
export const disconnectedState: SessionState = {
  name: 'disconnected',

  async onConnect(s: Session): Promise<StateName> {
    // The durable numbers are the truth after a restart or an operator change made elsewhere.
    await s.reloadSequenceState();
    if (s.settings.role === 'initiator') {
      const scheduled = s.isScheduledResetDue();
      if (s.settings.resetOnLogon || scheduled) {
        await s.resetStore(scheduled ? `scheduled ${s.settings.resetFrequency} reset` : 'reset on logon');
        s.resetSentInLogon = true;
      }
      s.heartBtIntSec = s.settings.heartBtIntSec;
      s.startTicking();
      await s.sendLogon();
    }
    return 'logon';
  },

  async onMessage(s: Session, message: InboundMessage): Promise<StateName> {
    s.log.onEvent(`message type ${message.msgType} after disconnect dropped`);
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
