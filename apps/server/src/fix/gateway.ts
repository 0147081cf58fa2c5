import { closeClientSession, closeSessionsOfStoppedProcess, getConnector, openClientSession, PgMessageStoreFactory, recordRefusedLogon, type ConnectorRow, type Db } from '@fixdesk/db';
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
} from '@fixdesk/fix';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { ServerEventBus } from '../events';
import type { IncomingNewOrder } from '../orders/intake';
import type { OrderService } from '../orders/order-service';
import type { ClientOutbox } from '../orders/outbox';
import type { WsHub } from '../ws/hub';
import type { ClientSessions } from './client-sessions';

/** The clean ends of a session: the Completed status on the Client Sessions screen, not Disconnected. */
const CLEAN_LOGOUT = /^peer logged out|^logout/i;

interface LiveSession {
  rowId: number;
  sent: number;
  received: number;
  orders: number;
  /** When the client's last message arrived (ms since the epoch): the session's heartbeat. */
  lastReceivedAt: number;
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

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly orders: OrderService,
    private readonly outbox: ClientOutbox,
    private readonly sessions: ClientSessions,
    private readonly hub: WsHub,
    private readonly events: ServerEventBus,
    private readonly log: FastifyBaseLogger,
  ) {}

  get port(): number {
    return this.acceptor?.port ?? 0;
  }

  async start(): Promise<void> {
    // Sessions this database believed connected belonged to a process that is gone.
    await closeSessionsOfStoppedProcess(this.db);
    const counterparties = new CounterpartyAuthenticator(async (id) => {
      const c = await getConnector(this.db, id.targetCompID);
      if (!c || c.target_comp_id !== id.senderCompID) return undefined;
      return counterpartyFor(c);
    });
    // A configured client's refused logon goes into its session history with the reason, whether or
    // not the client was told (an unauthenticated one is told nothing); a stranger's only to the log.
    const authenticator: Authenticator = {
      authenticate: async (request) => {
        const decision = await counterparties.authenticate(request);
        if (!decision.accept) {
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
    this.acceptor = await Acceptor.start({
      port: this.config.fixPort,
      host: this.config.host,
      authenticator,
      app,
      storeFactory: new PgMessageStoreFactory(this.db),
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
    this.log.info({ port: this.acceptor.port }, 'FIX acceptor listening');
  }

  private sessionLog(id: SessionID | null): SessionLog {
    const log = this.log.child({ fix: id ? `${id.senderCompID}->${id.targetCompID}` : 'acceptor' });
    const compId = id?.targetCompID;
    return {
      onIncoming: () => {
        const l = compId ? this.live.get(compId) : undefined;
        if (l) {
          l.received++;
          l.lastReceivedAt = Date.now();
        }
      },
      onOutgoing: () => {
        const l = compId ? this.live.get(compId) : undefined;
        if (l) l.sent++;
      },
      onEvent: (text) => log.info(text),
    };
  }

  list(): SessionStatus[] {
    return this.acceptor?.list() ?? [];
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
    this.live.set(compId, { rowId, sent: 0, received: 0, orders: 0, lastReceivedAt: Date.now() });
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
    const l = this.live.get(compId);
    this.live.delete(compId);
    await closeClientSession(
      this.db,
      id,
      l && { id: l.rowId, disconnectReason: CLEAN_LOGOUT.test(reason) ? null : reason.slice(0, 500), sent: l.sent, received: l.received, orders: l.orders },
    );
    this.log.info({ compId, reason }, 'client logged out');
    this.hub.broadcast({ type: 'client_connection_status', comp_id: compId, is_connected: false, timestamp: new Date().toISOString(), reason });
    this.events.emit('fix-session-changed', compId);
  }

  private async fromApp(m: FixMessage, id: SessionID): Promise<AppReceipt | undefined> {
    const compId = id.targetCompID;
    switch (m.msgType) {
      case MsgType.NewOrderSingle:
      case MsgType.NewOrderMultileg: {
        const l = this.live.get(compId);
        if (l) l.orders++;
        const result = await this.orders.receiveNewOrder(readNewOrder(m, id));
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
