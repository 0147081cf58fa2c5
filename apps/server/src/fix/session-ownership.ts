import { fixSessionLeaseName, type ConnectorRow, type LeaseRow } from '@fixdesk/db';
import type { Acceptor, SessionID } from '@fixdesk/fix';
import type { LeaseKeeper } from '../cluster/lease-keeper';
import type { ClientSessions } from './client-sessions';
import type { SessionActivity } from './session-activity';

// Which node serves a client's session (docs/adr/0012): the one holding the session's lease. Claimed
// at logon, kept while the session is connected here, handed over to another node on the rebalancer's
// word, borrowed for an operator's change to the numbers of a session logged on nowhere.

/** Past another node's lease expiry before a held Logon asks for the lease again (the database's clock may be a little behind). */
const LEASE_EXPIRY_MARGIN_MS = 30;

/** The session id of a connector's FIX session, from our side. */
export function sessionIdOf(c: Pick<ConnectorRow, 'comp_id' | 'target_comp_id'>): SessionID {
  return { beginString: 'FIX.4.4', senderCompID: c.target_comp_id, targetCompID: c.comp_id };
}

export class SessionOwnership {
  /**
   * Sessions being handed over to another node (logged out for it, lease not yet released): to which,
   * and until when at most (as the lease's reservation: a logout that never completes strands nothing).
   */
  private readonly movingTo = new Map<string, { target: string; until: number }>();

  constructor(
    private readonly leases: LeaseKeeper,
    private readonly nodeId: string,
    private readonly acceptor: () => Acceptor | undefined,
    private readonly activity: SessionActivity,
    private readonly sessions: ClientSessions,
  ) {}

  /** Whether this node holds the lease of a session (so the session, if logged on, is here). */
  holds(name: string): boolean {
    return this.leases.holds(name);
  }

  /**
   * Takes (or keeps) the lease of a client's session for this node; answers why not when another
   * live node holds it. The lease is kept while the session is connected here (renewed by the keeper)
   * and goes at its logout; a lease this node lost to a takeover disconnects the session at once.
   */
  async claim(id: SessionID): Promise<string | undefined> {
    const name = fixSessionLeaseName(id);
    // Logged out for its move and not yet released: the client's next logon belongs on the target.
    const moving = this.movingTo.get(id.targetCompID);
    if (moving && moving.until > Date.now()) return `Session moving to node ${moving.target}`;
    this.movingTo.delete(id.targetCompID);
    const use = {
      stillNeeded: () =>
        this.acceptor()
          ?.list()
          .some((s) => s.sessionID.targetCompID === id.targetCompID && s.connected) ?? false,
      onLost: () =>
        void this.acceptor()
          ?.disconnect(id, 'session lease taken over by another node')
          .catch(() => {}),
    };
    let r = await this.leases.acquire(name, use);
    if (r.acquired) return undefined;
    // Kept for the node the session is moving to (not held by another live node): refused at once.
    const moved = (held: LeaseRow) =>
      held.reservedFor && held.reservedUntil && (!held.live || held.owner === this.nodeId)
        ? `Session moving to node ${held.reservedFor} (kept for it until ${held.reservedUntil.toISOString()})`
        : undefined;
    const movedTo = moved(r.heldBy);
    if (movedTo) return movedTo;
    // The owner's lease runs out within one TTL. A node that died keeps its sessions until then, and
    // a client that came here early would otherwise try again only after its reconnect interval, or
    // its other addresses first (the dead node's among them): seconds added to every takeover. So the
    // Logon waits for that expiry and asks once more; a live owner has renewed meanwhile and the Logon
    // is refused as before. The database's clock decides; this node's only times the wait.
    const wait = r.heldBy.expiresAt.getTime() - Date.now();
    if (wait <= this.leases.ttlMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait) + LEASE_EXPIRY_MARGIN_MS));
      r = await this.leases.acquire(name, use);
      if (r.acquired) return undefined;
    }
    const { owner, term, expiresAt } = r.heldBy;
    return moved(r.heldBy) ?? `Session owned by node ${owner} (lease term ${term} until ${expiresAt.toISOString()})`;
  }

  /** The client logged out: the session may now log on at any node (only at its target after a handover: the lease is reserved for it). */
  async release(id: SessionID): Promise<void> {
    await this.leases.release(fixSessionLeaseName(id));
    this.movingTo.delete(id.targetCompID);
  }

  /** The sessions logged on here, and whether each may be handed over to another node now (quiet, nothing in flight). */
  served(): Array<{ id: SessionID; ready: boolean }> {
    const now = Date.now();
    return this.activity.loggedOnClients().flatMap((compId) => {
      const id = this.sessions.idOf(compId);
      return id ? [{ id, ready: this.activity.isQuiet(compId, now) }] : [];
    });
  }

  /**
   * Logs the client out, telling it its session moves to another node (docs/adr/0012, Rebalancing),
   * if it is still logged on here and quiet at this moment (the rebalancer's look was a few database
   * reads ago); answers whether the Logout went out. Until `until` (the lease's reservation) this node
   * refuses the client's next logon, which belongs on the target.
   */
  async handOver(id: SessionID, target: string, until: number): Promise<boolean> {
    const acceptor = this.acceptor();
    if (!acceptor || !this.activity.isQuiet(id.targetCompID)) return false;
    this.movingTo.set(id.targetCompID, { target, until });
    try {
      await acceptor.logout(id, `Session moving to node ${target} of the desk: please log on again`);
      return true;
    } catch (err) {
      this.movingTo.delete(id.targetCompID);
      throw err;
    }
  }

  /**
   * Runs an operator's change to a session's numbers under its lease: the one this node holds (the
   * client is logged on here), or one taken for the change and given back after. Refused while
   * another live node owns the session: the change belongs on that node.
   */
  async underLease<T>(c: ConnectorRow, fn: () => Promise<T>): Promise<T> {
    const name = fixSessionLeaseName(sessionIdOf(c));
    if (this.leases.holds(name)) return fn();
    const r = await this.leases.acquire(name);
    if (!r.acquired) throw new Error(`the session of ${c.comp_id} is owned by node ${r.heldBy.owner}: make the change there`);
    try {
      return await fn();
    } finally {
      // Unless the client logged on meanwhile (its logon then holds the same lease).
      if (!this.activity.isLoggedOn(c.comp_id)) await this.leases.release(name, r.lease.term);
    }
  }
}
