import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AVG_PX_SCALE,
  Decimal,
  DecimalError,
  averagePrice,
  fillNotional,
  floorQuantity,
  parseWholeQuantity,
  percentDifference,
  type RoundingMode,
} from './decimal';

const d = (s: string) => Decimal.parse(s);

describe('Decimal.parse and toString', () => {
  const canonical: [string, string][] = [
    ['0', '0'],
    ['-0', '0'],
    ['+0.000', '0'],
    ['27000', '27000'],
    ['27000.50', '27000.5'],
    ['-12.5', '-12.5'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['007.100', '7.1'],
    ['1.5e3', '1500'],
    ['1.5E+3', '1500'],
    ['125e-2', '1.25'],
    ['-1e-7', '-0.0000001'],
    ['  42  ', '42'],
    ['0.1', '0.1'],
    ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
  ];
  for (const [input, expected] of canonical) {
    it(`reads '${input}' as ${expected}`, () => assert.equal(d(input).toString(), expected));
  }

  const invalid = ['', ' ', '.', '-', '+', 'abc', '1,000', '1.2.3', '1e', 'e5', '--1', '1 000', 'NaN', 'Infinity', '0x10', '1e9999999'];
  for (const input of invalid) {
    it(`refuses '${input}'`, () => {
      assert.throws(() => d(input), DecimalError);
      assert.equal(Decimal.tryParse(input), null);
    });
  }

  it('refuses absurd exponents and lengths instead of allocating', () => {
    assert.throws(() => d('1e100'), /out of range/);
    assert.throws(() => d('1e-100'), /decimal places/);
    assert.throws(() => d('1'.repeat(250)), /too long/);
    assert.equal(d('0e100').toString(), '0');
    assert.equal(d('1.000000000000000000000000000000000000000000000000000000000000000000000000').toString(), '1');
  });

  it('reads a literal met before as the first time, and refuses a bad one every time (the cache of literals)', () => {
    for (const text of ['27000.50', ' 1.5e3 ', '-0.001', '10']) {
      const first = d(text);
      const again = d(text);
      assert.equal(again.toString(), first.toString());
      assert.equal(again.scale, first.scale);
    }
    for (let i = 0; i < 3; i++) assert.throws(() => d('12,5'), DecimalError);
    // Past its bound the cache starts over: literals still read right.
    for (let i = 0; i < 10_000; i++) assert.equal(d(`${i}.25`).toString(), `${i}.25`);
    assert.equal(d('27000.50').scale, 2);
    assert.ok(d('27000.50').eq('27000.5'));
  });

  it('keeps the scale it was given and compares by value', () => {
    const a = d('1.50');
    assert.equal(a.scale, 2);
    assert.equal(a.units, 150n);
    assert.ok(a.eq('1.5'));
    assert.equal(a.toFixed(2), '1.50');
  });

  it('reads JSON numbers through their literal, not their binary value', () => {
    assert.equal(Decimal.fromNumber(0.1).toString(), '0.1');
    assert.equal(Decimal.fromNumber(27000.5).toString(), '27000.5');
    assert.equal(Decimal.fromNumber(1e21).toString(), '1000000000000000000000');
    assert.equal(Decimal.fromNumber(1e-7).toString(), '0.0000001');
    assert.equal(Decimal.fromNumber(-0).toString(), '0');
    assert.throws(() => Decimal.fromNumber(Number.NaN), DecimalError);
    assert.throws(() => Decimal.fromNumber(Number.POSITIVE_INFINITY), DecimalError);
  });

  it('from and tryFrom accept every input kind and nothing else', () => {
    assert.equal(Decimal.from(5n).toString(), '5');
    assert.equal(Decimal.from('2.5').toString(), '2.5');
    const x = d('3');
    assert.equal(Decimal.from(x), x);
    for (const bad of [null, undefined, '', 'x', {}, [], true, Number.NaN]) assert.equal(Decimal.tryFrom(bad), null);
    assert.equal(Decimal.tryFrom(12)?.toString(), '12');
  });

  it('fromUnits validates the scale', () => {
    assert.equal(Decimal.fromUnits(2700050n, 2).toString(), '27000.5');
    assert.throws(() => Decimal.fromUnits(1n, -1), DecimalError);
    assert.throws(() => Decimal.fromUnits(1n, 1.5), DecimalError);
    assert.throws(() => Decimal.fromUnits(1n, 65), DecimalError);
  });

  it('serialises to JSON as a string', () => {
    assert.equal(JSON.stringify({ px: d('27000.10') }), '{"px":"27000.1"}');
  });
});

describe('Decimal arithmetic', () => {
  it('adds and subtracts exactly where floats do not', () => {
    assert.equal(d('0.1').add('0.2').toString(), '0.3');
    assert.notEqual(0.1 + 0.2, 0.3); // the reason this type exists
    assert.equal(d('27000.25').sub('27000.5').toString(), '-0.25');
    assert.equal(d('-5').add(5).toString(), '0');
  });

  it('multiplies exactly', () => {
    assert.equal(d('1.1').mul('1.1').toString(), '1.21');
    assert.equal(d('-12.5').mul('4').toString(), '-50');
    assert.equal(d('0.01').mul('1000').toString(), '10');
    assert.equal(d('123456789.123456789').mul('987654321.987654321').toString(), '121932631356500531.347203169112635269');
  });

  it('divides to the stated scale with half-even by default', () => {
    assert.equal(d('10').div('3', 4).toString(), '3.3333');
    assert.equal(d('2').div('3', 2).toString(), '0.67');
    assert.equal(d('1').div('8', 2).toFixed(2), '0.12'); // 0.125 → even
    assert.equal(d('3').div('8', 2).toFixed(2), '0.38'); // 0.375 → even
    assert.equal(d('-1').div('8', 2).toFixed(2), '-0.12');
    assert.equal(d('1').div('8', 2, 'HALF_UP').toFixed(2), '0.13');
    assert.equal(d('100').div('0.5', 0).toString(), '200');
    assert.equal(d('1.23456').div('1', 2).toString(), '1.23');
    assert.equal(d('5').div('-2', 0).toString(), '-2');
    assert.throws(() => d('1').div('0', 2), /Division by zero/);
    assert.throws(() => d('1').div('2', -1), DecimalError);
  });

  const roundingCases: [string, RoundingMode, string][] = [
    ['2.5', 'HALF_EVEN', '2'],
    ['3.5', 'HALF_EVEN', '4'],
    ['-2.5', 'HALF_EVEN', '-2'],
    ['2.51', 'HALF_EVEN', '3'],
    ['2.5', 'HALF_UP', '3'],
    ['-2.5', 'HALF_UP', '-3'],
    ['2.49', 'HALF_UP', '2'],
    ['2.9', 'DOWN', '2'],
    ['-2.9', 'DOWN', '-2'],
    ['2.1', 'FLOOR', '2'],
    ['-2.1', 'FLOOR', '-3'],
    ['2.1', 'CEILING', '3'],
    ['-2.9', 'CEILING', '-2'],
    ['7', 'CEILING', '7'],
  ];
  for (const [input, mode, expected] of roundingCases) {
    it(`rounds ${input} ${mode} to ${expected}`, () => assert.equal(d(input).round(0, mode).toString(), expected));
  }

  it('round pads when asked for more places and toFixed shows them', () => {
    assert.equal(d('1.5').round(3).scale, 3);
    assert.equal(d('1.5').toFixed(3), '1.500');
    assert.equal(d('-0.004').toFixed(2), '0.00');
    assert.equal(d('-0.005').toFixed(2, 'HALF_UP'), '-0.01');
  });

  it('floor, neg, abs', () => {
    assert.equal(d('9.99').floor().toString(), '9');
    assert.equal(d('-0.5').floor().toString(), '-1');
    assert.equal(d('3').neg().toString(), '-3');
    assert.equal(d('-3.2').abs().toString(), '3.2');
  });

  it('compares across scales', () => {
    assert.equal(d('1.10').compare('1.1'), 0);
    assert.equal(d('1.09').compare('1.1'), -1);
    assert.equal(d('-1').compare('-2'), 1);
    assert.ok(d('5').gt('4.999'));
    assert.ok(d('5').gte('5.000'));
    assert.ok(d('5').lte('5'));
    assert.ok(d('-5').lt('0'));
    assert.equal(Decimal.min('3', '1.5', '2').toString(), '1.5');
    assert.equal(Decimal.max('3', '10', '2').toString(), '10');
  });

  it('predicates', () => {
    assert.ok(d('0.000').isZero());
    assert.ok(d('-0.01').isNegative());
    assert.ok(!d('0').isNegative());
    assert.ok(!d('0').isPositive());
    assert.ok(d('2.00').isInteger());
    assert.ok(!d('2.01').isInteger());
    assert.ok(d('27050').isMultipleOf('50'));
    assert.ok(!d('27025').isMultipleOf('50'));
    assert.ok(d('12.34').isMultipleOf('0.01'));
    assert.ok(!d('12.345').isMultipleOf('0.01'));
    assert.ok(d('-20').isMultipleOf('10'));
    assert.throws(() => d('1').isMultipleOf('0'), /greater than 0/);
  });

  it('sum and toBigInt', () => {
    assert.equal(Decimal.sum(['0.1', '0.2', 0.3, 1n]).toString(), '1.6');
    assert.equal(Decimal.sum([]).toString(), '0');
    assert.equal(d('12.000').toBigInt(), 12n);
    assert.throws(() => d('12.5').toBigInt(), /whole number/);
  });

  it('toNumber is only a display convenience', () => {
    assert.equal(d('27000.5').toNumber(), 27000.5);
  });
});

describe('percentDifference', () => {
  it('measures distance from the reference', () => {
    assert.equal(percentDifference('105', '100')?.toString(), '5');
    assert.equal(percentDifference('95', '100')?.toString(), '5');
    assert.equal(percentDifference('27500', '25000')?.toString(), '10');
    assert.equal(percentDifference('1', '3', 4)?.toString(), '66.6667');
    assert.equal(percentDifference('-110', '-100')?.toString(), '10');
  });
  it('has no answer against a zero reference', () => {
    assert.equal(percentDifference('5', '0'), null);
  });
});

describe('averagePrice', () => {
  it('is Σ(qty·px)/Σqty, exact then rounded half-even', () => {
    const fills = [
      { qty: '3', px: '27000.10' },
      { qty: '7', px: '27000.20' },
    ];
    assert.equal(fillNotional(fills).toString(), '270001.7');
    assert.equal(averagePrice(fills).toString(), '27000.17');
    assert.equal(averagePrice(fills).scale, AVG_PX_SCALE);
  });

  it('rounds repeating fractions to the stated scale', () => {
    const fills = [
      { qty: 1, px: 1 },
      { qty: 2, px: 2 },
    ];
    assert.equal(averagePrice(fills).toString(), '1.66666667');
    assert.equal(averagePrice(fills, 2).toString(), '1.67');
  });

  it('does not drift over many small fills the way floats do', () => {
    const fills = Array.from({ length: 1000 }, () => ({ qty: '1', px: '0.1' }));
    assert.equal(averagePrice(fills).toString(), '0.1');
    assert.equal(fillNotional(fills).toString(), '100');
  });

  it('handles negative and zero spread prices', () => {
    assert.equal(
      averagePrice([
        { qty: 1, px: '-250' },
        { qty: 1, px: '0' },
      ]).toString(),
      '-125',
    );
  });

  it('is zero without executed quantity and refuses negative quantities', () => {
    assert.equal(averagePrice([]).toString(), '0');
    assert.equal(averagePrice([{ qty: 0, px: 5 }]).toString(), '0');
    assert.throws(() => averagePrice([{ qty: -1, px: 5 }]), /negative/);
  });
});

describe('quantity helpers', () => {
  it('parseWholeQuantity', () => {
    assert.equal(parseWholeQuantity('10').toString(), '10');
    assert.equal(parseWholeQuantity('10.000').scale, 0);
    assert.throws(() => parseWholeQuantity('10.5'), /whole number/);
    assert.throws(() => parseWholeQuantity('-1'), /negative/);
    assert.throws(() => parseWholeQuantity('x'), DecimalError);
  });
  it('floorQuantity floors like FIX building must', () => {
    assert.equal(floorQuantity('10.9').toString(), '10');
    assert.equal(floorQuantity(7).toString(), '7');
    assert.equal(floorQuantity('0.5').toString(), '0');
  });
});
