// The drop copies of refusals at intake (docs/adr/0017 point 2, migration 26): a refusal has no report
// row, so the intake's own statements write its copies, carrying its facts, in the commit that draws its
// ExecID: the planned statement, the careful path's first statement (refusals) and its second (the
// duplicate ClOrdIDs it met), or a statement of their own right after a batch that committed alone. Only
// the shapes of batches holding a refusal have the CTE; writing it reads nothing that grows with history.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '@fixdesk/db';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import { storeIntakeBatch, type IntakeEntry, type IntakeOutcome } from '../../../packages/db/src/repos/orders/intake-batch';
import { storeIntakeReportsWithReplies, storePlannedIntakeWithReplies } from '../../../packages/db/src/repos/orders/intake-replies';
import { ClOrdIdIndex, IntakeIdPool, intakeNeeds, planIntake, plannedIntakeCtes } from '../../../packages/db/src/repos/intake-plan';
import { storeRefusalCopies, unsentDropCopies, type RefusalCopyFacts, type RefusalTerms } from '../../../packages/db/src/repos/drop-copies';
import { storeRefusedOrders } from '../../../packages/db/src/repos/orders/refused';
import { orderTimelineRows } from '../../../packages/db/src/repos/orders/timeline';

const SESSION_DATE = '2026-11-30';

/** Terms as a client may send them: raw wire text, a quantity that is no number included. */
function termsOf(clOrdId: string, over: Partial<RefusalTerms> = {}): RefusalTerms {
  return {
    clOrdId,
    side: '2',
    symbol: 'C5TC',
    orderQty: 'ten',
    ordType: '2',
    price: '27000.50',
    account: 'ACC "1"',
    ordRejReason: '99',
    text: `Invalid OrderQty for ${clOrdId}`,
    ...over,
  };
}

for (const kind of TEST_DB_KINDS) {
  describe(`refusal copies written by the intake's statements on ${kind}`, () => {
    let t: TestDatabase;
    const connector = new Map<string, number>();

    async function addConnector(compId: string, prefix: string, dropCopyOf?: string[]) {
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, session_type, drop_copy_of)
         VALUES ($1, $2, 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F', $3, $4) RETURNING id`,
        [compId, prefix, dropCopyOf ? 'drop_copy' : 'order_entry', dropCopyOf ?? []],
      );
      connector.set(compId, rows[0]!.id);
    }

    function refusal(client: string, clOrdId: string, over: Partial<RefusalTerms> = {}): IntakeEntry {
      return { order: null, execIdPrefix: client.slice(0, 3), reportTime: new Date(), refusal: { client, terms: termsOf(clOrdId, over) } };
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
    const duplicateTerms = (clordid: string) =>
      termsOf(clordid, { ordRejReason: '6', text: `Duplicate ClOrdID ${clordid}`, orderQty: '10' });

    /** The refusal copies of an ExecID: [drop copy connector comp id, client, facts], in id order. */
    async function copiesOf(execId: string): Promise<Array<[string, string, RefusalCopyFacts]>> {
      const { rows } = await t.db.query<{ comp_id: string; client_comp_id: string; refusal: RefusalCopyFacts }>(
        `SELECT c.comp_id, d.client_comp_id, d.refusal FROM drop_copies d JOIN client_connectors c ON c.id = d.drop_copy_connector_id
          WHERE d.source = 'refusal' AND d.refusal ->> 'execId' = $1 ORDER BY d.id`,
        [execId],
      );
      return rows.map((r) => [r.comp_id, r.client_comp_id, r.refusal]);
    }

    /** A planned batch written by its one statement, as the batcher writes it without replies. */
    async function storePlanned(db: Queryable, entries: IntakeEntry[]): Promise<IntakeOutcome[]> {
      const index = new ClOrdIdIndex(db);
      for (const e of entries) if (e.order) await index.load(e.order.sendercompid, e.order.sessionDate);
      const pool = new IntakeIdPool(db, 16);
      const need = intakeNeeds(entries, index)!;
      await pool.refill(need);
      const plan = planIntake(entries, pool.take(need)!, index, new Date());
      await storePlannedIntakeWithReplies(
        db,
        plan,
        plan.outcomes.map(() => null),
        [],
      );
      return plan.outcomes;
    }

    const execIdOf = (o: IntakeOutcome | undefined) => {
      assert.ok(o && o.kind !== 'stored', `a refusal, not ${o?.kind}`);
      return o.execId;
    };

    before(async () => {
      t = await createTestDatabase(kind);
      await addConnector('CLIENT_A', 'CLA');
      await addConnector('CLIENT_B', 'CLB');
      await addConnector('DC_ALL', 'DCA', []);
      await addConnector('DC_A', 'DCB', ['CLIENT_A']);
    });
    after(async () => {
      await t?.dispose();
    });

    it('writes the copies of a planned batch’s refusals in its one statement, with the facts the refusal told, per covering session', async () => {
      const entries = [refusal('CLIENT_A', 'P-1'), newOrder('CLIENT_B', 'P-2'), refusal('CLIENT_B', 'P-3', { side: null, orderQty: null })];
      const outcomes = await storePlanned(t.db, entries);
      const a = await copiesOf(execIdOf(outcomes[0]));
      assert.deepEqual(
        a.map(([dc, client]) => [dc, client]),
        [
          ['DC_ALL', 'CLIENT_A'],
          ['DC_A', 'CLIENT_A'],
        ],
      );
      const facts = a[0]![2];
      assert.deepEqual(
        { ...facts, transactTime: undefined },
        { ...termsOf('P-1'), execId: execIdOf(outcomes[0]), transactTime: undefined },
      );
      assert.equal(new Date(facts.transactTime).getTime(), entries[0]!.reportTime.getTime());
      const b = await copiesOf(execIdOf(outcomes[2]));
      assert.deepEqual(
        b.map(([dc, client, f]) => [dc, client, f.side, f.orderQty]),
        [['DC_ALL', 'CLIENT_B', null, null]],
      );
      // The order in between got its Pending New's copy from the trigger, after the statement's refusals.
      assert.equal(outcomes[1]?.kind, 'stored');
    });

    it('writes the copies of a careful batch’s refusals in the statement that draws their ExecIDs, written alone or deferred', async () => {
      for (const deferReports of [false, true]) {
        const outcomes = await t.db.transaction((tx) =>
          storeIntakeBatch(tx, [newOrder('CLIENT_A', `C-${deferReports}-1`), refusal('CLIENT_A', `C-${deferReports}-2`)], { deferReports }),
        );
        assert.deepEqual(
          (await copiesOf(execIdOf(outcomes[1]))).map(([dc, , f]) => [dc, f.clOrdId, f.execId]),
          [
            ['DC_ALL', `C-${deferReports}-2`, execIdOf(outcomes[1])],
            ['DC_A', `C-${deferReports}-2`, execIdOf(outcomes[1])],
          ],
        );
      }
    });

    it('writes the copies of a duplicate ClOrdID with the Pending News of its batch, or in a statement of their own', async () => {
      const [stored] = await storeIntakeBatch(t.db, [newOrder('CLIENT_A', 'D-1')]);
      assert.equal(stored?.kind, 'stored');
      // The transaction path: the second statement writes the reports, the replies and the duplicate's copies.
      const outcomes = await t.db.transaction(async (tx) => {
        const out = await storeIntakeBatch(tx, [newOrder('CLIENT_A', 'D-1'), newOrder('CLIENT_A', 'D-2')], { deferReports: true });
        assert.equal(out[0]?.kind, 'duplicate');
        const dup = out[0]!.kind === 'duplicate' ? out[0]! : (undefined as never);
        const er = out[1]!.kind === 'stored' ? out[1]!.er : (undefined as never);
        await storeIntakeReportsWithReplies(
          tx,
          [{ er, sentSeqNum: null }],
          [],
          [{ client: 'CLIENT_A', execId: dup.execId, transactTime: new Date(), terms: duplicateTerms('D-1') }],
        );
        return out;
      });
      assert.deepEqual(
        (await copiesOf(execIdOf(outcomes[0]))).map(([dc, , f]) => [dc, f.clOrdId, f.ordRejReason]),
        [
          ['DC_ALL', 'D-1', '6'],
          ['DC_A', 'D-1', '6'],
        ],
      );
      // A statement of its own (a batch that committed alone), for a client only DC_ALL covers.
      await storeRefusalCopies(t.db, [{ client: 'CLIENT_B', execId: 'CLB-OWN-1', transactTime: new Date(), terms: termsOf('D-3') }]);
      assert.deepEqual(
        (await copiesOf('CLB-OWN-1')).map(([dc]) => dc),
        ['DC_ALL'],
      );
    });

    it('adds nothing to the statements of a batch without a refusal', async () => {
      const seen: Array<{ sql: string; name: string | undefined }> = [];
      const recording: Queryable = {
        query: <T>(sql: string, params?: readonly unknown[], opts?: { name?: string }) => {
          seen.push({ sql, name: opts?.name });
          return t.db.query<T>(sql, params, opts);
        },
      };
      // Orders only (no refusal terms met): the careful path's one statement.
      await storeIntakeBatch(recording, [newOrder('CLIENT_B', 'N-1'), newOrder('CLIENT_B', 'N-2')]);
      assert.deepEqual(
        seen.map((s) => s.name),
        ['intake_batch_r'],
      );
      assert.ok(!seen[0]!.sql.includes('refusal'), 'no refusal CTE');
      // The planned statement's CTEs and name are those of a batch of orders.
      const index = new ClOrdIdIndex(t.db);
      await index.load('CLIENT_B', SESSION_DATE);
      const entries = [newOrder('CLIENT_B', 'N-3')];
      const pool = new IntakeIdPool(t.db, 16);
      const need = intakeNeeds(entries, index)!;
      await pool.refill(need);
      const planned = plannedIntakeCtes(planIntake(entries, pool.take(need)!, index, new Date()), [null], 14);
      assert.equal(planned.name, 'planned_intake_o');
      assert.ok(!planned.ctes.includes('refusal'), 'no refusal CTE');
      // With a refusal: one CTE more, in the same one statement.
      seen.length = 0;
      await storeIntakeBatch(recording, [newOrder('CLIENT_B', 'N-4'), refusal('CLIENT_B', 'N-5')]);
      assert.deepEqual(
        seen.map((s) => s.name),
        ['intake_batch_rf'],
      );
    });

    it('reads a session’s refusal copies among its other copies, in id order, with their facts', async () => {
      const dcA = connector.get('DC_A')!;
      const copies = await unsentDropCopies(t.db, dcA, 1000);
      const { rows } = await t.db.query<{ id: string; source: string }>(
        'SELECT id, source FROM drop_copies WHERE drop_copy_connector_id = $1 AND sent_at IS NULL ORDER BY id',
        [dcA],
      );
      assert.deepEqual(
        copies.map((c) => [c.id, c.source]),
        rows.map((r) => [Number(r.id), r.source]),
      );
      const refusals = copies.flatMap((c) => (c.source === 'refusal' ? [c] : []));
      assert.ok(refusals.length >= 4 && copies.some((c) => c.source === 'er'));
      for (const c of refusals) {
        assert.equal(c.clientCompId, 'CLIENT_A');
        assert.match(c.refusal.execId, /^CLI-/);
        assert.ok(!Number.isNaN(new Date(c.refusal.transactTime).getTime()));
      }
      assert.deepEqual(refusals.find((c) => c.refusal.clOrdId === 'P-1')?.refusal.account, 'ACC "1"');
    });

    it("lists a refused order's copies on its timeline, by the refusal's ExecID", async () => {
      const [outcome] = await storeIntakeBatch(t.db, [refusal('CLIENT_A', 'T-1')]);
      const execId = execIdOf(outcome);
      await storeRefusedOrders(t.db, [
        {
          sendercompid: 'CLIENT_A',
          targetcompid: 'FIXDESK',
          clientConnectorId: connector.get('CLIENT_A')!,
          sessionDate: SESSION_DATE,
          msgType: 'D',
          clordid: 'T-1',
          symbol: 'C5TC',
          securityType: null,
          maturityMonthYear: null,
          side: '2',
          ordType: '2',
          price: '27000.50',
          orderQty: 'ten',
          timeInForce: null,
          exchange: null,
          currency: null,
          account: null,
          text: null,
          legs: [],
          ordRejReason: 99,
          rejectText: 'Invalid OrderQty for T-1',
          execId,
          transactTime: null,
        },
      ]);
      const { rows } = await t.db.query<{ id: number }>('SELECT id FROM refused_orders WHERE execid = $1', [execId]);
      const timeline = await orderTimelineRows(t.db, String(rows[0]!.id));
      assert.equal(timeline?.order.refused, true);
      assert.deepEqual(
        timeline!.copies.map((c) => [c.report_id, c.session, c.sent_seq_num, c.sent_at]),
        [
          [null, 'DC_ALL', null, null],
          [null, 'DC_A', null, null],
        ],
      );
    });

    it('writes refusal copies without reading anything that grows with history', async () => {
      // In one transaction (its own counts in pg_stat_xact_user_tables), rolled back: 3,000 copies and
      // reports more, then each way a refusal's copies are written, counted. Only client_connectors (the
      // drop copy connectors: a handful of rows) may be read.
      const rollback = new Error('rollback');
      const reads = async (tx: Queryable) =>
        new Map(
          (
            await tx.query<{ relname: string; n: string }>(
              `SELECT relname, (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS n FROM pg_stat_xact_user_tables`,
            )
          ).rows.map((r) => [r.relname, Number(r.n)]),
        );
      const grown = new Map<string, number>();
      await t.db
        .transaction(async (tx) => {
          await storeRefusalCopies(
            tx,
            Array.from({ length: 3000 }, (_, i) => ({
              client: 'CLIENT_A',
              execId: `GROW-${i}`,
              transactTime: new Date(),
              terms: termsOf('G'),
            })),
          );
          const [stored] = await storeIntakeBatch(tx, [newOrder('CLIENT_A', 'G-1')]);
          const order = stored!.kind === 'stored' ? stored!.order : (undefined as never);
          await tx.query(
            `INSERT INTO execution_reports (order_id, execid, clordid, orderid, exectype, ordstatus, transacttime, sendercompid)
             SELECT $1, 'GROW-' || g, $2, $3, '0', '0', now(), $4 FROM generate_series(1, 3000) g`,
            [order.id, order.clordid, order.brokerorderid, order.sendercompid],
          );
          const before = await reads(tx);
          await storePlanned(tx, [refusal('CLIENT_A', 'R-1'), refusal('CLIENT_B', 'R-2')]);
          await storeIntakeBatch(tx, [refusal('CLIENT_A', 'R-3')]);
          await storeRefusalCopies(tx, [{ client: 'CLIENT_A', execId: 'R-4', transactTime: new Date(), terms: termsOf('R-4') }]);
          const afterAll = await reads(tx);
          for (const [rel, n] of afterAll) if (n !== (before.get(rel) ?? 0)) grown.set(rel, n - (before.get(rel) ?? 0));
          const { rows } = await tx.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM drop_copies WHERE source = 'refusal' AND refusal ->> 'clOrdId' IN ('R-1', 'R-2', 'R-3', 'R-4')`,
          );
          assert.equal(rows[0]!.n, 2 + 1 + 2 + 2);
          throw rollback;
        })
        .catch((err: unknown) => {
          if (err !== rollback) throw err;
        });
      // The pool's id draw reads sequences, no table; the counts' own reads come after `afterAll`.
      grown.delete('client_connectors');
      assert.deepEqual(Object.fromEntries(grown), {}, 'rows read per table besides client_connectors');
    });
  });
}
