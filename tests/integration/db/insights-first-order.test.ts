// Every Desk Insights call first finds where the orders acted on in its range begin: the first order of
// the day before the range (firstOrderSince, packages/db/src/repos/insights.ts). It is found by a binary
// search of the ids, so what it reads does not grow with the table or with a day's orders; min(id) over
// the day's rows read every order of the day on every call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '@fixdesk/db';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import { firstOrderSince } from '../../../packages/db/src/repos/insights';

const HOUR = 3_600_000;

for (const kind of TEST_DB_KINDS) {
  describe(`the first order of a day, for Desk Insights, on ${kind}`, () => {
    let t: TestDatabase;
    let connectorId = 0;
    let added = 0;
    const since = new Date(Date.UTC(2026, 10, 20));

    before(async () => {
      t = await createTestDatabase(kind);
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days)
         VALUES ('CLIENT_A', 'CA', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F') RETURNING id`,
      );
      connectorId = rows[0]!.id;
    });
    after(async () => t?.dispose());

    /** `count` orders, evenly spread over [from, from + spanMs), numbered in time order. */
    async function addOrders(count: number, from: Date, spanMs: number) {
      await t.db.query(
        `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type,
                             symbol, side, ordtype, orderqty, leavesqty, transacttime, created_at)
         SELECT 'B-' || ($1::int + g), 'C-' || ($1::int + g), $2, 'CLIENT_A', 'FIXDESK', '2026-11-20', 'D',
                'C5TC', '1', '1', 1, 1, at, at
           FROM generate_series(1, $3::int) g,
                LATERAL (SELECT $4::timestamptz + (g - 1) * ($5::double precision / $3::int) * interval '1 millisecond' AS at) x`,
        [added, connectorId, count, from.toISOString(), spanMs],
      );
      added += count;
    }

    /** The lookup's answer and the rows of orders it read (sequential and by index), in a transaction of its own. */
    async function lookUp(at: Date): Promise<{ id: number; rowsRead: number }> {
      const read = async (tx: Queryable) =>
        Number(
          (
            await tx.query<{ n: string }>(
              `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS n FROM pg_stat_xact_user_tables WHERE relname = 'orders'`,
            )
          ).rows[0]?.n ?? 0,
        );
      return t.db.transaction(async (tx) => {
        const before = await read(tx);
        const { rows } = await tx.query<{ id: string }>(`SELECT ${firstOrderSince('$1::timestamptz')}::text AS id`, [at.toISOString()]);
        return { id: Number(rows[0]!.id), rowsRead: (await read(tx)) - before };
      });
    }

    const firstIdSince = async (at: Date) =>
      Number(
        (await t.db.query<{ id: string | null }>('SELECT min(id)::text AS id FROM orders WHERE created_at >= $1', [at.toISOString()]))
          .rows[0]!.id ?? NaN,
      );

    it('answers 0 when there are no orders, and one past the last when none is that recent', async () => {
      assert.equal((await lookUp(since)).id, 0);
      await addOrders(10, new Date(since.getTime() - 48 * HOUR), HOUR);
      const last = Number((await t.db.query<{ id: string }>('SELECT max(id)::text AS id FROM orders')).rows[0]!.id);
      assert.equal((await lookUp(since)).id, last + 1);
    });

    it('finds the first order of a day, reading as few rows of a table of 10,110 orders as of one of 110', async () => {
      await addOrders(100, since, 24 * HOUR);
      const small = await lookUp(since);
      assert.equal(small.id, await firstIdSince(since));

      const nextDay = new Date(since.getTime() + 24 * HOUR);
      await addOrders(10_000, nextDay, 24 * HOUR);
      const large = await lookUp(since);
      assert.equal(large.id, small.id);
      const busyDay = await lookUp(nextDay);
      assert.equal(busyDay.id, await firstIdSince(nextDay));
      // The search's lookups: about log2 of the ids, and the table's first and last.
      for (const [what, n] of [
        ['the day of 100 orders', large.rowsRead],
        ['the day of 10,000', busyDay.rowsRead],
      ] as const) {
        assert.ok(n <= 40, `${n} rows of orders read to find ${what} in 10,110`);
        assert.ok(n <= small.rowsRead + 10, `${n} rows read to find ${what} in 10,110 orders against ${small.rowsRead} in 110`);
      }
    });
  });
}
