/**
 * The order-entry forms shared by the FIX Client Simulator and the FIX Client (spec 000 §2, spec 001 §3):
 * their values, defaults, and the step from a form to the FIX message. Every rule (legs, ratios, labels,
 * builders, validations) is the domain package's; this module only wires form values into it.
 */
import {
  buildCustomMultileg,
  buildNewOrderMultileg,
  buildNewOrderSingle,
  contractMonthOptions,
  currentYearMonth,
  EXCHANGE_OPTIONS,
  generateCustomMultileg,
  generateMultileg,
  ORDER_FORM_DEFAULTS,
  OrdType,
  quarterOptions,
  serializeFixMessage,
  Side,
  validateOrderSend,
  validateSimulatorSend,
  type BuiltOrder,
  type ClientData,
  type GeneratedLeg,
  type MultilegType,
  type OrdTypeCode,
  type SideCode,
  type StrategyLegType,
} from '@fixdesk/domain';
import type { ClientConnector } from '@fixdesk/protocol';
import type { BrokerRef, ClientMessageDefaults } from '@fixdesk/client';

export type OrderKind = 'outright' | 'multileg' | 'custom';
export type NumberValue = number | string;

interface CommonValues {
  side: SideCode;
  orderType: OrdTypeCode;
  timeInForce: string;
  exchange: string;
  quantity: NumberValue;
  price: NumberValue;
  text: string;
  /** Blank: the next id by the client order id rule. */
  clOrdId: string;
  /** Blank: the client's Parties default for role 7, else the connector's LEI. */
  enteringFirmLEI: string;
  /** Blank: the client's Parties default for role 11, else the connector's contact. */
  traderName: string;
}

export interface OutrightValues extends CommonValues {
  symbol: string;
  contractMonth: string;
}

export interface MultilegValues extends CommonValues {
  type: MultilegType;
  stripSymbol: string;
  quarterYear: string;
  quarterYear2: string;
  calYear: string;
  calYear2: string;
  month1: string;
  month2: string;
}

export interface StrategyLegValues {
  /** A stable key for the leg table. */
  key: string;
  type: StrategyLegType;
  symbol: string;
  contractMonth: string;
  quarterYear: string;
  calYear: string;
}

export interface CustomValues extends CommonValues {
  buyLegs: StrategyLegValues[];
  sellLegs: StrategyLegValues[];
}

export interface OrderFormValues {
  outright: OutrightValues;
  multileg: MultilegValues;
  custom: CustomValues;
}

export const EXCHANGES = EXCHANGE_OPTIONS;

let legKeys = 0;
function newLegKey(): string {
  legKeys += 1;
  return `leg-${legKeys}`;
}

export function defaultStrategyLeg(now: Date, symbol: string, monthOffset: number): StrategyLegValues {
  const months = contractMonthOptions(now);
  const quarters = quarterOptions(now);
  const year = currentYearMonth(now).year;
  return {
    key: newLegKey(),
    type: 'single',
    symbol,
    contractMonth: months[Math.min(monthOffset, months.length - 1)]!.value,
    quarterYear: quarters[Math.min(1 + monthOffset, quarters.length - 1)]!.value,
    calYear: String(year + 1),
  };
}

/** Spec 001 §9 defaults: quantity 10, outright price 27000, multileg price 100, exchange Any, day order. */
export function defaultOrderForms(now: Date, firstSymbol = ''): OrderFormValues {
  const months = contractMonthOptions(now);
  const quarters = quarterOptions(now);
  const year = currentYearMonth(now).year;
  const common = {
    side: Side.Buy,
    orderType: OrdType.Limit,
    timeInForce: ORDER_FORM_DEFAULTS.timeInForce,
    exchange: ORDER_FORM_DEFAULTS.exchange,
    quantity: ORDER_FORM_DEFAULTS.quantity,
    text: '',
    clOrdId: '',
    enteringFirmLEI: '',
    traderName: '',
  } as const;
  return {
    outright: { ...common, symbol: firstSymbol, contractMonth: months[1]!.value, price: ORDER_FORM_DEFAULTS.outrightPrice },
    multileg: {
      ...common,
      price: ORDER_FORM_DEFAULTS.multilegPrice,
      type: 'quarter',
      stripSymbol: firstSymbol,
      quarterYear: quarters[1]!.value,
      quarterYear2: quarters[2]!.value,
      calYear: String(year + 1),
      calYear2: String(year + 2),
      month1: months[1]!.value,
      month2: months[2]!.value,
    },
    custom: {
      ...common,
      price: ORDER_FORM_DEFAULTS.multilegPrice,
      buyLegs: [defaultStrategyLeg(now, firstSymbol, 1)],
      sellLegs: [defaultStrategyLeg(now, firstSymbol, 2)],
    },
  };
}

/** What the builders need of the selected connector and its broker: the client is the sender. */
export function clientDataOf(connector: ClientConnector, broker?: BrokerRef | null): ClientData {
  return {
    compId: connector.comp_id,
    targetCompId: connector.target_comp_id,
    clientName: connector.client_name,
    clientLei: connector.client_lei ?? connector.lei,
    clientContact: connector.client_contact,
    clientEmail: connector.client_email,
    clientPhone: connector.client_phone,
    companyName: connector.company_name,
    executionIdPrefix: connector.execution_id_prefix,
    brokerName: broker?.company_name,
    brokerLei: broker?.lei,
    brokerPartyId: broker?.party_id,
  };
}

/** The message type an order-entry tab builds. */
export function msgTypeOf(kind: OrderKind): 'D' | 'AB' {
  return kind === 'outright' ? 'D' : 'AB';
}

/** The generated legs of a standard or custom strategy (for the leg table), or the reason there are none. */
export function strategyLegs(
  kind: Exclude<OrderKind, 'outright'>,
  forms: OrderFormValues,
): { legs: GeneratedLeg[]; symbol: string; error: string | null } {
  const r =
    kind === 'multileg'
      ? generateMultileg(forms.multileg)
      : generateCustomMultileg({ side: forms.custom.side, buyLegs: forms.custom.buyLegs, sellLegs: forms.custom.sellLegs });
  return r.ok ? { legs: r.strategy.legs, symbol: r.strategy.symbol, error: null } : { legs: [], symbol: '', error: r.error };
}

export interface MessageContext {
  connector: ClientConnector;
  /** ClOrdID when the form leaves it blank. */
  clOrdId: string;
  now: Date;
  /** For a complete preview (the session assigns the real one). */
  msgSeqNum?: number;
  mandatoryTags?: readonly number[];
  /** The client's FIX defaults for this message type: fill what the form leaves out, %variables% resolved. */
  clientDefaults?: ClientMessageDefaults;
  /** The connector's executing broker, for %BROKER_…% variables. */
  broker?: BrokerRef | null;
}

export interface BuiltMessage {
  built: BuiltOrder;
  /** The wire text with BodyLength and CheckSum. */
  raw: string;
}

/** The FIX message for the active tab, built by the domain's shared builders. */
export function buildOrderMessage(kind: OrderKind, forms: OrderFormValues, ctx: MessageContext): BuiltMessage {
  const base = {
    client: clientDataOf(ctx.connector, ctx.broker),
    now: ctx.now,
    clOrdId: ctx.clOrdId,
    msgSeqNum: ctx.msgSeqNum,
    defaults: ctx.clientDefaults?.defaults,
    groups: ctx.clientDefaults?.groups,
    mandatoryTags: ctx.mandatoryTags,
  };
  const built =
    kind === 'outright'
      ? buildNewOrderSingle(forms.outright, base)
      : kind === 'multileg'
        ? buildNewOrderMultileg(forms.multileg, base)
        : buildCustomMultileg({ ...forms.custom }, base);
  return { built, raw: serializeFixMessage(built.fields) };
}

function valuesOf(kind: OrderKind, forms: OrderFormValues): CommonValues {
  return kind === 'outright' ? forms.outright : kind === 'multileg' ? forms.multileg : forms.custom;
}

/** The FIX Client Simulator's checks before sending (spec 000 §5), first failure only. */
export function simulatorSendProblem(
  kind: OrderKind,
  forms: OrderFormValues,
  state: { connectorSelected: boolean; fixClientRunning: boolean },
): string | null {
  const values = valuesOf(kind, forms);
  const legs = kind === 'outright' ? [] : strategyLegs(kind, forms).legs;
  return validateSimulatorSend({
    kind,
    connectorSelected: state.connectorSelected,
    fixClientRunning: state.fixClientRunning,
    symbol: kind === 'outright' ? forms.outright.symbol : undefined,
    quantity: values.quantity,
    orderType: values.orderType,
    price: values.price,
    legs,
    buyLegCount: forms.custom.buyLegs.length,
    sellLegCount: forms.custom.sellLegs.length,
  });
}

/** The FIX Client's checks before sending (spec 001 §5), in order, first failure only. */
export function clientSendProblem(kind: OrderKind, forms: OrderFormValues, clientSelected: boolean): string | null {
  const values = valuesOf(kind, forms);
  return validateOrderSend({
    kind,
    clientSelected,
    symbol: kind === 'outright' ? forms.outright.symbol : undefined,
    legs: kind === 'outright' ? [] : strategyLegs(kind, forms).legs,
    orderType: values.orderType,
    price: values.price,
  });
}
