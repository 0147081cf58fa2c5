import { cancelReservation, fixSessionLeaseName, getLeases, liveNodes, reserveLease, type Db } from '@fixdesk/db';
import type { SessionID } from '@fixdesk/fix';
import type { FastifyBaseLogger } from 'fastify';
import type { LeaseKeeper } from './lease-keeper';
import { preferredNode } from './preferred-node';

/** How long a handed-over session's lease is kept for its target (while the target is live). */
const HANDOVER_RESERVATION_MS = 30_000;

/** The client sessions a node serves, as the rebalancer sees them (the FIX gateway). */
export interface ServedSessions {
  /** The sessions logged on here, and whether each may be handed over now (idle, nothing in flight). */
  served(): Array<{ id: SessionID; ready: boolean }>;
  /**
   * Logs the client out with a Logout saying its session moves to `target` (the lease goes at the
   * logout), if the session is still here and quiet now; answers whether it did. Until `until` the
   * client's next logon here is refused.
   */
  handOver(id: SessionID, target: string, until: number): Promise<boolean>;
}

/**
 * Moves a client's session to the node it belongs on when that node joined the desk (or came back)
 * after the session was placed (docs/adr/0012, "Rebalancing"). Every pass (once per lease TTL), for
 * each session this node serves: its preferred node is the rendezvous-hash winner among the live nodes
 * that have been up for the settling period (2 × TTL); the session moves when that is another node
 * that has been up since after this node took the session (a client's own choice among the nodes that
 * were there stands, so a session moves at most once per change of the desk's nodes, and never back
 * and forth), this node itself has settled, the session is idle with nothing in flight, its client is
 * not the desk's own simulated client (which knows this node only), and no earlier
 * handover to that node (since it started) went unused. The move: the lease is reserved for the
 * target, the client gets a Logout saying so, the lease goes at the logout; the client's next logon
 * can only be taken by the target (its second address, or a TCP load balancer, gets it there).
 */
export class SessionRebalancer {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly leases: LeaseKeeper,
    private readonly sessions: ServedSessions,
    private readonly log: FastifyBaseLogger,
    /**
     * Whether a client's session must stay on this node: the desk's own simulated client (the FIX
     * Client of the Simulation menu), whose one address is this node, would only be refused at the
     * target's reservation and come back.
     */
    private readonly staysHere: (compId: string) => boolean = () => false,
  ) {}

  /** The settling period: how long a node must have been up before sessions are placed on it or moved by it. */
  get settleMs(): number {
    return 2 * this.leases.ttlMs;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.pass ??= this.rebalance()
        .then(() => {})
        .catch((err: unknown) => this.log.warn({ err }, 'rebalancing pass failed'))
        .finally(() => {
          this.pass = undefined;
        });
    }, this.leases.ttlMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.pass;
  }

  /** One pass; answers the sessions handed over (by lease name, to which node). */
  async rebalance(): Promise<Array<{ lease: string; to: string }>> {
    const served = this.sessions.served().filter((s) => this.leases.holds(fixSessionLeaseName(s.id)));
    if (served.length === 0) return [];
    const nodes = await liveNodes(this.db, this.settleMs);
    const me = nodes.find((n) => n.nodeId === this.leases.nodeId);
    // A node that is starting (or just came back) does not move anything: the desk is in flux.
    if (!me?.settled) return [];
    const settled = nodes.filter((n) => n.settled);
    const upSince = new Map(settled.map((n) => [n.nodeId, n.upSince]));
    const rows = new Map(
      (
        await getLeases(
          this.db,
          served.map((s) => fixSessionLeaseName(s.id)),
        )
      ).map((r) => [r.name, r]),
    );
    const moved: Array<{ lease: string; to: string }> = [];
    for (const s of served) {
      const name = fixSessionLeaseName(s.id);
      const row = rows.get(name);
      const target = preferredNode(name, upSince.keys());
      if (!row || !target || target === this.leases.nodeId || !s.ready || this.staysHere(s.id.targetCompID)) continue;
      const term = this.leases.fence(name).term;
      if (row.owner !== this.leases.nodeId || row.term !== term) continue;
      const targetUp = upSince.get(target)!;
      // The client chose this node while the target was already up: its choice stands.
      if (targetUp <= row.acquiredAt) continue;
      // A handover to this target since it started went unused (the client could not reach it): not again.
      if (row.reservedFor === target && row.reservedUntil && row.reservedUntil > targetUp) continue;
      const until = Date.now() + HANDOVER_RESERVATION_MS;
      if (!(await reserveLease(this.db, { lease: name, term }, target, HANDOVER_RESERVATION_MS))) continue;
      const loggedOut = await this.sessions.handOver(s.id, target, until).catch((err: unknown) => {
        this.log.warn({ err, lease: name }, 'could not log the client out for its handover');
        return false;
      });
      if (!loggedOut) {
        // Not quiet any more, gone, or the logout failed: no handover, so the session stays bookable here.
        await cancelReservation(this.db, { lease: name, term }).catch((err: unknown) =>
          this.log.warn({ err, lease: name }, 'could not withdraw a handover reservation; it lapses by itself'),
        );
        continue;
      }
      this.log.info({ lease: name, to: target }, 'handed a client session over to the node it belongs on');
      moved.push({ lease: name, to: target });
    }
    return moved;
  }
}
