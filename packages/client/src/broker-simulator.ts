/**
 * The Broker Simulator's auto mode (spec 000 §2, §4, §9), framework-free so that the screen and the
 * headless `npm run broker-sim` run the same rules:
 *  - a pending order (A) is accepted after the accept delay (default 2 s);
 *  - once accepted, after the fill delay (default 3 s), its leaves quantity is split into 2 to 4 random
 *    whole chunks submitted 2 s apart, each at a price within about 2 % of the limit on the client's
 *    side of it (a buy at or below, a sell at or above), on the symbol's tick;
 *  - when a fill's answer says fully filled, 1 s later the order is marked done for the day.
 * It acts as user BROKER_SIM through the same HTTP API as a person; the server records the signed-in
 * user as the actor and BROKER_SIM as the claimed user id.
 */
import { Decimal, findReferencePrice, OrdStatus, Side, type LatestPrice } from '@fixdesk/domain';
import { ORDER_STATUS_UPDATED, type Order, type OrderActionResponse, type WsOrderInfo } from '@fixdesk/protocol';

export const BROKER_SIM_USER_ID = 'BROKER_SIM';
/** Spec 000 §4 and §9. */
export const BROKER_SIM_DEFAULTS = { acceptDelaySec: 2, fillDelaySec: 3 } as const;
export const BROKER_SIM_DELAY_LIMITS = { min: 1, max: 10 } as const;
const FILL_SPACING_MS = 2000;
const DONE_FOR_DAY_DELAY_MS = 1000;
export const FILL_CHUNKS = { min: 2, max: 4 } as const;
/** How far from the limit a simulated fill may land. */
const PRICE_JITTER_PERCENT = 2;
/** Cards on the screen (spec 000 §9: the 10 latest orders). */
const RECENT_ORDER_CARDS = 10;

const DelayText = {
  range: (label: string) => `${label} must be between ${BROKER_SIM_DELAY_LIMITS.min} and ${BROKER_SIM_DELAY_LIMITS.max} seconds`,
} as const;

/** Null when the delay is usable, else the message to show under the input. */
export function delayProblem(label: string, value: unknown): string | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < BROKER_SIM_DELAY_LIMITS.min || n > BROKER_SIM_DELAY_LIMITS.max) return DelayText.range(label);
  return null;
}

export interface BrokerSimApi {
  accept(orderId: number, body: { notes: string; userId: string }): Promise<OrderActionResponse>;
  fill(orderId: number, body: { fillQty: string; fillPrice: string; notes: string; userId: string }): Promise<OrderActionResponse>;
  doneForDay(orderId: number, body: { notes: string; userId: string }): Promise<OrderActionResponse>;
}

export interface BrokerSimDeps {
  api: BrokerSimApi;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** Uniform in [0, 1). */
  random: () => number;
  now: () => number;
  /** Price tick of a symbol (an outright's or a strategy's first leg), when known. */
  tickSize?: (symbol: string) => string | null;
  /** Latest trades, for market orders without a limit. */
  latestPrices?: () => readonly LatestPrice[];
}

export interface BrokerSimSettings {
  auto: boolean;
  acceptDelaySec: number;
  fillDelaySec: number;
}

export type SimPhase =
  /** Seen, not for the simulator (not pending when auto mode saw it, or auto mode off). */
  | 'watching'
  | 'accepting'
  | 'filling'
  | 'finishing'
  | 'done'
  /** Left to a person: an error, a price the simulator cannot make, or the order moved on. */
  | 'stopped';

export interface SimFill {
  qty: string;
  price: string;
  at: number;
}

export interface SimOrder {
  order: Order;
  /**
   * The status the card shows: the order's OrdStatus, or ORDER_STATUS_UPDATED (spec 000 §4's synthetic
   * status) while the last message about it carried order info (a client's status request) and nothing since.
   */
  status: string;
  phase: SimPhase;
  /** The chunks planned for this order. */
  plan: string[];
  fills: SimFill[];
  note: string | null;
  /** When the simulator first saw the order (for the card order). */
  seenAt: number;
}

export interface SimActivity {
  at: number;
  brokerOrderId: string;
  text: string;
  level: 'info' | 'error';
}

export interface BrokerSimCounters {
  /** Orders waiting to be accepted (A). */
  pending: number;
  /** Accepted and working: 0, 1, pending cancel or replace. */
  active: number;
  /** Finished today: filled, done for day, canceled, rejected or expired. */
  completedToday: number;
  /** Orders the simulator acted on since it started. */
  processed: number;
}

export interface BrokerSimState {
  settings: BrokerSimSettings;
  counters: BrokerSimCounters;
  recent: SimOrder[];
  activity: SimActivity[];
}

const ACTIVE = new Set<string>([OrdStatus.New, OrdStatus.PartiallyFilled, OrdStatus.PendingCancel, OrdStatus.PendingReplace]);
const FINISHED = new Set<string>([OrdStatus.Filled, OrdStatus.DoneForDay, OrdStatus.Canceled, OrdStatus.Rejected, OrdStatus.Expired, 'F']);
const MAX_ACTIVITY = 200;

/** Splits a whole quantity into `count` random positive whole chunks (fewer when the quantity is smaller). */
export function splitQuantity(total: Decimal, count: number, random: () => number): Decimal[] {
  const units = total.floor();
  if (!units.isPositive()) return [];
  const n = Math.max(1, Math.min(count, Number(units.toBigInt() > 1000n ? 1000n : units.toBigInt())));
  // Random weights, each chunk at least 1; the rounding rest goes to the last chunk.
  const weights = Array.from({ length: n }, () => 0.5 + random());
  const sum = weights.reduce((a, b) => a + b, 0);
  const spare = units.sub(n);
  const chunks: Decimal[] = [];
  let given = Decimal.ZERO;
  for (let i = 0; i < n - 1; i++) {
    const share = spare.mul(Decimal.fromNumber(Math.floor((weights[i]! / sum) * 1e6))).div(1_000_000, 0, 'FLOOR');
    chunks.push(share.add(1));
    given = given.add(share);
  }
  chunks.push(spare.sub(given).add(1));
  return chunks;
}

/** The number of chunks for one order: 2 to 4 (spec 000 §9). */
export function chunkCount(random: () => number): number {
  return FILL_CHUNKS.min + Math.min(FILL_CHUNKS.max - FILL_CHUNKS.min, Math.floor(random() * (FILL_CHUNKS.max - FILL_CHUNKS.min + 1)));
}

/**
 * A fill price within PRICE_JITTER_PERCENT of `limit` on the client's side of it: a buy at or below the
 * limit, a sell at or above, rounded on the tick toward the client. Works for zero and negative spreads.
 */
export function jitteredPrice(limit: Decimal, side: string, random: () => number, tick: Decimal | null): Decimal {
  const scale = tick ? Math.max(tick.stripTrailingZeros().toString().split('.')[1]?.length ?? 0, 0) : 2;
  const fraction = Decimal.fromNumber(Math.floor(random() * PRICE_JITTER_PERCENT * 100) / 10_000);
  const offset = limit.abs().mul(fraction);
  const buy = side === Side.Buy;
  let px = buy ? limit.sub(offset) : limit.add(offset);
  if (tick && tick.isPositive()) {
    px = px.div(tick, 0, buy ? 'FLOOR' : 'CEILING').mul(tick);
  } else {
    px = px.round(scale, buy ? 'FLOOR' : 'CEILING');
  }
  return px.stripTrailingZeros();
}

/** A market order's reference: the symbol's latest trade; its jitter goes either way. */
function marketPrice(order: Order, deps: BrokerSimDeps, tick: Decimal | null): Decimal | null {
  const latest = deps.latestPrices?.() ?? [];
  const exact = findReferencePrice(latest, { symbol: order.symbol, contract: order.maturity_month_year ?? null, type: null });
  const any = exact ?? latest.filter((p) => p.symbol === order.symbol).at(-1) ?? null;
  const ref = any ? Decimal.tryFrom(any.price) : null;
  if (!ref) return null;
  return jitteredPrice(ref, deps.random() < 0.5 ? Side.Buy : Side.Sell, deps.random, tick);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The auto-mode engine. Feed it every order it should know about (the snapshot, then each new_order and
 * order_update); it acts on its own timers and reports its state to subscribers.
 */
export class BrokerSimulator {
  private settings: BrokerSimSettings;
  private readonly orders = new Map<string, SimOrder>();
  private readonly timers = new Map<string, Set<unknown>>();
  private readonly activity: SimActivity[] = [];
  private readonly listeners = new Set<() => void>();
  private processed = 0;
  private stopped = false;
  private snapshot: BrokerSimState | null = null;

  constructor(
    private readonly deps: BrokerSimDeps,
    settings: Partial<BrokerSimSettings> = {},
  ) {
    this.settings = { auto: false, ...BROKER_SIM_DEFAULTS, ...settings };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A stable object until something changes (suits React's useSyncExternalStore). */
  getState = (): BrokerSimState => {
    this.snapshot ??= this.buildState();
    return this.snapshot;
  };

  private changed(): void {
    this.snapshot = null;
    for (const l of this.listeners) l();
  }

  setSettings(change: Partial<BrokerSimSettings>): void {
    const next = { ...this.settings, ...change };
    for (const [label, v] of [
      ['Accept delay', next.acceptDelaySec],
      ['Fill delay', next.fillDelaySec],
    ] as const) {
      const problem = delayProblem(label, v);
      if (problem) throw new RangeError(problem);
    }
    const turnedOn = next.auto && !this.settings.auto;
    const turnedOff = !next.auto && this.settings.auto;
    this.settings = next;
    if (turnedOn) for (const o of this.orders.values()) this.consider(o);
    if (turnedOff) {
      for (const o of this.orders.values()) {
        if (o.phase === 'accepting' || o.phase === 'filling' || o.phase === 'finishing') this.halt(o, 'Auto mode turned off', 'info');
      }
    }
    this.changed();
  }

  /** The orders the desk has now (a fresh snapshot after a reconnect). */
  loadOrders(orders: readonly Order[]): void {
    for (const o of orders) this.upsert(o, false);
    this.changed();
  }

  /** A new_order, order_update or order_data; `info` is the message's order info when it carried one. */
  onOrder(order: Order, info?: WsOrderInfo | null): void {
    this.upsert(order, true, info ?? null);
    this.changed();
  }

  private upsert(order: Order, live: boolean, info: WsOrderInfo | null = null): void {
    // An order refused at intake is a record, not an order to work (and has no broker order id).
    if (order.refusal) return;
    const key = order.brokerorderid;
    const known = this.orders.get(key);
    const status = info ? ORDER_STATUS_UPDATED : order.ordstatus;
    if (known) {
      known.order = order;
      known.status = status;
      if (info?.event === 'status_request') this.log(known, `${info.comp_id} asked for the status of ${info.clordid}`);
      // A person (or the client) moved the order somewhere the plan does not cover.
      if (
        (known.phase === 'filling' || known.phase === 'finishing') &&
        (order.ordstatus === OrdStatus.Canceled || order.ordstatus === OrdStatus.Rejected)
      ) {
        this.halt(known, `Order ${ordWord(order.ordstatus)}; simulator stopped`);
      }
      this.consider(known);
      return;
    }
    const sim: SimOrder = { order, status, phase: 'watching', plan: [], fills: [], note: null, seenAt: live ? this.deps.now() : 0 };
    this.orders.set(key, sim);
    this.consider(sim);
  }

  private consider(sim: SimOrder): void {
    if (this.stopped || !this.settings.auto) return;
    if (sim.phase === 'watching' && sim.order.ordstatus === OrdStatus.PendingNew) {
      sim.phase = 'accepting';
      sim.note = `Accepting in ${this.settings.acceptDelaySec} s`;
      this.after(sim, this.settings.acceptDelaySec * 1000, () => this.accept(sim));
    }
  }

  private after(sim: SimOrder, ms: number, fn: () => void | Promise<void>): void {
    const key = sim.order.brokerorderid;
    let set = this.timers.get(key);
    if (!set) this.timers.set(key, (set = new Set()));
    const handle = this.deps.setTimeout(() => {
      set.delete(handle);
      if (this.stopped) return;
      void Promise.resolve(fn()).catch((error) => this.halt(sim, errorText(error)));
    }, ms);
    set.add(handle);
  }

  private log(sim: SimOrder, text: string, level: SimActivity['level'] = 'info'): void {
    this.activity.unshift({ at: this.deps.now(), brokerOrderId: sim.order.brokerorderid, text, level });
    if (this.activity.length > MAX_ACTIVITY) this.activity.length = MAX_ACTIVITY;
  }

  private halt(sim: SimOrder, reason: string, level: SimActivity['level'] = 'error'): void {
    sim.phase = 'stopped';
    sim.note = reason;
    for (const h of this.timers.get(sim.order.brokerorderid) ?? []) this.deps.clearTimeout(h);
    this.timers.delete(sim.order.brokerorderid);
    this.log(sim, reason, level);
    this.changed();
  }

  private notes(what: string): { notes: string; userId: string } {
    return { notes: `Broker Simulator: ${what}`, userId: BROKER_SIM_USER_ID };
  }

  private async accept(sim: SimOrder): Promise<void> {
    if (!this.settings.auto) {
      sim.phase = 'watching';
      sim.note = null;
      this.changed();
      return;
    }
    if (sim.order.ordstatus !== OrdStatus.PendingNew) {
      sim.phase = 'watching';
      sim.note = 'No longer pending; left alone';
      this.changed();
      return;
    }
    const res = await this.deps.api.accept(sim.order.id, this.notes('auto-accept'));
    sim.order = merged(sim.order, res.order);
    sim.status = sim.order.ordstatus;
    this.processed++;
    this.log(sim, 'Accepted');
    this.planFills(sim);
    this.changed();
  }

  private tick(order: Order): Decimal | null {
    const symbol = order.legs[0]?.legSymbol ?? order.symbol;
    const t = this.deps.tickSize?.(symbol) ?? this.deps.tickSize?.(order.symbol) ?? null;
    return t ? Decimal.tryFrom(t) : null;
  }

  private planFills(sim: SimOrder): void {
    const leaves = Decimal.tryFrom(sim.order.leavesqty) ?? Decimal.tryFrom(sim.order.orderqty);
    if (!leaves || !leaves.isPositive()) {
      sim.phase = 'done';
      sim.note = 'Nothing left to fill';
      return;
    }
    const chunks = splitQuantity(leaves, chunkCount(this.deps.random), this.deps.random);
    sim.plan = chunks.map((c) => c.toString());
    sim.phase = 'filling';
    sim.note = `Filling ${leaves.toString()} in ${chunks.length} fill${chunks.length === 1 ? '' : 's'} from ${this.settings.fillDelaySec} s`;
    chunks.forEach((qty, i) => this.after(sim, this.settings.fillDelaySec * 1000 + i * FILL_SPACING_MS, () => this.fill(sim, qty)));
  }

  private price(order: Order): Decimal | null {
    const tick = this.tick(order);
    const limit = order.price === null ? null : Decimal.tryFrom(order.price);
    if (limit) return jitteredPrice(limit, order.side, this.deps.random, tick);
    return marketPrice(order, this.deps, tick);
  }

  private async fill(sim: SimOrder, qty: Decimal): Promise<void> {
    if (sim.phase !== 'filling' || !this.settings.auto) return;
    const px = this.price(sim.order);
    if (!px) {
      this.halt(sim, 'No limit and no recent trade to price a market order: fill it by hand');
      return;
    }
    const res = await this.deps.api.fill(sim.order.id, { fillQty: qty.toString(), fillPrice: px.toString(), ...this.notes('auto-fill') });
    sim.order = merged(sim.order, res.order);
    sim.status = sim.order.ordstatus;
    sim.fills.push({ qty: qty.toString(), price: px.toString(), at: this.deps.now() });
    this.log(sim, `Filled ${qty.toString()} @ ${px.toString()}`);
    if (res.fullyFilled) {
      sim.phase = 'finishing';
      sim.note = 'Fully filled; done for day in 1 s';
      this.after(sim, DONE_FOR_DAY_DELAY_MS, () => this.doneForDay(sim));
    }
    this.changed();
  }

  private async doneForDay(sim: SimOrder): Promise<void> {
    const res = await this.deps.api.doneForDay(sim.order.id, this.notes('done for day'));
    sim.order = merged(sim.order, res.order);
    sim.status = sim.order.ordstatus;
    sim.phase = 'done';
    sim.note = `Done: ${sim.fills.length} fill${sim.fills.length === 1 ? '' : 's'}`;
    this.log(sim, 'Done for day');
    this.changed();
  }

  private buildState(): BrokerSimState {
    const all = [...this.orders.values()];
    const today = new Date(this.deps.now());
    const sameDay = (iso: string) => {
      const d = new Date(iso);
      return d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate();
    };
    const counters: BrokerSimCounters = {
      pending: all.filter((s) => s.order.ordstatus === OrdStatus.PendingNew).length,
      active: all.filter((s) => ACTIVE.has(s.order.ordstatus)).length,
      completedToday: all.filter((s) => FINISHED.has(s.order.ordstatus) && sameDay(s.order.updated_at)).length,
      processed: this.processed,
    };
    const recent = all.sort((a, b) => b.order.id - a.order.id).slice(0, RECENT_ORDER_CARDS);
    return {
      settings: { ...this.settings },
      counters,
      recent: recent.map((s) => ({ ...s, fills: [...s.fills], plan: [...s.plan] })),
      activity: [...this.activity],
    };
  }

  /** Runs again after stop() (auto mode resumes on the orders it sees from now on). */
  start(): void {
    this.stopped = false;
  }

  /** Cancels every timer; calls in flight finish but nothing new starts. */
  stop(): void {
    this.stopped = true;
    for (const set of this.timers.values()) for (const h of set) this.deps.clearTimeout(h);
    this.timers.clear();
    for (const o of this.orders.values()) {
      if (o.phase === 'accepting' || o.phase === 'filling' || o.phase === 'finishing') {
        o.phase = 'stopped';
        o.note = 'Simulator stopped';
      }
    }
    this.changed();
  }
}

/** An action's answer carries the order's state but not its legs, parties or client: keep those. */
function merged(known: Order, answer: Order): Order {
  return {
    ...answer,
    legs: answer.legs.length ? answer.legs : known.legs,
    parties: answer.parties.length ? answer.parties : known.parties,
    client_name: answer.client_name ?? known.client_name,
    client_phone: answer.client_phone ?? known.client_phone,
    company_name: answer.company_name ?? known.company_name,
  };
}

function ordWord(status: string): string {
  return status === OrdStatus.Canceled ? 'canceled' : status === OrdStatus.Rejected ? 'rejected' : `in status ${status}`;
}
