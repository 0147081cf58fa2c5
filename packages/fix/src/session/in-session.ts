import type { InboundMessage } from './message';
import type { Session } from './session';
import type { SessionState, StateName } from './session-state';

/** Logged on, inbound numbers in line. Resend state shares these handlers; only the name differs. */
export async function loggedOnMessage(s: Session, message: InboundMessage): Promise<StateName> {
  if (!(await s.handleLoggedOn(message))) return 'disconnected';
  return s.gapOpen ? 'resend' : 'inSession';
}

export async function loggedOnTick(s: Session, stay: StateName): Promise<StateName> {
  if (!s.isWithinSchedule()) {
    await s.sendLogout('Session end time reached');
    return 'logout';
  }
  return (await s.checkLiveness()) ? stay : 'disconnected';
}

export const inSessionState: SessionState = {
  name: 'inSession',

  async onConnect(s: Session): Promise<StateName> {
    throw new Error(`${s.key}: connect while logged on`);
  },

  onMessage: loggedOnMessage,

  async onGarbled(): Promise<StateName> {
    return 'inSession';
  },

  onTick: (s) => loggedOnTick(s, 'inSession'),

  async onDisconnect(s: Session, reason: string): Promise<StateName> {
    await s.dropConnection(reason);
    return 'disconnected';
  },

  async onOperatorLogout(s: Session, reason: string): Promise<StateName> {
    await s.sendLogout(reason);
    return 'logout';
  },
};
