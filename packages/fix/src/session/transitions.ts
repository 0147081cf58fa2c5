import type { EventKind, StateName } from './session-state';

/**
 * Every allowed state change of a FIX session, on one screen. The session checks each change it makes
 * against this table (an unlisted one is a bug and throws), and the state tests walk it row by row.
 */
export const TRANSITIONS: ReadonlyArray<readonly [from: StateName, event: EventKind, to: StateName, why: string]> = [
  ['disconnected', 'connect', 'logon', 'socket up: initiator sends Logon / acceptor was handed the peer Logon'],
  ['disconnected', 'message', 'disconnected', 'late bytes of a closed connection are dropped'],
  ['disconnected', 'garbled', 'disconnected', 'late bytes of a closed connection are dropped'],
  ['disconnected', 'tick', 'disconnected', 'nothing to time while down'],
  ['disconnected', 'disconnect', 'disconnected', 'already down'],
  ['disconnected', 'operatorLogout', 'disconnected', 'already down'],
  ['logon', 'message', 'logon', 'not a Logon yet / garbage before it is ignored'],
  ['logon', 'message', 'inSession', 'Logon accepted, sequence numbers in line'],
  ['logon', 'message', 'resend', 'Logon accepted, peer is ahead: ResendRequest sent'],
  ['logon', 'message', 'disconnected', 'Logon refused, or a first message other than Logon, or MsgSeqNum too low'],
  ['logon', 'garbled', 'logon', 'garbled frame ignored'],
  ['logon', 'tick', 'logon', 'still waiting'],
  ['logon', 'tick', 'disconnected', 'logon timeout'],
  ['logon', 'disconnect', 'disconnected', 'socket closed'],
  ['logon', 'operatorLogout', 'disconnected', 'operator drops a connection that never logged on'],
  ['inSession', 'message', 'inSession', 'message in sequence processed / duplicate dropped / Reject sent'],
  ['inSession', 'message', 'resend', 'MsgSeqNum too high: later messages queued, ResendRequest sent'],
  ['inSession', 'message', 'disconnected', 'peer Logout answered / too low / bad BeginString / CompID / SendingTime'],
  ['inSession', 'garbled', 'inSession', 'garbled frame ignored, no sequence number consumed'],
  ['inSession', 'tick', 'inSession', 'Heartbeat when idle, TestRequest when the peer is silent'],
  ['inSession', 'tick', 'logout', 'schedule end reached: Logout sent'],
  ['inSession', 'tick', 'disconnected', 'peer silent after TestRequest'],
  ['inSession', 'disconnect', 'disconnected', 'socket closed'],
  ['inSession', 'operatorLogout', 'logout', 'Logout sent, waiting for the peer Logout'],
  ['resend', 'message', 'resend', 'gap not filled yet (later messages stay queued)'],
  ['resend', 'message', 'inSession', 'gap filled, queued messages processed in order'],
  ['resend', 'message', 'disconnected', 'as in inSession'],
  ['resend', 'garbled', 'resend', 'garbled frame ignored'],
  ['resend', 'tick', 'resend', 'as in inSession'],
  ['resend', 'tick', 'logout', 'schedule end reached: Logout sent'],
  ['resend', 'tick', 'disconnected', 'peer silent after TestRequest'],
  ['resend', 'disconnect', 'disconnected', 'socket closed'],
  ['resend', 'operatorLogout', 'logout', 'Logout sent, waiting for the peer Logout'],
  ['logout', 'message', 'logout', 'messages still processed while waiting'],
  ['logout', 'message', 'disconnected', 'peer Logout received'],
  ['logout', 'garbled', 'logout', 'garbled frame ignored'],
  ['logout', 'tick', 'logout', 'still waiting'],
  ['logout', 'tick', 'disconnected', 'logout timeout'],
  ['logout', 'disconnect', 'disconnected', 'socket closed'],
  ['logout', 'operatorLogout', 'logout', 'already logging out'],
];

/** from -> event -> the states it may lead to (looked up on every event, so no key strings are built). */
const allowed = new Map<StateName, Map<EventKind, Set<StateName>>>();
for (const [from, event, to] of TRANSITIONS) {
  let byEvent = allowed.get(from);
  if (!byEvent) allowed.set(from, (byEvent = new Map()));
  let targets = byEvent.get(event);
  if (!targets) byEvent.set(event, (targets = new Set()));
  targets.add(to);
}

export function isAllowedTransition(from: StateName, event: EventKind, to: StateName): boolean {
  return allowed.get(from)?.get(event)?.has(to) ?? false;
}

export class IllegalTransitionError extends Error {
  constructor(from: StateName, event: EventKind, to: StateName) {
    super(`illegal session transition ${from} --${event}--> ${to}`);
    this.name = 'IllegalTransitionError';
  }
}
