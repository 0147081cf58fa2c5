import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFillPriceTick, isOnTick, TickText } from './tick-size';

describe('tick size', () => {
  it('knows a price on the grid from one off it, exactly (no binary fractions)', () => {
    assert.equal(isOnTick('27000', '1'), true);
    assert.equal(isOnTick('27000.5', '1'), false);
    assert.equal(isOnTick('12.345', '0.005'), true);
    assert.equal(isOnTick('12.347', '0.005'), false);
    assert.equal(isOnTick('0.3', '0.1'), true, '0.3 is three ticks of 0.1 (it is not in floating point)');
    assert.equal(isOnTick('-1.5', '0.5'), true, 'a spread may be negative');
    assert.equal(isOnTick('5', null), true, 'no tick: nothing to judge');
    assert.equal(isOnTick('5', '0'), true, 'a zero tick judges nothing');
  });

  it('refuses a fill price off the tick with price, tick and symbol named', () => {
    const c5tc = { symbol: 'C5TC', priceTickSize: '1.000' };
    assert.deepEqual(checkFillPriceTick('27000.5', c5tc), { level: 'error', message: TickText.fillPriceOffTick('27000.5', '1', 'C5TC') });
    assert.equal(
      checkFillPriceTick('Fill price 27000.5 is not a multiple of the tick size 1 for C5TC', c5tc),
      null,
      'not a number: another check answers',
    );
    assert.equal(TickText.fillPriceOffTick('27000.5', '1', 'C5TC'), 'Fill price 27000.5 is not a multiple of the tick size 1 for C5TC');
    assert.equal(checkFillPriceTick(' 27001 ', c5tc), null);
    assert.equal(checkFillPriceTick('27000.5', null), null, 'unknown security: nothing to judge');
    assert.equal(checkFillPriceTick('', c5tc), null);
  });
});
