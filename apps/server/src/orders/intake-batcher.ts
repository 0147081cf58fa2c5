import {
  ClOrdIdIndex,
  intakeNeeds,
  IntakeIdPool,
  markExecReportUnsent,
  planIntake,
  stampPlannedIntake,
  storeIntakeBatch,
  storeIntakeReportsWithReplies,
  storePlannedIntakeWithReplies,
  storeRefusalCopies,
  type Db,
  type IntakeEntry,
  type IntakeOutcome,
  type RefusalTerms,
  type RefusalToCopy,
  type ReservedOutbound,
} from '@fixdesk/db';
import { messageTrace, traceNow, type SendReservation } from '@fixdesk/fix';
import type { FastifyBaseLogger } from 'fastify';

/** A reply whose number a session reserved, persisted in the batch's own commit and written after it. */
export interface CoCommittedSend {
  readonly outbound: ReservedOutbound;
  readonly reservation: SendReservation;
}

/** Shared by the reserve calls of one batch (in queue order): clients whose replies go the usual way. */
interface BatchScope {
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
  /** What the refusal of a duplicate ClOrdID the batch meets says, for its drop copies; undefined: not refused (a resend of the order held). */
  readonly duplicateRefusal: ((outcome: DuplicateOutcome) => RefusalTerms | undefined) | undefined;
  /** The client the entry's reply goes to (its SenderCompID). */
  readonly client: string;
  /** An order's (client, trading day, ClOrdID), made once: its batch and the unsettled set use it. */
  readonly key: string | undefined;
  readonly resolve: (outcome: IntakeOutcome) => void;
  readonly reject: (err: unknown) => void;
}

type DuplicateOutcome = Extract<IntakeOutcome, { kind: 'duplicate' }>;

/**
 * A duplicate met by the retry after a failure, colliding with the very order the failed attempt stored
 * (its commit went through after all; `attempted`: per entry, the broker order id that attempt gave it).
 */
function isOwnDuplicate(outcome: IntakeOutcome, attempted: ReadonlyArray<string | undefined> | undefined, i: number): boolean {
  return outcome.kind === 'duplicate' && !!outcome.existing && !!attempted && outcome.existing.brokerorderid === attempted[i];
}

/** What became of one entry of a batch, applied in queue order once every earlier batch was settled. */
type Settlement =
  | { readonly ok: true; readonly outcome: IntakeOutcome; readonly replied: boolean; readonly own: boolean }
  | { readonly ok: false; readonly err: unknown };

/** A batch between its start and its settlement. */
interface InFlight {
  /** Clients with an entry in it whose reply goes through the outbox (after the settlement). */
  readonly outboxBound: Set<string>;
}

export interface IntakeBatcherOptions {
  /** Most orders in one statement. */
  readonly maxBatch?: number;
  /**
   * Batches written at once (each on its own connection); their outcomes are still settled in queue
   * order. Default 2: while one batch's statement runs, the orders that arrived meanwhile need not wait
   * for it, and a busy server keeps both of PostgreSQL's cores at work.
   */
  readonly inFlight?: number;
  /**
   * Plan batches ahead (ids drawn in blocks, ClOrdIDs known per client and day) and write each in one
   * self-committing statement (docs/adr/0009). Off: every batch takes the transaction path.
   */
  readonly planned?: boolean;
}

/**
 * Group commit for new orders. Validated orders queue here; up to `inFlight` batches (default two)
 * are written at once, and whatever queued meanwhile goes into the next one (one statement, one commit
 * for all). A quiet server commits each order on its own at once; a busy one commits many per round
 * trip and keeps two of the database's backends at work.
 *
 * Each entry's onCommitted runs once its batch committed and every earlier batch was settled, in
 * queue order: that is where reports are handed to the outbox, so a client's reports leave in queue
 * order and never before their commit. A later batch reserves no reply for a client whose reply in
 * an unsettled earlier batch goes through the outbox.
 *
 * An entry may also reserve its reply on the client's live session inside the batch's transaction
 * (reserve): the reply is then persisted in the FIX store by the same commit as the order and written
 * right after it, so the acknowledgement costs one commit, not two. docs/adr/0007.
 */
export class IntakeBatcher {
  private queue: Queued[] = [];
  private drained: Array<() => void> = [];
  private readonly maxInFlight: number;
  /** Batches started and not yet settled. */
  private readonly inFlight = new Set<InFlight>();
  /** Batches whose statements are still running (their place taken): at most maxInFlight. */
  private writing = 0;
  /** A pump is scheduled (for the end of the tick, or the next turn of the event loop after a commit). */
  private pumpScheduled = false;
  /** Resolves once the latest batch started was settled (the next one settles after it). */
  private settledTail: Promise<void> = Promise.resolve();
  /** Resolves once the latest batch to plan has planned and reserved its replies (see commit). */
  private planLock: Promise<void> = Promise.resolve();
  /** Per client: batches in flight that hold a reply of it bound for the outbox. */
  private readonly outboxBound = new Map<string, number>();
  private readonly maxBatch: number;
  private readonly planned: { readonly ids: IntakeIdPool; readonly index: ClOrdIdIndex } | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: IntakeBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.maxInFlight = Math.max(1, options.inFlight ?? 2);
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
  submit(
    entry: IntakeEntry,
    onCommitted: (outcome: IntakeOutcome, replied: boolean, ownDuplicate: boolean) => void,
    reserve?: ReserveReply,
    client: string = entry.order?.sendercompid ?? '',
    duplicateRefusal?: (outcome: DuplicateOutcome) => RefusalTerms | undefined,
  ): Promise<IntakeOutcome> {
    const key = entry.order ? clOrdIdKey(entry.order.sendercompid, entry.order.sessionDate, entry.order.clordid) : undefined;
    if (key !== undefined) this.unsettledKeys.set(key, (this.unsettledKeys.get(key) ?? 0) + 1);
    if (messageTrace.sink) messageTrace.sink('intake.queued', clOrdIdOf(entry), traceNow());
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, onCommitted, reserve, duplicateRefusal, client, key, resolve, reject });
      if (!this.pumpScheduled && this.writing < this.maxInFlight) {
        this.pumpScheduled = true;
        // After the current tick: orders that arrived together share a commit.
        process.nextTick(this.pump);
      }
    });
  }

  /**
   * Whether a client already used a ClOrdID on a trading day, when that can be told without waiting:
   * true if an order with it is stored (the planned intake's index) or still queued or in flight here;
   * false if neither; undefined when the day's ClOrdIDs are not loaded (ask the database after the
   * client's earlier orders settled).
   */
  clOrdIdTaken(sendercompid: string, sessionDate: string, clordid: string): boolean | undefined {
    if (this.unsettledKeys.has(clOrdIdKey(sendercompid, sessionDate, clordid))) return true;
    const used = this.planned?.index.used(sendercompid, sessionDate);
    return used ? used.has(clordid) : undefined;
  }

  /**
   * As clOrdIdTaken, loading the client's ClOrdIDs of the day first when they are not at hand: after a
   * restart or a logon a client resends hundreds of orders at once, and one query answers them all
   * (not one each). Undefined without the planned intake's index.
   */
  async clOrdIdTakenLoaded(sendercompid: string, sessionDate: string, clordid: string): Promise<boolean | undefined> {
    const known = this.clOrdIdTaken(sendercompid, sessionDate, clordid);
    if (known !== undefined || !this.planned) return known;
    await this.planned.index.load(sendercompid, sessionDate);
    return this.clOrdIdTaken(sendercompid, sessionDate, clordid);
  }

  /** ClOrdIDs of orders submitted and not yet settled (queued or in flight), with their counts. */
  private readonly unsettledKeys = new Map<string, number>();

  private releaseKeys(batch: readonly Queued[]): void {
    for (const { key } of batch) {
      if (key === undefined) continue;
      const n = (this.unsettledKeys.get(key) ?? 1) - 1;
      if (n > 0) this.unsettledKeys.set(key, n);
      else this.unsettledKeys.delete(key);
    }
  }

  /** An id for an order refused at intake, in arrival order among the planned orders' ids (undefined: the database draws one). */
  refusedOrderId(): number | undefined {
    return this.planned?.ids.takeOrderId();
  }

  /** Resolves once nothing is queued or in flight (tests, shutdown). */
  idle(): Promise<void> {
    if (this.inFlight.size === 0 && this.queue.length === 0 && !this.pumpScheduled) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /** The pool's connections, for the message trace. */
  private poolStats(): { idle: number; waiting: number; total: number } {
    return this.db.poolStats?.() ?? { idle: NaN, waiting: NaN, total: NaN };
  }

  /**
   * Starts batches from the queue while fewer than maxInFlight statements run. A batch's place is free
   * once its statement is done (written), not once it settled: a batch that committed before an
   * earlier one no longer keeps the orders queued behind it waiting for that earlier commit.
   */
  private readonly pump = (): void => {
    this.pumpScheduled = false;
    while (this.queue.length > 0 && this.writing < this.maxInFlight) {
      const batch = this.takeBatch();
      if (messageTrace.sink) stampBatch(messageTrace.sink, 'batch.taken', batch, { inFlight: this.writing, ...this.poolStats() });
      const flight: InFlight = { outboxBound: new Set() };
      this.inFlight.add(flight);
      const prior = this.settledTail;
      this.writing += 1;
      const settled = this.process(batch, flight, prior)
        .finally(() => this.written())
        .then(async (settlements) => {
          // Outcomes reach the callers in queue order: a later batch may commit first, never settle first.
          // Its reserved replies were handed to the wire at the commit (settleReservations): the
          // callers' bookkeeping (risk book, publishing, the inbound numbers' store writes) also waits
          // for the next turn of the event loop after the commit, so that the connections flush those
          // replies first, instead of all of it running before the flush. One turn from the commit,
          // not one per batch after the earlier one's settlement: batches settling back to back do
          // not each wait a turn more.
          await Promise.all([prior, nextTurn()]);
          if (messageTrace.sink) stampBatch(messageTrace.sink, 'batch.settled', batch);
          this.apply(batch, settlements);
        })
        .finally(() => this.releaseKeys(batch));
      this.settledTail = settled.then(
        () => this.finish(flight),
        (err: unknown) => {
          this.log.error({ err }, 'settling an intake batch failed');
          this.finish(flight);
        },
      );
    }
  };

  /**
   * A batch's statement is done: its place goes to the orders queued meanwhile, at the next turn of the
   * event loop (after the replies' flush and the orders read in this one, which join that batch).
   */
  private written(): void {
    this.writing -= 1;
    if (this.queue.length > 0 && !this.pumpScheduled) {
      this.pumpScheduled = true;
      setImmediate(this.pump);
    }
  }

  private finish(flight: InFlight): void {
    this.inFlight.delete(flight);
    for (const c of flight.outboxBound) {
      const n = (this.outboxBound.get(c) ?? 1) - 1;
      if (n > 0) this.outboxBound.set(c, n);
      else this.outboxBound.delete(c);
    }
    if (this.queue.length === 0 && this.inFlight.size === 0 && !this.pumpScheduled) for (const d of this.drained.splice(0)) d();
  }

  /** An entry of this batch replies through the outbox: no later batch may reserve a reply of that client before it settled. */
  private markOutboxBound(flight: InFlight, client: string): void {
    if (flight.outboxBound.has(client)) return;
    flight.outboxBound.add(client);
    this.outboxBound.set(client, (this.outboxBound.get(client) ?? 0) + 1);
  }

  /** Writes a batch (with the retries its failures call for); never rejects: each entry gets its settlement. */
  private async process(batch: readonly Queued[], flight: InFlight, prior: Promise<void>): Promise<Settlement[]> {
    const stored = (
      r: { outcomes: readonly IntakeOutcome[]; sends: ReadonlyArray<CoCommittedSend | undefined> },
      ours: readonly boolean[] = [],
    ) =>
      batch.map((_q, i): Settlement => ({ ok: true, outcome: r.outcomes[i]!, replied: r.sends[i] !== undefined, own: ours[i] ?? false }));
    try {
      return stored(await this.commit(batch, flight, prior));
    } catch (first) {
      let err = first;
      if (err instanceof ReplyPersistError) {
        // The replies could not join the commit (their sessions drop the connection): the orders
        // still go in, and their replies through the outbox.
        this.log.warn(
          { err: err.cause, orders: batch.length },
          'replies could not be persisted with their orders; committing the orders alone',
        );
        const attempted = err.attemptedOrderIds;
        try {
          // The failure may have come after the commit went through (a lost answer to COMMIT):
          // the orders then meet themselves as duplicates, which the caller must not refuse.
          const retried = await this.commit(batch, flight, prior, false, attempted);
          return stored(
            retried,
            retried.outcomes.map((o, i) => isOwnDuplicate(o, attempted, i)),
          );
        } catch (again) {
          err = again;
        }
      }
      if (batch.length === 1) return [{ ok: false, err }];
      // One bad order must not fail its neighbours: replay the batch one order at a time.
      this.log.warn({ err, orders: batch.length }, 'intake batch failed; storing its orders one by one');
      const out: Settlement[] = [];
      for (const q of batch) {
        try {
          const [outcome] = (await this.commit([q], flight, prior, false)).outcomes;
          out.push({ ok: true, outcome: outcome!, replied: false, own: false });
        } catch (e) {
          out.push({ ok: false, err: e });
        }
      }
      return out;
    }
  }

  /** Each entry's onCommitted, then its promise, in queue order. */
  private apply(batch: readonly Queued[], settlements: readonly Settlement[]): void {
    batch.forEach((q, i) => {
      const s = settlements[i]!;
      if (!s.ok) return;
      try {
        q.onCommitted(s.outcome, s.replied, s.own);
      } catch (err) {
        this.log.error({ err }, 'handling a committed order failed');
      }
    });
    batch.forEach((q, i) => {
      const s = settlements[i]!;
      if (s.ok) q.resolve(s.outcome);
      else q.reject(s.err);
    });
  }

  /**
   * The next batch: up to maxBatch entries from the head of the queue, stopping before a second order
   * with a key already in it (that one goes into the next batch and meets the first as a duplicate).
   */
  private takeBatch(): Queued[] {
    const keys = new Set<string>();
    let n = 0;
    while (n < this.queue.length && n < this.maxBatch) {
      const key = this.queue[n]!.key;
      if (key !== undefined) {
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
  private async commit(
    batch: readonly Queued[],
    flight: InFlight,
    prior: Promise<void>,
    withReplies = true,
    attempted?: ReadonlyArray<string | undefined>,
  ): Promise<{ outcomes: IntakeOutcome[]; sends: Array<CoCommittedSend | undefined> }> {
    if (!withReplies) return this.commitCarefully(batch, flight, false, attempted);
    // Batches plan and take their replies' numbers one at a time, in queue order: what one batch
    // learns (its ClOrdIDs, its numbers) the next one sees.
    const previous = this.planLock;
    let release!: () => void;
    this.planLock = new Promise((r) => (release = r));
    try {
      await previous;
      if (this.planned) {
        // Releases the lock once its replies are reserved, before its statement runs.
        const done = await this.commitPlanned(batch, flight, this.planned, release);
        if (done) return done;
      }
      // The careful path reserves its replies inside its transaction: it runs alone, after every
      // earlier batch, and no later batch plans meanwhile.
      await prior;
      return await this.commitCarefully(batch, flight, true);
    } finally {
      release();
    }
  }

  private async commitCarefully(
    batch: readonly Queued[],
    flight: InFlight,
    withReplies: boolean,
    attempted?: ReadonlyArray<string | undefined>,
  ): Promise<{ outcomes: IntakeOutcome[]; sends: Array<CoCommittedSend | undefined> }> {
    // Without replies taken here, every reply of the batch goes through the outbox.
    if (!withReplies || !batch.some((q) => q.reserve)) for (const q of batch) this.markOutboxBound(flight, q.client);
    const result = await this.commitInTransaction(batch, flight, withReplies, attempted);
    // Orders stored this way count as used ClOrdIDs for the planned batches that follow.
    for (const o of result.outcomes)
      if (o.kind === 'stored') this.planned?.index.used(o.order.sendercompid, o.order.session_date)?.add(o.order.clordid);
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
    flight: InFlight,
    planned: { readonly ids: IntakeIdPool; readonly index: ClOrdIdIndex },
    onPlanned: () => void,
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
    const sends = this.reserveReplies(batch, outcomes, flight);
    if (messageTrace.sink) stampBatch(messageTrace.sink, 'batch.planned', batch);
    // Planned and numbered: the next batch may plan while this one's statement runs.
    onPlanned();
    try {
      const seqs = outcomes.map((o, i) => (o.kind === 'stored' ? (sends[i]?.reservation.msgSeqNum ?? null) : null));
      const reserved = sends.filter((x): x is CoCommittedSend => x !== undefined);
      const at = await storePlannedIntakeWithReplies(
        this.db,
        plan,
        seqs,
        reserved.map((x) => x.outbound),
      );
      outcomes.forEach((o, i) => {
        if (o.kind === 'stored') o.er.sent_seq_num = seqs[i] ?? null;
      });
      stampPlannedIntake(plan, at);
      if (messageTrace.sink) stampBatch(messageTrace.sink, 'batch.committed', batch);
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
  private reserveReplies(
    batch: readonly Queued[],
    outcomes: readonly IntakeOutcome[],
    flight: InFlight,
  ): Array<CoCommittedSend | undefined> {
    const sends: Array<CoCommittedSend | undefined> = [];
    // A client with a reply bound for the outbox in another batch still in flight gets none reserved
    // here: its replies must not overtake that one.
    // (This batch has marked none of its own yet: its replies are reserved once, before anything else.)
    const scope: BatchScope = { queuedClients: new Set(this.outboxBound.keys()) };
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
      if (!send) {
        // Its reply (if any) goes through the outbox after the settlement: the client's later ones too.
        scope.queuedClients.add(q.client);
        this.markOutboxBound(flight, q.client);
      }
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
          markExecReportUnsent(this.db, erId).catch((err: unknown) =>
            this.log.warn({ err, erId }, 'could not mark an unwritten report for sending at the next logon'),
          );
        }
      });
    }
  }

  /**
   * The duplicate ClOrdIDs a batch refused, for their drop copies (docs/adr/0017 point 2): not a
   * resend of the order held, nor the batch's own order met again by its retry.
   */
  private refusedDuplicates(
    batch: readonly Queued[],
    outcomes: readonly IntakeOutcome[],
    attempted?: ReadonlyArray<string | undefined>,
  ): RefusalToCopy[] {
    return outcomes.flatMap((o, i) => {
      if (o.kind !== 'duplicate' || isOwnDuplicate(o, attempted, i)) return [];
      const q = batch[i]!;
      const terms = q.duplicateRefusal?.(o);
      return terms ? [{ client: q.client, execId: o.execId, transactTime: q.entry.reportTime, terms }] : [];
    });
  }

  private async commitInTransaction(
    batch: readonly Queued[],
    flight: InFlight,
    withReplies: boolean,
    /** After a failed attempt: the broker order ids it gave (an order met again is not a client's duplicate). */
    retryOf?: ReadonlyArray<string | undefined>,
  ): Promise<{ outcomes: IntakeOutcome[]; sends: Array<CoCommittedSend | undefined> }> {
    const entries = batch.map((q) => q.entry);
    if (!withReplies || !batch.some((q) => q.reserve)) {
      // One self-committing statement (its refusals' copies in it); a duplicate it met is known only once
      // it committed: its copies follow in a statement of their own, before the refusal is handed on.
      const outcomes = await storeIntakeBatch(this.db, entries);
      const duplicates = this.refusedDuplicates(batch, outcomes, retryOf);
      if (duplicates.length) {
        await storeRefusalCopies(this.db, duplicates).catch((err: unknown) =>
          this.log.error({ err, count: duplicates.length }, 'could not write the drop copies of refused duplicates'),
        );
      }
      return { outcomes, sends: [] };
    }
    let sends: Array<CoCommittedSend | undefined> = [];
    let attempted: Array<string | undefined> = [];
    try {
      const outcomes = await this.db.transaction(async (tx) => {
        // The Pending New rows wait for the replies' numbers: each is written once, with its send recorded.
        const outcomes = await storeIntakeBatch(tx, entries, { deferReports: true });
        attempted = outcomes.map((o) => (o.kind === 'stored' ? o.order.brokerorderid : undefined));
        sends = this.reserveReplies(batch, outcomes, flight);
        const reserved = sends.filter((x): x is CoCommittedSend => x !== undefined);
        const reports = outcomes.flatMap((o, i) =>
          o.kind === 'stored' ? [{ er: o.er, sentSeqNum: sends[i]?.reservation.msgSeqNum ?? null }] : [],
        );
        const written = await storeIntakeReportsWithReplies(
          tx,
          reports,
          reserved.map((x) => x.outbound),
          this.refusedDuplicates(batch, outcomes),
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
}

/** Resolves at the next turn of the event loop (after its I/O callbacks). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function clOrdIdKey(sendercompid: string, sessionDate: string, clordid: string): string {
  return `${sendercompid}\u0001${sessionDate}\u0001${clordid}`;
}

/** The ClOrdID an entry answers (the message trace's key). */
function clOrdIdOf(entry: IntakeEntry): string {
  return entry.order?.clordid ?? entry.refusal?.terms.clOrdId ?? '';
}

/**
 * The message trace (bench/orders.ts --trace): one stamp for every entry of a batch, the same time; at
 * its start also its size, the batches already in flight and the pool's connections, as pseudo stages.
 */
function stampBatch(
  sink: NonNullable<typeof messageTrace.sink>,
  stage: string,
  batch: readonly Queued[],
  start?: { inFlight: number; idle: number; waiting: number; total: number },
): void {
  const at = traceNow();
  for (const q of batch) {
    const id = clOrdIdOf(q.entry);
    sink(stage, id, at);
    if (start) {
      sink('batch.size', id, batch.length);
      sink('batch.inFlight', id, start.inFlight);
      sink('batch.poolIdle', id, start.idle);
      sink('batch.poolWaiting', id, start.waiting);
      sink('batch.poolTotal', id, start.total);
    }
  }
}
