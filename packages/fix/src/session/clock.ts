/**
 * Time and timers as injectable edges so session tests run deterministically: the session never calls
 * Date.now() or setTimeout directly.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export interface TimerHandle {
  cancel(): void;
}

export interface Timers {
  /** Calls fn every intervalMs until cancelled. */
  every(intervalMs: number, fn: () => void): TimerHandle;
  /** Calls fn once after delayMs unless cancelled. */
  after(delayMs: number, fn: () => void): TimerHandle;
}

export const systemClock: Clock = { now: () => Date.now() };

export const systemTimers: Timers = {
  every(intervalMs, fn) {
    const t = setInterval(fn, intervalMs);
    // A session's tick must not keep a process alive on its own (e.g. a CLI that closes its acceptor).
    t.unref();
    return { cancel: () => clearInterval(t) };
  },
  after(delayMs, fn) {
    const t = setTimeout(fn, delayMs);
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};

/**
 * A clock and timer service driven by the test: time only moves when advance() is called, and every
 * timer due in the advanced span fires in due order.
 */
export class ManualClock implements Clock, Timers {
  private current: number;
  private seq = 0;
  private readonly pending = new Map<number, { due: number; intervalMs: number | undefined; fn: () => void }>();

  constructor(start: number | Date = Date.UTC(2024, 0, 2, 9, 0, 0)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  set(to: number | Date): void {
    this.current = typeof to === 'number' ? to : to.getTime();
  }

  every(intervalMs: number, fn: () => void): TimerHandle {
    if (!(intervalMs > 0)) throw new RangeError(`timer interval must be positive, got ${intervalMs}`);
    return this.add(this.current + intervalMs, intervalMs, fn);
  }

  after(delayMs: number, fn: () => void): TimerHandle {
    return this.add(this.current + Math.max(0, delayMs), undefined, fn);
  }

  /** Moves time forward by ms, firing due timers in order of their due time. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let nextId: number | undefined;
      let nextDue = Infinity;
      for (const [id, t] of this.pending) {
        if (t.due <= target && t.due < nextDue) {
          nextDue = t.due;
          nextId = id;
        }
      }
      if (nextId === undefined) break;
      const timer = this.pending.get(nextId)!;
      this.current = timer.due;
      if (timer.intervalMs === undefined) this.pending.delete(nextId);
      else timer.due += timer.intervalMs;
      timer.fn();
    }
    this.current = target;
  }

  private add(due: number, intervalMs: number | undefined, fn: () => void): TimerHandle {
    const id = ++this.seq;
    this.pending.set(id, { due, intervalMs, fn });
    return { cancel: () => void this.pending.delete(id) };
  }
}
