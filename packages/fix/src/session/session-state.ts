import type { InboundMessage } from './message';
import type { Session } from './session';

/**
 * The session's states. `logon` covers both "connected, waiting for the peer's Logon" (acceptor) and
 * "our Logon sent, waiting for the answer" (initiator); `resend` is logged on with an inbound gap open.
 */
export type StateName = 'disconnected' | 'logon' | 'inSession' | 'resend' | 'logout';

/** What can happen to a session. Timer ticks are events too, so every change goes through one queue. */
export type SessionEvent =
  | { readonly kind: 'connect' }
  | { readonly kind: 'message'; readonly message: InboundMessage }
  | { readonly kind: 'garbled'; readonly reason: string }
  | { readonly kind: 'tick' }
  | { readonly kind: 'disconnect'; readonly reason: string }
  | { readonly kind: 'operatorLogout'; readonly reason: string };

export type EventKind = SessionEvent['kind'];

/** One file per state implements this; each handler returns the next state. */
export interface SessionState {
  readonly name: StateName;
  onConnect(session: Session): Promise<StateName>;
  onMessage(session: Session, message: InboundMessage): Promise<StateName>;
  onGarbled(session: Session, reason: string): Promise<StateName>;
  onTick(session: Session): Promise<StateName>;
  onDisconnect(session: Session, reason: string): Promise<StateName>;
  onOperatorLogout(session: Session, reason: string): Promise<StateName>;
}
