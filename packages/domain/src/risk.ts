/**
 * Pre-trade risk as a broker's controls count it: worst-case exposure per client and contract.
 *
 * A contract (symbol + maturity month) holds the client's filled net position (long positive) and its
 * working buy and sell quantities: what its open orders could still add if every one were filled. An
 * order's share is what it adds to each contract it trades (an outright: one; a multileg: each leg at
 * its ratio). The book keeps each order's last share, so that any change of the order (intake, fill,
 * cancel, reject, done for day, replace, expiry, kill switch) is one rule: replace its old share by the
 * new one. No I/O: the server feeds it the stored orders (docs/adr/0013).
 */
import { Decimal, type DecimalInput } from './decimal';
import { OrdStatus, Side, type SideCode } from './codes';
import { maturityLabel, normalizeMaturity } from './maturities';

/** One contract's exposure of a client. */
export interface ContractExposure {
  /** Filled net position, long positive. */
  filled: Decimal;
  workingBuy: Decimal;
  workingSell: Decimal;
}

/** An order's share of one contract: its filled and working quantity on one side. */
export interface ShareLeg {
  key: string;
  side: SideCode;
  filled: Decimal;
  working: Decimal;
}

/** What the risk book needs of an order (stored, or about to be). Quantities as stored text. */
export interface RiskOrder {
  ordStatus: string;
  side: SideCode;
  symbol: string;
  maturity: string | null;
  orderQty: DecimalInput;
  cumQty: DecimalInput;
  leavesQty: DecimalInput;
  /** The quantity a pending replace (G) asks for: until decided, the order counts at the larger of the two. */
  pendingOrderQty?: DecimalInput | null;
  /** A multileg order's legs (none for an outright): each trades ratio × the order's quantity. */
  legs: readonly { symbol: string; maturity: string | null; side: SideCode; ratio: DecimalInput; cumQty: DecimalInput }[];
}

/** Statuses in which an order can no longer be filled: it keeps its fills and works no more. */
const CLOSED: ReadonlySet<string> = new Set([
  OrdStatus.Filled,
  OrdStatus.DoneForDay,
  OrdStatus.Canceled,
  OrdStatus.Rejected,
  OrdStatus.Expired,
]);

const isWorkingStatus = (ordStatus: string): boolean => !CLOSED.has(ordStatus);

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

/** Position keys already made, by symbol and maturity as given (the intake asks for the same few per order). */
const positionKeys = new Map<string, string>();
const POSITION_KEYS_KEPT = 10_000;

/** The key of a contract's position: upper-case symbol and YYYYMM maturity. */
export function positionKey(symbol: string, maturity: unknown): string {
  const asGiven =
    typeof maturity === 'string' || maturity === null || maturity === undefined ? `${symbol}\u0000${maturity ?? ''}` : undefined;
  const known = asGiven === undefined ? undefined : positionKeys.get(asGiven);
  if (known !== undefined) return known;
  const key = `${symbol.trim().toUpperCase()}|${normalizeMaturity(maturity) ?? text(maturity)}`;
  if (asGiven !== undefined) {
    if (positionKeys.size >= POSITION_KEYS_KEPT) positionKeys.clear();
    positionKeys.set(asGiven, key);
  }
  return key;
}

/** A contract's name for people: the symbol and its month ("CAPESIZE Jan-27"), or the symbol. */
export function contractLabel(symbol: string, maturity: unknown): string {
  const yyyymm = normalizeMaturity(maturity);
  const label = yyyymm ? maturityLabel(yyyymm) : null;
  return label ? `${symbol} ${label}` : symbol;
}

const nonNegative = (d: Decimal) => (d.isNegative() ? Decimal.ZERO : d);

/** What an order adds to each contract: filled quantity, and the quantity it could still fill while it works. */
export function orderShare(o: RiskOrder): ShareLeg[] {
  const working = isWorkingStatus(o.ordStatus);
  const qty = Decimal.from(o.orderQty);
  const pending =
    o.pendingOrderQty === undefined || o.pendingOrderQty === null || text(o.pendingOrderQty) === ''
      ? null
      : Decimal.from(o.pendingOrderQty);
  if (o.legs.length === 0) {
    const cum = Decimal.from(o.cumQty);
    let open = working ? nonNegative(Decimal.from(o.leavesQty)) : Decimal.ZERO;
    if (working && pending) open = Decimal.max(open, nonNegative(pending.sub(cum)));
    return [{ key: positionKey(o.symbol, o.maturity), side: o.side, filled: cum, working: open }];
  }
  return o.legs.map((l) => {
    const ratio = Decimal.from(l.ratio);
    const cum = Decimal.from(l.cumQty);
    let open = working ? nonNegative(ratio.mul(qty).sub(cum)) : Decimal.ZERO;
    if (working && pending) open = Decimal.max(open, nonNegative(ratio.mul(pending).sub(cum)));
    return { key: positionKey(l.symbol, l.maturity), side: l.side, filled: cum, working: open };
  });
}

/** An order's legs as a new order would add them: nothing filled, its whole quantity working. */
export function newOrderShare(
  o: Omit<RiskOrder, 'ordStatus' | 'cumQty' | 'leavesQty' | 'legs'> & {
    legs: readonly { symbol: string; maturity: string | null; side: SideCode; ratio: DecimalInput }[];
  },
): ShareLeg[] {
  // orderShare of a Pending New order with nothing filled, written out: the intake asks this per order.
  const qty = nonNegative(Decimal.from(o.orderQty));
  if (o.legs.length === 0) return [{ key: positionKey(o.symbol, o.maturity), side: o.side, filled: Decimal.ZERO, working: qty }];
  return o.legs.map((l) => ({
    key: positionKey(l.symbol, l.maturity),
    side: l.side,
    filled: Decimal.ZERO,
    working: nonNegative(Decimal.from(l.ratio).mul(qty)),
  }));
}

/** The limits a capability sets on a contract's exposure (see order-intake's ClientCapability). */
export interface ExposureLimits {
  /** May the client end up net short (absent: true). */
  canShort?: boolean;
  maxPositionLong?: DecimalInput | null;
  maxPositionShort?: DecimalInput | null;
}

/** A refusal of the exposure check: why, with the figures that decided it. */
export interface ExposureBreach {
  kind: 'short' | 'long' | 'shortLimit';
  text: string;
}

export const RiskText = {
  mayNotShort: (contract: string, e: ContractExposure, qty: Decimal, after: Decimal) =>
    `Client is not permitted to sell ${contract} short: position ${e.filled.toString()}, working sells ${e.workingSell.toString()}, this order ${qty.toString()} would leave ${after.toString()}`,
  aboveLongLimit: (contract: string, e: ContractExposure, qty: Decimal, after: Decimal, max: Decimal) =>
    `Net long position in ${contract} could reach ${after.toString()} (position ${e.filled.toString()}, working buys ${e.workingBuy.toString()}, this order ${qty.toString()}), above the limit of ${max.toString()}`,
  aboveShortLimit: (contract: string, e: ContractExposure, qty: Decimal, after: Decimal, max: Decimal) =>
    `Net short position in ${contract} could reach ${after.toString()} (position ${e.filled.toString()}, working sells ${e.workingSell.toString()}, this order ${qty.toString()}), above the limit of ${max.toString()}`,
  clientStopped: (reason: string) => `Orders from this client are stopped by the desk (kill switch): ${reason}`,
} as const;

const limitOf = (v: DecimalInput | null | undefined) => (v === undefined || v === null || text(v) === '' ? null : Decimal.tryFrom(v));

/** True when limits would ever refuse an order on its exposure. */
export function limitsExposure(l: ExposureLimits): boolean {
  return l.canShort === false || limitOf(l.maxPositionLong) !== null || limitOf(l.maxPositionShort) !== null;
}

/**
 * Worst-case exposure: a buy is refused when filled + working buys + this order would pass the long
 * limit; a sell when short selling is barred and filled − working sells − this order would go below
 * zero, or when the short it could reach passes the short limit. Null when the order may go.
 */
export function checkExposure(
  limits: ExposureLimits,
  contract: string,
  side: SideCode,
  qty: Decimal,
  e: ContractExposure,
): ExposureBreach | null {
  if (side === Side.Buy) {
    const max = limitOf(limits.maxPositionLong);
    const after = e.filled.add(e.workingBuy).add(qty);
    if (max && after.gt(max)) return { kind: 'long', text: RiskText.aboveLongLimit(contract, e, qty, after, max) };
    return null;
  }
  const after = e.filled.sub(e.workingSell).sub(qty);
  if (limits.canShort === false && after.isNegative()) return { kind: 'short', text: RiskText.mayNotShort(contract, e, qty, after) };
  const max = limitOf(limits.maxPositionShort);
  if (max && after.isNegative() && after.neg().gt(max))
    return { kind: 'shortLimit', text: RiskText.aboveShortLimit(contract, e, qty, after.neg(), max) };
  return null;
}

const ZERO_EXPOSURE: ContractExposure = Object.freeze({ filled: Decimal.ZERO, workingBuy: Decimal.ZERO, workingSell: Decimal.ZERO });

/**
 * One client's exposure per contract, and each known order's share of it. Orders are known by a key:
 * a stored order's id, or a reservation's token while a new order waits for its commit.
 */
export class RiskBook {
  private readonly contracts = new Map<string, ContractExposure>();
  private readonly shares = new Map<string, { legs: ShareLeg[]; version: number }>();

  /** A contract's exposure (zero when the client never traded it). */
  exposure(key: string): ContractExposure {
    return this.contracts.get(key) ?? ZERO_EXPOSURE;
  }

  /** A contract's exposure without one order's share (filled and working): its replace is checked as if new. */
  exposureWithout(key: string, ref: string): ContractExposure {
    const e = this.exposure(key);
    const own = this.shares.get(ref)?.legs.filter((l) => l.key === key) ?? [];
    return own.reduce(
      (x, l) => ({
        filled: l.side === Side.Buy ? x.filled.sub(l.filled) : x.filled.add(l.filled),
        workingBuy: l.side === Side.Buy ? x.workingBuy.sub(l.working) : x.workingBuy,
        workingSell: l.side === Side.Sell ? x.workingSell.sub(l.working) : x.workingSell,
      }),
      e,
    );
  }

  /** Every contract with an exposure (for display and tests). */
  entries(): [string, ContractExposure][] {
    return [...this.contracts.entries()];
  }

  /** Adds a filled position that belongs to no known order (closed orders, as loaded). */
  addFilled(key: string, signedQty: DecimalInput): void {
    const e = this.exposure(key);
    this.contracts.set(key, { ...e, filled: e.filled.add(signedQty) });
  }

  has(ref: string): boolean {
    return this.shares.has(ref);
  }

  /**
   * The order's share is now `legs` (replacing the one it had). A version older than the one applied
   * (a stale read of the order) changes nothing. Returns whether it was applied.
   */
  set(ref: string, legs: ShareLeg[], version = 0): boolean {
    const prev = this.shares.get(ref);
    if (prev && version < prev.version) return false;
    if (prev) this.apply(prev.legs, -1);
    this.apply(legs, 1);
    this.shares.set(ref, { legs, version: Math.max(version, prev?.version ?? 0) });
    return true;
  }

  /** Forgets an order's share entirely (a reservation whose order was not stored). */
  remove(ref: string): void {
    const prev = this.shares.get(ref);
    if (!prev) return;
    this.apply(prev.legs, -1);
    this.shares.delete(ref);
  }

  /** Moves a share to a new key (a reservation becomes the stored order), keeping its legs. */
  rename(from: string, to: string): void {
    const prev = this.shares.get(from);
    if (!prev) return;
    this.shares.delete(from);
    if (!this.shares.has(to)) this.shares.set(to, prev);
    else this.apply(prev.legs, -1);
  }

  /** Drops contracts whose month has ended, as of `month` (YYYYMM): they leave the position. */
  dropExpired(month: string): void {
    for (const key of this.contracts.keys()) {
      const m = key.slice(key.indexOf('|') + 1);
      if (/^\d{6}$/.test(m) && m < month) this.contracts.delete(key);
    }
    for (const [ref, s] of this.shares) {
      if (
        s.legs.every((l) => {
          const m = l.key.slice(l.key.indexOf('|') + 1);
          return /^\d{6}$/.test(m) && m < month;
        })
      )
        this.shares.delete(ref);
    }
  }

  private apply(legs: readonly ShareLeg[], sign: 1 | -1): void {
    for (const l of legs) {
      const e = this.exposure(l.key);
      const signedFill = l.side === Side.Buy ? l.filled : l.filled.neg();
      const next: ContractExposure = {
        filled: sign === 1 ? e.filled.add(signedFill) : e.filled.sub(signedFill),
        workingBuy: l.side === Side.Buy ? (sign === 1 ? e.workingBuy.add(l.working) : e.workingBuy.sub(l.working)) : e.workingBuy,
        workingSell: l.side === Side.Sell ? (sign === 1 ? e.workingSell.add(l.working) : e.workingSell.sub(l.working)) : e.workingSell,
      };
      this.contracts.set(l.key, next);
    }
  }
}
