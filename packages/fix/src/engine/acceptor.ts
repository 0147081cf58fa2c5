import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { FixFramer } from '../codec/framer';
import { MsgType, Tag } from '@fixdesk/fix-codes';
import type { Application } from '../session/application';
import type { Authenticator } from '../session/authenticator';
import { systemClock, systemTimers, type Clock, type Timers } from '../session/clock';
import { nullLogFactory, type LogFactory, type SessionLog } from '../session/log';
import type { InboundMessage, OutgoingMessage, SessionCodec } from '../session/message';
import { Session, type SessionStatus } from '../session/session';
import { sessionIdToString, type SessionID } from '../session/session-id';
import { sessionSettings, type SessionSettings } from '../session/session-settings';
import { formatUtcTimestamp } from '../codec/values';
import type { MessageStoreFactory } from '../store/message-store';
import { FixConnection } from '../transport/connection';
import { acceptorTlsOptions, type AcceptorTlsConfig } from '../transport/tls';
import { decodeFrame, SessionFeed, type Decoded } from './wire';

export interface AcceptorOptions {
  readonly port: number;
  readonly host?: string;
  /** TLS server certificate and key; with `ca`, clients must present a certificate (mutual TLS). */
  readonly tls?: AcceptorTlsConfig;
  /**
   * A second port, serving TLS, beside the plain one on `port` (both lead to the same sessions; the
   * authenticator sees which one a Logon came through).
   */
  readonly tlsListener?: { readonly port: number; readonly host?: string; readonly tls: AcceptorTlsConfig };
  readonly beginString?: string;
  readonly authenticator: Authenticator;
  readonly app: Application;
  readonly storeFactory: MessageStoreFactory;
  readonly codec: SessionCodec;
  readonly logFactory?: LogFactory;
  readonly clock?: Clock;
  readonly timers?: Timers;
  /** Settings every session starts from; the authenticator's decision may override per counterparty. */
  readonly defaultSettings?: Partial<SessionSettings>;
  /** A connection must deliver its Logon within this time. */
  readonly logonTimeoutMs?: number;
  readonly maxMessageSize?: number;
  readonly maxBufferedBytes?: number;
}

/**
 * Accepts many FIX sessions on one port, keyed by CompIDs from the peer's Logon. Only one live
 * connection per session: a second Logon for a connected pair is disconnected with nothing sent, and
 * the live session carries on untouched.
 */
export class Acceptor {
  private readonly server: Server;
  private readonly tlsServer: Server | undefined;
  private readonly sessions = new Map<string, Session>();
  /** Pairs whose Logon is being authenticated right now (two racing Logons must not both win). */
  private readonly claims = new Set<string>();
  /** Each pair's latest bound connection (closed ones stay until replaced: one entry per pair). */
  private readonly bound = new Map<string, FixConnection>();
  private readonly connections = new Set<FixConnection>();
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly logFactory: LogFactory;
  private readonly beginString: string;
  private readonly connectionLog: SessionLog;
  private listeningPort = 0;
  private listeningTlsPort = 0;

  private constructor(private readonly options: AcceptorOptions) {
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    this.logFactory = options.logFactory ?? nullLogFactory;
    this.beginString = options.beginString ?? 'FIX.4.4';
    this.connectionLog = this.logFactory.create(null);
    const onSocket = (socket: Socket) => this.accept(socket);
    this.server = options.tls ? createTlsServer(acceptorTlsOptions(options.tls), onSocket) : createTcpServer(onSocket);
    this.server.on('tlsClientError', (err: Error) => this.connectionLog.onEvent(`TLS handshake failed: ${err.message}`));
    if (options.tlsListener) {
      this.tlsServer = createTlsServer(acceptorTlsOptions(options.tlsListener.tls), onSocket);
      this.tlsServer.on('tlsClientError', (err: Error) => this.connectionLog.onEvent(`TLS handshake failed: ${err.message}`));
    }
  }

  /** Starts listening; resolves once the port is bound (port 0 picks a free one, see `port`). */
  static async start(options: AcceptorOptions): Promise<Acceptor> {
    const acceptor = new Acceptor(options);
    await new Promise<void>((resolve, reject) => {
      acceptor.server.once('error', reject);
      acceptor.server.listen(options.port, options.host ?? '0.0.0.0', () => {
        acceptor.server.off('error', reject);
        resolve();
      });
    });
    const address = acceptor.server.address();
    acceptor.listeningPort = typeof address === 'object' && address ? address.port : options.port;
    acceptor.connectionLog.onEvent(`acceptor listening on port ${acceptor.listeningPort}${options.tls ? ' (TLS)' : ''}`);
    const tlsServer = acceptor.tlsServer;
    const tlsListener = options.tlsListener;
    if (tlsServer && tlsListener) {
      try {
        await new Promise<void>((resolve, reject) => {
          tlsServer.once('error', reject);
          tlsServer.listen(tlsListener.port, tlsListener.host ?? options.host ?? '0.0.0.0', () => {
            tlsServer.off('error', reject);
            resolve();
          });
        });
      } catch (err) {
        await new Promise<void>((resolve) => acceptor.server.close(() => resolve()));
        throw err;
      }
      const tlsAddress = tlsServer.address();
      acceptor.listeningTlsPort = typeof tlsAddress === 'object' && tlsAddress ? tlsAddress.port : tlsListener.port;
      acceptor.connectionLog.onEvent(`acceptor listening on port ${acceptor.listeningTlsPort} (TLS)`);
    }
    return acceptor;
  }

  get port(): number {
    return this.listeningPort;
  }

  /** The TLS listener's port (0 when there is none). */
  get tlsPort(): number {
    return this.listeningTlsPort;
  }

  // ---------------------------------------------------------------------------------------------
  // Operator functions

  /** Every session seen since start (connected or not), with state and next sequence numbers. */
  list(): SessionStatus[] {
    return [...this.sessions.values()].map((s) => s.status());
  }

  session(id: SessionID): Session | undefined {
    return this.sessions.get(sessionIdToString(id));
  }

  /** Drops a session's connection at once (no Logout). */
  async disconnect(id: SessionID, reason = 'Disconnected by operator'): Promise<void> {
    await this.require(id).disconnect(reason);
  }

  /** Sends a Logout and closes once the peer answers (or the logout timeout passes). */
  async logout(id: SessionID, reason = 'Logout by operator'): Promise<void> {
    await this.require(id).logout(reason);
  }

  /** As logout, resolving only once the connection has closed (the peer answered, or the logout timeout passed). */
  async logoutAndClose(id: SessionID, reason = 'Logout by operator'): Promise<void> {
    const session = this.require(id);
    await session.logout(reason);
    await session.untilDisconnected();
  }

  /** A session's state and next numbers, its store opened if it was not seen since start. */
  async statusOf(id: SessionID): Promise<SessionStatus> {
    return (await this.sessionFor(id)).status();
  }

  /** Starts both sequences again at 1 (refused while the session is connected). */
  async resetSequence(id: SessionID): Promise<void> {
    await (await this.sessionFor(id)).resetSequence();
  }

  async setNextSenderMsgSeqNum(id: SessionID, next: number): Promise<void> {
    await (await this.sessionFor(id)).setNextSenderMsgSeqNum(next);
  }

  async setNextTargetMsgSeqNum(id: SessionID, next: number): Promise<void> {
    await (await this.sessionFor(id)).setNextTargetMsgSeqNum(next);
  }

  /** Sends an application message to a session (persisted for resend if the client is logged out). */
  send(id: SessionID, message: OutgoingMessage): Promise<number> {
    // A live session takes it at once (no hop through sessionFor), so a reply keeps its place.
    const existing = this.sessions.get(sessionIdToString(id));
    if (existing) return existing.send(message);
    return this.sessionFor(id).then((session) => session.send(message));
  }

  /** Stops accepting, logs every session out (waiting up to graceMs) and closes the stores. */
  async stop(graceMs = 2000): Promise<void> {
    // Stop accepting now; server.close() only calls back once every connection has ended, so the
    // sessions are logged out first and the close is awaited at the end.
    const closed = Promise.all(
      [this.server, ...(this.tlsServer ? [this.tlsServer] : [])].map(
        (server) => new Promise<void>((resolve) => server.close(() => resolve())),
      ),
    );
    await Promise.all(
      [...this.sessions.values()].map(async (s) => {
        if (s.status().loggedOn) {
          await s.logout('Server shutting down').catch(() => {});
          const until = Date.now() + graceMs;
          while (s.isConnected && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        }
        await s.close('acceptor stopped').catch(() => {});
      }),
    );
    for (const c of this.connections) c.destroy('acceptor stopped');
    this.sessions.clear();
    await closed;
  }

  /**
   * Simulates a crash (kill -9) for tests: sockets torn down, no Logout, no store close, nothing flushed
   * beyond what the store had already made durable.
   */
  async crash(): Promise<void> {
    for (const c of this.connections) c.destroy('crash');
    await Promise.all(
      [this.server, ...(this.tlsServer ? [this.tlsServer] : [])].map(
        (server) => new Promise<void>((resolve) => server.close(() => resolve())),
      ),
    );
    this.sessions.clear();
  }

  private require(id: SessionID): Session {
    const s = this.sessions.get(sessionIdToString(id));
    if (!s) throw new Error(`no session ${sessionIdToString(id)}`);
    return s;
  }

  /** The session object, created (store opened) if it was not seen since start. */
  /**
   * The session object for an id. `overrides` (the authenticator's settings for this counterparty)
   * are applied only on a logon; operator calls and sends leave a live session's settings alone.
   */
  private async sessionFor(id: SessionID, overrides?: Partial<SessionSettings>): Promise<Session> {
    const key = sessionIdToString(id);
    const existing = this.sessions.get(key);
    if (existing) {
      if (overrides) existing.applySettings(sessionSettings('acceptor', { ...this.options.defaultSettings, ...overrides }));
      return existing;
    }
    const store = await this.options.storeFactory.open(id, new Date(this.clock.now()));
    const raced = this.sessions.get(key);
    if (raced) {
      await store.close();
      return raced;
    }
    const session = await Session.create({
      id,
      settings: sessionSettings('acceptor', { ...this.options.defaultSettings, ...(overrides ?? {}) }),
      store,
      app: this.options.app,
      log: this.logFactory.create(id),
      clock: this.clock,
      timers: this.timers,
      codec: this.options.codec,
    });
    this.sessions.set(key, session);
    return session;
  }

  // ---------------------------------------------------------------------------------------------
  // Connections

  private accept(socket: Socket): void {
    const connection = new FixConnection(socket, { maxBufferedBytes: this.options.maxBufferedBytes });
    this.connections.add(connection);
    const framer = new FixFramer({ beginString: this.beginString, maxMessageSize: this.options.maxMessageSize });
    const log = this.connectionLog;
    log.onEvent(`connection from ${connection.remoteAddress}:${connection.remotePort}`);

    let feed: SessionFeed | undefined;
    let chain: Promise<void> = Promise.resolve();
    /** Frames still in the chain: once a session is bound and none are left, frames go straight to it. */
    let chained = 0;
    let gone = false;
    const logonTimer = this.timers.after(this.options.logonTimeoutMs ?? 10_000, () => {
      if (!feed && !gone) connection.destroy('no Logon received in time');
    });

    const onFrame = async (decoded: Decoded) => {
      if (gone) return;
      if (feed) return feed.deliver(decoded);
      if (decoded.kind === 'garbled') {
        // Nothing identifies the peer yet, so nothing is sent (QuickFIX 1d: an invalid Logon length).
        log.onEvent(`garbled message before Logon from ${connection.remoteAddress}: ${decoded.reason}: disconnected`);
        connection.end('garbled message before Logon');
        gone = true;
        return;
      }
      log.onIncoming(decoded.message.rawText);
      const bound = await this.bindLogon(connection, decoded.message);
      if (bound) {
        logonTimer.cancel();
        feed = bound;
      }
    };

    connection.attach({
      onData: (chunk) => {
        for (const frame of framer.push(chunk)) {
          const decoded = decodeFrame(frame, this.options.codec);
          if (feed && chained === 0 && !gone) {
            feed.deliver(decoded);
            continue;
          }
          // One chain per connection: frames behind the Logon wait for its authentication, in order.
          chained += 1;
          chain = chain
            .then(() => onFrame(decoded))
            .catch((err) => connection.destroy(`logon handling failed: ${String(err)}`))
            .finally(() => {
              chained -= 1;
            });
        }
      },
      onClose: (reason) => {
        gone = true;
        logonTimer.cancel();
        this.connections.delete(connection);
        framer.reset();
        if (feed) feed.closed(reason);
        else log.onEvent(`connection from ${connection.remoteAddress} closed before logon: ${reason}`);
      },
    });
  }

  /** Authenticates the first message of a connection; returns the session feed when it may proceed. */
  private async bindLogon(connection: FixConnection, logon: InboundMessage): Promise<SessionFeed | undefined> {
    const log = this.connectionLog;
    const beginString = logon.get(Tag.BeginString) ?? '';
    const ourCompID = logon.get(Tag.TargetCompID) ?? '';
    const theirCompID = logon.get(Tag.SenderCompID) ?? '';
    if (logon.msgType !== MsgType.Logon) {
      log.onEvent(`first message from ${connection.remoteAddress} was 35=${logon.msgType}, not a Logon: disconnected`);
      connection.end('first message not a Logon');
      return undefined;
    }
    // Until the peer is authenticated, a refusal sends nothing: a stranger learns nothing, and no
    // live session's number is used or shown.
    if (beginString !== this.beginString) {
      this.dropUnauthenticated(connection, `Incorrect BeginString ${beginString}`);
      return undefined;
    }
    const id: SessionID = { beginString, senderCompID: ourCompID, targetCompID: theirCompID };
    const key = sessionIdToString(id);
    // A session still winding down a connection whose socket is already gone (its disconnect queued
    // behind work in progress) does not hold the pair: the new connection queues behind that disconnect.
    const live = this.sessions.get(key);
    const owner = this.bound.get(key);
    if (this.claims.has(key) || (live?.isConnected && (owner === undefined || owner.isOpen))) {
      this.dropUnauthenticated(connection, `Session ${key} already logged on`);
      return undefined;
    }
    this.claims.add(key);
    try {
      const decision = await this.options.authenticator.authenticate({
        sessionID: id,
        username: logon.get(Tag.Username),
        password: logon.get(Tag.Password),
        remoteAddress: connection.remoteAddress,
        transport: connection.transport,
        logon,
        now: this.clock.now(),
      });
      if (!decision.accept) {
        if (!decision.authenticated) {
          this.dropUnauthenticated(connection, `logon refused for ${key}: ${decision.reason}`);
          return undefined;
        }
        log.onEvent(`logon refused for ${key} from ${connection.remoteAddress}: ${decision.reason}`);
        // An authenticated counterparty not seen since start: open its session (its store) so that the
        // Logout carries the stored next number and lands in its audit trail.
        let session = this.sessions.get(key);
        if (!session) {
          try {
            session = await this.sessionFor(id);
          } catch (err) {
            log.onEvent(`could not open the store of refused ${key}: ${String(err)}`);
          }
        }
        this.refuse(connection, logon, decision.reason, session);
        return undefined;
      }
      if (!connection.isOpen) return undefined;
      const session = await this.sessionFor(id, decision.settings ?? {});
      const feed = new SessionFeed(connection, session);
      this.bound.set(key, connection);
      await session.connect(connection);
      feed.deliver({ kind: 'message', message: logon });
      return feed;
    } finally {
      this.claims.delete(key);
    }
  }

  /** Closes a connection whose peer is not authenticated, with nothing sent; the log says why. */
  private dropUnauthenticated(connection: FixConnection, why: string): void {
    this.connectionLog.onEvent(`refused logon from ${connection.remoteAddress}: ${why}: disconnected, nothing sent`);
    connection.end(why);
  }

  /**
   * Answers an authenticated counterparty's refused Logon with a Logout and closes. The Logout reuses
   * the session's next number without consuming it: a refused logon changes no sequence number.
   */
  private refuse(connection: FixConnection, logon: InboundMessage, reason: string, session?: Session): void {
    const seq = session?.status().nextSenderMsgSeqNum ?? 1;
    const bytes = this.options.codec.encode(
      logon.get(Tag.BeginString) ?? this.beginString,
      MsgType.Logout,
      [
        [Tag.SenderCompID, logon.get(Tag.TargetCompID) ?? ''],
        [Tag.TargetCompID, logon.get(Tag.SenderCompID) ?? ''],
        [Tag.MsgSeqNum, String(seq)],
        [Tag.SendingTime, formatUtcTimestamp(this.clock.now())],
      ],
      [[Tag.Text, reason]],
    );
    const raw = bytes.toString('latin1');
    this.connectionLog.onOutgoing(raw);
    this.connectionLog.onEvent(`refused logon from ${connection.remoteAddress}: ${reason}`);
    if (session) {
      // Known session: the refusal belongs in its audit trail (the number is reused, not consumed).
      void session.store
        .auditOutbound({
          direction: 'TX',
          msgSeqNum: seq,
          msgType: MsgType.Logout,
          senderCompID: session.id.senderCompID,
          targetCompID: session.id.targetCompID,
          sendingTime: formatUtcTimestamp(this.clock.now()),
          raw,
        })
        .catch((err: unknown) => this.connectionLog.onEvent(`audit of refused logon failed: ${String(err)}`));
    }
    void connection.write(bytes);
    connection.end(`logon refused: ${reason}`);
  }
}
