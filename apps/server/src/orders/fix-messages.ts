import type { CopiedOrderRow, CopiedReportRow, OrderLegRow, RefusalCopyFacts, RefusalTerms, UnsentCancelRejectRow } from '@fixdesk/db';
import { ExecType, isSideCode, Side } from '@fixdesk/domain';
import { Dictionary, formatUtcTimestamp } from '@fixdesk/fix';
import { entriesAt, key, valueAt, type ClientProfile } from './client-profile';

/** An application message for a client session: body pairs in wire order (QuickFIX order). */
interface OutboundAppMessage {
  msgType: string;
  body: Array<[number, string]>;
}

// Member order inside the groups we write, as the FIX 4.4 dictionary lists them.
const GROUP_MEMBER_ORDER: Record<number, number[]> = {
  453: [448, 447, 452, 802],
  555: [
    600, 601, 602, 603, 607, 608, 609, 610, 611, 612, 613, 614, 615, 616, 617, 618, 619, 620, 621, 622, 623, 624, 556, 740, 739, 955, 956,
    687, 690, 539, 564, 565, 654, 566, 587, 588, 637,
  ],
};

/** Canonical decimal text for the wire: no exponent, no trailing zeros after the point. */
export function wireDecimal(v: string | null | undefined): string | undefined {
  if (v === null || v === undefined) return undefined;
  let s = String(v);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  if (s === '-0') s = '0';
  return s;
}

const FIX44 = Dictionary.fix44();

class BodyBuilder {
  private readonly fields = new Map<number, string>();
  private readonly groups = new Map<number, Array<Array<[number, string]>>>();

  set(tag: number, value: string | number | null | undefined): this {
    if (value === null || value === undefined || value === '') return this;
    this.fields.set(tag, String(value));
    return this;
  }
  setIfAbsent(tag: number, value: string): this {
    if (!this.fields.has(tag) && !this.groups.has(tag)) this.fields.set(tag, value);
    return this;
  }
  group(countTag: number, entries: Array<Array<[number, string]>>): this {
    const order = GROUP_MEMBER_ORDER[countTag];
    const sorted = entries.map((e) => (order ? [...e].sort((a, b) => rank(order, a[0]) - rank(order, b[0])) : e));
    if (sorted.length) this.groups.set(countTag, sorted);
    this.fields.delete(countTag);
    return this;
  }
  has(tag: number): boolean {
    return this.fields.has(tag) || this.groups.has(tag);
  }
  /** Puts one entry first in a group, before the entries it holds. */
  firstEntry(countTag: number, entry: Array<[number, string]>): this {
    return this.group(countTag, [entry, ...(this.groups.get(countTag) ?? [])]);
  }
  /** Puts one entry in a group: in place of the entries `replaces` picks, or after the others. */
  entry(countTag: number, entry: Array<[number, string]>, replaces: (e: Array<[number, string]>) => boolean): this {
    const kept = (this.groups.get(countTag) ?? []).filter((e) => !replaces(e));
    return this.group(countTag, [...kept, entry]);
  }
  /**
   * The body in QuickFIX order. Tags the FIX 4.4 dictionary does not define for this message (a
   * mistyped client default, say) are left out and reported, so the client never has to reject.
   */
  build(msgType: string, dropped: string[], replaced: string[] = []): Array<[number, string]> {
    const def = FIX44.message(msgType);
    const tags: number[] = [];
    const keep = (tag: number) => {
      if (!def || def.body.has(tag)) tags.push(tag);
      else dropped.push(String(tag));
    };
    for (const tag of this.fields.keys()) keep(tag);
    // Once each: a group's count tag set as a field too goes out as the group.
    for (const tag of this.groups.keys()) if (!this.fields.has(tag)) keep(tag);
    tags.sort(ascending);
    const out: Array<[number, string]> = [];
    for (const tag of tags) {
      const entries = this.groups.get(tag);
      if (entries) {
        out.push([tag, String(entries.length)]);
        for (const e of entries) for (const [t, v] of e) out.push([t, wireText(t, v, replaced)]);
      } else out.push([tag, wireText(tag, this.fields.get(tag)!, replaced)]);
    }
    return out;
  }
}

const ascending = (a: number, b: number) => a - b;

const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;
const BEYOND_LATIN1_ALL = /[^\u0000-\u00ff]/g;

/**
 * A value as the wire can carry it: FIX text fields are single bytes here, so a character beyond
 * Latin-1 (a client name in a default, say) becomes '?' and the tag is reported, instead of the whole
 * report failing to encode and blocking every report behind it.
 */
function wireText(tag: number, value: string, replaced: string[]): string {
  if (!BEYOND_LATIN1.test(value)) return value;
  replaced.push(String(tag));
  return value.replace(BEYOND_LATIN1_ALL, '?');
}

const rank = (order: number[], tag: number) => {
  const i = order.indexOf(tag);
  return i < 0 ? 10_000 + tag : i;
};

/**
 * Applies the client's configured defaults and group instances for this message type / ExecType to the
 * fields the message does not carry yet (an ExecType's own defaults before the message type's general
 * ones), %variables% resolved for a message built at `now`.
 */
function applyProfile(b: BodyBuilder, profile: ClientProfile | undefined, msgType: string, execType: string | null, now: Date): string[] {
  if (!profile) return [];
  const keys = execType === null ? [key(msgType, null)] : [key(msgType, execType), key(msgType, null)];
  for (const k of keys) {
    for (const [tag, v] of profile.defaults.get(k) ?? []) {
      const value = valueAt(v, profile, now);
      if (value !== '') b.setIfAbsent(tag, value);
    }
    for (const [countTag, group] of profile.groups.get(k) ?? []) if (!b.has(countTag)) b.group(countTag, entriesAt(group, profile, now));
  }
  const missing = (profile.mandatory.get(key(msgType, execType)) ?? []).filter((t) => !b.has(t));
  return missing.map(String);
}

export interface BuiltMessage extends OutboundAppMessage {
  /** Mandatory fields of the client's spec that have no value (logged; the report still goes out). */
  missingMandatory: string[];
  /** Configured tags not defined for this message type in FIX 4.4, left out (logged). */
  dropped: string[];
  /** Tags whose value had characters beyond Latin-1, sent as '?' (logged). */
  replaced: string[];
}

/**
 * What makes a message a drop copy (docs/adr/0017): the client whose report it copies. A copy is built
 * by the same builders as the client's message, with the desk's standard shape (no client profile).
 */
interface CopyOf {
  clientCompId: string;
}

/** Marks an execution report as a copy: CopyMsgIndicator, and the client named first among the parties (PartyRole 3: Client ID). */
function markCopy(b: BodyBuilder, copyOf: CopyOf | undefined): void {
  if (!copyOf) return;
  b.set(797, 'Y').firstEntry(453, [
    [448, copyOf.clientCompId],
    [447, 'D'],
    [452, '3'],
  ]);
}

/**
 * The ExecutionReport (35=8) for a stored report row, shaped for the client; with `copyOf`, the drop
 * copy of it (see buildDropCopy).
 */
export function buildExecutionReport(
  er: CopiedReportRow,
  order: CopiedOrderRow,
  legs: OrderLegRow[],
  profile: ClientProfile | undefined,
  copyOf?: CopyOf,
): BuiltMessage {
  const b = new BodyBuilder()
    .set(37, er.orderid)
    .set(11, er.clordid)
    .set(41, er.origclordid)
    .set(17, er.execid)
    .set(150, er.exectype)
    .set(39, er.ordstatus)
    .set(103, er.ordrejreason)
    .set(55, order.symbol)
    .set(167, order.security_type)
    .set(200, order.maturity_month_year)
    .set(54, order.side)
    .set(38, wireDecimal(er.orderqty ?? order.orderqty))
    .set(40, order.ordtype)
    .set(44, wireDecimal(er.price ?? order.price))
    .set(59, order.timeinforce)
    // ExDestination (100) is not an ExecutionReport field in FIX 4.4; the market goes in SecurityExchange.
    .set(207, order.exchange)
    .set(15, order.currency)
    .set(1, order.account)
    .set(151, wireDecimal(er.leavesqty))
    .set(14, wireDecimal(er.cumqty))
    .set(6, wireDecimal(er.avgpx))
    .set(60, formatUtcTimestamp(er.transacttime))
    .set(58, er.text);
  if (er.exectype === ExecType.Trade) {
    b.set(32, wireDecimal(er.lastqty)).set(31, wireDecimal(er.lastpx));
  }
  if (legs.length) {
    // MultiLegReportingType: 3 for a report on the whole multileg order, 2 for a fill of one leg.
    b.set(442, er.leg_index !== null && er.leg_index !== undefined ? '2' : '3');
    b.group(
      555,
      legs.map((l) => {
        const entry: Array<[number, string]> = [
          [600, l.leg_symbol],
          ...(l.leg_security_type ? [[609, l.leg_security_type] as [number, string]] : []),
          ...(l.leg_maturity_month_year ? [[610, l.leg_maturity_month_year] as [number, string]] : []),
          [623, wireDecimal(l.leg_ratio_qty)!],
          [624, l.leg_side],
        ];
        // A leg fill names the leg's executed quantity and price.
        if (er.exectype === ExecType.Trade && er.leg_index === l.leg_index) {
          entry.push([687, wireDecimal(er.lastqty)!], [637, wireDecimal(er.lastpx)!]);
        }
        return entry;
      }),
    );
  }
  const missingMandatory = applyProfile(b, profile, '8', er.exectype, er.transacttime);
  if (er.executing_trader_id) {
    // The broker-type user who acted is the executing trader (PartyRole 12), their full name a
    // contact-name sub-ID (803=9); it replaces an executing trader the client's defaults configure.
    const trader: Array<[number, string]> = [
      [448, er.executing_trader_id],
      [447, er.executing_trader_source ?? 'D'],
      [452, '12'],
    ];
    if (er.executing_trader_name) trader.push([802, '1'], [523, er.executing_trader_name], [803, '9']);
    b.entry(453, trader, (e) => e.some(([t, v]) => t === 452 && v === '12'));
  }
  markCopy(b, copyOf);
  const dropped: string[] = [];
  const replaced: string[] = [];
  return { msgType: '8', body: b.build('8', dropped, replaced), missingMandatory, dropped, replaced };
}

export interface CancelRejectInput {
  orderid: string;
  clordid: string;
  origclordid: string;
  ordstatus: string;
  responseTo: string;
  reason: number | null;
  text: string | null;
  transacttime: Date;
}

/** A stored cancel reject as it goes out (to the client after its logon, or as a drop copy). */
export function cancelRejectInputOf(r: UnsentCancelRejectRow): CancelRejectInput {
  return {
    orderid: r.sent_orderid,
    clordid: r.clordid,
    origclordid: r.origclordid,
    ordstatus: r.ordstatus,
    responseTo: r.cxl_rej_response_to,
    reason: r.cxl_rej_reason,
    text: r.text,
    transacttime: r.transacttime,
  };
}

/**
 * OrderCancelReject (35=9); with `copyOf`, the drop copy of it: FIX 4.4's 35=9 has neither
 * CopyMsgIndicator nor Parties, so the client is named by Account (1).
 */
export function buildCancelReject(r: CancelRejectInput, profile: ClientProfile | undefined, copyOf?: CopyOf): BuiltMessage {
  const b = new BodyBuilder()
    .set(37, r.orderid)
    .set(11, r.clordid)
    .set(41, r.origclordid)
    .set(39, r.ordstatus)
    .set(60, formatUtcTimestamp(r.transacttime))
    .set(102, r.reason)
    .set(434, r.responseTo)
    .set(58, r.text);
  if (copyOf) b.set(1, copyOf.clientCompId);
  const missingMandatory = applyProfile(b, profile, '9', null, r.transacttime);
  const dropped: string[] = [];
  const replaced: string[] = [];
  return { msgType: '9', body: b.build('9', dropped, replaced), missingMandatory, dropped, replaced };
}

/** A report to copy to a drop copy session: an execution report with its order, a cancel reject, or a refusal at intake. */
export type DropCopySource =
  | { kind: 'er'; clientCompId: string; er: CopiedReportRow; order: CopiedOrderRow; legs: OrderLegRow[] }
  | { kind: 'cxlrej'; clientCompId: string; reject: CancelRejectInput }
  | { kind: 'refusal'; clientCompId: string; refusal: RefusalInput };

/**
 * The drop copy of a client's report (docs/adr/0017 point 4): the message the client got, built by the
 * same builder with the desk's standard shape (the counterparty validates every client's copies with one
 * FIX 4.4 dictionary), marked CopyMsgIndicator (797)=Y with a Parties entry naming the client (PartyID its
 * comp id, PartyIDSource D, PartyRole 3) before the report's own; a cancel reject names the client in
 * Account (1).
 */
export function buildDropCopy(source: DropCopySource): BuiltMessage {
  const copyOf = { clientCompId: source.clientCompId };
  switch (source.kind) {
    case 'er':
      return buildExecutionReport(source.er, source.order, source.legs, undefined, copyOf);
    case 'cxlrej':
      return buildCancelReject(source.reject, undefined, copyOf);
    case 'refusal':
      return buildRefusalReport(source.refusal, undefined, copyOf);
  }
}

/**
 * A request the simulated client sends (OrderCancelRequest F, OrderCancelReplaceRequest G), shaped by
 * the client's own defaults for that message type like the FIX Client shapes its orders: configured
 * fields the request does not carry are added, then the body is put in dictionary order.
 */
export function shapeClientRequest(
  msgType: string,
  body: ReadonlyArray<readonly [number, string]>,
  profile: ClientProfile | undefined,
  now: Date,
): BuiltMessage {
  const b = new BodyBuilder();
  for (const [tag, value] of body) b.set(tag, value);
  const missingMandatory = applyProfile(b, profile, msgType, null, now);
  const dropped: string[] = [];
  const replaced: string[] = [];
  return { msgType, body: b.build(msgType, dropped, replaced), missingMandatory, dropped, replaced };
}

/** An intake refusal: the order as the client sent it (nothing of it entered the book), its ExecID and time. */
export interface RefusalInput extends RefusalTerms {
  execId: string;
  transactTime: Date;
}

/** A stored refusal copy's facts as the refusal is built from them. */
export function refusalInputOf(facts: RefusalCopyFacts): RefusalInput {
  return { ...facts, transactTime: new Date(facts.transactTime) };
}

/**
 * The ExecutionReport refusing an order at intake (150=8, 39=8, OrdRejReason 103, Text 58), shaped by
 * the client's configured defaults for ExecType 8 like every other report; with `copyOf`, the drop
 * copy of it (see buildDropCopy).
 */
export function buildRefusalReport(r: RefusalInput, profile: ClientProfile | undefined, copyOf?: CopyOf): BuiltMessage {
  const b = new BodyBuilder()
    .set(37, 'NONE')
    .set(11, r.clOrdId || 'NONE')
    .set(17, r.execId)
    .set(150, '8')
    .set(39, '8')
    .set(103, r.ordRejReason)
    .set(55, r.symbol || 'NONE')
    .set(54, isSideCode(r.side) ? r.side : Side.Buy)
    .set(38, r.orderQty)
    .set(40, r.ordType)
    .set(44, r.price)
    .set(1, r.account)
    .set(151, '0')
    .set(14, '0')
    .set(6, '0')
    .set(60, formatUtcTimestamp(r.transactTime))
    .set(58, r.text);
  const missingMandatory = applyProfile(b, profile, '8', '8', r.transactTime);
  markCopy(b, copyOf);
  const dropped: string[] = [];
  const replaced: string[] = [];
  return { msgType: '8', body: b.build('8', dropped, replaced), missingMandatory, dropped, replaced };
}

/**
 * The answer to an OrderStatusRequest for an order we do not hold: ExecType I (order status),
 * OrdStatus 8 and OrdRejReason 5 (unknown order), shaped by the client's defaults for ExecType I.
 */
export function buildUnknownOrderStatus(
  r: {
    clOrdId: string;
    orderId: string | undefined;
    execId: string;
    side: string | undefined;
    symbol: string | undefined;
    transactTime: Date;
  },
  profile: ClientProfile | undefined,
): BuiltMessage {
  const b = new BodyBuilder()
    .set(37, r.orderId || 'NONE')
    .set(11, r.clOrdId)
    .set(17, r.execId)
    .set(150, 'I')
    .set(39, '8')
    .set(103, '5')
    .set(55, r.symbol || 'NONE')
    .set(54, isSideCode(r.side) ? r.side : Side.Buy)
    .set(151, '0')
    .set(14, '0')
    .set(6, '0')
    .set(60, formatUtcTimestamp(r.transactTime))
    .set(58, `Unknown order: no order with ClOrdID ${r.clOrdId}`);
  const missingMandatory = applyProfile(b, profile, '8', 'I', r.transactTime);
  const dropped: string[] = [];
  const replaced: string[] = [];
  return { msgType: '8', body: b.build('8', dropped, replaced), missingMandatory, dropped, replaced };
}
