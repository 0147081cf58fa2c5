import { analyzeInsightsRollups, rollUpInsights, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs the Desk Insights roll-up (docs/adr/0019) every `intervalMs`: each step folds what was written
 * since the last one into the rollups, in a transaction of its own, off the order intake's path. While
 * a step was full (the backfill after the migration, a long pause), the next one follows at once, with a
 * short rest so the backfill never takes a core from the intake. One node of the desk runs it (the
 * holder of the job's lease); were two ever to run, the state row's lock makes the second skip.
 */
export class InsightsRollupJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Whether the last step was full (a backfill runs): its end refreshes the rollups' statistics. */
  private behind = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs: number,
    /** Whether this node rolls up for the desk now (one node at a time, by lease); absent: always. */
    private readonly runsHere: () => Promise<boolean> = async () => true,
  ) {}

  start(): void {
    if (this.intervalMs > 0) this.schedule(this.intervalMs);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.running = this.step().then((more) => {
        this.running = undefined;
        if (this.timer) this.schedule(more ? 50 : this.intervalMs);
      });
    }, ms);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One step; resolves whether there is more to fold at once. */
  private async step(): Promise<boolean> {
    try {
      if (!(await this.runsHere())) return false;
      const started = performance.now();
      const s = await rollUpInsights(this.db);
      if (s.orders || s.actions)
        this.log.debug({ orders: s.orders, actions: s.actions, ms: Math.round(performance.now() - started) }, 'insights rolled up');
      const more = !s.busy && !s.caughtUp;
      if (this.behind && !more && !s.busy) await analyzeInsightsRollups(this.db);
      if (!s.busy) this.behind = more;
      return more;
    } catch (err) {
      this.log.error({ err }, 'the insights roll-up failed; the next step tries again (the charts read raw rows meanwhile)');
      return false;
    }
  }
}
