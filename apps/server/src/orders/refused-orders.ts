import { storeRefusedOrders, type Db, type RefusedOrderRecord, type TextRow } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Keeps the orders refused at intake (table refused_orders), after each refusal's own commit: the
 * refusals that arrive while a write is in flight go together in the next one (a client far over its
 * rate costs one statement per round trip, not one per order). Accepted orders never come here.
 */
export class RefusedOrderRecorder {
  private queue: Array<{ record: RefusedOrderRecord; done: () => void }> = [];
  private writing = false;

  constructor(
    private readonly db: Db,
    /** The stored refusals as order list rows, to tell the browsers. */
    private readonly stored: (rows: TextRow[]) => void,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Resolves once the refusal is stored (or its write failed, which is logged: the client was told either way). */
  record(record: RefusedOrderRecord): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({ record, done: resolve });
      if (!this.writing) void this.write();
    });
  }

  private async write(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, 1000);
        try {
          const rows = await storeRefusedOrders(
            this.db,
            batch.map((b) => b.record),
          );
          this.stored(rows);
        } catch (err) {
          this.log.error({ err, count: batch.length }, 'could not store orders refused at intake');
        }
        for (const b of batch) b.done();
      }
    } finally {
      this.writing = false;
    }
  }
}
