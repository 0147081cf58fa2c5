import { loggedOnMessage, loggedOnTick } from './in-session';
import type { Session } from './session';
import type { SessionState, StateName } from './session-state';

/**
 * Logged on with an inbound gap: our ResendRequest is out, later messages wait in the session's queue
 * and reach the application only once the gap is filled, in MsgSeqNum order.
 */
export const resendState: SessionState = {
  name: 'resend',

  async onConnect(s: Session): Promise<StateName> {
    throw new Error(`${s.key}: connect while logged on`);
  },

  onMessage: loggedOnMessage,

  async onGarbled(): Promise<StateName> {
    return 'resend';
  },

  onTick: (s) => loggedOnTick(s, 'resend'),

  async onDisconnect(s: Session, reason: string): Promise<StateName> {
    await s.dropConnection(reason);
    return 'disconnected';
  },

  async onOperatorLogout(s: Session, reason: string): Promise<StateName> {
    await s.sendLogout(reason);
    return 'logout';
  },
};
