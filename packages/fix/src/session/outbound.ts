import { Tag } from '@fixdesk/fix-codes';
import { formatUtcTimestamp } from '../codec/values';
import type { MessageStore, StoredMessage } from '../store/message-store';
import { DoNotSend, type Application } from './application';
import type { Clock } from './clock';
import type { SessionLog } from './log';
import { ADMIN_MSG_TYPES, getField, type OutgoingMessage, type SessionCodec } from './message';
import type { SessionID } from './session-id';

/**
 * The outbound pipeline of a session: number, persist, write. Every message that takes a MsgSeqNum
 * goes through `submit`, whichever way it was sent (one at a time, in a batch, pipelined, or reserved
 * by a caller that persists it in its own commit); the ways differ only in who persists the record,
 * who waits for the write, and what a failed store write does to the connection.
 *
 * Guarantees: a message is persisted (with the next sender number) before its bytes are written;
 * bytes leave in MsgSeqNum order (the wire chain); a message that cannot be encoded takes no number;
 * copies (resends, gap fills, a refused Logon's Logout) reuse numbers and never move the next one.
 */

/** The byte channel a session writes to; FixConnection implements it. */
export interface SessionTransport {
  readonly remoteAddress: string;
  /** Queues bytes. Undefined when it can take more at once, else a promise that resolves once it can. */
  write(bytes: Buffer): Promise<void> | undefined;
  /** Flushes, then closes. */
  end(reason: string): void;
}

/** A number taken by Session.reserveSend: the caller persists `record` in its own commit, then settles. */
export interface SendReservation {
  readonly msgSeqNum: number;
  /** The message as the store keeps it (raw bytes, numbers, ClOrdID and OrderID for the audit). */
  readonly record: StoredMessage;
  /** The store's creation time when the number was taken: a reset since then makes the number void. */
  readonly storeCreationTime: Date;
  /**
   * The caller's commit holding `record` succeeded: write the bytes. Resolves true once written, false
   * when the connection was gone by then (the message waits in the store for a resend).
   */
  committed(): Promise<boolean>;
  /** The caller's commit failed: nothing holds this number, so the connection is dropped. */
  failed(err: unknown): void;
}

/** An application message waiting to be sent with others queued back to back. */
export interface QueuedSend {
  readonly message: OutgoingMessage;
  readonly resolve: (seq: number) => void;
  readonly reject: (err: unknown) => void;
}

/** What the pipeline reads of the session's connection, and what it asks of the session. */
export interface OutboundLink {
  /** The current connection, if any. */
  transport(): SessionTransport | undefined;
  /** Application messages are written only while logged on; admin messages whenever connected. */
  loggedOn(): boolean;
  /** A store write failed outside any event: drop the connection in an event of its own. */
  queueDisconnect(reason: string): void;
  /** A store write failed while the current event waits for it: drop the connection now. */
  disconnectNow(reason: string): Promise<void>;
}

export interface OutboundDeps {
  readonly id: SessionID;
  readonly store: MessageStore;
  readonly app: Application;
  readonly log: SessionLog;
  readonly clock: Clock;
  readonly codec: SessionCodec;
}

/** An outbound message as encoded: the bytes for the socket and the same as text for the store and log. */
interface Encoded {
  readonly bytes: Buffer;
  /** One character per byte (latin1), as StoredMessage.raw. */
  readonly raw: string;
}

/** A message that took a number: its record, and its place in the wire chain. */
interface Submitted {
  readonly seq: number;
  readonly record: StoredMessage;
  /** The record's store write (or the caller's commit). */
  readonly stored: Promise<void>;
  /** True once written, false when not written (no connection, logged out, wire broken); rejects when the store write failed. */
  readonly written: Promise<boolean>;
}

/** What a failed store write of a submitted message does to the wire. */
const enum OnStoreFailure {
  /** Only this message fails (a send the caller awaits; the caller's event handles the error). */
  Keep,
  /** Nothing more is written on this connection (batches, pipelined and reserved sends). */
  Break,
}

const ignore = (): void => {};

export class Outbound {
  private next = 1;
  private sentAt = 0;
  /** The header fields every outbound message carries as they are (shared, never changed). */
  private readonly senderField: readonly [number, string];
  private readonly targetField: readonly [number, string];
  /**
   * Socket writes in MsgSeqNum order: each waits for its own store write and, while wirePending says
   * one is still on its way, for the write before it (the last one queued; it may reject).
   */
  private wireLast: Promise<boolean> | undefined;
  private wirePending = 0;
  /** A store write of an outbound message failed: nothing more is written on this connection. */
  private wireBroken = false;
  /** The connection is being dropped for a failed store write (reported once per connection). */
  private failureReported = false;

  constructor(
    private readonly d: OutboundDeps,
    private readonly link: OutboundLink,
  ) {
    this.senderField = [Tag.SenderCompID, d.id.senderCompID];
    this.targetField = [Tag.TargetCompID, d.id.targetCompID];
  }

  /** The MsgSeqNum the next message will take. */
  get nextSenderMsgSeqNum(): number {
    return this.next;
  }

  /** Sets the next number in memory (the caller has made it durable, or read it from the store). */
  setNextSenderMsgSeqNum(next: number): void {
    this.next = next;
  }

  /** When bytes last went to the socket (for heartbeats). */
  get lastSentAt(): number {
    return this.sentAt;
  }

  /** True while bytes wait in the wire chain. */
  get busy(): boolean {
    return this.wirePending > 0;
  }

  /** True once a store write failed on this connection: nothing more is written to it. */
  get broken(): boolean {
    return this.wireBroken;
  }

  /** A new connection: the clock for heartbeats starts now and the wire may be written again. */
  connected(now: number): void {
    this.sentAt = now;
    this.wireBroken = false;
    this.failureReported = false;
  }

  // ---------------------------------------------------------------------------------------------
  // The one send path

  /**
   * Encodes the message under the next number, takes the number (only once encoding succeeded, so a
   * message that cannot be encoded uses up none), starts persisting the record (the store's write, or
   * `persisted` when the caller makes it durable itself) and queues the bytes in the wire chain: they
   * are written once the record is durable and every earlier message was written. Numbers are taken
   * before any store write, so sends running side by side get distinct numbers; the store keeps
   * writes in issue order, so they are written in number order.
   */
  private submit(message: OutgoingMessage, admin: boolean, onStoreFailure: OnStoreFailure, persisted?: Promise<void>): Submitted {
    const seq = this.next;
    const sendingTime = formatUtcTimestamp(this.d.clock.now());
    const encoded = this.encode(message, seq, sendingTime);
    this.next = seq + 1;
    const record = this.record(message, seq, sendingTime, encoded.raw);
    const stored = persisted ?? this.d.store.saveOutbound(record);
    // With nothing else on its way to the wire, only this message's own store write is waited for.
    const before = this.wirePending > 0 ? this.wireLast : undefined;
    // While it waits for the write before, a failed store write must not count as unhandled.
    if (before) stored.catch(ignore);
    this.wirePending += 1;
    const written = this.writeWhenStored(before, stored, this.link.transport(), encoded, admin, onStoreFailure);
    this.wireLast = written;
    return { seq, record, stored, written };
  }

  /**
   * Writes the message once `stored` resolved and every earlier message was written. Only to the
   * connection that was current when the message took its number, and application messages only
   * while logged on (else they wait in the store for a resend). Rejects, writing nothing, when the
   * store write failed.
   */
  private async writeWhenStored(
    before: Promise<boolean> | undefined,
    stored: Promise<void>,
    transport: SessionTransport | undefined,
    encoded: Encoded,
    admin: boolean,
    onStoreFailure: OnStoreFailure,
  ): Promise<boolean> {
    try {
      if (before) await before.then(ignore, ignore);
      try {
        await stored;
      } catch (err) {
        // Only the connection the number was taken on: a newer one starts from the durable numbers.
        if (onStoreFailure === OnStoreFailure.Break && this.link.transport() === transport) this.wireBroken = true;
        throw err;
      }
      if (!this.wireBroken && transport && this.link.transport() === transport && (admin || this.link.loggedOn())) {
        const taken = this.write(encoded);
        if (taken) await taken;
        return true;
      }
      return false;
    } finally {
      this.wirePending -= 1;
    }
  }

  /** Resolves once every message handed to the wire chain was written (or dropped). */
  async settled(): Promise<void> {
    while (this.wirePending > 0) await this.wireLast?.then(ignore, ignore);
  }

  // ---------------------------------------------------------------------------------------------
  // The ways to send, all through submit

  /** An admin message (toAdmin hook, then sent and awaited). */
  sendAdmin(message: OutgoingMessage): Promise<number> {
    this.d.app.toAdmin?.(message, this.d.id);
    return this.sendAwaited(message);
  }

  /** An application message (toApp hook: DoNotSend resolves 0), sent and awaited. */
  sendApp(message: OutgoingMessage): Promise<number> {
    try {
      this.d.app.toApp?.(message, this.d.id, false);
    } catch (err) {
      return err instanceof DoNotSend ? Promise.resolve(0) : Promise.reject(err);
    }
    return this.sendAwaited(message);
  }

  /** Resolves with the number once the message was written (or kept for a resend); a failed store write rejects. */
  private async sendAwaited(message: OutgoingMessage): Promise<number> {
    const sent = this.submit(message, ADMIN_MSG_TYPES.has(message.msgType), OnStoreFailure.Keep);
    try {
      await sent.written;
    } catch (err) {
      // Nothing went out under this number: it is free again unless a later send took the next one.
      if (this.next === sent.seq + 1) this.next = sent.seq;
      throw err;
    }
    return sent.seq;
  }

  /**
   * Application messages queued back to back: every number taken and every store write issued at
   * once (one store round for all), the bytes written in order as the writes commit. A failed store
   * write fails that message, stops the writing and drops the connection (the peer resynchronises
   * from the durable numbers at the next logon); the messages that were persisted count as sent, as
   * they would be while logged out. `pipelined` (settings.pipelineSends): the caller's event does not
   * wait for the writes, and a failure drops the connection in an event of its own.
   */
  async sendBatch(batch: readonly QueuedSend[], pipelined: boolean): Promise<void> {
    const sent: Array<{ q: QueuedSend; s: Submitted }> = [];
    for (const q of batch) {
      try {
        this.d.app.toApp?.(q.message, this.d.id, false);
      } catch (err) {
        if (err instanceof DoNotSend) q.resolve(0);
        else q.reject(err);
        continue;
      }
      let s: Submitted;
      try {
        s = this.submit(q.message, false, OnStoreFailure.Break);
      } catch (err) {
        q.reject(err);
        continue;
      }
      if (pipelined) {
        const failedStore = s.stored.then(
          () => false,
          () => true,
        );
        s.written.then(
          () => q.resolve(s.seq),
          (err: unknown) => {
            q.reject(err);
            void failedStore.then((storeFailed) => storeFailed && this.storeFailed(err));
          },
        );
      } else sent.push({ q, s });
    }
    let failure: { readonly error: unknown } | undefined;
    for (const { q, s } of sent) {
      try {
        await s.written;
      } catch (err) {
        failure ??= { error: err };
        q.reject(err);
        continue;
      }
      q.resolve(s.seq);
    }
    if (failure) {
      const text = errorText(failure.error);
      this.d.log.onEvent(`message store failed while sending: ${text}`);
      await this.link.disconnectNow(`message store failed: ${text}`);
    }
  }

  /**
   * Takes the next number for an application message whose record the caller persists in its own
   * commit (see Session.reserveSend); undefined when the toApp hook vetoes or fails, or the message
   * cannot be encoded (the caller then sends the usual way and gets the usual answer).
   */
  reserve(message: OutgoingMessage, storeCreationTime: Date): SendReservation | undefined {
    try {
      this.d.app.toApp?.(message, this.d.id, false);
    } catch {
      return undefined;
    }
    let resolveStored!: () => void;
    let rejectStored!: (err: unknown) => void;
    const stored = new Promise<void>((resolve, reject) => {
      resolveStored = resolve;
      rejectStored = reject;
    });
    const reservedOn = this.link.transport();
    let s: Submitted;
    try {
      s = this.submit(message, false, OnStoreFailure.Break, stored);
    } catch {
      return undefined;
    }
    const written = s.written;
    written.catch(ignore);
    let settled = false;
    return {
      msgSeqNum: s.seq,
      record: s.record,
      storeCreationTime,
      committed: () => {
        if (settled) return written;
        settled = true;
        resolveStored();
        return written;
      },
      failed: (err: unknown) => {
        if (settled) return;
        settled = true;
        rejectStored(err);
        // Only the connection the number was taken on is affected; a newer one reloaded the numbers.
        if (this.link.transport() === reservedOn) this.storeFailed(err);
      },
    };
  }

  /** A store write failed outside any event: nothing more is written, and the connection is dropped. */
  private storeFailed(err: unknown): void {
    this.wireBroken = true;
    if (this.failureReported) return;
    this.failureReported = true;
    const text = errorText(err);
    this.d.log.onEvent(`message store failed while sending: ${text}`);
    this.link.queueDisconnect(`message store failed: ${text}`);
  }

  // ---------------------------------------------------------------------------------------------
  // Copies: numbers reused, audited only, written at once (resends, gap fills, a refused Logon's Logout)

  /**
   * Encodes `message` under an already used number, keeps it in the audit and writes it to the current
   * connection; the next sender number does not move. `bodyOrder: 'asGiven'` re-sends a stored body
   * byte for byte (it was written in QuickFIX order when first sent).
   */
  async sendCopy(
    message: OutgoingMessage,
    seq: number,
    sendingTime: string,
    bodyOrder: 'quickfix' | 'asGiven' = 'quickfix',
  ): Promise<void> {
    const encoded = this.encode(message, seq, sendingTime, bodyOrder);
    await this.d.store.auditOutbound(this.record(message, seq, sendingTime, encoded.raw));
    const taken = this.write(encoded);
    if (taken) await taken;
  }

  // ---------------------------------------------------------------------------------------------
  // Encoding and writing

  private header(seq: number, extra: ReadonlyArray<readonly [number, string]>, sendingTime: string): Array<readonly [number, string]> {
    // By tag number, the order they go out in, so the codec has nothing to sort unless extras come along.
    const header: Array<readonly [number, string]> = [
      [Tag.MsgSeqNum, String(seq)],
      this.senderField,
      [Tag.SendingTime, sendingTime],
      this.targetField,
    ];
    for (let i = 0; i < extra.length; i++) header.push(extra[i]!);
    return header;
  }

  /** The codec's bytes (a buffer it never writes again) go to the socket as they are. */
  private encode(message: OutgoingMessage, seq: number, sendingTime: string, bodyOrder: 'quickfix' | 'asGiven' = 'quickfix'): Encoded {
    const bytes = this.d.codec.encode(
      this.d.id.beginString,
      message.msgType,
      this.header(seq, message.header, sendingTime),
      message.body,
      bodyOrder,
    );
    return { bytes, raw: bytes.toString('latin1') };
  }

  private record(message: OutgoingMessage, seq: number, sendingTime: string, raw: string): StoredMessage {
    return {
      direction: 'TX',
      msgSeqNum: seq,
      msgType: message.msgType,
      senderCompID: this.d.id.senderCompID,
      targetCompID: this.d.id.targetCompID,
      sendingTime,
      clOrdID: getField(message.body, Tag.ClOrdID),
      brokerOrderID: getField(message.body, Tag.OrderID),
      raw,
    };
  }

  /** Hands the bytes to the socket; undefined when it can take more at once (see SessionTransport.write). */
  private write(encoded: Encoded): Promise<void> | undefined {
    const transport = this.link.transport();
    if (!transport) return undefined;
    this.sentAt = this.d.clock.now();
    this.d.log.onOutgoing(encoded.raw);
    return transport.write(encoded.bytes);
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export { ADMIN_MSG_TYPES };
