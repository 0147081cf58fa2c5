import { Decimal, formatFixTimestamp, MsgType, OrdType, SecurityType, TERMINAL_ORD_STATUSES } from '@fixdesk/domain';
import type { ClientOrder } from '@fixdesk/protocol';
import { MessageCheckError } from './message-check';

/**
 * OrderCancelRequest (35=F) and OrderCancelReplaceRequest (35=G) for an order the simulated client
 * sent, built from its own blotter row. A multileg order is replaced with G as well: our acceptor reads
 * the same fields from G and AC, and G needs no leg group.
 */

const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_ORD_STATUSES);

/**
 * The request's ClOrdID: the order's id with its version suffix raised ('SGX-7.1' → 'SGX-7.2', the
 * '.1' of the client order id rule being the first version), skipping ids already used.
 */
export function nextRequestClOrdId(current: string, used: (id: string) => boolean): string {
  const m = /^(.*)\.(\d+)$/.exec(current);
  const base = m ? m[1]! : current;
  let version = m ? Number(m[2]) + 1 : 2;
  let candidate = `${base}.${version}`;
  while (used(candidate)) candidate = `${base}.${++version}`;
  return candidate;
}

function requestable(order: ClientOrder, what: 'cancel' | 'replace'): void {
  if (order.ordstatus !== null && TERMINAL.has(order.ordstatus)) {
    throw new MessageCheckError(`Order ${order.clordid} is finished (OrdStatus ${order.ordstatus}); there is nothing to ${what}`);
  }
  if (order.pendingRequest) {
    const kind = order.pendingRequest.type === MsgType.OrderCancelRequest ? 'cancel' : 'replace';
    throw new MessageCheckError(
      `Order ${order.clordid} already has a ${kind} request (${order.pendingRequest.clOrdId}) waiting for the broker`,
    );
  }
}

function instrument(order: ClientOrder): Array<[number, string]> {
  const fields: Array<[number, string]> = [[55, order.symbol]];
  fields.push([167, order.msgtype === MsgType.NewOrderMultileg ? SecurityType.Multileg : SecurityType.Future]);
  if (order.maturity) fields.push([200, order.maturity]);
  return fields;
}

const byTag = (fields: Array<[number, string]>) => fields.sort((a, b) => a[0] - b[0]);

export function buildCancelRequest(order: ClientOrder, clOrdId: string, now: Date, text?: string): Array<[number, string]> {
  requestable(order, 'cancel');
  const body: Array<[number, string]> = [
    [11, clOrdId],
    [41, order.clordid],
    [38, order.orderqty],
    [54, order.side],
    [60, formatFixTimestamp(now, { millis: true })],
    ...instrument(order),
  ];
  if (order.orderid) body.push([37, order.orderid]);
  if (text?.trim()) body.push([58, text.trim()]);
  return byTag(body);
}

export function buildReplaceRequest(
  order: ClientOrder,
  clOrdId: string,
  change: { orderQty?: string; price?: string; text?: string },
  now: Date,
): Array<[number, string]> {
  requestable(order, 'replace');
  let qty = order.orderqty;
  if (change.orderQty !== undefined) {
    const q = Decimal.tryFrom(change.orderQty);
    if (!q || !q.isPositive() || !q.isInteger())
      throw new MessageCheckError('The new quantity must be a whole number greater than zero', 38);
    qty = q.toString();
  }
  let price = order.price;
  if (change.price !== undefined) {
    const p = Decimal.tryFrom(change.price);
    if (!p) throw new MessageCheckError('The new price must be a number', 44);
    // Spreads trade at zero or below; an outright's limit must be above zero.
    if (order.msgtype === MsgType.NewOrderSingle && !p.isPositive())
      throw new MessageCheckError('Limit orders require a valid price greater than zero', 44);
    price = p.toString();
  }
  if (change.orderQty === undefined && change.price === undefined) throw new MessageCheckError('Give a new quantity or a new price', 38);
  const ordType = change.price !== undefined ? OrdType.Limit : order.ordtype || OrdType.Limit;
  const body: Array<[number, string]> = [
    [11, clOrdId],
    [41, order.clordid],
    [38, qty],
    [40, ordType],
    [54, order.side],
    [60, formatFixTimestamp(now, { millis: true })],
    ...instrument(order),
  ];
  if (ordType === OrdType.Limit && price !== null) body.push([44, price]);
  if (order.timeinforce) body.push([59, order.timeinforce]);
  if (order.orderid) body.push([37, order.orderid]);
  if (change.text?.trim()) body.push([58, change.text.trim()]);
  return byTag(body);
}
