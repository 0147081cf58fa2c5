import type { OutgoingMessage } from './message';
import type { Outbound, QueuedSend } from './outbound';
import type { SessionSettings } from './session-settings';

/**
 * The application's sends (Session.send) on their way into the session's event queue. Sends queued
 * back to back, with no other event between them, form one batch: persisted together (one store
 * round), then written in order, with the same order and guarantees as one by one. A send while the
 * current event waits for an application callback goes out at once (queued behind that event, it
 * could wait for itself), after starting the batches queued before it.
 */

/** What the send queue asks of its session. */
export interface SendQueueHost {
  readonly key: string;
  settings(): SessionSettings;
  loggedOn(): boolean;
  /** The current event waits for an application callback (fromApp, fromAdmin, onLogon, onLogout). */
  inAppCallback(): boolean;
  /** Runs `task` as an event of the session's queue (which closes the open batch first). */
  enqueue(task: () => Promise<void>): Promise<void>;
}

const SETTLED = Promise.resolve();

export class SendQueue {
  /** Sends queued since the last other event: they go out as one batch (one store round). */
  private openBatch: QueuedSend[] | undefined;
  /** Send batches waiting in the event queue, oldest first (a send during a callback starts them first). */
  private readonly queuedBatches: QueuedSend[][] = [];

  constructor(
    private readonly out: Outbound,
    private readonly host: SendQueueHost,
  ) {}

  /** A batch is still open: a send now would join it. */
  get batchOpen(): boolean {
    return this.openBatch !== undefined;
  }

  /** Another event was queued: the sends after it start a new batch (their order is kept). */
  closeBatch(): void {
    this.openBatch = undefined;
  }

  /** See Session.send. */
  send(message: OutgoingMessage): Promise<number> {
    if (this.host.inAppCallback()) {
      // Sends queued earlier go first, so every caller's sends keep their order.
      this.startQueued();
      return this.sendOne(message);
    }
    if (this.openBatch) {
      const batch = this.openBatch;
      return new Promise((resolve, reject) => batch.push({ message, resolve, reject }));
    }
    const batch: QueuedSend[] = [];
    const sent = new Promise<number>((resolve, reject) => batch.push({ message, resolve, reject }));
    this.queuedBatches.push(batch);
    let taken: QueuedSend[] = [];
    this.host
      .enqueue(() => {
        this.unqueue(batch);
        taken = batch.splice(0);
        return taken.length ? this.sendBatch(taken) : SETTLED;
      })
      .catch((err: unknown) => {
        this.unqueue(batch);
        for (const q of [...taken, ...batch.splice(0)]) q.reject(err);
      });
    this.openBatch = batch;
    return sent;
  }

  private unqueue(batch: QueuedSend[]): void {
    if (this.openBatch === batch) this.openBatch = undefined;
    const i = this.queuedBatches.indexOf(batch);
    if (i >= 0) this.queuedBatches.splice(i, 1);
  }

  /**
   * Starts the send batches still waiting in the event queue, oldest first. Each takes its numbers
   * before its first await, so a send right behind gets a higher number and is written after them.
   */
  private startQueued(): void {
    while (this.queuedBatches.length > 0) {
      const batch = this.queuedBatches[0]!;
      this.unqueue(batch);
      const taken = batch.splice(0);
      if (!taken.length) continue;
      this.sendBatch(taken).catch((err: unknown) => {
        for (const q of taken) q.reject(err);
      });
    }
  }

  private sendOne(message: OutgoingMessage): Promise<number> {
    if (!this.host.loggedOn() && this.host.settings().whenNotLoggedOn === 'reject')
      return Promise.reject(new Error(`${this.host.key} is not logged on`));
    return this.out.sendApp(message);
  }

  /**
   * A batch through the outbound pipeline. One message without settings.pipelineSends goes the
   * one-at-a-time way (a failed store write fails only that send).
   */
  private async sendBatch(batch: QueuedSend[]): Promise<void> {
    const pipelined = this.host.settings().pipelineSends;
    if (!pipelined && batch.length === 1) {
      const q = batch[0]!;
      try {
        q.resolve(await this.sendOne(q.message));
      } catch (err) {
        q.reject(err);
      }
      return;
    }
    if (!this.host.loggedOn() && this.host.settings().whenNotLoggedOn === 'reject') {
      for (const q of batch) q.reject(new Error(`${this.host.key} is not logged on`));
      return;
    }
    await this.out.sendBatch(batch, pipelined);
  }
}
