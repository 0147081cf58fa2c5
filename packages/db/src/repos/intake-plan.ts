import type { Queryable } from '../db';
import { pgArray, type PgArrayElement } from '../pg-array';
import { refusalCopiesCte, refusalCopiesParam, type RefusalToCopy } from './drop-copies';
import { formatExecId } from './orders/ids';
import type { IntakeEntry, IntakeOutcome } from './orders/intake-batch';
import type { ExecReportRow, NewOrderRecord, OrderLegRow, OrderRow } from './orders/rows';

// The planned intake (docs/adr/0009): everything the database would draw for a batch of new orders
// (row ids, broker order ids, ExecIDs) is drawn ahead in blocks, and a ClOrdID already used that day
// is recognised from an index kept by the node that owns the client's session. A batch is then fully
// known before it is written: its replies can be numbered and encoded first, and orders, parties,
// legs, Pending News and the replies' FIX store rows go to the database in ONE statement, whose own
// implicit transaction makes them durable together: one round trip and one commit per batch.

/** How many values of each kind a batch needs. */
export interface IntakeIdNeeds {
  readonly orders: number;
  /** Orders refused at intake in the batch: each takes an order id (refused_orders shares the orders' ids), nothing else. */
  readonly refusals?: number;
  readonly reports: number;
  readonly legs: number;
  readonly execIds: number;
}

/** Values drawn from the database's sequences for one batch. */
export interface DrawnIds {
  readonly orders: readonly number[];
  readonly reports: readonly number[];
  readonly legs: readonly number[];
  readonly execIds: readonly number[];
  readonly brokerIds: readonly number[];
}

type Kind = keyof DrawnIds;
const KINDS: readonly Kind[] = ['orders', 'reports', 'legs', 'execIds', 'brokerIds'];
const SEQUENCES: Record<Kind, string> = {
  orders: 'orders_id_seq',
  reports: 'execution_reports_id_seq',
  legs: 'order_legs_id_seq',
  execIds: 'exec_id_seq',
  brokerIds: 'broker_order_seq',
};

const DRAW_SQL = `SELECT ${KINDS.map((k, i) => `(SELECT string_agg(nextval('${SEQUENCES[k]}')::text, ',') FROM generate_series(1, $${i + 1}::int)) AS "${k}"`).join(',\n       ')}`;

/**
 * Sequence values drawn ahead in blocks, one statement for all kinds. Values are handed out in
 * ascending order, so on one node ids still grow in commit order. Values drawn and never used
 * (a restart) leave gaps, as a rolled-back nextval always could.
 */
export class IntakeIdPool {
  private readonly pools: Record<Kind, number[]> = { orders: [], reports: [], legs: [], execIds: [], brokerIds: [] };
  /** Read position per kind (values before it were handed out). */
  private readonly heads: Record<Kind, number> = { orders: 0, reports: 0, legs: 0, execIds: 0, brokerIds: 0 };
  private refilling: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    /** Values drawn per kind at a time; a block lasts `block` orders. */
    private readonly block = 512,
  ) {}

  private available(kind: Kind): number {
    return this.pools[kind].length - this.heads[kind];
  }

  private covers(need: IntakeIdNeeds): boolean {
    return (
      this.available('orders') >= need.orders + (need.refusals ?? 0) &&
      this.available('brokerIds') >= need.orders &&
      this.available('reports') >= need.reports &&
      this.available('legs') >= need.legs &&
      this.available('execIds') >= need.execIds
    );
  }

  /** The values for a batch when all are at hand (nothing is taken otherwise); starts a refill when running low. */
  take(need: IntakeIdNeeds): DrawnIds | undefined {
    if (!this.covers(need)) return undefined;
    const grab = (kind: Kind, n: number) => {
      const h = this.heads[kind];
      this.heads[kind] = h + n;
      return this.pools[kind].slice(h, h + n);
    };
    const ids: DrawnIds = {
      orders: grab('orders', need.orders + (need.refusals ?? 0)),
      brokerIds: grab('brokerIds', need.orders),
      reports: grab('reports', need.reports),
      legs: grab('legs', need.legs),
      execIds: grab('execIds', need.execIds),
    };
    if (KINDS.some((k) => this.available(k) < this.block / 2)) void this.refill(need).catch(() => {});
    return ids;
  }

  /**
   * One order id for a row kept beside the orders (an order refused at intake), from the same block,
   * so it sorts among the orders by arrival as theirs do; undefined when none is at hand.
   */
  takeOrderId(): number | undefined {
    if (this.available('orders') < 1) return undefined;
    const id = this.pools.orders[this.heads.orders]!;
    this.heads.orders += 1;
    if (this.available('orders') < this.block / 2) void this.refill().catch(() => {});
    return id;
  }

  /** Draws another block of every kind that runs low (at least `need` more); one draw at a time. */
  async refill(need: IntakeIdNeeds = { orders: 0, reports: 0, legs: 0, execIds: 0 }): Promise<void> {
    while (this.refilling) await this.refilling;
    if (this.covers(need) && KINDS.every((k) => this.available(k) >= this.block / 2)) return;
    const wanted: Record<Kind, number> = {
      orders: need.orders + (need.refusals ?? 0),
      brokerIds: need.orders,
      reports: need.reports,
      legs: need.legs,
      execIds: need.execIds,
    };
    const counts = KINDS.map((k) => (this.available(k) < this.block / 2 || this.available(k) < wanted[k] ? this.block + wanted[k] : 0));
    this.refilling = (async () => {
      const { rows } = await this.db.query<Record<Kind, string | null>>(DRAW_SQL, counts, { name: 'intake_draw_ids' });
      for (const k of KINDS) {
        const text = rows[0]?.[k];
        if (!text) continue;
        const fresh = text
          .split(',')
          .map(Number)
          .sort((a, b) => a - b);
        const pool = this.pools[k].slice(this.heads[k]);
        pool.push(...fresh);
        this.pools[k] = pool;
        this.heads[k] = 0;
      }
    })();
    try {
      await this.refilling;
    } finally {
      this.refilling = undefined;
    }
  }
}

/**
 * The ClOrdIDs each client used per trading day, for the clients whose sessions this node owns (one
 * owner per session, so no other node adds to them meanwhile). Loaded from the database the first
 * time a (client, day) is seen; forgotten when the client logs on again (its session may have lived
 * on another node meanwhile). Only the two latest days of a client are kept. The unique key in the
 * database stays the last word: a batch that meets it after all fails and is redone the careful way.
 */
export class ClOrdIdIndex {
  private readonly days = new Map<string, Map<string, Set<string>>>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Bumped by forget(): a load that started before it must not install a stale set. */
  private generation = 0;

  constructor(private readonly db: Queryable) {}

  /** The set for (client, day), when loaded. */
  used(sendercompid: string, sessionDate: string): Set<string> | undefined {
    return this.days.get(sendercompid)?.get(sessionDate);
  }

  /** Loads the ClOrdIDs of (client, day) unless they are at hand. */
  async load(sendercompid: string, sessionDate: string): Promise<void> {
    if (this.used(sendercompid, sessionDate)) return;
    const key = `${sendercompid}\u0001${sessionDate}`;
    let p = this.loading.get(key);
    if (!p) {
      const generation = this.generation;
      p = (async () => {
        // The orders' ClOrdIDs and those of the client's cancel/replace requests received that trading day
        // (in its connector's time zone): a ClOrdID is used once a day, whatever message carried it.
        const { rows } = await this.db.query<{ clordid: string }>(
          `SELECT clordid FROM orders WHERE sendercompid = $1 AND session_date = $2
           UNION ALL
           SELECT r.clordid FROM order_requests r JOIN orders o ON o.id = r.order_id JOIN client_connectors c ON c.id = o.client_connector_id
            WHERE o.sendercompid = $1 AND r.created_at >= $2::date - 1 AND r.created_at < $2::date + 2
              AND (r.created_at AT TIME ZONE c.timezone)::date = $2::date`,
          [sendercompid, sessionDate],
          { name: 'intake_clordids_of_day' },
        );
        if (generation !== this.generation) return;
        let byDay = this.days.get(sendercompid);
        if (!byDay) this.days.set(sendercompid, (byDay = new Map()));
        byDay.set(sessionDate, new Set(rows.map((r) => r.clordid)));
        // Keep the two latest days (a day that just ended still receives late resends).
        const keep = [...byDay.keys()].sort().slice(-2);
        for (const d of [...byDay.keys()]) if (!keep.includes(d)) byDay.delete(d);
      })().finally(() => this.loading.delete(key));
      this.loading.set(key, p);
    }
    await p;
  }

  /** Drops what is known of a client (its next order reloads it). */
  forget(sendercompid: string): void {
    this.generation++;
    this.days.delete(sendercompid);
  }

  /** Drops everything (after a failed batch whose effect is not known). */
  forgetAll(): void {
    this.generation++;
    this.days.clear();
  }
}

/** A batch whose rows are fully known before the statement that writes them. */
export interface PlannedIntake {
  readonly entries: readonly IntakeEntry[];
  /** Per entry; a stored order's rows carry placeholders for created_at until the write's time is known. */
  readonly outcomes: IntakeOutcome[];
}

/** What the batch needs drawn; undefined when the batch cannot be planned (an order's ClOrdID is already used). */
export function intakeNeeds(entries: readonly IntakeEntry[], index: ClOrdIdIndex): IntakeIdNeeds | undefined {
  let orders = 0;
  let refusals = 0;
  let legs = 0;
  for (const e of entries) {
    const o = e.order;
    if (!o) {
      refusals++;
      continue;
    }
    const used = index.used(o.sendercompid, o.sessionDate);
    if (!used || used.has(o.clordid)) return undefined;
    orders++;
    legs += o.legs.length;
  }
  return { orders, refusals, reports: orders, legs, execIds: entries.length };
}

/**
 * Plans a batch: ids from `ids`, outcomes as the database will hold them. Every order's ClOrdID must
 * be free (intakeNeeds said so); the ClOrdIDs are marked used in the index at once, so the next
 * batch sees them even before this one committed.
 */
export function planIntake(entries: readonly IntakeEntry[], ids: DrawnIds, index: ClOrdIdIndex, placeholderTime: Date): PlannedIntake {
  let o = 0;
  // Order ids go to refusals too, in queue order (refused_orders shares them); the rest only to orders.
  let oid = 0;
  let leg = 0;
  const outcomes = entries.map((entry, i): IntakeOutcome => {
    const execId = formatExecId(entry.execIdPrefix, ids.execIds[i]!);
    const r = entry.order;
    if (!r) {
      const orderId = ids.orders[oid++];
      return orderId === undefined ? { kind: 'refusal', execId } : { kind: 'refusal', execId, orderId };
    }
    const id = ids.orders[oid++]!;
    const reportId = ids.reports[o]!;
    const brokerorderid = formatBrokerOrderId(ids.brokerIds[o]!);
    o++;
    index.used(r.sendercompid, r.sessionDate)!.add(r.clordid);
    const order = plannedOrderRow(r, id, brokerorderid, placeholderTime);
    const legs: OrderLegRow[] = r.legs.map((l) => ({
      id: ids.legs[leg++]!,
      order_id: id,
      leg_index: l.legIndex,
      leg_symbol: l.symbol,
      leg_security_type: l.securityType,
      leg_maturity_month_year: l.maturityMonthYear,
      leg_side: l.side,
      leg_ratio_qty: l.ratioQty,
      leg_price: l.price,
      leg_cumqty: '0',
      leg_avgpx: '0',
    }));
    const er: ExecReportRow = {
      id: reportId,
      order_id: id,
      execid: execId,
      clordid: r.clordid,
      origclordid: null,
      orderid: brokerorderid,
      exectype: 'A',
      ordstatus: 'A',
      side: r.side,
      symbol: r.symbol,
      orderqty: r.orderQty,
      price: r.price,
      lastqty: '0',
      lastpx: '0',
      cumqty: '0',
      avgpx: '0',
      leavesqty: r.orderQty,
      leg_index: null,
      ordrejreason: null,
      text: null,
      transacttime: entry.reportTime,
      created_at: placeholderTime,
      sendercompid: r.sendercompid,
      sent_seq_num: null,
      sent_at: null,
      executing_trader_id: null,
      executing_trader_source: null,
      executing_trader_name: null,
    };
    return { kind: 'stored', order, er, legs };
  });
  return { entries, outcomes };
}

/** The broker's OrderID (37): BO and the sequence number, eight digits at least. */
function formatBrokerOrderId(seq: number): string {
  return `BO${String(seq).padStart(8, '0')}`;
}

function plannedOrderRow(r: NewOrderRecord, id: number, brokerorderid: string, at: Date): OrderRow {
  return {
    id,
    brokerorderid,
    clordid: r.clordid,
    origclordid: null,
    client_connector_id: r.clientConnectorId,
    sendercompid: r.sendercompid,
    targetcompid: r.targetcompid,
    session_date: r.sessionDate,
    msg_type: r.msgType,
    symbol: r.symbol,
    security_type: r.securityType,
    maturity_month_year: r.maturityMonthYear,
    side: r.side,
    ordtype: r.ordType,
    price: r.price,
    orderqty: r.orderQty,
    timeinforce: r.timeInForce,
    exchange: r.exchange,
    currency: r.currency === null ? null : r.currency.padEnd(3),
    account: r.account,
    text: r.text,
    ordstatus: 'A',
    cumqty: '0',
    leavesqty: r.orderQty,
    avgpx: '0',
    lastqty: null,
    lastpx: null,
    transacttime: r.transactTime,
    accepted_by: null,
    created_at: at,
    updated_at: at,
  };
}

/** Once the statement ran: the database's time of the write on every row that carries one. */
export function stampPlannedIntake(plan: PlannedIntake, at: Date): void {
  for (const o of plan.outcomes) {
    if (o.kind !== 'stored') continue;
    o.order.created_at = at;
    o.order.updated_at = at;
    o.er.created_at = at;
    if (o.er.sent_seq_num !== null) o.er.sent_at = at;
  }
}

/** The columns each planned table gets, in parameter order, with their array types. */
const ORDER_COLUMNS: ReadonlyArray<readonly [string, string, (o: OrderRow) => PgArrayElement]> = [
  ['id', 'int8', (o) => o.id],
  ['brokerorderid', 'text', (o) => o.brokerorderid],
  ['clordid', 'text', (o) => o.clordid],
  ['connector_id', 'int', (o) => o.client_connector_id],
  ['sendercompid', 'text', (o) => o.sendercompid],
  ['targetcompid', 'text', (o) => o.targetcompid],
  ['session_date', 'date', (o) => o.session_date],
  ['msg_type', 'text', (o) => o.msg_type],
  ['symbol', 'text', (o) => o.symbol],
  ['security_type', 'text', (o) => o.security_type],
  ['maturity_month_year', 'text', (o) => o.maturity_month_year],
  ['side', 'text', (o) => o.side],
  ['ordtype', 'text', (o) => o.ordtype],
  ['price', 'numeric', (o) => o.price],
  ['orderqty', 'numeric', (o) => o.orderqty],
  ['timeinforce', 'text', (o) => o.timeinforce],
  ['exchange', 'text', (o) => o.exchange],
  ['currency', 'text', (o) => o.currency],
  ['account', 'text', (o) => o.account],
  ['text', 'text', (o) => o.text],
  ['transacttime', 'timestamptz', (o) => o.transacttime],
];
const REPORT_COLUMNS: ReadonlyArray<readonly [string, string, (r: { er: ExecReportRow; seq: number | null }) => PgArrayElement]> = [
  ['id', 'int8', (r) => r.er.id],
  ['order_id', 'int8', (r) => r.er.order_id],
  ['execid', 'text', (r) => r.er.execid],
  ['sendercompid', 'text', (r) => r.er.sendercompid],
  ['clordid', 'text', (r) => r.er.clordid],
  ['orderid', 'text', (r) => r.er.orderid],
  ['side', 'text', (r) => r.er.side],
  ['symbol', 'text', (r) => r.er.symbol],
  ['orderqty', 'numeric', (r) => r.er.orderqty],
  ['price', 'numeric', (r) => r.er.price],
  ['transacttime', 'timestamptz', (r) => r.er.transacttime],
  ['seq', 'int', (r) => r.seq],
];
const LEG_COLUMNS: ReadonlyArray<readonly [string, string, (l: OrderLegRow) => PgArrayElement]> = [
  ['id', 'int8', (l) => l.id],
  ['order_id', 'int8', (l) => l.order_id],
  ['leg_index', 'int', (l) => l.leg_index],
  ['leg_symbol', 'text', (l) => l.leg_symbol],
  ['leg_security_type', 'text', (l) => l.leg_security_type],
  ['leg_maturity_month_year', 'text', (l) => l.leg_maturity_month_year],
  ['leg_side', 'text', (l) => l.leg_side],
  ['leg_ratio_qty', 'numeric', (l) => l.leg_ratio_qty],
  ['leg_price', 'numeric', (l) => l.leg_price],
];
interface PlannedParty {
  orderId: number;
  legIndex: number | null;
  position: number;
  partyId: string;
  source: string | null;
  role: number;
}
const PARTY_COLUMNS: ReadonlyArray<readonly [string, string, (p: PlannedParty) => PgArrayElement]> = [
  ['order_id', 'int8', (p) => p.orderId],
  ['leg_index', 'int', (p) => p.legIndex],
  ['position', 'int', (p) => p.position],
  ['party_id', 'text', (p) => p.partyId],
  ['party_id_source', 'text', (p) => p.source],
  ['party_role', 'int', (p) => p.role],
];

/** `unnest($a::t[], …) WITH ORDINALITY AS alias(cols…, ord)` for columns numbered from `first`. */
function unnestOf(columns: ReadonlyArray<readonly [string, string, unknown]>, first: number, alias: string): string {
  return `unnest(${columns.map(([, type], k) => `$${first + k}::${type}[]`).join(', ')}) WITH ORDINALITY AS ${alias}(${columns.map(([name]) => name).join(', ')}, ord)`;
}

const plannedSqlCache = new Map<string, string>();

/** The CTEs of a batch shape (the statement text is the same for every batch of that shape). */
function plannedSql(withOrders: boolean, withLegs: boolean, withParties: boolean, withRefusals: boolean, firstParam: number): string {
  const key = `${withOrders}${withLegs}${withParties}${withRefusals}${firstParam}`;
  let sql = plannedSqlCache.get(key);
  if (sql !== undefined) return sql;
  let n = firstParam;
  const take = <T>(columns: readonly T[]) => {
    const first = n;
    n += columns.length;
    return first;
  };
  const parts: string[] = [];
  if (withOrders) {
    parts.push(`planned_orders AS (
  INSERT INTO orders (id, brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, security_type,
                      maturity_month_year, side, ordtype, price, orderqty, timeinforce, exchange, currency, account, text, ordstatus, cumqty,
                      leavesqty, avgpx, transacttime)
  SELECT u.id, u.brokerorderid, u.clordid, u.connector_id, u.sendercompid, u.targetcompid, u.session_date, u.msg_type, u.symbol, u.security_type,
         u.maturity_month_year, u.side, u.ordtype, u.price, u.orderqty, u.timeinforce, u.exchange, u.currency, u.account, u.text, 'A', 0,
         u.orderqty, 0, u.transacttime
    FROM ${unnestOf(ORDER_COLUMNS, take(ORDER_COLUMNS), 'u')}
   ORDER BY u.ord
)`);
    parts.push(`planned_reports AS (
  INSERT INTO execution_reports (id, order_id, execid, sendercompid, clordid, orderid, exectype, ordstatus, side, symbol, orderqty, price,
                                 lastqty, lastpx, cumqty, avgpx, leavesqty, transacttime, sent_seq_num, sent_at)
  SELECT r.id, r.order_id, r.execid, r.sendercompid, r.clordid, r.orderid, 'A', 'A', r.side, r.symbol, r.orderqty, r.price,
         0, 0, 0, 0, r.orderqty, r.transacttime, r.seq, CASE WHEN r.seq IS NULL THEN NULL ELSE now() END
    FROM ${unnestOf(REPORT_COLUMNS, take(REPORT_COLUMNS), 'r')}
   ORDER BY r.ord
)`);
  }
  if (withLegs) {
    parts.push(`planned_legs AS (
  INSERT INTO order_legs (id, order_id, leg_index, leg_symbol, leg_security_type, leg_maturity_month_year, leg_side, leg_ratio_qty, leg_price)
  SELECT l.id, l.order_id, l.leg_index, l.leg_symbol, l.leg_security_type, l.leg_maturity_month_year, l.leg_side, l.leg_ratio_qty, l.leg_price
    FROM ${unnestOf(LEG_COLUMNS, take(LEG_COLUMNS), 'l')}
)`);
  }
  if (withParties) {
    parts.push(`planned_parties AS (
  INSERT INTO order_parties (order_id, leg_index, position, party_id, party_id_source, party_role)
  SELECT p.order_id, p.leg_index, p.position, p.party_id, p.party_id_source, p.party_role
    FROM ${unnestOf(PARTY_COLUMNS, take(PARTY_COLUMNS), 'p')}
)`);
  }
  // The refusals' copies (docs/adr/0017 point 2): only in the shapes of batches holding a refusal.
  if (withRefusals) parts.push(refusalCopiesCte(take([0])));
  sql = parts.join(',\n');
  plannedSqlCache.set(key, sql);
  return sql;
}

/** One array parameter per column. */
function columnParams<T>(
  rows: readonly T[],
  columns: ReadonlyArray<readonly [string, string, (r: T) => PgArrayElement]>,
  into: unknown[],
): void {
  const values: PgArrayElement[] = new Array<PgArrayElement>(rows.length);
  for (const [, , get] of columns) {
    for (let i = 0; i < rows.length; i++) values[i] = get(rows[i]!);
    into.push(pgArray(values));
  }
}

/**
 * The planned batch's rows as CTEs for persistReservedOutbound's statement (parameters from
 * `$${firstParam}`): orders, legs, parties and Pending News, each written once; a Pending New whose
 * reply was reserved is written already marked as sent with that reply's number (`sentSeqNums`, per
 * outcome, null when its reply goes through the outbox).
 */
export function plannedIntakeCtes(
  plan: PlannedIntake,
  sentSeqNums: ReadonlyArray<number | null>,
  firstParam: number,
): { name: string; ctes: string; params: unknown[] } {
  const orders: OrderRow[] = [];
  const reports: Array<{ er: ExecReportRow; seq: number | null }> = [];
  const legs: OrderLegRow[] = [];
  const parties: PlannedParty[] = [];
  const refusals: RefusalToCopy[] = [];
  plan.outcomes.forEach((o, i) => {
    const entry = plan.entries[i]!;
    if (o.kind === 'refusal' && entry.refusal) {
      refusals.push({ client: entry.refusal.client, execId: o.execId, transactTime: entry.reportTime, terms: entry.refusal.terms });
    }
    if (o.kind !== 'stored') return;
    orders.push(o.order);
    reports.push({ er: o.er, seq: sentSeqNums[i] ?? null });
    for (const l of o.legs) legs.push(l);
    const orderParties = entry.order!.parties;
    for (let position = 0; position < orderParties.length; position++) {
      const x = orderParties[position]!;
      parties.push({ orderId: o.order.id, legIndex: x.legIndex, position, partyId: x.partyId, source: x.partyIdSource, role: x.partyRole });
    }
  });
  const params: unknown[] = [];
  if (orders.length) {
    columnParams(orders, ORDER_COLUMNS, params);
    columnParams(reports, REPORT_COLUMNS, params);
  }
  if (legs.length) columnParams(legs, LEG_COLUMNS, params);
  if (parties.length) columnParams(parties, PARTY_COLUMNS, params);
  if (refusals.length) params.push(refusalCopiesParam(refusals));
  const name = `planned_intake_${orders.length ? 'o' : ''}${legs.length ? 'l' : ''}${parties.length ? 'p' : ''}${refusals.length ? 'f' : ''}`;
  return {
    name,
    ctes: plannedSql(orders.length > 0, legs.length > 0, parties.length > 0, refusals.length > 0, firstParam),
    params,
  };
}
