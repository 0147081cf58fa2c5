import { normalizeSide, PartyRole, Side } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';

/** BUYS / SELLS for the order's big line. */
export function sideVerb(order: Pick<Order, 'side'>): 'BUYS' | 'SELLS' {
  return normalizeSide(order.side) === Side.Sell ? 'SELLS' : 'BUYS';
}

/** The trader party (role 11) of the order itself, not of a leg. */
export function traderParty(order: Pick<Order, 'parties'>) {
  return order.parties.find((p) => p.legIndex === null && String(p.partyRole) === PartyRole.OrderOriginationTrader) ?? null;
}

export const PARTY_ROLE_NAMES: Record<string, string> = {
  '1': 'Executing Firm',
  '3': 'Client ID',
  '7': 'Entering Firm',
  '11': 'Order Origination Trader',
  '12': 'Executing Trader',
  '13': 'Order Origination Firm',
  '17': 'Contra Firm',
  '24': 'Customer Account',
  '36': 'Entering Trader',
};

export const PARTY_ID_SOURCE_NAMES: Record<string, string> = {
  B: 'BIC',
  C: 'Generally accepted market participant identifier',
  D: 'Proprietary / custom code',
  E: 'ISO country code',
  G: 'MIC',
  N: 'LEI',
};
