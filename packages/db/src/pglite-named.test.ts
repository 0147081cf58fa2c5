import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UniqueViolation } from './constraint-errors';
import { openDb, type Db, type Queryable } from './db';

// Named statements on the embedded database (pglite-named.ts), through the Db handle the repositories use.
describe('named statements on PGlite', () => {
  let db: Db;
  const prepared = async () =>
    (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((r) => r.name);
  const insert = (id: number, v: string) =>
    db.query<{ id: number; at: Date }>(
      'INSERT INTO t (id, v, at) SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[]) RETURNING id, at',
      [`{${id}}`, `{${v}}`, ['{2026-01-01T00:00:00Z}']],
      { name: 't_insert' },
    );

  before(async () => {
    db = await openDb({ dataDir: 'memory://' });
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, v text NOT NULL, at timestamptz NOT NULL)');
  });
  after(() => db.close());

  it('parses a named statement once and runs it by its name, with its parameters typed', async () => {
    assert.deepEqual(await prepared(), []);
    const first = await insert(1, 'a');
    assert.deepEqual(first.rows, [{ id: 1, at: new Date('2026-01-01T00:00:00Z') }]);
    assert.equal(first.rowCount, 1);
    await insert(2, 'b');
    assert.deepEqual(await prepared(), ['t_insert'], 'one prepared statement for both runs');
    const byId = await db.query<{ v: string; at: Date }>('SELECT v, at FROM t WHERE id = $1', [2], { name: 't_by_id' });
    assert.deepEqual(byId.rows, [{ v: 'b', at: new Date('2026-01-01T00:00:00Z') }]);
    const asArray = await db.query<unknown[]>('SELECT v, at FROM t WHERE id = $1', [1], { name: 't_by_id', rowMode: 'array' });
    assert.deepEqual(asArray.rows, [['a', new Date('2026-01-01T00:00:00Z')]]);
  });

  it('raises a constraint violation as the unnamed path does, and the statement still runs afterwards', async () => {
    await assert.rejects(insert(1, 'again'), UniqueViolation);
    assert.equal((await insert(3, 'c')).rowCount, 1);
  });

  it('works inside transactions: one that rolls back keeps the statement, one whose statement fails rolls back', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('SELECT count(*)::int AS n FROM t WHERE v = $1', ['a'], { name: 't_count' });
        await tx.query('INSERT INTO t (id, v, at) VALUES (100, $1, now())', ['rolled back']);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const count = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE v = $1', ['rolled back'], { name: 't_count' });
    assert.deepEqual(count.rows, [{ n: 0 }]);
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id, v, at) VALUES (101, $1, now())', ['also rolled back']);
        await tx.query('SELECT 1 / $1::int AS x', [0], { name: 't_divide' });
      }),
      /division by zero/,
    );
    assert.deepEqual((await db.query('SELECT 1 / $1::int AS x', [1], { name: 't_divide' })).rows, [{ x: 1 }]);
    assert.deepEqual((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 101')).rows, [{ n: 0 }]);
  });

  it('a statement first met in an aborted transaction is parsed at its next run', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('SELECT 1 / 0').catch(() => undefined);
        await tx.query('SELECT $1::int AS y', [5], { name: 't_after_abort' });
      }),
      /current transaction is aborted/,
    );
    assert.deepEqual((await db.query('SELECT $1::int AS y', [5], { name: 't_after_abort' })).rows, [{ y: 5 }]);
  });

  it('replans a statement asked to for each run, and leaves the setting as it was', async () => {
    const mode = async () => (await db.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0]!.plan_cache_mode;
    for (let i = 0; i < 8; i++) {
      const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = ANY($1::int[])', [`{1,2,${i}}`], {
        name: 't_replanned',
        replan: true,
      });
      assert.equal(r.rows[0]!.n, i === 3 ? 3 : 2, 'rows 1, 2 and 3 are in the table');
    }
    assert.equal(await mode(), 'auto');
    // Each run planned for itself even where the session asks for the generic plan (the setting goes
    // back to the default afterwards: the desk sets none of its own).
    for (let i = 0; i < 3; i++) {
      await db.exec('SET plan_cache_mode = force_generic_plan');
      await db.query('SELECT count(*)::int AS n FROM t WHERE id = ANY($1::int[])', [`{1,${i}}`], { name: 't_replanned', replan: true });
      assert.equal(await mode(), 'auto');
    }
    const plans = await db.query<{ generic_plans: number; custom_plans: number }>(
      "SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name = 't_replanned'",
    );
    assert.deepEqual(plans.rows, [{ generic_plans: 0, custom_plans: 11 }]);
    await assert.rejects(db.query('SELECT 1 / $1::int AS x', [0], { name: 't_replanned_fails', replan: true }), /division by zero/);
    assert.equal(await mode(), 'auto');
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('SELECT 1 / $1::int AS x', [0], { name: 't_replanned_fails', replan: true });
      }),
      /division by zero/,
    );
    assert.equal(await mode(), 'auto', 'also after a failure inside a transaction');
  });

  it('refuses a second text under a name, and a statement on a transaction that has ended', async () => {
    await assert.rejects(db.query('SELECT 2 AS y', [], { name: 't_divide' }), /already run with another text/);
    let ended: Queryable | undefined;
    await db.transaction(async (tx) => {
      ended = tx;
    });
    await assert.rejects(ended!.query('SELECT 1 AS x', [], { name: 't_one' }), /Transaction is closed/);
  });

  it('queries without a name and with one interleave (one connection, taken in turn)', async () => {
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? db.query<{ n: number }>('SELECT $1::int AS n', [i], { name: 't_echo' })
          : db.query<{ n: number }>('SELECT $1::int AS n', [i]),
      ),
    );
    assert.deepEqual(
      runs.map((r) => r.rows[0]!.n),
      Array.from({ length: 20 }, (_, i) => i),
    );
  });
});
