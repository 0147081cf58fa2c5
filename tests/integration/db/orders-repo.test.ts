import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import { storeIntakeBatch, type IntakeEntry } from '../../../packages/db/src/repos/orders/intake-batch';
import { getOrderBundle } from '../../../packages/db/src/repos/orders/list';
import type { NewOrderRecord } from '../../../packages/db/src/repos/orders/rows';

function record(clordid: string, over: Partial<NewOrderRecord> = {}): NewOrderRecord {
  return {
    clordid,
    clientConnectorId: 0,
    sendercompid: 'BATCH_CLIENT',
    targetcompid: 'FIXDESK',
    sessionDate: '2025-03-14',
    msgType: 'D',
    symbol: 'C5TC',
    securityType: 'FUT',
    maturityMonthYear: '202506',
    side: '1',
    ordType: '2',
    price: '27000.50',
    orderQty: '10',
    timeInForce: '0',
    exchange: 'SGX',
    currency: 'USD',
    account: 'ACC-1',
    text: 'hello',
    transactTime: new Date('2025-03-14T09:00:00.123Z'),
    legs: [],
    parties: [{ legIndex: null, partyId: 'TRADER1', partyIdSource: 'D', partyRole: 11 }],
    ...over,
  };
}

for (const kind of TEST_DB_KINDS) {
  describe(`storeIntakeBatch on ${kind}`, () => {
    let t: TestDatabase;
    let connectorId = 0;
    const reportTime = new Date('2025-03-14T09:00:01.456Z');
    const entry = (order: NewOrderRecord | null): IntakeEntry => ({
      order: order && { ...order, clientConnectorId: connectorId },
      execIdPrefix: 'BAT',
      reportTime,
    });

    before(async () => {
      t = await createTestDatabase(kind);
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days)
         VALUES ('BATCH_CLIENT', 'BAT', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F') RETURNING id`,
      );
      connectorId = rows[0]!.id;
    });
    after(async () => {
      await t?.dispose();
    });

    it('stores orders, legs, parties and Pending New reports in one statement; what it returns is what the database holds', async () => {
      const multileg = record('ML-1', {
        msgType: 'AB',
        symbol: 'C5TC-SPREAD',
        securityType: 'MLEG',
        maturityMonthYear: null,
        price: '-150.25',
        orderQty: '3',
        legs: [
          { legIndex: 0, symbol: 'C5TC', securityType: 'FUT', maturityMonthYear: '202506', side: '1', ratioQty: '1', price: null },
          { legIndex: 1, symbol: 'C5TC', securityType: 'FUT', maturityMonthYear: '202507', side: '2', ratioQty: '2', price: null },
        ],
        parties: [
          { legIndex: null, partyId: 'FIRM', partyIdSource: 'N', partyRole: 7 },
          { legIndex: 1, partyId: 'LEGTRADER', partyIdSource: null, partyRole: 11 },
        ],
      });
      const out = await storeIntakeBatch(t.db, [
        entry(record('ONE')),
        entry(null),
        entry(multileg),
        entry(record('MKT', { ordType: '1', price: null, currency: 'EU' })),
      ]);
      assert.deepEqual(
        out.map((o) => o.kind),
        ['stored', 'refusal', 'stored', 'stored'],
      );
      for (const o of out) {
        if (o.kind !== 'stored') {
          assert.match(o.execId, /^BAT-\d{9}$/);
          continue;
        }
        const b = (await getOrderBundle(t.db, o.order.id))!;
        assert.deepEqual(
          o.order,
          b.orders[0] &&
            (({ client_name, client_phone, company_name, ...rest }) => (void client_name, void client_phone, void company_name, rest))(
              b.orders[0],
            ),
        );
        assert.deepEqual(o.er, b.execReports[0]);
        assert.deepEqual(o.legs, b.legs);
        assert.match(o.order.brokerorderid, /^BO\d{8,}$/);
        assert.match(o.er.execid, /^BAT-\d{9,}$/);
      }
      const ml = out[2]!;
      assert.ok(ml.kind === 'stored');
      const parties = (await getOrderBundle(t.db, ml.order.id))!.parties;
      assert.deepEqual(
        parties.map((p) => [p.leg_index, p.position, p.party_id, p.party_id_source, p.party_role]),
        [
          [null, 0, 'FIRM', 'N', 7],
          [1, 1, 'LEGTRADER', null, 11],
        ],
      );
      const ids = out.flatMap((o) => (o.kind === 'stored' ? [o.order.id] : []));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
        'orders numbered in intake order',
      );
    });

    it('leaves out an order whose ClOrdID the client already used that day, and names the order it collided with', async () => {
      await storeIntakeBatch(t.db, [entry(record('DUP-1'))]);
      const out = await storeIntakeBatch(t.db, [
        entry(record('DUP-2')),
        entry(record('DUP-1', { side: '2', orderQty: '5' })),
        entry(record('DUP-1', { sessionDate: '2025-03-15' })),
      ]);
      assert.deepEqual(
        out.map((o) => o.kind),
        ['stored', 'duplicate', 'stored'],
      );
      const dup = out[1]!;
      assert.ok(dup.kind === 'duplicate');
      assert.deepEqual(dup.existing && { ...dup.existing, brokerorderid: 'x' }, {
        brokerorderid: 'x',
        side: '1',
        symbol: 'C5TC',
        orderqty: '10',
        ordtype: '2',
        price: '27000.50',
      });
      const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE clordid = 'DUP-1'");
      assert.equal(rows[0]!.n, 2, 'one per trading day');
    });

    it('draws a distinct ExecID and broker order id for every entry of big batches, again and again', async () => {
      // Big enough for the planner to consider caching parts of the statement: the numbers must still
      // be drawn once per row.
      const seen = new Set<string>();
      for (let round = 0; round < 3; round++) {
        const batch = Array.from({ length: 400 }, (_, i) => entry(i % 7 === 3 ? null : record(`BIG-${round}-${i}`)));
        for (const o of await storeIntakeBatch(t.db, batch, { deferReports: round % 2 === 1 })) {
          const ids = o.kind === 'stored' ? [o.order.brokerorderid, o.er.execid] : [o.execId];
          for (const id of ids) {
            assert.ok(!seen.has(id), `${id} drawn twice`);
            seen.add(id);
          }
        }
      }
    });

    it('refuses a batch holding the same key twice', async () => {
      await assert.rejects(storeIntakeBatch(t.db, [entry(record('TWICE')), entry(record('TWICE'))]), /appears twice/);
    });

    it('stores nothing of a batch whose statement fails', async () => {
      await assert.rejects(storeIntakeBatch(t.db, [entry(record('OK-BUT-ROLLED-BACK')), entry(record('BAD', { currency: 'TOOLONG' }))]));
      const { rows } = await t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM orders WHERE clordid IN ('OK-BUT-ROLLED-BACK', 'BAD')",
      );
      assert.equal(rows[0]!.n, 0);
    });
  });
}
