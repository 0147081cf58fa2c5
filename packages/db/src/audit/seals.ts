// Tamper evidence for the compliance record (docs/adr/0010). order_actions and fix_messages are
// append-only (triggers refuse UPDATE, DELETE and TRUNCATE); seals make a change made around the
// triggers visible. A seal covers a block of ids (first_id..last_id, gaps included): the SHA-256 of
// each row's canonical text in id order, chained to the seal before it. The verifier recomputes
// every block and names the first one that no longer matches.
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db';

export const SEALED_TABLES = ['order_actions', 'fix_messages'] as const;
export type SealedTable = (typeof SEALED_TABLES)[number];

/** Rows per seal: small enough to read in one go, large enough that seals stay few. */
export const SEAL_BLOCK_ROWS = 5000;

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

/** Hashes rows (id and canonical text) in id order, as seals and the verifier both do. */
class RowsHasher {
  private readonly hash = createHash('sha256');
  count = 0;
  add(id: number, canonical: string): void {
    this.hash.update(`${id}\t${canonical}\n`);
    this.count++;
  }
  digest(): string {
    return this.hash.digest('hex');
  }
}

async function rowsOf(q: Queryable, table: SealedTable, afterId: number, upToId: number, limit: number): Promise<Array<[number, string]>> {
  const { rows } = await q.query<[number, string]>(
    `SELECT t.id, ${CANONICAL[table]} FROM ${table} t WHERE t.id > $1 AND t.id <= $2 ORDER BY t.id LIMIT $3`,
    [afterId, upToId, limit],
    { rowMode: 'array' },
  );
  return rows;
}

/**
 * The highest id below which the table can no longer change: a SHARE lock waits for the transactions
 * inserting into it (each holds its id from the moment it draws it) and lets none start meanwhile, so
 * every id up to the maximum seen under it is committed or rolled back for good. The lock lasts one
 * index lookup.
 */
async function settledHorizon(db: Db, table: SealedTable): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`LOCK TABLE ${table} IN SHARE MODE`);
    const { rows } = await tx.query<{ max: number | null }>(`SELECT max(id) AS max FROM ${table}`);
    return rows[0]?.max ?? 0;
  });
}

/**
 * Seals every settled row of a table not sealed yet, in blocks of SEAL_BLOCK_ROWS. Several nodes may
 * run it: an advisory lock makes them take turns. Resolves with the blocks and rows sealed.
 */
export async function sealPending(db: Db, table: SealedTable): Promise<{ blocks: number; rows: number }> {
  const horizon = await settledHorizon(db, table);
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL TIME ZONE 'UTC'`);
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [SEAL_LOCK_KEY, LOCK_SUB_KEY[table]]);
    const { rows: last } = await tx.query<SealRow>(
      'SELECT block_no, last_id, chain_hash FROM audit_seals WHERE table_name = $1 ORDER BY block_no DESC LIMIT 1',
      [table],
    );
    let blockNo = last[0]?.block_no ?? 0;
    let lastId = last[0]?.last_id ?? 0;
    let previous = last[0]?.chain_hash ?? genesisHash(table);
    let blocks = 0;
    let sealed = 0;
    for (;;) {
      const rows = await rowsOf(tx, table, lastId, horizon, SEAL_BLOCK_ROWS);
      if (rows.length === 0) break;
      const hasher = new RowsHasher();
      for (const [id, canonical] of rows) hasher.add(id, canonical);
      const firstId = lastId + 1;
      const blockLast = rows[rows.length - 1]![0];
      blockNo += 1;
      const rowsHash = hasher.digest();
      previous = chainHash(previous, blockNo, firstId, blockLast, rows.length, rowsHash);
      await tx.query(
        `INSERT INTO audit_seals (table_name, block_no, first_id, last_id, row_count, rows_hash, chain_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [table, blockNo, firstId, blockLast, rows.length, rowsHash, previous],
      );
      lastId = blockLast;
      blocks++;
      sealed += rows.length;
    }
    return { blocks, rows: sealed };
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
        const broken = (reason: string): ChainVerdict => ({ table, blocks: expectedBlock - 1, rows: rowsChecked, unsealed: 0, broken: { ...at, reason } });
        if (seal.block_no !== expectedBlock) return broken(`seal ${expectedBlock} is missing`);
        if (seal.first_id !== lastId + 1) return broken(`the seal starts at id ${seal.first_id}, not ${lastId + 1}`);
        const hasher = new RowsHasher();
        for (let from = seal.first_id - 1; ; ) {
          const rows = await rowsOf(tx, table, from, seal.last_id, SEAL_BLOCK_ROWS);
          for (const [id, canonical] of rows) hasher.add(id, canonical);
          if (rows.length < SEAL_BLOCK_ROWS) break;
          from = rows[rows.length - 1]![0];
        }
        if (hasher.count !== seal.row_count) return broken(`${seal.row_count} rows were sealed, ${hasher.count} are there now (rows removed or added)`);
        if (hasher.digest() !== seal.rows_hash) return broken('a row differs from what was sealed (changed after sealing)');
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
