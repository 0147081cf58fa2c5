// Tamper evidence for the compliance record (docs/adr/0010). order_actions and fix_messages are
// append-only (triggers refuse UPDATE, DELETE and TRUNCATE); seals make a change made around the
// triggers visible. A seal covers a block of ids (first_id..last_id, gaps included): the SHA-256 of
// each row's canonical text in id order, chained to the seal before it. The verifier recomputes
// every block and names the first one that no longer matches.
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db';

export const SEALED_TABLES = ['order_actions', 'fix_messages'] as const;
export type SealedTable = (typeof SEALED_TABLES)[number];

/**
 * Ids (and so at most rows) per seal: small enough that one block is a few milliseconds of work for
 * the database and this process (a block of 5,000 FIX messages took about 30 ms, long enough to show
 * in the intake's p99 on two cores), large enough that seals stay few.
 */
export const SEAL_BLOCK_ROWS = 1000;

/**
 * The text a row is hashed as: its named columns as a row value's text (stable, cheap to produce),
 * read in UTC. Named, so a column added later leaves old rows' text as it was. order_id and user_ref
 * are left out: ON DELETE SET NULL may clear them, and the order and user they name are in the row
 * anyway (brokerorderid, user_id).
 */
const CANONICAL: Record<SealedTable, string> = {
  order_actions: `row(t.id, t.brokerorderid, t.clordid, t.sendercompid, t.symbol, t.side, t.orderqty, t.price, t.action_type, t.user_id,
                      t.notes, t.action_data, t.fill_qty, t.fill_price, t.leg_index, t.created_at)::text`,
  fix_messages: `row(t.id, t.begin_string, t.sender_comp_id, t.target_comp_id, t.store_epoch, t.direction, t.msg_seq_num, t.msg_type,
                     t.poss_dup, t.clordid, t.brokerorderid, t.sending_time, t.raw_fix, t.created_at)::text`,
};

/** Any fixed numbers: the advisory lock that lets one sealer at a time extend a table's chain. */
const SEAL_LOCK_KEY = 7_301_105;
const LOCK_SUB_KEY: Record<SealedTable, number> = { order_actions: 1, fix_messages: 2 };

interface SealRow {
  block_no: number;
  first_id: number;
  last_id: number;
  row_count: number;
  rows_hash: string;
  chain_hash: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The chain's start for a table: what the first seal's chain_hash chains to. */
export function genesisHash(table: SealedTable): string {
  return sha256(`fixdesk audit chain ${table}`);
}

/** A block's chain hash from the seal before it and the block's own contents. */
export function chainHash(previous: string, blockNo: number, firstId: number, lastId: number, rowCount: number, rowsHash: string): string {
  return sha256(`${previous}\n${blockNo}\n${firstId}\n${lastId}\n${rowCount}\n${rowsHash}`);
}

/**
 * A range of a table's rows as a seal sees it: how many, the last id and the SHA-256 over each row's
 * `${id}\t${canonical text}\n` in id order. The database joins the rows' texts into one (a row at a
 * time into JavaScript cost more than the hash). On PostgreSQL the database hashes it too: a block's
 * megabyte of text never crosses into this process, whose event loop is the order intake's. The
 * embedded database runs in this process anyway, and its sha256 is slower than Node's, so there the
 * text is hashed here. Both give the same digest (of the UTF-8 bytes). The ids after `afterId` up to
 * `upToId`.
 */
async function hashRange(
  q: Queryable,
  kind: Db['kind'],
  table: SealedTable,
  afterId: number,
  upToId: number,
): Promise<{ count: number; lastId: number; hash: string }> {
  const joined = `string_agg(b.line, '' ORDER BY b.id)`;
  const { rows } = await q.query<{ n: number; last: number | null; text?: string | null; hash?: string | null }>(
    `SELECT count(*)::int AS n, max(b.id) AS last,
            ${kind === 'postgres' ? `encode(sha256(convert_to(${joined}, 'UTF8')), 'hex') AS hash` : `${joined} AS text`}
       FROM (SELECT t.id, t.id || E'\t' || ${CANONICAL[table]} || E'\n' AS line
               FROM ${table} t WHERE t.id > $1 AND t.id <= $2) b`,
    [afterId, upToId],
  );
  const r = rows[0]!;
  return { count: r.n, lastId: r.last ?? afterId, hash: r.hash ?? sha256(r.text ?? '') };
}

/** How long the sealer waits for the transactions writing a table before leaving the pass for later. */
const WRITERS_WAIT_MS = 10_000;

/**
 * The highest id below which the table can no longer change, or undefined when its writers stay too
 * long. A row's id is drawn by the INSERT that writes it, which holds the table's ROW EXCLUSIVE lock
 * from before the draw to its transaction's end. So every id up to the largest committed one is
 * settled once the transactions holding that lock when it was read have ended: they are waited for
 * (their locks polled), and nothing else is. Unlike a SHARE lock on the table, this never holds up an
 * insert (each pass stalled the order intake for a batch).
 */
async function settledHorizon(db: Db, table: SealedTable): Promise<number | undefined> {
  const writers = (vxids: string[] | null) =>
    `array(SELECT DISTINCT l.virtualtransaction FROM pg_locks l
            WHERE l.locktype = 'relation' AND l.relation = '${table}'::regclass AND l.mode = 'RowExclusiveLock' AND l.granted
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND l.pid <> pg_backend_pid()${vxids ? ' AND l.virtualtransaction = ANY($1)' : ''})`;
  const { rows } = await db.query<{ max: number | null; writers: string[] }>(
    `SELECT (SELECT max(id) FROM ${table}) AS max, ${writers(null)} AS writers`,
  );
  let waiting = rows[0]!.writers;
  for (const deadline = Date.now() + WRITERS_WAIT_MS; waiting.length;) {
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 2));
    waiting = (await db.query<{ writers: string[] }>(`SELECT ${writers(waiting)} AS writers`, [waiting])).rows[0]!.writers;
  }
  return rows[0]!.max ?? 0;
}

/**
 * Seals every settled row of a table not sealed yet, in blocks of SEAL_BLOCK_ROWS, each block in a
 * transaction of its own: the embedded database runs one transaction at a time, and a pass over ten
 * seconds of a busy intake in one transaction held every order commit for over a second.
 * Several nodes may run it: an advisory lock makes them take turns, block by block. Between blocks it
 * awaits `pause` with the time the block took (by default it only lets waiting work go first), so a
 * caller can keep a long pass from taking a core while orders arrive. Resolves with the blocks and
 * rows sealed.
 */
export async function sealPending(
  db: Db,
  table: SealedTable,
  pause: (blockMs: number) => Promise<void> = () => new Promise((r) => setImmediate(r)),
): Promise<{ blocks: number; rows: number }> {
  const horizon = await settledHorizon(db, table);
  if (horizon === undefined) return { blocks: 0, rows: 0 };
  let blocks = 0;
  let sealed = 0;
  for (;;) {
    const started = performance.now();
    const count = await sealNextBlock(db, table, horizon);
    if (count === 0) return { blocks, rows: sealed };
    blocks++;
    sealed += count;
    await pause(performance.now() - started);
  }
}

/** Seals the next block of settled rows (up to `horizon`), chained to the last seal; resolves with its rows (0: none left). */
async function sealNextBlock(db: Db, table: SealedTable, horizon: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL TIME ZONE 'UTC'`);
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [SEAL_LOCK_KEY, LOCK_SUB_KEY[table]]);
    const { rows: last } = await tx.query<SealRow>(
      'SELECT block_no, last_id, chain_hash FROM audit_seals WHERE table_name = $1 ORDER BY block_no DESC LIMIT 1',
      [table],
    );
    const lastId = last[0]?.last_id ?? 0;
    // The block is a range of ids, not "the next 5,000 rows": asked for the next rows with a LIMIT, the
    // planner (whose statistics lag a fast-growing table) read and sorted every unsealed row for each
    // block, on disk past work_mem, so a backlog cost the square of its size. The range starts at the
    // next row (past any gap of ids) and spans at most SEAL_BLOCK_ROWS ids, so at most that many rows.
    const { rows: next } = await tx.query<{ id: number | null }>(`SELECT min(id) AS id FROM ${table} WHERE id > $1 AND id <= $2`, [
      lastId,
      horizon,
    ]);
    const from = next[0]?.id;
    if (from === null || from === undefined) return 0;
    const block = await hashRange(tx, db.kind, table, lastId, Math.min(horizon, Number(from) + SEAL_BLOCK_ROWS - 1));
    if (block.count === 0) return 0;
    const blockNo = (last[0]?.block_no ?? 0) + 1;
    const chain = chainHash(last[0]?.chain_hash ?? genesisHash(table), blockNo, lastId + 1, block.lastId, block.count, block.hash);
    await tx.query(
      `INSERT INTO audit_seals (table_name, block_no, first_id, last_id, row_count, rows_hash, chain_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [table, blockNo, lastId + 1, block.lastId, block.count, block.hash, chain],
    );
    return block.count;
  });
}

export interface ChainVerdict {
  readonly table: SealedTable;
  readonly blocks: number;
  /** Rows checked against their seals. */
  readonly rows: number;
  /** Rows newer than the last seal (not covered yet; sealed within seconds by a running server). */
  readonly unsealed: number;
  /** The first link that does not hold, or undefined when the whole chain holds. */
  readonly broken?: { readonly blockNo: number; readonly firstId: number; readonly lastId: number; readonly reason: string };
}

/** Recomputes a table's chain from its first seal; stops at the first broken link. */
export async function verifyChain(db: Db, table: SealedTable): Promise<ChainVerdict> {
  return db.transaction(async (tx) => {
    // One snapshot for the whole walk, so rows arriving meanwhile cannot shift it.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await tx.query(`SET LOCAL TIME ZONE 'UTC'`);
    let previous = genesisHash(table);
    let expectedBlock = 1;
    let lastId = 0;
    let rowsChecked = 0;
    for (;;) {
      const { rows: seals } = await tx.query<SealRow>(
        `SELECT block_no, first_id, last_id, row_count, rows_hash, chain_hash FROM audit_seals
          WHERE table_name = $1 AND block_no >= $2 ORDER BY block_no LIMIT 1000`,
        [table, expectedBlock],
      );
      if (seals.length === 0) break;
      for (const seal of seals) {
        const at = { blockNo: seal.block_no, firstId: seal.first_id, lastId: seal.last_id };
        const broken = (reason: string): ChainVerdict => ({
          table,
          blocks: expectedBlock - 1,
          rows: rowsChecked,
          unsealed: 0,
          broken: { ...at, reason },
        });
        if (seal.block_no !== expectedBlock) return broken(`seal ${expectedBlock} is missing`);
        if (seal.first_id !== lastId + 1) return broken(`the seal starts at id ${seal.first_id}, not ${lastId + 1}`);
        const block = await hashRange(tx, db.kind, table, seal.first_id - 1, seal.last_id);
        if (block.count !== seal.row_count)
          return broken(`${seal.row_count} rows were sealed, ${block.count} are there now (rows removed or added)`);
        if (block.hash !== seal.rows_hash) return broken('a row differs from what was sealed (changed after sealing)');
        const chain = chainHash(previous, seal.block_no, seal.first_id, seal.last_id, seal.row_count, seal.rows_hash);
        if (chain !== seal.chain_hash) return broken('the seal does not chain to the one before it (seal altered)');
        previous = chain;
        lastId = seal.last_id;
        rowsChecked += seal.row_count;
        expectedBlock++;
      }
    }
    const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE id > $1`, [lastId]);
    return { table, blocks: expectedBlock - 1, rows: rowsChecked, unsealed: rows[0]?.n ?? 0 };
  });
}
