import type { MessageStore } from '../store/message-store';
import type { Application } from './application';
import type { Clock, TimerHandle, Timers } from './clock';
import type { SessionLog } from './log';
import { ADMIN_MSG_TYPES, type InboundMessage, type OutgoingMessage, type SessionCodec } from './message';
import { isResetDue, isWithinSchedule } from './schedule';
import type { SessionSettings } from './session-settings';
import { sessionIdToString, type SessionID } from './session-id';
import type { EventKind, SessionContext, SessionEvent, SessionState, StateName } from './session-state';
import { IllegalTransitionError, isAllowedTransition } from './transitions';
import { Inbound, msgSeqNum } from './inbound';
import { Outbound, type SendReservation, type SessionTransport } from './outbound';
import { AdminSender } from './admin-messages';
import { AppCalls } from './app-calls';
import { ConnectionState } from './connection-state';
import { SendQueue } from './send-queue';
import { disconnectedState } from './disconnected-state';
import { logonState } from './logon-state';
import { inSessionState } from './in-session';
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
export class Session {
  readonly id: SessionID;
  readonly key: string;
  /** The session's message store (the acceptor audits a refused Logon's Logout in it). */
  readonly store: MessageStore;
  private currentSettings: SessionSettings;
  private readonly log: SessionLog;
  private readonly clock: Clock;
  private readonly timers: Timers;
  /** The outbound pipeline: numbers, persisting, the wire. */
  private readonly out: Outbound;
  /** Inbound sequencing: expected numbers, header checks, the gap queue, pipelining, resend answers. */
  private readonly inbound: Inbound;
  /** What the current connection keeps. */
  private readonly connection: ConnectionState;
  private readonly admin: AdminSender;
  private readonly appCalls: AppCalls;
  /** The application's sends on their way into the event queue (batched back to back). */
  private readonly sendQueue: SendQueue;
  /** What the states see of the session. */
  private readonly ctx: SessionContext;

  private state: SessionState = disconnectedState;
  private creationTime = new Date(0);
  private tail: Promise<void> = Promise.resolve();
  private tick: TimerHandle | undefined;
  private closed = false;
  /** Who waits for the open connection to end (untilDisconnected). */
  private disconnectWaiters: Array<() => void> = [];

  private constructor(deps: SessionDeps) {
    this.id = deps.id;
    this.key = sessionIdToString(deps.id);
    this.currentSettings = deps.settings;
    this.store = deps.store;
    this.log = deps.log;
    this.clock = deps.clock;
    this.timers = deps.timers;
    const queueDisconnect = (reason: string): void => {
      this.enqueue(() => this.dispatch({ kind: 'disconnect', reason })).catch(() => {});
    };
    this.out = new Outbound(deps, {
      transport: () => this.connection.transport,
      loggedOn: () => this.connection.loggedOn,
      queueDisconnect,
      disconnectNow: (reason) => this.dispatch({ kind: 'disconnect', reason }),
    });
    this.connection = new ConnectionState(deps.settings.heartBtIntSec, () => this.out.lastSentAt);
    const settings = (): SessionSettings => this.currentSettings;
    this.admin = new AdminSender({ ...deps, out: this.out, connection: this.connection, settings });
    this.appCalls = new AppCalls(deps.id, deps.app, deps.log, this.admin);
    this.sendQueue = new SendQueue(this.out, {
      key: this.key,
      settings,
      loggedOn: () => this.connection.loggedOn,
      inAppCallback: () => this.appCalls.inCallback,
      enqueue: (task) => this.enqueue(task),
    });
    this.inbound = new Inbound(
      { ...deps, out: this.out },
      {
        settings,
        connected: () => this.connection.connected,
        answerAppFailure: (message, err) => this.appCalls.answerFailure(message, err),
        sendReject: (ref, reason, text, refTagID) => this.admin.reject(ref, reason, text, refTagID),
        logoutAndDrop: (text) => this.logoutAndDrop(text),
        queueTask: (task) => this.enqueue(task, true),
        queueDisconnect,
      },
    );
    this.ctx = this.stateContext(deps.codec);
  }

  /** The settings in force. */
  get settings(): SessionSettings {
    return this.currentSettings;
  }

  /**
   * Acceptor, at a logon: the counterparty's settings (the authenticator's) replace the session's, in
   * force from the Logon that follows. Operator calls and sends leave a live session's settings alone.
   */
  applySettings(settings: SessionSettings): void {
    this.currentSettings = settings;
  }

  /** Both Logons were exchanged on the current connection. */
  get loggedOn(): boolean {
    return this.connection.loggedOn;
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
      if (this.connection.transport) throw new Error(`${this.key} already has a connection`);
      const now = this.clock.now();
      this.connection.open(transport, now);
      this.out.connected(now);
      this.inbound.clearGap();
      this.startTicking();
      await this.dispatch({ kind: 'connect' });
    });
  }

  /** A message arrived on `transport` (dropped when that connection is no longer this session's). */
  receive(transport: SessionTransport, message: InboundMessage): Promise<void> {
    this.inbound.arrived(message, this.clock.now());
    return this.enqueue(() => (this.connection.transport === transport ? this.dispatch({ kind: 'message', message }) : SETTLED));
  }

  receiveGarbled(transport: SessionTransport, reason: string): Promise<void> {
    return this.enqueue(() => (this.connection.transport === transport ? this.dispatch({ kind: 'garbled', reason }) : SETTLED));
  }

  /** The socket of `transport` closed; ignored when the session has since moved to another connection. */
  connectionClosed(transport: SessionTransport, reason: string): Promise<void> {
    return this.enqueue(() => (this.connection.transport === transport ? this.dispatch({ kind: 'disconnect', reason }) : SETTLED));
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
      if (this.connection.connected) throw new Error(`${this.key} is connected; log it out before resetting its sequence numbers`);
      await this.resetStore('operator reset');
    });
  }

  status(): SessionStatus {
    return {
      sessionID: this.id,
      state: this.state.name,
      connected: this.connection.connected,
      loggedOn: this.connection.loggedOn,
      remoteAddress: this.connection.transport?.remoteAddress,
      nextSenderMsgSeqNum: this.nextSenderMsgSeqNum,
      nextTargetMsgSeqNum: this.nextTargetMsgSeqNum,
      heartBtIntSec: this.connection.heartBtIntSec,
      queuedInbound: this.inbound.queuedCount,
    };
  }

  get isConnected(): boolean {
    return this.connection.connected;
  }

  /** Resolves once no connection is open: at once when none is, else when the open one ends. */
  untilDisconnected(): Promise<void> {
    if (!this.connection.connected) return Promise.resolve();
    return new Promise((resolve) => this.disconnectWaiters.push(resolve));
  }

  /** Waits until every queued event has been handled (tests, shutdown). */
  idle(): Promise<void> {
    return this.enqueue(() => this.settlePipeline());
  }

  /** Drops the connection if any, stops timers, releases the store. */
  async close(reason = 'session closed'): Promise<void> {
    await this.enqueue(async () => {
      if (this.connection.connected) await this.dispatch({ kind: 'disconnect', reason });
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
          to = await from.onConnect(this.ctx);
          break;
        case 'message':
          this.connection.received(this.clock.now());
          this.log.onIncoming(event.message.rawText);
          to = await from.onMessage(this.ctx, event.message);
          break;
        case 'garbled':
          this.log.onEvent(`garbled message ignored: ${event.reason}`);
          to = await from.onGarbled(this.ctx, event.reason);
          break;
        case 'tick':
          to = await from.onTick(this.ctx);
          break;
        case 'disconnect':
          to = await from.onDisconnect(this.ctx, event.reason);
          break;
        case 'operatorLogout':
          to = await from.onOperatorLogout(this.ctx, event.reason);
          break;
      }
    } catch (err) {
      // A failing store or a bug must not leave a half-processed session talking to the peer.
      const text = err instanceof Error ? err.message : String(err);
      this.log.onEvent(`error handling ${event.kind} in ${from.name}: ${text}`);
      if (this.connection.connected) await this.dropConnection(`internal error: ${text}`);
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
  private startTicking(): void {
    this.stopTicking();
    const hb = this.connection.heartBtIntSec;
    const interval = hb > 0 ? Math.min(this.settings.tickIntervalMs, Math.max(25, hb * 50)) : this.settings.tickIntervalMs;
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
    if (!this.settings.pipelineSends || this.closed || !this.connection.loggedOn || this.out.broken || !this.connection.transport)
      return undefined;
    if (this.state.name !== 'inSession' || this.sendQueue.batchOpen) return undefined;
    return this.out.reserve(message, this.creationTime);
  }

  // ---------------------------------------------------------------------------------------------
  // Connection ending

  /** Closes the socket (after flushing) and clears per-connection state; tells the application if it was logged on. */
  private async dropConnection(reason: string): Promise<void> {
    const { transport, wasLoggedOn } = this.connection.close();
    this.stopTicking();
    this.inbound.clearGap();
    this.log.onEvent(`disconnected: ${reason}`);
    transport?.end(reason);
    const waiters = this.disconnectWaiters;
    this.disconnectWaiters = [];
    for (const resolve of waiters) resolve();
    if (wasLoggedOn) await this.appCalls.onLogout(reason);
  }

  /**
   * Logout, then close: the answer to a protocol violation the session cannot continue after. `text`
   * goes out as the Logout's Text (none when undefined); `why` is what the log says.
   */
  private async logoutAndDrop(text: string | undefined, why = text ?? 'protocol violation'): Promise<'disconnected'> {
    await this.admin.logout(text);
    await this.dropConnection(why);
    return 'disconnected';
  }

  // ---------------------------------------------------------------------------------------------
  // Sequence numbers

  private async reloadSequenceState(): Promise<void> {
    const s = await this.store.sequenceState();
    this.out.setNextSenderMsgSeqNum(s.nextSenderMsgSeqNum);
    this.inbound.setNextTargetMsgSeqNum(s.nextTargetMsgSeqNum);
    this.creationTime = s.creationTime;
  }

  private async resetStore(why: string): Promise<void> {
    const now = new Date(this.clock.now());
    await this.store.reset(now);
    this.out.setNextSenderMsgSeqNum(1);
    this.inbound.setNextTargetMsgSeqNum(1);
    this.creationTime = now;
    this.inbound.clearGap();
    this.log.onEvent(`sequence numbers reset (${why})`);
  }

  /** A scheduled reset (reset frequency in the connector's zone) is due for a logon now. */
  private isScheduledResetDue(): boolean {
    const start = this.settings.schedule?.startTime;
    return isResetDue(this.settings.resetFrequency, this.creationTime.getTime(), this.clock.now(), this.settings.timeZone, start);
  }

  private isWithinSchedule(): boolean {
    return !this.settings.schedule || isWithinSchedule(this.settings.schedule, this.clock.now());
  }

  // ---------------------------------------------------------------------------------------------
  // Pipelining (settings.pipelineApplication)

  /**
   * Whether an inbound message may be handled while earlier ones are still with the application: an
   * application message of a pipelined type, exactly in sequence, logged on (in session, or filling a
   * gap with the peer's resent messages), and the pipeline not full. Everything else first waits for
   * the pipeline (settlePipeline), so admin messages, gaps, rejects and logouts see the session exactly
   * as without pipelining.
   */
  private mayOverlap(message: InboundMessage): boolean {
    return (
      (this.state.name === 'inSession' || this.state.name === 'resend') && this.connection.connected && this.inbound.mayOverlap(message)
    );
  }

  /** Inbound and outbound work still on its way. */
  private get pipelineBusy(): boolean {
    return this.inbound.busy || this.out.busy;
  }

  /** Waits for the pipeline and the wire (see Inbound.settle); throws a store failure of either. */
  private async settlePipeline(): Promise<void> {
    if (this.pipelineBusy) await this.inbound.settle();
  }

  // ---------------------------------------------------------------------------------------------
  // What the states see (SessionContext)

  private stateContext(codec: SessionCodec): SessionContext {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getters below read the session
    const session = this;
    const { out, inbound, connection } = this;
    return {
      key: this.key,
      log: this.log,
      codec,
      get settings() {
        return session.currentSettings;
      },
      get stateName() {
        return session.state.name;
      },
      now: () => this.clock.now(),
      isWithinSchedule: () => this.isWithinSchedule(),
      numbers: {
        get nextSender() {
          return out.nextSenderMsgSeqNum;
        },
        get nextTarget() {
          return inbound.nextTargetMsgSeqNum;
        },
        reload: () => this.reloadSequenceState(),
        reset: (why) => this.resetStore(why),
        resetDue: () => this.isScheduledResetDue(),
      },
      inbound,
      connection,
      send: this.admin,
      app: this.appCalls,
      startHeartbeats: (heartBtIntSec) => {
        connection.setHeartBtInt(heartBtIntSec);
        this.startTicking();
      },
      dropConnection: (reason) => this.dropConnection(reason),
      logoutAndDrop: (text, why) => this.logoutAndDrop(text, why),
    };
  }
}

export { msgSeqNum };
