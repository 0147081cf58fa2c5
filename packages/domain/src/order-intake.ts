/**
 * Intake rules for NewOrderSingle (D) and NewOrderMultileg (AB): what the broker checks before an order
 * enters the book. Each failure carries the OrdRejReason (103) and the Text (58) of the business reject
 * (ExecType 8 / OrdStatus 8). Checks run in a fixed order and stop at the first failure, so a client always
 * gets the same answer for the same message.
 *
 * Lookups are passed in as functions and data: this module does no I/O.
 */
import { Decimal, type DecimalInput } from './decimal';
import { OrdRejReason, OrdType, PartyRole, Side, TimeInForce, type OrdRejReasonCode, type SideCode } from './codes';
import { contractMonthStatus } from './contract-specs';
import { maturityLabel, normalizeMaturity } from './maturities';
import { checkExposure, contractLabel, limitsExposure, positionKey, type ContractExposure } from './risk';

export interface SecurityInfo {
  symbol: string;
  isActive: boolean;
  priceTickSize?: DecimalInput | null;
  /** Consecutive months listed from the current one; absent means no limit is checked. */
  seriesMonths?: number | null;
}

/** A client capability row (spec 001 §3). `securitySymbol` null means All Securities. */
export interface ClientCapability {
  securitySymbol: string | null;
  exchange?: string | null;
  isEnabled: boolean;
  canBuy: boolean;
  canSell: boolean;
  minOrderQty?: DecimalInput | null;
  maxOrderQty?: DecimalInput | null;
  /** May the client's net position in a contract go below zero (absent: true, as before short selling was checked). */
  canShort?: boolean;
  /** The largest net long position the client may hold in one contract (lots). */
  maxPositionLong?: DecimalInput | null;
  /** The largest net short position the client may hold in one contract (lots, a positive number). */
  maxPositionShort?: DecimalInput | null;
  /** The market (MIC) the client may trade on; when set, the order's ExDestination (100) must name it. */
  marketIdentifier?: string | null;
}

export interface IntakeContext {
  lookupSecurity: (symbol: string) => SecurityInfo | null | undefined;
  /**
   * The sending client's capability rows. Undefined skips the permission checks (no capability model
   * configured); an empty list means the client may trade nothing.
   */
  capabilities?: readonly ClientCapability[];
  /**
   * The client's exposure in a contract (risk.ts: filled position and working quantities), by
   * positionKey. Asked only when a capability limits short selling or positions; undefined means none.
   */
  exposure?: (key: string) => ContractExposure | undefined;
  /** True when this sender already used the ClOrdID today. */
  isDuplicateClOrdId?: (clOrdId: string) => boolean;
  /** With a clock, expired and unlisted contract months are refused. */
  now?: Date;
  timeZone?: string;
}

/** Raw values as they come off the wire: strings, possibly missing. */
export interface NewOrderSingleInput {
  clOrdId?: string | null;
  side?: string | null;
  ordType?: string | null;
  orderQty?: DecimalInput | null;
  price?: DecimalInput | null;
  symbol?: string | null;
  maturityMonthYear?: string | null;
  timeInForce?: string | null;
  exDestination?: string | null;
}

export interface MultilegLegInput {
  symbol?: string | null;
  side?: string | null;
  ratio?: DecimalInput | null;
  maturityMonthYear?: string | null;
}

export interface NewOrderMultilegInput extends Omit<NewOrderSingleInput, 'maturityMonthYear'> {
  legs: readonly MultilegLegInput[];
}

export interface IntakeRejection {
  ok: false;
  ordRejReason: OrdRejReasonCode;
  text: string;
}

export type IntakeResult = { ok: true } | IntakeRejection;

const reject = (ordRejReason: OrdRejReasonCode, text: string): IntakeRejection => ({ ok: false, ordRejReason, text });

export const IntakeText = {
  clOrdIdRequired: 'ClOrdID (11) is required',
  duplicateClOrdId: (id: string) => `Duplicate ClOrdID ${id}`,
  invalidSide: (value: string) => `Invalid side '${value}': side must be '1' (Buy) or '2' (Sell)`,
  invalidOrdType: (value: string) => `Invalid order type: ${value}. Must be 1 (Market) or 2 (Limit)`,
  invalidTimeInForce: (value: string) => `Invalid time in force: ${value}. Must be 0 (Day) or 1 (Good Till Cancel)`,
  quantityNotPositive: 'Order quantity must be greater than 0',
  quantityNotWhole: (qty: string) => `Order quantity ${qty} must be a whole number of lots`,
  limitPriceRequired: 'Limit orders require a valid price greater than zero',
  strategyLimitPriceRequired: 'Limit orders require a valid price',
  priceOffTick: (px: string, tick: string, symbol: string) => `Price ${px} is not a multiple of the tick size ${tick} for ${symbol}`,
  symbolRequired: 'Symbol (55) is required',
  unknownSymbol: (symbol: string) => `Unknown symbol ${symbol}`,
  inactiveSymbol: (symbol: string) => `Symbol ${symbol} is not active`,
  maturityInvalid: (value: string) => `Maturity month-year '${value}' is missing or not YYYYMM`,
  maturityExpired: (label: string, maturity: string) => `Contract month ${label} (${maturity}) has expired`,
  maturityBeyondSeries: (label: string, months: number, symbol: string) =>
    `Contract month ${label} is beyond the ${months}-month series listed for ${symbol}`,
  noLegs: 'Multileg order has no legs',
  legRatioInvalid: 'ratio must be a whole number greater than 0',
  noPermission: (symbol: string) => `No trading permission for ${symbol}`,
  tradingDisabled: (symbol: string) => `Trading in ${symbol} is disabled for this client`,
  mayNotBuy: (symbol: string) => `Client is not permitted to buy ${symbol}`,
  mayNotSell: (symbol: string) => `Client is not permitted to sell ${symbol}`,
  aboveMaximum: (qty: string, max: string, symbol: string) => `Order quantity ${qty} exceeds the maximum of ${max} for ${symbol}`,
  belowMinimum: (qty: string, min: string, symbol: string) => `Order quantity ${qty} is below the minimum of ${min} for ${symbol}`,
  rateExceeded: (perSecond: number) => `Order rate limit of ${perSecond} orders per second exceeded`,
  wrongMarket: (symbol: string, market: string) => `Client may trade ${symbol} only on market ${market} (ExDestination 100)`,
  enteringFirmNotClient: (given: string, own: string) =>
    `Entering Firm (PartyRole 7) ${given} is another firm's LEI: this client's is ${own}`,
  enteringFirmOtherClient: (given: string) => `Entering Firm (PartyRole 7) ${given} is the LEI of another client of this desk`,
  traderOtherClient: (given: string) => `Order Origination Trader (PartyRole 11) ${given} is the contact of another client of this desk`,
} as const;

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());
const legPrefix = (index: number) => `Leg ${index + 1}: `;

/**
 * The capability row that governs a symbol: a row for that security beats an All Securities row, and a row
 * for the order's exchange beats one for any exchange. Undefined when none applies.
 */
export function selectCapability(
  capabilities: readonly ClientCapability[],
  symbol: string,
  exchange?: string | null,
): ClientCapability | undefined {
  const sym = symbol.trim().toUpperCase();
  const ex = text(exchange).toUpperCase();
  // The most specific one that applies (a symbol counts more than an exchange); the first listed among equals.
  let best: ClientCapability | undefined;
  let bestScore = -1;
  for (const c of capabilities) {
    const cs = c.securitySymbol === null ? null : c.securitySymbol.trim().toUpperCase();
    if (cs !== null && cs !== sym) continue;
    const ce = text(c.exchange).toUpperCase();
    if (!(ce === '' || ex === '' || ex === 'ANY' || ce === ex || text(c.marketIdentifier).toUpperCase() === ex)) continue;
    const score = (c.securitySymbol !== null ? 2 : 0) + (ce !== '' ? 1 : 0);
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/** ClOrdID present: without it nothing else can be answered. */
function checkClOrdId(order: NewOrderSingleInput): IntakeRejection | null {
  return text(order.clOrdId) ? null : reject(OrdRejReason.Other, IntakeText.clOrdIdRequired);
}

/** Side, order type, time in force, then quantity (after the symbol checks, which come first). */
function checkTerms(order: NewOrderSingleInput): IntakeRejection | null {
  const side = text(order.side);
  if (side !== Side.Buy && side !== Side.Sell) return reject(OrdRejReason.UnsupportedOrderCharacteristic, IntakeText.invalidSide(side));
  const ordType = text(order.ordType);
  if (ordType !== OrdType.Market && ordType !== OrdType.Limit) {
    return reject(OrdRejReason.UnsupportedOrderCharacteristic, IntakeText.invalidOrdType(ordType));
  }
  const tif = text(order.timeInForce);
  if (tif !== '' && tif !== TimeInForce.Day && tif !== TimeInForce.GoodTillCancel) {
    return reject(OrdRejReason.UnsupportedOrderCharacteristic, IntakeText.invalidTimeInForce(tif));
  }
  return null;
}

function checkQuantity(order: NewOrderSingleInput): IntakeRejection | Decimal {
  const qty = order.orderQty === undefined || order.orderQty === null ? null : Decimal.tryFrom(order.orderQty);
  if (!qty || !qty.isPositive()) return reject(OrdRejReason.IncorrectQuantity, IntakeText.quantityNotPositive);
  if (!qty.isInteger()) return reject(OrdRejReason.IncorrectQuantity, IntakeText.quantityNotWhole(qty.toString()));
  return qty;
}

function checkDuplicate(order: NewOrderSingleInput, ctx: IntakeContext): IntakeRejection | null {
  const clOrdId = text(order.clOrdId);
  return ctx.isDuplicateClOrdId?.(clOrdId) ? reject(OrdRejReason.DuplicateOrder, IntakeText.duplicateClOrdId(clOrdId)) : null;
}

function limitPrice(order: NewOrderSingleInput): Decimal | null {
  return order.price === undefined || order.price === null
    ? null
    : Decimal.tryFrom(typeof order.price === 'string' ? order.price.trim() : order.price);
}

function checkInstrument(symbol: string, maturity: unknown, ctx: IntakeContext, prefix = ''): IntakeRejection | SecurityInfo {
  if (!symbol) return reject(OrdRejReason.UnknownSymbol, prefix + IntakeText.symbolRequired);
  const security = ctx.lookupSecurity(symbol);
  if (!security) return reject(OrdRejReason.UnknownSymbol, prefix + IntakeText.unknownSymbol(symbol));
  if (!security.isActive) return reject(OrdRejReason.UnknownSymbol, prefix + IntakeText.inactiveSymbol(symbol));
  const yyyymm = normalizeMaturity(maturity);
  if (!yyyymm || !/^\d{6}(\d{2})?$/.test(text(maturity))) {
    return reject(OrdRejReason.UnknownSymbol, prefix + IntakeText.maturityInvalid(text(maturity)));
  }
  if (ctx.now) {
    const status = contractMonthStatus(yyyymm, security.seriesMonths, ctx.now, ctx.timeZone);
    const label = maturityLabel(yyyymm)!;
    if (status === 'expired') return reject(OrdRejReason.UnknownSymbol, prefix + IntakeText.maturityExpired(label, yyyymm));
    if (status === 'beyondSeries') {
      return reject(OrdRejReason.UnknownSymbol, prefix + IntakeText.maturityBeyondSeries(label, security.seriesMonths!, symbol));
    }
  }
  return security;
}

function checkTick(price: Decimal | null, security: SecurityInfo): IntakeRejection | null {
  const tick = security.priceTickSize === undefined || security.priceTickSize === null ? null : Decimal.tryFrom(security.priceTickSize);
  if (!price || !tick || !tick.isPositive() || price.isMultipleOf(tick)) return null;
  return reject(OrdRejReason.Other, IntakeText.priceOffTick(price.toString(), tick.toString(), security.symbol));
}

export { positionKey } from './risk';

/** True when a capability's rules need the client's exposure (short selling refused, or a position limit). */
export function capabilityNeedsPosition(c: ClientCapability): boolean {
  return c.isEnabled && limitsExposure({ ...c, canShort: c.canSell ? c.canShort : undefined });
}

const NO_EXPOSURE: ContractExposure = { filled: Decimal.ZERO, workingBuy: Decimal.ZERO, workingSell: Decimal.ZERO };

function checkPosition(
  cap: ClientCapability,
  symbol: string,
  maturity: unknown,
  side: SideCode,
  qty: Decimal,
  ctx: IntakeContext,
  prefix: string,
): IntakeRejection | null {
  if (!capabilityNeedsPosition(cap)) return null;
  const exposure = ctx.exposure?.(positionKey(symbol, maturity)) ?? NO_EXPOSURE;
  const breach = checkExposure(cap, contractLabel(symbol, maturity), side, qty, exposure);
  if (!breach) return null;
  return reject(breach.kind === 'short' ? OrdRejReason.BrokerOption : OrdRejReason.OrderExceedsLimit, prefix + breach.text);
}

function checkCapability(
  symbol: string,
  side: SideCode,
  qty: Decimal,
  ctx: IntakeContext,
  exchange?: string | null,
  prefix = '',
  maturity?: unknown,
): IntakeRejection | null {
  if (ctx.capabilities === undefined) return null;
  const cap = selectCapability(ctx.capabilities, symbol, exchange);
  if (!cap) return reject(OrdRejReason.BrokerOption, prefix + IntakeText.noPermission(symbol));
  if (!cap.isEnabled) return reject(OrdRejReason.BrokerOption, prefix + IntakeText.tradingDisabled(symbol));
  if (side === Side.Buy && !cap.canBuy) return reject(OrdRejReason.BrokerOption, prefix + IntakeText.mayNotBuy(symbol));
  if (side === Side.Sell && !cap.canSell) return reject(OrdRejReason.BrokerOption, prefix + IntakeText.mayNotSell(symbol));
  const max = cap.maxOrderQty === undefined || cap.maxOrderQty === null ? null : Decimal.tryFrom(cap.maxOrderQty);
  if (max && qty.gt(max))
    return reject(OrdRejReason.OrderExceedsLimit, prefix + IntakeText.aboveMaximum(qty.toString(), max.toString(), symbol));
  const min = cap.minOrderQty === undefined || cap.minOrderQty === null ? null : Decimal.tryFrom(cap.minOrderQty);
  if (min && qty.lt(min))
    return reject(OrdRejReason.IncorrectQuantity, prefix + IntakeText.belowMinimum(qty.toString(), min.toString(), symbol));
  const market = text(cap.marketIdentifier).toUpperCase();
  if (market && text(exchange).toUpperCase() !== market)
    return reject(OrdRejReason.BrokerOption, prefix + IntakeText.wrongMarket(symbol, market));
  return checkPosition(cap, symbol, maturity, side, qty, ctx, prefix);
}

/**
 * NewOrderSingle, in this order (the first failure is the answer): ClOrdID present; symbol known and
 * active, maturity YYYYMM (listed, when a clock is given); side; order type and time in force; a limit
 * price > 0 (a market order's price is ignored); quantity a whole number > 0; price on the tick grid;
 * ClOrdID not used today (when the context can tell); then the client's capability for symbol, side and
 * quantity (checkNewOrderSinglePermissions).
 */
export function validateNewOrderSingle(order: NewOrderSingleInput, ctx: IntakeContext): IntakeResult {
  const missing = checkClOrdId(order);
  if (missing) return missing;
  const symbol = text(order.symbol);
  const security = checkInstrument(symbol, order.maturityMonthYear, ctx);
  if ('ok' in security) return security;
  const terms = checkTerms(order);
  if (terms) return terms;
  const isLimit = text(order.ordType) === OrdType.Limit;
  const price = isLimit ? limitPrice(order) : null;
  if (isLimit && (!price || !price.isPositive())) return reject(OrdRejReason.Other, IntakeText.limitPriceRequired);
  const qty = checkQuantity(order);
  if (!(qty instanceof Decimal)) return qty;
  const offTick = checkTick(price, security);
  if (offTick) return offTick;
  const duplicate = checkDuplicate(order, ctx);
  if (duplicate) return duplicate;
  return checkNewOrderSinglePermissions(order, ctx);
}

/**
 * The client's capability for a NewOrderSingle whose terms are valid (validateNewOrderSingle's last
 * step): a separate step so that a caller which decides duplicates elsewhere can check them in between.
 */
function checkNewOrderSinglePermissions(order: NewOrderSingleInput, ctx: IntakeContext): IntakeResult {
  const qty = Decimal.from(order.orderQty!);
  return (
    checkCapability(text(order.symbol), text(order.side) as SideCode, qty, ctx, order.exDestination, '', order.maturityMonthYear) ?? {
      ok: true,
    }
  );
}

/**
 * NewOrderMultileg, in this order: ClOrdID present; legs present, each leg's symbol known and active
 * with its maturity; side, order type and time in force; a limit price that is a number (a spread's may
 * be zero or negative); quantity; each leg's side and whole positive ratio; ClOrdID not used today; then
 * the capability for each leg's symbol and side at ratio × order quantity (checkNewOrderMultilegPermissions).
 */
export function validateNewOrderMultileg(order: NewOrderMultilegInput, ctx: IntakeContext): IntakeResult {
  const missing = checkClOrdId(order);
  if (missing) return missing;
  if (!Array.isArray(order.legs) || order.legs.length === 0) return reject(OrdRejReason.UnsupportedOrderCharacteristic, IntakeText.noLegs);
  for (const [i, leg] of order.legs.entries()) {
    const security = checkInstrument(text(leg.symbol), leg.maturityMonthYear, ctx, legPrefix(i));
    if ('ok' in security) return security;
  }
  const terms = checkTerms(order);
  if (terms) return terms;
  const isLimit = text(order.ordType) === OrdType.Limit;
  const price = isLimit ? limitPrice(order) : null;
  if (isLimit && !price) return reject(OrdRejReason.Other, IntakeText.strategyLimitPriceRequired);
  const qty = checkQuantity(order);
  if (!(qty instanceof Decimal)) return qty;
  for (const [i, leg] of order.legs.entries()) {
    const prefix = legPrefix(i);
    const side = text(leg.side);
    if (side !== Side.Buy && side !== Side.Sell)
      return reject(OrdRejReason.UnsupportedOrderCharacteristic, prefix + IntakeText.invalidSide(side));
    const ratio = leg.ratio === undefined || leg.ratio === null || text(leg.ratio) === '' ? Decimal.ONE : Decimal.tryFrom(leg.ratio);
    if (!ratio || !ratio.isPositive() || !ratio.isInteger())
      return reject(OrdRejReason.UnsupportedOrderCharacteristic, prefix + IntakeText.legRatioInvalid);
  }
  const duplicate = checkDuplicate(order, ctx);
  if (duplicate) return duplicate;
  return checkNewOrderMultilegPermissions(order, ctx);
}

/** The capability for each leg of a NewOrderMultileg whose terms are valid (validateNewOrderMultileg's last step). */
function checkNewOrderMultilegPermissions(order: NewOrderMultilegInput, ctx: IntakeContext): IntakeResult {
  const qty = Decimal.from(order.orderQty!);
  for (const [i, leg] of order.legs.entries()) {
    const ratio = leg.ratio === undefined || leg.ratio === null || text(leg.ratio) === '' ? Decimal.ONE : Decimal.from(leg.ratio);
    const denied = checkCapability(
      text(leg.symbol),
      text(leg.side) as SideCode,
      ratio.mul(qty),
      ctx,
      order.exDestination,
      legPrefix(i),
      leg.maturityMonthYear,
    );
    if (denied) return denied;
  }
  return { ok: true };
}

/** A party of an order as the intake holds it (order level: legIndex null). */
export interface OrderPartyInput {
  partyId: string;
  partyRole: number;
  legIndex: number | null;
}

/** The form of an ISO 17442 Legal Entity Identifier: 18 letters or digits, then 2 check digits. */
const LEI_FORM = /^[A-Z0-9]{18}[0-9]{2}$/;

/**
 * Who the desk's other clients are, for the parties check: the client (CompID) whose LEI, or whose
 * contact (name or e-mail), a party ID is, when it is one of them.
 */
export interface DeskIdentities {
  leiOwner(lei: string): string | undefined;
  contactOwner(nameOrEmail: string): string | undefined;
}

/** A contact's name or e-mail as compared: trimmed, inner spaces single, case ignored. */
export const contactKey = (v: string) => v.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * An order may not put another firm's identity on the desk's records and reports through its parties:
 * - its Entering Firm (PartyRole 7) may name no LEI but its own client's, when the desk holds the
 *   client's LEI and the party reads as an LEI (a firm's own code in another form is the client's
 *   business); when the desk does not hold it, no LEI of another client of the desk;
 * - its Order Origination Trader (PartyRole 11) may not be the contact (name or e-mail) of another
 *   client of the desk. The client's own traders are its business: the desk holds one contact.
 * The other client is not named in the refusal: a client learns nothing of the desk's other clients.
 */
export function checkParties(
  parties: readonly OrderPartyInput[] | undefined,
  client: { compId: string; lei: string | null | undefined },
  desk: DeskIdentities | undefined,
): IntakeRejection | null {
  if (!parties) return null;
  const own = text(client.lei).toUpperCase();
  const others = (owner: string | undefined) => owner !== undefined && owner !== client.compId;
  for (const p of parties) {
    if (p.legIndex !== null) continue;
    const given = text(p.partyId);
    const role = String(p.partyRole);
    if (role === PartyRole.EnteringFirm) {
      const lei = given.toUpperCase();
      if (!LEI_FORM.test(lei)) continue;
      if (own && lei !== own) return reject(OrdRejReason.Other, IntakeText.enteringFirmNotClient(lei, own));
      if (!own && others(desk?.leiOwner(lei))) return reject(OrdRejReason.Other, IntakeText.enteringFirmOtherClient(lei));
    } else if (role === PartyRole.OrderOriginationTrader && given && others(desk?.contactOwner(contactKey(given)))) {
      return reject(OrdRejReason.Other, IntakeText.traderOtherClient(given));
    }
  }
  return null;
}

/** Where a decision refused an order: its own terms, the client's capability and exposure, or its rate. */
export type DecisionStage = 'terms' | 'permission' | 'rate';

export type NewOrderDecision = { ok: true } | (IntakeRejection & { stage: DecisionStage });

/** What the intake decides a new order with: the pure rules' context, and the client's order rate. */
export interface DecisionContext extends IntakeContext {
  /**
   * Counts the order against the client's orders per second and says whether it is over; absent, the
   * rate is not counted (a possible resend, until it proves to be a new order).
   */
  overRate?: () => boolean;
  maxOrdersPerSecond?: number;
  /** The sending client's CompID and LEI as the desk holds it, and who its other clients are (checkParties). */
  client?: { compId: string; lei: string | null };
  desk?: DeskIdentities;
}

/**
 * The intake's one decision on a new order (D or AB), in this order: its own terms (validation, without
 * duplicates: the intake's batch knows them), then the client's capability and worst-case exposure,
 * then the client's order rate. The stage tells the intake which answer a duplicate ClOrdID overrides
 * (the capability's and the rate's, not the terms').
 */
export function decideNewOrder(
  order: (({ msgType: 'D' } & NewOrderSingleInput) | ({ msgType: 'AB' } & NewOrderMultilegInput)) & {
    parties?: readonly OrderPartyInput[];
  },
  ctx: DecisionContext,
): NewOrderDecision {
  const terms: IntakeContext = { ...ctx, capabilities: undefined, isDuplicateClOrdId: undefined };
  const verdict = order.msgType === 'D' ? validateNewOrderSingle(order, terms) : validateNewOrderMultileg(order, terms);
  if (!verdict.ok) return { ...verdict, stage: 'terms' };
  const parties = ctx.client ? checkParties(order.parties, ctx.client, ctx.desk) : null;
  if (parties) return { ...parties, stage: 'terms' };
  const permitted = order.msgType === 'D' ? checkNewOrderSinglePermissions(order, ctx) : checkNewOrderMultilegPermissions(order, ctx);
  if (!permitted.ok) return { ...permitted, stage: 'permission' };
  if (ctx.overRate?.())
    return { ok: false, ordRejReason: OrdRejReason.Other, text: IntakeText.rateExceeded(ctx.maxOrdersPerSecond ?? 0), stage: 'rate' };
  return { ok: true };
}
