import type { InboundMessage } from './message';
import type { Session } from './session';
import type { SessionState, StateName } from './session-state';

/** Our Logout is out: keep processing what arrives until the peer's Logout, or give up after the timeout. */
export const logoutState: SessionState = {
  name: 'logout',

  async onConnect(s: Session): Promise<StateName> {
    throw new Error(`${s.key}: connect while logging out`);
  },

  async onMessage(s: Session, message: InboundMessage): Promise<StateName> {
    return (await s.handleLoggedOn(message)) ? 'logout' : 'disconnected';
  },

  async onGarbled(): Promise<StateName> {
    return 'logout';
  },

  async onTick(s: Session): Promise<StateName> {
    if (s.logoutSentAt !== undefined && s.clock.now() - s.logoutSentAt >= s.settings.logoutTimeoutMs) {
      await s.dropConnection(`no Logout answer within ${s.settings.logoutTimeoutMs} ms`);
      return 'disconnected';
    }
    return 'logout';
  },

  async onDisconnect(s: Session, reason: string): Promise<StateName> {
    await s.dropConnection(reason);
    return 'disconnected';
  },

  async onOperatorLogout(): Promise<StateName> {
    return 'logout';
  },
};
