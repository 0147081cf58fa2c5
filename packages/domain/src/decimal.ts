/**
 * Exact decimal arithmetic for prices and quantities.
 *
 * A Decimal is `units × 10^-scale` with `units` a bigint, so adding fills, multiplying quantity by price and
 * averaging never goes through binary floating point. Division is the only lossy operation and it always
 * names the scale and the rounding it uses.
 */

export type RoundingMode =
  /** Ties to the even neighbour (banker's rounding): stored values such as the average price. */
  | 'HALF_EVEN'
  /** Ties away from zero: what people expect on screen (27,000.125 → 27,000.13). */
  | 'HALF_UP'
  /** Toward zero. */
  | 'DOWN'
  /** Toward negative infinity. */
  | 'FLOOR'
  /** Toward positive infinity. */
  | 'CEILING';

/** Anything a Decimal can be made from. Numbers are read through their shortest round-trip literal (String(n)). */
export type DecimalInput = Decimal | string | number | bigint;

/** Bounds that keep a hostile input ("1e999999999") from costing memory or time. */
const MAX_DECIMAL_SCALE = 64;
const MAX_DECIMAL_INTEGER_DIGITS = 64;
const MAX_LITERAL_LENGTH = 200;

/** Scale of stored average prices (AvgPx): enough for any tick used on the desk, fixed so results are reproducible. */
export const AVG_PX_SCALE = 8;

export class DecimalError extends Error {
  override readonly name = 'DecimalError';
}

const LITERAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;

/** 10^0 … 10^(2 × MAX_DECIMAL_SCALE + 1): every power the scales in bounds can ask for, made once. */
const POW10: readonly bigint[] = Array.from({ length: 2 * MAX_DECIMAL_SCALE + 2 }, (_, i) => 10n ** BigInt(i));

function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

/**
 * Literals read before, with what they read as. The same few prices, quantities, ratios and limits
 * come back on every order (a client's limits are read for each of its orders), and a Decimal never
 * changes, so one parse serves them all. Bounded: cleared when full, so hostile input costs nothing
 * lasting; only short literals are kept.
 */
const PARSED = new Map<string, Decimal>();
const PARSED_MAX = 4096;
const PARSED_MAX_LENGTH = 40;

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

/** n / d rounded to an integer with the given mode; exact for every bigint pair with d ≠ 0. */
function divideRounded(n: bigint, d: bigint, mode: RoundingMode): bigint {
  if (d === 0n) throw new DecimalError('Division by zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const away = q + (n < 0n ? -1n : 1n);
  switch (mode) {
    case 'DOWN':
      return q;
    case 'FLOOR':
      return n < 0n ? away : q;
    case 'CEILING':
      return n > 0n ? away : q;
    case 'HALF_UP':
      return 2n * abs(r) >= d ? away : q;
    case 'HALF_EVEN': {
      const twice = 2n * abs(r);
      if (twice > d) return away;
      if (twice < d) return q;
      return q % 2n === 0n ? q : away;
    }
  }
}

export class Decimal {
  /** The value is units × 10^-scale. Kept as given (1.50 has scale 2); equality and ordering ignore scale. */
  readonly units: bigint;
  readonly scale: number;

  private constructor(units: bigint, scale: number) {
    this.units = units;
    this.scale = scale;
  }

  static readonly ZERO = new Decimal(0n, 0);
  static readonly ONE = new Decimal(1n, 0);
  static readonly HUNDRED = new Decimal(100n, 0);

  /** units × 10^-scale, e.g. fromUnits(2700050n, 2) is 27000.50. */
  static fromUnits(units: bigint, scale = 0): Decimal {
    if (!Number.isInteger(scale) || scale < 0 || scale > MAX_DECIMAL_SCALE) {
      throw new DecimalError(`Decimal scale must be an integer from 0 to ${MAX_DECIMAL_SCALE}, got ${scale}`);
    }
    return new Decimal(units, scale);
  }

  /**
   * Reads a decimal literal: optional sign, digits, optional fraction, optional exponent ("27000", "-12.5",
   * ".5", "1.5e3"). Surrounding blanks are ignored; thousands separators are not accepted.
   */
  static parse(text: string): Decimal {
    if (typeof text !== 'string') throw new DecimalError(`Not a decimal number: ${String(text)}`);
    const known = PARSED.get(text);
    if (known) return known;
    const read = Decimal.read(text);
    if (text.length <= PARSED_MAX_LENGTH) {
      if (PARSED.size >= PARSED_MAX) PARSED.clear();
      PARSED.set(text, read);
    }
    return read;
  }

  private static read(text: string): Decimal {
    const literal = text.trim();
    if (literal.length === 0) throw new DecimalError('Not a decimal number: empty text');
    if (literal.length > MAX_LITERAL_LENGTH) throw new DecimalError('Not a decimal number: text too long');
    const m = LITERAL.exec(literal);
    const intDigits = m?.[2] ?? '';
    const fracDigits = m?.[3] ?? '';
    if (!m || (intDigits.length === 0 && fracDigits.length === 0)) {
      throw new DecimalError(`Not a decimal number: '${literal}'`);
    }
    const negative = m[1] === '-';
    const exponent = m[4] === undefined ? 0 : Number(m[4]);
    const digits = (intDigits + fracDigits).replace(/^0+(?=\d)/, '');
    let scale = fracDigits.length - exponent;
    let units = BigInt(digits === '' ? '0' : digits);
    if (scale < 0) {
      if (units !== 0n && digits.length - scale > MAX_DECIMAL_INTEGER_DIGITS) {
        throw new DecimalError(`Decimal number out of range: '${literal}'`);
      }
      units *= pow10(Math.min(-scale, MAX_DECIMAL_INTEGER_DIGITS + 1));
      scale = 0;
    }
    if (scale > MAX_DECIMAL_SCALE) {
      // Trailing zeros beyond the limit are harmless ("1.000…0"); real digits beyond it are refused.
      const excess = scale - MAX_DECIMAL_SCALE;
      if (units % pow10(excess) !== 0n)
        throw new DecimalError(`Decimal number has more than ${MAX_DECIMAL_SCALE} decimal places: '${literal}'`);
      units /= pow10(excess);
      scale = MAX_DECIMAL_SCALE;
    }
    if (abs(units).toString().length - scale > MAX_DECIMAL_INTEGER_DIGITS) {
      throw new DecimalError(`Decimal number out of range: '${literal}'`);
    }
    return new Decimal(negative ? -units : units, scale);
  }

  /** Like parse, but null instead of an error. */
  static tryParse(text: string): Decimal | null {
    try {
      return Decimal.parse(text);
    } catch {
      return null;
    }
  }

  /** A JSON number becomes the literal it was written as (String(27000.5) is "27000.5"); NaN and ±Infinity are refused. */
  static fromNumber(value: number): Decimal {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new DecimalError(`Not a finite number: ${String(value)}`);
    return Decimal.parse(String(value));
  }

  static from(value: DecimalInput): Decimal {
    if (value instanceof Decimal) return value;
    if (typeof value === 'bigint') return new Decimal(value, 0);
    if (typeof value === 'number') return Decimal.fromNumber(value);
    if (typeof value === 'string') return Decimal.parse(value);
    throw new DecimalError(`Not a decimal number: ${String(value)}`);
  }

  /** Like from, but null for anything that is not a number (null, undefined, '', 'abc', NaN). */
  static tryFrom(value: unknown): Decimal | null {
    if (value instanceof Decimal) return value;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return null;
    try {
      return Decimal.from(value);
    } catch {
      return null;
    }
  }

  static sum(values: Iterable<DecimalInput>): Decimal {
    let total: Decimal = Decimal.ZERO;
    for (const v of values) total = total.add(v);
    return total;
  }

  static min(first: DecimalInput, ...rest: DecimalInput[]): Decimal {
    return rest.reduce<Decimal>((m, v) => (m.lte(v) ? m : Decimal.from(v)), Decimal.from(first));
  }

  static max(first: DecimalInput, ...rest: DecimalInput[]): Decimal {
    return rest.reduce<Decimal>((m, v) => (m.gte(v) ? m : Decimal.from(v)), Decimal.from(first));
  }

  private unitsAt(scale: number): bigint {
    return this.units * pow10(scale - this.scale);
  }

  add(other: DecimalInput): Decimal {
    const o = Decimal.from(other);
    const s = Math.max(this.scale, o.scale);
    return new Decimal(this.unitsAt(s) + o.unitsAt(s), s);
  }

  sub(other: DecimalInput): Decimal {
    const o = Decimal.from(other);
    const s = Math.max(this.scale, o.scale);
    return new Decimal(this.unitsAt(s) - o.unitsAt(s), s);
  }

  /** Exact product; its scale is the sum of both scales, reduced if it would pass MAX_DECIMAL_SCALE. */
  mul(other: DecimalInput): Decimal {
    const o = Decimal.from(other);
    const product = new Decimal(this.units * o.units, this.scale + o.scale);
    return product.scale > MAX_DECIMAL_SCALE ? product.stripTrailingZeros().roundIfOver() : product;
  }

  private roundIfOver(): Decimal {
    return this.scale > MAX_DECIMAL_SCALE ? this.round(MAX_DECIMAL_SCALE) : this;
  }

  /** this / other rounded to `scale` decimal places (ties to even unless told otherwise). */
  div(other: DecimalInput, scale: number, mode: RoundingMode = 'HALF_EVEN'): Decimal {
    const o = Decimal.from(other);
    if (o.units === 0n) throw new DecimalError('Division by zero');
    Decimal.fromUnits(0n, scale); // validates the scale
    // this.units·10^-a / (o.units·10^-b) = (this.units / o.units)·10^(b-a); we want units at 10^-scale.
    const k = scale + o.scale - this.scale;
    const n = k >= 0 ? this.units * pow10(k) : this.units;
    const d = k >= 0 ? o.units : o.units * pow10(-k);
    return new Decimal(divideRounded(n, d, mode), scale);
  }

  neg(): Decimal {
    return new Decimal(-this.units, this.scale);
  }

  abs(): Decimal {
    return this.units < 0n ? this.neg() : this;
  }

  /** Rounded (or zero-padded) to exactly `scale` decimal places. */
  round(scale: number, mode: RoundingMode = 'HALF_EVEN'): Decimal {
    Decimal.fromUnits(0n, scale);
    if (scale >= this.scale) return new Decimal(this.unitsAt(scale), scale);
    return new Decimal(divideRounded(this.units, pow10(this.scale - scale), mode), scale);
  }

  /** The largest whole number not above this value. */
  floor(): Decimal {
    return this.round(0, 'FLOOR');
  }

  /** Same value with the fewest decimal places. */
  stripTrailingZeros(): Decimal {
    let { units, scale } = this;
    while (scale > 0 && units % 10n === 0n) {
      units /= 10n;
      scale -= 1;
    }
    return scale === this.scale ? this : new Decimal(units, scale);
  }

  compare(other: DecimalInput): -1 | 0 | 1 {
    const o = Decimal.from(other);
    const s = Math.max(this.scale, o.scale);
    const a = this.unitsAt(s);
    const b = o.unitsAt(s);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  eq(other: DecimalInput): boolean {
    return this.compare(other) === 0;
  }
  lt(other: DecimalInput): boolean {
    return this.compare(other) < 0;
  }
  lte(other: DecimalInput): boolean {
    return this.compare(other) <= 0;
  }
  gt(other: DecimalInput): boolean {
    return this.compare(other) > 0;
  }
  gte(other: DecimalInput): boolean {
    return this.compare(other) >= 0;
  }

  isZero(): boolean {
    return this.units === 0n;
  }
  isNegative(): boolean {
    return this.units < 0n;
  }
  isPositive(): boolean {
    return this.units > 0n;
  }
  isInteger(): boolean {
    return this.units % pow10(this.scale) === 0n;
  }

  /** True when this is a whole multiple of a positive step (a price on the tick grid, a quantity in lots). */
  isMultipleOf(step: DecimalInput): boolean {
    const s = Decimal.from(step);
    if (!s.isPositive()) throw new DecimalError(`Step must be greater than 0, got ${s.toString()}`);
    const scale = Math.max(this.scale, s.scale);
    return this.unitsAt(scale) % s.unitsAt(scale) === 0n;
  }

  /** Canonical text: no exponent, no trailing zeros, no '+', '-' only for negative values ("27000.5", "-3", "0"). */
  toString(): string {
    const d = this.stripTrailingZeros();
    return formatUnits(d.units, d.scale);
  }

  /** Exactly `places` decimal places after rounding (ties to even unless told otherwise). */
  toFixed(places: number, mode: RoundingMode = 'HALF_EVEN'): string {
    const r = this.round(places, mode);
    return formatUnits(r.units, r.scale);
  }

  /** Decimals travel as strings in JSON so that no reader turns them into binary floats by accident. */
  toJSON(): string {
    return this.toString();
  }

  /** For charts and display widths only; never feed the result back into arithmetic. */
  toNumber(): number {
    return Number(this.toString());
  }

  /** The whole-number value; refuses a fractional one rather than truncate silently. */
  toBigInt(): bigint {
    if (!this.isInteger()) throw new DecimalError(`Not a whole number: ${this.toString()}`);
    return this.units / pow10(this.scale);
  }
}

function formatUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = abs(units)
    .toString()
    .padStart(scale + 1, '0');
  const intPart = digits.slice(0, digits.length - scale);
  const fracPart = digits.slice(digits.length - scale);
  return (negative ? '-' : '') + intPart + (scale > 0 ? '.' + fracPart : '');
}

/**
 * |value - reference| / |reference| × 100, rounded to `scale` places; null when the reference is zero
 * (a spread quoted at 0 has no meaningful percentage distance).
 */
export function percentDifference(value: DecimalInput, reference: DecimalInput, scale = 2): Decimal | null {
  const ref = Decimal.from(reference);
  if (ref.isZero()) return null;
  return Decimal.from(value).sub(ref).abs().mul(Decimal.HUNDRED).div(ref.abs(), scale, 'HALF_UP');
}

export interface PricedQuantity {
  qty: DecimalInput;
  px: DecimalInput;
}

/** Σ qty·px over fills, exact. Prices may be negative or zero (spreads); quantities may not be negative. */
export function fillNotional(fills: Iterable<PricedQuantity>): Decimal {
  let total: Decimal = Decimal.ZERO;
  for (const f of fills) {
    const qty = Decimal.from(f.qty);
    if (qty.isNegative()) throw new DecimalError(`Fill quantity cannot be negative: ${qty.toString()}`);
    total = total.add(qty.mul(f.px));
  }
  return total;
}

/**
 * Average price of stored fills: Σ(qty·px) / Σqty computed exactly, then rounded half-even to `scale`
 * (AVG_PX_SCALE by default). With no executed quantity the answer is 0, which is what FIX AvgPx carries then.
 */
export function averagePrice(fills: Iterable<PricedQuantity>, scale = AVG_PX_SCALE): Decimal {
  const list = [...fills];
  const notional = fillNotional(list);
  const qty = Decimal.sum(list.map((f) => f.qty));
  if (qty.isZero()) return Decimal.ZERO.round(scale);
  return notional.div(qty, scale, 'HALF_EVEN');
}

/** Quantities on our futures are whole lots: parse and insist on a whole number ≥ 0. */
export function parseWholeQuantity(input: DecimalInput): Decimal {
  const q = Decimal.from(input);
  if (!q.isInteger()) throw new DecimalError(`Quantity must be a whole number, got ${q.toString()}`);
  if (q.isNegative()) throw new DecimalError(`Quantity cannot be negative, got ${q.toString()}`);
  return q.round(0);
}

/** FIX building floors quantities to whole lots (spec: "Quantities are floored to integers"). */
export function floorQuantity(input: DecimalInput): Decimal {
  return Decimal.from(input).floor();
}
