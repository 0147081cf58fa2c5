// The stages of an order's acknowledgement, from the message trace (packages/fix/src/trace.ts) of the
// order benchmark's fixed-rate phase (bench/orders.ts --trace): the clients' stamps (their process) and
// the server's (the benchmark's process), both on the machine's monotonic clock, joined by ClOrdID.

/** Per stage: ClOrdID → ns. */
export type Stamps = Record<string, Record<string, number>>;

/**
 * The path of one order, in order: each stage's name and where it is stamped. A stage's time is the
 * step from the one before it that the order has (a baseline's server stamps nothing of its own).
 */
export const STAGES: ReadonlyArray<readonly [name: string, side: 'c' | 's', stage: string, what: string]> = [
  ['sent', 'c', 'sent', 'client: the order is made and handed to its session'],
  ['c.write', 'c', 'out.write', 'client: the session numbered it and queued its bytes on the connection'],
  ['c.flush', 'c', 'out.flush', "client: the connection's end-of-tick flush handed them to the socket"],
  ['s.data', 's', 'in.data', "server: the chunk holding it came out of the socket (kernel, then the server's event loop)"],
  ['s.decoded', 's', 'in.decoded', 'server: framed and parsed, handed to its session'],
  ['s.app', 's', 'app.fromApp', "server: the session's queue and checks, handed to the order core"],
  ['s.queued', 's', 'intake.queued', 'server: decided and queued for the next intake batch'],
  ['s.taken', 's', 'batch.taken', 'server: its batch was started (a slot of the two in flight)'],
  ['s.planned', 's', 'batch.planned', 'server: the earlier batch planned, this one planned and its replies numbered'],
  ['s.committed', 's', 'batch.committed', 'server: the statement committed (pool, round trip, WAL flush)'],
  ['s.write', 's', 'out.write', "server: settled, and the reply's bytes queued in number order"],
  ['s.flush', 's', 'out.flush', "server: the connection's end-of-tick flush handed them to the socket"],
  ['c.data', 'c', 'in.data', "client: the chunk holding it came out of the socket (kernel, then the clients' event loop)"],
  ['c.decoded', 'c', 'in.decoded', 'client: framed and parsed, handed to its session'],
  ['c.app', 'c', 'app', "client: the session's queue, checks and store, the Pending New received (the latency's end)"],
];

export interface StageFigure {
  stage: string;
  what: string;
  /** Orders with this stage and one before it. */
  n: number;
  p50: number;
  p99: number;
  mean: number;
  /** Mean of this stage over the orders whose whole latency is in the middle (45th to 55th percentile) / at or past the 99th. */
  meanAtP50: number;
  meanAtP99: number;
}

export interface TraceReport {
  orders: number;
  /** sent → c.app, the latency as the trace sees it (ms). */
  total: { p50: number; p99: number };
  stages: StageFigure[];
  /** Intake batches of the phase (server stamps only). */
  batches?: {
    count: number;
    perSecond: number;
    size: { mean: number; p50: number; p99: number; max: number };
    /** How many batches had, when each was started: batches already in flight (0 or 1 with two slots), idle pool connections, callers waiting for one. */
    inFlightAtStart: Record<string, number>;
    poolIdleAtStart: Record<string, number>;
    poolWaitingAtStart: Record<string, number>;
    /** planned → committed per batch (ms). */
    statement: { p50: number; p99: number; max: number };
    /** committed → settled (its outcomes handed on, after every earlier batch's) per batch (ms). */
    settleLag: { p50: number; p99: number; max: number };
    /** Batches that committed before the one started just before them. */
    overtook: number;
  };
}

function pct(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export function traceReport(client: Stamps, server: Stamps): TraceReport {
  const ms = (ns: number) => ns / 1e6;
  const sent = client.sent ?? {};
  const received = client.app ?? {};
  const orders = Object.keys(sent).filter((id) => received[id] !== undefined);
  const at = (id: string, side: 'c' | 's', stage: string) => (side === 'c' ? client : server)[stage]?.[id];
  const totals = new Map(orders.map((id) => [id, ms(received[id]! - sent[id]!)]));
  const sortedTotals = [...totals.values()].sort((a, b) => a - b);
  const lo = pct(sortedTotals, 45);
  const hi = pct(sortedTotals, 55);
  const p99 = pct(sortedTotals, 99);
  const stages: StageFigure[] = [];
  for (let i = 1; i < STAGES.length; i++) {
    const [name, side, stage, what] = STAGES[i]!;
    const all: number[] = [];
    const middle: number[] = [];
    const tail: number[] = [];
    for (const id of orders) {
      const t = at(id, side, stage);
      if (t === undefined) continue;
      // The step from the latest earlier stage this order has.
      let prev: number | undefined;
      for (let j = i - 1; j >= 0 && prev === undefined; j--) prev = at(id, STAGES[j]![1], STAGES[j]![2]);
      if (prev === undefined) continue;
      const d = ms(t - prev);
      all.push(d);
      const total = totals.get(id)!;
      if (total >= lo && total <= hi) middle.push(d);
      if (total >= p99) tail.push(d);
    }
    if (!all.length) continue;
    const sorted = [...all].sort((a, b) => a - b);
    stages.push({
      stage: name,
      what,
      n: all.length,
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      mean: mean(all),
      meanAtP50: mean(middle),
      meanAtP99: mean(tail),
    });
  }
  const report: TraceReport = { orders: orders.length, total: { p50: pct(sortedTotals, 50), p99 }, stages };
  // Batches: the entries that share their batch.taken stamp.
  const batches = new Map<
    number,
    { size: number; inFlight: number; idle: number; waiting: number; total: number; planned?: number; committed?: number; settled?: number }
  >();
  for (const [id, taken] of Object.entries(server['batch.taken'] ?? {})) {
    if (batches.has(taken)) continue;
    const planned = server['batch.planned']?.[id];
    const committed = server['batch.committed']?.[id];
    const settled = server['batch.settled']?.[id];
    batches.set(taken, {
      size: server['batch.size']?.[id] ?? NaN,
      inFlight: server['batch.inFlight']?.[id] ?? NaN,
      idle: server['batch.poolIdle']?.[id] ?? NaN,
      waiting: server['batch.poolWaiting']?.[id] ?? NaN,
      total: server['batch.poolTotal']?.[id] ?? NaN,
      ...(planned !== undefined ? { planned } : {}),
      ...(committed !== undefined ? { committed } : {}),
      ...(settled !== undefined ? { settled } : {}),
    });
  }
  if (batches.size) {
    const starts = [...batches.keys()].sort((a, b) => a - b);
    const seconds = ms(starts.at(-1)! - starts[0]!) / 1000 || 1;
    const sizes = [...batches.values()].map((b) => b.size).sort((a, b) => a - b);
    const stmt = [...batches.values()]
      .flatMap((b) => (b.planned !== undefined && b.committed !== undefined ? [ms(b.committed - b.planned)] : []))
      .sort((a, b) => a - b);
    const count = (f: (b: { inFlight: number; idle: number; waiting: number }) => number) => {
      const out: Record<string, number> = {};
      for (const b of batches.values()) out[String(f(b))] = (out[String(f(b))] ?? 0) + 1;
      return out;
    };
    const settleLag = [...batches.values()]
      .flatMap((b) => (b.settled !== undefined && b.committed !== undefined ? [ms(b.settled - b.committed)] : []))
      .sort((a, b) => a - b);
    // Batches that committed before the batch started just before them did.
    const ordered = starts.map((t) => batches.get(t)!);
    let overtook = 0;
    for (let i = 1; i < ordered.length; i++) {
      const [a, b] = [ordered[i - 1]!.committed, ordered[i]!.committed];
      if (a !== undefined && b !== undefined && b < a) overtook++;
    }
    report.batches = {
      count: batches.size,
      perSecond: batches.size / seconds,
      size: { mean: mean(sizes), p50: pct(sizes, 50), p99: pct(sizes, 99), max: sizes.at(-1)! },
      inFlightAtStart: count((b) => b.inFlight),
      poolIdleAtStart: count((b) => b.idle),
      poolWaitingAtStart: count((b) => b.waiting),
      statement: { p50: pct(stmt, 50), p99: pct(stmt, 99), max: stmt.at(-1) ?? NaN },
      settleLag: { p50: pct(settleLag, 50), p99: pct(settleLag, 99), max: settleLag.at(-1) ?? NaN },
      overtook,
    };
  }
  return report;
}

/** The report as lines for the console. */
export function traceText(r: TraceReport): string {
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : '-');
  const lines = [
    `trace of ${r.orders} orders: sent → received p50 ${f(r.total.p50)} ms, p99 ${f(r.total.p99)} ms; per stage (ms): p50 / p99 / mean / mean of the orders at the p50 / at the p99`,
    ...r.stages.map(
      (s) =>
        `  ${s.stage.padEnd(12)} ${f(s.p50).padStart(8)} ${f(s.p99).padStart(8)} ${f(s.mean).padStart(8)} ${f(s.meanAtP50).padStart(8)} ${f(s.meanAtP99).padStart(8)}  ${s.what}`,
    ),
  ];
  if (r.batches) {
    const b = r.batches;
    lines.push(
      `  batches: ${b.count} (${b.perSecond.toFixed(0)}/s), size mean ${b.size.mean.toFixed(2)} p50 ${b.size.p50} p99 ${b.size.p99} max ${b.size.max}; at their start, batches already in flight ${JSON.stringify(b.inFlightAtStart)}, pool connections idle ${JSON.stringify(b.poolIdleAtStart)}, callers waiting ${JSON.stringify(b.poolWaitingAtStart)}; statement p50 ${f(b.statement.p50)} p99 ${f(b.statement.p99)} max ${f(b.statement.max)} ms; committed → settled p50 ${f(b.settleLag.p50)} p99 ${f(b.settleLag.p99)} max ${f(b.settleLag.max)} ms; ${b.overtook} committed before the batch started before them`,
    );
  }
  return lines.join('\n');
}
