import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkExposure, newOrderShare, orderShare, RiskBook, type RiskOrder } from './risk';
import { Decimal } from './decimal';

const order = (over: Partial<RiskOrder> = {}): RiskOrder => ({
  ordStatus: '0',
  side: '1',
  symbol: 'c5tc',
  maturity: '202612',
  orderQty: '10',
  cumQty: '0',
  leavesQty: '10',
  legs: [],
  ...over,
});
const fig = (book: RiskBook, key = 'C5TC|202612') => {
  const e = book.exposure(key);
  return [e.filled.toString(), e.workingBuy.toString(), e.workingSell.toString()];
};

describe('orderShare', () => {
  it('an outright works its leaves until it closes, and keeps its fills', () => {
    assert.deepEqual(
      orderShare(order({ cumQty: '4', leavesQty: '6', ordStatus: '1' })).map((l) => [l.key, l.filled.toString(), l.working.toString()]),
      [['C5TC|202612', '4', '6']],
    );
    for (const closed of ['2', '3', '4', '8', 'C']) {
      assert.equal(orderShare(order({ cumQty: '4', leavesQty: '0', ordStatus: closed }))[0]!.working.toString(), '0', closed);
    }
  });
  it('a pending replace counts at the larger of the two quantities', () => {
    assert.equal(orderShare(order({ ordStatus: 'E', cumQty: '2', leavesQty: '8', pendingOrderQty: '15' }))[0]!.working.toString(), '13');
    assert.equal(orderShare(order({ ordStatus: 'E', cumQty: '2', leavesQty: '8', pendingOrderQty: '5' }))[0]!.working.toString(), '8');
  });
  it("a multileg order's legs at their ratios, each with its own fills", () => {
    const legs = orderShare(
      order({
        symbol: 'SPREAD',
        maturity: null,
        orderQty: '5',
        leavesQty: '5',
        legs: [
          { symbol: 'C5TC', maturity: '202610', side: '1', ratio: '2', cumQty: '4' },
          { symbol: 'C5TC', maturity: '202611', side: '2', ratio: '1', cumQty: '0' },
        ],
      }),
    );
    assert.deepEqual(
      legs.map((l) => [l.key, l.side, l.filled.toString(), l.working.toString()]),
      [
        ['C5TC|202610', '1', '4', '6'],
        ['C5TC|202611', '2', '0', '5'],
      ],
    );
  });
});

describe('RiskBook', () => {
  it('follows an order from intake through a fill to its cancel: one rule, replace the old share', () => {
    const book = new RiskBook();
    book.set('r1', newOrderShare({ side: '2', symbol: 'C5TC', maturity: '202612', orderQty: '10', legs: [] }));
    assert.deepEqual(fig(book), ['0', '0', '10']);
    book.rename('r1', '7');
    book.set('7', orderShare(order({ side: '2', ordStatus: '1', cumQty: '3', leavesQty: '7' })), 2);
    assert.deepEqual(fig(book), ['-3', '0', '7']);
    // A stale read of the order (an older version) changes nothing.
    assert.equal(book.set('7', orderShare(order({ side: '2', ordStatus: '0' })), 1), false);
    assert.deepEqual(fig(book), ['-3', '0', '7']);
    book.set('7', orderShare(order({ side: '2', ordStatus: '4', cumQty: '3', leavesQty: '0' })), 3);
    assert.deepEqual(fig(book), ['-3', '0', '0']);
  });
  it('a reservation that was not stored leaves nothing behind', () => {
    const book = new RiskBook();
    book.addFilled('C5TC|202612', '10');
    book.set('r1', newOrderShare({ side: '1', symbol: 'C5TC', maturity: '202612', orderQty: '5', legs: [] }));
    book.remove('r1');
    assert.deepEqual(fig(book), ['10', '0', '0']);
  });
  it('contracts whose month ended leave the position', () => {
    const book = new RiskBook();
    book.addFilled('C5TC|202610', '10');
    book.addFilled('C5TC|202612', '-2');
    book.dropExpired('202611');
    assert.deepEqual(
      book.entries().map(([k]) => k),
      ['C5TC|202612'],
    );
  });
});

describe('checkExposure (worst case)', () => {
  const e = (filled: string, wb = '0', ws = '0') => ({
    filled: Decimal.from(filled),
    workingBuy: Decimal.from(wb),
    workingSell: Decimal.from(ws),
  });
  it('long 10 with short selling barred: one sell of 10, then nothing while it works', () => {
    assert.equal(checkExposure({ canShort: false }, 'X', '2', Decimal.from(10), e('10')), null);
    assert.equal(checkExposure({ canShort: false }, 'X', '2', Decimal.from(10), e('10', '0', '10'))?.kind, 'short');
  });
  it('long 10, limit 15: one buy of 5, then nothing while it works', () => {
    assert.equal(checkExposure({ maxPositionLong: '15' }, 'X', '1', Decimal.from(5), e('10')), null);
    assert.equal(
      checkExposure({ maxPositionLong: '15' }, 'X', '1', Decimal.from(5), e('10', '5'))?.text,
      'Net long position in X could reach 20 (position 10, working buys 5, this order 5), above the limit of 15',
    );
  });
  it('working buys do not make room for a sale, nor working sells for a buy', () => {
    assert.equal(checkExposure({ canShort: false }, 'X', '2', Decimal.from(1), e('0', '10'))?.kind, 'short');
    assert.equal(checkExposure({ maxPositionLong: '10' }, 'X', '1', Decimal.from(11), e('0', '0', '10'))?.kind, 'long');
  });
  it('a short limit counts working sells', () => {
    assert.equal(checkExposure({ maxPositionShort: '5' }, 'X', '2', Decimal.from(3), e('0', '0', '2')), null);
    assert.equal(checkExposure({ maxPositionShort: '5' }, 'X', '2', Decimal.from(4), e('0', '0', '2'))?.kind, 'shortLimit');
  });
});

describe('a new order share', () => {
  it('is the share of the same order stored as Pending New with nothing filled (outright and multileg)', () => {
    const outright = { side: '2' as const, symbol: ' c5tc ', maturity: 'Dec-26', orderQty: '10', legs: [] };
    assert.deepEqual(newOrderShare(outright), orderShare({ ...outright, ordStatus: 'A', cumQty: '0', leavesQty: '10' }));
    const spread = {
      side: '1' as const,
      symbol: 'C5TC Q1/Q2',
      maturity: null,
      orderQty: '4',
      legs: [
        { symbol: 'C5TC', maturity: '202701', side: '1' as const, ratio: '1' },
        { symbol: 'P4TC', maturity: '2027-02', side: '2' as const, ratio: '0.5' },
      ],
    };
    assert.deepEqual(
      newOrderShare(spread),
      orderShare({ ...spread, ordStatus: 'A', cumQty: '0', leavesQty: '4', legs: spread.legs.map((l) => ({ ...l, cumQty: '0' })) }),
    );
    // The key is the same however the contract month is written, asked once or many times.
    assert.equal(newOrderShare(outright)[0]!.key, 'C5TC|202612');
    assert.equal(newOrderShare({ ...outright, maturity: '202612' })[0]!.key, 'C5TC|202612');
  });
});
