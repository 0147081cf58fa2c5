import { SEALED_TABLES, sealPending, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Seals the compliance record (order actions, FIX messages) every second: what was written since the
 * last pass gets chained seals (docs/adr/0010), so a change made around the database triggers shows
 * up in `npm run audit:verify`. Sealing reads committed rows only and never holds up the order
 * intake beyond one index lookup under a share lock. Several nodes may run it; they take turns.
 */
export class AuditSealer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.seal(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and seals what is left (called before the database closes). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.seal();
  }

  /** One pass over both tables (one at a time; a pass asked for while one runs joins it). */
  seal(): Promise<void> {
    this.running ??= this.sealOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sealOnce(): Promise<void> {
    for (const table of SEALED_TABLES) {
      try {
        const sealed = await sealPending(this.db, table);
        if (sealed.blocks) this.log.debug({ table, ...sealed }, 'audit records sealed');
      } catch (err) {
        this.log.error({ err, table }, 'sealing the audit records failed; they will be sealed at the next pass');
      }
    }
  }
}
