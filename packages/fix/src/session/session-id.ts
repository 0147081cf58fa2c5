/**
 * A session is named from our side: SenderCompID is ours, TargetCompID is the counterparty's.
 * The same triple keys the message store, the acceptor's live-session map and the audit trail.
 */
export interface SessionID {
  readonly beginString: string;
  readonly senderCompID: string;
  readonly targetCompID: string;
}

export function sessionIdToString(id: SessionID): string {
  return `${id.beginString}:${id.senderCompID}->${id.targetCompID}`;
}

export function sameSessionID(a: SessionID, b: SessionID): boolean {
  return a.beginString === b.beginString && a.senderCompID === b.senderCompID && a.targetCompID === b.targetCompID;
}
