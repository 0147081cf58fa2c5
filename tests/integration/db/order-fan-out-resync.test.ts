// On both engines: after a gap on the bus, the orders refused at intake that another
// node stored since the last one heard of are read from refused_orders and published again, like the
// changed orders; past the resync limit the browsers are told to reload.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latestOrderActivity, refusedOrdersAfter, storeRefusedOrders, type RefusedOrderRecord } from '@fixdesk/db';
import { createTestDatabase, TEST_DB_KINDS } from '@fixdesk/db/testing';
import pino from 'pino';
import type { NodeBus } from '../../../apps/server/src/cluster/node-bus';
import { OrderFanOut, orderActivity } from '../../../apps/server/src/cluster/order-fan-out';
import type { OrderPublisher } from '../../../apps/server/src/orders/publisher';
import { seededDatabase } from '../../support/seeded-database';
import { until } from '../../support/until';

const refusal = (clordid: string): RefusedOrderRecord => ({
  sendercompid: 'SGX_CLIENT_1',
  targetcompid: 'FIXDESK',
  clientConnectorId: null,
  sessionDate: null,
  msgType: 'D',
  clordid,
  symbol: 'NOPE',
  securityType: null,
  maturityMonthYear: null,
  side: '1',
  ordType: '1',
  price: null,
  orderQty: '10',
  timeInForce: null,
  exchange: null,
  currency: null,
  account: null,
  text: null,
  legs: [],
  ordRejReason: 1,
  rejectText: 'Unknown symbol NOPE',
  execId: null,
  transactTime: null,
});

for (const kind of TEST_DB_KINDS) {
  describe(`other nodes' refused orders after a gap on ${kind}`, () => {
    it('are read again from where the last heard of left off, and past the limit the browsers reload', async () => {
      const t = await createTestDatabase(kind, { template: seededDatabase() });
      try {
        const store = async (...ids: string[]) => (await storeRefusedOrders(t.db, ids.map(refusal))).map((r) => Number(r[0]));
        const before = await latestOrderActivity(t.db);
        const [r1] = await store('R-1');
        assert.equal((await latestOrderActivity(t.db)).refused, r1);
        assert.deepEqual(await refusedOrdersAfter(t.db, before.refused, 10), { ids: [r1], last: r1 });

        let onMessage: ((body: Record<string, unknown>) => void) | undefined;
        let onGap: (() => void) | undefined;
        const bus: NodeBus = {
          publish: () => undefined,
          subscribe: async (_channel, m, g) => {
            onMessage = m;
            onGap = g;
          },
          close: async () => undefined,
        };
        const published: number[][] = [];
        const publisher = {
          publishStored: async () => undefined,
          publishStoredRefusals: async (ids: readonly number[]) => void published.push([...ids]),
        };
        const reloads: string[] = [];
        const fanOut = new OrderFanOut(bus, orderActivity(t.db), pino({ level: 'silent' }), {
          reloadBrowsers: (reason) => reloads.push(reason),
          resyncLimit: 3,
        });
        await fanOut.start(publisher as unknown as OrderPublisher);

        // Heard of: published once.
        const [r2] = await store('R-2');
        onMessage!({ c: [], r: [r2] });
        // Each step waits for its outcome (a fixed pause after the queue emptied was too short for a
        // loaded machine); what must not happen shows in the next step's list.
        await until('R-2 published', () => published.length === 1);
        assert.deepEqual(published, [[r2]]);

        // Two refused elsewhere whose message was lost: the gap publishes them, and not again.
        const [r3, r4] = await store('R-3', 'R-4');
        onGap!();
        await until('the gap read', () => published.length === 2);
        assert.deepEqual(published, [[r2], [r3, r4]]);

        // More missed than the limit: nothing one by one, the browsers reload; the next gap starts after them.
        await store('R-5', 'R-6', 'R-7');
        onGap!();
        await until('the browsers told to reload', () => reloads.length === 1);
        assert.equal(published.length, 2);
        const [r8] = await store('R-8');
        onGap!();
        await until('R-8 published', () => published.length === 3);
        assert.deepEqual(published, [[r2], [r3, r4], [r8]]);
        assert.equal(reloads.length, 1);
      } finally {
        await t.dispose();
      }
    });
  });
}
