// The instrument modules together: maturities.ts, strategies.ts, contract-specs.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  FREIGHT_CONTRACT_SPECS,
  QUARTERS,
  addMonths,
  calLabel,
  calStripLabel,
  calendarMonths,
  contractMonthOptions,
  contractMonthStatus,
  currentYearMonth,
  customLegRatios,
  customStrategyLabel,
  expandTwoDigitYear,
  generateCustomMultileg,
  generateMultileg,
  greatestCommonDivisor,
  maturityLabel,
  nextClientOrderId,
  normalizeMaturity,
  parseCalYear,
  parseMaturity,
  parseQuarter,
  parseStrategySymbol,
  quarterLabel,
  quarterMonths,
  quarterOfMonth,
  quarterOptions,
  quarterStripLabel,
  singleMonthLabel,
  splitSymbolDisplay,
  symbolParseErrorMessage,
  symbolPickerLabel,
  yearOptions,
  type GenerateResult,
  type GeneratedStrategy,
} from './index';

const strategy = (r: GenerateResult): GeneratedStrategy => {
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.strategy;
};

describe('maturities', () => {
  it('YYYYMM ↔ Mon-YY', () => {
    assert.equal(maturityLabel('202509'), 'Sep-25');
    assert.equal(maturityLabel('203001'), 'Jan-30');
    assert.equal(maturityLabel('199912'), 'Dec-99');
    assert.equal(normalizeMaturity('Sep-25'), '202509');
    assert.equal(normalizeMaturity('sep-25'), '202509');
    assert.equal(normalizeMaturity('SEP25'), '202509');
    assert.equal(normalizeMaturity('Sep 2025'), '202509');
    assert.equal(normalizeMaturity('Sep-2025'), '202509');
    assert.equal(normalizeMaturity('2025-09'), '202509');
    assert.equal(normalizeMaturity('20250915'), '202509');
    assert.equal(normalizeMaturity(202509), '202509');
  });

  it('two-digit years below 50 are 20xx, the rest 19xx', () => {
    assert.equal(expandTwoDigitYear(0), 2000);
    assert.equal(expandTwoDigitYear(49), 2049);
    assert.equal(expandTwoDigitYear(50), 1950);
    assert.equal(expandTwoDigitYear(99), 1999);
    assert.equal(normalizeMaturity('Jan-49'), '204901');
    assert.equal(normalizeMaturity('Jan-50'), '195001');
  });

  it('refuses what is not a month', () => {
    for (const bad of [
      '',
      '2025',
      '202513',
      '202500',
      'Sept-25',
      'Foo-25',
      'CAL-25',
      '25-09',
      '2025-9',
      null,
      undefined,
      {},
      2025.5,
      '20251',
    ]) {
      assert.equal(parseMaturity(bad), null, String(bad));
    }
  });

  it('month arithmetic across years', () => {
    assert.deepEqual(addMonths({ year: 2025, month: 11 }, 3), { year: 2026, month: 2 });
    assert.deepEqual(addMonths({ year: 2025, month: 1 }, -1), { year: 2024, month: 12 });
    assert.deepEqual(addMonths({ year: 2025, month: 1 }, 95), { year: 2032, month: 12 });
  });

  it('current month respects the time zone', () => {
    const now = new Date('2025-08-31T20:00:00Z'); // already 1 Sep in Singapore
    assert.deepEqual(currentYearMonth(now), { year: 2025, month: 8 });
    assert.deepEqual(currentYearMonth(now, 'Asia/Singapore'), { year: 2025, month: 9 });
  });

  it('contract month options: current month for 8 years, labelled Sep-25 (202509)', () => {
    const options = contractMonthOptions(new Date('2025-09-15T12:00:00Z'));
    assert.equal(options.length, 96);
    assert.deepEqual(options[0], { value: '202509', label: 'Sep-25 (202509)' });
    assert.deepEqual(options[4], { value: '202601', label: 'Jan-26 (202601)' });
    assert.deepEqual(options.at(-1), { value: '203308', label: 'Aug-33 (203308)' });
    assert.equal(contractMonthOptions(new Date('2025-09-15T12:00:00Z'), { years: 1 }).length, 12);
  });

  it('contract month status against the series', () => {
    const now = new Date('2025-09-15T00:00:00Z');
    assert.equal(contractMonthStatus('202509', 84, now), 'listed');
    assert.equal(contractMonthStatus('202508', 84, now), 'expired');
    assert.equal(contractMonthStatus('203208', 84, now), 'listed'); // 83 months ahead
    assert.equal(contractMonthStatus('203209', 84, now), 'beyondSeries');
    assert.equal(contractMonthStatus('203209', null, now), 'listed');
    assert.equal(contractMonthStatus('xx', 84, now), 'invalid');
  });
});

describe('quarters and years', () => {
  it('quarter definitions (spec 000 §9)', () => {
    assert.deepEqual(
      QUARTERS.map((q) => [q.quarter, q.months, q.startMonth]),
      [
        [1, 'Jan-Mar', '01'],
        [2, 'Apr-Jun', '04'],
        [3, 'Jul-Sep', '07'],
        [4, 'Oct-Dec', '10'],
      ],
    );
    assert.deepEqual([1, 3, 4, 6, 7, 9, 10, 12].map(quarterOfMonth), [1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it('parses and labels quarters', () => {
    assert.deepEqual(parseQuarter('Q1-26'), { year: 2026, quarter: 1 });
    assert.deepEqual(parseQuarter('q4-2025'), { year: 2025, quarter: 4 });
    assert.deepEqual(parseQuarter('2027-Q2'), { year: 2027, quarter: 2 });
    assert.deepEqual(parseQuarter('2027Q3'), { year: 2027, quarter: 3 });
    for (const bad of ['Q5-26', 'Q0-26', 'Q1', '26-Q1', '', null]) assert.equal(parseQuarter(bad), null);
    assert.equal(quarterLabel({ year: 2026, quarter: 1 }), 'Q1-26');
    assert.deepEqual(quarterMonths({ year: 2026, quarter: 4 }), ['202610', '202611', '202612']);
  });

  it('quarter picker: 8 years from the current quarter', () => {
    const options = quarterOptions(new Date('2025-08-10T00:00:00Z'));
    assert.equal(options.length, 32);
    assert.equal(options[0]!.value, 'Q3-25');
    assert.equal(options[2]!.value, 'Q1-26');
    assert.equal(options.at(-1)!.value, 'Q2-33');
  });

  it('year picker: 10 years from the current one', () => {
    const options = yearOptions(new Date('2025-08-10T00:00:00Z'));
    assert.equal(options.length, 10);
    assert.deepEqual(options[0], { value: 2025, label: '2025' });
    assert.equal(options.at(-1)!.value, 2034);
  });

  it('calendar years', () => {
    assert.equal(parseCalYear(2026), 2026);
    assert.equal(parseCalYear('2026'), 2026);
    assert.equal(parseCalYear('26'), 2026);
    assert.equal(parseCalYear('CAL-26'), 2026);
    assert.equal(parseCalYear('cal26'), 2026);
    for (const bad of ['', 'CAL', 'x', 2026.5, null, '202']) assert.equal(parseCalYear(bad), null);
    assert.equal(calLabel(2026), 'CAL-26');
    assert.equal(calendarMonths(2026).length, 12);
    assert.equal(calendarMonths(2026)[0], '202601');
    assert.equal(calendarMonths(2026)[11], '202612');
  });
});

describe('symbols and labels', () => {
  it('splits the symbol display on " - "', () => {
    assert.deepEqual(splitSymbolDisplay('C5TC - Capesize 5TC'), { name: 'C5TC', description: 'Capesize 5TC' });
    assert.deepEqual(splitSymbolDisplay('C5TC - Capesize - 5TC'), { name: 'C5TC', description: 'Capesize - 5TC' });
    assert.deepEqual(splitSymbolDisplay('C5TC-Q1-26'), { name: 'C5TC-Q1-26', description: '' });
    assert.deepEqual(splitSymbolDisplay(null), { name: '', description: '' });
    assert.equal(symbolPickerLabel('C5TC', 'Capesize 5TC'), 'C5TC - Capesize 5TC');
    assert.equal(symbolPickerLabel('C5TC'), 'C5TC');
  });

  it('labels per strategy type', () => {
    assert.equal(singleMonthLabel('C5TC', '202509'), 'C5TC-Sep-25');
    assert.equal(quarterStripLabel('C5TC', { year: 2026, quarter: 1 }), 'C5TC-Q1-26');
    assert.equal(calStripLabel('P4TC', 2027), 'P4TC-CAL-27');
    assert.equal(customStrategyLabel(['C5TC-Sep-25', 'C5TC-Oct-25'], ['P4TC-Q1-26']), 'C5TC-Sep-25>C5TC-Oct-25/P4TC-Q1-26');
  });

  it('client order id rule', () => {
    assert.equal(nextClientOrderId('ABC', 0), 'ABC-1.1');
    assert.equal(nextClientOrderId('ABC', 41), 'ABC-42.1');
    assert.equal(nextClientOrderId(null, 3), 'CLI-4.1');
    assert.equal(nextClientOrderId('  ', 3), 'CLI-4.1');
    assert.equal(nextClientOrderId(undefined, -5), 'CLI-1.1');
  });
});

describe('generateMultileg', () => {
  it('basicSpread: two months, front on the order side', () => {
    const s = strategy(generateMultileg({ type: 'basicSpread', side: '1', stripSymbol: 'C5TC', month1: '202510', month2: 'Nov-25' }));
    assert.equal(s.symbol, 'C5TC-Oct-25/Nov-25');
    assert.deepEqual(s.legs, [
      { symbol: 'C5TC', side: '1', ratio: 1, maturity: '202510', contractMonth: 'Oct-25', securityType: 'FUT' },
      { symbol: 'C5TC', side: '2', ratio: 1, maturity: '202511', contractMonth: 'Nov-25', securityType: 'FUT' },
    ]);
    const sell = strategy(generateMultileg({ type: 'basicSpread', side: '2', stripSymbol: 'C5TC', month1: '202510', month2: '202511' }));
    assert.deepEqual(
      sell.legs.map((l) => l.side),
      ['2', '1'],
    );
    assert.equal(sell.symbol, 'C5TC-Oct-25/Nov-25');
  });

  it('quarterSpread: 3 + 3 legs', () => {
    const s = strategy(
      generateMultileg({ type: 'quarterSpread', side: '1', stripSymbol: 'C5TC', quarterYear: 'Q1-26', quarterYear2: 'Q2-26' }),
    );
    assert.equal(s.symbol, 'C5TC-Q1-26/Q2-26');
    assert.deepEqual(
      s.legs.map((l) => `${l.side}:${l.maturity}`),
      ['1:202601', '1:202602', '1:202603', '2:202604', '2:202605', '2:202606'],
    );
  });

  it('calSpread: 12 + 12 legs', () => {
    const s = strategy(generateMultileg({ type: 'calSpread', side: '2', stripSymbol: 'P4TC', calYear: 2026, calYear2: '2027' }));
    assert.equal(s.symbol, 'P4TC-CAL-26/CAL-27');
    assert.equal(s.legs.length, 24);
    assert.ok(s.legs.slice(0, 12).every((l) => l.side === '2' && l.maturity.startsWith('2026')));
    assert.ok(s.legs.slice(12).every((l) => l.side === '1' && l.maturity.startsWith('2027')));
  });

  it('quarter strip: 3 legs on the order side; calstrip: 12', () => {
    const q = strategy(generateMultileg({ type: 'quarter', side: '2', stripSymbol: 'C3', quarterYear: 'Q4-25' }));
    assert.equal(q.symbol, 'C3-Q4-25');
    assert.deepEqual(
      q.legs.map((l) => l.maturity),
      ['202510', '202511', '202512'],
    );
    assert.ok(q.legs.every((l) => l.side === '2' && l.ratio === 1 && l.securityType === 'FUT'));
    const c = strategy(generateMultileg({ type: 'calstrip', side: '1', stripSymbol: 'C3', calYear: '2026' }));
    assert.equal(c.symbol, 'C3-CAL-26');
    assert.equal(c.legs.length, 12);
  });

  it('says what is missing', () => {
    const cases: [Parameters<typeof generateMultileg>[0], string][] = [
      [{ type: 'quarter', side: '1', stripSymbol: ' ' }, 'Please select a symbol'],
      [{ type: 'quarter', side: '3', stripSymbol: 'C5TC', quarterYear: 'Q1-26' }, "Invalid side '3': side must be '1' (Buy) or '2' (Sell)"],
      [{ type: 'quarter', side: '1', stripSymbol: 'C5TC' }, 'Please select a quarter'],
      [{ type: 'calstrip', side: '1', stripSymbol: 'C5TC' }, 'Please select a calendar year'],
      [{ type: 'basicSpread', side: '1', stripSymbol: 'C5TC', month1: '202601' }, 'Please select both contract months'],
      [
        { type: 'basicSpread', side: '1', stripSymbol: 'C5TC', month1: '202601', month2: 'Jan-26' },
        'The two contract months of a spread must differ',
      ],
      [{ type: 'quarterSpread', side: '1', stripSymbol: 'C5TC', quarterYear: 'Q1-26' }, 'Please select both quarters'],
      [
        { type: 'quarterSpread', side: '1', stripSymbol: 'C5TC', quarterYear: 'Q1-26', quarterYear2: '2026Q1' },
        'The two quarters of a spread must differ',
      ],
      [{ type: 'calSpread', side: '1', stripSymbol: 'C5TC', calYear: 2026 }, 'Please select both calendar years'],
      [
        { type: 'calSpread', side: '1', stripSymbol: 'C5TC', calYear: 2026, calYear2: 'CAL-26' },
        'The two calendar years of a spread must differ',
      ],
      [{ type: 'butterfly', side: '1', stripSymbol: 'C5TC' }, "Unknown multileg type 'butterfly'"],
    ];
    for (const [form, message] of cases) assert.deepEqual(generateMultileg(form), { ok: false, error: message });
  });
});

describe('custom multileg', () => {
  it('ratios by greatest common divisor of month counts, crossed so both sides balance', () => {
    assert.equal(greatestCommonDivisor(12, 3), 3);
    assert.equal(greatestCommonDivisor(7, 0), 7);
    assert.deepEqual(customLegRatios(1, 1), { buyRatio: 1, sellRatio: 1 });
    assert.deepEqual(customLegRatios(1, 3), { buyRatio: 3, sellRatio: 1 });
    assert.deepEqual(customLegRatios(3, 12), { buyRatio: 4, sellRatio: 1 });
    assert.deepEqual(customLegRatios(2, 3), { buyRatio: 3, sellRatio: 2 });
    assert.deepEqual(customLegRatios(6, 4), { buyRatio: 2, sellRatio: 3 });
    for (const [b, s] of [
      [1, 12],
      [4, 6],
      [15, 12],
    ] as const) {
      const r = customLegRatios(b, s);
      assert.equal(b * r.buyRatio, s * r.sellRatio, 'contracts on both sides match');
    }
  });

  it('month against quarter', () => {
    const s = strategy(
      generateCustomMultileg({
        side: '1',
        buyLegs: [{ type: 'single', symbol: 'C5TC', contractMonth: '202512' }],
        sellLegs: [{ type: 'quarter', symbol: 'C5TC', quarterYear: 'Q1-26' }],
      }),
    );
    assert.equal(s.symbol, 'C5TC-Dec-25/C5TC-Q1-26');
    assert.deepEqual(
      s.legs.map((l) => `${l.side}:${l.maturity}x${l.ratio}`),
      ['1:202512x3', '2:202601x1', '2:202602x1', '2:202603x1'],
    );
  });

  it('several buy legs joined by > and a sell order flips the directions', () => {
    const s = strategy(
      generateCustomMultileg({
        side: '2',
        buyLegs: [
          { type: 'single', symbol: 'C5TC', contractMonth: 'Oct-25' },
          { type: 'quarter', symbol: 'P4TC', quarterYear: 'Q1-26' },
        ],
        sellLegs: [{ type: 'cal', symbol: 'S10TC', calYear: 2026 }],
      }),
    );
    assert.equal(s.symbol, 'C5TC-Oct-25>P4TC-Q1-26/S10TC-CAL-26');
    // 4 buy months vs 12 sell months: gcd 4 → buy ratio 3, sell ratio 1
    assert.equal(s.legs.length, 16);
    assert.ok(s.legs.slice(0, 4).every((l) => l.side === '2' && l.ratio === 3));
    assert.ok(s.legs.slice(4).every((l) => l.side === '1' && l.ratio === 1 && l.symbol === 'S10TC'));
  });

  it('says what is missing or contradictory', () => {
    const single = { type: 'single', symbol: 'C5TC', contractMonth: '202601' };
    assert.deepEqual(generateCustomMultileg({ side: '1', buyLegs: [single], sellLegs: [] }), {
      ok: false,
      error: 'Add at least one buy leg and one sell leg',
    });
    assert.deepEqual(generateCustomMultileg({ side: '1', buyLegs: [{ ...single, symbol: '' }], sellLegs: [single] }), {
      ok: false,
      error: 'Buy leg 1: select a symbol',
    });
    assert.deepEqual(generateCustomMultileg({ side: '1', buyLegs: [single], sellLegs: [{ type: 'quarter', symbol: 'C5TC' }] }), {
      ok: false,
      error: 'Sell leg 1: select a quarter',
    });
    assert.deepEqual(generateCustomMultileg({ side: '1', buyLegs: [single], sellLegs: [{ type: 'cal', symbol: 'C5TC' }] }), {
      ok: false,
      error: 'Sell leg 1: select a calendar year',
    });
    assert.deepEqual(generateCustomMultileg({ side: '1', buyLegs: [{ ...single, contractMonth: 'x' }], sellLegs: [single] }), {
      ok: false,
      error: 'Buy leg 1: select a contract month',
    });
    assert.deepEqual(generateCustomMultileg({ side: '1', buyLegs: [{ ...single, type: 'x' }], sellLegs: [single] }), {
      ok: false,
      error: "Buy leg 1: unknown leg type 'x'",
    });
    assert.deepEqual(
      generateCustomMultileg({ side: '1', buyLegs: [single], sellLegs: [{ type: 'quarter', symbol: 'C5TC', quarterYear: 'Q1-26' }] }),
      {
        ok: false,
        error: 'C5TC Jan-26 appears in more than one leg',
      },
    );
    assert.equal(generateCustomMultileg({ side: 'B', buyLegs: [single], sellLegs: [single] }).ok, false);
  });
});

describe('parseStrategySymbol', () => {
  it('reads every generated composite format back', () => {
    assert.deepEqual(parseStrategySymbol('C5TC-Sep-25'), { kind: 'single', symbol: 'C5TC', maturities: ['202509'] });
    assert.deepEqual(parseStrategySymbol('C5TC-Q1-26'), { kind: 'quarter', symbol: 'C5TC', maturities: ['202601', '202602', '202603'] });
    const cal = parseStrategySymbol('S10TC-CAL-26');
    assert.ok(cal && cal.kind === 'cal' && cal.maturities.length === 12 && cal.symbol === 'S10TC');
    assert.deepEqual(parseStrategySymbol('C5TC-Oct-25/Nov-25'), { kind: 'monthSpread', symbol: 'C5TC', maturities: ['202510', '202511'] });
    const qs = parseStrategySymbol('C5TC-Q1-26/Q2-26');
    assert.ok(qs && qs.kind === 'quarterSpread');
    assert.deepEqual(qs.second, ['202604', '202605', '202606']);
    const cs = parseStrategySymbol('P4TC-CAL-26/CAL-27');
    assert.ok(cs && cs.kind === 'calSpread' && cs.second[0] === '202701');
  });

  it('round-trips every generator output', () => {
    const forms = [
      { type: 'basicSpread', side: '1', stripSymbol: 'C5TC', month1: '202510', month2: '202603' },
      { type: 'quarterSpread', side: '1', stripSymbol: 'C7', quarterYear: 'Q3-26', quarterYear2: 'Q4-26' },
      { type: 'calSpread', side: '1', stripSymbol: 'C5', calYear: 2027, calYear2: 2028 },
      { type: 'quarter', side: '1', stripSymbol: 'C5', quarterYear: 'Q2-27' },
      { type: 'calstrip', side: '1', stripSymbol: 'C5', calYear: 2029 },
    ];
    for (const form of forms) {
      const s = strategy(generateMultileg(form));
      const parsed = parseStrategySymbol(s.symbol);
      assert.ok(parsed, s.symbol);
      const months = 'maturities' in parsed ? parsed.maturities : [...parsed.first, ...parsed.second];
      assert.deepEqual(
        months,
        s.legs.map((l) => l.maturity),
      );
    }
  });

  it('returns null for custom labels and garbage; the error text is fixed', () => {
    for (const bad of [
      '',
      'C5TC',
      'C5TC-Foo-25',
      'C5TC-Q1-26/CAL-27',
      'C5TC-Sep-25>C5TC-Q1-26/C5TC-CAL-26',
      'a/b/c',
      'C5TC-Q1-26/Q5-26',
      null,
    ]) {
      assert.equal(parseStrategySymbol(bad), null, String(bad));
    }
    assert.equal(symbolParseErrorMessage('XYZ'), 'ERROR: Could not parse order symbol: XYZ');
  });
});

describe('freight contract specs (spec 001 §9)', () => {
  it('timecharters: 1 day, $/day, tick 1, 84 months; voyages: 1,000 t, tick 0.01, 36 months', () => {
    const by = Object.fromEntries(FREIGHT_CONTRACT_SPECS.map((s) => [s.symbol, s]));
    assert.deepEqual(Object.keys(by), ['C5TC', 'P4TC', 'S10TC', 'C3', 'C5', 'C7']);
    for (const sym of ['C5TC', 'P4TC', 'S10TC']) {
      assert.equal(by[sym]!.contract_size, '1');
      assert.equal(by[sym]!.price_tick_size, '1');
      assert.equal(by[sym]!.series_months, 84);
      assert.match(by[sym]!.contract_unit, /\$\/day/);
    }
    for (const sym of ['C3', 'C5', 'C7']) {
      assert.equal(by[sym]!.contract_size, '1000');
      assert.equal(by[sym]!.price_tick_size, '0.01');
      assert.equal(by[sym]!.series_months, 36);
    }
  });
});
