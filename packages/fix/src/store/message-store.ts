import type { SessionID } from '../session/session-id';

export type MessageDirection = 'TX' | 'RX';

/**
 * One FIX message as kept for resend and for the compliance audit. The session extracts the header
 * facts once so stores never parse FIX.
 */
export interface StoredMessage {
  readonly direction: MessageDirection;
  readonly msgSeqNum: number;
  readonly msgType: string;
  readonly senderCompID: string;
  readonly targetCompID: string;
  /** SendingTime (52) as it went on the wire, e.g. "20240102-09:00:00.000"; a resend copies it into OrigSendingTime. */
  readonly sendingTime: string;
  /** ClOrdID (11) when present, so the audit can be searched by order. */
  readonly clOrdID?: string | undefined;
  /** OrderID (37), the broker's order id, when present. */
  readonly brokerOrderID?: string | undefined;
  /** PossDupFlag (43=Y) on an inbound message (audit only; outbound copies are flagged by auditOutbound). */
  readonly possDup?: boolean | undefined;
  /** The complete message, one character per byte (latin1), SOH delimited, checksum included. */
  readonly raw: string;
  /**
   * An inbound message: when it arrived (ms since the epoch). It is stored once processed, after the
   * replies it caused; the audit's time of an inbound message is its arrival, not that later write.
   */
  readonly receivedAt?: number | undefined;
}

export interface SequenceState {
  readonly nextSenderMsgSeqNum: number;
  readonly nextTargetMsgSeqNum: number;
  /** When the current sequence numbering began (store creation or last reset); drives scheduled resets. */
  readonly creationTime: Date;
}

/**
 * Durable per-session FIX state. Every method is async so an implementation may group-commit many
 * sessions' writes into one transaction; a promise resolves only once its write is durable. A session
 * awaits its writes in order and sends bytes only after saveOutbound resolved, so a crash can never
 * leave a message on the wire that the store does not know, nor reuse a sequence number.
 */
export interface MessageStore {
  readonly sessionID: SessionID;
  /** The durable sequence state, read fresh (used at open, at logon and after a crash). */
  sequenceState(): Promise<SequenceState>;
  /** Saves an outbound message and sets the next sender number to its MsgSeqNum + 1, atomically. */
  saveOutbound(message: StoredMessage): Promise<void>;
  /**
   * Records an inbound message for the audit. When nextTargetMsgSeqNum is given, the next expected
   * inbound number is set to it in the same atomic write (the message was accepted and processed).
   */
  saveInbound(message: StoredMessage, nextTargetMsgSeqNum?: number): Promise<void>;
  /**
   * Records for the audit an outbound copy that reuses an earlier number (a resent message with
   * PossDupFlag=Y, a SequenceReset-GapFill, a refused logon's Logout): sequence numbers and the copies
   * offered for resend stay as they were.
   */
  auditOutbound(message: StoredMessage): Promise<void>;
  setNextSenderMsgSeqNum(next: number): Promise<void>;
  setNextTargetMsgSeqNum(next: number): Promise<void>;
  /**
   * Outbound messages with begin <= MsgSeqNum <= end sent since the last reset, ascending, at most
   * `limit` of them. Missing numbers are simply absent.
   */
  outboundRange(begin: number, end: number, limit: number): Promise<StoredMessage[]>;
  /**
   * Starts a new sequence: both next numbers become 1, creation time becomes `creationTime`, and
   * earlier outbound messages are no longer offered for resend (the audit keeps them).
   */
  reset(creationTime: Date): Promise<void>;
  /** Releases the session's hold on the store; later calls reject. */
  close(): Promise<void>;
}

export interface MessageStoreFactory {
  /** Opens (creating on first use, with creation time `now`) the store of one session. */
  open(sessionID: SessionID, now: Date): Promise<MessageStore>;
}

export class StoreClosedError extends Error {
  constructor(sessionKey: string) {
    super(`message store for ${sessionKey} is closed`);
    this.name = 'StoreClosedError';
  }
}

export function assertSeqNum(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`${what} must be a positive integer, got ${n}`);
}
