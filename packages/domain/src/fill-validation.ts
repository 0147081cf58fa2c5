/**
 * Fill validation: the texts of spec 000 §5, each produced in exactly one place. The blotter shows them
 * as the broker types; the server runs the same functions before it books a fill.
 */
import { Decimal, type DecimalInput, percentDifference } from './decimal';
import { OrdType, Side, type OrdTypeCode, type SideCode } from './codes';
import { formatDate, toDate } from './format';

/** ok: fine; info: nothing to judge against; warning: allowed but worth a second look; error: blocks submission. */
export type CheckLevel = 'ok' | 'info' | 'warning' | 'error';

/** The outcome of one check: what the form shows under the field and whether it blocks submission. */
export interface Check {
  level: CheckLevel;
  message: string;
}

const ok = (message: string): Check => ({ level: 'ok', message });
const warning = (message: string): Check => ({ level: 'warning', message });
const error = (message: string): Check => ({ level: 'error', message });
const info = (message: string): Check => ({ level: 'info', message });

/** Percentage distance from the limit above which a fill price earns a warning (spec 000 §9). */
export const FILL_PRICE_WARNING_PERCENT = 5;

export const FillText = {
  quantityNotPositive: 'Fill quantity must be greater than 0',
  quantityValid: 'Quantity is valid',
  quantityExceedsRemaining: (fillQty: string, remaining: string) => `Fill quantity ${fillQty} exceeds remaining quantity ${remaining}`,
  quantityNotWhole: (fillQty: string) => `Fill quantity ${fillQty} must be a whole number of lots`,
  alreadyFullyFilled: 'Order is already fully filled',
  totalFillsExceed: (total: string, orderQty: string) => `Total fills (${total}) would exceed order quantity (${orderQty})`,
  priceRequired: 'Fill price must be a number',
  priceNotPositive: 'Fill price must be greater than 0',
  buyAboveLimit: (px: string, limit: string) => `Buy order fill price ${px} exceeds limit price ${limit} (must be ≤)`,
  sellBelowLimit: (px: string, limit: string) => `Sell order fill price ${px} is below limit price ${limit} (must be ≥)`,
  awayFromLimit: (px: string, percent: string, limit: string) =>
    `Fill price ${px} is ${percent}% away from limit price ${limit} - please check fill price is valid`,
  priceWithinLimit: 'Price is within limit',
  priceValid: 'Price is valid',
  legPriceAwayFromReference: (px: string, percent: string, reference: string) =>
    `Price ${px} differs from reference price ${reference} by ${percent}% - please verify`,
  legDoesNotExist: (legIndex: number, legCount: number) => `Leg ${legIndex} does not exist: the order has ${legCount} leg(s)`,
  sanityAway: (px: string, percent: string, reference: string, date: string) =>
    `Price ${px} differs ${percent}% from latest trade price ${reference}${date ? ` (${date})` : ''}`,
  sanityWithin: (threshold: string) => `Price within ${threshold}% of recent trades`,
  sanityNoReference: 'No reference price available',
  rejectReasonRequired: 'Rejection reason is required',
} as const;

/** A multileg order is filled either at the spread price or leg by leg, never both. */
export const MultilegFillText = {
  legsFilling: 'This order is being filled leg by leg: add the fill on one of its legs.',
  spreadFilling: 'This order is being filled at the spread price: add the fill as a spread fill.',
} as const;

/**
 * How a multileg order has been filled so far, from its legs: a spread fill executes every leg by its
 * ratio and leaves the legs' prices unknown (average 0); a leg fill gives that leg a price. Null while
 * nothing is filled.
 */
export function multilegFillMode(
  orderCumQty: DecimalInput,
  legs: readonly { legRatioQty: DecimalInput; legCumQty: DecimalInput; legAvgPx: DecimalInput }[],
): 'spread' | 'legs' | null {
  const cum = Decimal.tryFrom(orderCumQty) ?? Decimal.ZERO;
  const priced = legs.some((l) => (Decimal.tryFrom(l.legAvgPx) ?? Decimal.ZERO).isPositive());
  const unbalanced = legs.some((l) => !(Decimal.tryFrom(l.legCumQty) ?? Decimal.ZERO).eq(Decimal.from(l.legRatioQty).mul(cum)));
  if (priced || unbalanced) return 'legs';
  return cum.isPositive() ? 'spread' : null;
}

/** Remaining quantity of an order: leavesqty, falling back to orderqty when leaves is absent (spec 000 §5). */
export function remainingQuantity(order: { leavesQty?: DecimalInput | null; orderQty: DecimalInput }): Decimal {
  const leaves = order.leavesQty === undefined || order.leavesQty === null ? null : Decimal.tryFrom(order.leavesQty);
  return leaves ?? Decimal.from(order.orderQty);
}

/**
 * Fill quantity against what is left: a number, greater than 0, a whole number of lots, at most the
 * remaining quantity.
 */
export function checkFillQuantity(input: unknown, order: { leavesQty?: DecimalInput | null; orderQty: DecimalInput }): Check {
  const qty = Decimal.tryFrom(typeof input === 'string' ? input.trim() : input);
  if (!qty || !qty.isPositive()) return error(FillText.quantityNotPositive);
  if (!qty.isInteger()) return error(FillText.quantityNotWhole(qty.toString()));
  const remaining = remainingQuantity(order);
  if (qty.gt(remaining)) return error(FillText.quantityExceedsRemaining(qty.toString(), remaining.toString()));
  return ok(FillText.quantityValid);
}

export interface PricedOrder {
  side: SideCode;
  ordType: OrdTypeCode;
  /** Limit price; absent for market orders. */
  price?: DecimalInput | null;
  /** Multileg (spread or strip) prices may be zero or negative; outright futures prices may not. */
  isStrategy?: boolean;
}

function limitOf(order: PricedOrder): Decimal | null {
  if (order.ordType !== OrdType.Limit || order.price === undefined || order.price === null) return null;
  return Decimal.tryFrom(order.price);
}

/** The hard limit rule alone: buy at or below the limit, sell at or above it. Null when the price is acceptable. */
export function limitViolation(px: Decimal, order: PricedOrder): string | null {
  const limit = limitOf(order);
  if (!limit) return null;
  if (order.side === Side.Buy && px.gt(limit)) return FillText.buyAboveLimit(px.toString(), limit.toString());
  if (order.side === Side.Sell && px.lt(limit)) return FillText.sellBelowLimit(px.toString(), limit.toString());
  return null;
}

/**
 * Fill price as the broker types it: the limit rule is an error, more than 5 % away from the limit is a
 * warning (the price is legal but probably mistyped), otherwise 'Price is within limit'. Market orders have
 * no limit: spec 000 §5 judges them "from limit or reference price", so with a reference (the contract's
 * latest trade) more than 5 % away from it is a warning, in the leg form's words; otherwise 'Price is valid'.
 */
export function checkFillPrice(input: unknown, order: PricedOrder, reference?: DecimalInput | null): Check {
  const px = Decimal.tryFrom(typeof input === 'string' ? input.trim() : input);
  if (!px) return error(FillText.priceRequired);
  if (!order.isStrategy && !px.isPositive()) return error(FillText.priceNotPositive);
  const violation = limitViolation(px, order);
  if (violation) return error(violation);
  const limit = limitOf(order);
  if (!limit) return awayFromReference(px, reference) ?? ok(FillText.priceValid);
  const away = percentDifference(px, limit, 1);
  if (away && away.gt(FILL_PRICE_WARNING_PERCENT)) {
    return warning(FillText.awayFromLimit(px.toString(), away.toFixed(1), limit.toString()));
  }
  return ok(FillText.priceWithinLimit);
}

/** The 5 % warning against a reference price (a zero reference gives no percentage); null when within. */
function awayFromReference(px: Decimal, reference: DecimalInput | null | undefined): Check | null {
  const ref = reference === undefined || reference === null ? null : Decimal.tryFrom(reference);
  const away = ref ? percentDifference(px, ref, 1) : null;
  if (!ref || !away || !away.gt(FILL_PRICE_WARNING_PERCENT)) return null;
  return warning(FillText.legPriceAwayFromReference(px.toString(), away.toFixed(1), ref.toString()));
}

/** Submit Fill is enabled only with both inputs filled in and no error among the checks (spec 000 §5). */
export function canSubmitFill(qtyInput: unknown, pxInput: unknown, checks: readonly Check[]): boolean {
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  return !blank(qtyInput) && !blank(pxInput) && checks.every((c) => c.level !== 'error');
}

/** A reject needs a reason once trimmed (accept notes are optional): the problem text, or null when fine. */
export function rejectReasonProblem(reason: unknown): string | null {
  return typeof reason === 'string' && reason.trim() !== '' ? null : FillText.rejectReasonRequired;
}

// ───────────────────────────── price sanity against recent trades ─────────────────────────────

/** Percentage distance from the latest trade above which a price earns a warning (spec 000 §9). */
export const PRICE_SANITY_THRESHOLD_PERCENT = 10;

export interface ReferencePrice {
  price: DecimalInput;
  /** When that trade happened; shown as a date in the warning. */
  executed?: Date | string | null;
}

/** A latest-price row as the server lists them (spec 000 §3 "Latest price"). */
export interface LatestPrice extends ReferencePrice {
  symbol: string;
  type?: string | null;
  contract?: string | null;
}

const key = (v: string | null | undefined) => (v ?? '').trim().toUpperCase();

/** The most recent trade for the same symbol, type and contract, or null when there is none. */
export function findReferencePrice(
  latest: readonly LatestPrice[],
  wanted: { symbol: string; type?: string | null; contract?: string | null },
): LatestPrice | null {
  let best: LatestPrice | null = null;
  let bestTime = Number.NEGATIVE_INFINITY;
  for (const row of latest) {
    if (key(row.symbol) !== key(wanted.symbol)) continue;
    if (key(row.type) !== key(wanted.type)) continue;
    if (key(row.contract) !== key(wanted.contract)) continue;
    if (!Decimal.tryFrom(row.price)) continue;
    const t = toDate(row.executed)?.getTime() ?? Number.NEGATIVE_INFINITY;
    if (best === null || t > bestTime) {
      best = row;
      bestTime = t;
    }
  }
  return best;
}

/**
 * The price-sanity check: a price more than `thresholdPercent` away from the latest trade is a warning.
 * A zero reference (a spread last traded flat) gives no percentage, so nothing is judged.
 */
export function checkPriceSanity(
  input: unknown,
  reference: ReferencePrice | null | undefined,
  thresholdPercent: DecimalInput = PRICE_SANITY_THRESHOLD_PERCENT,
): Check {
  const px = Decimal.tryFrom(typeof input === 'string' ? input.trim() : input);
  const ref = reference ? Decimal.tryFrom(reference.price) : null;
  if (!px || !ref || ref.isZero()) return info(FillText.sanityNoReference);
  const threshold = Decimal.from(thresholdPercent);
  const away = percentDifference(px, ref, 1)!;
  if (away.gt(threshold)) {
    const date = reference?.executed ? formatDate(reference.executed) : '';
    return warning(FillText.sanityAway(px.toString(), away.toFixed(1), ref.toString(), date));
  }
  return ok(FillText.sanityWithin(threshold.toString()));
}

// ───────────────────────────── multileg fills ─────────────────────────────
//
// A multileg order is worked in strategy units (its OrderQty). A fill arrives either
//  • for the whole strategy (no legIndex): quantity in strategy units, the spread/strip price, which may be
//    zero or negative; checked like an outright fill (≤ order leaves; buy ≤ limit, sell ≥ limit), or
//  • for one leg (legIndex): quantity in that leg's contracts at that leg's outright price (> 0). A leg's
//    size is ratio × OrderQty; what it still needs is ratio × OrderQty − the leg's filled quantity, which is
//    ratio × order leaves while the legs move together. The order's CumQty is the number of complete
//    strategy units (min over legs of legCum / ratio, rounded down), executed at the implied strategy price.

export interface LegProgress {
  side: SideCode;
  ratio: DecimalInput;
  /** Quantity of this leg already filled, in the leg's contracts. */
  cumQty: DecimalInput;
}

/** The leg's total quantity: ratio × strategy quantity (spec 000 §2 "Leg quantity equals ratio times order quantity"). */
export function legQuantity(ratio: DecimalInput, orderQty: DecimalInput): Decimal {
  return Decimal.from(ratio).mul(orderQty);
}

export function legLeavesQuantity(leg: Pick<LegProgress, 'ratio' | 'cumQty'>, orderQty: DecimalInput): Decimal {
  const leaves = legQuantity(leg.ratio, orderQty).sub(leg.cumQty);
  return leaves.isNegative() ? Decimal.ZERO : leaves;
}

/** The leg form's quantity check, with its own texts for a full leg and for over-filling it. */
export function checkLegFillQuantity(input: unknown, legs: readonly LegProgress[], legIndex: number, orderQty: DecimalInput): Check {
  const leg = Number.isInteger(legIndex) ? legs[legIndex] : undefined;
  if (!leg) return error(FillText.legDoesNotExist(legIndex, legs.length));
  const qty = Decimal.tryFrom(typeof input === 'string' ? input.trim() : input);
  if (!qty || !qty.isPositive()) return error(FillText.quantityNotPositive);
  if (!qty.isInteger()) return error(FillText.quantityNotWhole(qty.toString()));
  const legQty = legQuantity(leg.ratio, orderQty);
  const done = Decimal.from(leg.cumQty);
  if (done.gte(legQty)) return error(FillText.alreadyFullyFilled);
  const total = done.add(qty);
  if (total.gt(legQty)) return error(FillText.totalFillsExceed(total.toString(), legQty.toString()));
  return ok(FillText.quantityValid);
}

/**
 * A leg price is an outright futures price: it must be positive. Against a reference (the leg contract's
 * latest trade) more than 5 % away is a warning.
 */
export function checkLegFillPrice(input: unknown, reference?: DecimalInput | null): Check {
  const px = Decimal.tryFrom(typeof input === 'string' ? input.trim() : input);
  if (!px) return error(FillText.priceRequired);
  if (!px.isPositive()) return error(FillText.priceNotPositive);
  return awayFromReference(px, reference) ?? ok(FillText.priceValid);
}

/** Complete strategy units given each leg's filled quantity: min over legs of ⌊legCum / ratio⌋. */
export function completedStrategyUnits(legs: readonly Pick<LegProgress, 'ratio' | 'cumQty'>[]): Decimal {
  if (legs.length === 0) return Decimal.ZERO;
  let units: Decimal | null = null;
  for (const leg of legs) {
    const ratio = Decimal.from(leg.ratio);
    if (!ratio.isPositive()) throw new RangeError(`Leg ratio must be greater than 0, got ${ratio.toString()}`);
    const u = Decimal.from(leg.cumQty).div(ratio, 0, 'FLOOR');
    units = units === null || u.lt(units) ? u : units;
  }
  return units!;
}

/**
 * The strategy price implied by leg prices: (Σ ratio·px of legs on the order's side − Σ ratio·px of the
 * others) / Σ ratio of legs on the order's side. A 1:1 spread gives p1 − p2, a strip the average of its
 * months, a quarter spread the difference of the two quarter averages.
 */
export function impliedStrategyPrice(
  orderSide: SideCode,
  legs: readonly { side: SideCode; ratio: DecimalInput; px: DecimalInput }[],
  scale = 8,
): Decimal | null {
  let same = Decimal.ZERO;
  let other = Decimal.ZERO;
  let sameRatio = Decimal.ZERO;
  for (const leg of legs) {
    const weighted = Decimal.from(leg.ratio).mul(leg.px);
    if (leg.side === orderSide) {
      same = same.add(weighted);
      sameRatio = sameRatio.add(leg.ratio);
    } else {
      other = other.add(weighted);
    }
  }
  if (sameRatio.isZero()) return null;
  return same.sub(other).div(sameRatio, scale, 'HALF_EVEN').stripTrailingZeros();
}
