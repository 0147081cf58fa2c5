// The copies owed to drop copy sessions are written by the statement that writes each report
// (docs/adr/0017 point 2, migration 24's triggers): one per covering drop copy connector, none for an
// inactive one, none when the report's transaction rolls back, whichever statement wrote the report.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '@fixdesk/db';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import { storeIntakeBatch, type IntakeEntry } from '../../../packages/db/src/repos/orders/intake-batch';
import type { OrderRow } from '../../../packages/db/src/repos/orders/rows';
import { countUnsentDropCopies, markDropCopiesSent, unsentDropCopies } from '../../../packages/db/src/repos/drop-copies';
import {
  insertCancelReject,
  insertExecReport,
  unsentCancelRejects,
  type NewExecReport,
} from '../../../packages/db/src/repos/orders/writes';
import { orderTimelineRows } from '../../../packages/db/src/repos/orders/timeline';

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

    function newOrder(client: string, clordid: string): IntakeEntry {
      return {
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
      };
    }

    async function addOrder(client: string, clordid: string): Promise<OrderRow> {
      const [out] = await storeIntakeBatch(t.db, [newOrder(client, clordid)]);
      assert.equal(out?.kind, 'stored');
      return out.kind === 'stored' ? out.order : (undefined as never);
    }

    /** The copies of one report, by drop copy connector id, in id order. */
    async function copiesOf(source: 'er' | 'cxlrej', reportId: number): Promise<number[]> {
      const { rows } = await t.db.query<{ drop_copy_connector_id: number }>(
        `SELECT drop_copy_connector_id FROM drop_copies WHERE ${source === 'er' ? 'exec_report_id' : 'cancel_reject_id'} = $1 ORDER BY id`,
        [reportId],
      );
      return rows.map((r) => r.drop_copy_connector_id);
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
      assert.deepEqual(await copiesOf('er', er.id), []);
      const rej = await insertCancelReject(t.db, rejectOf(orders.get('A')!));
      assert.deepEqual(await copiesOf('cxlrej', rej.id), []);
      const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies');
      assert.equal(rows[0]!.n, 0);
    });

    it('writes one copy per active drop copy connector covering the client, in connector order, in the report statement', async () => {
      await addConnector('DC_ALL', 'DCA', { dropCopyOf: [] });
      await addConnector('DC_A', 'DCB', { dropCopyOf: ['CLIENT_A'] });
      await addConnector('DC_OFF', 'DCC', { dropCopyOf: [], active: false });
      await addConnector('DC_B', 'DCD', { dropCopyOf: ['CLIENT_B'] });
      const forA = [connector.get('DC_ALL'), connector.get('DC_A')];
      const forB = [connector.get('DC_ALL'), connector.get('DC_B')];

      const erA = await insertExecReport(t.db, accept(orders.get('A')!));
      assert.deepEqual(await copiesOf('er', erA.id), forA);
      const erB = await insertExecReport(t.db, accept(orders.get('B')!));
      assert.deepEqual(await copiesOf('er', erB.id), forB);
      const rej = await insertCancelReject(t.db, rejectOf(orders.get('A')!));
      assert.deepEqual(await copiesOf('cxlrej', rej.id), forA);

      const { rows } = await t.db.query<{ client_comp_id: string; source: string; sent_at: Date | null }>(
        'SELECT client_comp_id, source, sent_at FROM drop_copies ORDER BY id',
      );
      assert.deepEqual(
        rows.map((r) => [r.client_comp_id, r.source, r.sent_at]),
        [
          ['CLIENT_A', 'er', null],
          ['CLIENT_A', 'er', null],
          ['CLIENT_B', 'er', null],
          ['CLIENT_B', 'er', null],
          ['CLIENT_A', 'cxlrej', null],
          ['CLIENT_A', 'cxlrej', null],
        ],
      );
    });

    it("copies the intake's Pending News, several clients in one statement, in the reports' order", async () => {
      const outcomes = await storeIntakeBatch(t.db, [
        newOrder('CLIENT_B', 'B-2'),
        { execIdPrefix: 'CLA', reportTime: new Date(), order: null }, // a refusal: only its ExecID is drawn
        newOrder('CLIENT_A', 'A-2'),
      ]);
      const ers = outcomes.map((o) => (o.kind === 'stored' ? o.er.id : null));
      assert.equal(ers[1], null);
      assert.deepEqual(await copiesOf('er', ers[0]!), [connector.get('DC_ALL'), connector.get('DC_B')]);
      assert.deepEqual(await copiesOf('er', ers[2]!), [connector.get('DC_ALL'), connector.get('DC_A')]);
      const { rows } = await t.db.query<{ exec_report_id: number }>(
        'SELECT exec_report_id FROM drop_copies WHERE exec_report_id = ANY ($1::int8[]) ORDER BY id',
        [[ers[0], ers[2]]],
      );
      assert.deepEqual(
        rows.map((r) => r.exec_report_id),
        [ers[0], ers[0], ers[2], ers[2]],
      );
    });

    it('reads the drop copy lists in the report statement: a change counts from the next report, without backfill', async () => {
      await t.db.query(`UPDATE client_connectors SET drop_copy_of = '{CLIENT_B}' WHERE comp_id = 'DC_A'`);
      const erA = await insertExecReport(t.db, accept(orders.get('A')!));
      assert.deepEqual(await copiesOf('er', erA.id), [connector.get('DC_ALL')]);
      await t.db.query(`UPDATE client_connectors SET drop_copy_of = '{CLIENT_A}' WHERE comp_id = 'DC_A'`);
    });

    it('keeps no copy of a report whose transaction rolled back', async () => {
      const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies');
      await assert.rejects(
        t.db.transaction(async (tx) => {
          await insertExecReport(tx, accept(orders.get('A')!));
          const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies');
          assert.equal(rows[0]!.n, before.rows[0]!.n + 2);
          throw new Error('the action failed after its report');
        }),
        /the action failed/,
      );
      const afterRollback = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies');
      assert.equal(afterRollback.rows[0]!.n, before.rows[0]!.n);
    });

    it("reads a session's unsent copies in id order with their reports and orders, in bursts, and marks them sent in one statement", async () => {
      const dcA = connector.get('DC_A')!;
      const all = await unsentDropCopies(t.db, dcA, 1000);
      const { rows } = await t.db.query<{ id: string; source: string; exec_report_id: string | null; cancel_reject_id: string | null }>(
        'SELECT id, source, exec_report_id, cancel_reject_id FROM drop_copies WHERE drop_copy_connector_id = $1 AND sent_at IS NULL ORDER BY id',
        [dcA],
      );
      assert.ok(rows.length >= 3);
      assert.deepEqual(
        all.map((c) => [c.id, c.source, c.source === 'er' ? c.er.id : c.source === 'cxlrej' ? c.reject.id : null]),
        rows.map((r) => [Number(r.id), r.source, Number(r.exec_report_id ?? r.cancel_reject_id)]),
      );
      for (const c of all) {
        assert.equal(c.clientCompId, 'CLIENT_A');
        if (c.source === 'er') {
          assert.equal(c.order.msg_type, 'D');
          assert.equal(c.order.symbol, orders.get('A')!.symbol);
          assert.equal(Number(c.er.order_id), c.order.id);
          assert.deepEqual(c.legs, []);
        } else {
          assert.equal(c.source, 'cxlrej', 'no refusal in this database');
          if (c.source !== 'cxlrej') continue;
          assert.equal(c.reject.text, 'Too late to cancel');
          assert.equal(c.reject.connector_id, connector.get('CLIENT_A'));
          assert.equal(c.reject.sent_orderid, orders.get('A')!.brokerorderid);
        }
      }
      // A burst of two, then the rest: that read marks the two sent (the numbers they went out under).
      const first = await unsentDropCopies(t.db, dcA, 2);
      assert.deepEqual(
        first.map((c) => c.id),
        all.slice(0, 2).map((c) => c.id),
      );
      const before = (await countUnsentDropCopies(t.db)).find((q) => q.comp_id === 'DC_A')!;
      assert.equal(before.depth, all.length);
      assert.ok(before.oldest_unsent_at instanceof Date);
      const rest = await unsentDropCopies(t.db, dcA, 1000, [
        [first[0]!.id, 7],
        [first[1]!.id, 8],
      ]);
      assert.deepEqual(
        rest.map((c) => c.id),
        all.slice(2).map((c) => c.id),
      );
      const sent = await t.db.query<{ sent_seq_num: number; sent_at: Date | null }>(
        'SELECT sent_seq_num, sent_at FROM drop_copies WHERE id = ANY ($1::int8[]) ORDER BY id',
        [[first[0]!.id, first[1]!.id]],
      );
      assert.deepEqual(
        sent.rows.map((r) => [r.sent_seq_num, r.sent_at instanceof Date]),
        [
          [7, true],
          [8, true],
        ],
      );
      assert.deepEqual(
        (await unsentDropCopies(t.db, dcA, 1000)).map((c) => c.id),
        all.slice(2).map((c) => c.id),
      );
      // A mark of its own (the drain's last burst).
      await markDropCopiesSent(t.db, [[rest[0]!.id, 9]]);
      assert.deepEqual(
        (await unsentDropCopies(t.db, dcA, 1000)).map((c) => c.id),
        all.slice(3).map((c) => c.id),
      );
      // A second mark of a copy already sent changes nothing.
      await markDropCopiesSent(t.db, [[first[0]!.id, 99]]);
      const again = await t.db.query<{ sent_seq_num: number }>('SELECT sent_seq_num FROM drop_copies WHERE id = $1', [first[0]!.id]);
      assert.equal(again.rows[0]!.sent_seq_num, 7);
      const after = (await countUnsentDropCopies(t.db)).find((q) => q.comp_id === 'DC_A')!;
      assert.equal(after.depth, all.length - 3);
      // An inactive drop copy connector is listed with nothing waiting.
      assert.deepEqual(
        (await countUnsentDropCopies(t.db)).find((q) => q.comp_id === 'DC_OFF'),
        { comp_id: 'DC_OFF', depth: 0, oldest_unsent_at: null },
      );
    });

    it("lists each of an order's reports' copies on its timeline: to which session, and the number it went out under", async () => {
      const order = orders.get('A')!;
      const timeline = await orderTimelineRows(t.db, String(order.id));
      const { rows } = await t.db.query<{ report_id: number; session: string; sent_seq_num: number | null }>(
        `SELECT d.exec_report_id::int AS report_id, c.comp_id AS session, d.sent_seq_num
           FROM drop_copies d JOIN client_connectors c ON c.id = d.drop_copy_connector_id JOIN execution_reports e ON e.id = d.exec_report_id
          WHERE e.order_id = $1 ORDER BY d.id`,
        [order.id],
      );
      assert.ok(rows.length >= 2 && rows.some((r) => r.sent_seq_num !== null) && rows.some((r) => r.sent_seq_num === null));
      assert.deepEqual(
        timeline!.copies.map((c) => ({ report_id: Number(c.report_id), session: c.session, sent_seq_num: c.sent_seq_num })),
        rows,
      );
      for (const c of timeline!.copies) assert.equal(c.sent_at === null, c.sent_seq_num === null);
      assert.ok(timeline!.copies.every((c) => timeline!.reports.some((r) => r.id === Number(c.report_id))));
    });

    it("answers a cancel reject with the order's own OrderID when the request named another, whether sent live or later", async () => {
      const order = orders.get('B')!;
      const wrong = await insertCancelReject(t.db, { ...rejectOf(order), clordid: 'B-1-WRONG', orderid: 'BO-NOT-THIS-ONE' });
      const unknown = await insertCancelReject(t.db, { ...rejectOf(order), orderId: null, clordid: 'B-1-UNKNOWN', orderid: 'NONE' });
      const read = new Map((await unsentCancelRejects(t.db, 'CLIENT_B')).map((r) => [Number(r.id), r]));
      assert.equal(read.get(wrong.id)?.orderid, 'BO-NOT-THIS-ONE', 'the row keeps what the client named');
      assert.equal(read.get(wrong.id)?.sent_orderid, order.brokerorderid);
      assert.equal(read.get(unknown.id)?.sent_orderid, 'NONE');
    });

    it("writes a report's copies without reading the reports: the cost per copy does not grow with the table", async () => {
      // In one transaction (one connection, its own counts in pg_stat_xact_user_tables), rolled back at
      // the end: a report and its copies while the table is small (where a per-copy check of the report
      // would be prepared), then 3,000 more reports, then ten reports with their copies, counted.
      const rollback = new Error('rollback');
      const read = async (tx: Queryable) =>
        Number(
          (
            await tx.query<{ n: string }>(
              `SELECT (seq_tup_read + coalesce(idx_tup_fetch, 0))::text AS n FROM pg_stat_xact_user_tables WHERE relname = 'execution_reports'`,
            )
          ).rows[0]?.n ?? 0,
        );
      let perCopy = NaN;
      await t.db
        .transaction(async (tx) => {
          const order = orders.get('A')!;
          await insertExecReport(tx, accept(order));
          await tx.query(
            `INSERT INTO execution_reports (order_id, execid, clordid, orderid, exectype, ordstatus, transacttime, sendercompid)
             SELECT $1, 'GROW-' || g, $2, $3, '0', '0', now(), $4 FROM generate_series(1, 3000) g`,
            [order.id, order.clordid, order.brokerorderid, order.sendercompid],
          );
          const before = await read(tx);
          const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies');
          for (let i = 0; i < 10; i++) await insertExecReport(tx, accept(order));
          const copies = (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM drop_copies')).rows[0]!.n - rows[0]!.n;
          assert.ok(copies >= 10, `${copies} copies`);
          perCopy = (await read(tx)) - before;
          perCopy /= copies;
          throw rollback;
        })
        .catch((err: unknown) => {
          if (err !== rollback) throw err;
        });
      // The count reads above read no report row; a check of each copy's report by a scan read thousands.
      assert.ok(perCopy < 1, `${perCopy} report rows read per copy`);
    });

    it('drains a session in one statement a burst, marks included, reading as many rows per copy however many were sent before', async () => {
      // In one transaction (its own counts in pg_stat_xact_user_tables), rolled back at the end: what
      // DC_A waits for is marked sent, 200 orders of CLIENT_A are stored (200 copies for DC_A), then
      // drained in bursts of 50 as the drop copy outbox does (each read marks the burst before it), each
      // burst's statements and rows read counted; then 1,000 orders more, sent, and one burst counted again.
      const rollback = new Error('rollback');
      const dcA = connector.get('DC_A')!;
      const tables = ['drop_copies', 'execution_reports', 'orders', 'order_legs', 'order_cancel_rejects'];
      const read = async (tx: Queryable) =>
        new Map(
          (
            await tx.query<{ relname: string; n: string }>(
              `SELECT relname, (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS n
                 FROM pg_stat_xact_user_tables WHERE relname = ANY ($1::text[])`,
              [tables],
            )
          ).rows.map((r) => [r.relname, Number(r.n)]),
        );
      let n = 0;
      const store = async (tx: Queryable, count: number) => {
        for (let i = 0; i < count; i += 100)
          await storeIntakeBatch(
            tx,
            Array.from({ length: Math.min(100, count - i) }, () => newOrder('CLIENT_A', `DRAIN-${++n}`)),
          );
      };
      interface Burst {
        copies: number;
        statements: number;
        rows: Record<string, number>;
      }
      const bursts: Burst[] = [];
      let marks: Array<[number, number]> = [];
      let seq = 0;
      /** One burst as the outbox reads it, the previous burst's marks with it; its counts. */
      const burst = async (tx: Queryable): Promise<Burst> => {
        let statements = 0;
        const counted: Queryable = {
          query: (...args: Parameters<Queryable['query']>) => {
            statements++;
            return tx.query(...args);
          },
        } as Queryable;
        const before = await read(tx);
        const copies = await unsentDropCopies(counted, dcA, 50, marks);
        const after = await read(tx);
        marks = copies.map((c) => [c.id, ++seq]);
        return {
          copies: copies.length,
          statements,
          rows: Object.fromEntries(tables.map((t) => [t, (after.get(t) ?? 0) - (before.get(t) ?? 0)])),
        };
      };
      await t.db
        .transaction(async (tx) => {
          await tx.query('UPDATE drop_copies SET sent_at = now(), sent_seq_num = 0 WHERE drop_copy_connector_id = $1 AND sent_at IS NULL', [
            dcA,
          ]);
          await store(tx, 200);
          for (;;) {
            const b = await burst(tx);
            bursts.push(b);
            if (!b.copies) break;
          }
          // Everything marked: nothing waits.
          assert.equal((await countUnsentDropCopies(tx)).find((q) => q.comp_id === 'DC_A')!.depth, 0);
          await store(tx, 1000);
          await tx.query('UPDATE drop_copies SET sent_at = now(), sent_seq_num = 0 WHERE drop_copy_connector_id = $1 AND sent_at IS NULL', [
            dcA,
          ]);
          await store(tx, 100);
          marks = [];
          bursts.push(await burst(tx), await burst(tx));
          throw rollback;
        })
        .catch((err: unknown) => {
          if (err !== rollback) throw err;
        });
      assert.deepEqual(
        bursts.map((b) => b.copies),
        [50, 50, 50, 50, 0, 50, 50],
      );
      // One statement a burst: the copies with their reports' and orders' columns, and the marks (these
      // orders have no legs: no read of order_legs); an empty read (marking the last burst) is one too.
      assert.deepEqual(
        bursts.map((b) => b.statements),
        [1, 1, 1, 1, 1, 1, 1],
      );
      assert.ok(
        bursts.every((b) => b.rows.order_legs === 0),
        JSON.stringify(bursts.map((b) => b.rows)),
      );
      // Rows read per burst: no more in a later burst, nor in one after 1,250 copies sent, than in the
      // first bursts (without marks: the first; with: the second), of the tables that grow
      // with the copies. (orders is left out: on 1,250 orders the planner may read the whole table rather
      // than probe its key 50 times, a choice of size, not of what was sent.)
      const noMore = (b: Burst, than: Burst, besides: string[] = []) => {
        for (const table of tables.filter((t) => t !== 'orders' && !besides.includes(t)))
          assert.ok(b.rows[table]! <= than.rows[table]!, `${table}: ${JSON.stringify(b.rows)} against ${JSON.stringify(than.rows)}`);
      };
      noMore(bursts[3]!, bursts[1]!);
      noMore(bursts[5]!, bursts[0]!);
      // The marks' UPDATE finds its rows by key on a large table; on these 1,500 copies one of the two
      // databases hashes the table instead (a choice of size): drop_copies is compared without marks.
      noMore(bursts[6]!, bursts[1]!, ['drop_copies']);
      // About one report row per copy, not the reports before it.
      assert.ok(bursts[6]!.rows.execution_reports! <= 50, JSON.stringify(bursts[6]!.rows));
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
