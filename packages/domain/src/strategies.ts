/**
 * Symbols and strategy labels, and the strategies themselves (spec 000 §9, spec 001 §5): quarter and
 * calendar strips, spreads and custom combinations are generated here as explicit legs so the FIX
 * builder, the server and the screens all agree on legs, ratios and the composite symbol.
 */
import { Side, oppositeSide, SecurityType, type SecurityTypeCode, type SideCode } from './codes';
import {
  calLabel,
  calendarMonths,
  compareYearMonth,
  maturityLabel,
  parseCalYear,
  parseMaturity,
  parseQuarter,
  quarterLabel,
  quarterMonths,
  toMaturity,
  toMonthLabel,
  type YearMonth,
  type YearQuarter,
} from './maturities';

// ───────────────────────────── symbols and labels ─────────────────────────────

/** 'C5TC - Capesize 5TC' → name 'C5TC', description 'Capesize 5TC'; no ' - ' → all name. */
export function splitSymbolDisplay(text: string | null | undefined): { name: string; description: string } {
  const value = (text ?? '').trim();
  const at = value.indexOf(' - ');
  if (at < 0) return { name: value, description: '' };
  return { name: value.slice(0, at).trim(), description: value.slice(at + 3).trim() };
}

/** The symbol picker's label: 'symbol - instrument name'. */
export function symbolPickerLabel(symbol: string, instrumentName?: string | null): string {
  return instrumentName ? `${symbol} - ${instrumentName}` : symbol;
}

/** Single month: 'C5TC-Sep-25'. */
export function singleMonthLabel(symbol: string, maturity: string | YearMonth): string {
  const ym = typeof maturity === 'string' ? parseMaturity(maturity) : maturity;
  return `${symbol}-${ym ? toMonthLabel(ym) : String(maturity)}`;
}

/** Quarter strip: 'C5TC-Q1-26' (3 contracts). */
export function quarterStripLabel(symbol: string, q: YearQuarter): string {
  return `${symbol}-${quarterLabel(q)}`;
}

/** Calendar strip: 'C5TC-CAL-26' (12 contracts). */
export function calStripLabel(symbol: string, year: number): string {
  return `${symbol}-${calLabel(year)}`;
}

/** Custom strategies: buy legs joined by '>', then '/', then sell legs joined by '>'. */
export function customStrategyLabel(buyLabels: readonly string[], sellLabels: readonly string[]): string {
  return `${buyLabels.join('>')}/${sellLabels.join('>')}`;
}

/** Client order id rule: '{execution_id_prefix or CLI}-{orders already sent by that sender + 1}.1'. */
export function nextClientOrderId(executionIdPrefix: string | null | undefined, ordersFromSender: number): string {
  const prefix = executionIdPrefix?.trim() || 'CLI';
  const count = Number.isInteger(ordersFromSender) && ordersFromSender > 0 ? ordersFromSender : 0;
  return `${prefix}-${count + 1}.1`;
}

// ───────────────────────────── strategy generation ─────────────────────────────

export type MultilegType = 'quarterSpread' | 'calSpread' | 'basicSpread' | 'quarter' | 'calstrip';
export const MULTILEG_TYPES: readonly MultilegType[] = ['quarterSpread', 'calSpread', 'basicSpread', 'quarter', 'calstrip'];
export const MULTILEG_TYPE_LABELS: Record<MultilegType, string> = {
  quarterSpread: 'Quarter Spread',
  calSpread: 'Calendar Spread',
  basicSpread: 'Month Spread',
  quarter: 'Quarter Strip',
  calstrip: 'Calendar Strip',
};

export interface GeneratedLeg {
  symbol: string;
  /** The leg's own trading direction. */
  side: SideCode;
  /** LegRatioQty: leg contracts per strategy unit. */
  ratio: number;
  /** LegMaturityMonthYear 'YYYYMM'. */
  maturity: string;
  /** The same month as 'Mon-YY'. */
  contractMonth: string;
  securityType: SecurityTypeCode;
}

export interface GeneratedStrategy {
  /** The composite symbol sent in tag 55 and shown on the blotter. */
  symbol: string;
  legs: GeneratedLeg[];
}

export type GenerateResult = { ok: true; strategy: GeneratedStrategy } | { ok: false; error: string };

export interface MultilegForm {
  type: MultilegType | string;
  side: SideCode | string;
  stripSymbol: string;
  quarterYear?: string | null;
  quarterYear2?: string | null;
  calYear?: string | number | null;
  calYear2?: string | number | null;
  month1?: string | null;
  month2?: string | null;
}

function legsFor(symbol: string, maturities: readonly string[], side: SideCode, ratio = 1): GeneratedLeg[] {
  return maturities.map((maturity) => ({
    symbol,
    side,
    ratio,
    maturity,
    contractMonth: maturityLabel(maturity)!,
    securityType: SecurityType.Future,
  }));
}

const fail = (error: string): GenerateResult => ({ ok: false, error });

/**
 * Legs of a standard strategy. Leg sides are the real trading directions: the first (front) part of a
 * spread trades on the order's side and the second part the other way; every month of a strip trades on
 * the order's side. The strategy price is therefore always "first part minus second part".
 */
export function generateMultileg(form: MultilegForm): GenerateResult {
  const symbol = (form.stripSymbol ?? '').trim();
  if (!symbol) return fail('Please select a symbol');
  if (form.side !== Side.Buy && form.side !== Side.Sell)
    return fail(`Invalid side '${String(form.side)}': side must be '1' (Buy) or '2' (Sell)`);
  const side = form.side;
  const other = oppositeSide(side);
  switch (form.type) {
    case 'basicSpread': {
      const m1 = parseMaturity(form.month1);
      const m2 = parseMaturity(form.month2);
      if (!m1 || !m2) return fail('Please select both contract months');
      if (compareYearMonth(m1, m2) === 0) return fail('The two contract months of a spread must differ');
      return {
        ok: true,
        strategy: {
          symbol: `${symbol}-${toMonthLabel(m1)}/${toMonthLabel(m2)}`,
          legs: [...legsFor(symbol, [toMaturity(m1)], side), ...legsFor(symbol, [toMaturity(m2)], other)],
        },
      };
    }
    case 'quarterSpread': {
      const q1 = parseQuarter(form.quarterYear);
      const q2 = parseQuarter(form.quarterYear2);
      if (!q1 || !q2) return fail('Please select both quarters');
      if (q1.year === q2.year && q1.quarter === q2.quarter) return fail('The two quarters of a spread must differ');
      return {
        ok: true,
        strategy: {
          symbol: `${symbol}-${quarterLabel(q1)}/${quarterLabel(q2)}`,
          legs: [...legsFor(symbol, quarterMonths(q1), side), ...legsFor(symbol, quarterMonths(q2), other)],
        },
      };
    }
    case 'calSpread': {
      const y1 = parseCalYear(form.calYear);
      const y2 = parseCalYear(form.calYear2);
      if (y1 === null || y2 === null) return fail('Please select both calendar years');
      if (y1 === y2) return fail('The two calendar years of a spread must differ');
      return {
        ok: true,
        strategy: {
          symbol: `${symbol}-${calLabel(y1)}/${calLabel(y2)}`,
          legs: [...legsFor(symbol, calendarMonths(y1), side), ...legsFor(symbol, calendarMonths(y2), other)],
        },
      };
    }
    case 'quarter': {
      const q = parseQuarter(form.quarterYear);
      if (!q) return fail('Please select a quarter');
      return { ok: true, strategy: { symbol: quarterStripLabel(symbol, q), legs: legsFor(symbol, quarterMonths(q), side) } };
    }
    case 'calstrip': {
      const y = parseCalYear(form.calYear);
      if (y === null) return fail('Please select a calendar year');
      return { ok: true, strategy: { symbol: calStripLabel(symbol, y), legs: legsFor(symbol, calendarMonths(y), side) } };
    }
    default:
      return fail(`Unknown multileg type '${String(form.type)}'`);
  }
}

export type StrategyLegType = 'single' | 'quarter' | 'cal';

/** One line of the custom builder (spec 000 §3 "Strategy leg"). */
export interface StrategyLegInput {
  type: StrategyLegType | string;
  symbol: string;
  contractMonth?: string | null;
  quarterYear?: string | null;
  calYear?: string | number | null;
}

function expandStrategyLeg(leg: StrategyLegInput, where: string): { label: string; maturities: string[]; symbol: string } | string {
  const symbol = (leg.symbol ?? '').trim();
  if (!symbol) return `${where}: select a symbol`;
  switch (leg.type) {
    case 'single': {
      const ym = parseMaturity(leg.contractMonth);
      if (!ym) return `${where}: select a contract month`;
      return { symbol, label: singleMonthLabel(symbol, ym), maturities: [toMaturity(ym)] };
    }
    case 'quarter': {
      const q = parseQuarter(leg.quarterYear);
      if (!q) return `${where}: select a quarter`;
      return { symbol, label: quarterStripLabel(symbol, q), maturities: quarterMonths(q) };
    }
    case 'cal': {
      const y = parseCalYear(leg.calYear);
      if (y === null) return `${where}: select a calendar year`;
      return { symbol, label: calStripLabel(symbol, y), maturities: calendarMonths(y) };
    }
    default:
      return `${where}: unknown leg type '${String(leg.type)}'`;
  }
}

export function greatestCommonDivisor(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y) [x, y] = [y, x % y];
  return x;
}

/**
 * Ratios that balance a custom strategy: count contract months per side (single 1, quarter 3, cal 12) and
 * divide both counts by their greatest common divisor. Each side's legs take the other side's reduced
 * count, so both sides cover the same number of contracts: one month against a quarter trades 3 lots of
 * the month against 1 lot of each quarter month.
 */
export function customLegRatios(buyMonthCount: number, sellMonthCount: number): { buyRatio: number; sellRatio: number } {
  if (buyMonthCount <= 0 || sellMonthCount <= 0) return { buyRatio: 1, sellRatio: 1 };
  const g = greatestCommonDivisor(buyMonthCount, sellMonthCount);
  return { buyRatio: sellMonthCount / g, sellRatio: buyMonthCount / g };
}

export interface CustomMultilegForm {
  side: SideCode | string;
  buyLegs: readonly StrategyLegInput[];
  sellLegs: readonly StrategyLegInput[];
}

/**
 * Legs of a custom strategy. The buy legs trade on the order's side and the sell legs the other way, so
 * selling the strategy sells the buy legs; the label keeps the strategy's own order (buy legs first).
 */
export function generateCustomMultileg(form: CustomMultilegForm): GenerateResult {
  if (form.side !== Side.Buy && form.side !== Side.Sell)
    return fail(`Invalid side '${String(form.side)}': side must be '1' (Buy) or '2' (Sell)`);
  if (form.buyLegs.length === 0 || form.sellLegs.length === 0) return fail('Add at least one buy leg and one sell leg');
  const buys = form.buyLegs.map((leg, i) => expandStrategyLeg(leg, `Buy leg ${i + 1}`));
  const sells = form.sellLegs.map((leg, i) => expandStrategyLeg(leg, `Sell leg ${i + 1}`));
  const problem = [...buys, ...sells].find((x): x is string => typeof x === 'string');
  if (problem) return fail(problem);
  const buyParts = buys as Exclude<(typeof buys)[number], string>[];
  const sellParts = sells as Exclude<(typeof sells)[number], string>[];
  const count = (parts: typeof buyParts) => parts.reduce((n, p) => n + p.maturities.length, 0);
  const { buyRatio, sellRatio } = customLegRatios(count(buyParts), count(sellParts));
  const side = form.side;
  const legs = [
    ...buyParts.flatMap((p) => legsFor(p.symbol, p.maturities, side, buyRatio)),
    ...sellParts.flatMap((p) => legsFor(p.symbol, p.maturities, oppositeSide(side), sellRatio)),
  ];
  const seen = new Set<string>();
  for (const leg of legs) {
    const k = `${leg.symbol}:${leg.maturity}`;
    if (seen.has(k)) return fail(`${leg.symbol} ${leg.contractMonth} appears in more than one leg`);
    seen.add(k);
  }
  return {
    ok: true,
    strategy: {
      symbol: customStrategyLabel(
        buyParts.map((p) => p.label),
        sellParts.map((p) => p.label),
      ),
      legs,
    },
  };
}

// ───────────────────────────── reading composite symbols back ─────────────────────────────

export type ParsedStrategySymbol =
  | { kind: 'single'; symbol: string; maturities: [string] }
  | { kind: 'quarter'; symbol: string; maturities: string[] }
  | { kind: 'cal'; symbol: string; maturities: string[] }
  | { kind: 'monthSpread'; symbol: string; maturities: [string, string] }
  | { kind: 'quarterSpread'; symbol: string; first: string[]; second: string[] }
  | { kind: 'calSpread'; symbol: string; first: string[]; second: string[] };

/** The multileg modal's message when an order symbol cannot be read (spec 000 §8). */
export function symbolParseErrorMessage(symbol: string): string {
  return `ERROR: Could not parse order symbol: ${symbol}`;
}

/**
 * Reads the generated formats back: SYMBOL-MMM-YY, SYMBOL-Qn-YY, SYMBOL-CAL-YY and the composites
 * SYMBOL-MMM-YY/MMM-YY, SYMBOL-Q#-YY/Q#-YY, SYMBOL-CAL-YY/CAL-YY. Custom ('>') labels are not composite
 * formats and return null, as does anything else.
 */
export function parseStrategySymbol(text: string | null | undefined): ParsedStrategySymbol | null {
  const value = (text ?? '').trim();
  if (!value || value.includes('>')) return null;
  const [head, tail, ...rest] = value.split('/');
  if (rest.length > 0 || head === undefined) return null;
  const m = /^(.+)-(CAL-\d{2}|Q[1-4]-\d{2}|[A-Za-z]{3}-\d{2})$/i.exec(head);
  if (!m) return null;
  const symbol = m[1]!;
  const period = m[2]!.toUpperCase();
  if (tail === undefined) {
    if (period.startsWith('CAL-')) return { kind: 'cal', symbol, maturities: calendarMonths(parseCalYear(period)!) };
    if (period.startsWith('Q')) return { kind: 'quarter', symbol, maturities: quarterMonths(parseQuarter(period)!) };
    const ym = parseMaturity(period);
    return ym ? { kind: 'single', symbol, maturities: [toMaturity(ym)] } : null;
  }
  const second = tail.trim().toUpperCase();
  if (period.startsWith('CAL-')) {
    const y2 = /^CAL-\d{2}$/.test(second) ? parseCalYear(second) : null;
    return y2 === null ? null : { kind: 'calSpread', symbol, first: calendarMonths(parseCalYear(period)!), second: calendarMonths(y2) };
  }
  if (period.startsWith('Q')) {
    const q2 = /^Q[1-4]-\d{2}$/.test(second) ? parseQuarter(second) : null;
    return q2 === null ? null : { kind: 'quarterSpread', symbol, first: quarterMonths(parseQuarter(period)!), second: quarterMonths(q2) };
  }
  const m1 = parseMaturity(period);
  const m2 = /^[A-Z]{3}-\d{2}$/.test(second) ? parseMaturity(second) : null;
  return m1 && m2 ? { kind: 'monthSpread', symbol, maturities: [toMaturity(m1), toMaturity(m2)] } : null;
}
