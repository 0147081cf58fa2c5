import { latestOrderActivity, ordersChangedAfter, refusedOrdersAfter, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderChangesOut, OrderPublisher, StoredChange } from '../orders/publisher';
import type { NodeBus } from './node-bus';

/**
 * Order changes between nodes: `c`, a list of [order id, report id, action id, new (1/0)]; `r`, ids of
 * orders refused at intake.
 */
export const ORDERS_CHANNEL = 'fixdesk_orders';
/**
 * A client's messages wait in the outbox for the node its session is on: `c`, the client's comp id, or
 * a drop copy session's whose copies wait in their rows (docs/adr/0017).
 */
export const OUTBOX_CHANNEL = 'fixdesk_outbox';

/** Changes per message: four small numbers each, well under the payload cap. */
const CHANGES_PER_MESSAGE = 200;
/**
 * How long this node's changes gather before they go out in one notification. Each NOTIFY is a
 * transaction of its own that wakes every listening backend and node: one per intake batch was
 * hundreds a second at a steady 2,000 orders/s, the database's busiest statement after the batches
 * themselves. The other nodes' blotters hear of an order this much later at most.
 */
const FAN_OUT_EVERY_MS = 25;
/** Tries of a batch's reads, a growing pause apart, before it is given up. */
const PUBLISH_ATTEMPTS = 3;
const RETRY_DELAY_MS = 500;
/** Orders read from the database at once, at most. */
const MAX_BATCH = 1_000;
/** Orders (and refused orders) published again at most after a gap; past it the browsers reload. */
const RESYNC_LIMIT = 2_000;
/**
 * Ids (orders, their reports and actions, refused orders) waiting to be published, at most: past it
 * the queue is dropped and what it held is read again by a resync (bounded by RESYNC_LIMIT).
 */
const QUEUE_CAP = 20_000;

type Change = [orderId: number, erId: number | null, actionId: number | null, isNew: 0 | 1];

/** What the fan-out reads from the database: where a resync starts, and what changed since. */
export interface OrderActivity {
  latest(): Promise<{ er: number; action: number; refused: number }>;
  changedAfter(
    after: { er: number; action: number },
    limit: number,
  ): Promise<{ orderIds: number[]; er: number; action: number; truncated: boolean }>;
  refusedAfter(after: number, limit: number): Promise<{ ids: number[]; last: number }>;
}

export function orderActivity(db: Db): OrderActivity {
  return {
    latest: () => latestOrderActivity(db),
    changedAfter: (after, limit) => ordersChangedAfter(db, after, limit),
    refusedAfter: (after, limit) => refusedOrdersAfter(db, after, limit),
  };
}

/** An order's queued changes, merged: published as one entry of its batch (the order read once). */
interface QueuedOrder {
  orderId: number;
  isNew: boolean;
  erIds: number[];
  actionIds: number[];
}

export interface OrderFanOutOptions {
  /** This node's browsers are told to reload (a WebSocket `resync`) when more was missed than is replayed. */
  reloadBrowsers(reason: string): void;
  queueCap?: number;
  resyncLimit?: number;
  retryDelayMs?: number;
}

/**
 * The blotter across nodes (docs/adr/0012): the order changes made on this node go to the others by
 * ids, batched per tick (one NOTIFY for a burst of intake); the changes of the others are read from
 * the database and published to this node's browsers. After a gap, the orders with reports or actions
 * newer than the last ones heard of, and the orders refused at intake since the last heard of, are
 * published again; when there are more than RESYNC_LIMIT, the browsers are told to reload instead.
 * The queue of changes waiting to be published holds one entry per order (its changes merged) and at
 * most QUEUE_CAP ids: past that (a database slower than the other nodes' intake) it is dropped and a
 * resync from the oldest change it held reads the same orders again.
 */
export class OrderFanOut implements OrderChangesOut {
  private pending: Change[] = [];
  private pendingRefused: number[] = [];
  /** The next notification's timer, while changes wait for it. */
  private flushTimer: NodeJS.Timeout | undefined;
  /** The newest report, action and refused order ids heard of from the other nodes (a resync starts after them). */
  private seen = { er: 0, action: 0, refused: 0 };
  /** The other nodes' changes waiting to be published, by order, in the order first heard of. */
  private queued = new Map<number, QueuedOrder>();
  private queuedRefused = new Set<number>();
  /** Ids held by `queued` and `queuedRefused` (orders, reports, actions, refused orders). */
  private queuedIds = 0;
  /** Where a resync must start to cover what the queue held when it was dropped; undefined: none due. */
  private resyncFrom: { er: number; action: number; refused: number } | undefined;
  private publishing = false;
  /** The earliest start of the resyncs whose orders are queued: a dropped queue is read again from there. */
  private resyncFloor: { er: number; action: number; refused: number } | undefined;
  private publisher: OrderPublisher | undefined;
  private readonly queueCap: number;
  private readonly resyncLimit: number;
  private readonly retryDelayMs: number;

  constructor(
    private readonly bus: NodeBus,
    private readonly activity: OrderActivity,
    private readonly log: FastifyBaseLogger,
    private readonly options: OrderFanOutOptions,
  ) {
    this.queueCap = options.queueCap ?? QUEUE_CAP;
    this.resyncLimit = options.resyncLimit ?? RESYNC_LIMIT;
    this.retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;
  }

  /** Hands a change made on this node to the other nodes (OrderPublisher's fanOut). */
  changed(orderId: number, erId: number | null, actionId: number | null, isNew: boolean): void {
    this.pending.push([orderId, erId, actionId, isNew ? 1 : 0]);
    this.flushSoon();
  }

  /** Hands orders refused at intake on this node to the other nodes (OrderPublisher's fanOut). */
  refused(ids: readonly number[]): void {
    for (const id of ids) this.pendingRefused.push(id);
    this.flushSoon();
  }

  private flushSoon(): void {
    this.flushTimer ??= setTimeout(() => this.flush(), FAN_OUT_EVERY_MS);
  }

  /** Sends what gathered: the changes, then the refused orders, each in messages of at most CHANGES_PER_MESSAGE. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const changes = this.pending;
    const refused = this.pendingRefused;
    this.pending = [];
    this.pendingRefused = [];
    for (let i = 0; i < changes.length; i += CHANGES_PER_MESSAGE)
      this.bus.publish(ORDERS_CHANNEL, { c: changes.slice(i, i + CHANGES_PER_MESSAGE) });
    for (let i = 0; i < refused.length; i += CHANGES_PER_MESSAGE)
      this.bus.publish(ORDERS_CHANNEL, { c: [], r: refused.slice(i, i + CHANGES_PER_MESSAGE) });
  }

  /** Listens for the other nodes' changes and publishes them through `publisher`. */
  async start(publisher: OrderPublisher): Promise<void> {
    this.publisher = publisher;
    this.seen = await this.activity.latest();
    await this.bus.subscribe(
      ORDERS_CHANNEL,
      (body) => {
        const changes: StoredChange[] = [];
        for (const [orderId, erId, actionId, isNew] of Array.isArray(body.c) ? (body.c as Change[]) : []) {
          if (erId !== null && erId > this.seen.er) this.seen.er = erId;
          if (actionId !== null && actionId > this.seen.action) this.seen.action = actionId;
          changes.push({ orderId, erId, actionId, isNew: isNew === 1 });
        }
        const refused = Array.isArray(body.r) ? (body.r as unknown[]).filter((id): id is number => typeof id === 'number') : [];
        for (const id of refused) if (id > this.seen.refused) this.seen.refused = id;
        this.enqueue(changes, refused);
      },
      () => void this.resync(),
    );
  }

  /** Ids waiting to be published (orders, their reports and actions, refused orders). */
  queueSize(): number {
    return this.queuedIds;
  }

  /**
   * Queues changes, an order's merged into its entry (its reports and actions kept, in order), and
   * publishes them a batch at a time: the changes heard while one batch is read make the next. Past
   * the cap, the queue is dropped for a resync starting before the oldest change it held.
   */
  private enqueue(changes: readonly StoredChange[], refused: readonly number[] = []): void {
    for (const c of changes) {
      let entry = this.queued.get(c.orderId);
      if (!entry) {
        entry = { orderId: c.orderId, isNew: false, erIds: [], actionIds: [] };
        this.queued.set(c.orderId, entry);
        this.queuedIds += 1;
      }
      if (c.isNew) entry.isNew = true;
      // Report and action ids are each one change's own: no two changes carry the same.
      if (c.erId !== null) {
        entry.erIds.push(c.erId);
        this.queuedIds += 1;
      }
      if (c.actionId !== null) {
        entry.actionIds.push(c.actionId);
        this.queuedIds += 1;
      }
    }
    for (const id of refused) {
      if (this.queuedRefused.has(id)) continue;
      this.queuedRefused.add(id);
      this.queuedIds += 1;
    }
    if (this.queuedIds > this.queueCap) this.dropQueue();
    this.drain();
  }

  /** Drops the queue; the resync due reads again every order it held (and what changed since). */
  private dropQueue(): void {
    let from = { ...(this.resyncFrom ?? this.seen) };
    // Orders a resync queued (no report or action of their own) are found again from where it started.
    if (this.resyncFloor) from = lowest(from, this.resyncFloor);
    for (const entry of this.queued.values()) {
      for (const id of entry.erIds) from.er = Math.min(from.er, id - 1);
      for (const id of entry.actionIds) from.action = Math.min(from.action, id - 1);
    }
    for (const id of this.queuedRefused) from.refused = Math.min(from.refused, id - 1);
    this.log.warn(
      { queued: this.queuedIds, cap: this.queueCap },
      "other nodes' order changes queued past the cap: dropped, read again by a resync",
    );
    this.queued.clear();
    this.queuedRefused.clear();
    this.queuedIds = 0;
    this.resyncFloor = undefined;
    this.resyncFrom = from;
  }

  private drain(): void {
    if (this.publishing || !this.publisher) return;
    const publisher = this.publisher;
    this.publishing = true;
    void (async () => {
      try {
        for (;;) {
          if (this.resyncFrom) {
            const from = this.resyncFrom;
            this.resyncFrom = undefined;
            await this.resyncFromIds(from);
            continue;
          }
          if (!this.queued.size && !this.queuedRefused.size) {
            this.resyncFloor = undefined;
            break;
          }
          const batch: StoredChange[] = [];
          for (const entry of this.queued.values()) {
            if (batch.length >= MAX_BATCH) break;
            this.queued.delete(entry.orderId);
            this.queuedIds -= 1 + entry.erIds.length + entry.actionIds.length;
            // The order once with its first report and action, then one change for each further one.
            const n = Math.max(1, entry.erIds.length, entry.actionIds.length);
            for (let i = 0; i < n; i++)
              batch.push({
                orderId: entry.orderId,
                erId: entry.erIds[i] ?? null,
                actionId: entry.actionIds[i] ?? null,
                isNew: i === 0 && entry.isNew,
              });
          }
          const refusedBatch = [...this.queuedRefused].slice(0, MAX_BATCH);
          for (const id of refusedBatch) this.queuedRefused.delete(id);
          this.queuedIds -= refusedBatch.length;
          await this.withRetries(() => publisher.publishStored(batch), batch.length, 'changes');
          await this.withRetries(() => publisher.publishStoredRefusals(refusedBatch), refusedBatch.length, 'refused orders');
        }
      } finally {
        this.publishing = false;
      }
    })();
  }

  /**
   * A batch's reads, tried again after a database error (a dropped connection, a failover) before the
   * batches after it; given up after a few tries (logged: the browsers' next reload shows those orders).
   */
  private async withRetries(publish: () => Promise<void>, count: number, what: string): Promise<void> {
    if (count === 0) return;
    for (let attempt = 1; ; attempt++) {
      try {
        return await publish();
      } catch (err) {
        if (attempt >= PUBLISH_ATTEMPTS) {
          this.log.error({ err, count }, `publishing other nodes' ${what} failed ${attempt} times; given up (a reload shows them)`);
          return;
        }
        this.log.warn({ err, count, attempt }, `publishing other nodes' ${what} failed; trying again`);
        await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * attempt));
      }
    }
  }

  /** Messages were missed (a gap on the bus): what changed after the last heard of is published again. */
  private resync(): void {
    // A resync already due starts earlier and reads what this one would.
    this.resyncFrom = this.resyncFrom ? lowest(this.resyncFrom, this.seen) : { ...this.seen };
    this.drain();
  }

  /**
   * The orders with reports or actions after `from`, and the orders refused at intake after it, queued
   * for publishing; more than the resync limit of either, and this node's browsers reload instead.
   */
  private async resyncFromIds(from: { er: number; action: number; refused: number }): Promise<void> {
    try {
      const [changed, refused] = await Promise.all([
        this.activity.changedAfter(from, this.resyncLimit),
        this.activity.refusedAfter(from.refused, this.resyncLimit),
      ]);
      this.seen = {
        er: Math.max(this.seen.er, changed.er),
        action: Math.max(this.seen.action, changed.action),
        refused: Math.max(this.seen.refused, refused.last),
      };
      if (changed.truncated || refused.ids.length >= this.resyncLimit) {
        // More than can be sent one by one: the browsers read the blotter again, from now on up to date.
        const latest = await this.activity.latest();
        this.seen = {
          er: Math.max(this.seen.er, latest.er),
          action: Math.max(this.seen.action, latest.action),
          refused: Math.max(this.seen.refused, latest.refused),
        };
        this.options.reloadBrowsers("More order changes of the desk's other nodes were missed than can be sent: reloading");
        this.log.warn({ limit: this.resyncLimit }, 'order changes of other nodes missed past the resync limit: browsers told to reload');
        return;
      }
      // Bounded by the resync limit, so never dropped for the cap on their own.
      this.resyncFloor = this.resyncFloor ? lowest(this.resyncFloor, from) : { ...from };
      for (const orderId of changed.orderIds) {
        if (this.queued.has(orderId)) continue;
        this.queued.set(orderId, { orderId, isNew: false, erIds: [], actionIds: [] });
        this.queuedIds += 1;
      }
      for (const id of refused.ids) {
        if (this.queuedRefused.has(id)) continue;
        this.queuedRefused.add(id);
        this.queuedIds += 1;
      }
      this.log.info(
        { orders: changed.orderIds.length, refused: refused.ids.length },
        'order changes of other nodes published again after a gap (queued)',
      );
    } catch (err) {
      this.log.error({ err }, "resync of other nodes' order changes failed");
    }
  }
}

function lowest(a: { er: number; action: number; refused: number }, b: { er: number; action: number; refused: number }) {
  return { er: Math.min(a.er, b.er), action: Math.min(a.action, b.action), refused: Math.min(a.refused, b.refused) };
}

/**
 * A client's reports made on another node (a broker's fill there) wait in the outbox until a node
 * the client is logged on to sends them: the node that could not send tells the others, and the one
 * with the session sends what is unsent for the client (as at a logon). Copies for a drop copy
 * session are announced the same way; the node it is logged on to reads them from their rows and sends
 * them as it sends its own (not flagged PossResend: they never left). After a gap, every client and
 * drop copy session logged on here is looked at.
 */
export async function relayWaitingMessages(
  bus: NodeBus,
  loggedOnHere: { isLive(compId: string): boolean; loggedOn(): string[] },
  outbox: { recover(compId: string): Promise<number> },
  log: FastifyBaseLogger,
  /** The drop copy sessions logged on here (docs/adr/0017): another node's copies for one of them are read from their rows. */
  dropCopies?: { serves(compId: string): boolean; wake(compId: string): void },
): Promise<void> {
  const send = (compId: string) => {
    if (dropCopies?.serves(compId)) return dropCopies.wake(compId);
    void outbox
      .recover(compId)
      .catch((err: unknown) => log.error({ err, compId }, "sending another node's reports failed; they go at the client's next logon"));
  };
  await bus.subscribe(
    OUTBOX_CHANNEL,
    (body) => {
      if (typeof body.c === 'string' && loggedOnHere.isLive(body.c)) send(body.c);
    },
    () => loggedOnHere.loggedOn().forEach(send),
  );
}
