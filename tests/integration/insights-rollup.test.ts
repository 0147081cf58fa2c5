// Desk Insights rollups (docs/adr/0019): the charts read from the rollups give what they give from the
// raw rows alone (counts and sums exactly; percentiles from the same histograms, so exactly too; their
// error against percentile_cont is checked in insights-api.test.ts), whatever the roll-up has folded:
// nothing, a part (a step with small chunks), everything; with late actions on old orders, before and
// after they are folded; after two roll-ups ran at once; in zones 30 and 45 minutes off the hour. And a
// call over a folded range reads about as many raw rows with ten times the history.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  insightsClients,
  insightsContracts,
  insightsOrderFlow,
  insightsTimeToAnswer,
  rollUpInsights,
  rollUpInsightsFully,
  openDb,
  type Db,
} from '@fixdesk/db';
import { TEST_DB_KINDS, createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import type { InsightsFilters } from '@fixdesk/protocol';
import { A, B, loadSecurities, seedInsights } from '../support/insights-data';
import { seededDatabase } from '../support/seeded-database';

const filters = (f: Partial<InsightsFilters> & { from: string; to: string }): InsightsFilters => ({
  tz: 'UTC',
  clients: undefined,
  exchange: undefined,
  bucket: Date.parse(f.to) - Date.parse(f.from) <= 25 * 3_600_000 ? 'hour' : 'day',
  ...f,
});

const CASES: Record<string, InsightsFilters> = {
  'the whole range by day': filters({ from: '2026-11-01T00:00:00Z', to: '2026-11-05T00:00:00Z' }),
  'a day by hour': filters({ from: '2026-11-02T00:00:00Z', to: '2026-11-03T00:00:00Z' }),
  'Singapore days': filters({ from: '2026-10-31T16:00:00Z', to: '2026-11-04T16:00:00Z', tz: 'Asia/Singapore' }),
  // +05:45: a day from 18:15 UTC; its hours from :15.
  'Kathmandu days': filters({ from: '2026-10-31T18:15:00Z', to: '2026-11-04T18:15:00Z', tz: 'Asia/Kathmandu' }),
  'a Kathmandu day by hour': filters({ from: '2026-11-01T18:15:00Z', to: '2026-11-02T18:15:00Z', tz: 'Asia/Kathmandu' }),
  // +13:45 (daylight saving in November): a day from 10:15 UTC.
  'Chatham days': filters({ from: '2026-10-31T10:15:00Z', to: '2026-11-04T10:15:00Z', tz: 'Pacific/Chatham' }),
  // +05:30.
  'Kolkata days': filters({ from: '2026-10-31T18:30:00Z', to: '2026-11-04T18:30:00Z', tz: 'Asia/Kolkata' }),
  'one client': filters({ from: '2026-11-01T00:00:00Z', to: '2026-11-05T00:00:00Z', clients: [B] }),
  'both clients': filters({ from: '2026-11-01T00:00:00Z', to: '2026-11-05T00:00:00Z', clients: [A, B] }),
  'an exchange': filters({ from: '2026-11-01T00:00:00Z', to: '2026-11-05T00:00:00Z', exchange: 'SGX' }),
  'a client on an exchange, Kathmandu': filters({
    from: '2026-10-31T18:15:00Z',
    to: '2026-11-04T18:15:00Z',
    tz: 'Asia/Kathmandu',
    clients: [A],
    exchange: 'EEX',
  }),
  // A client's histograms and fills are rolled up by UTC day only (amendment 2): hours, days of another
  // zone and the ends of a range that are not whole days are read raw around the days that are.
  'one client, a day by hour': filters({ from: '2026-11-02T00:00:00Z', to: '2026-11-03T00:00:00Z', clients: [B] }),
  'one client, Singapore days': filters({ from: '2026-10-31T16:00:00Z', to: '2026-11-04T16:00:00Z', tz: 'Asia/Singapore', clients: [A] }),
  'one client, from 06:00 on the 1st to 18:00 on the 4th': filters({
    from: '2026-11-01T06:00:00Z',
    to: '2026-11-04T18:00:00Z',
    clients: [B],
  }),
  'through today': filters({ from: '2026-10-01T00:00:00Z', to: new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000).toISOString() }),
};

/** Every chart's answer for every case. */
async function answers(db: Db): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(CASES)) {
    out[name] = {
      flow: await insightsOrderFlow(db, f),
      times: await insightsTimeToAnswer(db, f),
      clients: await insightsClients(db, f),
      contracts: await insightsContracts(db, f),
    };
  }
  return out;
}

/** Forgets everything folded: the calls then read the raw rows only. */
async function unfold(db: Db): Promise<void> {
  await db.query('TRUNCATE insights_flow, insights_book, insights_order_qty, insights_answer_hist, insights_reasons, insights_fills');
  await db.query(`UPDATE insights_rollup_state SET orders_horizon = '-infinity', action_id = 0`);
}

const deepEqualByCase = (actual: Record<string, unknown>, expected: Record<string, unknown>, what: string) => {
  for (const name of Object.keys(expected)) assert.deepEqual(actual[name], expected[name], `${what}: ${name}`);
};

for (const kind of TEST_DB_KINDS) {
  describe(`desk insights rollups on ${kind}`, () => {
    let database: TestDatabase;
    let db: Db;
    let raw: Record<string, unknown>;

    before(async () => {
      database = await createTestDatabase(kind, { template: seededDatabase() });
      db = database.db;
      await seedInsights(db);
      await loadSecurities(db);
      raw = await answers(db);
    });
    after(async () => {
      await database?.dispose();
    });

    it('answers from the rollups what the raw rows give, folded in part or in full', async () => {
      // A step with small chunks folds a part: the calls read the rest raw.
      const step = await rollUpInsights(db, { lagMs: 0, orderChunk: 5, actionChunk: 7 });
      assert.equal(step.caughtUp, false, 'a part only');
      assert.ok(step.orders > 0 && step.actions > 0);
      deepEqualByCase(await answers(db), raw, 'in part');
      const steps = await rollUpInsightsFully(db, { lagMs: 0, orderChunk: 5, actionChunk: 7 });
      assert.ok(steps > 1, 'in chunks');
      deepEqualByCase(await answers(db), raw, 'in full');
      // The rollups hold what was folded: the whole desk's orders of the range, under '*'.
      const { rows } = await db.query<{ n: number }>(
        `SELECT coalesce(sum(orders), 0)::int AS n FROM insights_book WHERE width = 1440 AND client = '*' AND exch = '*'
            AND bucket >= '2026-11-01' AND bucket < '2026-11-05'`,
      );
      const flow = raw['the whole range by day'] as { flow: Array<{ received: number; refused: number }> };
      assert.equal(
        rows[0]!.n,
        flow.flow.reduce((t, p) => t + p.received - p.refused, 0),
      );
    });

    it('counts periods 30 and 45 minutes off the hour on their own quarter hours', () => {
      const days = (raw['Kathmandu days'] as { flow: Array<{ period: string; start: string }> }).flow;
      assert.ok(days.length > 0);
      for (const p of days) assert.match(p.start, /T18:15:00\.000Z$/, `a Kathmandu day starts at 18:15 UTC: ${p.period}`);
      const chatham = (raw['Chatham days'] as { flow: Array<{ start: string }> }).flow;
      for (const p of chatham) assert.match(p.start, /T10:15:00\.000Z$/);
      const kolkata = (raw['Kolkata days'] as { flow: Array<{ start: string }> }).flow;
      for (const p of kolkata) assert.match(p.start, /T18:30:00\.000Z$/);
      const hours = (raw['a Kathmandu day by hour'] as { flow: Array<{ start: string }> }).flow;
      for (const p of hours) assert.match(p.start, /:15:00\.000Z$/);
    });

    it('lands a late answer and fill of an old order in that order’s buckets, before and after they are folded', async () => {
      await rollUpInsightsFully(db, { lagMs: 0 });
      // An order of the 2nd that nobody answered: accepted and filled now (ids after the roll-up's).
      const { rows } = await db.query<{ id: number; orderqty: string; created_at: Date }>(
        `SELECT o.id, o.orderqty::text, o.created_at FROM orders o
          WHERE o.created_at >= '2026-11-01' AND o.created_at < '2026-11-05' AND o.msg_type = 'D'
            AND NOT EXISTS (SELECT 1 FROM order_actions a WHERE a.order_id = o.id)
          ORDER BY o.id LIMIT 1`,
      );
      const late = rows[0];
      assert.ok(late, 'an unanswered order in the seed');
      const before = await answers(db);
      await db.query(
        `INSERT INTO order_actions (order_id, sendercompid, action_type, user_id, fill_qty, fill_price, created_at)
         SELECT o.id, o.sendercompid, t.type, 'late_broker', t.qty, t.px, o.created_at + t.after
           FROM orders o, (VALUES ('ACCEPT', NULL::numeric, NULL::numeric, interval '2 days'),
                                  ('FILL', $2::numeric, 100::numeric, interval '2 days 1 hour')) t (type, qty, px, after)
          WHERE o.id = $1`,
        [late.id, late.orderqty],
      );
      await db.query(`UPDATE orders SET cumqty = orderqty, leavesqty = 0, ordstatus = '2' WHERE id = $1`, [late.id]);
      const tail = await answers(db);
      assert.notDeepEqual(tail['the whole range by day'], before['the whole range by day'], 'the late actions count');
      const times = tail['the whole range by day'] as { times: { answer: { byUser: Array<{ user: string; count: number }> } } };
      assert.deepEqual(
        times.times.answer.byUser.filter((u) => u.user === 'late_broker').map((u) => u.count),
        [1],
        'the late answer, by its user',
      );
      // Folded: the same answers.
      await rollUpInsightsFully(db, { lagMs: 0 });
      deepEqualByCase(await answers(db), tail, 'the late rows folded');
      // And the raw rows alone agree.
      await unfold(db);
      deepEqualByCase(await answers(db), tail, 'the late rows read raw');
      raw = tail;
    });

    it('folds everything once when two roll-ups run at once', async () => {
      await unfold(db);
      const opts = { lagMs: 0, orderChunk: 3, actionChunk: 4 };
      const [x, y] = await Promise.all([rollUpInsightsFully(db, opts), rollUpInsightsFully(db, opts)]);
      assert.ok(x >= 1 && y >= 1);
      deepEqualByCase(await answers(db), raw, 'two at once');
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM insights_order_qty`);
      const { rows: orders } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders`);
      assert.equal(rows[0]!.n, orders[0]!.n, 'each order folded once');
    });

    it('reads about as many raw rows for a folded month with ten times the history', async () => {
      const month = filters({ from: '2026-10-06T00:00:00Z', to: '2026-11-05T00:00:00Z' });
      /**
       * Rows the chart statements take from the raw tables (EXPLAIN ANALYZE of each, in its transaction:
       * the rows their scans return, after their conditions; on tables this small the planner may scan
       * a whole table where a large one is read by index, so the rows a scan filtered out are not counted).
       */
      const rawRowsRead = async (): Promise<number> => {
        let total = 0;
        const counting: Db = {
          ...db,
          transaction: (fn) =>
            db.transaction((tx) =>
              fn({
                ...tx,
                query: async (sql: string, params?: readonly unknown[]) => {
                  if (sql.trimStart().startsWith('WITH')) {
                    const plan = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
                    const walk = (node: Record<string, unknown>): void => {
                      const rel = node['Relation Name'];
                      if (
                        typeof rel === 'string' &&
                        ['orders', 'order_actions', 'refused_orders', 'order_legs', 'execution_reports'].includes(rel)
                      )
                        total += Number(node['Actual Rows'] ?? 0) * Number(node['Actual Loops'] ?? 1);
                      for (const child of (node['Plans'] as Record<string, unknown>[] | undefined) ?? []) walk(child);
                    };
                    const json = plan.rows[0]!['QUERY PLAN'];
                    const doc = (typeof json === 'string' ? JSON.parse(json) : json) as Array<{ Plan: Record<string, unknown> }>;
                    walk(doc[0]!.Plan);
                  }
                  return tx.query(sql, params);
                },
              } as typeof tx),
            ),
        } as Db;
        await insightsOrderFlow(counting, month);
        await insightsClients(counting, month);
        // The charts whose rollups are the desk's by hour, and a client's by day only (amendment 2).
        await insightsTimeToAnswer(counting, month);
        await insightsContracts(counting, month);
        await insightsTimeToAnswer(counting, { ...month, clients: [A] });
        await insightsContracts(counting, { ...month, clients: [A] });
        return total;
      };
      await rollUpInsightsFully(db, { lagMs: 0 });
      const small = await rawRowsRead();
      // Ten times the orders in the month (about 20 a day more), folded.
      await db.query(
        `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol,
                             maturity_month_year, side, ordtype, price, orderqty, exchange, ordstatus, cumqty, leavesqty, transacttime, created_at)
         SELECT 'HIST-' || g, 'CL-HIST-' || g, c.id, c.comp_id, 'FIXDESK', t::date, 'D', 'C5TC', '202612', '1', '2', 1, 5, 'SGX', 'A', 0, 5, t, t
           FROM generate_series(1, 600) g
          CROSS JOIN LATERAL (SELECT timestamptz '2026-10-07T00:00:00Z' + (g * interval '67 minutes') AS t) x
           JOIN client_connectors c ON c.comp_id = $1`,
        [A],
      );
      await rollUpInsightsFully(db, { lagMs: 0 });
      const large = await rawRowsRead();
      assert.ok(large <= small + 20, `raw rows read: ${small} with the seed, ${large} with 600 more orders in the month`);
    });

    it(
      'folds no action a transaction still open holds: an earlier id committed after a later one is counted',
      { skip: kind === 'pglite' && 'one connection: no transaction is open while a step runs' },
      async () => {
        // Everything folded afresh (the test before loaded orders behind the horizon, which no step folds).
        await unfold(db);
        await rollUpInsightsFully(db, { lagMs: 0 });
        const { rows } = await db.query<{ id: number }>(
          `SELECT o.id FROM orders o
            WHERE o.msg_type = 'D' AND NOT EXISTS (SELECT 1 FROM order_actions a WHERE a.order_id = o.id)
            ORDER BY o.id LIMIT 2`,
        );
        assert.equal(rows.length, 2, 'two unanswered orders in the seed');
        const accept = (q: Pick<Db, 'query'>, orderId: number) =>
          q.query<{ id: number }>(
            `INSERT INTO order_actions (order_id, sendercompid, action_type, user_id)
             SELECT id, sendercompid, 'ACCEPT', 'slow_broker' FROM orders WHERE id = $1 RETURNING id`,
            [orderId],
          );
        // A broker's accept whose transaction stays open (a stall, a lock wait) after its action took an
        // id; another broker's accept takes the next id and commits; a step runs meanwhile (its lag the
        // production default: both actions are seconds old).
        const other = await openDb({ databaseUrl: database.url!, poolSize: 1 });
        let release!: () => void;
        const released = new Promise<void>((r) => (release = r));
        let held!: (id: number) => void;
        const heldId = new Promise<number>((r) => (held = r));
        const open = other.transaction(async (tx) => {
          held((await accept(tx, rows[0]!.id)).rows[0]!.id);
          await released;
        });
        try {
          const early = await heldId;
          const late = (await accept(db, rows[1]!.id)).rows[0]!.id;
          assert.ok(late > early);
          const step = await rollUpInsights(db);
          assert.equal(step.busy, false);
          assert.ok(step.actionId < early, `the step folded up to action ${step.actionId}, past ${early} of the open transaction`);
        } finally {
          release();
          await open;
          await other.close();
        }
        await rollUpInsightsFully(db, { lagMs: 0 });
        const folded = await answers(db);
        await unfold(db);
        deepEqualByCase(folded, await answers(db), 'folded after the open transaction committed, against the raw rows');
      },
    );
  });
}
