// The FIX message store on PostgreSQL/PGlite: fix_session_state holds each session's numbers,
// fix_messages every message in and out (the compliance audit) and, for outbound ones, the copies a
// ResendRequest is answered from. Writes from all sessions are group-committed: whatever was queued
// while the previous transaction ran goes into the next one, so a busy server pays one commit for
// many messages while each caller still learns only once its own write is durable.
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

type Statement = readonly [sql: string, params: readonly unknown[]];

interface PendingWrite {
  readonly statements: readonly Statement[];
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

export interface PgMessageStoreOptions {
  /** Most writes folded into one transaction. */
  readonly maxBatch?: number;
}

const KEY = 'begin_string = $1 AND sender_comp_id = $2 AND target_comp_id = $3';

export class PgMessageStoreFactory implements MessageStoreFactory {
  private queue: PendingWrite[] = [];
  private flushing = false;
  private readonly maxBatch: number;

  constructor(
    private readonly db: Db,
    options: PgMessageStoreOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
  }

  async open(sessionID: SessionID, now: Date): Promise<MessageStore> {
    const key = keyParams(sessionID);
    await this.db.query(
      `INSERT INTO fix_session_state (begin_string, sender_comp_id, target_comp_id, next_sender_seq, next_target_seq, creation_time)
       VALUES ($1, $2, $3, 1, 1, $4) ON CONFLICT DO NOTHING`,
      [...key, now],
    );
    return new PgMessageStore(sessionID, this.db, (statements) => this.write(statements));
  }

  /** Queues statements to run, in order, inside the next group transaction. */
  private write(statements: readonly Statement[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ statements, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.db.transaction(async (tx) => {
            for (const w of batch) await run(tx, w.statements);
          });
          for (const w of batch) w.resolve();
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          // One bad write must not fail its neighbours: replay the batch one transaction each.
          for (const w of batch) {
            try {
              await this.db.transaction((tx) => run(tx, w.statements));
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
}

async function run(tx: Queryable, statements: readonly Statement[]): Promise<void> {
  for (const [sql, params] of statements) await tx.query(sql, params);
}

function keyParams(id: SessionID): [string, string, string] {
  return [id.beginString, id.senderCompID, id.targetCompID];
}

function assertSeq(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) throw new RangeError(`${what} must be a positive integer, got ${n}`);
}

const INSERT_MESSAGE = `INSERT INTO fix_messages
  (begin_string, sender_comp_id, target_comp_id, store_epoch, direction, msg_seq_num, msg_type, poss_dup, clordid, brokerorderid, sending_time, raw_fix)
  SELECT $1, $2, $3, s.store_epoch, $4::text, $5::integer, $6::text, $7::boolean, $8::text, $9::text, $10::timestamptz, $11::text
  FROM fix_session_state s WHERE s.begin_string = $1 AND s.sender_comp_id = $2 AND s.target_comp_id = $3`;

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
  private readonly key: [string, string, string];

  constructor(
    readonly sessionID: SessionID,
    private readonly db: Db,
    private readonly write: (statements: readonly Statement[]) => Promise<void>,
  ) {
    this.key = keyParams(sessionID);
  }

  async sequenceState(): Promise<SequenceState> {
    this.check();
    const { rows } = await this.db.query<StateRow>(
      `SELECT next_sender_seq, next_target_seq, creation_time FROM fix_session_state WHERE ${KEY}`,
      this.key,
    );
    const row = rows[0];
    if (!row) throw new Error(`no stored state for ${sessionIdToString(this.sessionID)}`);
    return { nextSenderMsgSeqNum: row.next_sender_seq, nextTargetMsgSeqNum: row.next_target_seq, creationTime: new Date(row.creation_time) };
  }

  async saveOutbound(message: StoredMessage): Promise<void> {
    this.check();
    assertSeq(message.msgSeqNum, 'MsgSeqNum');
    if (message.direction !== 'TX') throw new Error('saveOutbound takes TX messages only');
    await this.write([
      this.insert(message, false),
      [`UPDATE fix_session_state SET next_sender_seq = $4, updated_at = now() WHERE ${KEY}`, [...this.key, message.msgSeqNum + 1]],
    ]);
  }

  async saveInbound(message: StoredMessage, nextTargetMsgSeqNum?: number): Promise<void> {
    this.check();
    if (message.direction !== 'RX') throw new Error('saveInbound takes RX messages only');
    const statements: Statement[] = [this.insert(message, message.possDup === true)];
    if (nextTargetMsgSeqNum !== undefined) {
      assertSeq(nextTargetMsgSeqNum, 'next target MsgSeqNum');
      statements.push([`UPDATE fix_session_state SET next_target_seq = $4, updated_at = now() WHERE ${KEY}`, [...this.key, nextTargetMsgSeqNum]]);
    }
    await this.write(statements);
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
    await this.write([[`UPDATE fix_session_state SET next_sender_seq = $4, updated_at = now() WHERE ${KEY}`, [...this.key, next]]]);
  }

  async setNextTargetMsgSeqNum(next: number): Promise<void> {
    this.check();
    assertSeq(next, 'next target MsgSeqNum');
    await this.write([[`UPDATE fix_session_state SET next_target_seq = $4, updated_at = now() WHERE ${KEY}`, [...this.key, next]]]);
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
    await this.write([
      [
        `UPDATE fix_session_state SET next_sender_seq = 1, next_target_seq = 1, store_epoch = store_epoch + 1,
                creation_time = $4, updated_at = now() WHERE ${KEY}`,
        [...this.key, creationTime],
      ],
    ]);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private insert(m: StoredMessage, possDup: boolean): Statement {
    const sent = parseUtcTimestamp(m.sendingTime);
    return [
      INSERT_MESSAGE,
      [...this.key, m.direction, m.msgSeqNum, m.msgType, possDup, m.clOrdID ?? null, m.brokerOrderID ?? null, Number.isNaN(sent) ? null : new Date(sent), m.raw],
    ];
  }

  private check(): void {
    if (this.closed) throw new StoreClosedError(sessionIdToString(this.sessionID));
  }
}
