import { SEALED_TABLES, sealPending, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/** Rows found by one pass above which the desk counts as busy. */
const BUSY_ROWS = 2000;

/**
 * Between two blocks of a pass, the sealer rests as long as the block took: a backlog is sealed at
 * no more than half of one core (this process's and the database's together), in bursts of a few
 * milliseconds, instead of taking a core for as long as it lasts while orders arrive.
 */
const restAsLongAs = (blockMs: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(1, Math.ceil(blockMs))));

/**
 * Seals the compliance record (order actions, FIX messages) every second: what was written since the
 * last pass gets chained seals (docs/adr/0010), so a change made around the database triggers shows
 * up in `npm run audit:verify`. Sealing reads committed rows only, inside the database, and never
 * holds up the order intake (it waits for the transactions writing, not the other way round). One
 * node of the desk seals (the holder of the job's lease); were two ever to run, they take turns.
 */
export class AuditSealer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** Whether this node seals for the desk now (one node at a time, by lease); absent: always. */
    private readonly runsHere: () => Promise<boolean> = async () => true,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.schedule(this.intervalMs);
  }

  /**
   * Every second while the desk is quiet; after a pass that found a burst (more rows than a second of
   * calm produces), the next waits ten times longer, so sealing takes its share of the cores when
   * the order intake has less use for them. The work is the same; only when it is done moves.
   */
  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      void this.seal().then((rows) => {
        if (this.timer) this.schedule(rows > BUSY_ROWS ? this.intervalMs * 10 : this.intervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Stops the timer and seals what is left (called before the database closes). */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await this.seal();
  }

  /** One pass over both tables (one at a time; a pass asked for while one runs joins it); resolves with the rows sealed. */
  seal(): Promise<number> {
    this.running ??= this.sealOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sealOnce(): Promise<number> {
    let rows = 0;
    try {
      if (!(await this.runsHere())) return 0;
    } catch (err) {
      this.log.warn({ err }, 'could not tell whether this node seals the audit records now; the next pass asks again');
      return 0;
    }
    for (const table of SEALED_TABLES) {
      try {
        // Stopping: what is left is sealed at once (the process is about to end).
        const sealed = await sealPending(this.db, table, this.timer ? restAsLongAs : undefined);
        rows += sealed.rows;
        if (sealed.blocks) this.log.debug({ table, ...sealed }, 'audit records sealed');
      } catch (err) {
        this.log.error({ err, table }, 'sealing the audit records failed; they will be sealed at the next pass');
      }
    }
    return rows;
  }
}
