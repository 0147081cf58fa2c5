/**
 * FIX order messages built from the order-entry forms (spec 001 §3, §5): NewOrderSingle (35=D) for an
 * outright month, NewOrderMultileg (35=AB) for standard and custom strategies. Shared by the FIX Client
 * screen, the FIX Client Simulator, the specification page's examples and the tests, so a preview and the
 * message actually sent are the same list of fields.
 *
 * The output is an ordered list of [tag, value]. `serializeFixMessage` turns it into wire text with
 * BodyLength and CheckSum for preview and copy; the FIX engine has its own encoder for real sessions.
 */
import { Decimal } from './decimal';
import { MsgType, OrdType, PartyIDSource, PartyRole, SecurityType, TimeInForce } from './codes';
import {
  clientVariables,
  resolveGroupInstances,
  substituteVariables,
  type ClientData,
  type FieldDefault,
  type GroupDefault,
} from './client-defaults';
import { formatFixTimestamp } from './format';
import { normalizeMaturity } from './maturities';
import { generateCustomMultileg, generateMultileg, type CustomMultilegForm, type GeneratedLeg, type MultilegForm } from './strategies';
import { Tag } from '@fixdesk/fix-codes';
import { IntakeText } from './order-intake';

export type FixField = readonly [tag: number, value: string];

/** Tags by name (generated from the FIX 4.4 dictionary), so call sites and tests never carry bare numbers. */
export { Tag };

const TAG_NAMES: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(Tag).map(([name, tag]) => [tag, name]));

/** Tags the session layer owns: never taken from defaults, never reported as missing. */
const SESSION_TAGS = new Set<number>([
  Tag.BeginString,
  Tag.BodyLength,
  Tag.CheckSum,
  Tag.MsgSeqNum,
  Tag.MsgType,
  Tag.SenderCompID,
  Tag.TargetCompID,
  Tag.SendingTime,
]);
/** Tags the builder writes as part of a repeating group; a flat default cannot set them. */
const GROUP_TAGS = new Set<number>([
  Tag.NoPartyIDs,
  Tag.PartyID,
  Tag.PartyIDSource,
  Tag.PartyRole,
  Tag.NoLegs,
  Tag.LegSymbol,
  Tag.LegSecurityType,
  Tag.LegMaturityMonthYear,
  Tag.LegRatioQty,
  Tag.LegSide,
]);

// ───────────────────────────── form defaults (spec 001 §9) ─────────────────────────────

export const ORDER_FORM_DEFAULTS = {
  quantity: 10,
  outrightPrice: 27000,
  multilegPrice: 100,
  exchange: 'Any',
  timeInForce: TimeInForce.Day,
  traderName: 'Web Trader',
} as const;

export const EXCHANGE_OPTIONS = ['Any', 'SGX', 'EEX'] as const;

/** Input bounds of the FIX Client Simulator (spec 000 §5). */
export const SIMULATOR_INPUT_LIMITS = {
  outrightQuantity: { min: 1, max: 1000, step: 1 },
  outrightPrice: { min: 1, step: 50 },
  spreadPrice: { min: -10000, max: 10000, step: 10 },
  delaySeconds: { min: 1, max: 10 },
} as const;

export const SEND_SUCCESS_TEXT = {
  outright: 'Order sent successfully!',
  multileg: 'Multileg order sent successfully!',
  custom: 'Custom order sent successfully!',
} as const;

export const SendErrorText = {
  network: (message: string) => `Error sending order: ${message}`,
  failed: 'Failed to send order',
  cancelNotImplemented: 'Cancel order functionality not yet implemented',
  cancelFailed: (message: string) => `Failed to cancel order: ${message}`,
} as const;

// ───────────────────────────── forms ─────────────────────────────

interface CommonOrderFields {
  quantity: number | string | null | undefined;
  orderType: string;
  price?: number | string | null;
  timeInForce?: string | null;
  exchange?: string | null;
  enteringFirmLEI?: string | null;
  traderName?: string | null;
  clOrdId?: string | null;
  text?: string | null;
}

export interface OutrightOrderForm extends CommonOrderFields {
  symbol: string;
  /** 'YYYYMM' or 'Mon-YY' */
  contractMonth: string;
  side: string;
}

export interface MultilegOrderForm extends MultilegForm, CommonOrderFields {
  /** Legs already generated (and perhaps shown in the leg table); generated from the form when absent. */
  legs?: readonly GeneratedLeg[];
}

export interface CustomMultilegOrderForm extends CustomMultilegForm, CommonOrderFields {
  legs?: readonly GeneratedLeg[];
}

/** A party from the client's defaults: PartyID (may hold %variables%), PartyIDSource and PartyRole. */
export interface PartyDefault {
  id: string;
  source?: string | null;
  role: string;
}

export interface BuildContext {
  client: ClientData;
  now: Date;
  /** Used when the form's ClOrdID is blank (see nextClientOrderId). */
  clOrdId?: string;
  /** MsgSeqNum for a complete preview; left out otherwise because the session assigns it. */
  msgSeqNum?: number;
  /** Client FIX defaults for this message type; values may hold %variables%. Form values win. */
  defaults?: readonly FieldDefault[];
  /**
   * Repeating-group instances from the client's defaults. Parties (453) merge with the form's LEI and
   * trader name; other groups the form does not write are added as configured. NoLegs (555) is the form's.
   */
  groups?: readonly GroupDefault[];
  /** Party instances given directly (instead of a Parties group in `groups`). */
  parties?: readonly PartyDefault[];
  /** Mandatory tags of this message's spec; missing ones only warn. */
  mandatoryTags?: readonly number[];
}

/** The party instances of a Parties (453) group default. */
function partyDefaultsOf(groups: readonly GroupDefault[] | undefined): PartyDefault[] {
  const parties = groups?.find((g) => g.countTag === Tag.NoPartyIDs);
  const value = (fields: readonly FieldDefault[], tag: number) => fields.find((f) => f.tag === tag)?.value;
  return (parties?.instances ?? []).map((fields) => ({
    id: value(fields, Tag.PartyID) ?? '',
    source: value(fields, Tag.PartyIDSource) ?? null,
    role: value(fields, Tag.PartyRole) ?? '',
  }));
}

export interface BuiltOrder {
  msgType: 'D' | 'AB';
  clOrdId: string;
  /** Tag 55: the outright symbol or the strategy's composite symbol. */
  symbol: string;
  legs: GeneratedLeg[];
  fields: FixField[];
  /** Things worth telling the user that do not stop the message: missing mandatory tags, unknown variables. */
  warnings: string[];
}

/** Shown instead of the preview's parties when none can be resolved (spec 001 §8). */
export const PARTY_DEFAULTS_MISSING_TEXT = 'Please configure party defaults in FIX Client Defaults, or enter LEI/Trader Name above';

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

function flooredQuantity(value: number | string | null | undefined): string | null {
  if (blank(value)) return null;
  const q = Decimal.tryFrom(typeof value === 'string' ? value.trim() : value);
  return q ? q.floor().toString() : null;
}

function priceText(value: number | string | null | undefined): string | null {
  if (blank(value)) return null;
  const p = Decimal.tryFrom(typeof value === 'string' ? value.trim() : value);
  return p ? p.toString() : null;
}

class FieldList {
  readonly fields: FixField[] = [];
  readonly warnings: string[] = [];
  add(tag: number, value: string | null | undefined): void {
    if (value === null || value === undefined || value === '') return;
    this.fields.push([tag, value]);
  }
  has(tag: number): boolean {
    return this.fields.some(([t]) => t === tag);
  }
}

interface ResolvedParty {
  id: string;
  source: string;
  role: string;
}

/**
 * Parties (453): the entering firm (7) from the form's LEI, else the client's party default, else the
 * client's LEI; the order origination trader (11) from the form's trader name, else the default, else the
 * client's contact, else 'Web Trader'; then any other party the defaults configure.
 */
function resolveParties(form: CommonOrderFields, ctx: BuildContext, vars: Record<string, string>, out: FieldList): void {
  const configured: ResolvedParty[] = [];
  for (const p of ctx.parties ?? partyDefaultsOf(ctx.groups)) {
    const role = String(p.role ?? '').trim();
    const id = substituteVariables(String(p.id ?? ''), vars);
    for (const name of id.unresolved) out.warnings.push(`Unknown variable %${name}% in party default for role ${role || '?'}`);
    const source = substituteVariables(String(p.source ?? ''), vars).text.trim();
    if (role === '' || blank(id.text) || configured.some((c) => c.role === role)) continue;
    configured.push({ id: id.text.trim(), source: source || PartyIDSource.Proprietary, role });
  }
  const byRole = (role: string) => configured.find((p) => p.role === role) ?? null;
  const proprietary = (id: string | null | undefined, role: string): ResolvedParty | null =>
    blank(id) ? null : { id: String(id).trim(), source: PartyIDSource.Proprietary, role };
  const enteringFirm =
    proprietary(form.enteringFirmLEI, PartyRole.EnteringFirm) ??
    byRole(PartyRole.EnteringFirm) ??
    proprietary(ctx.client.clientLei, PartyRole.EnteringFirm);
  const trader =
    proprietary(form.traderName, PartyRole.OrderOriginationTrader) ??
    byRole(PartyRole.OrderOriginationTrader) ??
    proprietary(ctx.client.clientContact, PartyRole.OrderOriginationTrader) ??
    proprietary(ORDER_FORM_DEFAULTS.traderName, PartyRole.OrderOriginationTrader);
  const parties: ResolvedParty[] = [];
  if (enteringFirm) parties.push(enteringFirm);
  else out.warnings.push(PARTY_DEFAULTS_MISSING_TEXT);
  if (trader) parties.push(trader);
  parties.push(...configured.filter((p) => p.role !== PartyRole.EnteringFirm && p.role !== PartyRole.OrderOriginationTrader));
  if (parties.length === 0) return;
  out.add(Tag.NoPartyIDs, String(parties.length));
  for (const party of parties) {
    out.add(Tag.PartyID, party.id);
    out.add(Tag.PartyIDSource, party.source);
    out.add(Tag.PartyRole, party.role);
  }
}

function header(msgType: 'D' | 'AB', ctx: BuildContext, out: FieldList): void {
  out.add(Tag.MsgType, msgType);
  out.add(Tag.SenderCompID, ctx.client.compId);
  out.add(Tag.TargetCompID, ctx.client.targetCompId);
  if (ctx.msgSeqNum !== undefined) out.add(Tag.MsgSeqNum, String(ctx.msgSeqNum));
  out.add(Tag.SendingTime, formatFixTimestamp(ctx.now));
}

/**
 * The client's defaults fill the tags the form did not set (spec 001 §5), values resolved; then the
 * repeating groups the form does not write; then Text: the form's, else the default's.
 */
function applyDefaultsAndText(form: CommonOrderFields, ctx: BuildContext, vars: Record<string, string>, out: FieldList): void {
  const resolve = (value: string, what: string) => {
    const s = substituteVariables(String(value ?? ''), vars);
    for (const name of s.unresolved) out.warnings.push(`Unknown variable %${name}% in ${what}`);
    const text = s.text.trim();
    if (text === '' && s.empty.length > 0)
      out.warnings.push(`The ${what} is left out: ${s.empty.map((n) => `%${n}%`).join(', ')} has no value for this client`);
    return text;
  };
  for (const d of ctx.defaults ?? []) {
    if (!Number.isInteger(d.tag) || d.tag <= 0 || SESSION_TAGS.has(d.tag) || GROUP_TAGS.has(d.tag) || d.tag === Tag.Text || out.has(d.tag))
      continue;
    out.add(d.tag, resolve(d.value, `default for tag ${d.tag}`));
  }
  for (const group of ctx.groups ?? []) {
    if (group.countTag === Tag.NoPartyIDs || group.countTag === Tag.NoLegs || SESSION_TAGS.has(group.countTag) || out.has(group.countTag))
      continue;
    const { entries, unresolved } = resolveGroupInstances(group, vars);
    for (const name of unresolved) out.warnings.push(`Unknown variable %${name}% in group ${group.countTag} default`);
    if (entries.length === 0) continue;
    out.add(group.countTag, String(entries.length));
    for (const entry of entries) for (const [tag, value] of entry) out.add(tag, value);
  }
  if (!blank(form.text)) out.add(Tag.Text, String(form.text).trim());
  else {
    const d = ctx.defaults?.find((x) => x.tag === Tag.Text);
    if (d) out.add(Tag.Text, resolve(d.value, 'default for tag 58'));
  }
}

function warnMissingMandatory(ctx: BuildContext, out: FieldList): void {
  for (const tag of ctx.mandatoryTags ?? []) {
    if (SESSION_TAGS.has(tag) || out.has(tag)) continue;
    out.warnings.push(`Mandatory field ${tag}${TAG_NAMES[tag] ? ` (${TAG_NAMES[tag]})` : ''} is missing`);
  }
}

function orderTerms(form: CommonOrderFields, out: FieldList): void {
  out.add(Tag.OrderQty, flooredQuantity(form.quantity));
  out.add(Tag.OrdType, String(form.orderType ?? '').trim());
  if (String(form.orderType).trim() === OrdType.Limit) out.add(Tag.Price, priceText(form.price));
  out.add(Tag.TimeInForce, blank(form.timeInForce) ? ORDER_FORM_DEFAULTS.timeInForce : String(form.timeInForce).trim());
}

function exDestination(form: CommonOrderFields): string | null {
  const ex = (form.exchange ?? '').trim();
  return ex === '' || ex.toLowerCase() === 'any' ? null : ex;
}

function clOrdIdOf(form: CommonOrderFields, ctx: BuildContext): string {
  return (blank(form.clOrdId) ? ctx.clOrdId : String(form.clOrdId).trim()) ?? '';
}

/** NewOrderSingle (35=D, 167=FUT) for one contract month. */
export function buildNewOrderSingle(form: OutrightOrderForm, ctx: BuildContext): BuiltOrder {
  const out = new FieldList();
  const vars = clientVariables(ctx.client, ctx.now);
  const clOrdId = clOrdIdOf(form, ctx);
  const symbol = (form.symbol ?? '').trim();
  header(MsgType.NewOrderSingle, ctx, out);
  out.add(Tag.ClOrdID, clOrdId);
  resolveParties(form, ctx, vars, out);
  out.add(Tag.ExDestination, exDestination(form));
  out.add(Tag.Symbol, symbol);
  out.add(Tag.SecurityType, SecurityType.Future);
  const maturity = normalizeMaturity(form.contractMonth);
  if (!maturity && !blank(form.contractMonth)) out.warnings.push(`Contract month '${form.contractMonth}' is not a month`);
  out.add(Tag.MaturityMonthYear, maturity);
  out.add(Tag.Side, String(form.side ?? '').trim());
  out.add(Tag.TransactTime, formatFixTimestamp(ctx.now));
  orderTerms(form, out);
  applyDefaultsAndText(form, ctx, vars, out);
  warnMissingMandatory(ctx, out);
  return { msgType: 'D', clOrdId, symbol, legs: [], fields: out.fields, warnings: out.warnings };
}

function buildMultileg(
  form: CommonOrderFields & { side: string },
  symbol: string,
  legs: readonly GeneratedLeg[],
  ctx: BuildContext,
  extraWarnings: string[],
): BuiltOrder {
  const out = new FieldList();
  out.warnings.push(...extraWarnings);
  const vars = clientVariables(ctx.client, ctx.now);
  const clOrdId = clOrdIdOf(form, ctx);
  header(MsgType.NewOrderMultileg, ctx, out);
  out.add(Tag.ClOrdID, clOrdId);
  resolveParties(form, ctx, vars, out);
  out.add(Tag.ExDestination, exDestination(form));
  out.add(Tag.Side, String(form.side ?? '').trim());
  out.add(Tag.Symbol, symbol);
  out.add(Tag.SecurityType, SecurityType.Multileg);
  if (legs.length > 0) {
    out.add(Tag.NoLegs, String(legs.length));
    // FIX 4.4 InstrumentLeg order: LegSymbol first (the group delimiter), then 609, 610, 623, 624.
    for (const leg of legs) {
      out.add(Tag.LegSymbol, leg.symbol);
      out.add(Tag.LegSecurityType, leg.securityType);
      out.add(Tag.LegMaturityMonthYear, normalizeMaturity(leg.maturity) ?? leg.maturity);
      out.add(Tag.LegRatioQty, String(leg.ratio));
      out.add(Tag.LegSide, leg.side);
    }
  }
  out.add(Tag.TransactTime, formatFixTimestamp(ctx.now));
  orderTerms(form, out);
  applyDefaultsAndText(form, ctx, vars, out);
  warnMissingMandatory(ctx, out);
  return { msgType: 'AB', clOrdId, symbol, legs: [...legs], fields: out.fields, warnings: out.warnings };
}

/** NewOrderMultileg (35=AB, 167=MLEG) for quarterSpread, calSpread, basicSpread, quarter and calstrip. */
export function buildNewOrderMultileg(form: MultilegOrderForm, ctx: BuildContext): BuiltOrder {
  const generated = generateMultileg(form);
  const legs = form.legs && form.legs.length > 0 ? form.legs : generated.ok ? generated.strategy.legs : [];
  const symbol = generated.ok ? generated.strategy.symbol : (form.stripSymbol ?? '').trim();
  return buildMultileg(form, symbol, legs, ctx, generated.ok ? [] : [generated.error]);
}

/** NewOrderMultileg (35=AB, 167=MLEG) for a custom combination of buy and sell legs. */
export function buildCustomMultileg(form: CustomMultilegOrderForm, ctx: BuildContext): BuiltOrder {
  const generated = generateCustomMultileg(form);
  const legs = form.legs && form.legs.length > 0 ? form.legs : generated.ok ? generated.strategy.legs : [];
  const symbol = generated.ok ? generated.strategy.symbol : '';
  return buildMultileg(form, symbol, legs, ctx, generated.ok ? [] : [generated.error]);
}

// ───────────────────────────── send validations ─────────────────────────────

export type OrderKind = 'outright' | 'multileg' | 'custom';

const SendText = {
  selectClient: 'Please select a client connector first',
  selectSymbol: 'Please select a symbol',
  noLegsMultileg: 'No legs generated for multileg order',
  noLegsCustom: 'No legs generated for custom order',
  invalidOrderType: (value: string) => IntakeText.invalidOrdType(value),
  limitPriceRequired: IntakeText.limitPriceRequired,
  strategyLimitPriceRequired: IntakeText.strategyLimitPriceRequired,
} as const;

export interface SendCheckInput {
  kind: OrderKind;
  clientSelected: boolean;
  symbol?: string | null;
  legs?: readonly unknown[] | null;
  orderType: unknown;
  price?: unknown;
}

/**
 * The FIX Client screen's checks before sending, in the spec's order, stopping at the first (spec 001 §5).
 * A strategy's limit price only has to be a number: spreads trade at zero or below.
 */
export function validateOrderSend(input: SendCheckInput): string | null {
  if (!input.clientSelected) return SendText.selectClient;
  if (input.kind === 'outright' && blank(input.symbol)) return SendText.selectSymbol;
  if (input.kind !== 'outright' && (!input.legs || input.legs.length === 0)) {
    return input.kind === 'custom' ? SendText.noLegsCustom : SendText.noLegsMultileg;
  }
  const ordType = String(input.orderType ?? '').trim();
  if (ordType !== OrdType.Market && ordType !== OrdType.Limit) return SendText.invalidOrderType(ordType);
  if (ordType === OrdType.Limit) {
    const price = blank(input.price) ? null : Decimal.tryFrom(typeof input.price === 'string' ? input.price.trim() : input.price);
    if (input.kind === 'outright' && (!price || !price.isPositive())) return SendText.limitPriceRequired;
    if (input.kind !== 'outright' && !price) return SendText.strategyLimitPriceRequired;
  }
  return null;
}

export const SimulatorText = {
  selectConnector: 'Please select a Client Connector first',
  symbolAndQuantity: 'Please fill in Symbol and Quantity first',
  limitPrice: 'Please enter Limit Price for limit orders',
  noLegsMultileg: 'No legs found - please select a multileg type first',
  noLegsCustom: 'No legs found - please add buy and sell legs first',
  quantityRange: (min: number, max: number) => `Quantity must be between ${min} and ${max}`,
  spreadPriceRange: (min: number, max: number) => `Spread price must be between ${min} and ${max}`,
  clientNotRunning: 'FIX Client not running. Start client first.',
} as const;

export interface SimulatorSendInput {
  kind: OrderKind;
  connectorSelected: boolean;
  fixClientRunning: boolean;
  symbol?: string | null;
  quantity?: unknown;
  orderType: unknown;
  price?: unknown;
  legs?: readonly unknown[] | null;
  /** Custom strategies need at least one of each. */
  buyLegCount?: number;
  sellLegCount?: number;
}

/**
 * The FIX Client Simulator's checks (spec 000 §5): connector, then what the order needs (symbol and
 * quantity, or generated legs), the limit price, the input ranges, and finally a running FIX client.
 */
export function validateSimulatorSend(input: SimulatorSendInput): string | null {
  if (!input.connectorSelected) return SimulatorText.selectConnector;
  const qty = blank(input.quantity) ? null : Decimal.tryFrom(typeof input.quantity === 'string' ? input.quantity.trim() : input.quantity);
  if (input.kind === 'outright') {
    if (blank(input.symbol) || !qty || !qty.isPositive()) return SimulatorText.symbolAndQuantity;
    const { min, max } = SIMULATOR_INPUT_LIMITS.outrightQuantity;
    if (qty.lt(min) || qty.gt(max)) return SimulatorText.quantityRange(min, max);
  } else if (input.kind === 'custom') {
    if (
      (input.buyLegCount ?? 0) < 1 ||
      (input.sellLegCount ?? 0) < 1 ||
      !input.legs ||
      input.legs.length === 0 ||
      !qty ||
      !qty.isPositive()
    ) {
      return SimulatorText.noLegsCustom;
    }
  } else if (!input.legs || input.legs.length === 0 || !qty || !qty.isPositive()) {
    return SimulatorText.noLegsMultileg;
  }
  if (String(input.orderType ?? '').trim() === OrdType.Limit) {
    const price = blank(input.price) ? null : Decimal.tryFrom(typeof input.price === 'string' ? input.price.trim() : input.price);
    if (!price) return SimulatorText.limitPrice;
    if (input.kind === 'outright' && !price.isPositive()) return SimulatorText.limitPrice;
    if (input.kind !== 'outright') {
      const { min, max } = SIMULATOR_INPUT_LIMITS.spreadPrice;
      if (price.lt(min) || price.gt(max)) return SimulatorText.spreadPriceRange(min, max);
    }
  }
  if (!input.fixClientRunning) return SimulatorText.clientNotRunning;
  return null;
}

// ───────────────────────────── wire text for preview and copy ─────────────────────────────

export const SOH = '\u0001';

const utf8 = new TextEncoder();

/** Sum of the bytes modulo 256, three digits. */
export function fixChecksum(text: string): string {
  let sum = 0;
  for (const byte of utf8.encode(text)) sum = (sum + byte) % 256;
  return String(sum).padStart(3, '0');
}

/**
 * 8=FIX.4.4␁9=len␁…␁10=ccc␁. Tags 8, 9 and 10 in the input are ignored and computed. A value holding the
 * SOH delimiter, an empty value or a tag that is not a positive integer is refused: it cannot be framed.
 */
export function serializeFixMessage(fields: readonly FixField[], beginString = 'FIX.4.4'): string {
  let body = '';
  for (const [tag, value] of fields) {
    if (tag === Tag.BeginString || tag === Tag.BodyLength || tag === Tag.CheckSum) continue;
    if (!Number.isInteger(tag) || tag <= 0) throw new RangeError(`Invalid FIX tag: ${tag}`);
    if (typeof value !== 'string' || value === '') throw new RangeError(`Tag ${tag} has no value`);
    if (value.includes(SOH)) throw new RangeError(`Tag ${tag} value contains the SOH delimiter`);
    body += `${tag}=${value}${SOH}`;
  }
  const head = `8=${beginString}${SOH}9=${utf8.encode(body).length}${SOH}`;
  return `${head}${body}10=${fixChecksum(head + body)}${SOH}`;
}

/** For screens and copying: SOH shown as '|'. */
export function fixForDisplay(raw: string): string {
  return raw.split(SOH).join('|');
}
