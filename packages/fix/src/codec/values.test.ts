import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compareDecimals,
  decimalToScaled,
  formatUtcDate,
  formatUtcTimestamp,
  isFixDate,
  isFixDecimal,
  normalizeDecimal,
  parseMonthYear,
  parseUtcTimeOnly,
  parseUtcTimestamp,
  scaledToDecimal,
  utcEpochMs,
} from './values';

describe('decimals', () => {
  it('recognises FIX floats', () => {
    for (const ok of ['0', '12', '-12', '12.5', '12.', '.5', '-0.001', '00012.500']) assert.ok(isFixDecimal(ok), ok);
    for (const bad of ['', '-', '.', '1e5', '+1', '1.2.3', '1,5', ' 1', 'NaN']) assert.ok(!isFixDecimal(bad), bad);
  });

  it('normalizes', () => {
    assert.equal(normalizeDecimal('001.500'), '1.5');
    assert.equal(normalizeDecimal('-0.0'), '0');
    assert.equal(normalizeDecimal('.25'), '0.25');
    assert.equal(normalizeDecimal('12.'), '12');
    assert.equal(normalizeDecimal('-12.50'), '-12.5');
    assert.throws(() => normalizeDecimal('x'), /not a decimal/);
  });

  it('converts to and from scaled integers exactly', () => {
    assert.equal(decimalToScaled('12.345', 3), 12345n);
    assert.equal(decimalToScaled('12.3', 3), 12300n);
    assert.equal(decimalToScaled('-0.5', 2), -50n);
    assert.equal(decimalToScaled('12.3400', 2), 1234n, 'trailing zeros beyond the scale are fine');
    assert.equal(decimalToScaled('99999999999999999.99', 2), 9999999999999999999n, 'beyond double precision');
    assert.throws(() => decimalToScaled('1.234', 2), /more than 2 decimal places/);
    assert.throws(() => decimalToScaled('abc', 2), /not a decimal/);
    assert.equal(scaledToDecimal(12345n, 3), '12.345');
    assert.equal(scaledToDecimal(12300n, 3), '12.3');
    assert.equal(scaledToDecimal(-50n, 2), '-0.5');
    assert.equal(scaledToDecimal(5n, 0), '5');
    assert.equal(scaledToDecimal(0n, 4), '0');
    // 0.1 + 0.2 done right.
    assert.equal(scaledToDecimal(decimalToScaled('0.1', 1) + decimalToScaled('0.2', 1), 1), '0.3');
  });

  it('compares exactly', () => {
    assert.equal(compareDecimals('1.10', '1.1'), 0);
    assert.equal(compareDecimals('1.01', '1.1'), -1);
    assert.equal(compareDecimals('-2', '-10.5'), 1);
    assert.equal(compareDecimals('9007199254740993', '9007199254740992'), 1, 'no Number rounding');
  });
});

describe('timestamps', () => {
  it('formats SendingTime in UTC with milliseconds', () => {
    assert.equal(formatUtcTimestamp(Date.UTC(2026, 2, 15, 9, 30, 1, 7)), '20260315-09:30:01.007');
    assert.equal(formatUtcTimestamp(new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999))), '19991231-23:59:59.999');
    // Same second twice (cached prefix), then the next second.
    assert.equal(formatUtcTimestamp(Date.UTC(2026, 0, 1, 0, 0, 0, 1)), '20260101-00:00:00.001');
    assert.equal(formatUtcTimestamp(Date.UTC(2026, 0, 1, 0, 0, 0, 2)), '20260101-00:00:00.002');
    assert.equal(formatUtcTimestamp(Date.UTC(2026, 0, 1, 0, 0, 1, 0)), '20260101-00:00:01.000');
    assert.throws(() => formatUtcTimestamp(NaN), /invalid time/);
    assert.equal(formatUtcDate(Date.UTC(2026, 1, 3)), '20260203');
  });

  it('computes the same instants as Date.UTC', () => {
    const daysIn = (y: number, m: number) =>
      [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
    const years = [0, 1, 99, 100, 101, 399, 400, 1600, 1899, 1900, 1969, 1970, 1999, 2000, 2024, 2026, 2100, 2400, 9999];
    for (const year of years) {
      for (let month = 1; month <= 12; month++) {
        for (const day of [1, 15, 28, daysIn(year, month)]) {
          for (const [h, mi, s, ms] of [
            [0, 0, 0, 0],
            [23, 59, 59, 999],
            [23, 59, 60, 0],
            [9, 30, 1, 120],
          ] as const) {
            assert.equal(
              utcEpochMs(year, month, day, h, mi, s, ms),
              Date.UTC(year, month - 1, day, h, mi, s, ms),
              `${year}-${month}-${day} ${h}:${mi}:${s}.${ms}`,
            );
          }
        }
      }
    }
  });

  it('parses UTCTimestamp with and without fractions', () => {
    assert.equal(parseUtcTimestamp('20260315-09:30:01'), Date.UTC(2026, 2, 15, 9, 30, 1));
    assert.equal(parseUtcTimestamp('20260315-09:30:01.123'), Date.UTC(2026, 2, 15, 9, 30, 1, 123));
    assert.equal(parseUtcTimestamp('20260315-09:30:01.5'), Date.UTC(2026, 2, 15, 9, 30, 1, 500));
    assert.equal(parseUtcTimestamp('20260315-09:30:01.123456789'), Date.UTC(2026, 2, 15, 9, 30, 1, 123));
    assert.equal(parseUtcTimestamp('20240229-00:00:00'), Date.UTC(2024, 1, 29));
    for (const bad of [
      '',
      '20260315',
      '20260315-09:30',
      '20260315T09:30:01',
      '20261315-09:30:01',
      '20250229-00:00:00',
      '20260315-25:00:00',
      '20260315-09:30:01.',
      '20260315-09:30:01.1234567890',
      '2026031a-09:30:01',
    ]) {
      assert.ok(Number.isNaN(parseUtcTimestamp(bad)), bad);
    }
  });

  it('parses UTCTimeOnly and dates', () => {
    assert.equal(parseUtcTimeOnly('09:30:01.250'), ((9 * 60 + 30) * 60 + 1) * 1000 + 250);
    assert.equal(parseUtcTimeOnly('00:00:00'), 0);
    assert.ok(Number.isNaN(parseUtcTimeOnly('9:30:01')));
    assert.ok(Number.isNaN(parseUtcTimeOnly('09:60:01')));
    assert.ok(isFixDate('20260430'));
    assert.ok(!isFixDate('20260431'));
    assert.ok(!isFixDate('2026043'));
  });

  it('parses MonthYear forms', () => {
    assert.deepEqual(parseMonthYear('202604'), { text: '202604', year: 2026, month: 4, day: undefined, week: undefined });
    assert.deepEqual(parseMonthYear('20260415'), { text: '20260415', year: 2026, month: 4, day: 15, week: undefined });
    assert.deepEqual(parseMonthYear('202604w3'), { text: '202604w3', year: 2026, month: 4, day: undefined, week: 3 });
    for (const bad of ['2026', '202613', '202604w6', '20260431', '2026-04']) assert.equal(parseMonthYear(bad), undefined, bad);
  });
});
