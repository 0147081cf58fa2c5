/**
 * Fill validation: the texts of spec 000 §5, each produced in exactly one place. The blotter shows them
 * as the broker types; the server runs the same functions before it books a fill.
 */
import { Decimal, type DecimalInput, percentDifference } from './decimal';
import { OrdType, Side, type OrdTypeCode, type SideCode } from './codes';

export type CheckLevel = 'ok' | 'warning' | 'error';

/** The outcome of one check: what the form shows under the field and whether it blocks submission. */
export interface Check {
  level: CheckLevel;
  message: string;
}

const ok = (message: string): Check => ({ level: 'ok', message });
const warning = (message: string): Check => ({ level: 'warning', message });
const error = (message: string): Check => ({ level: 'error', message });

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
  cannotFillBuy: (px: string, limit: string) => `Cannot fill buy order at ${px} - exceeds limit price of ${limit}`,
  cannotFillSell: (px: string, limit: string) => `Cannot fill sell order at ${px} - below limit price of ${limit}`,
} as const;

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
 * no limit, so any sensible price is 'Price is valid'.
 */
export function checkFillPrice(input: unknown, order: PricedOrder): Check {
  const px = Decimal.tryFrom(typeof input === 'string' ? input.trim() : input);
  if (!px) return error(FillText.priceRequired);
  if (!order.isStrategy && !px.isPositive()) return error(FillText.priceNotPositive);
  const violation = limitViolation(px, order);
  if (violation) return error(violation);
  const limit = limitOf(order);
  if (!limit) return ok(FillText.priceValid);
  const away = percentDifference(px, limit, 1);
  if (away && away.gt(FILL_PRICE_WARNING_PERCENT)) {
    return warning(FillText.awayFromLimit(px.toString(), away.toFixed(1), limit.toString()));
  }
  return ok(FillText.priceWithinLimit);
}

/** The alert shown when Submit Fill is pressed with a price through the limit; null when it may go. */
export function fillSubmitAlert(input: unknown, order: PricedOrder): string | null {
  const px = Decimal.tryFrom(typeof input === 'string' ? input.trim() : input);
  const limit = limitOf(order);
  if (!px || !limit) return null;
  if (order.side === Side.Buy && px.gt(limit)) return FillText.cannotFillBuy(px.toString(), limit.toString());
  if (order.side === Side.Sell && px.lt(limit)) return FillText.cannotFillSell(px.toString(), limit.toString());
  return null;
}
