import {
  clordidUsedOnDay,
  decideOrderRequest,
  findOrderByClOrdId,
  findSecurity,
  insertCancelReject,
  insertExecReport,
  insertOrderAction,
  insertOrderRequest,
  insertTrade,
  lockOrder,
  nextExecIds,
  orderFillTotals,
  pendingOrderRequest,
  updateLeg,
  updateOrder,
  type Db,
  type ExistingOrderFacts,
  type IntakeOutcome,
  type ExecReportRow,
  type NewOrderRecord,
  type OrderLegRow,
  type OrderRequestRow,
  type OrderRow,
  type Queryable,
} from '@fixdesk/db';
import {
  applyEvent,
  AVG_PX_SCALE,
  checkFillPrice,
  checkFillPriceTick,
  type DecimalInput,
  checkLegFillPrice,
  checkLegFillQuantity,
  completedStrategyUnits,
  CxlRejResponseTo,
  Decimal,
  impliedStrategyPrice,
  limitViolation,
  maturityLabel,
  IntakeText,
  OrdRejReason,
  checkNewOrderMultilegPermissions,
  checkNewOrderSinglePermissions,
  validateNewOrderMultileg,
  validateNewOrderSingle,
  workingStatus,
  isAwaitingAcceptance,
  type ClientCapability,
  type OrderEvent,
  type OrderState,
  type OrdStatusCode,
  type SecurityInfo,
} from '@fixdesk/domain';
import type { ActionType, SessionUser } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http/errors';
import type { ClientOutbox } from './outbox';
import type { ClientProfile } from './client-profile';
import { buildExecutionReport, buildRefusalReport, buildUnknownOrderStatus, type BuiltMessage } from './fix-messages';
import { IntakeBatcher, type CoCommittedSend, type ReserveReply } from './intake-batcher';
import type { OrderPublisher } from './publisher';

/** A new order as read from a NewOrderSingle (D) or NewOrderMultileg (AB). Values are raw wire text. */
export interface IncomingNewOrder {
  msgType: 'D' | 'AB';
  senderCompId: string;
  targetCompId: string;
  clOrdId: string | undefined;
  side: string | undefined;
  ordType: string | undefined;
  orderQty: string | undefined;
  price: string | undefined;
  symbol: string | undefined;
  securityType: string | undefined;
  maturityMonthYear: string | undefined;
  timeInForce: string | undefined;
  exDestination: string | undefined;
  currency: string | undefined;
  account: string | undefined;
  text: string | undefined;
  transactTime: Date | undefined;
  legs: { symbol?: string; side?: string; ratio?: string; maturityMonthYear?: string; securityType?: string }[];
  parties: { partyId: string; partyIdSource: string | null; partyRole: number; legIndex: number | null }[];
  /** PossDupFlag or PossResend was set: the client may have sent this order before. */
  possibleDuplicate?: boolean;
}

export interface IncomingCancel {
  kind: 'F' | 'G';
  senderCompId: string;
  clOrdId: string;
  origClOrdId: string;
  orderId: string | undefined;
  orderQty: string | undefined;
  price: string | undefined;
  ordType: string | undefined;
  text: string | undefined;
}

interface ConnectorInfo {
  id: number;
  compId: string;
  clientName: string | null;
  clientPhone: string | null;
  companyName: string | null;
  executionIdPrefix: string;
  isActive: boolean;
  tradingEnabled: boolean;
  timezone: string;
  maxOrdersPerSecond: number;
}

/** An application message for a client, before its session header. */
export interface OutgoingReply {
  msgType: string;
  body: Array<[number, string]>;
}

/**
 * Reserves replies on clients' live sessions (the FIX gateway): see Session.reserveSend. The reply
 * is then persisted in the caller's commit and written once the reservation is settled.
 */
export interface ReplyReserver {
  /** Whether the client is logged on to this node (a cheap check before opening a transaction). */
  isLive(compId: string): boolean;
  reserve(compId: string, msg: OutgoingReply): { beginString: string; reservation: CoCommittedSend['reservation'] } | undefined;
}

/** What the intake made of a new order. */
export interface IntakeResult {
  accepted: boolean;
  brokerOrderId?: string;
  text?: string;
  /** A possible resend of an order already held: nothing stored, nothing sent. */
  alreadyReceived?: boolean;
}

const SETTLED: Promise<void> = Promise.resolve();

/** An order handed to the intake batch: resolves once its batch committed and its reply is on its way. */
type Admission = { committed: Promise<IntakeResult> };

/** Who acts when nobody does: end-of-day expiry. Not a user row (user_ref stays empty). */
export const SYSTEM_USER: SessionUser = { user_id: 0, username: 'SYSTEM', role: 'admin', first_name: null, last_name: null, email: null };
const noop = () => {};

/** Whether a possible resend carries the same order as the one stored under its ClOrdID. */
function sameOrder(r: NewOrderRecord, x: ExistingOrderFacts): boolean {
  const eq = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Decimal.from(a).eq(Decimal.from(b)));
  return r.side === x.side && r.ordType === x.ordtype && r.symbol.toUpperCase() === x.symbol.toUpperCase() && eq(r.orderQty, x.orderqty) && eq(r.price, x.price);
}

/** What a broker action answers over HTTP. */
export interface ActionOutcome {
  order: OrderRow;
  fullyFilled: boolean;
  message: string;
}

function loadCapabilities(q: Queryable, connectorId: number): Promise<ClientCapability[]> {
  return q
    .query<{ symbol: string | null; exchange: string | null; is_enabled: boolean; can_buy: boolean; can_sell: boolean; min_order_qty: string | null; max_order_qty: string | null }>(
      `SELECT s.symbol, cap.exchange, cap.is_enabled, cap.can_buy, cap.can_sell, cap.min_order_qty, cap.max_order_qty
         FROM client_capabilities cap LEFT JOIN security_master s ON s.id = cap.security_master_id
        WHERE cap.clientconnectors_id = $1`,
      [connectorId],
    )
    .then(({ rows }) =>
      rows.map((r) => ({ securitySymbol: r.symbol, exchange: r.exchange, isEnabled: r.is_enabled, canBuy: r.can_buy, canSell: r.can_sell, minOrderQty: r.min_order_qty, maxOrderQty: r.max_order_qty })),
    );
}

/** The client's trading day in its connector's time zone: ClOrdIDs are unique per day. */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();
/** The last answer per time zone, by minute (a day starts on a minute in every zone). */
const lastDay = new Map<string, { minute: number; day: string }>();
export function tradingDay(now: Date, timeZone: string): string {
  const minute = Math.floor(now.getTime() / 60_000);
  const hit = lastDay.get(timeZone);
  if (hit && hit.minute === minute) return hit.day;
  const day = formatDay(now, timeZone);
  lastDay.set(timeZone, { minute, day });
  return day;
}

function formatDay(now: Date, timeZone: string): string {
  let f = dayFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, f);
  }
  return f.format(now);
}

/**
 * The order core: FIX orders in, broker actions, execution reports out. Every change runs in one
 * transaction with the order row locked, writes the order action and the execution report, and only
 * after the commit is the report handed to the outbox and the browsers told.
 */
export class OrderService {
  private readonly connectors = new Map<string, Promise<ConnectorInfo | undefined>>();
  private readonly capabilities = new Map<number, Promise<ClientCapability[]>>();
  private readonly rateWindows = new Map<string, { second: number; count: number }>();
  /** Security master rows by upper-case symbol (null: known not to exist); cleared on reference changes. */
  private readonly securities = new Map<string, Promise<SecurityInfo | null>>();
  /** The same two caches once loaded: what an order can be checked against without waiting. */
  private readonly securitiesLoaded = new Map<string, SecurityInfo | null>();
  private readonly capabilitiesLoaded = new Map<number, ClientCapability[]>();

  constructor(
    private readonly db: Db,
    private readonly outbox: ClientOutbox,
    private readonly publish: OrderPublisher,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.batcher = new IntakeBatcher(db, log);
  }

  private readonly batcher: IntakeBatcher;

  /** Reference data changed: drop the caches. */
  invalidate(compId?: string): void {
    if (compId) {
      this.connectors.delete(compId);
      this.connectorRows.delete(compId);
    } else {
      this.connectors.clear();
      this.connectorRows.clear();
    }
    this.capabilities.clear();
    this.securities.clear();
    this.capabilitiesLoaded.clear();
    this.securitiesLoaded.clear();
  }

  private security(symbol: string): Promise<SecurityInfo | null> {
    const key = symbol.toUpperCase();
    let p = this.securities.get(key);
    if (!p) {
      const loading = findSecurity(this.db, key).then((row) => (row ? { symbol: row.symbol, isActive: row.is_active, priceTickSize: row.price_tick_size } : null));
      p = loading;
      loading.then(
        (info) => {
          if (this.securities.get(key) === loading) this.securitiesLoaded.set(key, info);
        },
        () => this.securities.delete(key),
      );
      this.securities.set(key, p);
    }
    return p;
  }

  /** Connectors already loaded; what a transaction may use without a query. */
  private readonly connectorRows = new Map<string, ConnectorInfo>();

  /**
   * The connector inside a transaction. It never waits on a lookup that another caller started on
   * the pool: on PGlite (one connection) that lookup queues behind this very transaction (deadlock).
   */
  private async connectorIn(tx: Queryable, compId: string): Promise<ConnectorInfo | undefined> {
    return this.connectorRows.get(compId) ?? (await this.loadConnector(tx, compId));
  }

  private connector(compId: string): Promise<ConnectorInfo | undefined> {
    let p = this.connectors.get(compId);
    if (!p) {
      p = this.loadConnector(this.db, compId);
      p.catch(() => this.connectors.delete(compId));
      this.connectors.set(compId, p);
    }
    return p;
  }

  private loadConnector(q: Queryable, compId: string): Promise<ConnectorInfo | undefined> {
    {
      const p = q
        .query<{ id: number; comp_id: string; client_name: string | null; client_phone: string | null; company_name: string | null; execution_id_prefix: string; is_active: boolean; trading_enabled: boolean; timezone: string; max_orders_per_second: number }>(
          `SELECT id, comp_id, client_name, client_phone, company_name, execution_id_prefix, is_active, trading_enabled, timezone, max_orders_per_second
             FROM client_connectors WHERE comp_id = $1`,
          [compId],
        )
        .then(({ rows }) => {
          const r = rows[0];
          return r && {
            id: r.id, compId: r.comp_id, clientName: r.client_name, clientPhone: r.client_phone, companyName: r.company_name,
            executionIdPrefix: r.execution_id_prefix, isActive: r.is_active, tradingEnabled: r.trading_enabled, timezone: r.timezone,
            maxOrdersPerSecond: r.max_orders_per_second,
          };
        })
        .then((info) => {
          if (info) this.connectorRows.set(compId, info);
          return info;
        });
      return p;
    }
  }

  /** Inside a transaction: read directly (see connectorIn). */
  private capabilitiesIn(tx: Queryable, connectorId: number): Promise<ClientCapability[]> {
    return loadCapabilities(tx, connectorId);
  }

  private clientCapabilities(connectorId: number): Promise<ClientCapability[]> {
    let p = this.capabilities.get(connectorId);
    if (!p) {
      const loading = loadCapabilities(this.db, connectorId);
      p = loading;
      loading.then(
        (caps) => {
          if (this.capabilities.get(connectorId) === loading) this.capabilitiesLoaded.set(connectorId, caps);
        },
        () => this.capabilities.delete(connectorId),
      );
      this.capabilities.set(connectorId, p);
    }
    return p;
  }

  /** True when the client is over its configured orders per second (checked per node; a session lives on one node). */
  private overRate(c: ConnectorInfo): boolean {
    const second = Math.floor(this.now().getTime() / 1000);
    const w = this.rateWindows.get(c.compId);
    if (!w || w.second !== second) {
      this.rateWindows.set(c.compId, { second, count: 1 });
      return false;
    }
    w.count++;
    return w.count > c.maxOrdersPerSecond;
  }

  // ----------------------------------------------------------------------------------------------
  // FIX intake

  /**
   * Validates a new order with cached reference data and queues it for the next intake batch. Resolves
   * after the batch committed and the Pending New (or the refusal) was handed to the outbox, so the
   * session counts the message as processed only once the order is durable.
   *
   * Orders of one client are validated and queued strictly in the order of the calls, even while
   * earlier ones still wait for their commit (the FIX session hands them on pipelined).
   */
  receiveNewOrder(o: IncomingNewOrder): Promise<IntakeResult> {
    const client = o.senderCompId;
    // Nothing of this client waits for admission and its reference data is loaded: admit it now, with
    // no promise hop (most orders of a busy client).
    if (!this.intakeTails.has(client)) {
      try {
        const now = this.admitFromLoaded(o);
        if (now && !(now instanceof Promise)) return now.committed;
        // Its admission has to wait for something (the rare refusal that must rule out a duplicate
        // first): the client's next orders queue behind it.
        if (now) return this.admissionTail(client, now);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return this.admissionTail(client, (this.intakeTails.get(client) ?? SETTLED).then(() => this.admit(o)));
  }

  /** The client's next orders are admitted after this one. */
  private admissionTail(client: string, admitted: Promise<Admission>): Promise<IntakeResult> {
    const tail = admitted.then(noop, noop);
    this.intakeTails.set(client, tail);
    void tail.then(() => {
      if (this.intakeTails.get(client) === tail) this.intakeTails.delete(client);
    });
    return admitted.then((a) => a.committed);
  }

  /** Per client: the admission of its latest order (validation up to the batcher's queue). */
  private readonly intakeTails = new Map<string, Promise<void>>();

  /** The order's symbols (its own and its legs'), upper case, each once. */
  private static symbolsOf(o: IncomingNewOrder): string[] {
    const out: string[] = [];
    const add = (s: string | undefined) => {
      if (!s) return;
      const key = s.toUpperCase();
      if (!out.includes(key)) out.push(key);
    };
    add(o.symbol);
    for (const l of o.legs) add(l.symbol);
    return out;
  }

  private async admit(o: IncomingNewOrder): Promise<Admission> {
    const connector = await this.connector(o.senderCompId);
    if (!connector || !connector.isActive) {
      return this.refuse(o, connector, this.now(), OrdRejReason.Other, `Client ${o.senderCompId} is not an active client connector`);
    }
    if (!connector.tradingEnabled) return this.refuse(o, connector, this.now(), OrdRejReason.ExchangeClosed, 'Trading is disabled for this client');
    // Reference data for the pure rules.
    const securities = new Map<string, SecurityInfo>();
    for (const s of OrderService.symbolsOf(o)) {
      const info = await this.security(s);
      if (info) securities.set(s, info);
    }
    return this.admitWith(o, connector, securities, await this.clientCapabilities(connector.id));
  }

  /** admit() without waiting, when everything it reads is loaded already; undefined otherwise. */
  private admitFromLoaded(o: IncomingNewOrder): Admission | Promise<Admission> | undefined {
    const connector = this.connectorRows.get(o.senderCompId);
    if (!connector || !connector.isActive || !connector.tradingEnabled) return undefined;
    const capabilities = this.capabilitiesLoaded.get(connector.id);
    if (!capabilities) return undefined;
    const securities = new Map<string, SecurityInfo>();
    for (const s of OrderService.symbolsOf(o)) {
      const info = this.securitiesLoaded.get(s);
      if (info === undefined) return undefined;
      if (info) securities.set(s, info);
    }
    return this.admitWith(o, connector, securities, capabilities);
  }

  /** The checks and the queueing of an order from an active client, with its reference data in hand. */
  private admitWith(
    o: IncomingNewOrder,
    connector: ConnectorInfo,
    securities: ReadonlyMap<string, SecurityInfo>,
    capabilities: ClientCapability[],
  ): Admission | Promise<Admission> {
    const now = this.now();
    const sessionDate = tradingDay(now, connector.timezone);
    const clOrdId = o.clOrdId?.trim() ?? '';
    // The checks of the order: the order's own terms, then (the batch's) duplicate ClOrdID, then
    // the client's capabilities, then its rate.
    const ctx = {
      lookupSecurity: (s: string) => securities.get(s.toUpperCase()),
      capabilities,
      now,
      timeZone: connector.timezone,
    };
    const terms = { ...ctx, capabilities: undefined };
    const single = o.msgType === 'D' ? { clOrdId, side: o.side, ordType: o.ordType, orderQty: o.orderQty, price: o.price, symbol: o.symbol, maturityMonthYear: o.maturityMonthYear, timeInForce: o.timeInForce, exDestination: o.exDestination } : undefined;
    const multileg = single ? undefined : { clOrdId, side: o.side, ordType: o.ordType, orderQty: o.orderQty, price: o.price, symbol: o.symbol, timeInForce: o.timeInForce, exDestination: o.exDestination, legs: o.legs.map((l) => ({ symbol: l.symbol, side: l.side, ratio: l.ratio, maturityMonthYear: l.maturityMonthYear })) };
    const verdict = single ? validateNewOrderSingle(single, terms) : validateNewOrderMultileg(multileg!, terms);
    if (!verdict.ok) return this.refuse(o, connector, now, verdict.ordRejReason, verdict.text);
    const permitted = single ? checkNewOrderSinglePermissions(single, ctx) : checkNewOrderMultilegPermissions(multileg!, ctx);
    const refusal = !permitted.ok
      ? permitted
      : this.overRate(connector)
        ? { ordRejReason: OrdRejReason.Other, text: `Order rate limit of ${connector.maxOrdersPerSecond} orders per second exceeded` }
        : undefined;
    if (refusal) {
      // A duplicate ClOrdID is the answer before the capabilities and the rate. Most of the time the
      // batcher can tell at once (its ClOrdID index and the orders it holds). Otherwise the database is
      // asked: every order of the client the batcher does not hold is committed, and the client's later
      // orders are admitted after this one.
      const duplicate = () => this.duplicateRefusal(o, connector, securities, now, sessionDate, clOrdId);
      const taken = this.batcher.clOrdIdTaken(o.senderCompId, sessionDate, clOrdId);
      if (taken === true) return duplicate();
      if (taken === false) return this.refuse(o, connector, now, refusal.ordRejReason, refusal.text);
      return (async (): Promise<Admission> => {
        let used = false;
        try {
          used = await clordidUsedOnDay(this.db, o.senderCompId, sessionDate, clOrdId);
        } catch (err) {
          // The order is refused either way; without the answer, for its own reason.
          this.log.warn({ err, compId: o.senderCompId, clOrdId }, 'could not check a refused order for a duplicate ClOrdID');
        }
        return used ? duplicate() : this.refuse(o, connector, now, refusal.ordRejReason, refusal.text);
      })();
    }
    return this.submitOrder(o, connector, securities, now, sessionDate, clOrdId);
  }

  /**
   * An order that failed its capabilities or the rate and whose ClOrdID is taken: refused as a duplicate
   * (103=6). A possible resend (PossDupFlag) goes to the batch instead, which ignores a resend of the
   * very order it holds and refuses anything else as a duplicate.
   */
  private duplicateRefusal(o: IncomingNewOrder, connector: ConnectorInfo, securities: ReadonlyMap<string, SecurityInfo>, now: Date, sessionDate: string, clOrdId: string): Admission {
    if (o.possibleDuplicate) return this.submitOrder(o, connector, securities, now, sessionDate, clOrdId);
    return this.refuse(o, connector, now, OrdRejReason.DuplicateOrder, IntakeText.duplicateClOrdId(clOrdId));
  }

  /** A checked order into the intake batch (which refuses a duplicate ClOrdID). */
  private submitOrder(o: IncomingNewOrder, connector: ConnectorInfo, securities: ReadonlyMap<string, SecurityInfo>, now: Date, sessionDate: string, clOrdId: string): Admission {
    const security = o.symbol ? securities.get(o.symbol.toUpperCase()) : undefined;
    const record: NewOrderRecord = {
      clordid: clOrdId,
      clientConnectorId: connector.id,
      sendercompid: o.senderCompId,
      targetcompid: o.targetCompId,
      sessionDate,
      msgType: o.msgType,
      // A multileg order's Symbol is the strategy's name; without one, its legs' symbols joined.
      symbol: security?.symbol ?? o.symbol ?? [...new Set(o.legs.map((l) => l.symbol))].join('/'),
      securityType: o.securityType ?? (o.msgType === 'AB' ? 'MLEG' : 'FUT'),
      maturityMonthYear: o.msgType === 'D' ? (o.maturityMonthYear ?? null) : null,
      side: o.side as '1' | '2',
      ordType: o.ordType as '1' | '2',
      price: o.ordType === '2' ? Decimal.from(o.price!).toString() : null,
      orderQty: Decimal.from(o.orderQty!).toString(),
      timeInForce: o.timeInForce || '0',
      exchange: o.exDestination ?? null,
      currency: o.currency ?? null,
      account: o.account ?? null,
      text: o.text ?? null,
      transactTime: o.transactTime ?? now,
      legs: o.legs.map((l, i) => ({
        legIndex: i,
        symbol: securities.get(l.symbol!.toUpperCase())?.symbol ?? l.symbol!,
        securityType: l.securityType ?? 'FUT',
        maturityMonthYear: l.maturityMonthYear ?? null,
        side: l.side as '1' | '2',
        ratioQty: Decimal.from(l.ratio || '1').toString(),
        price: null,
      })),
      parties: o.parties,
    };

    let result: IntakeResult = { accepted: false };
    const committed = this.batcher.submit(
      { order: record, execIdPrefix: connector.executionIdPrefix, reportTime: now },
      (outcome, replied, ownDuplicate) => {
        result = this.onIntakeCommitted(o, record, connector, now, outcome, replied, ownDuplicate);
      },
      this.replyReserver(o.senderCompId, (outcome) => {
        if (outcome.kind === 'stored') {
          const built = this.outbox.buildNow(o.senderCompId, connector.id, outcome.er, outcome.order, outcome.legs);
          return built && { msg: built };
        }
        if (outcome.kind === 'duplicate' && !this.isKnownResend(o, record, outcome)) {
          const built = this.outbox.shapeNow(o.senderCompId, connector.id, this.refusal(o, outcome.execId, now, OrdRejReason.DuplicateOrder, IntakeText.duplicateClOrdId(record.clordid)));
          return built && { msg: built };
        }
        return null;
      }),
      o.senderCompId,
    );
    return { committed: committed.then(() => result) };
  }

  /** Where replies are reserved on live sessions (the FIX gateway); without it every reply goes through the outbox. */
  private replies: ReplyReserver | undefined;

  attachReplyReserver(replies: ReplyReserver): void {
    this.replies = replies;
  }

  /**
   * The batcher's reserve hook for one intake entry: its reply taken on the client's live session and
   * persisted in the order's own commit, when nothing else for that client waits in the outbox (a
   * reply must never overtake one queued before it). `reply` gives the message for the outcome, null
   * when nothing is to be sent, undefined when it cannot be built now (the outbox then sends it).
   */
  private replyReserver(compId: string, reply: (outcome: IntakeOutcome) => { msg: OutgoingReply } | null | undefined): ReserveReply | undefined {
    const replies = this.replies;
    if (!replies?.isLive(compId)) return undefined;
    return (outcome, scope) => {
      if (scope.queuedClients.has(compId)) return undefined;
      let built: { msg: OutgoingReply } | null | undefined;
      let reserved: ReturnType<ReplyReserver['reserve']>;
      try {
        built = this.outbox.isIdle(compId) ? reply(outcome) : undefined;
        if (built === null) return undefined;
        reserved = built && replies.reserve(compId, built.msg);
      } catch (err) {
        this.log.error({ err, compId }, 'could not build or reserve a reply; it goes through the outbox');
        reserved = undefined;
      }
      if (!reserved || !built) {
        // From here on this client's replies in the batch queue behind this one.
        scope.queuedClients.add(compId);
        return undefined;
      }
      return {
        reservation: reserved.reservation,
        outbound: { beginString: reserved.beginString, record: reserved.reservation.record, storeCreationTime: reserved.reservation.storeCreationTime },
      };
    };
  }

  /** A duplicate ClOrdID that is a possible resend of the very order already held (see onIntakeCommitted). */
  private isKnownResend(o: IncomingNewOrder, record: NewOrderRecord, outcome: Extract<IntakeOutcome, { kind: 'duplicate' }>): boolean {
    return !!o.possibleDuplicate && (outcome.existing === null || sameOrder(record, outcome.existing));
  }

  /** Right after the batch commit, in commit order: the report to the outbox (unless already sent), the order to the browsers. */
  private onIntakeCommitted(o: IncomingNewOrder, record: NewOrderRecord, connector: ConnectorInfo, now: Date, outcome: IntakeOutcome, replied: boolean, ownDuplicate = false): IntakeResult {
    if (outcome.kind === 'stored') {
      const { order, er, legs } = outcome;
      if (!replied) this.outbox.enqueueExecReport(o.senderCompId, connector.id, er, order, legs);
      // Everything the browsers need is in hand: no second read of the order.
      if (this.publish.hasAudience()) this.publish.newOrderFrom({
        orders: [{ ...order, client_name: connector.clientName, client_phone: connector.clientPhone, company_name: connector.companyName }],
        legs,
        parties: record.parties.map((p, i) => ({ order_id: order.id, leg_index: p.legIndex, position: i, party_id: p.partyId, party_id_source: p.partyIdSource, party_role: p.partyRole })),
        requests: [],
        execReports: [],
      }, er);
      return { accepted: true, brokerOrderId: order.brokerorderid };
    }
    // The very order an attempt that seemed to fail stored after all: its reply is in the FIX store
    // (the client gets it by ResendRequest), so nothing is sent; the order is in the book.
    if (outcome.kind === 'duplicate' && ownDuplicate) {
      this.log.warn({ compId: o.senderCompId, clOrdId: record.clordid, brokerOrderId: outcome.existing?.brokerorderid }, 'order stored by a commit reported as failed');
      return { accepted: true, alreadyReceived: true, ...(outcome.existing ? { brokerOrderId: outcome.existing.brokerorderid } : {}) };
    }
    if (outcome.kind === 'duplicate' && this.isKnownResend(o, record, outcome)) {
      // A possible resend (PossDupFlag or PossResend) of an order we already hold, typically after a
      // crash between the order's commit and the persisting of its MsgSeqNum: not a second order,
      // and not a duplicate to refuse. Nothing is sent: its reports are in the FIX store (resendable)
      // or still unsent in the outbox (sent at logon, PossResend).
      this.log.info({ compId: o.senderCompId, clOrdId: record.clordid, brokerOrderId: outcome.existing?.brokerorderid }, 'possible resend of an order already received: ignored');
      return { accepted: true, alreadyReceived: true, ...(outcome.existing ? { brokerOrderId: outcome.existing.brokerorderid } : {}) };
    }
    const text = IntakeText.duplicateClOrdId(record.clordid);
    if (!replied) this.sendRefusal(o, connector, outcome.execId, now, OrdRejReason.DuplicateOrder, text);
    return { accepted: false, text };
  }

  /**
   * A refused order: an ExecutionReport with ExecType 8 / OrdStatus 8, OrdRejReason and Text. Nothing
   * enters the book; the inbound and outbound FIX messages stay in the audit log. It goes through the
   * intake batch for its ExecID and so keeps its place among the client's reports.
   */
  private refuse(o: IncomingNewOrder, connector: ConnectorInfo | undefined, now: Date, reason: string, text: string): { committed: Promise<IntakeResult> } {
    this.log.info({ compId: o.senderCompId, clOrdId: o.clOrdId, reason, text }, 'order rejected at intake');
    const committed = this.batcher.submit(
      { order: null, execIdPrefix: connector?.executionIdPrefix ?? 'REJ', reportTime: now },
      (outcome, replied) => {
        if (outcome.kind === 'refusal' && !replied) this.sendRefusal(o, connector, outcome.execId, now, reason, text);
      },
      this.replyReserver(o.senderCompId, (outcome) => {
        if (outcome.kind !== 'refusal') return null;
        const build = this.refusal(o, outcome.execId, now, reason, text);
        if (!connector) return { msg: build(undefined) };
        const built = this.outbox.shapeNow(o.senderCompId, connector.id, build);
        return built && { msg: built };
      }),
      o.senderCompId,
    );
    return { committed: committed.then((): IntakeResult => ({ accepted: false, text })) };
  }

  private sendRefusal(o: IncomingNewOrder, connector: ConnectorInfo | undefined, execId: string, now: Date, reason: string, text: string): void {
    const build = this.refusal(o, execId, now, reason, text);
    // An unknown client has no profile: the plain report.
    if (connector) this.outbox.enqueueShaped(o.senderCompId, connector.id, build);
    else this.outbox.enqueueDirect(o.senderCompId, build(undefined));
  }

  /** The refusal report for an order, to be shaped by its client's profile. */
  private refusal(o: IncomingNewOrder, execId: string, now: Date, reason: string, text: string): (profile: ClientProfile | undefined) => BuiltMessage {
    return (profile) =>
      buildRefusalReport(
        { clOrdId: o.clOrdId, execId, ordRejReason: reason, text, symbol: o.symbol, side: o.side, orderQty: o.orderQty, ordType: o.ordType, price: o.price, account: o.account, transactTime: now },
        profile,
      );
  }

  /** A client logged on (on this node): its session may have lived on another node since we last saw it. */
  clientLoggedOn(compId: string): void {
    this.batcher.forgetClient(compId);
  }

  /** Resolves once no order is waiting for its commit (tests, shutdown). */
  intakeIdle(): Promise<void> {
    return this.batcher.idle();
  }


  /** OrderCancelRequest (F) and OrderCancelReplaceRequest (G): the order waits for the broker's decision. */
  async receiveCancelOrReplace(r: IncomingCancel): Promise<void> {
    const connector = await this.connector(r.senderCompId);
    const responseTo = r.kind === 'F' ? CxlRejResponseTo.CancelRequest : CxlRejResponseTo.CancelReplaceRequest;
    const result = await this.db.transaction(async (tx) => {
      const order = await findOrderByClOrdId(tx, r.senderCompId, r.origClOrdId, true);
      if (!order || (r.orderId && r.orderId !== order.brokerorderid)) {
        const rej = await insertCancelReject(tx, {
          orderId: order?.id ?? null, sendercompid: r.senderCompId, clordid: r.clOrdId, origclordid: r.origClOrdId, orderid: r.orderId ?? 'NONE',
          ordstatus: order?.ordstatus ?? '8', responseTo, reason: 1, text: `Unknown order: no order with ClOrdID ${r.origClOrdId}`,
        });
        return { kind: 'reject' as const, rej, order, reason: 1, text: `Unknown order: no order with ClOrdID ${r.origClOrdId}`, ordstatus: order?.ordstatus ?? '8' };
      }
      const refuse = async (reason: number, text: string) => {
        const rej = await insertCancelReject(tx, {
          orderId: order.id, sendercompid: r.senderCompId, clordid: r.clOrdId, origclordid: r.origClOrdId, orderid: order.brokerorderid,
          ordstatus: order.ordstatus, responseTo, reason, text,
        });
        return { kind: 'reject' as const, rej, order, reason, text, ordstatus: order.ordstatus };
      };
      // ClOrdIDs are unique per client and day, requests included (CxlRejReason 6: Duplicate ClOrdID).
      if (!r.clOrdId || (await clordidUsedOnDay(tx, r.senderCompId, order.session_date, r.clOrdId))) {
        return refuse(6, r.clOrdId ? `Duplicate ClOrdID ${r.clOrdId}` : 'ClOrdID (11) is required');
      }
      if (r.kind === 'G') {
        const problem = await this.checkReplaceTerms(tx, order, r);
        if (problem) return refuse(2, problem);
      }
      const state = await this.loadState(tx, order);
      const event: OrderEvent = r.kind === 'F' ? { type: 'cancelRequest' } : { type: 'replaceRequest', orderQty: r.orderQty ?? order.orderqty, price: r.price ?? null, ordType: (r.ordType as '1' | '2' | undefined) ?? order.ordtype };
      const applied = applyEvent(state, event);
      if (!applied.ok) {
        const rej = await insertCancelReject(tx, {
          orderId: order.id, sendercompid: r.senderCompId, clordid: r.clOrdId, origclordid: r.origClOrdId, orderid: order.brokerorderid,
          ordstatus: order.ordstatus, responseTo, reason: Number(applied.cxlRejReason ?? '99'), text: applied.reason,
        });
        return { kind: 'reject' as const, rej, order, reason: Number(applied.cxlRejReason ?? '99'), text: applied.reason, ordstatus: order.ordstatus };
      }
      const request = await insertOrderRequest(tx, {
        orderId: order.id, type: r.kind, clordid: r.clOrdId, origclordid: r.origClOrdId,
        newOrderQty: r.kind === 'G' ? (applied.state.pendingReplace?.orderQty.toString() ?? null) : null,
        newPrice: r.kind === 'G' ? (applied.state.pendingReplace?.price?.toString() ?? null) : null,
        newOrdType: r.kind === 'G' ? (applied.state.pendingReplace?.ordType ?? null) : null,
        text: r.text ?? null,
      });
      if (applied.report.msgType !== '8') throw new Error('a cancel or replace request answers with an execution report');
      const { updated, er } = await this.persist(tx, order, applied.state, applied.report, (await this.connectorIn(tx, order.sendercompid))!, { clordid: r.clOrdId, origclordid: r.origClOrdId, keepClOrdId: true });
      const legs = order.msg_type === 'AB' ? await this.legs(order.id, tx) : [];
      return { kind: 'pending' as const, order: updated, er, request, legs };
    });
    if (result.kind === 'reject') {
      this.outbox.enqueueCancelReject(r.senderCompId, connector?.id ?? 0, result.rej.id, {
        orderid: result.order?.brokerorderid ?? r.orderId ?? 'NONE', clordid: r.clOrdId, origclordid: r.origClOrdId,
        ordstatus: result.ordstatus, responseTo, reason: result.reason, text: result.text, transacttime: result.rej.transacttime,
      });
      return;
    }
    this.outbox.enqueueExecReport(r.senderCompId, result.order.client_connector_id, result.er, result.order, result.legs);
    this.publish.orderChanged(result.order.id, result.er, null);
    // The request's ClOrdID is used today: a new order may not take it (the client's next messages are
    // handed on only after this one's processing).
    if (connector) this.batcher.noteUsedClOrdId(r.senderCompId, tradingDay(this.now(), connector.timezone), r.clOrdId);
  }

  /**
   * The amended terms of a cancel/replace request get the intake rules a new order would: order type,
   * price (positive for an outright limit), whole positive quantity, tick size and the client's
   * capability for size and side. Null when they pass.
   */
  private async checkReplaceTerms(tx: Queryable, order: OrderRow, r: IncomingCancel): Promise<string | null> {
    const connector = await this.connectorIn(tx, order.sendercompid);
    if (!connector) return 'Unknown client';
    const symbols = order.msg_type === 'AB' ? (await this.legs(order.id, tx)).map((l) => l.leg_symbol) : [order.symbol];
    const securities = new Map<string, SecurityInfo>();
    for (const sym of new Set(symbols.map((x) => x.toUpperCase()))) {
      const row = await findSecurity(tx, sym);
      if (row) securities.set(sym, { symbol: row.symbol, isActive: row.is_active, priceTickSize: row.price_tick_size });
    }
    const ctx = {
      lookupSecurity: (sym: string) => securities.get(sym.toUpperCase()),
      capabilities: await this.capabilitiesIn(tx, connector.id),
      isDuplicateClOrdId: () => false,
    };
    const terms = { clOrdId: r.clOrdId, side: order.side, ordType: r.ordType ?? order.ordtype, orderQty: r.orderQty ?? order.orderqty, price: r.price ?? order.price ?? undefined, timeInForce: order.timeinforce, exDestination: order.exchange };
    const verdict =
      order.msg_type === 'AB'
        ? validateNewOrderMultileg({ ...terms, symbol: order.symbol, legs: (await this.legs(order.id, tx)).map((l) => ({ symbol: l.leg_symbol, side: l.leg_side, ratio: l.leg_ratio_qty, maturityMonthYear: l.leg_maturity_month_year })) }, ctx)
        : validateNewOrderSingle({ ...terms, symbol: order.symbol, maturityMonthYear: order.maturity_month_year }, ctx);
    return verdict.ok ? null : verdict.text;
  }

  /** OrderStatusRequest (H): an ExecutionReport with ExecType I for the order's current state. */
  async receiveStatusRequest(compId: string, clOrdId: string, orderId: string | undefined, side?: string, symbol?: string): Promise<void> {
    const order = await findOrderByClOrdId(this.db, compId, clOrdId);
    const connector = await this.connector(compId);
    const [execId] = await nextExecIds(this.db, connector?.executionIdPrefix ?? 'REJ', 1);
    const now = this.now();
    if (!order || (orderId && orderId !== order.brokerorderid)) {
      const build = (profile: ClientProfile | undefined) => buildUnknownOrderStatus({ clOrdId, orderId, execId: execId!, side, symbol, transactTime: now }, profile);
      // Behind whatever the outbox holds for the client: a status never overtakes the reports it describes.
      if (connector) this.outbox.enqueueShaped(compId, connector.id, build);
      else this.outbox.enqueueDirect(compId, build(undefined));
      return;
    }
    const legs = await this.legs(order.id);
    const er = {
      id: 0, order_id: order.id, execid: execId!, clordid: order.clordid, origclordid: order.origclordid, orderid: order.brokerorderid,
      exectype: 'I', ordstatus: order.ordstatus, side: order.side, symbol: order.symbol, orderqty: order.orderqty, price: order.price,
      lastqty: null, lastpx: null, cumqty: order.cumqty, avgpx: order.avgpx, leavesqty: order.leavesqty, leg_index: null, ordrejreason: null,
      text: null, transacttime: now, created_at: now, sendercompid: compId, sent_seq_num: null, sent_at: null,
    } satisfies ExecReportRow;
    if (connector) this.outbox.enqueueShaped(compId, connector.id, (profile) => buildExecutionReport(er, order, legs, profile));
    else this.outbox.enqueueDirect(compId, buildExecutionReport(er, order, legs, undefined));
  }

  // ----------------------------------------------------------------------------------------------
  // Broker actions

  async accept(ref: string, user: SessionUser, notes?: string, via?: string) {
    return this.act(ref, user, 'ACCEPT', { type: 'accept' }, { notes, via });
  }

  async reject(ref: string, user: SessionUser, reasonText: string, ordRejReason?: string, notes?: string, via?: string) {
    return this.act(ref, user, 'REJECT', { type: 'reject', reason: reasonText, ordRejReason: (ordRejReason ?? '0') as never }, { notes: notes ?? reasonText, via });
  }

  async doneForDay(ref: string, user: SessionUser, notes?: string, via?: string) {
    return this.act(ref, user, 'DONE_FOR_DAY', { type: 'doneForDay' }, { notes, via });
  }

  /**
   * The end of the client's trading session passed with this Day order still open: it expires
   * (ExecType/OrdStatus C, nothing left). Recorded as an action of the system, not of a person.
   */
  async expire(orderId: number, notes: string) {
    return this.act(String(orderId), SYSTEM_USER, 'EXPIRE', { type: 'expire' }, { notes });
  }

  async brokerCancel(ref: string, user: SessionUser, reason: string, notes?: string, via?: string) {
    return this.act(ref, user, 'CANCEL', { type: 'brokerCancel', reason }, { notes: notes ?? reason, via });
  }

  async decideRequest(ref: string, user: SessionUser, kind: 'cancel' | 'replace', decision: 'confirm' | 'refuse', reason?: string, via?: string) {
    const event: OrderEvent =
      kind === 'cancel'
        ? decision === 'confirm' ? { type: 'cancelConfirm' } : { type: 'cancelRefuse', reason: reason ?? '' }
        : decision === 'confirm' ? { type: 'replaceConfirm' } : { type: 'replaceRefuse', reason: reason ?? '' };
    const action: ActionType = `${kind === 'cancel' ? 'CANCEL' : 'REPLACE'}_${decision === 'confirm' ? 'CONFIRM' : 'REFUSE'}`;
    return this.act(ref, user, action, event, { notes: reason, via, request: kind === 'cancel' ? 'F' : 'G' });
  }

  async fill(ref: string, user: SessionUser, qty: string, px: string, legIndex: number | undefined, notes?: string, via?: string) {
    if (legIndex !== undefined) return this.legFill(ref, user, legIndex, qty, px, notes, via);
    return this.act(ref, user, 'FILL', { type: 'fill', qty, px }, { notes, via, fill: { qty, px } });
  }

  private async act(
    ref: string,
    user: SessionUser,
    actionType: ActionType,
    event: OrderEvent,
    opts: { notes?: string | undefined; via?: string | undefined; fill?: { qty: string; px: string }; request?: 'F' | 'G' },
  ): Promise<ActionOutcome> {
    const afterCommit: Array<() => void> = [];
    const out = await this.db.transaction(async (tx) => {
      const order = await lockOrder(tx, ref);
      if (!order) throw new HttpError(404, `Order ${ref} not found`);
      if (event.type === 'fill' && order.msg_type === 'AB') {
        const legFills = await tx.query("SELECT 1 FROM execution_reports WHERE order_id = $1 AND exectype = 'F' AND leg_index IS NOT NULL LIMIT 1", [order.id]);
        if (legFills.rows.length) throw new HttpError(409, 'This multileg order is being filled per leg; add the fill to a leg (legIndex)');
      }
      if (event.type === 'fill') {
        const px = checkFillPrice(event.px, { side: order.side, ordType: order.ordtype, price: order.price, isStrategy: order.msg_type === 'AB' });
        if (px.level === 'error') throw new HttpError(400, px.message, 'fillPrice');
        if (order.msg_type === 'D') await assertFillOnTick(tx, order.symbol, event.px);
      }
      const connector = (await this.connectorIn(tx, order.sendercompid))!;
      const state = await this.loadState(tx, order);
      const applied = applyEvent(state, event);
      if (!applied.ok) {
        const status = applied.code === 'INVALID_QUANTITY' || applied.code === 'INVALID_PRICE' || applied.code === 'REASON_REQUIRED' ? 400 : 409;
        throw new HttpError(status, applied.reason);
      }
      let request: OrderRequestRow | undefined;
      if (opts.request) {
        request = await pendingOrderRequest(tx, order.id);
        if (!request || request.request_type !== opts.request) throw new HttpError(409, `No ${opts.request === 'F' ? 'cancel' : 'replace'} request is pending for order ${order.brokerorderid}`);
        await decideOrderRequest(tx, request.id, event.type.endsWith('Confirm') ? 'CONFIRMED' : 'REFUSED', user.username, opts.notes ?? null);
      }
      // A broker cancel answers a client request that is waiting: a cancel request is thereby done
      // (the report carries its ClOrdID), a replace request is refused with an OrderCancelReject.
      let answeredRequest: OrderRequestRow | undefined;
      if (event.type === 'brokerCancel') {
        const waiting = await pendingOrderRequest(tx, order.id);
        if (waiting?.request_type === 'F') {
          answeredRequest = waiting;
          await decideOrderRequest(tx, waiting.id, 'CONFIRMED', user.username, opts.notes ?? null);
        } else if (waiting?.request_type === 'G') {
          await decideOrderRequest(tx, waiting.id, 'REFUSED', user.username, 'Order canceled by the broker');
          const rej = await insertCancelReject(tx, {
            orderId: order.id, sendercompid: order.sendercompid, clordid: waiting.clordid, origclordid: waiting.origclordid, orderid: order.brokerorderid,
            ordstatus: '4', responseTo: CxlRejResponseTo.CancelReplaceRequest, reason: 0, text: 'Order canceled by the broker',
          });
          afterCommit.push(() =>
            this.outbox.enqueueCancelReject(order.sendercompid, order.client_connector_id, rej.id, {
              orderid: order.brokerorderid, clordid: waiting.clordid, origclordid: waiting.origclordid, ordstatus: '4',
              responseTo: CxlRejResponseTo.CancelReplaceRequest, reason: 0, text: 'Order canceled by the broker', transacttime: rej.transacttime,
            }),
          );
        }
      }
      // An order that expires answers a client request still waiting with an OrderCancelReject.
      if (event.type === 'expire') {
        const waiting = await pendingOrderRequest(tx, order.id);
        if (waiting) {
          const text = 'Order expired at the end of the trading day';
          const responseTo = waiting.request_type === 'F' ? CxlRejResponseTo.CancelRequest : CxlRejResponseTo.CancelReplaceRequest;
          await decideOrderRequest(tx, waiting.id, 'REFUSED', user.username, text);
          const rej = await insertCancelReject(tx, {
            orderId: order.id, sendercompid: order.sendercompid, clordid: waiting.clordid, origclordid: waiting.origclordid, orderid: order.brokerorderid,
            ordstatus: 'C', responseTo, reason: 0, text,
          });
          afterCommit.push(() =>
            this.outbox.enqueueCancelReject(order.sendercompid, order.client_connector_id, rej.id, {
              orderid: order.brokerorderid, clordid: waiting.clordid, origclordid: waiting.origclordid, ordstatus: 'C', responseTo, reason: 0, text,
              transacttime: rej.transacttime,
            }),
          );
        }
      }
      const finalType: ActionType = actionType === 'FILL' && !applied.state.leavesQty.isZero() ? 'PARTIAL_FILL' : actionType;
      let er: ExecReportRow | null = null;
      let updated: OrderRow;
      if (applied.report.msgType === '8') {
        // A confirmed replace or cancel answers the request's ClOrdID; the order takes it on.
        const answered = request && event.type.endsWith('Confirm') ? request : answeredRequest;
        const ids = answered ? { clordid: answered.clordid, origclordid: answered.origclordid, keepClOrdId: false } : undefined;
        if (ids && ids.clordid !== order.clordid) {
          // A new order may have taken the request's ClOrdID meanwhile: the order cannot take it on.
          const { rows: taken } = await tx.query('SELECT 1 FROM orders WHERE sendercompid = $1 AND session_date = $2 AND clordid = $3 AND id <> $4 LIMIT 1', [order.sendercompid, order.session_date, ids.clordid, order.id]);
          if (taken.length) throw new HttpError(409, `The request's ClOrdID ${ids.clordid} is already used by another order of ${order.sendercompid} today: refuse the request`);
        }
        const r = await this.persist(tx, order, applied.state, applied.report, connector, ids, actionType === 'ACCEPT' ? user.username : undefined);
        updated = r.updated;
        er = r.er;
      } else {
        // Refused request: OrderCancelReject (35=9) and the order back to its working status.
        updated = await updateOrder(tx, order.id, { ...stateColumns(applied.state, order), ordstatus: applied.state.ordStatus });
        const rej = await insertCancelReject(tx, {
          orderId: order.id, sendercompid: order.sendercompid, clordid: request!.clordid, origclordid: request!.origclordid, orderid: order.brokerorderid,
          ordstatus: applied.report.ordStatus, responseTo: applied.report.cxlRejResponseTo, reason: Number(applied.report.cxlRejReason), text: applied.report.text,
        });
        const report = applied.report;
        afterCommit.push(() =>
          this.outbox.enqueueCancelReject(order.sendercompid, order.client_connector_id, rej.id, {
            orderid: order.brokerorderid, clordid: request!.clordid, origclordid: request!.origclordid, ordstatus: report.ordStatus,
            responseTo: report.cxlRejResponseTo, reason: Number(report.cxlRejReason), text: report.text, transacttime: rej.transacttime,
          }),
        );
      }
      const action = await insertOrderAction(tx, {
        orderId: order.id, brokerorderid: order.brokerorderid, clordid: order.clordid, sendercompid: order.sendercompid, symbol: order.symbol,
        side: order.side, orderqty: order.orderqty, price: order.price, actionType: finalType, userId: user.username, userRef: user.user_id > 0 ? user.user_id : null,
        notes: opts.notes?.trim() || null,
        actionData: { ...(opts.fill ? { fillQty: opts.fill.qty, fillPrice: opts.fill.px } : {}), ...(opts.via && opts.via !== user.username ? { via: opts.via } : {}), ordStatus: updated.ordstatus, execId: er?.execid },
        fillQty: opts.fill?.qty ?? null, fillPrice: opts.fill?.px ?? null, legIndex: null,
      });
      if (er && er.exectype === 'F') {
        await insertTrade(tx, { orderId: order.id, execReportId: er.id, symbol: order.symbol, type: order.msg_type === 'AB' ? 'multileg' : 'outright', contract: contractOf(order), side: order.side, price: er.lastpx!, quantity: er.lastqty! });
        if (order.msg_type === 'AB') {
          // A fill at the spread price executes every leg: ratio × the strategy's executed quantity (the
          // legs' own prices are not known, so their average price is left as it was).
          for (const l of await this.legs(order.id, tx)) {
            await updateLeg(tx, order.id, l.leg_index, Decimal.from(l.leg_ratio_qty).mul(updated.cumqty).toString(), l.leg_avgpx);
          }
        }
      }
      const legs = er && order.msg_type === 'AB' ? await this.legs(order.id, tx) : [];
      return { order: updated, er, legs, actionId: action.id };
    });
    // Straight after the commit, before any await: reports to a client keep their commit order.
    if (out.er) this.outbox.enqueueExecReport(out.order.sendercompid, out.order.client_connector_id, out.er, out.order, out.legs);
    for (const cb of afterCommit) cb();
    this.publish.orderChanged(out.order.id, out.er, out.actionId);
    return {
      order: out.order,
      fullyFilled: Decimal.from(out.order.leavesqty).isZero() && Decimal.from(out.order.cumqty).isPositive(),
      message: `${actionType.replace(/_/g, ' ').toLowerCase()} done for ${out.order.brokerorderid}`,
    };
  }

  /** A fill on one leg of a multileg order (quantity in the leg's contracts, at the leg's outright price). */
  private async legFill(ref: string, user: SessionUser, legIndex: number, qtyText: string, pxText: string, notes?: string, via?: string): Promise<ActionOutcome> {
    const out = await this.db.transaction(async (tx) => {
      const order = await lockOrder(tx, ref);
      if (!order) throw new HttpError(404, `Order ${ref} not found`);
      if (order.msg_type !== 'AB') throw new HttpError(400, 'legIndex applies to multileg orders only', 'legIndex');
      if (!['0', '1', '6', 'E'].includes(order.ordstatus)) throw new HttpError(409, `Cannot fill an order that is ${order.ordstatus === 'A' ? 'awaiting acceptance' : 'closed'}`);
      if (isAwaitingAcceptance(order)) throw new HttpError(409, 'Order must be accepted before it can be filled');
      const spreadFills = await orderFillTotals(tx, order.id, null);
      if (!Decimal.from(spreadFills.qty).isZero()) throw new HttpError(409, 'This multileg order is being filled at the spread price; fill it without legIndex');
      const legs = await this.legs(order.id, tx);
      const legProgress = legs.map((l) => ({ side: l.leg_side, ratio: l.leg_ratio_qty, cumQty: l.leg_cumqty }));
      const qtyCheck = checkLegFillQuantity(qtyText, legProgress, legIndex, order.orderqty);
      if (qtyCheck.level === 'error') throw new HttpError(400, qtyCheck.message, 'fillQty');
      const pxCheck = checkLegFillPrice(pxText);
      if (pxCheck.level === 'error') throw new HttpError(400, pxCheck.message, 'fillPrice');
      const leg = legs[legIndex]!;
      await assertFillOnTick(tx, leg.leg_symbol, pxText);
      const qty = Decimal.from(qtyText);
      const px = Decimal.from(pxText);
      const legTotals = await orderFillTotals(tx, order.id, legIndex);
      const legCum = Decimal.from(legTotals.qty).add(qty);
      const legAvg = Decimal.from(legTotals.notional).add(qty.mul(px)).div(legCum, AVG_PX_SCALE);
      leg.leg_cumqty = legCum.toString();
      leg.leg_avgpx = legAvg.stripTrailingZeros().toString();
      const units = completedStrategyUnits(legs.map((l) => ({ ratio: l.leg_ratio_qty, cumQty: l.leg_cumqty })));
      const implied = impliedStrategyPrice(order.side, legs.map((l) => ({ side: l.leg_side, ratio: l.leg_ratio_qty, px: Decimal.from(l.leg_avgpx).isZero() ? px : l.leg_avgpx })));
      const cumQty = units;
      const leavesQty = Decimal.from(order.orderqty).sub(cumQty);
      if (units.gt(order.cumqty) && implied && order.ordtype === '2' && order.price !== null) {
        const violation = limitViolation(implied, { side: order.side, ordType: '2', price: Decimal.from(order.price) });
        if (violation) throw new HttpError(400, `Completing the strategy at the legs' prices gives ${implied.toString()}: ${violation}`, 'fillPrice');
      }
      await updateLeg(tx, order.id, legIndex, leg.leg_cumqty, leg.leg_avgpx);
      const status = ['6', 'E'].includes(order.ordstatus) ? (order.ordstatus as OrdStatusCode) : workingStatus({ cumQty, leavesQty });
      const avgPx = units.isPositive() && implied ? implied : Decimal.ZERO;
      const updated = await updateOrder(tx, order.id, { ordstatus: status, cumqty: cumQty.toString(), leavesqty: leavesQty.toString(), avgpx: avgPx.toString(), lastqty: qty.toString(), lastpx: px.toString() });
      const connector = (await this.connectorIn(tx, order.sendercompid))!;
      const [execId] = await nextExecIds(tx, connector.executionIdPrefix, 1);
      const er = await insertExecReport(tx, {
        orderId: order.id, execid: execId!, sendercompid: order.sendercompid, clordid: order.clordid, origclordid: order.origclordid, orderid: order.brokerorderid,
        exectype: 'F', ordstatus: status, side: order.side, symbol: order.symbol, orderqty: order.orderqty, price: order.price, lastqty: qty.toString(),
        lastpx: px.toString(), cumqty: cumQty.toString(), avgpx: avgPx.toString(), leavesqty: leavesQty.toString(), legIndex, ordrejreason: null, text: null, transacttime: this.now(),
      });
      const legFullyFilled = legCum.gte(Decimal.from(leg.leg_ratio_qty).mul(order.orderqty));
      const action = await insertOrderAction(tx, {
        orderId: order.id, brokerorderid: order.brokerorderid, clordid: order.clordid, sendercompid: order.sendercompid, symbol: order.symbol, side: order.side,
        orderqty: order.orderqty, price: order.price, actionType: leavesQty.isZero() ? 'FILL' : 'PARTIAL_FILL', userId: user.username, userRef: user.user_id,
        notes: notes?.trim() || null, actionData: { legIndex, legSymbol: leg.leg_symbol, fillQty: qty.toString(), fillPrice: px.toString(), legFullyFilled, ...(via && via !== user.username ? { via } : {}), execId: er.execid },
        fillQty: qty.toString(), fillPrice: px.toString(), legIndex,
      });
      await insertTrade(tx, { orderId: order.id, execReportId: er.id, symbol: leg.leg_symbol, type: 'outright', contract: maturityLabel(leg.leg_maturity_month_year) ?? leg.leg_maturity_month_year ?? '', side: leg.leg_side, price: px.toString(), quantity: qty.toString() });
      return { order: updated, er, legs, actionId: action.id };
    });
    this.outbox.enqueueExecReport(out.order.sendercompid, out.order.client_connector_id, out.er, out.order, out.legs);
    this.publish.orderChanged(out.order.id, out.er, out.actionId);
    return { order: out.order, fullyFilled: Decimal.from(out.order.leavesqty).isZero(), message: `leg ${legIndex + 1} fill done for ${out.order.brokerorderid}` };
  }

  // ----------------------------------------------------------------------------------------------

  private async legs(orderId: number, db: Queryable = this.db): Promise<OrderLegRow[]> {
    const { rows } = await db.query<OrderLegRow>('SELECT * FROM order_legs WHERE order_id = $1 ORDER BY leg_index', [orderId]);
    return rows;
  }

  /** The state machine's view of a stored order; the fill notional comes from the stored fills. */
  private async loadState(tx: Queryable, order: OrderRow): Promise<OrderState> {
    const totals = await orderFillTotals(tx, order.id, null);
    const pending = await pendingOrderRequest(tx, order.id);
    return {
      ordStatus: order.ordstatus as OrdStatusCode,
      side: order.side,
      ordType: order.ordtype,
      orderQty: Decimal.from(order.orderqty),
      price: order.price === null ? null : Decimal.from(order.price),
      cumQty: Decimal.from(order.cumqty),
      leavesQty: Decimal.from(order.leavesqty),
      fillNotional: Decimal.from(totals.notional),
      avgPx: Decimal.from(order.avgpx),
      lastQty: Decimal.from(order.lastqty ?? '0'),
      lastPx: Decimal.from(order.lastpx ?? '0'),
      pendingReplace:
        pending?.request_type === 'G'
          ? { orderQty: Decimal.from(pending.new_orderqty ?? order.orderqty), price: pending.new_price === null ? null : Decimal.from(pending.new_price), ordType: (pending.new_ordtype ?? order.ordtype) as '1' | '2' }
          : null,
      // Not accepted yet: Pending New, or a request that came in before the broker accepted it.
      awaitingAcceptance: isAwaitingAcceptance(order),
    };
  }

  /** Writes the new state and its execution report. */
  private async persist(
    tx: Queryable,
    order: OrderRow,
    state: OrderState,
    report: { execType: string; ordStatus: string; ordRejReason?: string; text?: string },
    connector: ConnectorInfo,
    ids?: { clordid: string; origclordid: string; keepClOrdId: boolean },
    acceptedBy?: string,
  ): Promise<{ updated: OrderRow; er: ExecReportRow }> {
    const replaced = report.execType === '5';
    // The intake's ClOrdID index learns the order's new key before it is written (see noteUsedClOrdId).
    if (ids && !ids.keepClOrdId) this.batcher.noteUsedClOrdId(order.sendercompid, order.session_date, ids.clordid);
    const updated = await updateOrder(tx, order.id, {
      ...stateColumns(state, order),
      ordstatus: state.ordStatus,
      ...(replaced ? { orderqty: state.orderQty.toString(), price: state.price?.toString() ?? null, ordtype: state.ordType } : {}),
      ...(ids && !ids.keepClOrdId ? { clordid: ids.clordid, origclordid: ids.origclordid } : {}),
      ...(acceptedBy ? { accepted_by: acceptedBy } : {}),
    });
    const [execId] = await nextExecIds(tx, connector.executionIdPrefix, 1);
    const er = await insertExecReport(tx, {
      orderId: order.id, execid: execId!, sendercompid: order.sendercompid,
      clordid: ids?.clordid ?? updated.clordid, origclordid: ids?.origclordid ?? (report.execType === '4' ? null : null),
      orderid: order.brokerorderid, exectype: report.execType, ordstatus: report.ordStatus, side: order.side, symbol: order.symbol,
      orderqty: updated.orderqty, price: updated.price, lastqty: state.lastQty.toString(), lastpx: state.lastPx.toString(),
      cumqty: state.cumQty.toString(), avgpx: state.avgPx.stripTrailingZeros().toString(), leavesqty: state.leavesQty.toString(),
      legIndex: null, ordrejreason: report.ordRejReason !== undefined ? Number(report.ordRejReason) : null, text: report.text ?? null,
      transacttime: this.now(),
    });
    return { updated, er };
  }
}

function stateColumns(state: OrderState, order: OrderRow) {
  return {
    cumqty: state.cumQty.toString(),
    leavesqty: state.leavesQty.toString(),
    avgpx: state.avgPx.stripTrailingZeros().toString(),
    lastqty: state.lastQty.isZero() ? order.lastqty : state.lastQty.toString(),
    lastpx: state.lastPx.isZero() ? order.lastpx : state.lastPx.toString(),
  };
}

function contractOf(order: OrderRow): string {
  return maturityLabel(order.maturity_month_year) ?? order.maturity_month_year ?? order.symbol;
}

/**
 * A manual fill price must be on the security's price grid (its price_tick_size, read in the fill's
 * transaction so a tick changed a moment ago applies). A strategy fill at the spread price is not
 * checked: a strip's average need not be a whole number of ticks.
 */
async function assertFillOnTick(tx: Queryable, symbol: string, px: DecimalInput): Promise<void> {
  const security = await findSecurity(tx, symbol);
  const offTick = checkFillPriceTick(px, security ? { symbol: security.symbol, priceTickSize: security.price_tick_size } : null);
  if (offTick) throw new HttpError(400, offTick.message, 'fillPrice');
}
