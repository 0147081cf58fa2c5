// The kill switch's answer counts every order working when the stop took effect and canceled since,
// also those the node holding the client's session swept first: on two nodes, a stop made at node B is
// heard by node A (the session's node), whose own sweep may cancel the orders before B's sweep reads
// them. A fresh-clone CI run beside another suite saw B answer "0 working orders canceled" after both
// of the client's working orders were canceled (tests/integration/cluster-risk.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '@fixdesk/db';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import { DomainError } from '@fixdesk/domain';
import pino from 'pino';
import type { ServerEventBus } from '../../apps/server/src/events';
import { ClientKillSwitch } from '../../apps/server/src/orders/kill-switch';
import type { OrderService } from '../../apps/server/src/orders/order-service';
import type { WsHub } from '../../apps/server/src/ws/hub';

const COMP = 'KS_COUNT';

async function addClientWithWorkingOrders(db: Db, n: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, max_orders_per_second)
     VALUES ($1, 'KSC', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F,S,S', 1000) RETURNING id`,
    [COMP],
  );
  const orders = await db.query<{ id: string }>(
    `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, maturity_month_year,
                         side, ordtype, price, orderqty, timeinforce, ordstatus, cumqty, leavesqty, avgpx, transacttime)
     SELECT 'KSC-' || i, 'KSC-' || i, $1, $2, 'FIXDESK', current_date, 'D', 'C5TC', '203001', '1', '2', 27000, 5, '0',
            CASE WHEN i % 2 = 0 THEN 'A' ELSE '0' END, 0, 5, 0, now()
       FROM generate_series(1, $3::int) i
     RETURNING id::text AS id`,
    [rows[0]!.id, COMP, n],
  );
  return orders.rows.map((r) => Number(r.id));
}

for (const kind of TEST_DB_KINDS) {
  describe(`kill switch on ${kind}: what the stop answers`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await createTestDatabase(kind);
    });
    after(async () => {
      await t?.dispose();
    });

    it('counts the orders another node swept first as canceled by the stop', async () => {
      const ids = await addClientWithWorkingOrders(t.db, 2);
      let otherSweep: Promise<unknown> | undefined;
      // Node A, holding the session, hears of the stop at once and cancels both orders.
      const events = {
        emit: (event: string, compId: string) => {
          if (event === 'connector-changed' && compId === COMP)
            otherSweep = t.db.query(`UPDATE orders SET ordstatus = '4', leavesqty = 0 WHERE sendercompid = $1`, [COMP]);
        },
      } as unknown as ServerEventBus;
      const cancelAttempts: string[] = [];
      const orders = {
        holdsClient: () => false,
        intakeIdle: async () => {},
        // As the broker's cancel answers for an order closed meanwhile.
        brokerCancel: async (id: string) => {
          cancelAttempts.push(id);
          await otherSweep;
          throw new DomainError('conflict', `Order ${id} is Canceled`);
        },
      } as unknown as OrderService;
      const hub = { broadcast: () => {} } as unknown as WsHub;
      const killSwitch = new ClientKillSwitch(t.db, orders, events, hub, async () => false, pino({ level: 'silent' }));
      const user = { user_id: 0, username: 'broker', role: 'broker' } as Parameters<ClientKillSwitch['stop']>[1];

      const result = await killSwitch.stop(COMP, user, 'runaway algo');
      assert.equal(result.canceled_orders, 2, JSON.stringify(result));
      assert.deepEqual(result.not_canceled, []);
      assert.deepEqual(cancelAttempts.map(Number).sort(), ids.sort(), 'each order working at the stop is looked at');
      assert.equal(result.trading_stop?.reason, 'runaway algo');
    });
  });
}
