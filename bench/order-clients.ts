// The client side of the order benchmark, in its own process (as clients are on their own machines):
// SESSIONS FIX initiators logged on to the server under test, driven by the parent over IPC. Each
// command runs one phase and answers with the latencies (order sent → Pending New received) and the
// CPU this process used.
//
//   forked by bench/orders.ts; argv: port compId...
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';

// The engine's message trace (packages/fix/src/trace.ts), looked up at run time: a baseline's older
// engine has none, and a traced phase there stamps only what this file stamps itself.
const fix = (await import('@fixdesk/fix')) as Record<string, unknown>;
const messageTrace = (fix.messageTrace as { sink: unknown } | undefined) ?? { sink: undefined };
const traceNow = () => Number(process.hrtime.bigint());

export type ClientCommand =
  | { cmd: 'warmup'; orders: number }
  | { cmd: 'fixed'; rate: number; seconds: number; trace?: boolean }
  | { cmd: 'full'; seconds: number; window: number }
  | { cmd: 'stop' };

export interface PhaseResult {
  sent: number;
  acked: number;
  seconds: number;
  /** Sorted latencies in ms. */
  latencies: number[];
  /** The latencies by when their order was sent: p50, p99 and max of each half second of the phase. */
  timeline: TimelineBucket[];
  cpuSeconds: number;
  /** With a drop copy session (BENCH_DROP_COPY): the copies it received during the phase. */
  copies?: number;
  /** With `trace`: per stage, each ClOrdID's time in this process (ns, hrtime; see packages/fix/src/trace.ts). */
  trace?: Record<string, Record<string, number>>;
}

export interface TimelineBucket {
  /** Start of the half second, in seconds from the phase's start. */
  at: number;
  orders: number;
  p50: number;
  p99: number;
  max: number;
}

const BUCKET_MS = 500;

const [portArg, ...compIds] = process.argv.slice(2);
const clients = compIds.map((c) => new TestFixClient(c));
await Promise.all(clients.map((c) => c.connect(Number(portArg))));

// A drop copy session of every client's reports (docs/adr/0017), when the run has one: it only counts what it receives.
const dropCopy = process.env.BENCH_DROP_COPY ? new TestFixClient(process.env.BENCH_DROP_COPY) : undefined;
let copies = 0;
if (dropCopy) {
  await dropCopy.connect(Number(portArg));
  dropCopy.received.push = (...items) => {
    for (const m of items) if (m.msgType === '8' && m.get(797) === 'Y') copies++;
    return 0;
  };
}

const sentAt = new Map<string, number>();
/** The phase's message trace, when asked for: per stage, ClOrdID → ns (the first stamp of each). */
let stamps: Map<string, Map<string, number>> | undefined;
const stamp = (stage: string, clOrdId: string, atNs: number) => {
  let s = stamps!.get(stage);
  if (!s) stamps!.set(stage, (s = new Map()));
  if (!s.has(clOrdId)) s.set(clOrdId, atNs);
};
let latencies: number[] = [];
/** The phase's latencies by half second of sending. */
let buckets: number[][] = [];
let phaseStart = 0;
const inflight = new Map(clients.map((c) => [c.compId, 0]));
for (const c of clients) {
  const received = c.received;
  received.push = (...items) => {
    const now = performance.now();
    for (const m of items) {
      if (m.msgType === '8' && m.get(150) === 'A') {
        const id = m.get(11)!;
        const t0 = sentAt.get(id);
        if (t0 !== undefined) {
          if (stamps) stamp('app', id, traceNow());
          latencies.push(now - t0);
          const b = Math.floor((t0 - phaseStart) / BUCKET_MS);
          if (b >= 0) (buckets[b] ??= []).push(now - t0);
          sentAt.delete(id);
          inflight.set(c.compId, inflight.get(c.compId)! - 1);
        }
      }
    }
    // Nothing is kept: a long run would otherwise hold every report.
    return 0;
  };
}
let seq = 0;
const send = (c: TestFixClient) => {
  const id = `${c.compId}-${++seq}`;
  if (stamps) stamp('sent', id, traceNow());
  sentAt.set(id, performance.now());
  inflight.set(c.compId, inflight.get(c.compId)! + 1);
  void c.send('D', newOrderSingle(id, { qty: '10', price: '27000' }));
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function drain(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (sentAt.size > 0 && Date.now() < until) await sleep(20);
}
function reset(): void {
  latencies = [];
  buckets = [];
  phaseStart = performance.now();
  copies = 0;
  sentAt.clear();
  for (const c of clients) inflight.set(c.compId, 0);
}

function timeline(): TimelineBucket[] {
  return Array.from(buckets, (b, i) => {
    const sorted = (b ?? []).sort((x, y) => x - y);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
    return { at: (i * BUCKET_MS) / 1000, orders: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
  });
}

async function run(c: ClientCommand): Promise<PhaseResult | undefined> {
  reset();
  stamps = c.cmd === 'fixed' && c.trace ? new Map() : undefined;
  messageTrace.sink = stamps && stamp;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let sent = 0;
  let elapsed = 0;
  if (c.cmd === 'warmup') {
    for (let i = 0; i < c.orders; i++) {
      send(clients[i % clients.length]!);
      if (i % 20 === 19) await sleep(5);
    }
    await drain(10_000);
    return undefined;
  }
  if (c.cmd === 'fixed') {
    // What is due is computed from the clock, so a late timer sends the orders it owes instead of
    // quietly lowering the rate.
    while (performance.now() - t0 < c.seconds * 1000) {
      const due = Math.floor(((performance.now() - t0) / 1000) * c.rate);
      while (sent < due) send(clients[sent++ % clients.length]!);
      await sleep(1);
    }
    elapsed = (performance.now() - t0) / 1000;
    await drain(10_000);
  } else if (c.cmd === 'full') {
    const stopAt = t0 + c.seconds * 1000;
    while (performance.now() < stopAt) {
      for (const cl of clients) {
        for (let k = inflight.get(cl.compId)!; k < c.window; k++) {
          send(cl);
          sent++;
        }
      }
      await sleep(1);
    }
    elapsed = (performance.now() - t0) / 1000;
  } else {
    await Promise.all([...clients, ...(dropCopy ? [dropCopy] : [])].map((cl) => cl.stop().catch(() => {})));
    return undefined;
  }
  const u = process.cpuUsage(cpu0);
  messageTrace.sink = undefined;
  const acked = latencies.length;
  return {
    sent,
    acked,
    seconds: elapsed,
    latencies: latencies.sort((a, b) => a - b),
    timeline: timeline(),
    cpuSeconds: (u.user + u.system) / 1e6,
    ...(dropCopy ? { copies } : {}),
    ...(stamps ? { trace: Object.fromEntries([...stamps].map(([stage, m]) => [stage, Object.fromEntries(m)])) } : {}),
  };
}

process.on('message', (c: ClientCommand) => {
  void run(c).then(
    (r) => {
      process.send!({ ok: true, result: r ?? null });
      if (c.cmd === 'stop') setTimeout(() => process.exit(0), 50);
    },
    (err: unknown) => process.send!({ ok: false, error: String(err) }),
  );
});
process.send!({ ready: true });
