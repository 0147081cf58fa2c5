import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { FixFramer } from '../codec/framer';
import type { Application } from '../session/application';
import { systemClock, systemTimers, type Clock, type TimerHandle, type Timers } from '../session/clock';
import { nullLogFactory, type LogFactory, type SessionLog } from '../session/log';
import type { OutgoingMessage, SessionCodec } from '../session/message';
import { Session, type SessionStatus } from '../session/session';
import type { SessionID } from '../session/session-id';
import { sessionSettings, type SessionSettings } from '../session/session-settings';
import type { MessageStoreFactory } from '../store/message-store';
import { FixConnection } from '../transport/connection';
import { initiatorTlsOptions, type InitiatorTlsConfig } from '../transport/tls';
import { decodeFrame, SessionFeed } from './wire';

export interface ReconnectPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Each failed attempt multiplies the delay by this. */
  readonly factor: number;
}

export interface InitiatorOptions {
  readonly host: string;
  readonly port: number;
  /**
   * More addresses of the same acceptor (QuickFIX's SocketConnectHost1/Port1, …): each connection
   * attempt goes to the next address in turn, so a client reaches whichever node serves its session.
   */
  readonly alternateAddresses?: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  readonly tls?: InitiatorTlsConfig;
  /** From our side: senderCompID is ours. */
  readonly sessionID: SessionID;
  readonly settings?: Partial<SessionSettings>;
  readonly app: Application;
  readonly storeFactory: MessageStoreFactory;
  readonly codec: SessionCodec;
  readonly logFactory?: LogFactory;
  readonly clock?: Clock;
  readonly timers?: Timers;
  readonly reconnect?: Partial<ReconnectPolicy> | false;
  readonly connectTimeoutMs?: number;
  readonly maxMessageSize?: number;
}

const DEFAULT_RECONNECT: ReconnectPolicy = { initialDelayMs: 1000, maxDelayMs: 30_000, factor: 2 };

/**
 * One FIX session over an outgoing connection, reconnecting with exponential backoff (reset once a
 * logon succeeds) until stopped.
 */
export class Initiator {
  readonly session: Session;
  private readonly log: SessionLog;
  private readonly timers: Timers;
  private readonly policy: ReconnectPolicy | undefined;
  private delayMs: number;
  private retry: TimerHandle | undefined;
  private connection: FixConnection | undefined;
  private stopped = false;
  private attempts = 0;

  private constructor(
    private readonly options: InitiatorOptions,
    session: Session,
  ) {
    this.session = session;
    this.log = (options.logFactory ?? nullLogFactory).create(options.sessionID);
    this.timers = options.timers ?? systemTimers;
    this.policy = options.reconnect === false ? undefined : { ...DEFAULT_RECONNECT, ...options.reconnect };
    this.delayMs = this.policy?.initialDelayMs ?? 0;
  }

  /** Opens the store and starts connecting (resolves once the first attempt is under way). */
  static async start(options: InitiatorOptions): Promise<Initiator> {
    const clock = options.clock ?? systemClock;
    const store = await options.storeFactory.open(options.sessionID, new Date(clock.now()));
    const app = options.app;
    // The session is built before the Initiator that owns it; its onLogon reaches the owner through this.
    const owner: { initiator?: Initiator } = {};
    const session = await Session.create({
      id: options.sessionID,
      settings: sessionSettings('initiator', options.settings),
      store,
      app: {
        ...app,
        fromApp: (m, id) => app.fromApp(m, id),
        onLogon: async (id) => {
          owner.initiator?.loggedOn();
          await app.onLogon?.(id);
        },
      },
      log: (options.logFactory ?? nullLogFactory).create(options.sessionID),
      clock,
      timers: options.timers ?? systemTimers,
      codec: options.codec,
    });
    const initiator = new Initiator(options, session);
    owner.initiator = initiator;
    initiator.connect();
    return initiator;
  }

  status(): SessionStatus {
    return this.session.status();
  }

  send(message: OutgoingMessage): Promise<number> {
    return this.session.send(message);
  }

  /** Number of connection attempts made so far. */
  get connectAttempts(): number {
    return this.attempts;
  }

  /** Logs out (waiting up to graceMs for the answer), stops reconnecting, closes the store. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopped = true;
    this.retry?.cancel();
    if (this.session.status().loggedOn) {
      await this.session.logout('Initiator stopping').catch(() => {});
      const until = Date.now() + graceMs;
      while (this.session.isConnected && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    }
    this.connection?.destroy('initiator stopped');
    await this.session.close('initiator stopped').catch(() => {});
  }

  /** Simulates a crash (kill -9) for tests: socket torn down, no Logout, store left as it is, no reconnect. */
  crash(): void {
    this.stopped = true;
    this.retry?.cancel();
    this.connection?.destroy('crash');
  }

  private loggedOn(): void {
    this.delayMs = this.policy?.initialDelayMs ?? 0;
  }

  private connect(): void {
    if (this.stopped) return;
    const addresses = [{ host: this.options.host, port: this.options.port }, ...(this.options.alternateAddresses ?? [])];
    const { host, port } = addresses[this.attempts % addresses.length]!;
    this.attempts += 1;
    const { tls } = this.options;
    let socket: Socket;
    try {
      socket = tls ? tlsConnect(initiatorTlsOptions(host, port, tls)) : tcpConnect({ host, port });
    } catch (err) {
      this.log.onEvent(`connect to ${host}:${port} failed: ${err instanceof Error ? err.message : String(err)}`);
      this.scheduleReconnect();
      return;
    }
    const timeout = setTimeout(() => socket.destroy(new Error('connect timeout')), this.options.connectTimeoutMs ?? 10_000);
    timeout.unref();
    let established = false;
    socket.once(tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timeout);
      established = true;
      this.onConnected(socket, `${host}:${port}`);
    });
    socket.once('error', (err) => {
      if (established) return;
      clearTimeout(timeout);
      this.log.onEvent(`connect to ${host}:${port} failed: ${err.message}`);
      socket.destroy();
      this.scheduleReconnect();
    });
  }

  private onConnected(socket: Socket, address: string): void {
    if (this.stopped) {
      socket.destroy();
      return;
    }
    const connection = new FixConnection(socket);
    this.connection = connection;
    const framer = new FixFramer({ beginString: this.options.sessionID.beginString, maxMessageSize: this.options.maxMessageSize });
    const feed = new SessionFeed(connection, this.session);
    this.log.onEvent(`connected to ${address}`);
    void this.session.connect(connection).catch((err) => {
      this.log.onEvent(`logon failed: ${err instanceof Error ? err.message : String(err)}`);
      connection.destroy('logon failed');
    });
    connection.attach({
      onData: (chunk) => {
        for (const frame of framer.push(chunk)) feed.deliver(decodeFrame(frame, this.options.codec));
      },
      onClose: (reason) => {
        framer.reset();
        feed.closed(reason);
        if (this.connection === connection) this.connection = undefined;
        this.scheduleReconnect();
      },
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped || !this.policy) return;
    const delay = this.delayMs;
    this.delayMs = Math.min(this.policy.maxDelayMs, Math.max(1, this.delayMs * this.policy.factor));
    this.log.onEvent(`reconnecting in ${delay} ms`);
    this.retry = this.timers.after(delay, () => this.connect());
  }
}
