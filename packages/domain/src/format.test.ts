import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Decimal } from './decimal';
import {
  ACCEPT_BUTTON_TEXT,
  SERVICE_TYPE_COLOURS,
  acceptButtonColour,
  blotterStatusColour,
  clientStatusColour,
  execTypeColour,
  fixDirectionColour,
  formatBlotterPrice,
  formatDate,
  formatDecimal,
  formatFilledProgress,
  formatFixTimestamp,
  formatMaturity,
  formatOrderPrice,
  formatPercent,
  formatPrice,
  formatQuantity,
  formatStaleAge,
  formatWaitingAge,
  formatTime,
  formatTimestamp,
  roleBadgeColour,
  serviceTypeColour,
  sideRowColour,
  toDate,
  truncateText,
} from './format';

describe('numbers', () => {
  it('prices: 2 decimals with thousands separators, ties away from zero', () => {
    assert.equal(formatPrice('27000'), '27,000.00');
    assert.equal(formatPrice(27000.5), '27,000.50');
    assert.equal(formatPrice('1234567.125'), '1,234,567.13');
    assert.equal(formatPrice('-1234.5'), '-1,234.50');
    assert.equal(formatPrice('-0.001'), '0.00');
    assert.equal(formatPrice('0'), '0.00');
    assert.equal(formatPrice('999.995'), '1,000.00');
    assert.equal(formatPrice(Decimal.parse('12.3')), '12.30');
    assert.equal(formatPrice(null), '');
    assert.equal(formatPrice(undefined), '');
    assert.equal(formatPrice('n/a'), 'n/a');
  });

  it('blotter prices: at least 2, up to 6 decimals', () => {
    assert.equal(formatBlotterPrice('27000'), '27,000.00');
    assert.equal(formatBlotterPrice('27000.125'), '27,000.125');
    assert.equal(formatBlotterPrice('0.123456789'), '0.123457');
    assert.equal(formatBlotterPrice('-5.1'), '-5.10');
    assert.equal(formatBlotterPrice('1.0000001'), '1.00');
  });

  it('order price shows MKT when there is none', () => {
    assert.equal(formatOrderPrice(null), 'MKT');
    assert.equal(formatOrderPrice(''), 'MKT');
    assert.equal(formatOrderPrice('100'), '100.00');
  });

  it('quantities: no decimals, thousands separators', () => {
    assert.equal(formatQuantity('1000'), '1,000');
    assert.equal(formatQuantity(1234567), '1,234,567');
    assert.equal(formatQuantity('10'), '10');
    assert.equal(formatQuantity('2.5'), '3');
    assert.equal(formatFilledProgress('4', 1000), '4/1,000');
    assert.equal(formatFilledProgress(null, undefined), '0/0');
  });

  it('general decimals and percentages', () => {
    assert.equal(formatDecimal('1234.5', 0, 3), '1,234.5');
    assert.equal(formatDecimal('1234', 0, 3), '1,234');
    assert.equal(formatPercent('12.345'), '12.3%');
    assert.equal(formatPercent(null), '');
  });
});

describe('maturity and text', () => {
  it('6-digit month-years as Mon-YY, others raw', () => {
    assert.equal(formatMaturity('202509'), 'Sep-25');
    assert.equal(formatMaturity(202601), 'Jan-26');
    assert.equal(formatMaturity('Q1-26'), 'Q1-26');
    assert.equal(formatMaturity(null), '');
  });
  it('notes are cut at 30 characters', () => {
    assert.equal(truncateText('a'.repeat(30)), 'a'.repeat(30));
    assert.equal(truncateText('a'.repeat(31)), `${'a'.repeat(30)}...`);
    assert.equal(truncateText(null), '');
  });
});

describe('time', () => {
  const t = new Date('2025-09-05T07:08:09.123Z');
  it('reads the timestamp forms in use', () => {
    assert.equal(toDate('20250905-07:08:09')?.toISOString(), '2025-09-05T07:08:09.000Z');
    assert.equal(toDate('20250905-07:08:09.5')?.toISOString(), '2025-09-05T07:08:09.500Z');
    assert.equal(toDate('2025-09-05T07:08:09.123Z')?.getTime(), t.getTime());
    assert.equal(toDate(t.getTime())?.getTime(), t.getTime());
    assert.equal(toDate(t), t);
    for (const bad of ['', 'yesterday', '5 Sep 2025', null, undefined, new Date('x'), Number.NaN]) assert.equal(toDate(bad), null);
  });
  it('display formats, UTC by default, any zone on request', () => {
    assert.equal(formatTimestamp(t), '2025-09-05 07:08:09');
    assert.equal(formatTimestamp(t, { timeZone: 'Asia/Singapore' }), '2025-09-05 15:08:09');
    assert.equal(formatTimestamp('2025-12-31T23:30:00Z', { timeZone: 'Asia/Singapore' }), '2026-01-01 07:30:00');
    assert.equal(formatDate(t), '2025-09-05');
    assert.equal(formatTime(t), '07:08:09');
    assert.equal(formatTime('2025-09-05T00:00:00Z', { timeZone: 'America/New_York' }), '20:00:00');
    assert.equal(formatTimestamp('garbage'), 'garbage');
    assert.equal(formatTimestamp(null), '');
  });
  it('FIX UTCTimestamp', () => {
    assert.equal(formatFixTimestamp(t), '20250905-07:08:09');
    assert.equal(formatFixTimestamp(t, { millis: true }), '20250905-07:08:09.123');
    assert.throws(() => formatFixTimestamp(new Date('x')), RangeError);
  });
  it('stale age as seconds, minutes or hours', () => {
    assert.equal(formatStaleAge(45_000), '45s');
    assert.equal(formatStaleAge(12 * 60_000 + 5), '12m');
    assert.equal(formatStaleAge(3 * 3_600_000), '3h');
    assert.equal(formatStaleAge(-1), '');
    assert.equal(formatStaleAge(null), '');
  });
});

describe('colour tokens', () => {
  it('blotter status (spec 000 §2)', () => {
    assert.deepEqual(blotterStatusColour('A'), { colour: 'blue' });
    assert.deepEqual(blotterStatusColour('0'), { colour: 'blue' });
    assert.deepEqual(blotterStatusColour('1', { cumQty: '4', orderQty: '10' }), { colour: 'green', intensity: 0.4 });
    assert.deepEqual(blotterStatusColour('1', { cumQty: '1', orderQty: '3' }), { colour: 'green', intensity: 0.33 });
    assert.deepEqual(blotterStatusColour('1'), { colour: 'green', intensity: 0 });
    assert.deepEqual(blotterStatusColour('2'), { colour: 'green' });
    assert.deepEqual(blotterStatusColour('3'), { colour: 'darkGrey' });
    assert.deepEqual(blotterStatusColour('4'), { colour: 'red' });
    assert.deepEqual(blotterStatusColour('8'), { colour: 'red' });
    assert.deepEqual(blotterStatusColour('6'), { colour: 'orange' });
    assert.deepEqual(blotterStatusColour('?'), { colour: 'grey' });
    assert.equal(acceptButtonColour(false), 'blue');
    assert.equal(acceptButtonColour(true), 'orange');
    assert.equal(ACCEPT_BUTTON_TEXT.inFlight, 'Accepting...');
  });
  it('ExecType (spec 000 §2)', () => {
    const expected: Record<string, string> = { A: 'yellow', '0': 'green', F: 'blue', '3': 'grey', '4': 'red', '8': 'red' };
    for (const [code, colour] of Object.entries(expected)) assert.equal(execTypeColour(code), colour);
    assert.equal(execTypeColour(null), 'grey');
  });
  it('client blotter status (spec 001 §4)', () => {
    const expected: Record<string, string> = { '0': 'blue', '1': 'orange', '2': 'green', '4': 'grey', '8': 'red', A: 'lightGrey' };
    for (const [code, colour] of Object.entries(expected)) assert.equal(clientStatusColour(code), colour);
    assert.equal(clientStatusColour(undefined), 'lightGrey');
  });
  it('roles, services, sides, directions', () => {
    assert.equal(roleBadgeColour('admin'), 'red');
    assert.equal(roleBadgeColour('Broker'), 'green');
    assert.equal(roleBadgeColour('viewer'), 'blue');
    assert.equal(roleBadgeColour('user'), 'grey');
    assert.equal(roleBadgeColour(null), 'grey');
    assert.deepEqual(SERVICE_TYPE_COLOURS, {
      database: 'blue',
      queue: 'purple',
      router: 'teal',
      api: 'green',
      acceptor: 'orange',
      monitor: 'yellow',
      frontend: 'pink',
      // The desk's own services in the spec's families.
      'fix-acceptor': 'orange',
      'fix-session': 'teal',
      simulator: 'pink',
    });
    assert.equal(serviceTypeColour('Database'), 'blue');
    assert.equal(serviceTypeColour('cache'), 'grey');
    assert.deepEqual(sideRowColour('1'), { colour: 'green', faint: true });
    assert.deepEqual(sideRowColour('2'), { colour: 'red', faint: true });
    assert.equal(sideRowColour('x'), null);
    assert.equal(fixDirectionColour('TX'), 'green');
    assert.equal(fixDirectionColour('RX'), 'blue');
    assert.equal(fixDirectionColour(''), 'grey');
  });
});

describe('average prices', () => {
  it('take the decimals their order price is shown with', async () => {
    const { formatAveragePrice } = await import('./format');
    assert.equal(formatAveragePrice('24516.66666667', '24500'), '24,516.67');
    assert.equal(formatAveragePrice('27000.1', '27000.125'), '27,000.100');
    assert.equal(formatAveragePrice('200', '-150'), '200.00');
    assert.equal(formatAveragePrice('26990.5', null), '26,990.50');
  });
});

describe('formatWaitingAge', () => {
  it('reads as a clock, to the second', () => {
    assert.equal(formatWaitingAge(7_400), '0:07');
    assert.equal(formatWaitingAge(12 * 60_000 + 3_000), '12:03');
    assert.equal(formatWaitingAge(3_723_000), '1:02:03');
    assert.equal(formatWaitingAge(-5_000), '0:00');
    assert.equal(formatWaitingAge(null), '');
  });
});
