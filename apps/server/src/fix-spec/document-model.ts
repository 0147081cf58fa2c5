import {
  getBrokerById,
  getConnector,
  listClientCapabilities,
  listClientDefaults,
  listConnectors,
  listFixFields,
  listGroupDefaults,
  listMessageSpecs,
  listSecurities,
  type DictionaryData,
  type DictionaryItem,
  type GroupInstanceFieldRow,
  type Queryable,
} from '@fixdesk/db';
import {
  buildCustomMultileg,
  buildNewOrderMultileg,
  buildNewOrderSingle,
  clientVariables,
  contractMonthOptions,
  currentYearMonth,
  dropCopyFor,
  EXEC_TYPE_LABELS,
  EXECUTION_REPORT_VARIANTS,
  ORD_STATUS_LABELS,
  FIX_SPEC_FORMAT_VERSION,
  fixForDisplay,
  FREIGHT_CONTRACT_SPECS,
  FREIGHT_EXCHANGES,
  MsgType,
  ORD_TYPE_LABELS,
  ORDER_FORM_DEFAULTS,
  OrdType,
  PartyIDSource,
  PartyRole,
  quarterOptions,
  SecurityType,
  serializeFixMessage,
  Side,
  SIDE_LABELS,
  substituteVariables,
  Tag,
  TIME_IN_FORCE_LABELS,
  usesClock,
  type BuildContext,
  type ClientData,
  type FieldDefault,
  type FixSpecCapability,
  type FixSpecContract,
  type FixSpecDocument,
  type FixSpecExample,
  type FixSpecField,
  type FixSpecMessage,
  type GroupDefault,
} from '@fixdesk/domain';
import { buildSessionConfig, type AcceptorAddress } from '../fix/session-config';
import { clientDataOf } from '../orders/client-profile';

/** The client messages the acceptor takes (fix/gateway.ts fromApp); anything else gets a BusinessMessageReject. */
const ACCEPTED_MSG_TYPES: readonly string[] = [
  MsgType.NewOrderSingle,
  MsgType.NewOrderMultileg,
  MsgType.OrderCancelRequest,
  MsgType.OrderCancelReplaceRequest,
  'H',
];
/** What we send the client besides session messages. */
const SENT_MSG_TYPES: readonly string[] = [MsgType.ExecutionReport, MsgType.OrderCancelReject];

const codeList = (labels: Readonly<Record<string, string>>) => Object.entries(labels).map(([code, label]) => ({ code, label }));

/**
 * The codes the order intake accepts (packages/domain/src/order-intake.ts checks side, type and time in
 * force against the same constants), and ExDestination limited to the exchanges of the security master.
 */
function acceptedCodes(exchangeMics: readonly string[]): Map<number, { code: string; label: string }[]> {
  return new Map([
    [Tag.Side, codeList(SIDE_LABELS)],
    [Tag.LegSide, codeList(SIDE_LABELS)],
    [Tag.OrdType, codeList(ORD_TYPE_LABELS)],
    [Tag.TimeInForce, codeList(TIME_IN_FORCE_LABELS)],
    [
      Tag.SecurityType,
      [
        { code: SecurityType.Future, label: 'Future (35=D)' },
        { code: SecurityType.Multileg, label: 'Multileg (35=AB)' },
      ],
    ],
    [Tag.LegSecurityType, [{ code: SecurityType.Future, label: 'Future' }]],
    [Tag.ExDestination, exchangeMics.map((mic) => ({ code: mic, label: FREIGHT_EXCHANGES.find((e) => e.mic === mic)?.name ?? mic }))],
    [
      Tag.PartyIDSource,
      [
        { code: PartyIDSource.Proprietary, label: 'Proprietary (the LEI travels as one in FIX 4.4)' },
        { code: PartyIDSource.LEI, label: 'LEI' },
      ],
    ],
    [
      Tag.PartyRole,
      [
        { code: PartyRole.EnteringFirm, label: 'Entering Firm' },
        { code: PartyRole.OrderOriginationTrader, label: 'Order Origination Trader' },
      ],
    ],
  ]);
}

/** The OrdStatus values a report of this ExecType carries (spec 001 §4's variants). */
function reportStatuses(execType: string): { code: string; label: string }[] | undefined {
  const codes = [...new Set(EXECUTION_REPORT_VARIANTS.filter((v) => v.execType === execType).flatMap((v) => v.ordStatus.split('/')))];
  return codes.length
    ? codes.map((code) => ({ code, label: ORD_STATUS_LABELS[code as keyof typeof ORD_STATUS_LABELS] ?? code }))
    : undefined;
}

const codesText = (codes: readonly { code: string; label: string }[]) => codes.map((c) => `${c.code}=${c.label}`).join(', ');

export interface DocumentSources {
  db: Queryable;
  dictionary: DictionaryData;
  acceptor: AcceptorAddress;
}

export interface DocumentRequest {
  compId: string;
  /** The executing broker; the connector's own when absent. */
  brokerId?: number | null;
  /** Whether the reader may see the client's capabilities (administrators). */
  withCapabilities: boolean;
  now: Date;
  version?: number | null;
  /** What the export dialog confirmed (spec 001 §5); the connector's values otherwise. */
  clientName?: string;
  clientContact?: string;
}

interface FieldRef {
  field_number: number;
  field_name: string;
  field_type: string;
  description: string | null;
  valid_values_display: string | null;
}

interface SpecRow {
  msg_type: string;
  msg_name: string | null;
  exec_type: string | null;
  field_number: number;
  field_name: string;
  field_type: string;
  is_mandatory: boolean;
  description: string | null;
}

function groupsOf(rows: readonly GroupInstanceFieldRow[]): GroupDefault[] {
  const byGroup = new Map<number, Map<number, FieldDefault[]>>();
  for (const r of rows) {
    if (!byGroup.has(r.group_field_number)) byGroup.set(r.group_field_number, new Map());
    const instances = byGroup.get(r.group_field_number)!;
    if (!instances.has(r.group_instance_number)) instances.set(r.group_instance_number, []);
    instances.get(r.group_instance_number)!.push({ tag: r.tag, value: r.default_value });
  }
  return [...byGroup].map(([countTag, instances]) => ({ countTag, instances: [...instances.values()] }));
}

/** A default as the client will see it: variables resolved, a clock variable kept as written. */
function shownDefault(raw: string, variables: Record<string, string>): string {
  return usesClock(raw) ? raw : substituteVariables(raw, variables).text.trim();
}

/** The header or trailer of the dictionary as field rows. */
function dictionaryFields(items: readonly DictionaryItem[], data: DictionaryData, fields: Map<number, FieldRef>): FixSpecField[] {
  const out: FixSpecField[] = [];
  for (const item of items) {
    if (!('field' in item)) continue;
    const def = data.fields.find((f) => f.tag === item.field);
    const ref = fields.get(item.field);
    out.push({
      tag: item.field,
      name: def?.name ?? ref?.field_name ?? String(item.field),
      type: def?.type ?? ref?.field_type ?? '',
      required: item.required,
      description: ref?.description ?? '',
      validValues: ref?.valid_values_display ?? '',
      clientDefault: null,
    });
  }
  return out;
}

/**
 * The FIX specification of one client, from the configuration the engine enforces: the connector (and
 * the acceptor's real ports) for the session, the security master for the contracts, the message specs
 * for the fields, the client's defaults and Parties for the values, its capabilities for what it may
 * trade, and examples built by the order builders the simulators use. Undefined for an unknown client.
 */
export async function buildFixSpecDocument(src: DocumentSources, req: DocumentRequest): Promise<FixSpecDocument | undefined> {
  const c = await getConnector(src.db, req.compId);
  if (!c) return undefined;
  const brokerId = req.brokerId ?? c.broker_id;
  const broker = brokerId ? await getBrokerById(src.db, brokerId) : undefined;
  const client = clientDataOf({
    ...c,
    b_company_name: broker?.company_name ?? null,
    b_lei: broker?.lei ?? null,
    b_party_id: broker?.party_id ?? null,
  });
  const variables = clientVariables(client);

  const [securities, specRows, fieldRows, connectors] = await Promise.all([
    listSecurities(src.db),
    listMessageSpecs(src.db) as unknown as Promise<SpecRow[]>,
    listFixFields(src.db) as unknown as Promise<FieldRef[]>,
    listConnectors(src.db),
  ]);
  const fields = new Map(fieldRows.map((f) => [f.field_number, f]));
  const dropCopy = dropCopyFor(
    c.comp_id,
    connectors.map((k) => ({ compId: k.comp_id, sessionType: k.session_type, dropCopyOf: k.drop_copy_of ?? [], active: k.is_active })),
  );
  // A drop copy session sends no orders and receives the desk's copies in the standard shape: none of the
  // client messages, no configured defaults, no order examples, no capabilities (docs/adr/0017 point 4).
  const copiesOnly = dropCopy?.role === 'dropCopySession';

  // ── About: the security master, with the contract specs where the master leaves them out
  const contracts: FixSpecContract[] = securities.map((s) => {
    const symbol = String(s.symbol);
    const spec = FREIGHT_CONTRACT_SPECS.find((f) => f.symbol === symbol);
    const str = (v: unknown, fallback = '') => (v === null || v === undefined || v === '' ? fallback : String(v));
    return {
      symbol,
      instrumentName: str(s.instrument_name, spec?.instrument_name ?? symbol),
      description: str(s.description, spec?.description ?? ''),
      contractSize: str(s.contract_size, spec?.contract_size ?? ''),
      contractUnit: str(s.contract_unit, spec?.contract_unit ?? ''),
      priceTick: str(s.price_tick_size, spec?.price_tick_size ?? ''),
      qtyTick: str(s.qty_tick_size, spec?.qty_tick_size ?? ''),
      seriesMonths: s.series_months === null || s.series_months === undefined ? (spec?.series_months ?? null) : Number(s.series_months),
      currency: str(s.currency, 'USD'),
      exchanges: str(s.exchange_mics, spec?.exchange_mics ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
      active: s.is_active === true,
    };
  });
  const mics = [...new Set(contracts.flatMap((k) => k.exchanges))].sort();
  const accepted = acceptedCodes(mics);

  // ── Messages: the specs, the codes we accept, the client's defaults and Parties
  const grouped = new Map<string, { msgType: string; name: string; execType: string | null; rows: SpecRow[] }>();
  for (const r of specRows) {
    const direction = ACCEPTED_MSG_TYPES.includes(r.msg_type) ? 'in' : SENT_MSG_TYPES.includes(r.msg_type) ? 'out' : null;
    if (!direction || (copiesOnly && direction === 'in')) continue;
    const k = `${r.msg_type}|${r.exec_type ?? ''}`;
    if (!grouped.has(k)) grouped.set(k, { msgType: r.msg_type, name: r.msg_name ?? r.msg_type, execType: r.exec_type, rows: [] });
    grouped.get(k)!.rows.push(r);
  }
  const order = (m: { msgType: string }) => [...ACCEPTED_MSG_TYPES, ...SENT_MSG_TYPES].indexOf(m.msgType);
  const messages: FixSpecMessage[] = [];
  const defaultsFor = new Map<string, { defaults: FieldDefault[]; groups: GroupDefault[] }>();
  for (const g of [...grouped.values()].sort((a, b) => order(a) - order(b))) {
    const [defaultRows, groupRows] = copiesOnly
      ? [[], []]
      : await Promise.all([
          listClientDefaults(src.db, c.id, g.msgType, g.execType),
          listGroupDefaults(src.db, c.id, g.msgType, g.execType),
        ]);
    const groups = groupsOf(groupRows);
    defaultsFor.set(`${g.msgType}|${g.execType ?? ''}`, {
      defaults: defaultRows.map((d) => ({ tag: d.tag, value: d.default_value })),
      groups,
    });
    const direction = ACCEPTED_MSG_TYPES.includes(g.msgType) ? 'in' : 'out';
    const defaults = new Map(defaultRows.map((d) => [d.tag, shownDefault(d.default_value, variables)]));
    const fieldOf = (tag: number, required: boolean, name?: string, type?: string, description?: string | null): FixSpecField => {
      const ref = fields.get(tag);
      // What we send back echoes what the client sent (side, type, time in force): the same codes both ways.
      const codes = accepted.get(tag) ?? (tag === Tag.OrdStatus && g.execType ? reportStatuses(g.execType) : undefined);
      return {
        tag,
        name: name ?? ref?.field_name ?? String(tag),
        type: type ?? ref?.field_type ?? '',
        required,
        description: description ?? ref?.description ?? '',
        validValues: codes
          ? codesText(codes)
          : tag === Tag.ExecType && g.execType
            ? `${g.execType}=${EXEC_TYPE_LABELS[g.execType as keyof typeof EXEC_TYPE_LABELS] ?? g.execType}`
            : (ref?.valid_values_display ?? ''),
        clientDefault: defaults.get(tag) ?? null,
      };
    };
    const out = g.rows.map((r) => fieldOf(r.field_number, r.is_mandatory, r.field_name, r.field_type, r.description));
    // Defaults on fields the spec does not list still reach the wire (e.g. Account on every report).
    for (const d of defaultRows) if (!out.some((f) => f.tag === d.tag)) out.push(fieldOf(d.tag, false));
    for (const grp of groups) {
      const text = grp.instances.map((inst) => inst.map((f) => `${f.tag}=${shownDefault(f.value, variables)}`).join(' ')).join(' | ');
      const existing = out.find((f) => f.tag === grp.countTag);
      const value = `${grp.instances.length} × ${text}`;
      if (existing) existing.clientDefault = value;
      else out.push({ ...fieldOf(grp.countTag, false), clientDefault: value });
    }
    if (copiesOnly) copyFields(g.msgType, out, fieldOf);
    messages.push({ msgType: g.msgType, name: g.name, execType: g.execType, direction, fields: out });
  }

  // ── Examples: the simulators' builders with this client's defaults
  const examples = copiesOnly
    ? []
    : buildExamples(
        contracts.filter((k) => k.active).map((k) => k.symbol),
        client,
        defaultsFor,
        req.now,
      );

  // ── Session: the connector and the acceptor's real ports (the session-config endpoint's own view)
  const cfg = buildSessionConfig(c, src.acceptor, req.now);
  const session = {
    fixVersion: c.fix_version,
    heartBtInt: c.heartbeatint,
    host: cfg.host,
    port: src.acceptor.port,
    tlsPort: cfg.tls.port,
    tlsRequired: cfg.tls.enabled,
    senderCompId: c.comp_id,
    targetCompId: c.target_comp_id,
    schedule: cfg.schedule,
    resetPolicy: cfg.resetPolicy,
    credentials: cfg.credentials,
    maxOrdersPerSecond: c.max_orders_per_second,
    header: dictionaryFields(src.dictionary.header, src.dictionary, fields),
    trailer: dictionaryFields(src.dictionary.trailer, src.dictionary, fields),
  };

  let capabilities: FixSpecCapability[] | null = null;
  if (req.withCapabilities && !copiesOnly) {
    capabilities = (await listClientCapabilities(src.db, c.id))
      .map((r) => ({
        symbol: r.symbol ?? 'All Securities',
        exchange: r.exchange,
        enabled: r.is_enabled,
        canBuy: r.can_buy,
        canSell: r.can_sell,
        canShort: r.can_short,
        minOrderQty: r.min_order_qty,
        maxOrderQty: r.max_order_qty,
        maxPositionLong: r.max_position_long,
        maxPositionShort: r.max_position_short,
        marketIdentifier: r.market_identifier,
      }))
      .sort((a, b) => a.symbol.localeCompare(b.symbol) || (a.exchange ?? '').localeCompare(b.exchange ?? ''));
  }

  return {
    formatVersion: FIX_SPEC_FORMAT_VERSION,
    generatedAt: req.now.toISOString(),
    version: req.version ?? null,
    client: {
      compId: c.comp_id,
      targetCompId: c.target_comp_id,
      clientName: req.clientName ?? c.client_name ?? c.comp_id,
      clientContact: req.clientContact ?? c.client_contact ?? '',
      clientEmail: c.client_email,
      companyName: c.company_name,
      lei: c.client_lei,
    },
    broker: broker ? { id: broker.id, companyName: broker.company_name, lei: broker.lei, partyId: broker.party_id } : null,
    contracts,
    exchanges: FREIGHT_EXCHANGES.filter((e) => mics.includes(e.mic)),
    messages,
    examples,
    session,
    capabilities,
    dropCopy,
  };
}

/**
 * The fields that make a message a drop copy, on the drop copy session's own specification: 35=8 carries
 * CopyMsgIndicator (797)=Y and a first Parties entry naming the client; 35=9 names the client in Account (1).
 */
function copyFields(
  msgType: string,
  out: FixSpecField[],
  fieldOf: (tag: number, required: boolean, name?: string, type?: string, description?: string | null) => FixSpecField,
): void {
  const put = (f: FixSpecField) => {
    const i = out.findIndex((x) => x.tag === f.tag);
    if (i >= 0) out[i] = f;
    else out.push(f);
  };
  if (msgType === MsgType.ExecutionReport) {
    put({ ...fieldOf(Tag.CopyMsgIndicator, true, 'CopyMsgIndicator', 'BOOLEAN'), validValues: 'Y=Yes (a drop copy)', clientDefault: 'Y' });
    put({
      ...fieldOf(Tag.NoPartyIDs, true, 'NoPartyIDs', 'NUMINGROUP'),
      description:
        "The first entry names the client: PartyID (448) its SenderCompID, PartyIDSource (447) D, PartyRole (452) 3 Client ID; the order's own parties follow",
    });
  } else if (msgType === MsgType.OrderCancelReject) {
    put({
      ...fieldOf(Tag.Account, true, 'Account', 'STRING'),
      description: "The client's SenderCompID: the client whose cancel reject this copies",
    });
  }
}

/** One example per order-entry tab, as the FIX Client Simulator would build it for this client. */
function buildExamples(
  symbols: readonly string[],
  client: ClientData,
  defaultsFor: Map<string, { defaults: FieldDefault[]; groups: GroupDefault[] }>,
  now: Date,
): FixSpecExample[] {
  const symbol = symbols[0];
  if (!symbol) return [];
  const second = symbols[1] ?? symbol;
  const months = contractMonthOptions(now);
  const quarters = quarterOptions(now);
  const year = currentYearMonth(now).year;
  const common = {
    side: Side.Buy,
    orderType: OrdType.Limit,
    timeInForce: ORDER_FORM_DEFAULTS.timeInForce,
    exchange: ORDER_FORM_DEFAULTS.exchange,
    quantity: ORDER_FORM_DEFAULTS.quantity,
  };
  const ctx = (msgType: 'D' | 'AB', n: number): BuildContext => ({
    client,
    now,
    clOrdId: `${client.executionIdPrefix ?? 'EX'}-EXAMPLE-${n}`,
    msgSeqNum: n + 1,
    defaults: defaultsFor.get(`${msgType}|`)?.defaults,
    groups: defaultsFor.get(`${msgType}|`)?.groups,
  });
  const out: FixSpecExample[] = [];
  const add = (
    kind: FixSpecExample['kind'],
    title: string,
    build: () => { msgType: 'D' | 'AB'; fields: readonly (readonly [number, string])[] },
  ) => {
    try {
      const b = build();
      out.push({ kind, title, msgType: b.msgType, fix: fixForDisplay(serializeFixMessage(b.fields, 'FIX.4.4')) });
    } catch {
      // An example that cannot be built for this configuration is left out rather than shown wrong.
    }
  };
  add('outright', `Outright: buy ${ORDER_FORM_DEFAULTS.quantity} ${symbol} ${months[1]!.label}`, () =>
    buildNewOrderSingle({ ...common, symbol, contractMonth: months[1]!.value, price: ORDER_FORM_DEFAULTS.outrightPrice }, ctx('D', 1)),
  );
  add('multileg', `MultiLeg: ${symbol} ${quarters[1]!.label} quarter strip`, () =>
    buildNewOrderMultileg(
      {
        ...common,
        price: ORDER_FORM_DEFAULTS.multilegPrice,
        type: 'quarter',
        stripSymbol: symbol,
        quarterYear: quarters[1]!.value,
        calYear: String(year + 1),
      },
      ctx('AB', 2),
    ),
  );
  add('custom', `Custom MultiLeg: buy ${symbol} ${months[1]!.label}, sell ${second} ${months[2]!.label}`, () =>
    buildCustomMultileg(
      {
        ...common,
        price: ORDER_FORM_DEFAULTS.multilegPrice,
        buyLegs: [{ type: 'single', symbol, contractMonth: months[1]!.value }],
        sellLegs: [{ type: 'single', symbol: second, contractMonth: months[2]!.value }],
      },
      ctx('AB', 3),
    ),
  );
  return out;
}
