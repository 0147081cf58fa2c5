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

/**
 * The handlers of a logged-on state. In session and resend differ only in their name (a gap is
 * tracked by the session itself), so both states are built here and stay one file each.
 */
export function loggedOnState(name: 'inSession' | 'resend'): SessionState {
  return {
    name,

    async onConnect(s: Session): Promise<StateName> {
      throw new Error(`${s.key}: connect while logged on`);
    },

    onMessage: loggedOnMessage,

    async onGarbled(): Promise<StateName> {
      return name;
    },

    onTick: (s) => loggedOnTick(s, name),

    async onDisconnect(s: Session, reason: string): Promise<StateName> {
      await s.dropConnection(reason);
      return 'disconnected';
    },

    async onOperatorLogout(s: Session, reason: string): Promise<StateName> {
      await s.sendLogout(reason);
      return 'logout';
    },
  };
}

/** Logged on, inbound numbers in line. */
export const inSessionState: SessionState = loggedOnState('inSession');
