import { connect as connectTcp } from 'node:net';
import {
  closeClientSession,
  closeSessionsOfStoppedProcess,
  fixSessionLeaseName,
  getConnector,
  lastSessionMessages,
  openClientSession,
  PgMessageStoreFactory,
  recordRefusedLogon,
  type ConnectorRow,
  type Db,
  type LeaseRow,
} from '@fixdesk/db';
import {
  Acceptor,
  BusinessRejectError,
  CounterpartyAuthenticator,
  createSessionCodec,
  MsgType,
  parseTradingDays,
  safeEqual,
  Tag,
  type Application,
  type Authenticator,
  type AppReceipt,
  type CounterpartyConfig,
  type FixMessage,
  type LogFactory,
  type SessionID,
  type SessionLog,
  type SessionStatus,
  type TransportInfo,
} from '@fixdesk/fix';
import type { LastMessage, SessionConsoleState } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { LeaseKeeper } from '../cluster/lease-keeper';
import type { Config } from '../config';
import type { ServerEventBus } from '../events';
import type { IncomingNewOrder } from '../orders/intake';
import type { OrderService } from '../orders/order-service';
import type { ClientOutbox } from '../orders/outbox';
import type { WsHub } from '../ws/hub';
import { refusalCause, type SessionStats } from '../status/session-stats';
import type { ClientSessions } from './client-sessions';
import { ensureServerCertificate, fingerprintOf } from '../pki/desk-pki';

/** Past another node's lease expiry before a held Logon asks for the lease again (the database's clock may be a little behind). */
const LEASE_EXPIRY_MARGIN_MS = 30;

/** The clean ends of a session: the Completed status on the Client Sessions screen, not Disconnected. */
const CLEAN_LOGOUT = /^peer logged out|^logout/i;

interface LiveSession {
  rowId: number;
  sent: number;
  received: number;
  orders: number;
  /** When the client's last message arrived (ms since the epoch): the session's heartbeat. */
  lastReceivedAt: number;
  /** Application messages of the client being handled now (an order in its intake commit, …). */
  inFlight: number;
  /** When the client's last application message was done with (ms since the epoch; its logon at first). */
  lastAppAt: number;
}

/** How long a client must have sent no application message before its session may be handed over to another node. */
const HANDOVER_IDLE_MS = 1_000;

/** The last raw message each way of a client's session, and when (parsed only when the console asks). */
interface LastTraffic {
  inRaw?: string;
  inAt?: number;
  outRaw?: string;
  outAt?: number;
  tls?: boolean;
}

/**
 * Why a connector whose TLS is enabled (it has a certificate) may not log on over this transport;
 * undefined when it may. The client must come over TLS with the very certificate issued to it (bound
 * by its SHA-256 fingerprint), verified against the desk CA.
 */
export function tlsLogonProblem(c: ConnectorRow, transport: TransportInfo | undefined): string | undefined {
  if (!c.tls_cert) return undefined;
  if (!transport?.tls) return 'TLS required: Logon over plain TCP refused';
  const peer = transport.peerCertificate;
  if (!peer) return 'TLS client certificate required';
  if (!peer.authorized) return `TLS client certificate not trusted: ${peer.authorizationError ?? 'not signed by the desk CA'}`;
  let expected: string;
  try {
    expected = fingerprintOf(c.tls_cert);
  } catch {
    return 'the connector\'s stored certificate cannot be read';
  }
  if (peer.fingerprint256 !== expected) return `TLS client certificate${peer.subjectCN ? ` (CN ${peer.subjectCN})` : ''} is not the one issued to ${c.comp_id}`;
  return undefined;
}

function lastMessage(raw: string | undefined, at: number | undefined): LastMessage | null {
  if (raw === undefined || at === undefined) return null;
  const type = /(?:^|\x01)35=([^\x01]*)/.exec(raw)?.[1] ?? '?';
  const seq = /\x0134=(\d+)/.exec(raw)?.[1];
  return { msgType: type, msgSeqNum: seq === undefined ? null : Number(seq), at: new Date(at).toISOString() };
}

/** A connector row as the engine's authenticator sees it. Settings apply from the next logon. */
export function counterpartyFor(c: ConnectorRow): CounterpartyConfig {
  const ips = (c.whitelisted_ips ?? '').split(/[,\s]+/).filter(Boolean);
  let schedule: CounterpartyConfig['schedule'];
  try {
    schedule = { timeZone: c.timezone, tradingDays: parseTradingDays(c.trading_days), startTime: c.start_time, endTime: c.end_time };
  } catch {
    schedule = undefined;
  }
  return {
    active: c.is_active,
    username: c.fix_username || undefined,
    verifyPassword: c.fix_password ? (pw: string) => safeEqual(pw, c.fix_password!) : undefined,
    allowedSourceIps: ips,
    schedule,
    heartBtIntRange: { minSec: c.heartbeat_min_sec, maxSec: c.heartbeat_max_sec, allowZero: c.heartbeat_allow_zero },
    settings: {
      heartBtIntSec: c.heartbeatint,
      resetOnLogon: c.resetseqnumflag || c.resetseqnums,
      resetFrequency: c.reset_frequency,
      timeZone: c.timezone,
      logonTimeoutMs: c.timeout,
    },
  };
}

function text(m: FixMessage, tag: number): string | undefined {
  const v = m.get(tag);
  return v === undefined || v === '' ? undefined : v;
}

/** Reads a NewOrderSingle or NewOrderMultileg into the order core's input. */
export function readNewOrder(m: FixMessage, id: SessionID): IncomingNewOrder {
  const parties: IncomingNewOrder['parties'] = m.getGroup(Tag.NoPartyIDs).map((p) => ({
    partyId: p.get(Tag.PartyID) ?? '',
    partyIdSource: p.get(Tag.PartyIDSource) ?? null,
    partyRole: Number(p.get(Tag.PartyRole) ?? 0),
    legIndex: null,
  }));
  const legs = m.getGroup(Tag.NoLegs).map((l, i) => {
    for (const np of l.getGroup(Tag.NoNestedPartyIDs)) {
      parties.push({ partyId: np.get(Tag.NestedPartyID) ?? '', partyIdSource: np.get(Tag.NestedPartyIDSource) ?? null, partyRole: Number(np.get(Tag.NestedPartyRole) ?? 0), legIndex: i });
    }
    return {
      symbol: l.get(Tag.LegSymbol),
      side: l.get(Tag.LegSide),
      ratio: l.get(Tag.LegRatioQty),
      maturityMonthYear: l.get(Tag.LegMaturityMonthYear),
      securityType: l.get(Tag.LegSecurityType),
    };
  });
  let transactTime: Date | undefined;
  try {
    transactTime = m.has(Tag.TransactTime) ? m.getTimestamp(Tag.TransactTime)?.date : undefined;
  } catch {
    transactTime = undefined;
  }
  return {
    msgType: m.msgType === MsgType.NewOrderMultileg ? MsgType.NewOrderMultileg : MsgType.NewOrderSingle,
    senderCompId: id.targetCompID,
    targetCompId: id.senderCompID,
    clOrdId: text(m, Tag.ClOrdID),
    side: text(m, Tag.Side),
    ordType: text(m, Tag.OrdType),
    orderQty: text(m, Tag.OrderQty),
    price: text(m, Tag.Price),
    symbol: text(m, Tag.Symbol),
    securityType: text(m, Tag.SecurityType),
    maturityMonthYear: text(m, Tag.MaturityMonthYear),
    timeInForce: text(m, Tag.TimeInForce),
    exDestination: text(m, Tag.ExDestination),
    currency: text(m, Tag.Currency),
    account: text(m, Tag.Account),
    text: text(m, Tag.Text),
    transactTime,
    possibleDuplicate: m.get(Tag.PossDupFlag) === 'Y' || m.get(Tag.PossResend) === 'Y',
    legs: legs.map((l) => ({
      ...(l.symbol !== undefined ? { symbol: l.symbol } : {}),
      ...(l.side !== undefined ? { side: l.side } : {}),
      ...(l.ratio !== undefined ? { ratio: l.ratio } : {}),
      ...(l.maturityMonthYear !== undefined ? { maturityMonthYear: l.maturityMonthYear } : {}),
      ...(l.securityType !== undefined ? { securityType: l.securityType } : {}),
    })),
    parties,
  };
}

/**
 * The FIX side of the server: our acceptor for client sessions. Authenticates logons against the
 * client connectors, hands application messages to the order core (a message counts as processed
 * only once the order core has committed), and opens each logged-on client's session in
 * ClientSessions, through which the order core and the outbox reach it.
 */
export class FixGateway {
  private acceptor: Acceptor | undefined;
  private readonly live = new Map<string, LiveSession>();
  private readonly traffic = new Map<string, LastTraffic>();
  /**
   * Sessions being handed over to another node (logged out for it, lease not yet released): to which,
   * and until when at most (as the lease's reservation: a logout that never completes strands nothing).
   */
  private readonly movingTo = new Map<string, { target: string; until: number }>();
  /** Our own probe connections: local ports, and their closes still to be logged (quietly). */
  private readonly probePorts = new Set<number>();
  private probeClosesPending = 0;
  private probesConnecting = 0;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly orders: OrderService,
    private readonly outbox: ClientOutbox,
    private readonly sessions: ClientSessions,
    private readonly hub: WsHub,
    private readonly events: ServerEventBus,
    private readonly log: FastifyBaseLogger,
    /** This node's leases: a client's session is served only by the node holding its lease (docs/adr/0012). */
    private readonly leases: LeaseKeeper,
    /** The operator's counters per client session (the message log and logon decisions feed them). */
    readonly stats: SessionStats,
    /** Seconds from a new order's arrival to its answer (the intake histogram). */
    private readonly observeIntake?: (seconds: number) => void,
  ) {}

  get port(): number {
    return this.acceptor?.port ?? 0;
  }

  /** The TLS acceptor's port; 0 when none is configured. */
  get tlsPort(): number {
    return this.acceptor?.tlsPort ?? 0;
  }

  async start(): Promise<void> {
    // Sessions this database believed connected to this node (or to a node holding no live lease) belonged to a process that is gone.
    await closeSessionsOfStoppedProcess(this.db, this.config.nodeId);
    const counterparties = new CounterpartyAuthenticator(async (id) => {
      const c = await getConnector(this.db, id.targetCompID);
      if (!c || c.target_comp_id !== id.senderCompID) return undefined;
      return counterpartyFor(c);
    });
    // A configured client's refused logon goes into its session history with the reason, whether or
    // not the client was told (an unauthenticated one is told nothing); a stranger's only to the log.
    const authenticator: Authenticator = {
      authenticate: async (request) => {
        let decision = await counterparties.authenticate(request);
        if (decision.accept) {
          // A connector whose TLS is enabled logs on only over TLS with its own certificate; anything
          // else is refused like an unknown peer (nothing sent), and recorded with why.
          const c = await getConnector(this.db, request.sessionID.targetCompID);
          const problem = c ? tlsLogonProblem(c, request.transport) : 'connector deleted';
          if (problem) decision = { accept: false, reason: problem };
          else this.trafficOf(request.sessionID.targetCompID).tls = request.transport?.tls ?? false;
        }
        // A known client's session (logging on, or refused with a Logout under its numbers) is this
        // node's only while it holds the session's lease; another live node's session is refused
        // with nothing sent, its numbers untouched. A refused one's lease goes again at once.
        if (decision.accept || decision.authenticated) {
          const owner = await this.claimSession(request.sessionID);
          if (owner) decision = { accept: false, reason: owner };
          else if (!decision.accept) await this.leases.release(fixSessionLeaseName(request.sessionID));
        }
        if (!decision.accept) {
          const cause = refusalCause(decision.reason);
          // A stranger's made-up comp ids get no counters of their own (the metrics count the cause).
          this.stats.refusedLogon(cause === 'unknown-session' ? '' : request.sessionID.targetCompID, cause);
          await recordRefusedLogon(this.db, request.sessionID.targetCompID, request.remoteAddress, this.config.nodeId, decision.reason).catch((err: unknown) =>
            this.log.warn({ err, compId: request.sessionID.targetCompID }, 'could not record a refused logon'),
          );
        }
        return decision;
      },
    };
    const app: Application = {
      onLogon: (id) => this.onLogon(id),
      onLogout: (id, reason) => this.onLogout(id, reason),
      fromApp: (m, id) => this.fromApp(m, id),
    };
    const logFactory: LogFactory = {
      create: (id) => this.sessionLog(id),
    };
    let tlsListener: Parameters<typeof Acceptor.start>[0]['tlsListener'];
    if (this.config.fixTlsPort !== undefined) {
      // The desk CA (created on first use) signs the server certificate; clients of TLS-enabled
      // connectors must present the certificate issued to them, verified against the same CA. Others
      // may use the TLS port without one.
      const { server, ca } = await ensureServerCertificate(this.db, this.config.fixTlsNames);
      tlsListener = { port: this.config.fixTlsPort, tls: { cert: server.cert_pem, key: server.key_pem, ca: ca.cert_pem, requireClientCert: false } };
    }
    this.acceptor = await Acceptor.start({
      port: this.config.fixPort,
      tlsListener,
      host: this.config.host,
      authenticator,
      app,
      // Every write to a session's store is conditional on this node's holding of its lease.
      storeFactory: new PgMessageStoreFactory(this.db, { fence: (id) => this.leases.fence(fixSessionLeaseName(id)) }),
      codec: createSessionCodec(),
      logFactory,
      // New orders overlap: the order core queues them in sequence and they commit in batches, each
      // MsgSeqNum persisted once its order committed. Cancels, replaces and status requests wait.
      // Reports going out do not hold the next inbound order while their store write commits.
      // A message for a client that is not logged on stays with the outbox (sent at its next logon,
      // PossResend) instead of being numbered into a sequence the next logon may reset.
      defaultSettings: { pipelineApplication: ['D', 'AB'], pipelineSends: true, whenNotLoggedOn: 'reject' },
    });
    this.events.on('connector-changed', (compId) => void this.onConnectorChanged(compId));
    this.log.info({ port: this.acceptor.port, tlsPort: this.acceptor.tlsPort || undefined }, 'FIX acceptor listening');
  }

  private sessionLog(id: SessionID | null): SessionLog {
    const log = this.log.child({ fix: id ? `${id.senderCompID}->${id.targetCompID}` : 'acceptor' });
    const compId = id?.targetCompID;
    return {
      onIncoming: (raw) => {
        if (!compId) return;
        const now = Date.now();
        const l = this.live.get(compId);
        if (l) {
          l.received++;
          l.lastReceivedAt = now;
        }
        const t = this.trafficOf(compId);
        t.inRaw = raw;
        t.inAt = now;
        this.stats.incoming(compId, raw);
      },
      onOutgoing: (raw) => {
        if (!compId) return;
        const l = this.live.get(compId);
        if (l) l.sent++;
        const t = this.trafficOf(compId);
        t.outRaw = raw;
        t.outAt = Date.now();
        this.stats.outgoing(compId, raw);
      },
      onEvent: (text) => {
        if (!id && this.isProbeEvent(text)) log.debug(text);
        else log.info(text);
      },
    };
  }

  private isProbeEvent(text: string): boolean {
    const opened = /^connection from (.*):(\d+)$/.exec(text);
    // The acceptor may see the connection before our side hears it is connected (its port unknown yet).
    if (opened) return this.probePorts.has(Number(opened[2])) || (this.probesConnecting > 0 && /^(127\.|::1$|::ffff:127\.)/.test(opened[1]!));
    if (this.probeClosesPending > 0 && /^connection from \S+ closed before logon/.test(text)) {
      this.probeClosesPending--;
      return true;
    }
    return false;
  }

  /**
   * The acceptor's heartbeat (service status): a TCP connection to its port that the acceptor itself
   * closes once we end ours, which takes its event loop, not only the kernel's backlog. Rejects when it
   * is not listening, refuses or does not answer in `timeoutMs`.
   */
  probe(timeoutMs = 5_000): Promise<void> {
    const port = this.port;
    if (!port) return Promise.reject(new Error('not listening'));
    const host = this.config.host === '0.0.0.0' ? '127.0.0.1' : this.config.host === '::' ? '::1' : this.config.host;
    return new Promise<void>((resolve, reject) => {
      this.probesConnecting++;
      const socket = connectTcp({ host, port });
      let localPort: number | undefined;
      let answered = false;
      let connecting = true;
      const connected = () => {
        if (connecting) this.probesConnecting--;
        connecting = false;
      };
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      socket.once('connect', () => {
        connected();
        localPort = socket.localPort;
        if (localPort !== undefined) this.probePorts.add(localPort);
        this.probeClosesPending++;
        socket.end();
      });
      socket.once('end', () => {
        answered = true;
      });
      socket.once('error', (err) => {
        connected();
        if (localPort !== undefined) this.probePorts.delete(localPort);
        reject(err);
      });
      socket.once('close', () => {
        connected();
        if (localPort !== undefined) this.probePorts.delete(localPort);
        if (answered) resolve();
        else reject(new Error('the acceptor did not close the probe connection'));
      });
    });
  }

  list(): SessionStatus[] {
    return this.acceptor?.list() ?? [];
  }

  private trafficOf(compId: string): LastTraffic {
    let t = this.traffic.get(compId);
    if (!t) {
      t = {};
      this.traffic.set(compId, t);
    }
    return t;
  }

  private requireAcceptor(): Acceptor {
    if (!this.acceptor) throw new Error('the FIX acceptor is not running');
    return this.acceptor;
  }

  /** Whether this node holds the lease of a session (so the session, if logged on, is here). */
  holdsSessionLease(name: string): boolean {
    return this.leases.holds(name);
  }

  /** The session id of a connector's FIX session, from our side. */
  sessionIdOf(c: Pick<ConnectorRow, 'comp_id' | 'target_comp_id'>): SessionID {
    return { beginString: 'FIX.4.4', senderCompID: c.target_comp_id, targetCompID: c.comp_id };
  }

  /** A client's FIX session for the console: state, address, heartbeat, next numbers, last message each way. */
  async consoleState(c: ConnectorRow): Promise<SessionConsoleState> {
    const id = this.sessionIdOf(c);
    const status = await this.requireAcceptor().statusOf(id);
    const t = this.traffic.get(c.comp_id);
    let lastIn = lastMessage(t?.inRaw, t?.inAt);
    let lastOut = lastMessage(t?.outRaw, t?.outAt);
    if (!lastIn || !lastOut) {
      // Nothing seen since this process started: what the store last kept.
      for (const m of await lastSessionMessages(this.db, id.senderCompID, id.targetCompID)) {
        const entry = { msgType: m.msg_type, msgSeqNum: m.msg_seq_num, at: m.created_at.toISOString() };
        if (m.direction === 'RX') lastIn ??= entry;
        else lastOut ??= entry;
      }
    }
    return {
      compId: c.comp_id,
      ourCompId: id.senderCompID,
      state: status.state,
      connected: status.connected,
      loggedOn: status.loggedOn,
      remoteAddress: status.connected ? (status.remoteAddress ?? null) : null,
      transport: status.connected ? (t?.tls ? 'TLS' : 'TCP') : null,
      heartBtInt: status.connected ? status.heartBtIntSec : c.heartbeatint,
      nextSenderMsgSeqNum: status.nextSenderMsgSeqNum,
      nextTargetMsgSeqNum: status.nextTargetMsgSeqNum,
      lastIn,
      lastOut,
    };
  }

  /**
   * Takes (or keeps) the lease of a client's session for this node; answers why not when another
   * live node holds it. The lease is kept while the session is connected here (renewed by the keeper)
   * and goes at its logout; a lease this node lost to a takeover disconnects the session at once.
   */
  private async claimSession(id: SessionID): Promise<string | undefined> {
    const name = fixSessionLeaseName(id);
    // Logged out for its move and not yet released: the client's next logon belongs on the target.
    const moving = this.movingTo.get(id.targetCompID);
    if (moving && moving.until > Date.now()) return `Session moving to node ${moving.target}`;
    this.movingTo.delete(id.targetCompID);
    const use = {
      stillNeeded: () => this.acceptor?.list().some((s) => s.sessionID.targetCompID === id.targetCompID && s.connected) ?? false,
      onLost: () => void this.acceptor?.disconnect(id, 'session lease taken over by another node').catch(() => {}),
    };
    let r = await this.leases.acquire(name, use);
    if (r.acquired) return undefined;
    // Kept for the node the session is moving to (not held by another live node): refused at once.
    const moved = (held: LeaseRow) =>
      held.reservedFor && held.reservedUntil && (!held.live || held.owner === this.config.nodeId) ? `Session moving to node ${held.reservedFor} (kept for it until ${held.reservedUntil.toISOString()})` : undefined;
    const movedTo = moved(r.heldBy);
    if (movedTo) return movedTo;
    // The owner's lease runs out within one TTL. A node that died keeps its sessions until then, and
    // a client that came here early would otherwise try again only after its reconnect interval, or
    // its other addresses first (the dead node's among them): seconds added to every takeover. So the
    // Logon waits for that expiry and asks once more; a live owner has renewed meanwhile and the Logon
    // is refused as before. The database's clock decides; this node's only times the wait.
    const wait = r.heldBy.expiresAt.getTime() - Date.now();
    if (wait <= this.leases.ttlMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait) + LEASE_EXPIRY_MARGIN_MS));
      r = await this.leases.acquire(name, use);
      if (r.acquired) return undefined;
    }
    const { owner, term, expiresAt } = r.heldBy;
    return moved(r.heldBy) ?? `Session owned by node ${owner} (lease term ${term} until ${expiresAt.toISOString()})`;
  }

  /** The sessions logged on here, and whether each may be handed over to another node now (quiet, nothing in flight). */
  served(): Array<{ id: SessionID; ready: boolean }> {
    const now = Date.now();
    return [...this.live].flatMap(([compId, l]) => {
      const id = this.sessions.idOf(compId);
      return id ? [{ id, ready: this.quiet(l, now) }] : [];
    });
  }

  /** Nothing in flight and no application message for a while: a session that may be handed over. */
  private quiet(l: LiveSession, now: number): boolean {
    return l.inFlight === 0 && now - l.lastAppAt >= HANDOVER_IDLE_MS;
  }

  /**
   * Logs the client out, telling it its session moves to another node (docs/adr/0012, Rebalancing),
   * if it is still logged on here and quiet at this moment (the rebalancer's look was a few database
   * reads ago); answers whether the Logout went out. Until `until` (the lease's reservation) this node
   * refuses the client's next logon, which belongs on the target.
   */
  async handOver(id: SessionID, target: string, until: number): Promise<boolean> {
    const l = this.live.get(id.targetCompID);
    if (!l || !this.quiet(l, Date.now())) return false;
    this.movingTo.set(id.targetCompID, { target, until });
    try {
      await this.requireAcceptor().logout(id, `Session moving to node ${target} of the desk: please log on again`);
      return true;
    } catch (err) {
      this.movingTo.delete(id.targetCompID);
      throw err;
    }
  }

  /**
   * Runs an operator's change to a session's numbers under its lease: the one this node holds (the
   * client is logged on here), or one taken for the change and given back after. Refused while
   * another live node owns the session: the change belongs on that node.
   */
  private async underSessionLease<T>(c: ConnectorRow, fn: () => Promise<T>): Promise<T> {
    const id = this.sessionIdOf(c);
    const name = fixSessionLeaseName(id);
    if (this.leases.holds(name)) return fn();
    const r = await this.leases.acquire(name);
    if (!r.acquired) throw new Error(`the session of ${c.comp_id} is owned by node ${r.heldBy.owner}: make the change there`);
    try {
      return await fn();
    } finally {
      // Unless the client logged on meanwhile (its logon then holds the same lease).
      if (!this.live.has(c.comp_id)) await this.leases.release(name, r.lease.term);
    }
  }

  /** Operator: Logout with a reason (its Text), closing once the client answers. */
  async operatorLogout(c: ConnectorRow, reason: string): Promise<void> {
    await this.requireAcceptor().logout(this.sessionIdOf(c), reason);
  }

  /** Operator: drop the connection at once. */
  async operatorDisconnect(c: ConnectorRow, reason: string): Promise<void> {
    await this.requireAcceptor().disconnect(this.sessionIdOf(c), reason);
  }

  async resetSequence(c: ConnectorRow): Promise<void> {
    await this.underSessionLease(c, () => this.requireAcceptor().resetSequence(this.sessionIdOf(c)));
  }

  async setNextSenderMsgSeqNum(c: ConnectorRow, next: number): Promise<void> {
    await this.underSessionLease(c, () => this.requireAcceptor().setNextSenderMsgSeqNum(this.sessionIdOf(c), next));
  }

  async setNextTargetMsgSeqNum(c: ConnectorRow, next: number): Promise<void> {
    await this.underSessionLease(c, () => this.requireAcceptor().setNextTargetMsgSeqNum(this.sessionIdOf(c), next));
  }

  /** The counters of the sessions logged on to this node so far, by their client_sessions row (written at logout). */
  liveSessionCounts(): Map<number, { sent: number; received: number; orders: number }> {
    return new Map([...this.live.values()].map((l) => [l.rowId, { sent: l.sent, received: l.received, orders: l.orders }]));
  }

  /** When the logged-on client's last message arrived (ms since the epoch); undefined when it is not logged on. */
  lastReceivedAt(compId: string): number | undefined {
    return this.live.get(compId)?.lastReceivedAt;
  }

  private async onLogon(id: SessionID): Promise<void> {
    const compId = id.targetCompID;
    const session = this.acceptor?.session(id);
    if (session) this.sessions.open(compId, id, session);
    this.orders.clientLoggedOn(compId);
    const status = this.acceptor?.list().find((s) => s.sessionID.targetCompID === compId);
    const rowId = await openClientSession(this.db, id, compId, status?.remoteAddress ?? null, this.config.nodeId);
    this.live.set(compId, { rowId, sent: 0, received: 0, orders: 0, lastReceivedAt: Date.now(), inFlight: 0, lastAppAt: Date.now() });
    this.stats.connectionChanged(compId);
    this.log.info({ compId, remote: status?.remoteAddress }, 'client logged on');
    this.hub.broadcast({ type: 'client_connection_status', comp_id: compId, is_connected: true, timestamp: new Date().toISOString() });
    this.events.emit('fix-session-changed', compId);
    // Reports committed while the client was away go out now, in order.
    const pending = await this.outbox.recover(compId);
    if (pending) this.log.info({ compId, pending }, 'sending reports queued while the client was offline');
  }

  private async onLogout(id: SessionID, reason: string): Promise<void> {
    const compId = id.targetCompID;
    this.sessions.close(compId);
    this.orders.clientLoggedOff(compId);
    const l = this.live.get(compId);
    this.live.delete(compId);
    this.stats.connectionChanged(compId);
    await closeClientSession(
      this.db,
      id,
      l && { id: l.rowId, disconnectReason: CLEAN_LOGOUT.test(reason) ? null : reason.slice(0, 500), sent: l.sent, received: l.received, orders: l.orders },
      this.config.nodeId,
    );
    // The session may now log on at any node (only at its target after a handover: the lease is
    // reserved for it). Its late writes still land unless one has taken it over.
    await this.leases.release(fixSessionLeaseName(id));
    this.movingTo.delete(compId);
    this.log.info({ compId, reason }, 'client logged out');
    this.hub.broadcast({ type: 'client_connection_status', comp_id: compId, is_connected: false, timestamp: new Date().toISOString(), reason });
    this.events.emit('fix-session-changed', compId);
  }

  private async fromApp(m: FixMessage, id: SessionID): Promise<AppReceipt | undefined> {
    const l = this.live.get(id.targetCompID);
    if (l) l.inFlight++;
    try {
      return await this.handleApp(m, id);
    } finally {
      if (l) {
        l.inFlight--;
        l.lastAppAt = Date.now();
      }
    }
  }

  private async handleApp(m: FixMessage, id: SessionID): Promise<AppReceipt | undefined> {
    const compId = id.targetCompID;
    switch (m.msgType) {
      case MsgType.NewOrderSingle:
      case MsgType.NewOrderMultileg: {
        const l = this.live.get(compId);
        if (l) l.orders++;
        const t0 = performance.now();
        const result = await this.orders.receiveNewOrder(readNewOrder(m, id));
        this.observeIntake?.((performance.now() - t0) / 1000);
        // The audit record of the client's order message names the order it created.
        return result.brokerOrderId ? { brokerOrderID: result.brokerOrderId } : undefined;
      }
      case MsgType.OrderCancelRequest:
      case MsgType.OrderCancelReplaceRequest:
        await this.orders.receiveCancelOrReplace({
          kind: m.msgType,
          senderCompId: compId,
          clOrdId: text(m, Tag.ClOrdID) ?? '',
          origClOrdId: text(m, Tag.OrigClOrdID) ?? '',
          orderId: text(m, Tag.OrderID),
          orderQty: text(m, Tag.OrderQty),
          price: text(m, Tag.Price),
          ordType: text(m, Tag.OrdType),
          text: text(m, Tag.Text),
        });
        return undefined;
      case MsgType.OrderStatusRequest:
        await this.orders.receiveStatusRequest(compId, text(m, Tag.ClOrdID) ?? '', text(m, Tag.OrderID), text(m, Tag.Side), text(m, Tag.Symbol));
        return undefined;
      default:
        // BusinessRejectReason 3: Unsupported Message Type.
        throw new BusinessRejectError('3', 'Unsupported Message Type');
    }
  }

  private async onConnectorChanged(compId: string): Promise<void> {
    const id = this.sessions.idOf(compId);
    if (!id || !this.acceptor) return;
    const c = await getConnector(this.db, compId);
    if (!c || !c.is_active) {
      this.log.info({ compId }, 'client connector deactivated or deleted: logging the session out');
      await this.acceptor.logout(id, c ? 'Client connector deactivated' : 'Client connector deleted').catch((err) => this.log.warn({ err }, 'logout failed'));
    }
  }

  async stop(): Promise<void> {
    await this.acceptor?.stop();
    this.acceptor = undefined;
  }
}
