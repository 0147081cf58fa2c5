// A PostgreSQL connection cut while a transaction holds it between two statements (a failover, an
// administrator ending backends) fails that transaction; it does not end the process, and the pool
// goes on with fresh connections. Before, the client's 'error' event had no listener and the process
// died with an uncaught ECONNRESET (seen in CI's service-health test).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '@fixdesk/db/testing';

describe('a connection cut inside a transaction (PostgreSQL)', () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase('postgres', { migrate: false });
  });
  after(() => t?.dispose());

  it('fails that transaction, and the next one runs on a fresh connection', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      const cut = t.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // Between two statements, as the transaction's JavaScript runs: the backend is ended.
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        await new Promise((r) => setTimeout(r, 300));
        await tx.query('SELECT 1');
      });
      await assert.rejects(cut);
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(uncaught, [], 'an uncaught exception');
      const again = await t.db.transaction(async (tx) => (await tx.query<{ n: number }>('SELECT 2 AS n')).rows[0]!.n);
      assert.equal(again, 2);
    } finally {
      process.off('uncaughtException', onUncaught);
      await admin.end();
    }
  });
});
