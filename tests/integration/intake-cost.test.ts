// The cost of an order does not grow with the client's history. Two clients, one with
// 1,000 orders of history and one with 100,000 (filled outrights in live and expired contracts, and
// multileg orders with filled legs), each send 500 orders through the real intake over FIX and get 100
// fills through the API, with short selling barred (the capability that needs the client's position).
// PostgreSQL's rows read (seq_tup_read + idx_tup_fetch over the tables) and the statements the server
// ran, per order, must be equal within a small constant: before the risk book, each order read its
// client's whole fill history, and this test failed by ~100 rows per order per 1,000 orders of history.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { startServer, type RunningServer } from '../../apps/server/src/server';
import { addClientHistory } from '../../bench/order-history';
import { countingDb, type CountingDb } from '../support/counting-db';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { seededDatabase } from '../support/seeded-database';
import { ADMIN_PASSWORD, testConfig } from '../support/server';

const ORDERS = 500;
const FILLS = 100;

describe('the cost of an order does not grow with the client history (PostgreSQL)', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let count: CountingDb;
  let token: string;

  before(async () => {
    database = await createTestDatabase('postgres', { template: seededDatabase() });
    count = countingDb(database.db);
    server = await startServer(testConfig(), { db: count.db, logger: pino({ level: 'silent' }), testClient: { ports: 'off' } });
    const r = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    token = ((await r.json()) as { token: string }).token;
  });
  after(async () => {
    await server?.close();
    await database?.dispose();
  });

  /**
   * Rows PostgreSQL read per table so far, after every backend of the pool flushed its counts. A backend
   * flushes when a transaction ends, but at most once a second: counts gathered within a second of its
   * last flush wait (while it is idle) up to ten seconds more. So after a second's pause every pool
   * connection runs a statement at once (so each ends a transaction): the risk book's load at logon
   * was otherwise, now and then, counted in the orders that followed it.
   */
  const rowsRead = async () => {
    await new Promise((r) => setTimeout(r, 1_100));
    const max = database.db.poolStats?.().max ?? 1;
    await Promise.all(Array.from({ length: max }, () => database.db.query('SELECT pg_sleep(0.05)')));
    const { rows } = await database.db.query<{ relname: string; n: string }>(
      'SELECT relname, (seq_tup_read + coalesce(idx_tup_fetch, 0))::text AS n FROM pg_stat_user_tables',
    );
    return new Map(rows.map((r) => [r.relname, Number(r.n)]));
  };

  const api = async (path: string, json: unknown) => {
    const r = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(json),
    });
    assert.equal(r.status, 200, `${path}: ${await r.text()}`);
  };

  /** 500 orders over FIX and 100 fills through the API from a client with `history` orders behind it: rows read and statements per order. */
  /** A client with `history` orders behind it and the default capability (short selling barred). */
  async function clientWithHistory(compId: string, prefix: string, history: number): Promise<void> {
    const db = database.db;
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, max_orders_per_second)
       VALUES ($1, $2, 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F,S,S', 100000) RETURNING id`,
      [compId, prefix],
    );
    const connectorId = rows[0]!.id;
    await db.query(`INSERT INTO client_capabilities (clientconnectors_id, asset_class, max_order_qty) VALUES ($1, 'FUTURES', 1000000)`, [
      connectorId,
    ]);
    await addClientHistory(db, compId, history);
  }

  /** 500 orders over FIX and 100 fills through the API from the client: rows read and statements per order. */
  async function measure(compId: string): Promise<{ rows: number; statements: number; perTable: Map<string, number> }> {
    const client = new TestFixClient(compId);
    await client.connect(server.ctx.fix.port);
    // The session's start loads the client's risk once (not counted: it is per session, not per order).
    for (let i = 0; i < 200 && !server.ctx.orders.riskExposure(compId); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(server.ctx.orders.riskExposure(compId), 'the risk book was not loaded at logon');
    const rows0 = await rowsRead();
    const st0 = count.statements();
    const brokerIds: string[] = [];
    for (let i = 0; i < ORDERS; i += 50) {
      const batch = Array.from({ length: 50 }, (_, k) => `${compId}-${i + k}`);
      // Buys and sells alternate: every sale is checked against the position and the working orders.
      for (const [k, id] of batch.entries())
        void client.send('D', newOrderSingle(id, { side: k % 2 ? '2' : '1', qty: '1', price: '27000' }));
      const reports = await Promise.all(batch.map((id) => client.waitForReport(id, (m) => m.msgType === '8')));
      // Buys are acknowledged; a sale past the position is refused (a decision like any other).
      for (const [k, r] of reports.entries()) if (k % 2 === 0) brokerIds.push(r.get(37)!);
    }
    // The broker accepts and fills 100 of the buys (by the broker order id the client was told).
    for (const id of brokerIds.slice(0, FILLS)) {
      await api(`/api/orders/${id}/accept`, {});
      await api(`/api/orders/${id}/fill`, { fillQty: 1, fillPrice: 27000 });
    }
    const statements = count.statements() - st0;
    const rows1 = await rowsRead();
    await client.stop();
    const perTable = new Map([...rows1].map(([t, n]) => [t, (n - (rows0.get(t) ?? 0)) / ORDERS]));
    return { rows: [...perTable.values()].reduce((a, b) => a + b, 0), statements: statements / ORDERS, perTable };
  }

  it('rows read and statements per order are the same with 1,000 and 100,000 orders of history', async () => {
    // Both histories are in the tables before either client is measured (the same table sizes, so the
    // same plans): what differs is the client's own history. VACUUM ANALYZE, as autovacuum would.
    const liveRows = async () =>
      new Map(
        (
          await database.db.query<{ relname: string; n: string }>('SELECT relname, n_live_tup::text AS n FROM pg_stat_user_tables')
        ).rows.map((r) => [r.relname, Number(r.n)]),
      );
    const before = await liveRows();
    await clientWithHistory('COST_1K', 'CSA', 1_000);
    await clientWithHistory('COST_100K', 'CSB', 100_000);
    await database.db.query('VACUUM ANALYZE');
    // The tables the history is in (they grew by its orders): what a per-order read of it would read.
    const historyTables = [...(await liveRows())].filter(([t, n]) => n - (before.get(t) ?? 0) >= 100_000).map(([t]) => t);
    assert.ok(historyTables.includes('orders'), `history tables: ${historyTables.join(', ')}`);
    const small = await measure('COST_1K');
    const large = await measure('COST_100K');
    const grew = [...large.perTable]
      .map(([t, n]) => [t, n - (small.perTable.get(t) ?? 0)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3);
    const note = `1,000 orders of history: ${small.rows.toFixed(1)} rows read, ${small.statements.toFixed(2)} statements per order; 100,000: ${large.rows.toFixed(1)} rows, ${large.statements.toFixed(2)} statements (grew most: ${grew.map(([t, n]) => `${t} ${n.toFixed(1)}`).join(', ')})`;
    console.log(`# ${note}`);
    // Growth is what is tested. In the tables the history is in, equal within a few rows per order. The
    // desk's periodic reads of its small tables (connectors, sessions, leases, every few seconds) count
    // per order by how long a phase took (a busy machine: more of them): everything together is
    // bounded loosely, far below what reading a client's 99,000 more orders would add.
    const historyRows = (m: Map<string, number>) => historyTables.reduce((a, t) => a + (m.get(t) ?? 0), 0);
    assert.ok(
      historyRows(large.perTable) - historyRows(small.perTable) <= 5,
      `${note}; in ${historyTables.join(', ')}: ${historyRows(small.perTable).toFixed(1)} and ${historyRows(large.perTable).toFixed(1)}`,
    );
    assert.ok(large.rows - small.rows <= 50, note);
    assert.ok(Math.abs(large.statements - small.statements) <= 0.5, note);
  });
});
