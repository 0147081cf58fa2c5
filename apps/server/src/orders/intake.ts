import {
  clordidUsedOnDay,
  type Db,
  type ExistingOrderFacts,
  type IntakeOutcome,
  type NewOrderRecord,
  type RefusalTerms,
  type RefusedOrderRecord,
} from '@fixdesk/db';
import {
  decideNewOrder,
  Decimal,
  IntakeText,
  MsgType,
  OrdRejReason,
  OrdType,
  SecurityType,
  TimeInForce,
  RiskText,
  type ClientCapability,
  type DeskIdentities,
  type RiskBook,
  type SecurityInfo,
  type SideCode,
  type OrdTypeCode,
} from '@fixdesk/domain';
import type { FastifyBaseLogger } from 'fastify';
import { buildRefusalReport } from './fix-messages';
import { RefusedOrderRecorder } from './refused-orders';
import type { IntakeBatcher } from './intake-batcher';
import type { OrderPublisher } from './publisher';
import { liveMonth, tradingDay, type ConnectorInfo, type OrderReferenceData } from './reference-data';
import type { OrderReplies, ShapedMessage } from './replies';
import type { NewOrderLegs, RiskState } from './risk-state';

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

/** What the intake made of a new order. */
export interface IntakeResult {
  accepted: boolean;
  brokerOrderId?: string;
  text?: string;
  /** A possible resend of an order already held: nothing stored, nothing sent. */
  alreadyReceived?: boolean;
}

const SETTLED: Promise<void> = Promise.resolve();
const noop = () => {};

/** An order handed to the intake batch: resolves once its batch committed and its reply is on its way. */
type Admission = { committed: Promise<IntakeResult> };

/** Whether a possible resend carries the same order as the one stored under its ClOrdID. */
function sameOrder(r: NewOrderRecord, x: ExistingOrderFacts): boolean {
  const eq = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Decimal.from(a).eq(Decimal.from(b)));
  return (
    r.side === x.side &&
    r.ordType === x.ordtype &&
    r.symbol.toUpperCase() === x.symbol.toUpperCase() &&
    eq(r.orderQty, x.orderqty) &&
    eq(r.price, x.price)
  );
}

/** The order's symbols (its own and its legs'), upper case, each once. */
function symbolsOf(o: IncomingNewOrder): string[] {
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

/**
 * The intake of new orders (D, AB), read forward: receive (per client, in arrival order), validate
 * with the pure rules against cached reference data, store through the intake batch, reply (reserved
 * on the live session in the order's own commit, or through the outbox after it), publish.
 */
export class OrderIntake {
  /** Per client: the admission of its latest order (validation up to the batcher's queue). */
  private readonly intakeTails = new Map<string, Promise<void>>();
  /** Orders refused at intake are kept as records (refused_orders), after the refusal's commit. */
  private readonly refused: RefusedOrderRecorder;

  constructor(
    private readonly db: Db,
    private readonly refs: OrderReferenceData,
    private readonly batcher: IntakeBatcher,
    private readonly replies: OrderReplies,
    private readonly publish: OrderPublisher,
    private readonly risk: RiskState,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date,
  ) {
    this.refused = new RefusedOrderRecorder(db, (rows) => this.publish.refusedOrders(rows), log);
  }

  // ── receive ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Validates a new order with cached reference data and queues it for the next intake batch. Resolves
   * after the batch committed and the Pending New (or the refusal) was handed on, so the session counts
   * the message as processed only once the order is durable.
   *
   * Orders of one client are validated and queued strictly in the order of the calls, even while
   * earlier ones still wait for their commit (the FIX session hands them on pipelined).
   */
  receive(o: IncomingNewOrder): Promise<IntakeResult> {
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
    return this.admissionTail(
      client,
      (this.intakeTails.get(client) ?? SETTLED).then(() => this.admit(o)),
    );
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

  // ── validate ─────────────────────────────────────────────────────────────────────────────────

  private async admit(o: IncomingNewOrder): Promise<Admission> {
    const connector = await this.refs.connector(o.senderCompId);
    if (!connector || !connector.isActive) {
      return this.refuse(o, connector, this.now(), OrdRejReason.Other, `Client ${o.senderCompId} is not an active client connector`);
    }
    if (!connector.tradingEnabled)
      return this.refuse(o, connector, this.now(), OrdRejReason.ExchangeClosed, 'Trading is disabled for this client');
    if (connector.stop)
      return this.refuse(o, connector, this.now(), OrdRejReason.BrokerOption, RiskText.clientStopped(connector.stop.reason));
    // Reference data for the pure rules.
    const securities = new Map<string, SecurityInfo>();
    for (const s of symbolsOf(o)) {
      const info = await this.refs.security(s);
      if (info) securities.set(s, info);
    }
    const capabilities = await this.refs.clientCapabilities(connector.id);
    const desk = await this.refs.deskIdentities();
    // The client's exposure, held in memory from its session's start (risk-state.ts).
    await this.risk.hold(o.senderCompId);
    const book = this.risk.loaded(o.senderCompId, liveMonth(this.now(), connector.timezone));
    if (!book) throw new Error(`the risk book of ${o.senderCompId} is not held`);
    return this.admitWith(o, connector, securities, capabilities, book, desk);
  }

  /** admit() without waiting, when everything it reads is loaded already; undefined otherwise. */
  private admitFromLoaded(o: IncomingNewOrder): Admission | Promise<Admission> | undefined {
    const connector = this.refs.loadedConnector(o.senderCompId);
    if (!connector || !connector.isActive || !connector.tradingEnabled || connector.stop) return undefined;
    const capabilities = this.refs.loadedCapabilities(connector.id);
    if (!capabilities) return undefined;
    const desk = this.refs.loadedDeskIdentities();
    if (!desk) return undefined;
    const book = this.risk.loaded(o.senderCompId, liveMonth(this.now(), connector.timezone));
    if (!book) return undefined;
    const securities = new Map<string, SecurityInfo>();
    for (const s of symbolsOf(o)) {
      const info = this.refs.loadedSecurity(s);
      if (info === undefined) return undefined;
      if (info) securities.set(s, info);
    }
    return this.admitWith(o, connector, securities, capabilities, book, desk);
  }

  /** The checks and the queueing of an order from an active client, with its reference data in hand. */
  private admitWith(
    o: IncomingNewOrder,
    connector: ConnectorInfo,
    securities: ReadonlyMap<string, SecurityInfo>,
    capabilities: ClientCapability[],
    book: RiskBook,
    desk: DeskIdentities,
  ): Admission | Promise<Admission> {
    const now = this.now();
    const sessionDate = tradingDay(now, connector.timezone);
    const clOrdId = o.clOrdId?.trim() ?? '';
    // The checks of the order: the order's own terms, then (the batch's) duplicate ClOrdID, then
    // the client's capabilities, then its rate.
    // One decision, pure: the order's own terms, then the client's capability and exposure, then its rate.
    const input =
      o.msgType === MsgType.NewOrderSingle
        ? {
            msgType: 'D' as const,
            clOrdId,
            side: o.side,
            ordType: o.ordType,
            orderQty: o.orderQty,
            price: o.price,
            symbol: o.symbol,
            maturityMonthYear: o.maturityMonthYear,
            timeInForce: o.timeInForce,
            exDestination: o.exDestination,
            parties: o.parties,
          }
        : {
            msgType: 'AB' as const,
            clOrdId,
            side: o.side,
            ordType: o.ordType,
            orderQty: o.orderQty,
            price: o.price,
            symbol: o.symbol,
            timeInForce: o.timeInForce,
            exDestination: o.exDestination,
            legs: o.legs.map((l) => ({ symbol: l.symbol, side: l.side, ratio: l.ratio, maturityMonthYear: l.maturityMonthYear })),
            parties: o.parties,
          };
    const overRate = () => this.refs.overRate(connector);
    const decision = decideNewOrder(input, {
      lookupSecurity: (s: string) => securities.get(s.toUpperCase()),
      capabilities,
      exposure: (key: string) => book.exposure(key),
      now,
      timeZone: connector.timezone,
      // A possible resend is counted against the rate only once it proves to be a new order (below).
      ...(o.possibleDuplicate ? {} : { overRate }),
      maxOrdersPerSecond: connector.maxOrdersPerSecond,
      client: { compId: connector.compId, lei: connector.lei },
      desk,
    });
    if (!decision.ok && decision.stage === 'terms') return this.refuse(o, connector, now, decision.ordRejReason, decision.text);
    const refusal = decision.ok ? undefined : decision;
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
    if (o.possibleDuplicate) {
      const rate = () =>
        overRate() ? { ordRejReason: OrdRejReason.Other, text: IntakeText.rateExceeded(connector.maxOrdersPerSecond) } : undefined;
      return this.admitPossibleResend(o, connector, securities, now, sessionDate, clOrdId, rate);
    }
    return this.store(o, connector, securities, now, sessionDate, clOrdId);
  }

  /**
   * A possible resend (PossDupFlag or PossResend) that passed its checks. One whose ClOrdID the client
   * already used today goes to the batch, which ignores a resend of the very order it holds (after a
   * crash a client resends hundreds at once: they are not new orders and do not use up its rate);
   * anything else is a new order and counts against the rate like any other.
   */
  private admitPossibleResend(
    o: IncomingNewOrder,
    connector: ConnectorInfo,
    securities: ReadonlyMap<string, SecurityInfo>,
    now: Date,
    sessionDate: string,
    clOrdId: string,
    overRate: () => { ordRejReason: string; text: string } | undefined,
  ): Admission | Promise<Admission> {
    const admit = (used: boolean): Admission => {
      const refusal = used ? undefined : overRate();
      return refusal
        ? this.refuse(o, connector, now, refusal.ordRejReason, refusal.text)
        : this.store(o, connector, securities, now, sessionDate, clOrdId);
    };
    const taken = this.batcher.clOrdIdTaken(o.senderCompId, sessionDate, clOrdId);
    if (taken !== undefined) return admit(taken);
    const lookedUp = this.batcher
      .clOrdIdTakenLoaded(o.senderCompId, sessionDate, clOrdId)
      .then((known) => known ?? clordidUsedOnDay(this.db, o.senderCompId, sessionDate, clOrdId));
    return lookedUp.then(admit, (err: unknown) => {
      // Without the answer the batch still tells a held order from a new one; only the rate goes uncounted.
      this.log.warn({ err, compId: o.senderCompId, clOrdId }, 'could not check a possible resend for its ClOrdID');
      return admit(true);
    });
  }

  /**
   * An order that failed its capabilities or the rate and whose ClOrdID is taken: refused as a duplicate
   * (103=6). A possible resend (PossDupFlag) goes to the batch instead, which ignores a resend of the
   * very order it holds and refuses anything else as a duplicate.
   */
  private duplicateRefusal(
    o: IncomingNewOrder,
    connector: ConnectorInfo,
    securities: ReadonlyMap<string, SecurityInfo>,
    now: Date,
    sessionDate: string,
    clOrdId: string,
  ): Admission {
    if (o.possibleDuplicate) return this.store(o, connector, securities, now, sessionDate, clOrdId);
    return this.refuse(o, connector, now, OrdRejReason.DuplicateOrder, IntakeText.duplicateClOrdId(clOrdId));
  }

  // ── store and reply ──────────────────────────────────────────────────────────────────────────

  /** A checked order into the intake batch (which refuses a duplicate ClOrdID). */
  private store(
    o: IncomingNewOrder,
    connector: ConnectorInfo,
    securities: ReadonlyMap<string, SecurityInfo>,
    now: Date,
    sessionDate: string,
    clOrdId: string,
  ): Admission {
    const record = newOrderRecord(o, connector, securities, now, sessionDate, clOrdId);
    // Its share of the client's exposure counts from its decision: the client's next order, decided
    // before this one's commit, sees it working.
    const reservation = this.risk.reserve(o.senderCompId, riskLegsOf(record));
    let result: IntakeResult = { accepted: false };
    let kept: Promise<void> | undefined;
    const committed = this.batcher.submit(
      { order: record, execIdPrefix: connector.executionIdPrefix, reportTime: now },
      (outcome, replied, ownDuplicate) => {
        if (outcome.kind === 'stored') this.risk.stored(o.senderCompId, reservation, outcome.order.id);
        else this.risk.unreserve(o.senderCompId, reservation);
        result = this.onCommitted(o, record, connector, now, outcome, replied, ownDuplicate);
        // A duplicate refused by the batch is a refused order too.
        if (!result.accepted && outcome.kind === 'duplicate') {
          kept = this.refused.record({
            ...refusedOrderRecord(o, connector, now, Number(OrdRejReason.DuplicateOrder), result.text ?? '', outcome.execId),
            id: this.batcher.refusedOrderId(),
          });
        }
      },
      this.replies.reserver(o.senderCompId, (outcome) => {
        if (outcome.kind === 'stored') {
          const built = this.replies.buildNow(o.senderCompId, connector.id, outcome.er, outcome.order, outcome.legs);
          return built && { msg: built };
        }
        if (outcome.kind === 'duplicate' && !this.isKnownResend(o, record, outcome)) {
          const built = this.replies.shapeNow(o.senderCompId, connector.id, refusalReport(duplicateTerms(o, clOrdId), outcome.execId, now));
          return built && { msg: built };
        }
        return null;
      }),
      o.senderCompId,
      // A duplicate the batch meets is refused unless it is a resend of the very order held: its drop copies say what the reply says.
      (outcome) => (this.isKnownResend(o, record, outcome) ? undefined : duplicateTerms(o, clOrdId)),
    );
    committed.catch(() => this.risk.unreserve(o.senderCompId, reservation));
    return { committed: committed.then(() => (kept ? kept.then(() => result) : result)) };
  }

  /** A duplicate ClOrdID that is a possible resend of the very order already held (see onCommitted). */
  private isKnownResend(o: IncomingNewOrder, record: NewOrderRecord, outcome: Extract<IntakeOutcome, { kind: 'duplicate' }>): boolean {
    return !!o.possibleDuplicate && (outcome.existing === null || sameOrder(record, outcome.existing));
  }

  // ── publish ──────────────────────────────────────────────────────────────────────────────────

  /** Right after the batch commit, in commit order: the report to the client (unless already sent), the order to the browsers. */
  private onCommitted(
    o: IncomingNewOrder,
    record: NewOrderRecord,
    connector: ConnectorInfo,
    now: Date,
    outcome: IntakeOutcome,
    replied: boolean,
    ownDuplicate = false,
  ): IntakeResult {
    if (outcome.kind === 'stored') {
      const { order, er, legs } = outcome;
      if (!replied) this.replies.executionReport(o.senderCompId, connector.id, er, order, legs);
      else this.replies.repliedInCommit(o.senderCompId);
      this.publish.newOrderToOtherNodes(order.id, er);
      // Everything the browsers need is in hand: no second read of the order.
      if (this.publish.hasAudience()) {
        this.publish.newOrderFrom(
          {
            orders: [
              { ...order, client_name: connector.clientName, client_phone: connector.clientPhone, company_name: connector.companyName },
            ],
            legs,
            parties: record.parties.map((p, i) => ({
              order_id: order.id,
              leg_index: p.legIndex,
              position: i,
              party_id: p.partyId,
              party_id_source: p.partyIdSource,
              party_role: p.partyRole,
            })),
            requests: [],
            execReports: [],
          },
          er,
        );
      }
      return { accepted: true, brokerOrderId: order.brokerorderid };
    }
    // The very order an attempt that seemed to fail stored after all: its reply is in the FIX store
    // (the client gets it by ResendRequest), so nothing is sent; the order is in the book.
    if (outcome.kind === 'duplicate' && ownDuplicate) {
      this.log.warn(
        { compId: o.senderCompId, clOrdId: record.clordid, brokerOrderId: outcome.existing?.brokerorderid },
        'order stored by a commit reported as failed',
      );
      return { accepted: true, alreadyReceived: true, ...(outcome.existing ? { brokerOrderId: outcome.existing.brokerorderid } : {}) };
    }
    if (outcome.kind === 'duplicate' && this.isKnownResend(o, record, outcome)) {
      // A possible resend (PossDupFlag or PossResend) of an order we already hold, typically after a
      // crash between the order's commit and the persisting of its MsgSeqNum: not a second order,
      // and not a duplicate to refuse. Nothing is sent: its reports are in the FIX store (resendable)
      // or still unsent in the outbox (sent at logon, PossResend).
      this.log.info(
        { compId: o.senderCompId, clOrdId: record.clordid, brokerOrderId: outcome.existing?.brokerorderid },
        'possible resend of an order already received: ignored',
      );
      return { accepted: true, alreadyReceived: true, ...(outcome.existing ? { brokerOrderId: outcome.existing.brokerorderid } : {}) };
    }
    const terms = duplicateTerms(o, record.clordid);
    this.replies.refusal(o.senderCompId, connector.id, refusalReport(terms, outcome.execId, now), replied);
    return { accepted: false, text: terms.text };
  }

  // ── refuse ───────────────────────────────────────────────────────────────────────────────────

  /**
   * A refused order: an ExecutionReport with ExecType 8 / OrdStatus 8, OrdRejReason and Text. Nothing
   * enters the book; the inbound and outbound FIX messages stay in the audit log. It goes through the
   * intake batch for its ExecID and so keeps its place among the client's reports.
   */
  private refuse(o: IncomingNewOrder, connector: ConnectorInfo | undefined, now: Date, reason: string, text: string): Admission {
    this.log.info({ compId: o.senderCompId, clOrdId: o.clOrdId, reason, text }, 'order rejected at intake');
    let kept: Promise<void> | undefined;
    const terms = refusalTerms(o, reason, text);
    const committed = this.batcher.submit(
      { order: null, execIdPrefix: connector?.executionIdPrefix ?? 'REJ', reportTime: now, refusal: { client: o.senderCompId, terms } },
      (outcome, replied) => {
        if (outcome.kind === 'refusal')
          this.replies.refusal(o.senderCompId, connector?.id, refusalReport(terms, outcome.execId, now), replied);
        // The refused order's record, once the refusal (and its ExecID) is committed.
        // Its id: drawn with its batch's (in queue order among the orders), else the next at hand.
        const id = outcome.kind === 'refusal' && outcome.orderId !== undefined ? outcome.orderId : this.batcher.refusedOrderId();
        kept = this.refused.record({
          ...refusedOrderRecord(o, connector, now, Number(reason), text, outcome.kind === 'refusal' ? outcome.execId : null),
          id,
        });
      },
      this.replies.reserver(o.senderCompId, (outcome) => {
        if (outcome.kind !== 'refusal') return null;
        const build = refusalReport(terms, outcome.execId, now);
        if (!connector) return { msg: build(undefined) };
        const built = this.replies.shapeNow(o.senderCompId, connector.id, build);
        return built && { msg: built };
      }),
      o.senderCompId,
    );
    return {
      committed: committed.then(async (): Promise<IntakeResult> => {
        await kept;
        return { accepted: false, text };
      }),
    };
  }
}

/** What a refused order is kept as: the terms as the client sent them, and why it was refused. */
function refusedOrderRecord(
  o: IncomingNewOrder,
  connector: ConnectorInfo | undefined,
  now: Date,
  reason: number,
  text: string,
  execId: string | null,
): RefusedOrderRecord {
  const multileg = o.msgType === MsgType.NewOrderMultileg;
  const legSymbols = [...new Set(o.legs.map((l) => l.symbol).filter(Boolean))].join('/');
  return {
    sendercompid: o.senderCompId,
    targetcompid: o.targetCompId,
    clientConnectorId: connector?.id ?? null,
    sessionDate: connector ? tradingDay(now, connector.timezone) : null,
    msgType: o.msgType,
    clordid: o.clOrdId?.trim() || null,
    symbol: o.symbol ?? (multileg && legSymbols ? legSymbols : null),
    securityType: o.securityType ?? null,
    maturityMonthYear: o.maturityMonthYear ?? null,
    side: o.side ?? null,
    ordType: o.ordType ?? null,
    price: o.price ?? null,
    orderQty: o.orderQty ?? null,
    timeInForce: o.timeInForce ?? null,
    exchange: o.exDestination ?? null,
    currency: o.currency ?? null,
    account: o.account ?? null,
    text: o.text ?? null,
    legs: o.legs.map((l) => ({ ...l })),
    ordRejReason: Number.isFinite(reason) ? reason : 99,
    rejectText: text,
    execId,
    transactTime: o.transactTime ?? null,
  };
}

/** What the refusal of an order tells the client (and its drop copies) besides its ExecID and time: the order as sent, and why. */
function refusalTerms(o: IncomingNewOrder, reason: string, text: string): RefusalTerms {
  return {
    clOrdId: o.clOrdId ?? null,
    side: o.side ?? null,
    symbol: o.symbol ?? null,
    orderQty: o.orderQty ?? null,
    ordType: o.ordType ?? null,
    price: o.price ?? null,
    account: o.account ?? null,
    ordRejReason: reason,
    text,
  };
}

/** The refusal of an order whose ClOrdID the client already used that trading day. */
function duplicateTerms(o: IncomingNewOrder, clOrdId: string): RefusalTerms {
  return refusalTerms(o, OrdRejReason.DuplicateOrder, IntakeText.duplicateClOrdId(clOrdId));
}

/** The refusal report for an order, to be shaped by its client's profile. */
function refusalReport(terms: RefusalTerms, execId: string, now: Date): ShapedMessage {
  return (profile) => buildRefusalReport({ ...terms, execId, transactTime: now }, profile);
}

/** A checked order's contracts, as the risk book counts a new order. */
function riskLegsOf(r: NewOrderRecord): NewOrderLegs {
  return {
    side: r.side,
    symbol: r.symbol,
    maturity: r.maturityMonthYear,
    orderQty: r.orderQty,
    legs: r.legs.map((l) => ({ symbol: l.symbol, maturity: l.maturityMonthYear, side: l.side, ratio: l.ratioQty })),
  };
}

/** The row a checked order is stored as. */
function newOrderRecord(
  o: IncomingNewOrder,
  connector: ConnectorInfo,
  securities: ReadonlyMap<string, SecurityInfo>,
  now: Date,
  sessionDate: string,
  clOrdId: string,
): NewOrderRecord {
  const security = o.symbol ? securities.get(o.symbol.toUpperCase()) : undefined;
  const multileg = o.msgType === MsgType.NewOrderMultileg;
  return {
    clordid: clOrdId,
    clientConnectorId: connector.id,
    sendercompid: o.senderCompId,
    targetcompid: o.targetCompId,
    sessionDate,
    msgType: o.msgType,
    // A multileg order's Symbol is the strategy's name; without one, its legs' symbols joined.
    symbol: security?.symbol ?? o.symbol ?? [...new Set(o.legs.map((l) => l.symbol))].join('/'),
    securityType: o.securityType ?? (multileg ? SecurityType.Multileg : SecurityType.Future),
    maturityMonthYear: multileg ? null : (o.maturityMonthYear ?? null),
    side: o.side as SideCode,
    ordType: o.ordType as OrdTypeCode,
    price: o.ordType === OrdType.Limit ? Decimal.from(o.price!).toString() : null,
    orderQty: Decimal.from(o.orderQty!).toString(),
    timeInForce: o.timeInForce || TimeInForce.Day,
    exchange: o.exDestination ?? null,
    currency: o.currency ?? null,
    account: o.account ?? null,
    text: o.text ?? null,
    transactTime: o.transactTime ?? now,
    legs: o.legs.map((l, i) => ({
      legIndex: i,
      symbol: securities.get(l.symbol!.toUpperCase())?.symbol ?? l.symbol!,
      securityType: l.securityType ?? SecurityType.Future,
      maturityMonthYear: l.maturityMonthYear ?? null,
      side: l.side as SideCode,
      ratioQty: Decimal.from(l.ratio || '1').toString(),
      price: null,
    })),
    parties: o.parties,
  };
}
