// The copies owed to drop copy sessions are written by the statement that writes each report
// (docs/adr/0017 point 2): one per covering drop copy connector, none for an inactive one, none when
// the report's transaction rolls back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import { storeIntakeBatch } from '../../../packages/db/src/repos/orders/intake-batch';
import type { OrderRow } from '../../../packages/db/src/repos/orders/rows';
import { insertCancelReject, insertExecReport, type NewExecReport } from '../../../packages/db/src/repos/orders/writes';

const SESSION_DATE = '2026-11-27';

for (const kind of TEST_DB_KINDS) {
  describe(`drop copies written with their reports on ${kind}`, () => {
    let t: TestDatabase;
    const connector = new Map<string, number>();
    const orders = new Map<string, OrderRow>();
    let execSeq = 0;

    async function addConnector(compId: string, prefix: string, over: { dropCopyOf?: string[]; active?: boolean } = {}) {
      const dropCopy = over.dropCopyOf !== undefined;
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, session_type, drop_copy_of, is_active)
         VALUES ($1, $2, 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F', $3, $4, $5) RETURNING id`,
        [compId, prefix, dropCopy ? 'drop_copy' : 'order_entry', over.dropCopyOf ?? [], over.active ?? true],
      );
      connector.set(compId, rows[0]!.id);
    }

    async function addOrder(client: string, clordid: string): Promise<OrderRow> {
      const [out] = await storeIntakeBatch(t.db, [
        {
          execIdPrefix: client.slice(0, 3),
          reportTime: new Date(),
          order: {
            clordid,
            clientConnectorId: connector.get(client)!,
            sendercompid: client,
            targetcompid: 'FIXDESK',
            sessionDate: SESSION_DATE,
            msgType: 'D',
            symbol: 'C5TC',
            securityType: 'FUT',
            maturityMonthYear: '202701',
            side: '1',
            ordType: '2',
            price: '27000',
            orderQty: '10',
            timeInForce: '0',
            exchange: 'SGX',
            currency: 'USD',
            account: null,
            text: null,
            transactTime: new Date(),
            legs: [],
            parties: [],
          },
        },
      ]);
      assert.equal(out?.kind, 'stored');
      return out.kind === 'stored' ? out.order : (undefined as never);
    }

    function accept(order: OrderRow): NewExecReport {
      execSeq += 1;
      return {
        orderId: order.id,
        execid: `DCT-${kind}-${execSeq}`,
        sendercompid: order.sendercompid,
        clordid: order.clordid,
        origclordid: null,
        orderid: order.brokerorderid,
        exectype: '0',
        ordstatus: '0',
        side: order.side,
        symbol: order.symbol,
        orderqty: order.orderqty,
        price: order.price,
        lastqty: '0',
        lastpx: '0',
        cumqty: '0',
        avgpx: '0',
        leavesqty: order.orderqty,
        legIndex: null,
        ordrejreason: null,
        text: null,
        transacttime: new Date(),
      };
    }

    before(async () => {
      t = await createTestDatabase(kind);
      await addConnector('CLIENT_A', 'CLA');
      await addConnector('CLIENT_B', 'CLB');
      orders.set('A', await addOrder('CLIENT_A', 'A-1'));
      orders.set('B', await addOrder('CLIENT_B', 'B-1'));
    });
    after(async () => {
      await t?.dispose();
    });

    it('writes no copy while no drop copy connector exists', async () => {
      const er = await insertExecReport(t.db, accept(orders.get('A')!));
      assert.deepEqual(er.drop_copies, []);
      const rej = await insertCancelReject(t.db, rejectOf(orders.get('A')!));
      assert.deepEqual(rej.drop_copies, []);
      const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies');
      assert.equal(rows[0]!.n, 0);
    });

    it('writes one copy per active drop copy connector covering the client, in connector order, in the report statement', async () => {
      await addConnector('DC_ALL', 'DCA', { dropCopyOf: [] });
      await addConnector('DC_A', 'DCB', { dropCopyOf: ['CLIENT_A'] });
      await addConnector('DC_OFF', 'DCC', { dropCopyOf: [], active: false });
      await addConnector('DC_B', 'DCD', { dropCopyOf: ['CLIENT_B'] });

      const erA = await insertExecReport(t.db, accept(orders.get('A')!));
      assert.deepEqual(
        erA.drop_copies.map((c) => c.connector_id),
        [connector.get('DC_ALL'), connector.get('DC_A')],
      );
      const erB = await insertExecReport(t.db, accept(orders.get('B')!));
      assert.deepEqual(
        erB.drop_copies.map((c) => c.connector_id),
        [connector.get('DC_ALL'), connector.get('DC_B')],
      );
      const rej = await insertCancelReject(t.db, rejectOf(orders.get('A')!));
      assert.deepEqual(
        rej.drop_copies.map((c) => c.connector_id),
        [connector.get('DC_ALL'), connector.get('DC_A')],
      );

      const { rows } = await t.db.query<{
        id: number;
        drop_copy_connector_id: number;
        client_comp_id: string;
        source: string;
        exec_report_id: number | null;
        cancel_reject_id: number | null;
        sent_at: Date | null;
      }>(
        'SELECT id, drop_copy_connector_id, client_comp_id, source, exec_report_id, cancel_reject_id, sent_at FROM drop_copies ORDER BY id',
      );
      assert.deepEqual(
        rows.map((r) => [r.id, r.drop_copy_connector_id, r.client_comp_id, r.source, r.exec_report_id, r.cancel_reject_id, r.sent_at]),
        [
          ...erA.drop_copies.map((c) => [c.id, c.connector_id, 'CLIENT_A', 'er', erA.id, null, null]),
          ...erB.drop_copies.map((c) => [c.id, c.connector_id, 'CLIENT_B', 'er', erB.id, null, null]),
          ...rej.drop_copies.map((c) => [c.id, c.connector_id, 'CLIENT_A', 'cxlrej', null, rej.id, null]),
        ],
      );
    });

    it('reads the drop copy lists in the report statement: a change counts from the next report, without backfill', async () => {
      await t.db.query(`UPDATE client_connectors SET drop_copy_of = '{CLIENT_B}' WHERE comp_id = 'DC_A'`);
      const erA = await insertExecReport(t.db, accept(orders.get('A')!));
      assert.deepEqual(
        erA.drop_copies.map((c) => c.connector_id),
        [connector.get('DC_ALL')],
      );
      await t.db.query(`UPDATE client_connectors SET drop_copy_of = '{CLIENT_A}' WHERE comp_id = 'DC_A'`);
    });

    it('keeps no copy of a report whose transaction rolled back', async () => {
      const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies');
      await assert.rejects(
        t.db.transaction(async (tx) => {
          const er = await insertExecReport(tx, accept(orders.get('A')!));
          assert.equal(er.drop_copies.length, 2);
          throw new Error('the action failed after its report');
        }),
        /the action failed/,
      );
      const afterRollback = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies');
      assert.equal(afterRollback.rows[0]!.n, before.rows[0]!.n);
    });

    it('keeps a drop copy connector that is owed copies: it cannot be deleted', async () => {
      await assert.rejects(t.db.query(`DELETE FROM client_connectors WHERE comp_id = 'DC_ALL'`), /foreign key/i);
    });
  });
}

function rejectOf(order: OrderRow) {
  return {
    orderId: order.id,
    sendercompid: order.sendercompid,
    clordid: `${order.clordid}-CXL`,
    origclordid: order.clordid,
    orderid: order.brokerorderid,
    ordstatus: order.ordstatus,
    responseTo: '1',
    reason: 0,
    text: 'Too late to cancel',
  };
}
