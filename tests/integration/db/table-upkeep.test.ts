// Embedded PGlite runs no autovacuum: the table upkeep job (apps/server/src/database/table-upkeep-job.ts,
// docs/adr/0020) vacuums and analyzes by autovacuum's rules, at a quiet moment of the desk or after the
// longest wait. Without it a table whose rows are updated (orders accepted, filled) grows by a dead
// version per update for good, and the planner never learns how many rows a table holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tablesDueForUpkeep } from '@fixdesk/db';
import { createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { TableUpkeepJob } from '../../../apps/server/src/database/table-upkeep-job';

const silent = pino({ level: 'silent' });
const ROWS = 2_000;
const ROUNDS = 20;

describe('table upkeep on embedded PGlite', () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase('pglite');
  });
  after(async () => t?.dispose());

  /**
   * A backend reports its counts to the statistics at most once a second, when idle: made at once here,
   * as a look ten seconds after the writes would find them.
   */
  const flushStats = () => t.db.query('SELECT pg_stat_force_next_flush()');
  const pages = async (table: string) =>
    (await t.db.query<{ n: number }>(`SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS n`, [table]))
      .rows[0]!.n;
  const stats = async (table: string) =>
    (
      await t.db.query<{ dead: number; vacuumed: boolean; analyzed: boolean; reltuples: number }>(
        `SELECT u.n_dead_tup::int AS dead, u.last_vacuum IS NOT NULL AS vacuumed, u.last_analyze IS NOT NULL AS analyzed, c.reltuples::float8 AS reltuples
           FROM pg_stat_user_tables u JOIN pg_class c ON c.oid = u.relid WHERE u.relname = $1`,
        [table],
      )
    ).rows[0]!;
  /** A table of ROWS rows, each then updated once per round, ROUNDS times; `between` runs after each round. */
  const churn = async (table: string, between: () => Promise<unknown>) => {
    await t.db.query(`CREATE TABLE ${table} (id int PRIMARY KEY, v int NOT NULL, note text NOT NULL)`);
    await t.db.query(`INSERT INTO ${table} SELECT g, 0, repeat('x', 60) FROM generate_series(1, ${ROWS}) g`);
    const first = await pages(table);
    for (let r = 0; r < ROUNDS; r++) {
      await t.db.query(`UPDATE ${table} SET v = v + 1`);
      await flushStats();
      await between();
    }
    return { first, last: await pages(table) };
  };

  it('keeps a table whose rows are updated from growing, where without it each round adds the table again', async () => {
    const job = new TableUpkeepJob(t.db, silent);
    const kept = await churn('upkept_book', () => job.look());
    const left = await churn('unkept_book', async () => undefined);
    assert.ok(left.last >= 10 * left.first, `without upkeep: ${left.first} pages grew to ${left.last}`);
    assert.ok(kept.last <= 3 * kept.first, `with upkeep: ${kept.first} pages grew to ${kept.last}`);
    const s = await stats('upkept_book');
    assert.ok(s.vacuumed && s.analyzed, 'vacuumed and analyzed');
    assert.equal(Math.round(s.reltuples), ROWS, 'the planner knows the row count');
    assert.equal((await stats('unkept_book')).reltuples, -1, 'a table never kept: the planner does not know its size');
  });

  it('waits for a look in which the desk wrote nothing, or runs after the longest wait', async () => {
    let now = 0;
    const job = new TableUpkeepJob(t.db, silent, { maxWaitMs: 60_000, now: () => now });
    await t.db.query(`CREATE TABLE waiting_book (id int PRIMARY KEY, v int NOT NULL)`);
    await t.db.query(`INSERT INTO waiting_book SELECT g, 0 FROM generate_series(1, ${ROWS}) g`);
    await flushStats();
    const trade = async (seq: number) => {
      await t.db.query(
        `INSERT INTO fix_messages (begin_string, sender_comp_id, target_comp_id, direction, msg_seq_num, msg_type, raw_fix)
         VALUES ('FIX.4.4', 'CLIENT_A', 'FIXDESK', 'RX', $1, '0', 'x')`,
        [seq],
      );
      await flushStats();
    };
    assert.ok((await tablesDueForUpkeep(t.db)).some((d) => d.table === 'waiting_book'));
    await trade(1);
    assert.deepEqual(await job.look(), [], 'the first look: nothing to compare with');
    for (let seq = 2; seq <= 3; seq++) {
      now += 20_000;
      await trade(seq);
      assert.deepEqual(await job.look(), [], `the desk trades (${now / 1000} s after the table fell due)`);
    }
    now += 20_001;
    await trade(5);
    const kept = await job.look();
    assert.ok(kept.includes('waiting_book'), `kept once it waited the longest: ${kept.join(', ')}`);
    assert.ok(!(await tablesDueForUpkeep(t.db)).some((d) => d.table === 'waiting_book'), 'no longer due');

    await t.db.query('UPDATE waiting_book SET v = v + 1');
    await trade(6);
    now += 1_000;
    assert.deepEqual(await job.look(), [], 'due again, the desk traded since the last look');
    now += 1_000;
    assert.ok((await job.look()).includes('waiting_book'), 'kept at the next quiet look');
  });
});
