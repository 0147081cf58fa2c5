import type { AppReceipt } from './application';
import type { Inbound } from './inbound';
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
 * What a state may see and do: the session's narrow API for its states (Session implements it). The
 * numbers are read-only here; they move only through the inbound sequencing and the outbound pipeline.
 */
export interface SessionContext {
  readonly key: string;
  readonly settings: SessionSettings;
  readonly log: SessionLog;
  readonly codec: SessionCodec;
  readonly stateName: StateName;
  now(): number;

  // Numbers and the store
  readonly nextSenderMsgSeqNum: number;
  readonly nextTargetMsgSeqNum: number;
  /** Inbound sequencing: header checks, the gap queue, pipelining (see inbound.ts). */
  readonly inbound: Inbound;
  auditInbound(message: InboundMessage): Promise<void>;
  consumeInbound(message: InboundMessage, next: number, audited?: boolean, receipt?: AppReceipt): Promise<void>;
  answerResendRequest(message: InboundMessage): Promise<boolean>;
  reloadSequenceState(): Promise<void>;
  resetStore(why: string): Promise<void>;
  isScheduledResetDue(): boolean;
  isWithinSchedule(): boolean;

  // The connection, and what the states keep for it (reset on every connect)
  readonly connected: boolean;
  readonly connectedAt: number;
  readonly lastReceivedAt: number;
  readonly lastSentAt: number;
  /** When our Logout went out on this connection. */
  readonly logoutSentAt: number | undefined;
  /** The HeartBtInt in force (the initiator's, echoed by the acceptor). */
  heartBtIntSec: number;
  /** Our Logon carries (or carried) 141=Y: the answer must too, and its numbers start at 1. */
  resetSentInLogon: boolean;
  /** Our TestRequest waits for its answer since then. */
  testRequestSentAt: number | undefined;
  startTicking(): void;
  markLoggedOn(): void;
  dropConnection(reason: string): Promise<void>;
  logoutAndDrop(text: string | undefined, why?: string): Promise<'disconnected'>;

  // Admin messages (numbered, persisted, written by the outbound pipeline)
  sendLogon(): Promise<void>;
  sendLogout(text?: string): Promise<void>;
  sendHeartbeat(testReqID?: string): Promise<void>;
  sendTestRequest(): Promise<void>;
  sendResendRequest(begin: number): Promise<void>;
  sendReject(ref: InboundMessage, reason: string, text: string, refTagID?: number): Promise<void>;
  /** The Logout refusing a Logon: our next number reused, not taken (audit only). */
  sendRefusalLogout(text: string): Promise<void>;

  // The application, awaited by the current event
  fromAdmin(message: InboundMessage): Promise<void>;
  fromApp(message: InboundMessage): Promise<AppReceipt | void | undefined>;
  onLogon(): Promise<void>;
  answerAppFailure(message: InboundMessage, err: unknown): Promise<void>;
}
