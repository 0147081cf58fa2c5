import type { Db } from '@fixdesk/db';
import type { SessionUser } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { BrokerActions, type ActionOutcome } from './broker-actions';
import { ClientRequests, type IncomingCancel } from './client-requests';
import { OrderIntake, type IncomingNewOrder, type IntakeResult } from './intake';
import { IntakeBatcher } from './intake-batcher';
import { OrderWrites } from './order-writes';
import type { ClientOutbox } from './outbox';
import type { OrderPublisher } from './publisher';
import { OrderReferenceData } from './reference-data';
import { OrderReplies, type DropCopyWaker, type ReplyReserver } from './replies';
import type { RiskState } from './risk-state';

export interface OrderServiceDeps {
  db: Db;
  outbox: ClientOutbox;
  publish: OrderPublisher;
  /** Pre-trade risk held in memory for the clients whose sessions are on this node (the publisher keeps it current). */
  risk: RiskState;
  /** The clients' live sessions, where intake replies are reserved; absent, every reply goes through the outbox. */
  sessions?: ReplyReserver | undefined;
  /** The drop copy sessions, told after each commit that made a client's reports (docs/adr/0017). */
  dropCopies?: DropCopyWaker | undefined;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/**
 * The order core, one entry per flow: the intake of new orders (intake.ts), the client's requests on
 * its orders (client-requests.ts), the broker's actions (broker-actions.ts), over the cached reference
 * data (reference-data.ts). Every change runs in one transaction; only after the commit are the
 * client (replies.ts) and the browsers (publisher.ts) told.
 */
export class OrderService {
  private readonly refs: OrderReferenceData;
  private readonly batcher: IntakeBatcher;
  private readonly intake: OrderIntake;
  private readonly requests: ClientRequests;
  private readonly actions: BrokerActions;
  private readonly risk: RiskState;

  constructor(deps: OrderServiceDeps) {
    const { db, publish, log } = deps;
    const now = deps.now ?? (() => new Date());
    this.refs = new OrderReferenceData(db, now);
    this.batcher = new IntakeBatcher(db, log);
    const noteUsedClOrdId = (compId: string, day: string, clOrdId: string) => this.batcher.noteUsedClOrdId(compId, day, clOrdId);
    const replies = new OrderReplies(deps.outbox, deps.sessions, log, deps.dropCopies);
    const writes = new OrderWrites(noteUsedClOrdId, now);
    this.risk = deps.risk;
    this.intake = new OrderIntake(db, this.refs, this.batcher, replies, publish, deps.risk, log, now);
    this.requests = new ClientRequests(db, this.refs, writes, replies, publish, deps.risk, noteUsedClOrdId, now);
    this.actions = new BrokerActions(db, this.refs, writes, replies, publish, deps.risk, now);
  }

  // ── from FIX clients ──
  /** NewOrderSingle (D) or NewOrderMultileg (AB); resolves once the order (or its refusal) is durable. */
  receiveNewOrder(o: IncomingNewOrder): Promise<IntakeResult> {
    return this.intake.receive(o);
  }

  /** OrderCancelRequest (F) or OrderCancelReplaceRequest (G). */
  receiveCancelOrReplace(r: IncomingCancel): Promise<void> {
    return this.requests.cancelOrReplace(r);
  }

  /** OrderStatusRequest (H). */
  receiveStatusRequest(compId: string, clOrdId: string, orderId: string | undefined, side?: string, symbol?: string): Promise<void> {
    return this.requests.status(compId, clOrdId, orderId, side, symbol);
  }

  /** A client logged on (on this node): its session may have lived on another node since we last saw it. */
  clientLoggedOn(compId: string): void {
    this.batcher.forgetClient(compId);
    // Its risk is read afresh: while its session was elsewhere, another node followed it.
    this.risk.release(compId);
    void this.risk.hold(compId).catch(() => {});
  }

  /** Whether the client's session (and so its risk) is on this node. */
  holdsClient(compId: string): boolean {
    return this.risk.holds(compId);
  }

  /**
   * The client's exposure per contract as this node holds it (figures as text, by positionKey);
   * undefined while its session is not here.
   */
  riskExposure(compId: string): Map<string, { filled: string; workingBuy: string; workingSell: string }> | undefined {
    const book = this.risk.loaded(compId);
    return (
      book &&
      new Map(
        book
          .entries()
          .map(([k, e]) => [
            k,
            { filled: e.filled.toString(), workingBuy: e.workingBuy.toString(), workingSell: e.workingSell.toString() },
          ]),
      )
    );
  }

  /** A client's session left this node: its risk is no longer followed here. */
  clientLoggedOff(compId: string): void {
    this.risk.release(compId);
  }

  /** Resolves once no order is waiting for its commit (tests, shutdown). */
  intakeIdle(): Promise<void> {
    return this.batcher.idle();
  }

  // ── from brokers (and the day-expiry job) ──
  accept(ref: string, user: SessionUser, notes?: string, via?: string, clientText?: string): Promise<ActionOutcome> {
    return this.actions.accept(ref, user, notes, via, clientText);
  }

  reject(ref: string, user: SessionUser, reasonText: string, ordRejReason?: string, notes?: string, via?: string): Promise<ActionOutcome> {
    return this.actions.reject(ref, user, reasonText, ordRejReason, notes, via);
  }

  doneForDay(ref: string, user: SessionUser, notes?: string, via?: string): Promise<ActionOutcome> {
    return this.actions.doneForDay(ref, user, notes, via);
  }

  expire(orderId: number, notes: string): Promise<ActionOutcome> {
    return this.actions.expire(orderId, notes);
  }

  brokerCancel(ref: string, user: SessionUser, reason: string, notes?: string, via?: string): Promise<ActionOutcome> {
    return this.actions.brokerCancel(ref, user, reason, notes, via);
  }

  decideRequest(
    ref: string,
    user: SessionUser,
    kind: 'cancel' | 'replace',
    decision: 'confirm' | 'refuse',
    reason?: string,
    via?: string,
  ): Promise<ActionOutcome> {
    return this.actions.decideRequest(ref, user, kind, decision, reason, via);
  }

  fill(
    ref: string,
    user: SessionUser,
    qty: string,
    px: string,
    legIndex: number | undefined,
    notes?: string,
    via?: string,
  ): Promise<ActionOutcome> {
    return this.actions.fill(ref, user, qty, px, legIndex, notes, via);
  }

  // ── reference data ──
  /** Reference data changed: drop the caches (one connector's, or all). */
  invalidate(compId?: string): void {
    this.refs.invalidate(compId);
  }
}
