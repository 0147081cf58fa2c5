// How many wrong passwords a sign-in tolerates, as OWASP's authentication guidance recommends: per
// account and address pair, delays that grow with each failure instead of a lock a stranger could set
// off for everyone, and a ceiling per address. A correct password clears its pair's count.

/** Failures of one (username, address) pair that cost nothing. */
export const FREE_FAILURES_PER_PAIR = 5;
/** After the free ones, each failure doubles the wait before the next attempt of that pair, up to this. */
export const MAX_DELAY_MS = 15 * 60_000;
/** Failures from one address, whatever the usernames, that stop it for the rest of the window. */
export const MAX_FAILURES_PER_ADDRESS = 100;
/** Failures older than this are forgotten. */
export const FAILURE_WINDOW_MS = 60 * 60_000;

export interface RecentFailures {
  /** The pair's failures in the window since its last success, and when the last one happened. */
  readonly pair: { readonly count: number; readonly last: Date | null };
  /** The address's failures in the window (every username), and when the oldest happened. */
  readonly address: { readonly count: number; readonly oldest: Date | null };
}

/** The wait the pair has earned after `failures` failures (0 while they are free). */
export function pairDelayMs(failures: number): number {
  if (failures < FREE_FAILURES_PER_PAIR) return 0;
  return Math.min(MAX_DELAY_MS, 1000 * 2 ** (failures - FREE_FAILURES_PER_PAIR + 1));
}

/** Whether an attempt may check its password now, or how many seconds it must wait. */
export function throttle(f: RecentFailures, now: number): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  const waits: number[] = [];
  const delay = pairDelayMs(f.pair.count);
  if (delay > 0 && f.pair.last && f.pair.last.getTime() + delay > now) waits.push(f.pair.last.getTime() + delay - now);
  if (f.address.count >= MAX_FAILURES_PER_ADDRESS && f.address.oldest) waits.push(f.address.oldest.getTime() + FAILURE_WINDOW_MS - now);
  if (waits.length === 0) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...waits) / 1000)) };
}
