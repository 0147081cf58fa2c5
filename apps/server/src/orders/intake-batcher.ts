import {
  ClOrdIdIndex,
  intakeNeeds,
  intakeReportsCtes,
  IntakeIdPool,
  markExecReportUnsent,
  persistReservedOutbound,
  persistReservedOutboundAtomically,
  planIntake,
  plannedIntakeCtes,
  RESERVED_PARAMS,
  stampPlannedIntake,
  storeIntakeBatch,
  type Db,
  type IntakeEntry,
  type IntakeOutcome,
  type ReservedOutbound,
} from '@fixdesk/db';
import type { SendReservation } from '@fixdesk/fix';
import type { FastifyBaseLogger } from 'fastify';

/** A reply whose number a session reserved, persisted in the batch's own commit and written after it. */
export interface CoCommittedSend {
  readonly outbound: ReservedOutbound;
  readonly reservation: SendReservation;
}

/** Shared by the reserve calls of one batch (in queue order): clients whose replies go the usual way. */
export interface BatchScope {
  readonly queuedClients: Set<string>;
}

/**
 * Inside the batch's transaction, right after its rows were written: the reply to send for the entry,
 * reserved on the client's session and persisted in the same commit, or undefined (sent after the
 * commit through the outbox, as without it).
 */
export type ReserveReply = (outcome: IntakeOutcome, scope: BatchScope) => CoCommittedSend | undefined;

/** The batch failed after replies were reserved in it: worth one more try without them. */
class ReplyPersistError extends Error {
  constructor(
    override readonly cause: unknown,
    /** Per entry, the broker order id the failed attempt gave it (a commit that went through after all keeps it). */
    readonly attemptedOrderIds: ReadonlyArray<string | undefined>,
  ) {
    super(`intake batch with reserved replies failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

interface Queued {
  readonly entry: IntakeEntry;
  /**
   * `ownDuplicate`: a duplicate met by the retry after a failure, colliding with the very order the
   * failed attempt stored (its commit went through after all): not a client's duplicate.
   */
  readonly onCommitted: (outcome: IntakeOutcome, replied: boolean, ownDuplicate: boolean) => void;
  readonly reserve: ReserveReply | undefined;
  readonly resolve: (outcome: IntakeOutcome) => void;
  readonly reject: (err: unknown) => void;
}

export interface IntakeBatcherOptions {
  /** Most orders in one statement. */
  readonly maxBatch?: number;
  /**
   * Plan batches ahead (ids drawn in blocks, ClOrdIDs known per client and day) and write each in one
   * self-committing statement (docs/adr/0009). Off: every batch takes the transaction path.
   */
  readonly planned?: boolean;
}

/**
 * Group commit for new orders. Validated orders queue here; one batch is in flight at a time, and
 * whatever queued while it committed goes into the next one (one statement, one commit for all). A
 * quiet server commits each order on its own at once; a busy one commits many per round trip.
 *
 * Each entry's onCommitted runs right after its batch committed, in queue order and before any later
 * batch: that is where reports are handed to the outbox, so a client's reports leave in commit order
 * and never before their commit.
 *
 * An entry may also reserve its reply on the client's live session inside the batch's transaction
 * (reserve): the reply is then persisted in the FIX store by the same commit as the order and written
 * right after it, so the acknowledgement costs one commit, not two. docs/adr/0007.
 */
export class IntakeBatcher {
  private queue: Queued[] = [];
  private running = false;
  private drained: Array<() => void> = [];
  private readonly maxBatch: number;
  private readonly planned: { readonly ids: IntakeIdPool; readonly index: ClOrdIdIndex } | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: IntakeBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.planned = options.planned === false ? undefined : { ids: new IntakeIdPool(db), index: new ClOrdIdIndex(db) };
  }

  /** A client logged on: what this node knew of its ClOrdIDs may be stale (its session may have lived elsewhere). */
  forgetClient(compId: string): void {
    this.planned?.index.forget(compId);
  }

  /**
   * An order took another ClOrdID (a confirmed cancel or replace request carries its own): it is used
   * on the order's trading day from now on. Noted before that change commits: a key noted for nothing
   * only sends an order the careful way.
   */
  noteUsedClOrdId(sendercompid: string, sessionDate: string, clordid: string): void {
    this.planned?.index.used(sendercompid, sessionDate)?.add(clordid);
  }

  /** Queues an entry; resolves with its outcome after the commit (and after onCommitted ran). */
  submit(entry: IntakeEntry, onCommitted: (outcome: IntakeOutcome, replied: boolean, ownDuplicate: boolean) => void, reserve?: ReserveReply): Promise<IntakeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, onCommitted, reserve, resolve, reject });
      if (!this.running) {
        this.running = true;
        // After the current tick: orders that arrived together share the first commit.
        process.nextTick(() => void this.run());
      }
    });
  }

  /** Resolves once nothing is queued or in flight (tests, shutdown). */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  private async run(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.takeBatch();
        try {
          this.settle(batch, await this.commit(batch));
        } catch (err) {
          if (err instanceof ReplyPersistError) {
            // The replies could not join the commit (their sessions drop the connection): the orders
            // still go in, and their replies through the outbox.
            this.log.warn({ err: err.cause, orders: batch.length }, 'replies could not be persisted with their orders; committing the orders alone');
            const attempted = err.attemptedOrderIds;
            try {
              // The failure may have come after the commit went through (a lost answer to COMMIT):
              // the orders then meet themselves as duplicates, which the caller must not refuse.
              const retried = await this.commit(batch, false);
              const ours = retried.outcomes.map((o, i) => o.kind === 'duplicate' && !!o.existing && o.existing.brokerorderid === attempted[i]);
              this.settle(batch, retried, ours);
              continue;
            } catch (again) {
              err = again;
            }
          }
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          // One bad order must not fail its neighbours: replay the batch one order at a time.
          this.log.warn({ err, orders: batch.length }, 'intake batch failed; storing its orders one by one');
          for (const q of batch) {
            try {
              this.settle([q], await this.commit([q], false));
            } catch (e) {
              q.reject(e);
            }
          }
        }
      }
    } finally {
      this.running = false;
      for (const d of this.drained.splice(0)) d();
    }
  }

  /**
   * The next batch: up to maxBatch entries from the head of the queue, stopping before a second order
   * with a key already in it (that one goes into the next batch and meets the first as a duplicate).
   */
  private takeBatch(): Queued[] {
    const keys = new Set<string>();
    let n = 0;
    while (n < this.queue.length && n < this.maxBatch) {
      const o = this.queue[n]!.entry.order;
      if (o) {
        const key = `${o.sendercompid}\u0001${o.sessionDate}\u0001${o.clordid}`;
        if (keys.has(key)) break;
        keys.add(key);
      }
      n++;
    }
    return this.queue.splice(0, n);
  }

  /**
   * Writes the batch: one statement, or, when entries may reserve their replies, that statement and
   * the replies' store rows in one transaction. Reserved replies are written once it committed; when
   * it failed, their sessions drop the connection (the numbers were used and nothing holds them).
   */
  private async commit(batch: readonly Queued[], withReplies = true): Promise<{ outcomes: IntakeOutcome[]; sends: Array<CoCommittedSend | undefined> }> {
    if (withReplies && this.planned) {
      const done = await this.commitPlanned(batch, this.planned);
      if (done) return done;
    }
    const result = await this.commitInTransaction(batch, withReplies);
    // Orders stored this way count as used ClOrdIDs for the planned batches that follow.
    for (const o of result.outcomes) if (o.kind === 'stored') this.planned?.index.used(o.order.sendercompid, o.order.session_date)?.add(o.order.clordid);
    return result;
  }

  /**
   * The planned path: the batch's ids drawn ahead and its ClOrdIDs known to be free, so its outcomes
   * and replies are complete before anything is written, and one self-committing statement stores it
   * all. Undefined (nothing taken, nothing written) when the batch cannot be planned: a ClOrdID is
   * already used (the transaction path refuses it as a duplicate with the facts of the other order).
   */
  private async commitPlanned(
    batch: readonly Queued[],
    planned: { readonly ids: IntakeIdPool; readonly index: ClOrdIdIndex },
  ): Promise<{ outcomes: IntakeOutcome[]; sends: Array<CoCommittedSend | undefined> } | undefined> {
    const { ids, index } = planned;
    const entries = batch.map((q) => q.entry);
    const days = new Map<string, { sender: string; day: string }>();
    for (const e of entries) {
      if (e.order && !index.used(e.order.sendercompid, e.order.sessionDate)) {
        days.set(`${e.order.sendercompid}\u0001${e.order.sessionDate}`, { sender: e.order.sendercompid, day: e.order.sessionDate });
      }
    }
    if (days.size) await Promise.all([...days.values()].map((d) => index.load(d.sender, d.day)));
    const wanted = intakeNeeds(entries, index);
    if (!wanted) return undefined;
    let drawn = ids.take(wanted);
    if (!drawn) {
      await ids.refill(wanted);
      // The index may have changed while the ids were drawn.
      const need = intakeNeeds(entries, index);
      drawn = need && ids.take(need);
      if (!drawn) return undefined;
    }
    const plan = planIntake(entries, drawn, index, new Date());
    const { outcomes } = plan;
    const sends = this.reserveReplies(batch, outcomes);
    try {
      const seqs = outcomes.map((o, i) => (o.kind === 'stored' ? (sends[i]?.reservation.msgSeqNum ?? null) : null));
      const reserved = sends.filter((x): x is CoCommittedSend => x !== undefined);
      const at = await persistReservedOutboundAtomically(this.db, reserved.map((x) => x.outbound), plannedIntakeCtes(plan, seqs, RESERVED_PARAMS + 1));
      outcomes.forEach((o, i) => {
        if (o.kind === 'stored') o.er.sent_seq_num = seqs[i] ?? null;
      });
      stampPlannedIntake(plan, at);
    } catch (err) {
      // Nothing of the batch is known to be stored: what the index learnt from it may be wrong.
      index.forgetAll();
      const reserved = sends.filter((x) => x !== undefined);
      for (const x of reserved) x.reservation.failed(err);
      const attempted = outcomes.map((o) => (o.kind === 'stored' ? o.order.brokerorderid : undefined));
      throw reserved.length ? new ReplyPersistError(err, attempted) : err;
    }
    this.settleReservations(outcomes, sends);
    return { outcomes, sends };
  }

  /**
   * Each entry's reserve hook, in queue order, on the batch's outcomes. Filled one by one: whatever
   * happens later, the caller sees every reservation taken (and must settle each).
   */
  private reserveReplies(batch: readonly Queued[], outcomes: readonly IntakeOutcome[]): Array<CoCommittedSend | undefined> {
    const sends: Array<CoCommittedSend | undefined> = [];
    const scope: BatchScope = { queuedClients: new Set() };
    for (const [i, q] of batch.entries()) {
      let send: CoCommittedSend | undefined;
      try {
        send = q.reserve?.(outcomes[i]!, scope);
      } catch (err) {
        // The hook keeps its own client's order (it catches its failures); this only makes sure
        // a throwing hook can neither fail the batch nor leave taken numbers unsettled.
        this.log.error({ err }, 'reserving a reply failed; it goes through the outbox');
      }
      sends.push(send);
    }
    return sends;
  }

  /** After the commit: the reserved replies are written; one that could not be is marked for the next logon. */
  private settleReservations(outcomes: readonly IntakeOutcome[], sends: ReadonlyArray<CoCommittedSend | undefined>): void {
    for (const [i, x] of sends.entries()) {
      if (!x) continue;
      const outcome = outcomes[i];
      const erId = outcome?.kind === 'stored' ? outcome.er.id : undefined;
      void x.reservation.committed().then((written) => {
        if (!written && erId !== undefined) {
          markExecReportUnsent(this.db, erId).catch((err: unknown) => this.log.warn({ err, erId }, 'could not mark an unwritten report for sending at the next logon'));
        }
      });
    }
  }

  private async commitInTransaction(batch: readonly Queued[], withReplies: boolean): Promise<{ outcomes: IntakeOutcome[]; sends: Array<CoCommittedSend | undefined> }> {
    const entries = batch.map((q) => q.entry);
    if (!withReplies || !batch.some((q) => q.reserve)) return { outcomes: await storeIntakeBatch(this.db, entries), sends: [] };
    let sends: Array<CoCommittedSend | undefined> = [];
    let attempted: Array<string | undefined> = [];
    try {
      const outcomes = await this.db.transaction(async (tx) => {
        // The Pending New rows wait for the replies' numbers: each is written once, with its send recorded.
        const outcomes = await storeIntakeBatch(tx, entries, { deferReports: true });
        attempted = outcomes.map((o) => (o.kind === 'stored' ? o.order.brokerorderid : undefined));
        sends = this.reserveReplies(batch, outcomes);
        const reserved = sends.filter((x): x is CoCommittedSend => x !== undefined);
        const reports = outcomes.flatMap((o, i) => (o.kind === 'stored' ? [{ er: o.er, sentSeqNum: sends[i]?.reservation.msgSeqNum ?? null }] : []));
        const ctes = reports.length ? intakeReportsCtes(reports, RESERVED_PARAMS + 1) : undefined;
        const written = await persistReservedOutbound<{ id: number; execid: string; created_at: Date }>(
          tx,
          reserved.map((x) => x.outbound),
          ctes && { name: 'intake_reports', ctes: ctes.ctes, params: ctes.params, returnsRows: true },
        );
        const byExecId = new Map(written.map((r) => [r.execid, r]));
        for (const r of reports) {
          const row = byExecId.get(r.er.execid);
          if (!row) throw new Error(`the Pending New ${r.er.execid} was not stored`);
          r.er.id = row.id;
          r.er.created_at = row.created_at;
          if (r.sentSeqNum !== null) {
            r.er.sent_seq_num = r.sentSeqNum;
            r.er.sent_at = row.created_at;
          }
        }
        return outcomes;
      });
      this.settleReservations(outcomes, sends);
      return { outcomes, sends };
    } catch (err) {
      const reserved = sends.filter((x) => x !== undefined);
      for (const x of reserved) x.reservation.failed(err);
      throw reserved.length ? new ReplyPersistError(err, attempted) : err;
    }
  }

  private settle(batch: readonly Queued[], result: { outcomes: readonly IntakeOutcome[]; sends: ReadonlyArray<CoCommittedSend | undefined> }, ours: readonly boolean[] = []): void {
    const { outcomes, sends } = result;
    batch.forEach((q, i) => {
      try {
        q.onCommitted(outcomes[i]!, sends[i] !== undefined, ours[i] ?? false);
      } catch (err) {
        this.log.error({ err }, 'handling a committed order failed');
      }
    });
    batch.forEach((q, i) => q.resolve(outcomes[i]!));
  }
}
