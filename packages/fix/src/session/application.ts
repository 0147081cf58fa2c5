import type { InboundMessage, OutgoingMessage } from './message';
import type { SessionID } from './session-id';

/**
 * The application behind a session. A message counts as processed (its MsgSeqNum consumed and
 * persisted) only after fromApp/fromAdmin resolved; the session waits before taking the next event,
 * so the application sees messages strictly in sequence. With settings.pipelineApplication, messages
 * of the listed types are handed to fromApp, still in sequence, without waiting for the previous
 * fromApp; their numbers are persisted in order as they finish (see SessionSettings).
 *
 * While the session waits for fromApp, fromAdmin, onLogon or onLogout, a send to it (the callback's
 * reply, before or after an await, or anyone else's) goes out at once, behind the sends queued before
 * it. Other calls (logout, disconnect, sequence number changes, idle) queue behind the current event:
 * a callback may make them but must not wait for them.
 */
export interface Application {
  /** The session object exists (store opened); called once per session. */
  onCreate?(sessionID: SessionID): void;
  onLogon?(sessionID: SessionID): void | Promise<void>;
  onLogout?(sessionID: SessionID, reason: string): void | Promise<void>;
  /** Before an admin message is persisted and sent: may add fields (e.g. Username/Password on an initiator Logon). */
  toAdmin?(message: OutgoingMessage, sessionID: SessionID): void;
  /** An admin message in sequence. Throw RejectLogon from here to refuse a Logon. */
  fromAdmin?(message: InboundMessage, sessionID: SessionID): void | Promise<void>;
  /**
   * Before an application message is persisted and sent, and before a stored one is resent
   * (possDupResend). Throw DoNotSend to drop it (a resend then becomes a GapFill).
   */
  toApp?(message: OutgoingMessage, sessionID: SessionID, possDupResend: boolean): void;
  /**
   * An application message in sequence. Throw BusinessRejectError or SessionRejectError to answer it
   * with 35=j or 35=3; any other error is logged and answered with a BusinessMessageReject (Other).
   */
  fromApp(message: InboundMessage, sessionID: SessionID): void | AppReceipt | Promise<void | AppReceipt>;
}

/**
 * What fromApp may report about a message for its audit record, which is written once the message
 * counts as processed: e.g. the OrderID (37) the application assigned to the NewOrderSingle, which
 * the client's message cannot carry.
 */
export interface AppReceipt {
  readonly brokerOrderID?: string | undefined;
}

/** Refuses a Logon (from fromAdmin): the peer gets a Logout with this text and is disconnected. */
export class RejectLogon extends Error {
  constructor(readonly text: string) {
    super(text);
    this.name = 'RejectLogon';
  }
}

/** Drops an outbound application message in toApp. */
export class DoNotSend extends Error {
  constructor() {
    super('do not send');
    this.name = 'DoNotSend';
  }
}

/** Answers an inbound application message with BusinessMessageReject (35=j). */
export class BusinessRejectError extends Error {
  constructor(
    /** BusinessRejectReason (380). */
    readonly reason: string,
    readonly text: string,
    /** BusinessRejectRefID (379), e.g. the ClOrdID. */
    readonly refID?: string,
  ) {
    super(text);
    this.name = 'BusinessRejectError';
  }
}

/** Answers an inbound application message with a session-level Reject (35=3). */
export class SessionRejectError extends Error {
  constructor(
    /** SessionRejectReason (373). */
    readonly reason: string,
    readonly text: string,
    /** RefTagID (371). */
    readonly refTagID?: number,
  ) {
    super(text);
    this.name = 'SessionRejectError';
  }
}
