import { Decimal, formatOrderPrice, formatQuantity, splitSymbolDisplay } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';

type OrderFacts = Pick<
  Order,
  'side' | 'orderqty' | 'cumqty' | 'leavesqty' | 'price' | 'symbol' | 'brokerorderid' | 'client_name' | 'sendercompid'
>;

/** An irreversible action and what it does, as the confirmation says it before the broker commits. */
export interface Consequence {
  title: string;
  summary: string;
  confirmLabel: string;
}

const lots = (qty: string) => `${formatQuantity(qty)} ${Decimal.from(qty).eq(1) ? 'lot' : 'lots'}`;

function headline(o: OrderFacts): string {
  return `${o.brokerorderid}: ${o.side === '2' ? 'sell' : 'buy'} ${formatQuantity(o.orderqty)} ${splitSymbolDisplay(o.symbol).name} for ${o.client_name ?? o.sendercompid}`;
}

/** Done for Day: what stops being worked. */
export function doneForDayConsequence(o: OrderFacts): Consequence {
  const leaves = Decimal.tryFrom(o.leavesqty) ?? Decimal.ZERO;
  const summary = leaves.isPositive()
    ? `Ends the order: ${lots(o.leavesqty)} unfilled will not be worked${Decimal.from(o.cumqty).isPositive() ? ` (${formatQuantity(o.cumqty)} of ${formatQuantity(o.orderqty)} filled)` : ''}. The client gets Done for Day (150=3). This cannot be undone.`
    : `Closes the order for the day: all ${lots(o.cumqty)} are filled. The client gets Done for Day (150=3).`;
  return { title: 'Done for Day?', summary: `${headline(o)}. ${summary}`, confirmLabel: 'Done for Day' };
}

/** Reject: the order ends before it was worked; the reason goes to the client. */
export function rejectConsequence(o: OrderFacts, reason: string): Consequence {
  return {
    title: 'Reject this order?',
    summary: `${headline(o)}. Ends the order: nothing of it will be worked. The client gets Rejected (150=8) with the reason “${reason.trim()}”. This cannot be undone.`,
    confirmLabel: 'Reject order',
  };
}

/** Refusing a client's cancel or cancel/replace request: the order stays as it is. */
export function refuseRequestConsequence(o: OrderFacts, kind: 'cancel' | 'replace', reason: string): Consequence {
  const stays =
    kind === 'cancel'
      ? `The order stays working with ${lots(o.leavesqty)} open`
      : `The order stays at ${formatQuantity(o.orderqty)} @ ${formatOrderPrice(o.price)}`;
  return {
    title: kind === 'cancel' ? 'Refuse the cancel request?' : 'Refuse the replace request?',
    summary: `${headline(o)}. ${stays}; the client gets an OrderCancelReject (35=9) with the reason “${reason.trim()}”.`,
    confirmLabel: 'Refuse request',
  };
}

/** A broker cancel (unsolicited): the unfilled quantity stops being worked. */
export function brokerCancelConsequence(o: OrderFacts, reason: string): Consequence {
  return {
    title: 'Cancel this order?',
    summary: `${headline(o)}. Ends the order: ${lots(o.leavesqty)} unfilled will not be worked${Decimal.from(o.cumqty).isPositive() ? ` (the ${formatQuantity(o.cumqty)} filled stand)` : ''}. The client gets Canceled (150=4) with the reason “${reason.trim()}”. This cannot be undone.`,
    confirmLabel: 'Cancel order',
  };
}
