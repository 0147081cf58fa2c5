// What a broker action costs the database after its commit: the order is read back once, and that one
// read both tells the browsers and answers the broker's request. Before, the publisher and the route
// each read the whole order (its row, legs, parties, pending requests and reports): an accept ran 24
// statements, now 17 (with no browser signed in, whose action read is then skipped).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS, createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { startServer, type RunningServer } from '../../apps/server/src/server';
import { countingDb, type CountingDb } from '../support/counting-db';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { seededDatabase } from '../support/seeded-database';
import { signIn, testConfig } from '../support/server';

const ORDERS = 5;
/**
 * The statements of the order's read after a change (getOrderBundle), one per part, and how many of each
 * an action runs: the pending requests are also read inside the action's transaction (a client's cancel
 * or replace request the action answers).
 */
const PARTS: ReadonlyArray<readonly [fragment: string, perAction: number]> = [
  ['FROM orders o JOIN client_connectors c ON c.id = o.client_connector_id WHERE o.id = $1', 1],
  ['FROM order_legs WHERE order_id = $1', 1],
  ['FROM order_parties WHERE order_id = $1', 1],
  ["FROM order_requests WHERE order_id = $1 AND status = 'PENDING'", 2],
  ['FROM execution_reports WHERE order_id = $1 ORDER BY id', 1],
];

for (const kind of TEST_DB_KINDS) {
  describe(`a broker action reads its order back once (${kind})`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    let count: CountingDb;
    let client: TestFixClient;
    let broker = '';
    const config = testConfig();

    before(async () => {
      database = await createTestDatabase(kind, { template: seededDatabase() });
      count = countingDb(database.db);
      server = await startServer(config, { db: count.db, logger: pino({ level: 'silent' }), testClient: { ports: 'off' } });
      broker = await signIn(server.url, 'broker');
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await server?.close();
      await database?.dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    });

    const act = async (orderId: string, action: string, json: unknown) => {
      const r = await fetch(`${server.url}/api/orders/${orderId}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${broker}` },
        body: JSON.stringify(json),
      });
      const body = (await r.json()) as { order?: { ordstatus?: string; cumqty?: string } };
      assert.equal(r.status, 200, JSON.stringify(body));
      return body.order!;
    };

    it('one read of the order per accept and per fill, and the answer shows the order as stored', async () => {
      const ids: string[] = [];
      for (let i = 0; i < ORDERS; i++) {
        await client.send('D', newOrderSingle(`BAR-${kind}-${i}`, { qty: '10', price: '27000' }));
        ids.push((await client.waitForReport(`BAR-${kind}-${i}`, (m) => m.get(150) === 'A')).get(37)!);
      }
      const before = PARTS.map(([p]) => count.statementsLike(p));
      for (const id of ids) {
        const accepted = await act(id, 'accept', {});
        assert.equal(accepted.ordstatus, '0', 'the answer is the order as the accept left it');
        const filled = await act(id, 'fill', { fillQty: 4, fillPrice: 27000 });
        assert.deepEqual([filled.ordstatus, Number(filled.cumqty)], ['1', 4], 'the answer is the order as the fill left it');
      }
      // The browsers' read (the publisher's) ends after the answer: wait for the last one.
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(
        PARTS.map(([p], i) => `${p}: ${(count.statementsLike(p) - before[i]!) / (2 * ORDERS)}`),
        PARTS.map(([p, n]) => `${p}: ${n}`),
      );
    });
  });
}
