import {
  closeClientSession,
  closeSessionsOfStoppedProcess,
  getConnector,
  openClientSession,
  PgMessageStoreFactory,
  fixSessionLeaseName,
  type Db,
} from '@fixdesk/db';
import { DROP_COPY_REJECT_TEXT } from '@fixdesk/domain';
import { Acceptor, BusinessRejectError, createSessionCodec, type Application, type SessionID, type SessionStatus } from '@fixdesk/fix';
import type { FastifyBaseLogger } from 'fastify';
import type { LeaseKeeper } from '../cluster/lease-keeper';
import type { Config } from '../config';
import type { ServerEventBus } from '../events';
import type { DropCopyOutbox } from '../orders/drop-copy-outbox';
import type { OrderService } from '../orders/order-service';
import type { ClientOutbox } from '../orders/outbox';
import { ensureServerCertificate } from '../pki/desk-pki';
import type { SessionStats } from '../status/session-stats';
import type { WsHub } from '../ws/hub';
import { AcceptorProbe } from './acceptor-probe';
import type { ClientSessions } from './client-sessions';
import { logonAuthenticator } from './logon-checks';
import { handleOrderMessage } from './order-messages';
import { SessionActivity } from './session-activity';
import { SessionOperations } from './session-operations';
import { SessionOwnership } from './session-ownership';

/** The answer to any application message from a drop copy session: it is not authorized to trade. */
// BusinessRejectReason 6: Not authorized (the message type is one the desk takes, not from this session).
// The text is the one the drop copy session's FIX specification quotes.
const DROP_COPY_REJECT = new BusinessRejectError('6', DROP_COPY_REJECT_TEXT);

/** The clean ends of a session: the Completed status on the Client Sessions screen, not Disconnected. */
const CLEAN_LOGOUT = /^peer logged out|^logout/i;

/**
 * The FIX side of the server: our acceptor for client sessions, put together from its parts. Logons
 * are checked by logon-checks.ts (connector, TLS, this node's lease through session-ownership.ts);
 * application messages go to the order core through order-messages.ts (a message counts as processed
 * only once the order core has committed); each logged-on client's session opens in ClientSessions,
 * through which the order core and the outbox reach it. session-activity.ts keeps what the node saw of
 * each session, session-operations.ts is the operator's console, acceptor-probe.ts the health check.
 */
export class FixGateway {
  private acceptor: Acceptor | undefined;
  /** Counters, traffic and what each logged-on client is doing. */
  readonly activity: SessionActivity;
  /** Which sessions this node serves, by lease (claims, handovers). */
  readonly ownership: SessionOwnership;
  /** The operator's console actions on this node's sessions. */
  readonly operations: SessionOperations;
  private readonly probes = new AcceptorProbe();
  /** The drop copy sessions among the logons this node accepted (docs/adr/0017): they may not trade. */
  private readonly dropCopies = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly orders: OrderService,
    private readonly outbox: ClientOutbox,
    /** The drop copy sessions' copies (docs/adr/0017): sent from a drop copy session's logon on. */
    private readonly copies: DropCopyOutbox,
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
  ) {
    this.activity = new SessionActivity(stats);
    this.ownership = new SessionOwnership(leases, config.nodeId, () => this.acceptor, this.activity, sessions);
    this.operations = new SessionOperations(db, () => this.requireAcceptor(), this.activity, this.ownership);
  }

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
    const authenticator = logonAuthenticator({
      db: this.db,
      nodeId: this.config.nodeId,
      leases: this.leases,
      stats: this.stats,
      log: this.log,
      claimSession: (id) => this.ownership.claim(id),
      onTransport: (compId, tls) => this.activity.transport(compId, tls),
      onSessionType: (compId, dropCopy) => (dropCopy ? this.dropCopies.add(compId) : this.dropCopies.delete(compId)),
    });
    const app: Application = {
      onLogon: (id) => this.onLogon(id),
      onLogout: (id, reason) => this.onLogout(id, reason),
      // Before a drop copy session's Logon is answered: what waits now was missed (PossResend), what comes after is live.
      fromAdmin: (m, id) =>
        m.msgType === 'A' && this.dropCopies.has(id.targetCompID) ? this.copies.markLogon(id.targetCompID) : undefined,
      fromApp: (m, id) => {
        // A drop copy session receives copies; nothing it sends reaches the order core.
        if (this.dropCopies.has(id.targetCompID)) throw DROP_COPY_REJECT;
        return this.activity.handlingApp(id.targetCompID, m.msgType, () => handleOrderMessage(m, id, this.orders, this.observeIntake));
      },
    };
    let tlsListener: Parameters<typeof Acceptor.start>[0]['tlsListener'];
    if (this.config.fixTlsPort !== undefined) {
      // The desk CA (created on first use) signs the server certificate; clients of TLS-enabled
      // connectors must present the certificate issued to them, verified against the same CA. Others
      // may use the TLS port without one.
      const { server, ca } = await ensureServerCertificate(this.db, this.config.fixTlsNames);
      tlsListener = {
        port: this.config.fixTlsPort,
        tls: { cert: server.cert_pem, key: server.key_pem, ca: ca.cert_pem, requireClientCert: false },
      };
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
      logFactory: { create: (id) => this.activity.sessionLog(id, this.log, (event) => this.probes.isProbeEvent(event)) },
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

  /** The acceptor's heartbeat (service status): rejects when it is not listening, refuses or does not answer in `timeoutMs`. */
  probe(timeoutMs = 5_000): Promise<void> {
    const port = this.port;
    if (!port) return Promise.reject(new Error('not listening'));
    const host = this.config.host === '0.0.0.0' ? '127.0.0.1' : this.config.host === '::' ? '::1' : this.config.host;
    return this.probes.probe(host, port, timeoutMs);
  }

  list(): SessionStatus[] {
    return this.acceptor?.list() ?? [];
  }

  private requireAcceptor(): Acceptor {
    if (!this.acceptor) throw new Error('the FIX acceptor is not running');
    return this.acceptor;
  }

  private async onLogon(id: SessionID): Promise<void> {
    const compId = id.targetCompID;
    const session = this.acceptor?.session(id);
    if (session) this.sessions.open(compId, id, session);
    this.orders.clientLoggedOn(compId);
    const status = this.acceptor?.list().find((s) => s.sessionID.targetCompID === compId);
    const rowId = await openClientSession(this.db, id, compId, status?.remoteAddress ?? null, this.config.nodeId);
    this.activity.loggedOn(compId, rowId);
    this.stats.connectionChanged(compId);
    this.log.info({ compId, remote: status?.remoteAddress }, 'client logged on');
    this.hub.broadcast({ type: 'client_connection_status', comp_id: compId, is_connected: true, timestamp: new Date().toISOString() });
    this.events.emit('fix-session-changed', compId);
    // Reports committed while the client was away go out now, in order.
    const pending = await this.outbox.recover(compId);
    if (pending) this.log.info({ compId, pending }, 'sending reports queued while the client was offline');
    // A drop copy session gets the copies made while it was away, flagged PossResend.
    if (this.dropCopies.has(compId)) {
      const waiting = await this.copies
        .recover(compId)
        .catch((err: unknown) => void this.log.error({ err, compId }, 'could not read the drop copies waiting; they go at the next logon'));
      if (waiting) this.log.info({ compId }, 'sending drop copies made while the drop copy session was away');
    }
  }

  private async onLogout(id: SessionID, reason: string): Promise<void> {
    const compId = id.targetCompID;
    this.sessions.close(compId);
    this.copies.loggedOff(compId);
    this.orders.clientLoggedOff(compId);
    const l = this.activity.loggedOut(compId);
    this.stats.connectionChanged(compId);
    await closeClientSession(
      this.db,
      id,
      l && {
        id: l.rowId,
        disconnectReason: CLEAN_LOGOUT.test(reason) ? null : reason.slice(0, 500),
        sent: l.sent,
        received: l.received,
        orders: l.orders,
      },
      this.config.nodeId,
    );
    // Its late writes still land unless another node has taken the session over.
    await this.ownership.release(id);
    this.log.info({ compId, reason }, 'client logged out');
    this.hub.broadcast({
      type: 'client_connection_status',
      comp_id: compId,
      is_connected: false,
      timestamp: new Date().toISOString(),
      reason,
    });
    this.events.emit('fix-session-changed', compId);
  }

  private async onConnectorChanged(compId: string): Promise<void> {
    const id = this.sessions.idOf(compId);
    if (!id || !this.acceptor) return;
    const c = await getConnector(this.db, compId);
    if (!c || !c.is_active) {
      this.log.info({ compId }, 'client connector deactivated or deleted: logging the session out');
      await this.acceptor
        .logout(id, c ? 'Client connector deactivated' : 'Client connector deleted')
        .catch((err) => this.log.warn({ err }, 'logout failed'));
    } else if ((c.session_type === 'drop_copy') !== this.dropCopies.has(compId)) {
      // A session is a client's or a drop copy for the whole of a logon: the new type applies from the next.
      this.log.info({ compId, sessionType: c.session_type }, 'client connector session type changed: logging the session out');
      await this.acceptor.logout(id, 'Session type changed: please log on again').catch((err) => this.log.warn({ err }, 'logout failed'));
    }
  }

  async stop(): Promise<void> {
    await this.acceptor?.stop();
    this.acceptor = undefined;
  }
}
