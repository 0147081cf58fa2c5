import { SEALED_TABLES, sealPending, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Between two blocks of a pass, the sealer rests three times as long as the block took: it seals at
 * no more than a quarter of one core (this process's and the database's together), in bursts of a
 * few milliseconds. That still keeps up with the intake at full speed on two cores (about 40,000
 * sealed rows a second against some 50,000 a quarter core seals), and never takes a core while orders
 * arrive: a pass that took it (ten seconds of backlog at 2,000 orders a second, in 30 ms blocks back
 * to back) showed as the intake's p99.
 */
const REST_PER_BLOCK_MS = 3;
const rest = (blockMs: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(1, Math.ceil(REST_PER_BLOCK_MS * blockMs))));

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
    this.schedule();
  }

  /**
   * A pass a second after the last one ended, whatever it found: the work is spread evenly over the
   * desk's day, a busy second's rows sealed in the next, paced (see REST_PER_BLOCK_MS). An earlier
   * sealer waited ten times longer after a busy pass, so its next pass met ten seconds of backlog at
   * once.
   */
  private schedule(): void {
    this.timer = setTimeout(() => {
      void this.seal().then(() => {
        if (this.timer) this.schedule();
      });
    }, this.intervalMs);
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
        const sealed = await sealPending(this.db, table, this.timer ? rest : undefined);
        rows += sealed.rows;
        if (sealed.blocks) this.log.debug({ table, ...sealed }, 'audit records sealed');
      } catch (err) {
        this.log.error({ err, table }, 'sealing the audit records failed; they will be sealed at the next pass');
      }
    }
    return rows;
  }
}
