import { randomBytes } from 'node:crypto';
import { notifyNodes, type Db } from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Small messages between the nodes of one desk (docs/adr/0012): ids, never the data (PostgreSQL's
 * NOTIFY payload is capped near 8 kB). Each sender numbers its messages per channel; a receiver that
 * finds a number missing, or whose connection to the bus was re-made, is told to resync from the
 * database. PostgreSQL LISTEN/NOTIFY backs it; the same interface could be NATS or Redis.
 */
export interface NodeBus {
  /** Sends to every other node listening on the channel (not to this one). */
  publish(channel: string, body: Record<string, unknown>): void;
  /**
   * `onMessage` for each message of another node; `onGap` when some may have been missed (a sender's
   * number skipped, the bus reconnected): the receiver then reads what it needs from the database.
   */
  subscribe(channel: string, onMessage: (body: Record<string, unknown>) => void, onGap: () => void): Promise<void>;
  close(): Promise<void>;
}

/** Most bytes a payload may have (PostgreSQL refuses 8000 and more). */
const MAX_PAYLOAD_BYTES = 7_900;

/** The envelope's own fields: the sender's node id, its incarnation (a restart numbers from 1 again) and the number. */
interface Envelope {
  n: string;
  i: string;
  s: number;
}

export class PgNodeBus implements NodeBus {
  /** This process among the node's incarnations. */
  private readonly incarnation = randomBytes(4).toString('hex');
  private readonly sent = new Map<string, number>();
  /** Per channel, per sender incarnation: the last number received. */
  private readonly received = new Map<string, Map<string, number>>();
  private readonly unsubscribe: Array<() => Promise<void>> = [];
  /** Notifications in flight, in order (a later one must not overtake an earlier one). */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly nodeId: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  publish(channel: string, body: Record<string, unknown>): void {
    const s = (this.sent.get(channel) ?? 0) + 1;
    this.sent.set(channel, s);
    const envelope: Envelope = { n: this.nodeId, i: this.incarnation, s };
    const payload = JSON.stringify({ ...body, ...envelope });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      // A caller bug; the number is used, so the receivers see a gap and resync.
      this.log.error({ channel, bytes: Buffer.byteLength(payload) }, 'node bus message too large: not sent');
      return;
    }
    this.sending = this.sending
      .then(() => notifyNodes(this.db, channel, payload))
      .catch((err: unknown) => this.log.warn({ err, channel }, 'node bus: notification not sent; the other nodes resync at the next one'));
  }

  async subscribe(channel: string, onMessage: (body: Record<string, unknown>) => void, onGap: () => void): Promise<void> {
    let last = this.received.get(channel);
    if (!last) this.received.set(channel, (last = new Map()));
    const seen = last;
    const gap = () => {
      try {
        onGap();
      } catch (err) {
        this.log.error({ err, channel }, 'node bus: resync failed');
      }
    };
    const stop = await this.db.listen(
      channel,
      (payload) => {
        let msg: Record<string, unknown> & Partial<Envelope>;
        try {
          msg = JSON.parse(payload) as Record<string, unknown> & Partial<Envelope>;
        } catch {
          this.log.warn({ channel }, 'node bus: unreadable message ignored');
          return;
        }
        if (typeof msg.n !== 'string' || typeof msg.i !== 'string' || typeof msg.s !== 'number') return;
        if (msg.n === this.nodeId && msg.i === this.incarnation) return;
        const sender = `${msg.n}/${msg.i}`;
        const prior = seen.get(sender);
        seen.set(sender, msg.s);
        // A sender first heard of now may have sent before this node listened: nothing to resync then.
        if (prior !== undefined && msg.s !== prior + 1) {
          this.log.warn({ channel, sender, expected: prior + 1, got: msg.s }, 'node bus: messages missed; resyncing from the database');
          gap();
        }
        const { n: _n, i: _i, s: _s, ...body } = msg;
        try {
          onMessage(body);
        } catch (err) {
          this.log.error({ err, channel }, 'node bus: handling a message failed');
        }
      },
      () => {
        this.log.warn({ channel }, 'node bus: listening again after the connection dropped; resyncing from the database');
        gap();
      },
    );
    this.unsubscribe.push(stop);
  }

  async close(): Promise<void> {
    for (const stop of this.unsubscribe.splice(0)) await stop();
    await this.sending;
  }
}
