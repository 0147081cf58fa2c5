import { deskPresence, replaceNodePresence, type Db } from '@fixdesk/db';
import type { OnlineUser } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { NodeBus } from '../cluster/node-bus';

/** A node's browser connections changed (the envelope only: the others read the table). */
const PRESENCE_CHANNEL = 'fixdesk_presence';

/** Users online over the whole desk, as the WebSocket hub reports them. */
export interface Presence {
  /** This node's signed-in connections now (user id → count); resolves once recorded. */
  record(connections: ReadonlyMap<number, number>): Promise<void>;
  /** The users connected to any live node. */
  online(): Promise<OnlineUser[]>;
}

/**
 * Users online desk-wide (docs/adr/0012), kept in the database: each node replaces its own rows of
 * `browser_presence` when its connections change (writes coalesce: a burst of sign-ins is one or two
 * writes) and tells the other nodes on the bus, which then send their browsers the new count. A
 * node's rows count while its node lease is live, so a node that died drops out when its lease runs
 * out, with no message needed and no size limit on how many users there are.
 */
export class DeskPresence implements Presence {
  private latest: ReadonlyMap<number, number> = new Map();
  /** What the last successful write recorded (see keyOf). */
  private lastWritten: string | undefined;
  private dirty = false;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly nodeId: string,
    private readonly log: FastifyBaseLogger,
    private readonly bus?: NodeBus,
  ) {}

  /** Empties what a previous process of this node left, and follows the other nodes' changes. */
  async start(othersChanged: () => void): Promise<void> {
    await this.record(new Map());
    await this.bus?.subscribe(PRESENCE_CHANNEL, othersChanged, othersChanged);
  }

  record(connections: ReadonlyMap<number, number>): Promise<void> {
    this.latest = connections;
    this.dirty = true;
    return (this.writing ??= this.drain());
  }

  async online(): Promise<OnlineUser[]> {
    return deskPresence(this.db, this.nodeId);
  }

  private async drain(): Promise<void> {
    try {
      let changed = false;
      while (this.dirty) {
        this.dirty = false;
        const written = keyOf(this.latest);
        await replaceNodePresence(this.db, this.nodeId, this.latest);
        changed ||= written !== this.lastWritten;
        this.lastWritten = written;
      }
      // The others are told only of a change (the heartbeat's rewrite of the same rows is not one).
      if (changed) this.bus?.publish(PRESENCE_CHANNEL, {});
    } catch (err) {
      this.log.warn(
        { err },
        "could not record this node's browser connections; the count of users online is this node's own until the next change",
      );
      throw err;
    } finally {
      this.writing = undefined;
    }
  }
}

/** A node's connections as one comparable text: user ids and counts, in id order. */
function keyOf(connections: ReadonlyMap<number, number>): string {
  return [...connections]
    .sort(([a], [b]) => a - b)
    .map(([user, n]) => `${user}:${n}`)
    .join(',');
}
