import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  FILL_PRICE_WARNING_PERCENT,
  PRICE_SANITY_THRESHOLD_PERCENT,
  canSubmitFill,
  checkFillPrice,
  checkFillQuantity,
  checkLegFillPrice,
  checkLegFillQuantity,
  checkPriceSanity,
  completedStrategyUnits,
  multilegFillMode,
  findReferencePrice,
  impliedStrategyPrice,
  legLeavesQuantity,
  legQuantity,
  limitViolation,
  rejectReasonProblem,
  remainingQuantity,
  type LegProgress,
} from './fill-validation';
import { Decimal } from './decimal';

describe('fill quantity (spec 000 §5)', () => {
  const order = { leavesQty: '6', orderQty: '10' };
  it('valid', () => {
    assert.deepEqual(checkFillQuantity('6', order), { level: 'ok', message: 'Quantity is valid' });
    assert.deepEqual(checkFillQuantity(1, order), { level: 'ok', message: 'Quantity is valid' });
  });
  it('must be a number greater than 0', () => {
    for (const bad of ['0', 0, '-2', '', '  ', 'abc', null, undefined, Number.NaN]) {
      assert.deepEqual(checkFillQuantity(bad, order), { level: 'error', message: 'Fill quantity must be greater than 0' }, String(bad));
    }
  });
  it('may not exceed the remaining quantity', () => {
    assert.deepEqual(checkFillQuantity('7', order), { level: 'error', message: 'Fill quantity 7 exceeds remaining quantity 6' });
  });
  it('remaining falls back to order quantity when leaves is absent', () => {
    assert.equal(remainingQuantity({ orderQty: 10 }).toString(), '10');
    assert.equal(remainingQuantity({ leavesQty: null, orderQty: 10 }).toString(), '10');
    assert.equal(remainingQuantity({ leavesQty: 0, orderQty: 10 }).toString(), '0');
    assert.deepEqual(checkFillQuantity('11', { orderQty: '10' }), {
      level: 'error',
      message: 'Fill quantity 11 exceeds remaining quantity 10',
    });
  });
  it('whole lots only', () => {
    assert.deepEqual(checkFillQuantity('2.5', order), { level: 'error', message: 'Fill quantity 2.5 must be a whole number of lots' });
  });
});

describe('fill price (spec 000 §5)', () => {
  const buy = { side: '1', ordType: '2', price: '100' } as const;
  const sell = { side: '2', ordType: '2', price: '100' } as const;
  it('buy at or below the limit, sell at or above', () => {
    assert.deepEqual(checkFillPrice('100.5', buy), {
      level: 'error',
      message: 'Buy order fill price 100.5 exceeds limit price 100 (must be ≤)',
    });
    assert.deepEqual(checkFillPrice('99.5', sell), {
      level: 'error',
      message: 'Sell order fill price 99.5 is below limit price 100 (must be ≥)',
    });
    assert.deepEqual(checkFillPrice('100', buy), { level: 'ok', message: 'Price is within limit' });
    assert.deepEqual(checkFillPrice('100', sell), { level: 'ok', message: 'Price is within limit' });
    assert.deepEqual(checkFillPrice('96', buy), { level: 'ok', message: 'Price is within limit' });
  });
  it('more than 5% from the limit is a warning; exactly 5% is not', () => {
    assert.equal(FILL_PRICE_WARNING_PERCENT, 5);
    assert.deepEqual(checkFillPrice('95', buy), { level: 'ok', message: 'Price is within limit' });
    assert.deepEqual(checkFillPrice('94.9', buy), {
      level: 'warning',
      message: 'Fill price 94.9 is 5.1% away from limit price 100 - please check fill price is valid',
    });
    assert.deepEqual(checkFillPrice('120', sell), {
      level: 'warning',
      message: 'Fill price 120 is 20.0% away from limit price 100 - please check fill price is valid',
    });
  });
  it('market orders have no limit', () => {
    const market = { side: '1', ordType: '1', price: null } as const;
    assert.deepEqual(checkFillPrice('123456', market), { level: 'ok', message: 'Price is valid' });
    assert.deepEqual(checkFillPrice('123456', { ...market, price: '1' }), { level: 'ok', message: 'Price is valid' });
  });
  it('market orders: more than 5% from the reference price is a warning (spec 000 §5 "from limit or reference price")', () => {
    const market = { side: '1', ordType: '1', price: null } as const;
    assert.deepEqual(checkFillPrice('20000', market, '27000'), {
      level: 'warning',
      message: 'Price 20000 differs from reference price 27000 by 25.9% - please verify',
    });
    assert.deepEqual(checkFillPrice('26500', market, '27000'), { level: 'ok', message: 'Price is valid' });
    assert.deepEqual(checkFillPrice('28350', market, '27000'), { level: 'ok', message: 'Price is valid' }); // exactly 5 %
    assert.deepEqual(checkFillPrice('20000', market, null), { level: 'ok', message: 'Price is valid' });
    assert.deepEqual(checkFillPrice('20000', market, '0'), { level: 'ok', message: 'Price is valid' });
  });
  it('a limit order is judged against its limit, not the reference', () => {
    assert.deepEqual(checkFillPrice('96', buy, '50'), { level: 'ok', message: 'Price is within limit' });
  });
  it('outright prices must be positive; strategy prices may be zero or negative', () => {
    assert.deepEqual(checkFillPrice('0', buy), { level: 'error', message: 'Fill price must be greater than 0' });
    assert.deepEqual(checkFillPrice('x', buy), { level: 'error', message: 'Fill price must be a number' });
    assert.deepEqual(checkFillPrice('', buy), { level: 'error', message: 'Fill price must be a number' });
    const spreadBuy = { side: '1', ordType: '2', price: '-50', isStrategy: true } as const;
    assert.deepEqual(checkFillPrice('-50', spreadBuy), { level: 'ok', message: 'Price is within limit' });
    assert.deepEqual(checkFillPrice('-49', spreadBuy), {
      level: 'error',
      message: 'Buy order fill price -49 exceeds limit price -50 (must be ≤)',
    });
    assert.deepEqual(checkFillPrice('-60', spreadBuy), {
      level: 'warning',
      message: 'Fill price -60 is 20.0% away from limit price -50 - please check fill price is valid',
    });
    const flat = { side: '2', ordType: '2', price: '0', isStrategy: true } as const;
    assert.deepEqual(checkFillPrice('25', flat), { level: 'ok', message: 'Price is within limit' }); // no % against 0
  });
  it('limitViolation is the hard rule alone', () => {
    assert.equal(limitViolation(Decimal.parse('100.01'), buy), 'Buy order fill price 100.01 exceeds limit price 100 (must be ≤)');
    assert.equal(limitViolation(Decimal.parse('50'), buy), null);
  });
  it('submit is enabled only with both inputs and no error', () => {
    const okCheck = { level: 'ok', message: '' } as const;
    const warn = { level: 'warning', message: '' } as const;
    const err = { level: 'error', message: '' } as const;
    assert.equal(canSubmitFill('1', '100', [okCheck, warn]), true);
    assert.equal(canSubmitFill('', '100', [okCheck]), false);
    assert.equal(canSubmitFill('1', ' ', [okCheck]), false);
    assert.equal(canSubmitFill('1', '100', [okCheck, err]), false);
  });
  it('reject needs a trimmed reason', () => {
    assert.equal(rejectReasonProblem(' '), 'Rejection reason is required');
    assert.equal(rejectReasonProblem(undefined), 'Rejection reason is required');
    assert.equal(rejectReasonProblem('Credit'), null);
  });
});

describe('price sanity against the latest trade', () => {
  const ref = { price: '25000', executed: '2025-09-01T10:00:00Z' };
  it('warns beyond 10% with the spec text', () => {
    assert.equal(PRICE_SANITY_THRESHOLD_PERCENT, 10);
    assert.deepEqual(checkPriceSanity('27600', ref), {
      level: 'warning',
      message: 'Price 27600 differs 10.4% from latest trade price 25000 (2025-09-01)',
    });
    assert.deepEqual(checkPriceSanity('27500', ref), { level: 'ok', message: 'Price within 10% of recent trades' });
    assert.deepEqual(checkPriceSanity('22000', { price: 25000 }), {
      level: 'warning',
      message: 'Price 22000 differs 12.0% from latest trade price 25000',
    });
  });
  it('takes another threshold', () => {
    assert.deepEqual(checkPriceSanity('26000', ref, 3), {
      level: 'warning',
      message: 'Price 26000 differs 4.0% from latest trade price 25000 (2025-09-01)',
    });
    assert.deepEqual(checkPriceSanity('25500', ref, '2.5'), { level: 'ok', message: 'Price within 2.5% of recent trades' });
  });
  it('says when there is nothing to compare with', () => {
    for (const r of [null, undefined, { price: '0' }, { price: 'x' }]) {
      assert.deepEqual(checkPriceSanity('100', r), { level: 'info', message: 'No reference price available' });
    }
    assert.deepEqual(checkPriceSanity('', ref), { level: 'info', message: 'No reference price available' });
  });
  it('finds the latest trade for the same symbol, type and contract', () => {
    const rows = [
      { symbol: 'C5TC', type: 'single', contract: 'Sep-25', price: '25000', executed: '2025-09-01T10:00:00Z' },
      { symbol: 'C5TC', type: 'single', contract: 'Sep-25', price: '25500', executed: '2025-09-02T10:00:00Z' },
      { symbol: 'C5TC', type: 'single', contract: 'Oct-25', price: '26000', executed: '2025-09-03T10:00:00Z' },
      { symbol: 'C5TC', type: 'quarter', contract: 'Sep-25', price: '1', executed: '2025-09-04T10:00:00Z' },
      { symbol: 'C5TC', type: 'single', contract: 'Sep-25', price: 'bad', executed: '2025-09-05T10:00:00Z' },
    ];
    assert.equal(findReferencePrice(rows, { symbol: 'c5tc', type: 'Single', contract: 'sep-25' })?.price, '25500');
    assert.equal(findReferencePrice(rows, { symbol: 'C5TC', type: 'single', contract: 'Nov-25' }), null);
    assert.equal(findReferencePrice([], { symbol: 'C5TC' }), null);
  });
});

describe('multileg fills', () => {
  const legs: LegProgress[] = [
    { side: '1', ratio: 3, cumQty: 0 },
    { side: '2', ratio: 1, cumQty: 0 },
    { side: '2', ratio: 1, cumQty: 0 },
    { side: '2', ratio: 1, cumQty: 0 },
  ];
  it('leg quantity is ratio × order quantity; leaves shrink with leg fills', () => {
    assert.equal(legQuantity(3, 10).toString(), '30');
    assert.equal(legLeavesQuantity({ ratio: 3, cumQty: 12 }, 10).toString(), '18');
    assert.equal(legLeavesQuantity({ ratio: 1, cumQty: 12 }, 10).toString(), '0');
  });
  it('leg quantity checks with the leg-form texts', () => {
    assert.deepEqual(checkLegFillQuantity('30', legs, 0, 10), { level: 'ok', message: 'Quantity is valid' });
    assert.deepEqual(checkLegFillQuantity('31', legs, 0, 10), {
      level: 'error',
      message: 'Total fills (31) would exceed order quantity (30)',
    });
    const partly = legs.map((l, i) => (i === 1 ? { ...l, cumQty: 8 } : l));
    assert.deepEqual(checkLegFillQuantity('3', partly, 1, 10), {
      level: 'error',
      message: 'Total fills (11) would exceed order quantity (10)',
    });
    const full = legs.map((l, i) => (i === 1 ? { ...l, cumQty: 10 } : l));
    assert.deepEqual(checkLegFillQuantity('1', full, 1, 10), { level: 'error', message: 'Order is already fully filled' });
    assert.deepEqual(checkLegFillQuantity('0', legs, 1, 10), { level: 'error', message: 'Fill quantity must be greater than 0' });
    assert.deepEqual(checkLegFillQuantity('1.5', legs, 1, 10), {
      level: 'error',
      message: 'Fill quantity 1.5 must be a whole number of lots',
    });
    assert.deepEqual(checkLegFillQuantity('1', legs, 4, 10), { level: 'error', message: 'Leg 4 does not exist: the order has 4 leg(s)' });
    assert.deepEqual(checkLegFillQuantity('1', legs, -1, 10), { level: 'error', message: 'Leg -1 does not exist: the order has 4 leg(s)' });
  });
  it('leg prices are outright prices: positive, warned beyond 5% from the reference', () => {
    assert.deepEqual(checkLegFillPrice('0'), { level: 'error', message: 'Fill price must be greater than 0' });
    assert.deepEqual(checkLegFillPrice('x'), { level: 'error', message: 'Fill price must be a number' });
    assert.deepEqual(checkLegFillPrice('100'), { level: 'ok', message: 'Price is valid' });
    assert.deepEqual(checkLegFillPrice('105', '100'), { level: 'ok', message: 'Price is valid' });
    assert.deepEqual(checkLegFillPrice('106', '100'), {
      level: 'warning',
      message: 'Price 106 differs from reference price 100 by 6.0% - please verify',
    });
  });
  it('completed strategy units are the fewest complete sets of legs', () => {
    assert.equal(completedStrategyUnits(legs).toString(), '0');
    assert.equal(
      completedStrategyUnits([
        { ratio: 3, cumQty: 7 },
        { ratio: 1, cumQty: 5 },
        { ratio: 1, cumQty: 2 },
      ]).toString(),
      '2',
    );
    assert.equal(completedStrategyUnits([]).toString(), '0');
    assert.throws(() => completedStrategyUnits([{ ratio: 0, cumQty: 1 }]), RangeError);
  });
  it('implied strategy price: spread difference, strip average, balanced custom', () => {
    assert.equal(
      impliedStrategyPrice('1', [
        { side: '1', ratio: 1, px: '25000' },
        { side: '2', ratio: 1, px: '24000' },
      ])?.toString(),
      '1000',
    );
    // selling the same spread: legs flipped, the price still reads front minus back
    assert.equal(
      impliedStrategyPrice('2', [
        { side: '2', ratio: 1, px: '25000' },
        { side: '1', ratio: 1, px: '24000' },
      ])?.toString(),
      '1000',
    );
    assert.equal(
      impliedStrategyPrice('1', [
        { side: '1', ratio: 1, px: '100' },
        { side: '1', ratio: 1, px: '110' },
        { side: '1', ratio: 1, px: '121' },
      ])?.toString(),
      '110.33333333',
    );
    assert.equal(
      impliedStrategyPrice('1', [
        { side: '1', ratio: 3, px: '100' },
        { side: '2', ratio: 1, px: '90' },
        { side: '2', ratio: 1, px: '95' },
        { side: '2', ratio: 1, px: '100' },
      ])?.toString(),
      '5',
    );
    assert.equal(impliedStrategyPrice('1', [{ side: '2', ratio: 1, px: 1 }]), null);
  });
});

describe('how a multileg order is being filled', () => {
  const leg = (legRatioQty: string, legCumQty: string, legAvgPx: string) => ({ legRatioQty, legCumQty, legAvgPx });
  it('nothing filled: either way is open', () => {
    assert.equal(multilegFillMode('0', [leg('1', '0', '0'), leg('1', '0', '0')]), null);
  });
  it('a spread fill executes every leg by its ratio, with no leg price', () => {
    assert.equal(multilegFillMode('2', [leg('1', '2', '0'), leg('2', '4', '0')]), 'spread');
  });
  it('a leg fill gives its leg a price, even when the legs are balanced again', () => {
    assert.equal(multilegFillMode('0', [leg('1', '3', '26000'), leg('1', '0', '0')]), 'legs');
    assert.equal(multilegFillMode('3', [leg('1', '3', '26000'), leg('1', '3', '25800')]), 'legs');
  });
});
