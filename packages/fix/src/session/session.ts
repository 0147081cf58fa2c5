import { MsgType, Tag } from '../dictionary/tags.generated';
import type { MessageStore } from '../store/message-store';
import { BusinessRejectError, SessionRejectError, type Application, type AppReceipt } from './application';
import type { Clock, TimerHandle, Timers } from './clock';
import { formatUtcTimestamp } from '../codec/values';
import type { SessionLog } from './log';
import { ADMIN_MSG_TYPES, outgoing, type InboundMessage, type OutgoingMessage, type SessionCodec } from './message';
import { isResetDue, isWithinSchedule } from './schedule';
import type { SessionSettings } from './session-settings';
import { sessionIdToString, type SessionID } from './session-id';
import type { EventKind, SessionContext, SessionEvent, SessionState, StateName } from './session-state';
import { IllegalTransitionError, isAllowedTransition } from './transitions';
import { Inbound, msgSeqNum } from './inbound';
import { errorText, Outbound, type SendReservation, type SessionTransport } from './outbound';
import { disconnectedState } from './disconnected-state';
import { logonState } from './logon-state';
import { inSessionState } from './in-session';
import { businessRejectMessage, heartbeatMessage, logonMessage, logoutMessage, rejectMessage, resendRequestMessage, testRequestMessage } from './admin-messages';
import { SendQueue } from './send-queue';
import { resendState } from './resend-state';
import { logoutState } from './logout-state';

const STATES: Record<StateName, SessionState> = {
  disconnected: disconnectedState,
  logon: logonState,
  inSession: inSessionState,
  resend: resendState,
  logout: logoutState,
};

export { ADMIN_MSG_TYPES };
export type { SendReservation, SessionTransport } from './outbound';

export interface SessionDeps {
  readonly id: SessionID;
  readonly settings: SessionSettings;
  readonly store: MessageStore;
  readonly app: Application;
  readonly log: SessionLog;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly codec: SessionCodec;
}

export interface SessionStatus {
  readonly sessionID: SessionID;
  readonly state: StateName;
  readonly connected: boolean;
  readonly loggedOn: boolean;
  readonly remoteAddress: string | undefined;
  readonly nextSenderMsgSeqNum: number;
  readonly nextTargetMsgSeqNum: number;
  readonly heartBtIntSec: number;
  /** Inbound messages waiting behind a gap. */
  readonly queuedInbound: number;
}

const SETTLED = Promise.resolve();
/**
 * One FIX session: the context the state objects act on. All events (inbound messages, timer ticks,
 * disconnects, operator and application calls) pass through one serial queue, so a session never
 * handles two things at once and its store writes land in order.
 */
export class Session implements SessionContext {
  readonly id: SessionID;
  readonly key: string;
  settings: SessionSettings;
  readonly store: MessageStore;
  readonly app: Application;
  readonly log: SessionLog;
  readonly clock: Clock;
  readonly codec: SessionCodec;
  private readonly timers: Timers;
  /** The outbound pipeline: numbers, persisting, the wire. */
  private readonly out: Outbound;
  /** Inbound sequencing: expected numbers, header checks, the gap queue, pipelining, resend answers. */
  readonly inbound: Inbound;

  state: SessionState = disconnectedState;
  creationTime = new Date(0);
  heartBtIntSec: number;

  transport: SessionTransport | undefined;
  /** Set once both Logons were exchanged on the current connection. */
  loggedOn = false;
  /** Our Logon went out on this connection (initiator: waiting for the answer). */
  logonSent = false;
  /** Our Logon carried 141=Y: the answer must too, and its numbers start at 1. */
  resetSentInLogon = false;
  connectedAt = 0;
  lastReceivedAt = 0;
  testRequestSentAt: number | undefined;
  logoutSentAt: number | undefined;

  private tail: Promise<void> = Promise.resolve();
  /**
   * Application callbacks (fromApp, fromAdmin, onLogon, onLogout) the current event is waiting for.
   * While one runs, a send goes out at once instead of queueing behind the event that waits for it.
   */
  private appCallbacks = 0;
  private tick: TimerHandle | undefined;
  private closed = false;
  /** The application's sends on their way into the event queue (batched back to back). */
  private readonly sendQueue: SendQueue;

  private constructor(deps: SessionDeps) {
    this.id = deps.id;
    this.key = sessionIdToString(deps.id);
    this.settings = deps.settings;
    this.store = deps.store;
    this.app = deps.app;
    this.log = deps.log;
    this.clock = deps.clock;
    this.timers = deps.timers;
    this.codec = deps.codec;
    this.heartBtIntSec = deps.settings.heartBtIntSec;
    this.out = new Outbound(deps, {
      transport: () => this.transport,
      loggedOn: () => this.loggedOn,
      queueDisconnect: (reason) => {
        this.enqueue(() => this.dispatch({ kind: 'disconnect', reason })).catch(() => {});
      },
      disconnectNow: (reason) => this.dispatch({ kind: 'disconnect', reason }),
    });
    this.sendQueue = new SendQueue(this.out, {
      key: this.key,
      settings: () => this.settings,
      loggedOn: () => this.loggedOn,
      inAppCallback: () => this.appCallbacks > 0,
      enqueue: (task) => this.enqueue(task),
    });
    this.inbound = new Inbound(
      { ...deps, out: this.out },
      {
        settings: () => this.settings,
        connected: () => this.transport !== undefined,
        answerAppFailure: (message, err) => this.answerAppFailure(message, err),
        sendReject: (ref, reason, text, refTagID) => this.sendReject(ref, reason, text, refTagID),
        logoutAndDrop: (text) => this.logoutAndDrop(text),
        queueTask: (task) => this.enqueue(task, true),
        queueDisconnect: (reason) => {
          this.enqueue(() => this.dispatch({ kind: 'disconnect', reason })).catch(() => {});
        },
      },
    );
  }

  /** The MsgSeqNum expected next from the peer. */
  get nextTargetMsgSeqNum(): number {
    return this.inbound.nextTargetMsgSeqNum;
  }

  /** The MsgSeqNum our next message will take. */
  get nextSenderMsgSeqNum(): number {
    return this.out.nextSenderMsgSeqNum;
  }

  static async create(deps: SessionDeps): Promise<Session> {
    const session = new Session(deps);
    await session.reloadSequenceState();
    deps.app.onCreate?.(deps.id);
    return session;
  }

  // ---------------------------------------------------------------------------------------------
  // Public API: everything is queued.

  /** A connection is up. Initiator: sends Logon. Acceptor: pass the peer's Logon right after via receive(). */
  connect(transport: SessionTransport): Promise<void> {
    return this.enqueue(async () => {
      if (this.transport) throw new Error(`${this.key} already has a connection`);
      this.transport = transport;
      this.connectedAt = this.clock.now();
      this.lastReceivedAt = this.connectedAt;
      this.out.connected(this.connectedAt);
      this.loggedOn = false;
      this.logonSent = false;
      this.resetSentInLogon = false;
      this.logoutSentAt = undefined;
      this.testRequestSentAt = undefined;
      this.inbound.clearGap();
      this.startTicking();
      await this.dispatch({ kind: 'connect' });
    });
  }

  /** A message arrived on `transport` (dropped when that connection is no longer this session's). */
  receive(transport: SessionTransport, message: InboundMessage): Promise<void> {
    this.inbound.arrived(message, this.clock.now());
    return this.enqueue(() => (this.transport === transport ? this.dispatch({ kind: 'message', message }) : SETTLED));
  }

  receiveGarbled(transport: SessionTransport, reason: string): Promise<void> {
    return this.enqueue(() => (this.transport === transport ? this.dispatch({ kind: 'garbled', reason }) : SETTLED));
  }

  /** The socket of `transport` closed; ignored when the session has since moved to another connection. */
  connectionClosed(transport: SessionTransport, reason: string): Promise<void> {
    return this.enqueue(() => (this.transport === transport ? this.dispatch({ kind: 'disconnect', reason }) : SETTLED));
  }

  /** Operator or application: log out gracefully (Logout, wait for the peer's, then close). */
  logout(reason = 'Logout requested'): Promise<void> {
    return this.enqueue(() => this.dispatch({ kind: 'operatorLogout', reason }));
  }

  /** Operator: drop the connection at once. */
  disconnect(reason = 'Disconnected by operator'): Promise<void> {
    return this.enqueue(() => this.dispatch({ kind: 'disconnect', reason }));
  }

  /**
   * Sends an application message; resolves with its MsgSeqNum once it is persisted (and handed to the
   * socket when logged on). While logged out it is persisted for resend, or refused (settings.whenNotLoggedOn).
   * Sends queued back to back go out as one batch; see send-queue.ts.
   */
  send(message: OutgoingMessage): Promise<number> {
    return this.sendQueue.send(message);
  }

  /**
   * Runs an application callback the current event waits for (see appCallbacks); a callback that
   * returns no promise is done when it returns.
   */
  private callApp<T>(call: () => T | PromiseLike<T>): T | Promise<T> {
    this.appCallbacks += 1;
    let result: T | PromiseLike<T>;
    try {
      result = call();
    } catch (err) {
      this.appCallbacks -= 1;
      throw err;
    }
    if (typeof (result as PromiseLike<T> | undefined)?.then !== 'function') {
      this.appCallbacks -= 1;
      return result as T;
    }
    return Promise.resolve(result).then(
      (value) => {
        this.appCallbacks -= 1;
        return value;
      },
      (err: unknown) => {
        this.appCallbacks -= 1;
        throw err;
      },
    );
  }

  setNextSenderMsgSeqNum(next: number): Promise<void> {
    return this.enqueue(async () => {
      await this.settlePipeline();
      await this.store.setNextSenderMsgSeqNum(next);
      this.out.setNextSenderMsgSeqNum(next);
      this.log.onEvent(`operator set next sender MsgSeqNum to ${next}`);
    });
  }

  setNextTargetMsgSeqNum(next: number): Promise<void> {
    return this.enqueue(async () => {
      await this.settlePipeline();
      await this.store.setNextTargetMsgSeqNum(next);
      this.inbound.setNextTargetMsgSeqNum(next);
      this.log.onEvent(`operator set next target MsgSeqNum to ${next}`);
    });
  }

  /** Operator: start both sequences again at 1 (only while disconnected: a live peer would be confused). */
  resetSequence(): Promise<void> {
    return this.enqueue(async () => {
      await this.settlePipeline();
      if (this.transport) throw new Error(`${this.key} is connected; log it out before resetting its sequence numbers`);
      await this.resetStore('operator reset');
    });
  }

  status(): SessionStatus {
    return {
      sessionID: this.id,
      state: this.state.name,
      connected: this.transport !== undefined,
      loggedOn: this.loggedOn,
      remoteAddress: this.transport?.remoteAddress,
      nextSenderMsgSeqNum: this.nextSenderMsgSeqNum,
      nextTargetMsgSeqNum: this.nextTargetMsgSeqNum,
      heartBtIntSec: this.heartBtIntSec,
      queuedInbound: this.inbound.queuedCount,
    };
  }

  get isConnected(): boolean {
    return this.transport !== undefined;
  }

  /** Waits until every queued event has been handled (tests, shutdown). */
  idle(): Promise<void> {
    return this.enqueue(() => this.settlePipeline());
  }

  /** Drops the connection if any, stops timers, releases the store. */
  async close(reason = 'session closed'): Promise<void> {
    await this.enqueue(async () => {
      if (this.transport) await this.dispatch({ kind: 'disconnect', reason });
      else await this.settlePipeline().catch(() => {});
      this.closed = true;
      this.stopTicking();
      await this.store.close();
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Event loop

  private enqueue<T>(task: () => Promise<T>, keepSendBatch = false): Promise<T> {
    // Any other event ends the run of sends that may still join one batch (their order is kept).
    if (!keepSendBatch) this.sendQueue.closeBatch();
    const run = this.tail.then(() => {
      if (this.closed) throw new Error(`${this.key} is closed`);
      return task();
    });
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async dispatch(event: SessionEvent): Promise<void> {
    const from = this.state;
    let to: StateName;
    try {
      // Only an application message that may overlap its predecessors skips the wait for them.
      if (this.pipelineBusy && (event.kind !== 'message' || !this.mayOverlap(event.message))) await this.settlePipeline();
      switch (event.kind) {
        case 'connect':
          to = await from.onConnect(this);
          break;
        case 'message':
          this.lastReceivedAt = this.clock.now();
          this.log.onIncoming(event.message.rawText);
          to = await from.onMessage(this, event.message);
          break;
        case 'garbled':
          this.log.onEvent(`garbled message ignored: ${event.reason}`);
          to = await from.onGarbled(this, event.reason);
          break;
        case 'tick':
          to = await from.onTick(this);
          break;
        case 'disconnect':
          to = await from.onDisconnect(this, event.reason);
          break;
        case 'operatorLogout':
          to = await from.onOperatorLogout(this, event.reason);
          break;
      }
    } catch (err) {
      // A failing store or a bug must not leave a half-processed session talking to the peer.
      const text = err instanceof Error ? err.message : String(err);
      this.log.onEvent(`error handling ${event.kind} in ${from.name}: ${text}`);
      if (this.transport) await this.dropConnection(`internal error: ${text}`);
      this.transition(from.name, event.kind, 'disconnected', true);
      throw err;
    }
    this.transition(from.name, event.kind, to);
  }

  private transition(from: StateName, event: EventKind, to: StateName, force = false): void {
    if (!force && !isAllowedTransition(from, event, to)) throw new IllegalTransitionError(from, event, to);
    if (from !== to) this.log.onEvent(`state ${from} -> ${to} (${event})`);
    this.state = STATES[to];
    if (to === 'disconnected') this.stopTicking();
  }

  /**
   * Ticks drive heartbeats, liveness checks and the logon and logout timeouts. The interval is
   * settings.tickIntervalMs, or a twentieth of HeartBtInt when that is shorter (never under 25 ms),
   * so a heartbeat goes out within 5 % of HeartBtInt on short heartbeat intervals.
   */
  startTicking(): void {
    this.stopTicking();
    const interval = this.heartBtIntSec > 0 ? Math.min(this.settings.tickIntervalMs, Math.max(25, this.heartBtIntSec * 50)) : this.settings.tickIntervalMs;
    this.tick = this.timers.every(interval, () => {
      // Every tick is queued like any other event: it runs after whatever is already queued.
      void this.enqueue(() => this.dispatch({ kind: 'tick' })).catch(() => {});
    });
  }

  private stopTicking(): void {
    this.tick?.cancel();
    this.tick = undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Sending

  sendAdmin(message: OutgoingMessage): Promise<number> {
    return this.out.sendAdmin(message);
  }

  sendApp(message: OutgoingMessage): Promise<number> {
    return this.out.sendApp(message);
  }

  /**
   * Takes the next MsgSeqNum for an application message now and encodes it, for a caller that makes
   * the message durable in its own commit: the message record and the next sender number (msgSeqNum + 1,
   * never lowering a higher stored one), atomically with whatever else that commit holds, such as the
   * order a report acknowledges. One commit then covers the order and its reply.
   *
   * The bytes wait in the wire chain, in number order behind everything taken before, until the caller
   * settles the reservation: `committed()` writes them, `failed(err)` drops the connection (the number
   * is used and nothing holds the message; the peer resynchronises from the store at the next logon).
   * Until it is settled nothing behind it is written, so a caller must settle every reservation.
   *
   * Only while logged on, with settings.pipelineSends and nothing queued to send: otherwise undefined,
   * and the caller sends the usual way. Runs outside the event queue (it only takes a number and queues
   * bytes), so it is safe inside the caller's open transaction.
   */
  reserveSend(message: OutgoingMessage): SendReservation | undefined {
    if (!this.settings.pipelineSends || this.closed || !this.loggedOn || this.out.broken || !this.transport) return undefined;
    if (this.state.name !== 'inSession' || this.sendQueue.batchOpen) return undefined;
    return this.out.reserve(message, this.creationTime);
  }

  async sendLogon(): Promise<void> {
    await this.sendAdmin(logonMessage(this.heartBtIntSec, this.resetSentInLogon, this.settings.role === 'initiator' ? this.settings : undefined));
    this.logonSent = true;
  }

  async sendLogout(text?: string): Promise<void> {
    await this.sendAdmin(logoutMessage(text));
    this.logoutSentAt = this.clock.now();
  }

  async sendHeartbeat(testReqID?: string): Promise<void> {
    await this.sendAdmin(heartbeatMessage(testReqID));
  }

  async sendTestRequest(): Promise<void> {
    await this.sendAdmin(testRequestMessage());
    this.testRequestSentAt = this.clock.now();
  }

  async sendResendRequest(begin: number): Promise<void> {
    await this.sendAdmin(resendRequestMessage(begin));
    this.log.onEvent(`gap detected: sent ResendRequest ${begin}-0`);
  }

  async sendReject(ref: InboundMessage, reason: string, text: string, refTagID?: number): Promise<void> {
    this.log.onEvent(`Reject ${reason} for MsgSeqNum ${ref.get(Tag.MsgSeqNum)}: ${text}`);
    await this.sendAdmin(rejectMessage(ref, reason, text, refTagID));
  }

  async sendBusinessReject(ref: InboundMessage, reason: string, text: string, refID?: string): Promise<void> {
    await this.sendApp(businessRejectMessage(ref, reason, text, refID));
  }

  // ---------------------------------------------------------------------------------------------
  // Connection ending

  /** Closes the socket (after flushing) and clears per-connection state; tells the application if it was logged on. */
  async dropConnection(reason: string): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    this.stopTicking();
    const wasLoggedOn = this.loggedOn;
    this.loggedOn = false;
    this.logonSent = false;
    this.inbound.clearGap();
    this.log.onEvent(`disconnected: ${reason}`);
    transport?.end(reason);
    if (wasLoggedOn) {
      try {
        const onLogout = this.app.onLogout;
        if (onLogout) await this.callApp(() => onLogout.call(this.app, this.id, reason));
      } catch (err) {
        this.log.onEvent(`onLogout failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /**
   * Logout, then close: the answer to a protocol violation the session cannot continue after. `text`
   * goes out as the Logout's Text (none when undefined); `why` is what the log says.
   */
  async logoutAndDrop(text: string | undefined, why = text ?? 'protocol violation'): Promise<'disconnected'> {
    await this.sendLogout(text);
    await this.dropConnection(why);
    return 'disconnected';
  }

  // ---------------------------------------------------------------------------------------------
  // Sequence numbers

  async reloadSequenceState(): Promise<void> {
    const s = await this.store.sequenceState();
    this.out.setNextSenderMsgSeqNum(s.nextSenderMsgSeqNum);
    this.inbound.setNextTargetMsgSeqNum(s.nextTargetMsgSeqNum);
    this.creationTime = s.creationTime;
  }

  async resetStore(why: string): Promise<void> {
    const now = new Date(this.clock.now());
    await this.store.reset(now);
    this.out.setNextSenderMsgSeqNum(1);
    this.inbound.setNextTargetMsgSeqNum(1);
    this.creationTime = now;
    this.inbound.clearGap();
    this.log.onEvent(`sequence numbers reset (${why})`);
  }

  /** A scheduled reset (reset frequency in the connector's zone) is due for a logon now. */
  isScheduledResetDue(): boolean {
    const start = this.settings.schedule?.startTime;
    return isResetDue(this.settings.resetFrequency, this.creationTime.getTime(), this.clock.now(), this.settings.timeZone, start);
  }

  isWithinSchedule(): boolean {
    return !this.settings.schedule || isWithinSchedule(this.settings.schedule, this.clock.now());
  }

  /** Audit only (a duplicate, a message queued behind a gap, a refused one). */
  auditInbound(message: InboundMessage): Promise<void> {
    return this.inbound.audit(message);
  }

  /** The message was processed: audit it (unless already audited on arrival) and persist the next number. */
  consumeInbound(message: InboundMessage, next: number, audited = false, receipt?: AppReceipt): Promise<void> {
    return this.inbound.consume(message, next, audited, receipt);
  }

  // ---------------------------------------------------------------------------------------------
  // Inbound checks shared by the logged-on states

  /** True while a gap is open (messages are waiting or the gap fill has not reached the target yet). */
  get gapOpen(): boolean {
    return this.inbound.gapOpen;
  }

  async answerAppFailure(message: InboundMessage, err: unknown): Promise<void> {
    if (err instanceof BusinessRejectError) await this.sendBusinessReject(message, err.reason, err.text, err.refID);
    else if (err instanceof SessionRejectError) await this.sendReject(message, err.reason, err.text, err.refTagID);
    else {
      const text = err instanceof Error ? err.message : String(err);
      this.log.onEvent(`fromApp failed for MsgSeqNum ${message.get(Tag.MsgSeqNum)}: ${text}`);
      await this.sendBusinessReject(message, '0', 'Application error', message.get(Tag.ClOrdID));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Pipelining (settings.pipelineApplication)

  /**
   * Whether an inbound message may be handled while earlier ones are still with the application: an
   * application message of a pipelined type, exactly in sequence, logged on with no gap open, and the
   * pipeline not full. Everything else first waits for the pipeline (settlePipeline), so admin
   * messages, gaps, rejects and logouts see the session exactly as without pipelining.
   */
  private mayOverlap(message: InboundMessage): boolean {
    return this.state.name === 'inSession' && this.transport !== undefined && this.inbound.mayOverlap(message);
  }

  /** Inbound and outbound work still on its way. */
  private get pipelineBusy(): boolean {
    return this.inbound.busy || this.out.busy;
  }

  /** Waits for the pipeline and the wire (see Inbound.settle); throws a store failure of either. */
  private async settlePipeline(): Promise<void> {
    if (this.pipelineBusy) await this.inbound.settle();
  }

  answerResendRequest(message: InboundMessage): Promise<boolean> {
    return this.inbound.answerResendRequest(message);
  }

  // ---------------------------------------------------------------------------------------------
  // Timers

  // ---------------------------------------------------------------------------------------------
  // The rest of SessionContext (what the states may see and do)

  get stateName(): StateName {
    return this.state.name;
  }

  now(): number {
    return this.clock.now();
  }

  get connected(): boolean {
    return this.transport !== undefined;
  }

  get lastSentAt(): number {
    return this.out.lastSentAt;
  }

  markLoggedOn(): void {
    this.loggedOn = true;
  }

  async sendRefusalLogout(text: string): Promise<void> {
    await this.out.settled();
    const logout = outgoing(MsgType.Logout, [[Tag.Text, text]]);
    try {
      this.app.toAdmin?.(logout, this.id);
    } catch (err) {
      this.log.onEvent(`toAdmin failed for the refusal Logout: ${errorText(err)}`);
    }
    await this.out.sendCopy(logout, this.out.nextSenderMsgSeqNum, formatUtcTimestamp(this.clock.now()));
  }

  async fromAdmin(message: InboundMessage): Promise<void> {
    const fromAdmin = this.app.fromAdmin;
    if (fromAdmin) await this.callApp(() => fromAdmin.call(this.app, message, this.id));
  }

  fromApp(message: InboundMessage): Promise<AppReceipt | void | undefined> {
    return Promise.resolve(this.callApp(() => this.app.fromApp(message, this.id)));
  }

  async onLogon(): Promise<void> {
    const onLogon = this.app.onLogon;
    if (onLogon) await this.callApp(() => onLogon.call(this.app, this.id));
  }
}

export { reverseRoute } from './admin-messages';
export { msgSeqNum };
