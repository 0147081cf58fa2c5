import { listOpenDayOrders, type Db } from '@fixdesk/db';
import { localParts, parseTimeOfDay } from '@fixdesk/fix';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderService } from './order-service';

/** A local wall-clock moment: days since 1970-01-01 of the local date, and seconds into that day. */
interface LocalMoment {
  day: number;
  seconds: number;
}

function localMoment(instant: number, timeZone: string): LocalMoment {
  const p = localParts(instant, timeZone);
  return { day: Math.floor(Date.UTC(p.year, p.month - 1, p.day) / 86_400_000), seconds: p.secondsOfDay };
}

const before = (a: LocalMoment, b: LocalMoment) => a.day < b.day || (a.day === b.day && a.seconds < b.seconds);

/**
 * Whether a Day order received at `createdAt` has seen its session end by `now`: the first end of
 * the trading session (the connector's end time, in its time zone) after the order arrived. Works for
 * sessions that run past midnight too (the end is then on the next local day).
 */
export function dayOrderExpired(createdAt: Date, now: Date, endTime: string, timeZone: string): boolean {
  const end = parseTimeOfDay(endTime);
  const created = localMoment(createdAt.getTime(), timeZone);
  const firstEnd: LocalMoment = created.seconds < end ? { day: created.day, seconds: end } : { day: created.day + 1, seconds: end };
  return !before(localMoment(now.getTime(), timeZone), firstEnd);
}

/**
 * Expires Day orders (TimeInForce 0) still open when their client's trading session ends: every
 * minute it looks at the open Day orders and expires those whose session end has passed, each through
 * the order core like a broker action (the order row locked, an order action of type EXPIRE, an
 * ExecutionReport 150=C/39=C to the client, the blotter told). One node of the desk sweeps (the
 * holder of the job's lease); were two ever to sweep at once, an order already expired is refused
 * by the state machine and skipped.
 */
export class DayOrderExpiry {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly orders: OrderService,
    private readonly log: FastifyBaseLogger,
    /** Whether this node runs the desk's sweeps now (one node at a time, by lease); absent: always. */
    private readonly runsHere: () => Promise<boolean> = async () => true,
    private readonly intervalMs = 60_000,
  ) {}

  start(): void {
    this.timer = setInterval(
      () => void this.sweep().catch((err) => this.log.error({ err }, 'day order expiry sweep failed')),
      this.intervalMs,
    );
    this.timer.unref();
    // At start-up too: orders of a session that ended while no node was running.
    void this.sweep().catch((err) => this.log.error({ err }, 'day order expiry sweep failed'));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => {});
  }

  /** One pass (one at a time); resolves with the number of orders expired. */
  sweep(now: Date = new Date()): Promise<number> {
    this.running ??= this.sweepOnce(now).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sweepOnce(now: Date): Promise<number> {
    if (!(await this.runsHere())) return 0;
    const rows = await listOpenDayOrders(this.db);
    let expired = 0;
    for (const o of rows) {
      let due: boolean;
      try {
        due = dayOrderExpired(o.created_at, now, o.end_time, o.timezone);
      } catch (err) {
        this.log.warn(
          { err, compId: o.sendercompid },
          'cannot tell when this client session ends (end time or time zone invalid); its Day orders are not expired',
        );
        continue;
      }
      if (!due) continue;
      try {
        await this.orders.expire(o.id, `Day order expired at the end of the trading session (${o.end_time.slice(0, 5)} ${o.timezone})`);
        expired++;
      } catch (err) {
        // Closed meanwhile (a broker acted, another node swept): nothing to do.
        this.log.debug({ err, order: o.brokerorderid }, 'day order not expired');
      }
    }
    if (expired) this.log.info({ expired }, 'Day orders expired at the end of their trading session');
    return expired;
  }
}
