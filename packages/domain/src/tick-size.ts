/**
 * The price grid of a security (its price_tick_size): order prices are checked at intake
 * (order-intake.ts) and the broker's manual fill prices before a fill is booked, here. One rule and one
 * text, shared by the blotter's fill forms and the server.
 */
import { Decimal, type DecimalInput } from './decimal';
import type { Check } from './fill-validation';

export const TickText = {
  fillPriceOffTick: (px: string, tick: string, symbol: string) =>
    `Fill price ${px} is not a multiple of the tick size ${tick} for ${symbol}`,
  onTick: (tick: string) => `Price is on the ${tick} tick`,
} as const;

/** True when the price is a whole number of ticks (no tick or an unreadable one judges nothing). */
export function isOnTick(price: DecimalInput, tick: DecimalInput | null | undefined): boolean {
  const px = Decimal.tryFrom(price);
  const t = tick === undefined || tick === null ? null : Decimal.tryFrom(tick);
  if (!px || !t || !t.isPositive()) return true;
  return px.isMultipleOf(t);
}

/**
 * A manual fill price against the security's tick size: an error naming price, tick and symbol when it
 * is off the grid; null when it is on it or there is nothing to judge (no price yet, no tick known).
 */
export function checkFillPriceTick(
  input: unknown,
  security: { symbol: string; priceTickSize?: DecimalInput | null } | null | undefined,
): Check | null {
  const px = Decimal.tryFrom(typeof input === 'string' ? input.trim() : (input as DecimalInput));
  if (!px || !security || security.priceTickSize === undefined || security.priceTickSize === null) return null;
  const tick = Decimal.tryFrom(security.priceTickSize);
  if (!tick || !tick.isPositive() || px.isMultipleOf(tick)) return null;
  return { level: 'error', message: TickText.fillPriceOffTick(px.toString(), tick.stripTrailingZeros().toString(), security.symbol) };
}
