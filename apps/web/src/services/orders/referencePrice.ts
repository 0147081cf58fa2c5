import { findReferencePrice, maturityLabel, type LatestPrice } from '@fixdesk/domain';
import type { Order, OrderLeg } from '@fixdesk/protocol';

/**
 * Which latest trade an order's price is judged against: same symbol, type and contract as the
 * server records its trades (an outright by its contract month, a multileg order by its strategy
 * symbol; a leg as an outright of its month).
 */
export function orderReferencePrice(
  latest: readonly LatestPrice[],
  order: Pick<Order, 'symbol' | 'maturity_month_year' | 'msg_type' | 'legs'>,
): LatestPrice | null {
  const multileg = order.msg_type === 'AB' || order.legs.length > 0;
  return findReferencePrice(latest, {
    symbol: order.symbol,
    type: multileg ? 'multileg' : 'outright',
    contract: maturityLabel(order.maturity_month_year) ?? order.maturity_month_year ?? order.symbol,
  });
}

export function legReferencePrice(
  latest: readonly LatestPrice[],
  leg: Pick<OrderLeg, 'legSymbol' | 'legMaturityMonthYear'>,
): LatestPrice | null {
  return findReferencePrice(latest, {
    symbol: leg.legSymbol,
    type: 'outright',
    contract: maturityLabel(leg.legMaturityMonthYear) ?? leg.legMaturityMonthYear ?? '',
  });
}
