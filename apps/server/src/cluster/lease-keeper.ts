import { acquireLease, jobLeaseName, releaseLease, renewLeases, type AcquireResult, type Db, type LeaseFence } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/** What a holder says about a lease it keeps (docs/adr/0012). */
export interface LeaseUse {
  /** Whether the lease is still wanted; asked at each renewal once the first TTL has passed (false: released). */
  readonly stillNeeded?: () => boolean;
  /** The lease was taken over by another node (this node had stalled past its expiry): stop acting on it. */
  readonly onLost?: () => void;
}

interface Holding {
  readonly fence: LeaseFence;
  readonly acquiredAt: number;
  expiresAt: Date;
  readonly use: LeaseUse;
}

/**
 * This node's leases: FIX sessions it owns and desk-wide jobs it runs. Acquires them for the node id,
 * renews them every third of their TTL, releases them when their holder no longer needs them, and
 * tells the holder when a renewal finds the term taken over. `fence` answers, for any lease, the
 * holding this node's writes are conditional on: the current one, or the last one it ended (a write
 * still in flight lands unless another node took over since), or term 0 (never held: it never lands).
 */
export class LeaseKeeper {
  private readonly held = new Map<string, Holding>();
  private readonly ended = new Map<string, LeaseFence>();
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    readonly nodeId: string,
    readonly ttlMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => {
        this.renewing ??= this.renewAll().finally(() => {
          this.renewing = undefined;
        });
      },
      Math.max(50, Math.floor(this.ttlMs / 3)),
    );
    this.timer.unref();
  }

  /** Stops renewing and releases every lease held (another node may take them over at once). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.renewing;
    for (const name of [...this.held.keys()]) await this.release(name);
  }

  /** Holds `name` for this node: already held, or acquired now (free, expired, or this node's own). */
  async acquire(name: string, use: LeaseUse = {}): Promise<AcquireResult> {
    const current = this.held.get(name);
    if (current)
      return {
        acquired: true,
        lease: {
          name,
          owner: this.nodeId,
          term: current.fence.term,
          acquiredAt: new Date(current.acquiredAt),
          expiresAt: current.expiresAt,
          live: true,
          reservedFor: null,
          reservedUntil: null,
        },
      };
    const r = await acquireLease(this.db, name, this.nodeId, this.ttlMs);
    if (r.acquired) {
      // Two acquisitions racing in this process: the later term wins, the earlier is fenced off.
      const raced = this.held.get(name);
      if (!raced || raced.fence.term < r.lease.term)
        this.held.set(name, { fence: { lease: name, term: r.lease.term }, acquiredAt: Date.now(), expiresAt: r.lease.expiresAt, use });
      this.ended.delete(name);
    }
    return r;
  }

  /** Ends this node's holding of `name` (only the holding `term` names, when given). */
  async release(name: string, term?: number): Promise<void> {
    const h = this.held.get(name);
    if (!h || (term !== undefined && h.fence.term !== term)) return;
    this.held.delete(name);
    this.ended.set(name, h.fence);
    await releaseLease(this.db, h.fence).catch((err: unknown) =>
      this.log.warn({ err, lease: name }, 'could not release a lease; it expires by itself'),
    );
  }

  /**
   * Whether this node runs the desk-wide `job` now: it holds the job's lease, or takes it (free or
   * expired). The lease is kept (renewed) from then on, so the job stays on one node until it stops.
   */
  async runsDeskJob(job: string): Promise<boolean> {
    return (await this.acquire(jobLeaseName(job))).acquired;
  }

  holds(name: string): boolean {
    return this.held.has(name);
  }

  /** The holding this node's writes under `name` are conditional on (see the class comment). */
  fence(name: string): LeaseFence {
    return this.held.get(name)?.fence ?? this.ended.get(name) ?? { lease: name, term: 0 };
  }

  /** The leases this node holds now. */
  list(): Array<{ name: string; term: number; expiresAt: Date }> {
    return [...this.held.values()].map((h) => ({ name: h.fence.lease, term: h.fence.term, expiresAt: h.expiresAt }));
  }

  /** Releases the holdings no longer needed, then renews the others in one statement. */
  private async renewAll(): Promise<void> {
    const renewing: Array<[string, Holding]> = [];
    for (const [name, h] of [...this.held]) {
      if (this.held.get(name) !== h) continue;
      if (h.use.stillNeeded && Date.now() - h.acquiredAt > this.ttlMs && !h.use.stillNeeded()) await this.release(name, h.fence.term);
      else renewing.push([name, h]);
    }
    let renewed: Map<string, Date>;
    try {
      renewed = await renewLeases(
        this.db,
        renewing.map(([, h]) => h.fence),
        this.ttlMs,
      );
    } catch (err) {
      // The database is unreachable: keep trying while the leases may still be ours.
      this.log.warn({ err, leases: renewing.length }, 'could not renew the leases');
      return;
    }
    for (const [name, h] of renewing) {
      if (this.held.get(name) !== h) continue;
      const expiresAt = renewed.get(name);
      if (expiresAt) h.expiresAt = expiresAt;
      else this.lost(name, h);
    }
  }

  /** A renewal found the term taken over: this node stops acting on the lease. */
  private lost(name: string, h: Holding): void {
    this.held.delete(name);
    this.ended.set(name, h.fence);
    this.log.error({ lease: name, term: h.fence.term }, 'lease taken over by another node: this node stops acting on it');
    try {
      h.use.onLost?.();
    } catch (err) {
      this.log.error({ err, lease: name }, 'handling a lost lease failed');
    }
  }
}
