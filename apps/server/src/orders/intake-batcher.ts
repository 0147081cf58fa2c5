import { storeIntakeBatch, type Db, type IntakeEntry, type IntakeOutcome } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

interface Queued {
  readonly entry: IntakeEntry;
  readonly onCommitted: (outcome: IntakeOutcome) => void;
  readonly resolve: (outcome: IntakeOutcome) => void;
  readonly reject: (err: unknown) => void;
}

export interface IntakeBatcherOptions {
  /** Most orders in one statement. */
  readonly maxBatch?: number;
}

/**
 * Group commit for new orders. Validated orders queue here; one batch is in flight at a time, and
 * whatever queued while it committed goes into the next one (one statement, one commit for all). A
 * quiet server commits each order on its own at once; a busy one commits many per round trip.
 *
 * Each entry's onCommitted runs right after its batch committed, in queue order and before any later
 * batch: that is where reports are handed to the outbox, so a client's reports leave in commit order
 * and never before their commit.
 */
export class IntakeBatcher {
  private queue: Queued[] = [];
  private running = false;
  private drained: Array<() => void> = [];
  private readonly maxBatch: number;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: IntakeBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
  }

  /** Queues an entry; resolves with its outcome after the commit (and after onCommitted ran). */
  submit(entry: IntakeEntry, onCommitted: (outcome: IntakeOutcome) => void): Promise<IntakeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, onCommitted, resolve, reject });
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
          this.settle(batch, await storeIntakeBatch(this.db, batch.map((q) => q.entry)));
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          // One bad order must not fail its neighbours: replay the batch one order at a time.
          this.log.warn({ err, orders: batch.length }, 'intake batch failed; storing its orders one by one');
          for (const q of batch) {
            try {
              this.settle([q], await storeIntakeBatch(this.db, [q.entry]));
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

  private settle(batch: readonly Queued[], outcomes: readonly IntakeOutcome[]): void {
    batch.forEach((q, i) => {
      try {
        q.onCommitted(outcomes[i]!);
      } catch (err) {
        this.log.error({ err }, 'handling a committed order failed');
      }
    });
    batch.forEach((q, i) => q.resolve(outcomes[i]!));
  }
}
