import { MsgType, Tag } from '@fixdesk/fix-codes';
import { formatUtcTimestamp, parseUtcTimestamp } from '../codec/values';
import type { MessageStore, StoredMessage } from '../store/message-store';
import { DoNotSend, type Application, type AppReceipt } from './application';
import type { Clock } from './clock';
import type { SessionLog } from './log';
import { ADMIN_MSG_TYPES, outgoing, type InboundMessage, type OutgoingMessage, type SessionCodec } from './message';
import { errorText, type Outbound } from './outbound';
import type { SessionID } from './session-id';
import type { SessionSettings } from './session-settings';
import type { HeaderProblem, InboundSequencing, Queued } from './session-state';

/**
 * Inbound sequencing of a session: the next expected MsgSeqNum and its persisting, the audit of what
 * arrived, the header checks of FIX 4.4 vol. 2, the queue of messages that arrived ahead of a gap,
 * pipelining of application messages (settings.pipelineApplication), and the answer to the peer's
 * ResendRequest. What a message means (the session rules) is the states' business; this module keeps
 * the numbers and the order.
 */

/**
 * An inbound message whose number is not persisted yet because an earlier one is still with the
 * application (settings.pipelineApplication). Messages the session finished itself wait here too,
 * already settled, so numbers are always persisted in order.
 */
interface Unconsumed {
  readonly message: InboundMessage;
  /** The next expected inbound number once this message counts as processed. */
  readonly next: number;
  /** Already in the audit (it waited behind a gap): only the number is left to persist. */
  readonly audited: boolean;
  settled: boolean;
  /** fromApp threw: the answer (Reject, BusinessMessageReject) goes out before the number is persisted. */
  failure: { readonly error: unknown } | undefined;
  /** What fromApp reported for the message's audit record. */
  receipt?: AppReceipt | undefined;
  readonly whenSettled: Promise<void>;
}

export interface InboundDeps {
  readonly id: SessionID;
  readonly store: MessageStore;
  readonly app: Application;
  readonly log: SessionLog;
  readonly clock: Clock;
  readonly codec: SessionCodec;
  readonly out: Outbound;
}

/** What inbound sequencing asks of the session. */
export interface InboundHost {
  /** The session's settings now (an acceptor may replace them at a logon). */
  settings(): SessionSettings;
  /** A connection is up. */
  connected(): boolean;
  /** fromApp failed: answer the peer (Reject or BusinessMessageReject). */
  answerAppFailure(message: InboundMessage, err: unknown): Promise<void>;
  sendReject(ref: InboundMessage, reason: string, text: string, refTagID?: number): Promise<void>;
  /** Logout with `text`, then close. */
  logoutAndDrop(text: string): Promise<unknown>;
  /** Runs `task` as an event of its own (sends queued before it may still join one batch). */
  queueTask(task: () => Promise<void>): Promise<void>;
  /** Drops the connection in an event of its own. */
  queueDisconnect(reason: string): void;
}

const SETTLED = Promise.resolve();

export class Inbound implements InboundSequencing {
  private nextTarget = 1;
  /** Inbound messages that arrived ahead of a gap, by MsgSeqNum. */
  private readonly queued = new Map<number, Queued>();
  /** While a gap is open: the highest MsgSeqNum seen, which the gap fill must reach. */
  private resendTarget = 0;
  private resendRequestTimes: number[] = [];
  /** When each inbound message arrived (for its audit record, written once it was processed). */
  private readonly arrivals = new WeakMap<InboundMessage, number>();

  /** Pipelining: inbound messages handed on whose numbers are not persisted yet, in MsgSeqNum order. */
  private readonly unconsumed: Unconsumed[] = [];
  private completionQueued = false;
  /** completeSettled is answering a failure: numbers behind it must wait for it. */
  private completing = false;
  /** Pipelining: the store writes persisting finished messages' numbers (never rejects). */
  private consumeWrites: Promise<void> = SETTLED;
  private consumeWritesPending = 0;
  private consumeFailure: { readonly error: unknown } | undefined;

  constructor(
    private readonly d: InboundDeps,
    private readonly host: InboundHost,
  ) {}

  private get settings(): SessionSettings {
    return this.host.settings();
  }

  /** The MsgSeqNum expected next. */
  get nextTargetMsgSeqNum(): number {
    return this.nextTarget;
  }

  /** Sets the expected number in memory (the caller has made it durable, or read it from the store). */
  setNextTargetMsgSeqNum(next: number): void {
    this.nextTarget = next;
  }

  /** Notes when a message arrived, for its audit record. */
  arrived(message: InboundMessage, at: number): void {
    this.arrivals.set(message, at);
  }

  private inboundRecord(message: InboundMessage, receipt?: AppReceipt): StoredMessage {
    return {
      direction: 'RX',
      msgSeqNum: Number(message.get(Tag.MsgSeqNum) ?? 0) || 0,
      msgType: message.msgType,
      senderCompID: message.get(Tag.SenderCompID) ?? '',
      targetCompID: message.get(Tag.TargetCompID) ?? '',
      sendingTime: message.get(Tag.SendingTime) ?? '',
      clOrdID: message.get(Tag.ClOrdID),
      brokerOrderID: message.get(Tag.OrderID) ?? receipt?.brokerOrderID,
      possDup: message.get(Tag.PossDupFlag) === 'Y',
      raw: message.rawText,
      receivedAt: this.arrivals.get(message),
    };
  }

  /** Audit only (a duplicate, a message queued behind a gap, a refused one). */
  async audit(message: InboundMessage): Promise<void> {
    await this.d.store.saveInbound(this.inboundRecord(message));
  }

  /** The message was processed: audit it (unless already audited on arrival) and persist the next number. */
  async consume(message: InboundMessage, next: number, audited = false, receipt?: AppReceipt): Promise<void> {
    if (this.unconsumed.length > 0) {
      // An earlier message is still with the application: this number is persisted after its.
      this.unconsumed.push({ message, next, audited, settled: true, failure: undefined, receipt, whenSettled: SETTLED });
      this.nextTarget = next;
      return;
    }
    if (audited) await this.d.store.setNextTargetMsgSeqNum(next);
    else await this.d.store.saveInbound(this.inboundRecord(message, receipt), next);
    this.nextTarget = next;
  }

  // ---------------------------------------------------------------------------------------------
  // Header checks

  /**
   * The first header check the message fails, or undefined (checked without waiting for anything).
   * The answers are QuickFIX's: a missing or empty CompID is rejected for that tag; a CompID or
   * SendingTime problem is rejected without RefTagID, then a Logout without Text ends the session.
   * `checkSeq` false: the MsgSeqNum is not looked at (SequenceReset in Reset mode ignores it).
   */
  headerProblem(message: InboundMessage, checkLatency: boolean, checkSeq = true): HeaderProblem | undefined {
    if (message.get(Tag.BeginString) !== this.d.id.beginString)
      return { logout: { why: 'Incorrect BeginString', text: 'Incorrect BeginString' } };
    if (checkSeq && msgSeqNum(message) === undefined)
      return { logout: { why: 'MsgSeqNum (34) missing or invalid', text: 'MsgSeqNum (34) missing or invalid' } };
    for (const tag of COMP_ID_TAGS) {
      const value = message.get(tag);
      if (value === undefined) return { reject: ['1', 'Required tag missing', tag] };
      if (value === '') return { reject: ['4', 'Tag specified without a value', tag] };
    }
    if (message.get(Tag.SenderCompID) !== this.d.id.targetCompID || message.get(Tag.TargetCompID) !== this.d.id.senderCompID) {
      return { reject: ['9', 'CompID problem'], logout: { why: 'CompID problem', text: undefined } };
    }
    const sendingTime = parseUtcTimestamp(message.get(Tag.SendingTime) ?? '');
    if (Number.isNaN(sendingTime)) {
      const present = message.get(Tag.SendingTime) !== undefined;
      return { reject: [present ? '6' : '1', present ? 'Incorrect data format for value' : 'Required tag missing', Tag.SendingTime] };
    }
    if (checkLatency && this.settings.checkLatency && Math.abs(this.d.clock.now() - sendingTime) > this.settings.maxLatencySec * 1000) {
      return { reject: ['10', 'SendingTime accuracy problem'], logout: { why: 'SendingTime accuracy problem', text: undefined } };
    }
    if (message.get(Tag.PossDupFlag) === 'Y' && message.msgType !== MsgType.SequenceReset) {
      const orig = message.get(Tag.OrigSendingTime);
      if (orig === undefined) return { reject: ['1', 'Required tag missing', Tag.OrigSendingTime] };
      const origTime = parseUtcTimestamp(orig);
      if (Number.isNaN(origTime)) return { reject: ['6', 'Incorrect data format for value', Tag.OrigSendingTime] };
      if (origTime > sendingTime)
        return {
          reject: ['10', 'SendingTime accuracy problem'],
          logout: { why: 'OrigSendingTime later than SendingTime', text: undefined },
        };
    }
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // The gap queue

  /** Messages waiting behind a gap. */
  get queuedCount(): number {
    return this.queued.size;
  }

  /** True while a gap is open (messages are waiting or the gap fill has not reached the target yet). */
  get gapOpen(): boolean {
    return this.queued.size > 0 || this.nextTarget <= this.resendTarget;
  }

  /** Keeps a message that arrived ahead of the expected number (already audited). */
  hold(seq: number, entry: Queued): void {
    this.queued.set(seq, entry);
  }

  /** The gap fill must reach at least `seq`; true when that is further than it had to before. */
  extendGap(seq: number): boolean {
    if (seq <= this.resendTarget) return false;
    this.resendTarget = seq;
    return true;
  }

  /** The queued message that is now in sequence, taken off the queue (those below it are dropped). */
  takeReady(): Queued | undefined {
    for (const key of [...this.queued.keys()]) if (key < this.nextTarget) this.queued.delete(key);
    const entry = this.queued.get(this.nextTarget);
    if (entry) this.queued.delete(this.nextTarget);
    return entry;
  }

  /** Forgets the gap (a new connection, a reset). */
  clearGap(): void {
    this.queued.clear();
    this.resendTarget = 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Pipelining (settings.pipelineApplication)

  /**
   * Whether an inbound message may be handled while earlier ones are still with the application: an
   * application message of a pipelined type, exactly in sequence, and the pipeline not full (the
   * session adds: logged on, in session or filling a gap). Everything else first waits for the
   * pipeline (settle), so admin messages, gaps, rejects and logouts see the session exactly as without
   * it. The peer's resent messages filling our gap are in sequence too: after a restart a client
   * resends hundreds of orders, and they overlap like any others (the messages queued behind the gap
   * wait for the pipeline before they are processed: drainQueue).
   */
  mayOverlap(message: InboundMessage): boolean {
    return (
      this.settings.pipelineApplication.includes(message.msgType) &&
      this.unconsumed.length < this.settings.maxPipelinedMessages &&
      msgSeqNum(message) === this.nextTarget
    );
  }

  /**
   * Hands an in-sequence application message to fromApp without waiting for it. The number moves on in
   * memory so the next message is in sequence; it is persisted once fromApp resolved and every earlier
   * number was persisted (completeSettled).
   */
  handOn(message: InboundMessage, next: number, audited: boolean): void {
    let settle!: () => void;
    const entry: Unconsumed = {
      message,
      next,
      audited,
      settled: false,
      failure: undefined,
      whenSettled: new Promise<void>((r) => (settle = r)),
    };
    this.unconsumed.push(entry);
    this.nextTarget = next;
    let result: ReturnType<Application['fromApp']>;
    try {
      // Not a callback the event waits for: its sends queue like any other caller's.
      result = this.d.app.fromApp(message, this.d.id);
    } catch (err) {
      result = Promise.reject(err);
    }
    Promise.resolve(result)
      .then(
        (receipt) => {
          entry.settled = true;
          entry.receipt = receipt || undefined;
        },
        (err: unknown) => {
          entry.settled = true;
          entry.failure = { error: err };
        },
      )
      .then(() => {
        settle();
        if (this.unconsumed[0] === entry) this.completeFinished();
      })
      .catch((err: unknown) => this.d.log.onEvent(`completing a handed-on message failed: ${errorText(err)}`));
  }

  private queueCompletion(): void {
    if (this.completionQueued) return;
    this.completionQueued = true;
    // Persisting inbound numbers has no order to keep with outbound sends: a batch stays open.
    this.host
      .queueTask(async () => {
        this.completionQueued = false;
        await this.completeSettled();
      })
      .catch((err: unknown) => this.d.log.onEvent(`completing handed-on messages failed: ${errorText(err)}`));
  }

  /**
   * Right when a handed-on message finished (outside any event): persists the numbers of the finished
   * messages at the head of the pipeline, in order, at once, so they share the commit of the report
   * the application queued for the same order. A failed message needs an answer sent from inside an
   * event: from there on the completion event takes over.
   */
  private completeFinished(): void {
    if (this.completing) {
      this.queueCompletion();
      return;
    }
    const done: Unconsumed[] = [];
    while (this.unconsumed[0]?.settled && !this.unconsumed[0].failure) done.push(this.unconsumed.shift()!);
    this.persistConsumed(done);
    if (this.unconsumed[0]?.settled) this.queueCompletion();
  }

  /**
   * Inside an event: answers the failures of the finished messages at the head of the pipeline and
   * persists their numbers, in order. The writes are not awaited here (the store keeps them in issue
   * order), so an outbound report queued right behind shares their commit; settle awaits them.
   */
  private async completeSettled(): Promise<void> {
    const done: Unconsumed[] = [];
    this.completing = true;
    try {
      while (this.unconsumed[0]?.settled) {
        const entry = this.unconsumed[0];
        // Not persisted past a failure whose answer could not be sent: it is tried again later.
        if (entry.failure) await this.host.answerAppFailure(entry.message, entry.failure.error);
        done.push(this.unconsumed.shift()!);
      }
    } finally {
      this.completing = false;
      this.persistConsumed(done);
    }
  }

  private persistConsumed(done: readonly Unconsumed[]): void {
    if (!done.length) return;
    // Only the last carries the next number: the others are audit records.
    const writes = done.map((e, i) => {
      const next = i === done.length - 1 ? e.next : undefined;
      if (!e.audited) return this.d.store.saveInbound(this.inboundRecord(e.message, e.receipt), next);
      return next === undefined ? SETTLED : this.d.store.setNextTargetMsgSeqNum(next);
    });
    this.consumeWritesPending += 1;
    const written = Promise.all(writes).then(
      () => {
        this.consumeWritesPending -= 1;
      },
      (err: unknown) => {
        this.consumeWritesPending -= 1;
        // The numbers stay behind in the store: after a reconnect the peer resends those messages
        // (PossDupFlag=Y) and the application recognises what it already has.
        this.consumeFailure ??= { error: err };
        this.d.log.onEvent(`could not persist inbound MsgSeqNum up to ${done.at(-1)!.next - 1}: ${errorText(err)}`);
        this.host.queueDisconnect('message store failed');
      },
    );
    this.consumeWrites = Promise.all([this.consumeWrites, written]).then(() => undefined);
  }

  /** Handed-on messages not finished, numbers not persisted, or a failure to report. */
  get busy(): boolean {
    return this.unconsumed.length > 0 || this.consumeWritesPending > 0 || this.consumeFailure !== undefined;
  }

  /**
   * Waits until every handed-on message is finished and its number persisted, and the wire chain is
   * empty (a barrier before any event that must see the session as if messages went one at a time).
   * Throws a store failure of the persisting writes, so the event fails and the connection is dropped.
   */
  async settle(): Promise<void> {
    while (this.unconsumed.length > 0) {
      const head = this.unconsumed[0]!;
      if (!head.settled) await head.whenSettled;
      await this.completeSettled();
    }
    if (this.consumeWritesPending > 0) await this.consumeWrites;
    await this.d.out.settled();
    const failure = this.consumeFailure;
    if (failure) {
      this.consumeFailure = undefined;
      throw failure.error;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Answering the peer's ResendRequest

  /**
   * Replays stored application messages (PossDupFlag=Y, OrigSendingTime = their original SendingTime,
   * fresh SendingTime) and replaces admin messages and missing numbers with coalesced GapFills. Nothing
   * here touches nextSenderMsgSeqNum: replays are copies, recorded for the audit only.
   */
  async answerResendRequest(message: InboundMessage): Promise<boolean> {
    // Everything numbered so far must be in the store before it is read back.
    await this.d.out.settled();
    const begin = Number(message.get(Tag.BeginSeqNo));
    const endRaw = Number(message.get(Tag.EndSeqNo));
    if (!Number.isSafeInteger(begin) || begin < 1 || !Number.isSafeInteger(endRaw) || endRaw < 0) {
      await this.host.sendReject(
        message,
        '5',
        'Value is incorrect (out of range) for this tag',
        Number.isSafeInteger(begin) && begin >= 1 ? Tag.EndSeqNo : Tag.BeginSeqNo,
      );
      return true;
    }
    const now = this.d.clock.now();
    this.resendRequestTimes = this.resendRequestTimes.filter((t) => now - t < 60_000);
    this.resendRequestTimes.push(now);
    if (this.resendRequestTimes.length > this.settings.maxResendRequestsPerMinute) {
      await this.host.logoutAndDrop(`Too many ResendRequests (more than ${this.settings.maxResendRequestsPerMinute} per minute)`);
      return false;
    }
    const lastSent = this.d.out.nextSenderMsgSeqNum - 1;
    const end = endRaw === 0 || endRaw > lastSent ? lastSent : endRaw;
    if (begin > end) {
      this.d.log.onEvent(`ResendRequest ${begin}-${endRaw}: nothing sent in that range (last sent ${lastSent})`);
      return true;
    }
    if (end - begin + 1 > this.settings.maxResendRange) {
      await this.host.sendReject(
        message,
        '5',
        `Resend range ${begin}-${end} exceeds ${this.settings.maxResendRange} messages`,
        Tag.EndSeqNo,
      );
      return true;
    }
    this.d.log.onEvent(`resending ${begin}-${end}`);
    let gapStart: number | undefined;
    for (let chunkStart = begin; chunkStart <= end; chunkStart += this.settings.resendChunkSize) {
      const chunkEnd = Math.min(end, chunkStart + this.settings.resendChunkSize - 1);
      const stored = new Map(
        (await this.d.store.outboundRange(chunkStart, chunkEnd, this.settings.resendChunkSize)).map((m) => [m.msgSeqNum, m]),
      );
      for (let seq = chunkStart; seq <= chunkEnd; seq++) {
        const replay = this.replayable(stored.get(seq));
        if (!replay) {
          gapStart ??= seq;
          continue;
        }
        if (gapStart !== undefined) {
          await this.sendGapFill(gapStart, seq);
          gapStart = undefined;
        }
        await this.resendOne(replay.message, replay.original);
        if (!this.host.connected()) return false;
      }
    }
    if (gapStart !== undefined) await this.sendGapFill(gapStart, end + 1);
    return this.host.connected();
  }

  /** The stored message rebuilt for resend, or undefined when a GapFill should stand in for it. */
  private replayable(stored: StoredMessage | undefined): { message: OutgoingMessage; original: StoredMessage } | undefined {
    if (!stored || ADMIN_MSG_TYPES.has(stored.msgType)) return undefined;
    let decoded: InboundMessage;
    try {
      decoded = this.d.codec.decode(Buffer.from(stored.raw, 'latin1'));
      if (decoded.garbled !== undefined) throw new Error(decoded.garbled);
    } catch (err) {
      this.d.log.onEvent(`stored MsgSeqNum ${stored.msgSeqNum} unreadable, gap-filled: ${errorText(err)}`);
      return undefined;
    }
    const origSendingTime = decoded.get(Tag.SendingTime) ?? stored.sendingTime;
    const header: Array<[number, string]> = [
      [Tag.PossDupFlag, 'Y'],
      [Tag.OrigSendingTime, origSendingTime],
    ];
    const body: Array<[number, string]> = [];
    for (const [tag, value] of decoded.allFields()) {
      if (REBUILT_TAGS.has(tag)) continue;
      if (this.d.codec.isHeaderTag(tag)) header.push([tag, value]);
      else body.push([tag, value]);
    }
    const message = outgoing(decoded.msgType, body, header);
    try {
      this.d.app.toApp?.(message, this.d.id, true);
    } catch (err) {
      if (err instanceof DoNotSend) return undefined;
      throw err;
    }
    return { message, original: stored };
  }

  private async resendOne(message: OutgoingMessage, original: StoredMessage): Promise<void> {
    const sendingTime = formatUtcTimestamp(this.d.clock.now());
    // The stored body goes out again byte for byte (it was written in QuickFIX order when first sent).
    await this.d.out.sendCopy(message, original.msgSeqNum, sendingTime, 'asGiven');
  }

  private async sendGapFill(seq: number, newSeqNo: number): Promise<void> {
    const sendingTime = formatUtcTimestamp(this.d.clock.now());
    const message = outgoing(
      MsgType.SequenceReset,
      [
        [Tag.GapFillFlag, 'Y'],
        [Tag.NewSeqNo, String(newSeqNo)],
      ],
      [
        [Tag.PossDupFlag, 'Y'],
        [Tag.OrigSendingTime, sendingTime],
      ],
    );
    this.d.app.toAdmin?.(message, this.d.id);
    await this.d.out.sendCopy(message, seq, sendingTime);
  }
}

/** Every message must name both CompIDs (checked before whether they are ours). */
const COMP_ID_TAGS = [Tag.TargetCompID, Tag.SenderCompID] as const;

/** Header and trailer fields a resend rebuilds. */
const REBUILT_TAGS = new Set<number>([
  Tag.BeginString,
  Tag.BodyLength,
  Tag.MsgType,
  Tag.SenderCompID,
  Tag.TargetCompID,
  Tag.MsgSeqNum,
  Tag.SendingTime,
  Tag.PossDupFlag,
  Tag.OrigSendingTime,
  Tag.CheckSum,
]);

/** MsgSeqNum (34) when it is 1 to 15 digits and at least 1 (read on every check of every message). */
export function msgSeqNum(message: InboundMessage): number | undefined {
  const raw = message.get(Tag.MsgSeqNum);
  if (raw === undefined || raw.length === 0 || raw.length > 15) return undefined;
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const digit = raw.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return n >= 1 ? n : undefined;
}
