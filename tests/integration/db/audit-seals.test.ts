// The compliance record's tamper evidence on both databases: the triggers refuse UPDATE, DELETE and
// TRUNCATE; seals chain the rows; a row changed around the triggers (as a database superuser could,
// with triggers disabled) is caught by the verifier, which names the block.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import { SEAL_BLOCK_ROWS, sealPending, verifyChain, type Queryable } from '@fixdesk/db';

async function addMessages(q: Queryable, n: number, from: number): Promise<void> {
  await q.query(
    `INSERT INTO fix_messages (begin_string, sender_comp_id, target_comp_id, direction, msg_seq_num, msg_type, raw_fix)
     SELECT 'FIX.4.4', 'FIXDESK', 'CLIENT', 'TX', g, '0', '8=FIX.4.4' || chr(1) || '35=0' || chr(1) || '34=' || g || chr(1)
       FROM generate_series($1::int, $2::int) g`,
    [from, from + n - 1],
  );
}

async function addAction(t: TestDatabase, notes: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO order_actions (brokerorderid, clordid, sendercompid, symbol, side, orderqty, price, action_type, user_id, notes, action_data)
     VALUES ('B1', 'C1', 'CLIENT', 'C5TC', '1', 10, 24500.50, 'ACCEPT', 'broker', $1, '{"k": 1}') RETURNING id`,
    [notes],
  );
  return rows[0]!.id;
}

for (const kind of TEST_DB_KINDS) {
  describe(`the audit record is append-only and sealed on ${kind}`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await createTestDatabase(kind);
    });
    after(() => t?.dispose());

    it('refuses UPDATE, DELETE and TRUNCATE of order actions, FIX messages and seals', async () => {
      const id = await addAction(t, 'first');
      await addMessages(t.db, 3, 1);
      for (const sql of [
        `UPDATE order_actions SET notes = 'changed' WHERE id = ${id}`,
        `DELETE FROM order_actions WHERE id = ${id}`,
        'TRUNCATE order_actions',
        `UPDATE fix_messages SET raw_fix = 'x'`,
        'DELETE FROM fix_messages',
        'TRUNCATE fix_messages',
      ]) {
        await assert.rejects(t.db.query(sql), /append-only/, sql);
      }
      await sealPending(t.db, 'fix_messages');
      await assert.rejects(t.db.query(`UPDATE audit_seals SET rows_hash = 'x'`), /append-only/);
      await assert.rejects(t.db.query('DELETE FROM audit_seals'), /append-only/);
    });

    it('lets a foreign key set to NULL by a deletion through, and nothing else with it', async () => {
      const id = await addAction(t, 'fk');
      await t.db.query(`UPDATE order_actions SET user_ref = NULL, order_id = NULL WHERE id = $1`, [id]);
      await assert.rejects(
        t.db.query(`UPDATE order_actions SET user_ref = NULL, notes = 'sneaky' WHERE id = $1`, [id]),
        /UPDATE of notes refused/,
      );
    });

    it('seals in chained blocks, and the verifier checks every row', async () => {
      await addMessages(t.db, SEAL_BLOCK_ROWS + 10, 100);
      const first = await sealPending(t.db, 'fix_messages');
      assert.ok(first.blocks >= 2, `blocks ${first.blocks}`);
      await sealPending(t.db, 'order_actions');
      assert.deepEqual(await sealPending(t.db, 'fix_messages'), { blocks: 0, rows: 0 }, 'nothing left to seal');
      await addMessages(t.db, 2, 9000);
      const verdict = await verifyChain(t.db, 'fix_messages');
      assert.equal(verdict.broken, undefined, JSON.stringify(verdict));
      assert.equal(verdict.rows, SEAL_BLOCK_ROWS + 13);
      assert.equal(verdict.unsealed, 2);
      const actions = await verifyChain(t.db, 'order_actions');
      assert.equal(actions.broken, undefined);
      assert.equal(actions.rows, 2);
    });

    it('catches a row changed, removed or added with the triggers bypassed, naming the block', async () => {
      await sealPending(t.db, 'fix_messages');
      // As an intruder with the database's superuser would: no trigger fires.
      await t.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL session_replication_role = replica`);
        await tx.query(`UPDATE order_actions SET notes = 'rewritten' WHERE notes = 'first'`);
      });
      const changed = await verifyChain(t.db, 'order_actions');
      assert.equal(changed.broken?.blockNo, 1);
      assert.match(changed.broken!.reason, /changed after sealing/);

      const { rows } = await t.db.query<{ id: number }>(`SELECT id FROM fix_messages ORDER BY id OFFSET 7 LIMIT 1`);
      await t.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL session_replication_role = replica`);
        await tx.query(`DELETE FROM fix_messages WHERE id = $1`, [rows[0]!.id]);
      });
      // The first block holds the 3 messages of the first test; the 8th message is in the second.
      const removed = await verifyChain(t.db, 'fix_messages');
      assert.equal(removed.broken?.blockNo, 2);
      assert.match(removed.broken!.reason, /rows removed or added/);
    });
  });
}

// Sealing only settled rows, without holding up a writer (the SHARE lock each pass took
// stalled the order intake for a batch). PostgreSQL only: PGlite runs one transaction at a time.
describe('the sealer waits for the transactions writing a table, and holds up none (PostgreSQL)', () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase('postgres');
  });
  after(() => t?.dispose());

  it('seals nothing past a row still being written; an insert meanwhile goes straight through', async () => {
    await addMessages(t.db, 3, 1);
    await sealPending(t.db, 'fix_messages');
    // A transaction draws an id and stays open; another commits a later id.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const open = t.db.transaction(async (tx) => {
      await addMessages(tx, 1, 10);
      wrote();
      await held;
    });
    await written;
    await addMessages(t.db, 1, 11);
    let sealedAt: number | undefined;
    const sealing = sealPending(t.db, 'fix_messages').then((r) => ((sealedAt = Date.now()), r));
    let releasedAt: number;
    try {
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(sealedAt, undefined, 'the sealer sealed while a row below its horizon was being written');
      // An insert now is not queued behind the sealer (a SHARE lock request would have queued it).
      await t.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL statement_timeout = '1s'`);
        await addMessages(tx, 1, 12);
      });
    } finally {
      releasedAt = Date.now();
      release();
      await open;
    }
    const sealed = await sealing;
    assert.ok(sealedAt! >= releasedAt, 'sealed before the open transaction ended');
    assert.ok(sealed.rows >= 2, `rows sealed: ${sealed.rows}`);
    const verdict = await verifyChain(t.db, 'fix_messages');
    assert.equal(verdict.broken, undefined, JSON.stringify(verdict));
    assert.equal(verdict.rows + verdict.unsealed, 6);
  });
});
