/**
 * The Axes board's order book (spec 001 §4 "Order book", §7 "Axes order row"), pure.
 *
 * Open orders only: status 4 (Canceled), 8 (Rejected) and 2 (Filled) are excluded, as is any order with
 * no remaining quantity (leaves quantity, else order quantity). Side 1 is a buyer, side 2 a seller. A
 * multileg order is split per leg, each leg on its own side with the remaining quantity times its ratio
 * (default 1). Rows are ordered by contract (symbol, maturity), then price priority (the highest bid and
 * the lowest offer first), then time (older first), then order id and leg: a stable order, so a change
 * to one order never moves the others.
 */
import { Decimal } from './decimal';
import { OrdStatus, Side } from './codes';

/** The order fields the board reads (a subset of the API's order). */
export interface AxesOrderInput {
  id: number;
  brokerorderid: string;
  ordstatus: string;
  leavesqty: string | null;
  orderqty: string;
  sendercompid: string;
  symbol: string;
  maturity_month_year: string | null;
  price: string | null;
  side: string;
  exchange: string | null;
  accepted_by: string | null;
  created_at: string;
  legs: ReadonlyArray<{
    legIndex: number;
    symbol: string;
    side: string;
    ratio: string | null;
    legMaturityMonthYear: string | null;
    legPrice?: string | null;
  }>;
}

export interface AxesRow {
  /** Order id plus row index (spec 001 §2): stable for the life of the row. */
  key: string;
  orderId: number;
  brokerOrderId: string;
  legIndex: number | null;
  side: '1' | '2';
  symbol: string;
  maturity: string | null;
  quantity: number;
  price: string | null;
  broker: string;
  client: string;
  sendercompid: string;
  status: string;
  exchange: string | null;
  createdAt: string;
}

const CLOSED: ReadonlySet<string> = new Set([OrdStatus.Canceled, OrdStatus.Rejected, OrdStatus.Filled]);

function positive(value: string | null | undefined): Decimal | undefined {
  const d = value === null || value === undefined || value === '' ? undefined : Decimal.tryFrom(value);
  return d && d.isPositive() ? d : undefined;
}

/** The remaining quantity: leaves quantity when the order carries one, else the order quantity. */
function axesRemainingQuantity(o: Pick<AxesOrderInput, 'leavesqty' | 'orderqty'>): Decimal | undefined {
  const leaves = o.leavesqty === null || o.leavesqty === undefined || o.leavesqty === '' ? undefined : Decimal.tryFrom(o.leavesqty);
  if (leaves) return leaves.isPositive() ? leaves : undefined;
  return positive(o.orderqty);
}

function isOpenForAxes(o: Pick<AxesOrderInput, 'ordstatus' | 'leavesqty' | 'orderqty'>): boolean {
  return !CLOSED.has(o.ordstatus) && axesRemainingQuantity(o) !== undefined;
}

/** A leg's ratio: its LegRatioQty when it is a positive number, else 1. */
function legRatio(ratio: string | null | undefined): Decimal {
  return positive(ratio) ?? Decimal.from(1);
}

/** The rows one order puts on the board (none when it is closed, one per leg for a multileg order). */
export function axesRowsOf(o: AxesOrderInput): AxesRow[] {
  if (!isOpenForAxes(o)) return [];
  const remaining = axesRemainingQuantity(o)!;
  const base = {
    orderId: o.id,
    brokerOrderId: o.brokerorderid,
    broker: o.accepted_by ?? '',
    client: o.sendercompid,
    sendercompid: o.sendercompid,
    status: o.ordstatus,
    exchange: o.exchange,
    createdAt: o.created_at,
  };
  if (o.legs.length === 0) {
    if (o.side !== Side.Buy && o.side !== Side.Sell) return [];
    return [
      {
        ...base,
        key: `${o.id}-0`,
        legIndex: null,
        side: o.side,
        symbol: o.symbol,
        maturity: o.maturity_month_year,
        quantity: remaining.toNumber(),
        price: o.price,
      },
    ];
  }
  const rows: AxesRow[] = [];
  o.legs.forEach((leg, i) => {
    if (leg.side !== Side.Buy && leg.side !== Side.Sell) return;
    rows.push({
      ...base,
      key: `${o.id}-${i}`,
      legIndex: leg.legIndex,
      side: leg.side,
      symbol: leg.symbol,
      maturity: leg.legMaturityMonthYear,
      quantity: remaining.mul(legRatio(leg.ratio)).toNumber(),
      price: leg.legPrice ?? o.price,
    });
  });
  return rows;
}

function priceOf(r: AxesRow): Decimal | undefined {
  return r.price === null ? undefined : (Decimal.tryFrom(r.price) ?? undefined);
}

/**
 * Board order: contract (symbol, then maturity), then price priority (buyers highest first, sellers
 * lowest first; a row without a price, a market order, before every priced one), then time, order id, leg.
 */
function compareAxesRows(a: AxesRow, b: AxesRow): number {
  if (a.symbol !== b.symbol) return a.symbol < b.symbol ? -1 : 1;
  const ma = a.maturity ?? '';
  const mb = b.maturity ?? '';
  if (ma !== mb) return ma < mb ? -1 : 1;
  const pa = priceOf(a);
  const pb = priceOf(b);
  if (pa && pb) {
    const c = pa.compare(pb);
    if (c !== 0) return a.side === Side.Buy ? -c : c;
  } else if (pa || pb) {
    return pa ? 1 : -1;
  }
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.orderId !== b.orderId) return a.orderId - b.orderId;
  return (a.legIndex ?? -1) - (b.legIndex ?? -1);
}

export interface AxesBook {
  buyers: AxesRow[];
  sellers: AxesRow[];
}

export function deriveAxes(orders: Iterable<AxesOrderInput>): AxesBook {
  const buyers: AxesRow[] = [];
  const sellers: AxesRow[] = [];
  for (const o of orders) for (const r of axesRowsOf(o)) (r.side === Side.Buy ? buyers : sellers).push(r);
  buyers.sort(compareAxesRows);
  sellers.sort(compareAxesRows);
  return { buyers, sellers };
}

/** The header's counters: orders on the board, distinct clients, distinct brokers. */
export function axesCounters(book: AxesBook): { orders: number; clients: number; brokers: number } {
  const orders = new Set<number>();
  const clients = new Set<string>();
  const brokers = new Set<string>();
  for (const r of [...book.buyers, ...book.sellers]) {
    orders.add(r.orderId);
    clients.add(r.sendercompid);
    if (r.broker) brokers.add(r.broker);
  }
  return { orders: orders.size, clients: clients.size, brokers: brokers.size };
}

export interface AxesFilter {
  /** 'Any' or an exchange (SGX, EEX). */
  exchange: string;
  /** Part of a symbol, any case; empty for all. */
  symbol: string;
}

export function filterAxes(book: AxesBook, filter: AxesFilter): AxesBook {
  const exchange = filter.exchange === 'Any' ? '' : filter.exchange.toUpperCase();
  const symbol = filter.symbol.trim().toUpperCase();
  const keep = (r: AxesRow) =>
    (!exchange || (r.exchange ?? '').toUpperCase() === exchange) && (!symbol || r.symbol.toUpperCase().includes(symbol));
  return { buyers: book.buyers.filter(keep), sellers: book.sellers.filter(keep) };
}

export interface AxesContract {
  key: string;
  symbol: string;
  maturity: string | null;
  /** The best bid (first buyer in price-time order) and best offer, when the contract has them. */
  bestBid: AxesRow | undefined;
  bestOffer: AxesRow | undefined;
  bids: number;
  offers: number;
  /** Best offer minus best bid, exact, when both have a price. */
  spread: string | undefined;
}

/** One line per contract (symbol and maturity) with its best bid and best offer facing each other. */
export function axesContracts(book: AxesBook): AxesContract[] {
  const byKey = new Map<string, AxesContract>();
  const get = (r: AxesRow) => {
    const key = `${r.symbol}\u0000${r.maturity ?? ''}`;
    let c = byKey.get(key);
    if (!c) {
      c = { key, symbol: r.symbol, maturity: r.maturity, bestBid: undefined, bestOffer: undefined, bids: 0, offers: 0, spread: undefined };
      byKey.set(key, c);
    }
    return c;
  };
  for (const r of book.buyers) {
    const c = get(r);
    c.bids++;
    c.bestBid ??= r;
  }
  for (const r of book.sellers) {
    const c = get(r);
    c.offers++;
    c.bestOffer ??= r;
  }
  for (const c of byKey.values()) {
    const bid = c.bestBid && priceOf(c.bestBid);
    const offer = c.bestOffer && priceOf(c.bestOffer);
    if (bid && offer) c.spread = offer.sub(bid).stripTrailingZeros().toString();
  }
  return [...byKey.values()].sort((a, b) =>
    a.symbol !== b.symbol
      ? a.symbol < b.symbol
        ? -1
        : 1
      : (a.maturity ?? '') < (b.maturity ?? '')
        ? -1
        : (a.maturity ?? '') > (b.maturity ?? '')
          ? 1
          : 0,
  );
}

/** A row's age for the board: '45s', '12m', '3h', '2d'. */
export function formatRowAge(createdAt: string, nowMs: number): string {
  const t = Date.parse(createdAt);
  if (!Number.isFinite(t)) return '';
  const s = Math.max(0, Math.floor((nowMs - t) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return h < 24 ? `${h}h` : `${Math.floor(h / 24)}d`;
}
