import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyActionAnswer, applyExecutionReport, isAtLeastAsNew, mergeExecutionReports } from './orderUpdates';
import { anOrder, aReport } from '../../../test/orders';

describe('execution reports applied to the cached order (spec 000 §4)', () => {
  it('A → 0 changes status and time and copies no fill data', () => {
    const order = anOrder();
    const next = applyExecutionReport(order, aReport({ ordstatus: '0', cumqty: '99', leavesqty: '0', lastqty: '5', lastpx: '1' }));
    assert.equal(next.ordstatus, '0');
    assert.equal(next.transacttime, '2026-03-02T10:01:00.000Z');
    assert.equal(next.cumqty, '0');
    assert.equal(next.leavesqty, '10');
    assert.equal(next.lastqty, null);
  });

  for (const status of ['1', '2']) {
    it(`status ${status} copies last qty/px, cumqty, avgpx and leaves`, () => {
      const next = applyExecutionReport(
        anOrder({ ordstatus: '0' }),
        aReport({ ordstatus: status, exectype: 'F', lastqty: '4', lastpx: '26990', cumqty: '4', avgpx: '26990', leavesqty: '6' }),
      );
      assert.deepEqual(
        [next.ordstatus, next.lastqty, next.lastpx, next.cumqty, next.avgpx, next.leavesqty],
        [status, '4', '26990', '4', '26990', '6'],
      );
    });
  }

  it('never overwrites id, price, quantity, symbol, side or identifiers', () => {
    const order = anOrder({ ordstatus: '0' });
    const next = applyExecutionReport(
      order,
      aReport({
        id: 77,
        ordstatus: '1',
        order_id: 999,
        orderid: 'OTHER',
        clordid: 'X',
        symbol: 'ZZZ',
        side: '2',
        price: '1',
        orderqty: '1',
        cumqty: '1',
        leavesqty: '9',
      }),
    );
    for (const key of ['id', 'price', 'orderqty', 'order_qty', 'symbol', 'side', 'clordid', 'orderid', 'brokerorderid'] as const) {
      assert.equal(next[key], order[key], key);
    }
  });

  it('copies text only for canceled and rejected, beside the client text and never over it', () => {
    const rejected = applyExecutionReport(anOrder({ text: 'Work it slowly' }), aReport({ ordstatus: '8', text: 'No credit' }));
    assert.equal(rejected.reportText, 'No credit');
    assert.equal(rejected.text, 'Work it slowly', "the client's instructions stay");
    const canceled = applyExecutionReport(anOrder({ ordstatus: '0', text: null }), aReport({ ordstatus: '4', text: 'Client asked' }));
    assert.equal(canceled.reportText, 'Client asked');
    assert.equal(canceled.text, null);
    const acked = applyExecutionReport(anOrder({ text: 'client note' }), aReport({ ordstatus: '0', text: 'ack' }));
    assert.equal(acked.text, 'client note');
    assert.equal(acked.reportText, undefined);
  });

  it('ignores a report older than the cached order', () => {
    const order = anOrder({ ordstatus: '2', updated_at: '2026-03-02T10:05:00.000Z' });
    assert.equal(applyExecutionReport(order, aReport({ ordstatus: '1', timestamp: '2026-03-02T10:02:00.000Z' })), order);
  });
});

describe('full orders and action answers', () => {
  it('an older copy never replaces a newer one', () => {
    const newer = anOrder({ updated_at: '2026-03-02T10:05:00.000Z' });
    assert.equal(isAtLeastAsNew(anOrder({ updated_at: '2026-03-02T10:04:59.999Z' }), newer), false);
    assert.equal(isAtLeastAsNew(anOrder({ updated_at: '2026-03-02T10:05:00.000Z' }), newer), true);
    assert.equal(isAtLeastAsNew(anOrder(), undefined), true);
  });

  it('an action answer patches state but keeps legs, parties, names and the pending request', () => {
    const cached = anOrder({ client_name: 'SGX Client', parties: [{ partyID: 'T1', partyRole: 11, partyIDSource: 'D', legIndex: null }] });
    const answer = anOrder({
      client_name: null,
      parties: [],
      ordstatus: '0',
      accepted_by: 'broker',
      updated_at: '2026-03-02T10:01:00.000Z',
    });
    const next = applyActionAnswer(cached, answer);
    assert.equal(next.ordstatus, '0');
    assert.equal(next.accepted_by, 'broker');
    assert.equal(next.client_name, 'SGX Client');
    assert.equal(next.parties.length, 1);
  });

  it('merges execution reports by id, ascending', () => {
    const merged = mergeExecutionReports([aReport({ id: 3 }), aReport({ id: 1 })], [aReport({ id: 2 }), aReport({ id: 3, text: 'new' })]);
    assert.deepEqual(
      merged.map((r) => r.id),
      [1, 2, 3],
    );
    assert.equal(merged[2]!.text, 'new');
  });
});
