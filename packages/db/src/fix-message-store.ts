// The FIX message store on PostgreSQL/PGlite: fix_session_state holds each session's numbers,
// fix_messages every message in and out (the compliance audit) and, for outbound ones, the copies a
// ResendRequest is answered from. The next sender number is the greater of the state row's and the
// highest number stored since (storedNextSenderSeq, docs/adr/0016): a reply persisted in an order's
// own commit writes its message row only, and locks no session row. Writes from all sessions are
// group-committed: whatever was queued while the previous flush ran goes into the next one, as a
// single statement (one round trip, one WAL flush), so a busy server pays one commit for many
// messages while each caller still learns only once its own write is durable. Writes land in the
// order they were issued.
import {
  formatUtcTimestamp,
  parseUtcTimestamp,
  sessionIdToString,
  StoreClosedError,
  type MessageStore,
  type MessageStoreFactory,
  type SequenceState,
  type SessionID,
  type StoredMessage,
} from '@fixdesk/fix';
import type { Db, Queryable } from './db';
import { checkFences, fenceCte, fenceHolds, fenceParams, type LeaseFence } from './leases';
import { pgArray } from './pg-array';

/** One change to the store; a write is a list of them that must land together. */
type Op =
  | { readonly kind: 'message'; readonly key: SessionKey; readonly m: StoredMessage; readonly possDup: boolean }
  /** `advance`: moved by a message sent (never lowers: a later number may have committed first); else set as is (operator). */
  | { readonly kind: 'senderSeq'; readonly key: SessionKey; readonly next: number; readonly advance: boolean }
  | { readonly kind: 'targetSeq'; readonly key: SessionKey; readonly next: number }
  | { readonly kind: 'reset'; readonly key: SessionKey; readonly creationTime: Date };

type SessionKey = readonly [beginString: string, senderCompID: string, targetCompID: string];

interface PendingWrite {
  readonly ops: readonly Op[];
  /** The session's lease holding the write is conditional on (none: an unfenced store). */
  readonly fence: LeaseFence | undefined;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

export interface PgMessageStoreOptions {
  /** Most writes folded into one flush. */
  readonly maxBatch?: number;
  /**
   * The lease holding each session's writes are conditional on (docs/adr/0012), asked at each write:
   * a write whose term is no longer its lease's fails with FENCED_OUT and changes nothing. Absent:
   * writes are unconditional (a store no node owns: a test, our own simulated clients).
   */
  readonly fence?: (sessionID: SessionID) => LeaseFence;
}

const KEY = 'begin_string = $1 AND sender_comp_id = $2 AND target_comp_id = $3';

export class PgMessageStoreFactory implements MessageStoreFactory {
  private queue: PendingWrite[] = [];
  private flushing = false;
  private readonly maxBatch: number;
  private readonly fence: ((sessionID: SessionID) => LeaseFence) | undefined;

  constructor(
    private readonly db: Db,
    options: PgMessageStoreOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.fence = options.fence;
  }

  async open(sessionID: SessionID, now: Date): Promise<MessageStore> {
    const key = keyParams(sessionID);
    await this.db.query(
      `INSERT INTO fix_session_state (begin_string, sender_comp_id, target_comp_id, next_sender_seq, next_target_seq, creation_time)
       VALUES ($1, $2, $3, 1, 1, $4) ON CONFLICT DO NOTHING`,
      [...key, now],
    );
    const fence = this.fence;
    return new PgMessageStore(sessionID, this.db, (ops) => this.write(ops, fence?.(sessionID)));
  }

  /** Queues a write for the next flush; resolves once it is committed. */
  private write(ops: readonly Op[], fence: LeaseFence | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ops, fence, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // Start after the current burst of callbacks: writes issued in the same tick (an order's
        // report and the inbound number it completes) then share one commit.
        process.nextTick(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.takeBatch();
        try {
          await this.commit(batch);
          for (const w of batch) w.resolve();
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          // One bad write must not fail its neighbours: replay the batch one write at a time.
          for (const w of batch) {
            try {
              await this.commit([w]);
              w.resolve();
            } catch (e) {
              w.reject(e);
            }
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * The writes for one commit. A reset changes the store epoch that later inserts of its session must
   * read, and an operator's set of the next sender number decides which stored messages still count
   * towards it, so a write holding either goes alone (both are rare: a logon, an operator).
   */
  private takeBatch(): PendingWrite[] {
    if (goesAlone(this.queue[0]!)) return this.queue.splice(0, 1);
    let n = 1;
    while (n < this.queue.length && n < this.maxBatch && !goesAlone(this.queue[n]!)) n++;
    return this.queue.splice(0, n);
  }

  /**
   * Commits the writes as one statement: every message row in one multi-row INSERT and each session's
   * final numbers in one UPDATE. A single statement is its own transaction, so the whole batch costs
   * one round trip and one WAL flush.
   */
  private async commit(batch: readonly PendingWrite[]): Promise<void> {
    const ops = batch.flatMap((w) => w.ops);
    const fences = batch.flatMap((w) => (w.fence ? [w.fence] : []));
    if (batch.some(goesAlone)) {
      await this.db.transaction(async (tx) => {
        await checkFences(tx, fences);
        for (const op of ops) await runOne(tx, op);
      });
      return;
    }
    const msgs = ops.filter((o): o is Extract<Op, { kind: 'message' }> => o.kind === 'message');
    // Later numbers overwrite earlier ones, as the writes would have one after another.
    const seqs = new Map<string, { key: SessionKey; sender: number | null; target: number | null }>();
    for (const o of ops) {
      if (o.kind !== 'senderSeq' && o.kind !== 'targetSeq') continue;
      const k = o.key.join('\u0001');
      let s = seqs.get(k);
      if (!s) seqs.set(k, (s = { key: o.key, sender: null, target: null }));
      // Sent messages only move the sender number up (an operator's set goes alone, see takeBatch).
      if (o.kind === 'senderSeq') s.sender = s.sender === null ? o.next : Math.max(s.sender, o.next);
      else s.target = o.next;
    }
    const states = [...seqs.values()];
    await this.db.query(
      BATCH_SQL,
      [
        pgArray(msgs.map((o) => o.key[0])),
        pgArray(msgs.map((o) => o.key[1])),
        pgArray(msgs.map((o) => o.key[2])),
        pgArray(msgs.map((o) => o.m.direction)),
        pgArray(msgs.map((o) => o.m.msgSeqNum)),
        pgArray(msgs.map((o) => o.m.msgType)),
        pgArray(msgs.map((o) => o.possDup)),
        pgArray(msgs.map((o) => o.m.clOrdID ?? null)),
        pgArray(msgs.map((o) => o.m.brokerOrderID ?? null)),
        pgArray(msgs.map((o) => sendingTime(o.m))),
        pgArray(msgs.map((o) => o.m.raw)),
        pgArray(states.map((s) => s.key[0])),
        pgArray(states.map((s) => s.key[1])),
        pgArray(states.map((s) => s.key[2])),
        pgArray(states.map((s) => s.sender)),
        pgArray(states.map((s) => s.target)),
        // An inbound message's row carries its arrival, not the time of this write.
        pgArray(msgs.map((o) => (o.m.receivedAt === undefined ? null : new Date(o.m.receivedAt)))),
        ...fenceParams(fences),
      ],
      { name: 'fix_store_flush' },
    );
  }
}

/** A write that takes a commit of its own: a reset (new store epoch) or an operator's set of the sender number. */
function goesAlone(w: PendingWrite): boolean {
  return w.ops.some((o) => o.kind === 'reset' || (o.kind === 'senderSeq' && !o.advance));
}

/**
 * The next sender number stored for the session row `st`: the row's own, or one past the highest
 * number sent in its current numbering since the last operator's set, whichever is greater. Replies
 * persisted in an order's own commit (persistReservedOutbound) write their message rows only, so that
 * the intake takes no lock on the session's row (one it would otherwise hold through its commit's WAL
 * flush, against the store's writes of the same session and the next intake batch). Reads the
 * resend index backwards: one entry, whatever the history.
 */
export function storedNextSenderSeq(st: string): string {
  return `greatest(${st}.next_sender_seq, coalesce((
    SELECT max(m.msg_seq_num) + 1 FROM fix_messages m
     WHERE m.sender_comp_id = ${st}.sender_comp_id AND m.target_comp_id = ${st}.target_comp_id AND m.store_epoch = ${st}.store_epoch
       AND m.direction = 'TX' AND m.begin_string = ${st}.begin_string AND m.id > ${st}.sender_seq_floor_id), 1))`;
}

// Both parts read the state row as it was before the statement, which is why a reset (a new store
// epoch) never shares a statement with the messages that follow it.
/**
 * The session rows a statement updates, locked first and in key order (as the subquery `k`): two
 * statements that update several sessions' rows then always lock them in the same order and cannot
 * deadlock. Without it each locked them in its own join order, and PostgreSQL broke the cycle after
 * deadlock_timeout (a second) by failing one of them.
 */
const LOCKED_IN_KEY_ORDER = (keys: string) => `(SELECT l.begin_string, l.sender_comp_id, l.target_comp_id FROM fix_session_state l
           WHERE (l.begin_string, l.sender_comp_id, l.target_comp_id) IN (${keys})
           ORDER BY l.begin_string, l.sender_comp_id, l.target_comp_id FOR UPDATE) k`;

const BATCH_SQL = `
WITH ${fenceCte(18, 19)},
msg AS (
  INSERT INTO fix_messages
    (begin_string, sender_comp_id, target_comp_id, store_epoch, direction, msg_seq_num, msg_type, poss_dup, clordid, brokerorderid, sending_time, raw_fix, created_at)
  SELECT m.b, m.s, m.t, st.store_epoch, m.direction, m.seq, m.msg_type, m.poss_dup, m.clordid, m.brokerorderid, m.sending_time, m.raw,
         CASE WHEN m.direction = 'TX' THEN coalesce(m.sending_time, now()) ELSE coalesce(m.received_at, now()) END
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::boolean[], $8::text[], $9::text[], $10::timestamptz[], $11::text[], $17::timestamptz[])
         WITH ORDINALITY AS m(b, s, t, direction, seq, msg_type, poss_dup, clordid, brokerorderid, sending_time, raw, received_at, ord)
    JOIN fix_session_state st ON st.begin_string = m.b AND st.sender_comp_id = m.s AND st.target_comp_id = m.t
   ORDER BY m.ord
),
seq AS (
  UPDATE fix_session_state st
     SET next_sender_seq = greatest(st.next_sender_seq, v.sender), -- greatest() skips a null (no message sent)
         next_target_seq = coalesce(v.target, st.next_target_seq),
         updated_at = now()
    FROM unnest($12::text[], $13::text[], $14::text[], $15::int[], $16::int[]) AS v(b, s, t, sender, target),
         ${LOCKED_IN_KEY_ORDER('SELECT * FROM unnest($12::text[], $13::text[], $14::text[])')}
   WHERE st.begin_string = v.b AND st.sender_comp_id = v.s AND st.target_comp_id = v.t
     AND k.begin_string = v.b AND k.sender_comp_id = v.s AND k.target_comp_id = v.t
)
SELECT ${fenceHolds(20)}`;

const INSERT_MESSAGE = `INSERT INTO fix_messages
  (begin_string, sender_comp_id, target_comp_id, store_epoch, direction, msg_seq_num, msg_type, poss_dup, clordid, brokerorderid, sending_time, raw_fix, created_at)
  SELECT $1, $2, $3, s.store_epoch, $4::text, $5::integer, $6::text, $7::boolean, $8::text, $9::text, $10::timestamptz, $11::text,
    CASE WHEN $4::text = 'TX' THEN coalesce($10::timestamptz, now()) ELSE coalesce($12::timestamptz, now()) END
  FROM fix_session_state s WHERE s.begin_string = $1 AND s.sender_comp_id = $2 AND s.target_comp_id = $3`;

/** One operation as its own statement (the path of writes that hold a reset). */
async function runOne(tx: Queryable, op: Op): Promise<void> {
  const key = op.key;
  switch (op.kind) {
    case 'message': {
      const m = op.m;
      await tx.query(INSERT_MESSAGE, [
        ...key,
        m.direction,
        m.msgSeqNum,
        m.msgType,
        op.possDup,
        m.clOrdID ?? null,
        m.brokerOrderID ?? null,
        sendingTime(m),
        m.raw,
        m.receivedAt === undefined ? null : new Date(m.receivedAt),
      ]);
      return;
    }
    case 'senderSeq':
      // An operator's set: the messages stored so far no longer count towards the number (storedNextSenderSeq).
      await tx.query(
        op.advance
          ? `UPDATE fix_session_state SET next_sender_seq = greatest(next_sender_seq, $4), updated_at = now() WHERE ${KEY}`
          : `UPDATE fix_session_state SET next_sender_seq = $4, sender_seq_floor_id = (SELECT coalesce(max(id), 0) FROM fix_messages),
                  updated_at = now() WHERE ${KEY}`,
        [...key, op.next],
      );
      return;
    case 'targetSeq':
      await tx.query(`UPDATE fix_session_state SET next_target_seq = $4, updated_at = now() WHERE ${KEY}`, [...key, op.next]);
      return;
    case 'reset':
      await tx.query(
        `UPDATE fix_session_state SET next_sender_seq = 1, next_target_seq = 1, store_epoch = store_epoch + 1, sender_seq_floor_id = 0,
                creation_time = $4, updated_at = now() WHERE ${KEY}`,
        [...key, op.creationTime],
      );
  }
}

/**
 * The record as a text column can hold it: PostgreSQL text takes no NUL, so a NUL byte a peer sent
 * (the session rejects such a message, and keeps it for the audit) is stored as U+FFFD, which the
 * one-byte-per-character raw text can never hold otherwise.
 */
function storable(m: StoredMessage): StoredMessage {
  const fields = [m.raw, m.clOrdID, m.brokerOrderID, m.senderCompID, m.targetCompID, m.msgType, m.sendingTime];
  if (!fields.some((v) => v !== undefined && v.includes('\0'))) return m;
  const clean = <T extends string | undefined>(v: T): T => (v === undefined ? v : (v.replaceAll('\0', '\uFFFD') as T));
  return {
    ...m,
    raw: clean(m.raw),
    clOrdID: clean(m.clOrdID),
    brokerOrderID: clean(m.brokerOrderID),
    senderCompID: clean(m.senderCompID),
    targetCompID: clean(m.targetCompID),
    msgType: clean(m.msgType),
    sendingTime: clean(m.sendingTime),
  };
}

function sendingTime(m: StoredMessage): Date | null {
  const t = parseUtcTimestamp(m.sendingTime);
  return Number.isNaN(t) ? null : new Date(t);
}

function keyParams(id: SessionID): SessionKey {
  return [id.beginString, id.senderCompID, id.targetCompID];
}

function assertSeq(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) throw new RangeError(`${what} must be a positive integer, got ${n}`);
}

interface StateRow {
  next_sender_seq: number;
  next_target_seq: number;
  creation_time: Date;
}

interface MessageRow {
  direction: string;
  msg_seq_num: number;
  msg_type: string;
  sender_comp_id: string;
  target_comp_id: string;
  clordid: string | null;
  brokerorderid: string | null;
  sending_time: Date | null;
  raw_fix: string;
}

class PgMessageStore implements MessageStore {
  private closed = false;
  private readonly key: SessionKey;

  constructor(
    readonly sessionID: SessionID,
    private readonly db: Db,
    private readonly write: (ops: readonly Op[]) => Promise<void>,
  ) {
    this.key = keyParams(sessionID);
  }

  async sequenceState(): Promise<SequenceState> {
    this.check();
    const { rows } = await this.db.query<StateRow>(
      `SELECT ${storedNextSenderSeq('st')} AS next_sender_seq, next_target_seq, creation_time FROM fix_session_state st WHERE ${KEY}`,
      this.key,
    );
    const row = rows[0];
    if (!row) throw new Error(`no stored state for ${sessionIdToString(this.sessionID)}`);
    return {
      nextSenderMsgSeqNum: row.next_sender_seq,
      nextTargetMsgSeqNum: row.next_target_seq,
      creationTime: new Date(row.creation_time),
    };
  }

  async saveOutbound(message: StoredMessage): Promise<void> {
    this.check();
    assertSeq(message.msgSeqNum, 'MsgSeqNum');
    if (message.direction !== 'TX') throw new Error('saveOutbound takes TX messages only');
    await this.write([this.insert(message, false), { kind: 'senderSeq', key: this.key, next: message.msgSeqNum + 1, advance: true }]);
  }

  async saveInbound(message: StoredMessage, nextTargetMsgSeqNum?: number): Promise<void> {
    this.check();
    if (message.direction !== 'RX') throw new Error('saveInbound takes RX messages only');
    const ops: Op[] = [this.insert(message, message.possDup === true)];
    if (nextTargetMsgSeqNum !== undefined) {
      assertSeq(nextTargetMsgSeqNum, 'next target MsgSeqNum');
      ops.push({ kind: 'targetSeq', key: this.key, next: nextTargetMsgSeqNum });
    }
    await this.write(ops);
  }

  async auditOutbound(message: StoredMessage): Promise<void> {
    this.check();
    if (message.direction !== 'TX') throw new Error('auditOutbound takes TX messages only');
    // Resent copies and GapFills reuse old numbers: kept for the audit, never offered for resend.
    await this.write([this.insert(message, true)]);
  }

  async setNextSenderMsgSeqNum(next: number): Promise<void> {
    this.check();
    assertSeq(next, 'next sender MsgSeqNum');
    await this.write([{ kind: 'senderSeq', key: this.key, next, advance: false }]);
  }

  async setNextTargetMsgSeqNum(next: number): Promise<void> {
    this.check();
    assertSeq(next, 'next target MsgSeqNum');
    await this.write([{ kind: 'targetSeq', key: this.key, next }]);
  }

  async outboundRange(begin: number, end: number, limit: number): Promise<StoredMessage[]> {
    this.check();
    const hi = Math.min(end, 2_147_483_647);
    if (begin > hi || limit <= 0) return [];
    // The newest copy of each number in the current epoch; resent copies (poss_dup) are audit only.
    const { rows } = await this.db.query<MessageRow>(
      `SELECT DISTINCT ON (m.msg_seq_num) m.direction, m.msg_seq_num, m.msg_type, m.sender_comp_id, m.target_comp_id,
              m.clordid, m.brokerorderid, m.sending_time, m.raw_fix
         FROM fix_messages m
         JOIN fix_session_state s ON s.begin_string = m.begin_string AND s.sender_comp_id = m.sender_comp_id
                                  AND s.target_comp_id = m.target_comp_id AND s.store_epoch = m.store_epoch
        WHERE m.begin_string = $1 AND m.sender_comp_id = $2 AND m.target_comp_id = $3
          AND m.direction = 'TX' AND NOT m.poss_dup AND m.msg_seq_num BETWEEN $4 AND $5
        ORDER BY m.msg_seq_num, m.id DESC
        LIMIT $6`,
      [...this.key, begin, hi, limit],
    );
    return rows.map((r) => ({
      direction: 'TX',
      msgSeqNum: r.msg_seq_num,
      msgType: r.msg_type,
      senderCompID: r.sender_comp_id,
      targetCompID: r.target_comp_id,
      sendingTime: r.sending_time ? formatUtcTimestamp(r.sending_time) : '',
      clOrdID: r.clordid ?? undefined,
      brokerOrderID: r.brokerorderid ?? undefined,
      raw: r.raw_fix,
    }));
  }

  async reset(creationTime: Date): Promise<void> {
    this.check();
    await this.write([{ kind: 'reset', key: this.key, creationTime }]);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private insert(m: StoredMessage, possDup: boolean): Op {
    return { kind: 'message', key: this.key, m: storable(m), possDup };
  }

  private check(): void {
    if (this.closed) throw new StoreClosedError(sessionIdToString(this.sessionID));
  }
}

/** An outbound message whose number a session reserved (Session.reserveSend), to persist in the caller's commit. */
export interface ReservedOutbound {
  readonly beginString: string;
  readonly record: StoredMessage;
  /** The store's creation time when the number was taken: after a reset the number means nothing. */
  readonly storeCreationTime: Date;
  /** The session's lease holding the write is conditional on (docs/adr/0012); absent: unconditional. */
  readonly fence?: LeaseFence | undefined;
}

/**
 * Persists reserved outbound messages inside the caller's transaction, as the store would have: the
 * message rows (resendable), from which the session's next sender number is read (storedNextSenderSeq;
 * the session's row is read, never locked). Throws (so the caller rolls
 * back) when a session's store was reset since a number was taken: the numbers would belong to the new
 * sequence. `extra` adds the caller's own data-modifying CTEs to the same statement (one round trip):
 * its SQL numbers its parameters from `$${RESERVED_PARAMS + 1}`; with `returnsRows`, its CTE named
 * `result`, which must have a non-null `id` column, is answered (its rows, in no set order).
 */
export async function persistReservedOutbound<R extends { id: unknown } = never>(
  tx: Queryable,
  items: readonly ReservedOutbound[],
  extra?: { readonly name: string; readonly ctes: string; readonly params: readonly unknown[]; readonly returnsRows?: boolean },
): Promise<R[]> {
  if (!items.length && !extra) return [];
  const { rows } = await tx.query<{ n: number } & R>(
    reservedSql(extra?.ctes, extra?.returnsRows ? 'rows' : 'count'),
    reservedParams(items, extra),
    { name: extra ? `fix_store_reserved_${extra.name}` : 'fix_store_reserved' },
  );
  const stored = Number(rows[0]?.n ?? 0);
  if (stored !== items.length) {
    throw new Error(`persisting reserved outbound messages: ${items.length - stored} belong to a session whose store was reset since`);
  }
  // An empty result still gives the one row that carries n, with a null id.
  return extra?.returnsRows ? rows.filter((r) => (r as { id?: unknown }).id != null) : [];
}

/**
 * persistReservedOutbound as one statement that is its own transaction (run it outside one, e.g. on
 * the pool): the reserved messages and the caller's CTEs commit together or not at all. A message
 * whose session's store was reset since its number was taken fails the whole statement (checked in
 * it, since nothing could roll it back afterwards). Answers the time of the write (now()).
 */
export async function persistReservedOutboundAtomically(
  db: Queryable,
  items: readonly ReservedOutbound[],
  extra: { readonly name: string; readonly ctes: string; readonly params: readonly unknown[]; readonly replan?: boolean },
): Promise<Date> {
  const { rows } = await db.query<{ at: Date }>(reservedSql(extra.ctes, 'atomic'), reservedParams(items, extra), {
    name: `fix_store_atomic_${extra.name}`,
    ...(extra.replan ? { replan: true } : {}),
  });
  return rows[0]!.at;
}

function reservedParams(items: readonly ReservedOutbound[], extra: { readonly params: readonly unknown[] } | undefined): unknown[] {
  return [
    pgArray(items.map((i) => i.beginString)),
    pgArray(items.map((i) => i.record.senderCompID)),
    pgArray(items.map((i) => i.record.targetCompID)),
    pgArray(items.map((i) => i.record.msgSeqNum)),
    pgArray(items.map((i) => i.record.msgType)),
    pgArray(items.map((i) => i.record.clOrdID ?? null)),
    pgArray(items.map((i) => i.record.brokerOrderID ?? null)),
    pgArray(items.map((i) => sendingTime(i.record))),
    pgArray(items.map((i) => i.record.raw)),
    pgArray(items.map((i) => i.storeCreationTime)),
    ...fenceParams(items.flatMap((i) => (i.fence ? [i.fence] : []))),
    ...(extra?.params ?? []),
  ];
}

/** Parameters the reserved-messages statement takes itself. */
export const RESERVED_PARAMS = 13;

/** By the caller's CTE text (the same string each time for a statement shape, so its hash is cached), then the answer. */
const reservedSqlCache = new Map<string, Map<string, string>>();

function reservedSql(extraCtes: string | undefined, answer: 'count' | 'rows' | 'atomic'): string {
  let byAnswer = reservedSqlCache.get(extraCtes ?? '');
  if (!byAnswer) reservedSqlCache.set(extraCtes ?? '', (byAnswer = new Map()));
  let sql = byAnswer.get(answer);
  if (sql) return sql;
  sql = `
WITH ${fenceCte(11, 12)},
m AS MATERIALIZED (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $10::timestamptz[])
         WITH ORDINALITY AS m(b, s, t, seq, msg_type, clordid, brokerorderid, sending_time, raw, creation_time, ord)
),
msg AS (
  INSERT INTO fix_messages
    (begin_string, sender_comp_id, target_comp_id, store_epoch, direction, msg_seq_num, msg_type, poss_dup, clordid, brokerorderid, sending_time, raw_fix, created_at)
  SELECT m.b, m.s, m.t, st.store_epoch, 'TX', m.seq, m.msg_type, false, m.clordid, m.brokerorderid, m.sending_time, m.raw, coalesce(m.sending_time, now())
    FROM m JOIN fix_session_state st
      ON st.begin_string = m.b AND st.sender_comp_id = m.s AND st.target_comp_id = m.t AND st.creation_time = m.creation_time
   ORDER BY m.ord
  RETURNING 1
)${extraCtes ? `,\n${extraCtes}` : ''}
${
  answer === 'rows'
    ? `SELECT c.n, r.* FROM (SELECT count(*)::int AS n, (SELECT ${fenceHolds(13)}) AS fenced FROM msg) c LEFT JOIN result r ON c.fenced`
    : answer === 'count'
      ? `SELECT count(*)::int AS n, (SELECT ${fenceHolds(13)}) AS fenced FROM msg`
      : `SELECT now() AS at, ${fenceHolds(13)} AS fenced, fixdesk_assert((SELECT count(*) FROM msg) = (SELECT count(*) FROM m),
                                  'persisting reserved outbound messages: some belong to a session whose store was reset since') AS ok`
}`;
  byAnswer.set(answer, sql);
  return sql;
}
