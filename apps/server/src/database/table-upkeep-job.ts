import { tablesDueForUpkeep, tradingWrites, upkeepTable, type Queryable } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/** How often the job looks (the statistics are cheap to read: one small query). */
export const UPKEEP_LOOK_MS = 10_000;
/** The longest a due upkeep waits for a quiet look before it runs while the desk trades. */
export const UPKEEP_MAX_WAIT_MS = 10 * 60_000;

/**
 * Vacuums and analyzes the tables of embedded PGlite as PostgreSQL's autovacuum would (docs/adr/0020;
 * the rules in packages/db/src/repos/table-upkeep.ts). PGlite has one connection: a VACUUM or ANALYZE
 * holds it for its few to few hundred milliseconds, and an order arriving meanwhile waits. So a due
 * upkeep waits for a quiet look, one in which the desk's trading wrote nothing since the last
 * (UPKEEP_LOOK_MS), and runs anyway once it has waited UPKEEP_MAX_WAIT_MS: a desk that never pauses is
 * still kept, a table at a time. Not started on PostgreSQL, whose autovacuum does this.
 */
export class TableUpkeepJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastWrites: number | undefined;
  /** When a look first found a table due, while the desk was trading. */
  private dueSince: number | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly log: FastifyBaseLogger,
    private readonly o: { lookMs?: number; maxWaitMs?: number; now?: () => number } = {},
  ) {}

  start(): void {
    this.schedule();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.running = this.look().then(() => {
        this.running = undefined;
        if (this.timer) this.schedule();
      });
    }, this.o.lookMs ?? UPKEEP_LOOK_MS);
    this.timer.unref();
  }

  /** One look: the tables due, kept now if the desk was quiet since the last look or they waited long enough. Resolves with the tables kept. */
  async look(): Promise<string[]> {
    const now = (this.o.now ?? Date.now)();
    try {
      const writes = await tradingWrites(this.db);
      const quiet = writes === this.lastWrites;
      this.lastWrites = writes;
      const due = await tablesDueForUpkeep(this.db);
      if (!due.length) {
        this.dueSince = undefined;
        return [];
      }
      this.dueSince ??= now;
      if (!quiet && now - this.dueSince < (this.o.maxWaitMs ?? UPKEEP_MAX_WAIT_MS)) return [];
      const kept: string[] = [];
      for (const t of due) {
        const started = performance.now();
        await upkeepTable(this.db, t);
        kept.push(t.table);
        this.log.info(
          { table: t.table, vacuum: t.vacuum, analyze: t.analyze, ms: Math.round(performance.now() - started), quiet },
          'table upkeep (the embedded database has no autovacuum)',
        );
      }
      this.dueSince = undefined;
      return kept;
    } catch (err) {
      this.log.warn({ err }, 'table upkeep failed; the next look tries again');
      return [];
    }
  }
}
