import { latestOrderActivity, ordersChangedAfter, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderChangesOut, OrderPublisher, StoredChange } from '../orders/publisher';
import type { NodeBus } from './node-bus';

/**
 * Order changes between nodes: `c`, a list of [order id, report id, action id, new (1/0)]; `r`, ids of
 * orders refused at intake.
 */
export const ORDERS_CHANNEL = 'fixdesk_orders';
/** A client's messages wait in the outbox for the node its session is on: `c`, the client's comp id. */
export const OUTBOX_CHANNEL = 'fixdesk_outbox';

/** Changes per message: four small numbers each, well under the payload cap. */
const CHANGES_PER_MESSAGE = 200;
/** Tries of a batch's reads, a growing pause apart, before it is given up. */
const PUBLISH_ATTEMPTS = 3;
const RETRY_DELAY_MS = 500;
/** Changes read from the database at once, at most. */
const MAX_BATCH = 1_000;
/** Orders published again at most after a gap (the browsers reload the rest themselves). */
const RESYNC_LIMIT = 2_000;

type Change = [orderId: number, erId: number | null, actionId: number | null, isNew: 0 | 1];

/**
 * The blotter across nodes (docs/adr/0012): the order changes made on this node go to the others by
 * ids, batched per tick (one NOTIFY for a burst of intake); the changes of the others are read from
 * the database and published to this node's browsers. After a gap, the orders with reports or actions
 * newer than the last ones heard of are published again.
 */
export class OrderFanOut implements OrderChangesOut {
  private pending: Change[] = [];
  private flushing = false;
  /** The newest report and action ids heard of from the other nodes (a resync starts after them). */
  private seen = { er: 0, action: 0 };
  /** The other nodes' changes waiting to be published (while a batch is read, the next gathers here). */
  private queued: StoredChange[] = [];
  private queuedRefused: number[] = [];
  private publishing = false;

  constructor(
    private readonly bus: NodeBus,
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Hands a change made on this node to the other nodes (OrderPublisher's fanOut). */
  changed(orderId: number, erId: number | null, actionId: number | null, isNew: boolean): void {
    this.pending.push([orderId, erId, actionId, isNew ? 1 : 0]);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      const changes = this.pending;
      this.pending = [];
      for (let i = 0; i < changes.length; i += CHANGES_PER_MESSAGE) this.bus.publish(ORDERS_CHANNEL, { c: changes.slice(i, i + CHANGES_PER_MESSAGE) });
    });
  }

  /** Hands orders refused at intake on this node to the other nodes (OrderPublisher's fanOut). */
  refused(ids: readonly number[]): void {
    for (let i = 0; i < ids.length; i += CHANGES_PER_MESSAGE) this.bus.publish(ORDERS_CHANNEL, { c: [], r: ids.slice(i, i + CHANGES_PER_MESSAGE) });
  }

  /** Listens for the other nodes' changes and publishes them through `publisher`. */
  async start(publisher: OrderPublisher): Promise<void> {
    this.seen = await latestOrderActivity(this.db);
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
        this.publish(publisher, changes, refused);
      },
      () => void this.resync(publisher),
    );
  }

  /**
   * Publishes changes in the order they came (an order's new before its update), a batch at a time:
   * the changes heard while one batch is read from the database make the next batch.
   */
  private publish(publisher: OrderPublisher, changes: readonly StoredChange[], refused: readonly number[] = []): void {
    this.queued.push(...changes);
    this.queuedRefused.push(...refused);
    if (this.publishing) return;
    this.publishing = true;
    void (async () => {
      while (this.queued.length || this.queuedRefused.length) {
        const batch = this.queued.splice(0, MAX_BATCH);
        const refusedBatch = this.queuedRefused.splice(0, MAX_BATCH);
        await this.withRetries(() => publisher.publishStored(batch), batch.length, 'changes');
        await this.withRetries(() => publisher.publishStoredRefusals(refusedBatch), refusedBatch.length, 'refused orders');
      }
      this.publishing = false;
    })();
  }

  /**
   * A batch's reads, tried again after a database error (a dropped connection, a failover) before the
   * batches after it; given up after a few tries (logged: the browsers' next reload shows those orders).
   */
  private async withRetries(publish: () => Promise<void>, count: number, what: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await publish();
      } catch (err) {
        if (attempt >= PUBLISH_ATTEMPTS) {
          this.log.error({ err, count }, `publishing other nodes' ${what} failed ${attempt} times; given up (a reload shows them)`);
          return;
        }
        this.log.warn({ err, count, attempt }, `publishing other nodes' ${what} failed; trying again`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * attempt));
      }
    }
  }

  private async resync(publisher: OrderPublisher): Promise<void> {
    const from = { ...this.seen };
    try {
      const changed = await ordersChangedAfter(this.db, from, RESYNC_LIMIT);
      this.seen = { er: Math.max(this.seen.er, changed.er), action: Math.max(this.seen.action, changed.action) };
      this.publish(publisher, changed.orderIds.map((orderId) => ({ orderId, erId: null, actionId: null, isNew: false })));
      this.log.info({ orders: changed.orderIds.length }, 'order changes of other nodes published again after a gap (queued)');
    } catch (err) {
      this.log.error({ err }, 'resync of other nodes\' order changes failed');
    }
  }
}

/**
 * A client's reports made on another node (a broker's fill there) wait in the outbox until a node
 * the client is logged on to sends them: the node that could not send tells the others, and the one
 * with the session sends what is unsent for the client (as at a logon). After a gap, every client
 * logged on here is looked at.
 */
export async function relayWaitingMessages(
  bus: NodeBus,
  loggedOnHere: { isLive(compId: string): boolean; loggedOn(): string[] },
  outbox: { recover(compId: string): Promise<number> },
  log: FastifyBaseLogger,
): Promise<void> {
  const send = (compId: string) => void outbox.recover(compId).catch((err: unknown) => log.error({ err, compId }, "sending another node's reports failed; they go at the client's next logon"));
  await bus.subscribe(
    OUTBOX_CHANNEL,
    (body) => {
      if (typeof body.c === 'string' && loggedOnHere.isLive(body.c)) send(body.c);
    },
    () => loggedOnHere.loggedOn().forEach(send),
  );
}
