import type { AppReceipt } from './application';
import type { SessionLog } from './log';
import type { InboundMessage, SessionCodec } from './message';
import type { SessionSettings } from './session-settings';

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
  onConnect(ctx: SessionContext): Promise<StateName>;
  onMessage(ctx: SessionContext, message: InboundMessage): Promise<StateName>;
  onGarbled(ctx: SessionContext, reason: string): Promise<StateName>;
  onTick(ctx: SessionContext): Promise<StateName>;
  onDisconnect(ctx: SessionContext, reason: string): Promise<StateName>;
  onOperatorLogout(ctx: SessionContext, reason: string): Promise<StateName>;
}

/**
 * What a state may see and do: the session's narrow API for its states, in groups. The numbers are
 * read-only here; they move only through the inbound sequencing and the outbound pipeline.
 */
export interface SessionContext {
  readonly key: string;
  readonly settings: SessionSettings;
  readonly log: SessionLog;
  /** The dictionary check of a message. */
  readonly codec: Pick<SessionCodec, 'validate'>;
  readonly stateName: StateName;
  now(): number;
  /** Within the session's schedule now (always, without one). */
  isWithinSchedule(): boolean;

  readonly numbers: SequenceNumbers;
  readonly inbound: InboundSequencing;
  readonly connection: ConnectionView;
  /** Admin messages (numbered, persisted, written by the outbound pipeline). */
  readonly send: AdminSends;
  /** The application, awaited by the current event. */
  readonly app: AppCallbacks;

  /** HeartBtInt in force from now on (the initiator's, echoed by the acceptor); starts the ticks for it. */
  startHeartbeats(heartBtIntSec: number): void;
  /** Closes the socket and clears what the connection kept; tells the application if it was logged on. */
  dropConnection(reason: string): Promise<void>;
  /** Logout (Text `text`, none when undefined), then close; `why` is what the log says. */
  logoutAndDrop(text: string | undefined, why?: string): Promise<'disconnected'>;
}

/** Both sequences, and their reset. */
interface SequenceNumbers {
  /** The MsgSeqNum our next message will take. */
  readonly nextSender: number;
  /** The MsgSeqNum expected next from the peer. */
  readonly nextTarget: number;
  /** Reads both numbers back from the store (the truth after a restart or an operator change). */
  reload(): Promise<void>;
  /** Both sequences start again at 1 (store, memory, the gap). */
  reset(why: string): Promise<void>;
  /** A scheduled reset (reset frequency in the connector's zone) is due for a logon now. */
  resetDue(): boolean;
}

/**
 * A failed header check: the Reject to send (reason, text, RefTagID when one tag is at fault), and when
 * the connection ends, why (for the log) and the Logout's Text (QuickFIX sends one only for some causes).
 */
export interface HeaderProblem {
  readonly reject?: readonly [reason: string, text: string, refTagID?: number];
  readonly logout?: { readonly why: string; readonly text: string | undefined };
}

/** A message that arrived ahead of a gap. */
export interface Queued {
  readonly message: InboundMessage;
  /** A ResendRequest answered on arrival (not again when its turn comes). */
  readonly resendAnswered: boolean;
}

/** The part of inbound sequencing (inbound.ts) the states use. */
export interface InboundSequencing {
  /** Audit only (a duplicate, a message queued behind a gap, a refused one). */
  audit(message: InboundMessage): Promise<void>;
  /** The message was processed: audit it (unless already audited on arrival) and persist the next number. */
  consume(message: InboundMessage, next: number, audited?: boolean, receipt?: AppReceipt): Promise<void>;
  headerProblem(message: InboundMessage, checkLatency: boolean, checkSeq?: boolean): HeaderProblem | undefined;
  /** True while a gap is open (messages are waiting or the gap fill has not reached the target yet). */
  readonly gapOpen: boolean;
  readonly queuedCount: number;
  hold(seq: number, entry: Queued): void;
  extendGap(seq: number): boolean;
  takeReady(): Queued | undefined;
  /** Pipelining: hands an in-sequence application message to fromApp without waiting for it. */
  handOn(message: InboundMessage, next: number, audited: boolean): void;
  /** Pipelining: waits until every handed-on message is finished and its number persisted. */
  settle(): Promise<void>;
  /** Replays or gap-fills what the peer asks for; false when the connection was dropped. */
  answerResendRequest(message: InboundMessage): Promise<boolean>;
}

/** What the current connection keeps (reset on every connect), read-only but for the three marks. */
export interface ConnectionView {
  readonly connected: boolean;
  readonly connectedAt: number;
  readonly lastReceivedAt: number;
  readonly lastSentAt: number;
  /** The HeartBtInt in force. */
  readonly heartBtIntSec: number;
  /** Our Logon with 141=Y waits for its answer (which must carry it too; numbers start at 1). */
  readonly resetSentInLogon: boolean;
  /** Our TestRequest waits for its answer since then. */
  readonly testRequestSentAt: number | undefined;
  /** When our Logout went out on this connection. */
  readonly logoutSentAt: number | undefined;
  /** Both Logons were exchanged. */
  markLoggedOn(): void;
  /** The answer to our 141=Y Logon arrived. */
  resetAnswered(): void;
  /** The peer answered our TestRequest (or sent something after it). */
  testRequestAnswered(): void;
}

export interface AdminSends {
  /** Our Logon, waiting for an answer: 141=Y when `resetSeqNum` (see ConnectionView.resetSentInLogon). */
  logon(resetSeqNum: boolean): Promise<void>;
  /** Our Logon answering the peer's: 141=Y when `resetSeqNum`. */
  logonAnswer(resetSeqNum: boolean): Promise<void>;
  logout(text?: string): Promise<void>;
  heartbeat(testReqID?: string): Promise<void>;
  testRequest(): Promise<void>;
  resendRequest(begin: number): Promise<void>;
  reject(ref: InboundMessage, reason: string, text: string, refTagID?: number): Promise<void>;
  /** The Logout refusing a Logon: our next number reused, not taken (audit only). */
  refusalLogout(text: string): Promise<void>;
}

export interface AppCallbacks {
  fromAdmin(message: InboundMessage): Promise<void>;
  fromApp(message: InboundMessage): Promise<AppReceipt | void | undefined>;
  onLogon(): Promise<void>;
  /** fromApp failed: Reject or BusinessMessageReject, as the error says. */
  answerFailure(message: InboundMessage, err: unknown): Promise<void>;
}
