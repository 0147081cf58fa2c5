// Leases with a fencing term (docs/adr/0012): what exactly one node may own at a time, a client's FIX
// session or a desk-wide job, timed by the database's clock. The SQL of acquiring, renewing and
// releasing, and the one fence check every guarded write carries, live here.
import type { Queryable } from './db';
import { pgArray } from './pg-array';

/** One holding of a lease: the lease's name and the term this acquisition got. */
export interface LeaseFence {
  readonly lease: string;
  /** 0 never matches a row (terms start at 1): the fence of a node that never held the lease. */
  readonly term: number;
}

export interface LeaseRow {
  readonly name: string;
  readonly owner: string;
  readonly term: number;
  readonly acquiredAt: Date;
  readonly expiresAt: Date;
  /** Whether expires_at is still ahead on the database's clock. */
  readonly live: boolean;
  /** A handover in progress (or one that lapsed unused): the node the lease is kept for, and until when. */
  readonly reservedFor: string | null;
  readonly reservedUntil: Date | null;
}

export type AcquireResult = { readonly acquired: true; readonly lease: LeaseRow } | { readonly acquired: false; readonly heldBy: LeaseRow };

/** The lease of a FIX session, by its id from our side. */
export function fixSessionLeaseName(id: {
  readonly beginString: string;
  readonly senderCompID: string;
  readonly targetCompID: string;
}): string {
  return `fix:${id.beginString}:${id.senderCompID}:${id.targetCompID}`;
}

/** The lease of a job that must run on one node of the desk at a time. */
export function jobLeaseName(job: string): string {
  return `job:${job}`;
}

/** The prefix of node leases' names. */
export const NODE_LEASE_PREFIX = 'node:';

/**
 * The lease a running node holds on itself (renewed like the others): the desk's live nodes are the
 * holders of live node leases, and its acquisition time says since when a node has been up.
 */
export function nodeLeaseName(nodeId: string): string {
  return `${NODE_LEASE_PREFIX}${nodeId}`;
}

/** What a lease's name says it guards (the inverse of fixSessionLeaseName, jobLeaseName and nodeLeaseName). */
export function leaseSubject(
  name: string,
):
  | { kind: 'fix'; beginString: string; senderCompID: string; targetCompID: string }
  | { kind: 'job'; job: string }
  | { kind: 'node'; nodeId: string }
  | undefined {
  if (name.startsWith('job:')) return { kind: 'job', job: name.slice(4) };
  if (name.startsWith(NODE_LEASE_PREFIX)) return { kind: 'node', nodeId: name.slice(NODE_LEASE_PREFIX.length) };
  if (!name.startsWith('fix:')) return undefined;
  const [beginString, senderCompID, ...rest] = name.slice(4).split(':');
  if (!beginString || !senderCompID || !rest.length) return undefined;
  return { kind: 'fix', beginString, senderCompID, targetCompID: rest.join(':') };
}

interface RawLease {
  name: string;
  owner: string;
  term: number;
  acquired_at: Date;
  expires_at: Date;
  live: boolean;
  reserved_for: string | null;
  reserved_until: Date | null;
}

const COLUMNS = 'name, owner, term, acquired_at, expires_at, expires_at > now() AS live, reserved_for, reserved_until';

const toRow = (r: RawLease): LeaseRow => ({
  name: r.name,
  owner: r.owner,
  term: r.term,
  acquiredAt: r.acquired_at,
  expiresAt: r.expires_at,
  live: r.live,
  reservedFor: r.reserved_for,
  reservedUntil: r.reserved_until,
});

/** A reservation that still binds: for another node than `owner`, not lapsed, and its node live. */
const RESERVED_FOR_ANOTHER = (owner: string) => `(l.reserved_for IS NOT NULL AND l.reserved_for <> ${owner} AND l.reserved_until > now()
        AND EXISTS (SELECT 1 FROM leases n WHERE n.name = '${NODE_LEASE_PREFIX}' || l.reserved_for AND n.expires_at > now()))`;

/**
 * Takes the lease for `owner` for `ttlMs` when it is free, expired, or already `owner`'s (a restarted
 * node reclaims its own at once), unless it is reserved for another live node (a handover in
 * progress: only that node may take it until the reservation lapses; the reserved node's acquisition
 * ends the reservation). Every acquisition gets the next term, which fences off any earlier holding,
 * the same owner's included: a node must not acquire again what it holds (it renews). Otherwise
 * answers who holds it (or whom it is kept for).
 */
export async function acquireLease(db: Queryable, name: string, owner: string, ttlMs: number): Promise<AcquireResult> {
  const { rows } = await db.query<RawLease>(
    `INSERT INTO leases AS l (name, owner, term, expires_at)
     VALUES ($1, $2, 1, now() + $3::double precision * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE
        SET owner = excluded.owner, term = l.term + 1, acquired_at = now(), renewed_at = now(), expires_at = excluded.expires_at,
            reserved_for = CASE WHEN l.reserved_for = excluded.owner THEN NULL ELSE l.reserved_for END,
            reserved_until = CASE WHEN l.reserved_for = excluded.owner THEN NULL ELSE l.reserved_until END
      WHERE (l.owner = excluded.owner OR l.expires_at <= now()) AND NOT ${RESERVED_FOR_ANOTHER('excluded.owner')}
     RETURNING ${COLUMNS}`,
    [name, owner, ttlMs],
  );
  if (rows[0]) return { acquired: true, lease: toRow(rows[0]) };
  const held = await db.query<RawLease>(`SELECT ${COLUMNS} FROM leases WHERE name = $1`, [name]);
  // Released or expired between the two statements: the caller may simply try again.
  return { acquired: false, heldBy: toRow(held.rows[0]!) };
}

/**
 * Extends a holding by `ttlMs` from now; undefined when the term is no longer the lease's (taken over).
 * A holding renewed after it had expired (its node was paused) counts as held from now: acquired_at is
 * when the lease has been held without a break since (a node lease's says since when the node is up).
 */
export async function renewLease(db: Queryable, fence: LeaseFence, ttlMs: number): Promise<Date | undefined> {
  return (await renewLeases(db, [fence], ttlMs)).get(fence.lease);
}

/**
 * Renews several holdings in one statement (a node's every lease, each third of the TTL: one
 * statement however many sessions it holds). Answers the new expiry of each one renewed, by lease
 * name; a holding missing from the answer was taken over. The rows are locked by the fence's CTE, in
 * the order every store write locks them, so a renewal and a store write never wait in a cycle.
 */
export async function renewLeases(db: Queryable, fences: readonly LeaseFence[], ttlMs: number): Promise<Map<string, Date>> {
  if (fences.length === 0) return new Map();
  const { rows } = await db.query<{ name: string; expires_at: Date }>(
    `WITH ${fenceCte(1, 2, 'UPDATE')}
     UPDATE leases l SET expires_at = now() + $3::double precision * interval '1 millisecond', renewed_at = now(),
            acquired_at = CASE WHEN l.expires_at <= now() THEN now() ELSE l.acquired_at END
       FROM fence WHERE l.name = fence.name
     RETURNING l.name, l.expires_at`,
    [pgArray(fences.map((f) => f.lease)), pgArray(fences.map((f) => f.term)), ttlMs],
  );
  return new Map(rows.map((r) => [r.name, r.expires_at]));
}

/**
 * Ends a holding now: any node may acquire the lease from here on. The term stays the row's until
 * then, so a write of this holding still in flight lands unless another node has taken over.
 */
export async function releaseLease(db: Queryable, fence: LeaseFence): Promise<boolean> {
  const r = await db.query('UPDATE leases SET expires_at = least(expires_at, now()) WHERE name = $1 AND term = $2', [
    fence.lease,
    fence.term,
  ]);
  return r.rowCount > 0;
}

/** Every lease, by name, with whether it is live on the database's clock. */
export async function listLeases(db: Queryable): Promise<LeaseRow[]> {
  const { rows } = await db.query<RawLease>(`SELECT ${COLUMNS} FROM leases ORDER BY name`);
  return rows.map(toRow);
}

/** The leases of these names (those that exist). */
export async function getLeases(db: Queryable, names: readonly string[]): Promise<LeaseRow[]> {
  if (names.length === 0) return [];
  const { rows } = await db.query<RawLease>(`SELECT ${COLUMNS} FROM leases WHERE name = ANY($1::text[])`, [pgArray(names)]);
  return rows.map(toRow);
}

/**
 * Keeps a lease this holding has (the term still the row's, not expired) for `target` for `ms`: the
 * handover of a client's session. The holder then logs its client out and releases the lease; the
 * client's next logon can be taken by `target` only (see acquireLease). False when not held any more.
 */
export async function reserveLease(db: Queryable, fence: LeaseFence, target: string, ms: number): Promise<boolean> {
  const r = await db.query(
    `UPDATE leases SET reserved_for = $3, reserved_until = now() + $4::double precision * interval '1 millisecond'
      WHERE name = $1 AND term = $2 AND expires_at > now()`,
    [fence.lease, fence.term, target, ms],
  );
  return r.rowCount > 0;
}

/** Withdraws the reservation made under this holding (a handover that did not take place). */
export async function cancelReservation(db: Queryable, fence: LeaseFence): Promise<void> {
  await db.query('UPDATE leases SET reserved_for = NULL, reserved_until = NULL WHERE name = $1 AND term = $2', [fence.lease, fence.term]);
}

/** A live node of the desk (it holds its node lease): since when, and whether for `settleMs` already. */
export interface LiveNode {
  readonly nodeId: string;
  readonly upSince: Date;
  readonly settled: boolean;
}

/** The desk's live nodes, by id. */
export async function liveNodes(db: Queryable, settleMs: number): Promise<LiveNode[]> {
  const { rows } = await db.query<{ name: string; acquired_at: Date; settled: boolean }>(
    `SELECT name, acquired_at, acquired_at <= now() - $2::double precision * interval '1 millisecond' AS settled
       FROM leases WHERE starts_with(name, $1) AND expires_at > now() ORDER BY name`,
    [NODE_LEASE_PREFIX, settleMs],
  );
  return rows.map((r) => ({ nodeId: r.name.slice(NODE_LEASE_PREFIX.length), upSince: r.acquired_at, settled: r.settled }));
}

/** The error a fenced write fails with (SQLSTATE check_violation, this message prefix). */
export const FENCED_OUT = 'fenced out: the lease was taken over';

/** Whether an error is a write refused by its fence. */
export function isFencedOut(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith(FENCED_OUT);
}

/**
 * A CTE (named `fence`) that share-locks each lease row whose term is still the fence's, for a
 * statement whose writes those leases guard; `names` and `terms` are the numbers of two array
 * parameters. The lock orders the statement against a takeover: an acquisition waits for the
 * statement to commit, and a statement behind a committed acquisition re-reads the row and finds the
 * term changed. Pair it with `fenceHolds` (the statement fails unless every fence still holds).
 * Rows are always locked in name order, so statements taking several never wait in a cycle; a
 * renewal takes them `FOR UPDATE` (renewLeases).
 */
export function fenceCte(names: number, terms: number, lock: 'SHARE' | 'UPDATE' = 'SHARE'): string {
  return `fence AS (
  SELECT l.name FROM leases l JOIN unnest($${names}::text[], $${terms}::bigint[]) AS f(name, term) ON l.name = f.name AND l.term = f.term
  ORDER BY l.name FOR ${lock} OF l
)`;
}

/** The expression that raises FENCED_OUT unless all `count` (a parameter number) fences hold. */
export function fenceHolds(count: number): string {
  return `fixdesk_assert((SELECT count(*) FROM fence) = $${count}::int, '${FENCED_OUT}')`;
}

/** The parameters fenceCte and fenceHolds take: names, terms, count (distinct fences). */
export function fenceParams(fences: Iterable<LeaseFence>): [string, string, number] {
  const unique = new Map<string, number>();
  for (const f of fences) {
    const prior = unique.get(f.lease);
    // Two different terms of one lease in a write: one of them cannot hold.
    if (prior !== undefined && prior !== f.term) unique.set(f.lease, -1);
    else unique.set(f.lease, f.term);
  }
  return [pgArray([...unique.keys()]), pgArray([...unique.values()]), unique.size];
}

/** Inside a transaction: fails with FENCED_OUT unless every fence holds (and keeps their rows share-locked to its end). */
export async function checkFences(tx: Queryable, fences: Iterable<LeaseFence>): Promise<void> {
  const [names, terms, count] = fenceParams(fences);
  if (count === 0) return;
  await tx.query(`WITH ${fenceCte(1, 2)} SELECT ${fenceHolds(3)}`, [names, terms, count]);
}
