import {
  insertCancelReject,
  type ExecReportRow,
  type OrderLegRow,
  type OrderRow,
  type Queryable,
  type IntakeOutcome,
  type LeaseFence,
} from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';
import type { ClientProfile } from './client-profile';
import type { BuiltMessage } from './fix-messages';
import type { CoCommittedSend, ReserveReply } from './intake-batcher';
import type { ClientOutbox } from './outbox';

/** An application message for a client, before its session header. */
export interface OutgoingReply {
  msgType: string;
  body: Array<[number, string]>;
}

/**
 * Reserves replies on clients' live sessions (the FIX gateway's live sessions): see Session.reserveSend.
 * The reply is then persisted in the caller's commit and written once the reservation is settled.
 */
export interface ReplyReserver {
  /** Whether the client is logged on to this node (a cheap check before opening a transaction). */
  isLive(compId: string): boolean;
  /** `fence`: the session's lease holding the reply's commit is conditional on (docs/adr/0012). */
  reserve(
    compId: string,
    msg: OutgoingReply,
  ): { beginString: string; reservation: CoCommittedSend['reservation']; fence?: LeaseFence | undefined } | undefined;
}

/** Told after a commit that made reports for a client: its drop copies are owed (DropCopyOutbox). */
export interface DropCopyWaker {
  reportsMade(clientCompId: string): void;
}

/** A message shaped by the client's profile (defaults, Parties, mandatory fields) when it is built. */
export type ShapedMessage = (profile: ClientProfile | undefined) => BuiltMessage;

/** An OrderCancelReject (35=9) to record and send. */
export interface CancelRejectFacts {
  orderId: number | null;
  compId: string;
  connectorId: number;
  clordid: string;
  origclordid: string;
  /** The order's OrderID (37), 'NONE' when the order is unknown. */
  orderid: string;
  /**
   * The OrderID the message sent now carries, when it differs from the row's: a request naming an
   * OrderID that is not the order's records the client's OrderID and answers with the order's.
   */
  sentOrderid?: string;
  ordstatus: string;
  responseTo: string;
  reason: number;
  text: string;
}

/**
 * Everything the order flows send a client, in one place: execution reports and cancel rejects are
 * rows first (written in the caller's transaction) and leave through the outbox after the commit; an
 * intake reply may instead be reserved on the client's live session inside the intake batch's commit.
 * The shaping by the client's profile and the message building sit behind these calls. Every report
 * stored for a client is copied to the drop copy sessions covering it (docs/adr/0017): the copies are
 * written with the report, and the drop copy outbox is told here, after the commit, once per report.
 */
export class OrderReplies {
  constructor(
    private readonly outbox: ClientOutbox,
    /** The live sessions; absent, every reply goes through the outbox. */
    private readonly sessions: ReplyReserver | undefined,
    private readonly log: FastifyBaseLogger,
    /** The drop copy sessions; absent, copies wait in their rows for a drop copy session's logon. */
    private readonly dropCopies?: DropCopyWaker,
  ) {}

  /** After the commit: a stored execution report to its client, behind what is queued for it. */
  executionReport(compId: string, connectorId: number, er: ExecReportRow, order: OrderRow, legs: OrderLegRow[]): void {
    this.outbox.enqueueExecReport(compId, connectorId, er, order, legs);
    this.dropCopies?.reportsMade(compId);
  }

  /**
   * After the intake batch's commit: a stored report whose reply was reserved on the client's session
   * and persisted in that commit (reserver), so the client has it; its drop copies are owed now.
   */
  repliedInCommit(compId: string): void {
    this.dropCopies?.reportsMade(compId);
  }

  /**
   * After the intake batch's commit: a refusal at intake (no row of its own; its drop copies were written
   * by the batch's statements), to the client unless its reply was reserved and persisted in that commit.
   */
  refusal(compId: string, connectorId: number | undefined, build: ShapedMessage, replied: boolean): void {
    if (!replied) this.unstored(compId, connectorId, build);
    this.dropCopies?.reportsMade(compId);
  }

  /**
   * A message with no row behind it (an intake refusal, a status answer), shaped by the client's
   * profile, behind what is queued for the client; an unknown client (no connector) gets the plain one.
   */
  unstored(compId: string, connectorId: number | undefined, build: ShapedMessage): void {
    if (connectorId !== undefined) this.outbox.enqueueShaped(compId, connectorId, build);
    else this.outbox.enqueueDirect(compId, build(undefined));
  }

  /** Records an OrderCancelReject in the transaction; the returned function sends it after the commit. */
  async cancelReject(tx: Queryable, r: CancelRejectFacts): Promise<() => void> {
    const rej = await insertCancelReject(tx, {
      orderId: r.orderId,
      sendercompid: r.compId,
      clordid: r.clordid,
      origclordid: r.origclordid,
      orderid: r.orderid,
      ordstatus: r.ordstatus,
      responseTo: r.responseTo,
      reason: r.reason,
      text: r.text,
    });
    return () => {
      this.outbox.enqueueCancelReject(r.compId, r.connectorId, rej.id, {
        orderid: r.sentOrderid ?? r.orderid,
        clordid: r.clordid,
        origclordid: r.origclordid,
        ordstatus: r.ordstatus,
        responseTo: r.responseTo,
        reason: r.reason,
        text: r.text,
        transacttime: rej.transacttime,
      });
      this.dropCopies?.reportsMade(r.compId);
    };
  }

  /** An execution report built now, when the client's profile is loaded (else undefined: the outbox sends it). */
  buildNow(compId: string, connectorId: number, er: ExecReportRow, order: OrderRow, legs: OrderLegRow[]): OutgoingReply | undefined {
    return this.outbox.buildNow(compId, connectorId, er, order, legs);
  }

  /** A shaped message built now, when the client's profile is loaded (else undefined). */
  shapeNow(compId: string, connectorId: number, build: ShapedMessage): OutgoingReply | undefined {
    return this.outbox.shapeNow(compId, connectorId, build);
  }

  /**
   * The intake batch's reserve hook for one entry: its reply taken on the client's live session and
   * persisted in the order's own commit, when nothing else for that client waits in the outbox (a
   * reply must never overtake one queued before it). `reply` gives the message for the outcome, null
   * when nothing is to be sent, undefined when it cannot be built now (the outbox then sends it).
   */
  reserver(compId: string, reply: (outcome: IntakeOutcome) => { msg: OutgoingReply } | null | undefined): ReserveReply | undefined {
    const sessions = this.sessions;
    if (!sessions?.isLive(compId)) return undefined;
    return (outcome, scope) => {
      if (scope.queuedClients.has(compId)) return undefined;
      let built: { msg: OutgoingReply } | null | undefined;
      let reserved: ReturnType<ReplyReserver['reserve']>;
      try {
        built = this.outbox.isIdle(compId) ? reply(outcome) : undefined;
        if (built === null) return undefined;
        reserved = built && sessions.reserve(compId, built.msg);
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
        outbound: {
          beginString: reserved.beginString,
          record: reserved.reservation.record,
          storeCreationTime: reserved.reservation.storeCreationTime,
          fence: reserved.fence,
        },
      };
    };
  }
}
