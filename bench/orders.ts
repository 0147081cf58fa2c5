// Order intake benchmark: 10 FIX client sessions send NewOrderSingles to a real server; we measure
// the Pending New acknowledgement latency (order sent → ack received) at a fixed rate, and the
// sustained rate at full speed. On embedded PGlite and on PostgreSQL (synchronous_commit on: every
// ack follows a durable commit). The clients run in a process of their own (bench/order-clients.ts)
// on the same 2 cores. Results go to the "orders" section of BENCHMARKS.md.
//
//   npx tsx bench/orders.ts [--quick] [--no-write] [--db pglite|postgres|both] [--rate N]
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { DatabaseKind, Queryable } from '@fixdesk/db';
import { createTestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { startServer } from '../apps/server/src/server';
import { startOrderClients } from './order-clients-process';
import { testConfig } from '../tests/support/server';
import { machineDescription, writeSection } from './benchmarks-md';
import { addBenchConnectors } from './bench-connectors';
import { postgresCpuSeconds } from './proc-cpu';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    db: { type: 'string', default: 'both' },
    rate: { type: 'string' },
  },
});
const SESSIONS = 10;
const FIXED_RATE = args.rate ? Number(args.rate) : 2000;
const FIXED_SECONDS = args.quick ? 3 : 10;
const FULL_SECONDS = args.quick ? 3 : 10;
/** Orders in flight per session at full speed (a client pipelines; the session acks in order). */
const WINDOW = 50;


interface RunResult {
  db: DatabaseKind;
  /** PostgreSQL only: one-row durable commits at the fixed rate, nothing else running (the database's own floor). */
  commitFloor?: { p50: number; p99: number };
  /** CPU used during the fixed-rate phase, in cores (2 cores = 2.0): server, clients, PostgreSQL. */
  fixedCpu?: { server: number; clients: number; pg: number };
  fixed: { rate: number; sent: number; acked: number; p50: number; p99: number; max: number; achieved: number };
  full: { sent: number; acked: number; seconds: number; ordersPerSecond: number; p50: number; p99: number; serverCpuUsPerOrder: number; clientCpuUsPerOrder: number; pgCpuUsPerOrder: number };
}

/** CPU used by this process and by PostgreSQL since `from`. */
function cpuSince(from: { node: NodeJS.CpuUsage; pg: number }): { node: number; pg: number } {
  const u = process.cpuUsage(from.node);
  return { node: (u.user + u.system) / 1e6, pg: postgresCpuSeconds() - from.pg };
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * The database's floor at the fixed rate: one-row INSERTs into a scratch table (primary key only), each
 * its own durable commit, started on the same clock-driven 1 ms timer as the orders, from this process
 * while nothing else runs. An acknowledgement can be no faster than this plus two loopback hops.
 */
async function commitFloor(db: Queryable, rate: number, seconds: number): Promise<{ p50: number; p99: number }> {
  await db.query('CREATE TABLE bench_commit_floor (id bigserial PRIMARY KEY, payload text NOT NULL)');
  const payload = 'x'.repeat(300);
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  const one = () => {
    const t0 = performance.now();
    const p: Promise<void> = db.query('INSERT INTO bench_commit_floor (payload) VALUES ($1)', [payload], { name: 'bench_commit_floor' }).then(() => {
      latencies.push(performance.now() - t0);
      pending.delete(p);
    });
    pending.add(p);
  };
  for (let i = 0; i < 200; i++) await db.query('INSERT INTO bench_commit_floor (payload) VALUES ($1)', [payload], { name: 'bench_commit_floor' });
  latencies.length = 0;
  const t0 = performance.now();
  let sent = 0;
  while (performance.now() - t0 < seconds * 1000) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    while (sent < due) {
      one();
      sent++;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  await db.query('DROP TABLE bench_commit_floor');
  latencies.sort((a, b) => a - b);
  return { p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

async function runOne(db: DatabaseKind): Promise<RunResult> {
  const database = await createTestDatabase(db, { migrate: false });
  const config = { ...testConfig(), logLevel: 'silent' as const };
  const server = await startServer(config, { db: database.db, logger: pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' }), testClient: { ports: 'off' } });
  const compIds = Array.from({ length: SESSIONS }, (_, i) => `BENCH_${i + 1}`);
  await addBenchConnectors(database.db, compIds);
  // The clients run in their own process (bench/order-clients.ts), as they would on their own machines.
  const clients = await startOrderClients(server.ctx.fix.port, compIds);
  const floor = db === 'postgres' ? await commitFloor(database.db, FIXED_RATE, FIXED_SECONDS / 2) : undefined;
  if (floor) console.log(`[${db}] one-row commit floor at ${FIXED_RATE}/s: ${JSON.stringify(floor)}`);
  const command = clients.command;

  // --- warm-up (not measured): prepared statements, JIT, connection pool
  await command({ cmd: 'warmup', orders: 400 });

  // --- fixed rate: FIXED_RATE orders/s spread over the sessions.
  const fixedCpu0 = { node: process.cpuUsage(), pg: postgresCpuSeconds() };
  const f = (await command({ cmd: 'fixed', rate: FIXED_RATE, seconds: FIXED_SECONDS }))!;
  const fc = cpuSince(fixedCpu0);
  const fixedCpu = { server: fc.node / f.seconds, clients: f.cpuSeconds / f.seconds, pg: db === 'postgres' ? fc.pg / f.seconds : NaN };
  const fixed = {
    rate: FIXED_RATE,
    sent: f.sent,
    acked: f.acked,
    p50: pct(f.latencies, 50),
    p99: pct(f.latencies, 99),
    max: f.latencies.at(-1) ?? NaN,
    achieved: f.acked / f.seconds,
  };
  console.log(`[${db}] fixed ${FIXED_RATE}/s: ${JSON.stringify(fixed)}`);

  // --- full speed: each session keeps WINDOW orders in flight
  const cpu0 = { node: process.cpuUsage(), pg: postgresCpuSeconds() };
  const u = (await command({ cmd: 'full', seconds: FULL_SECONDS, window: WINDOW }))!;
  const cpu = cpuSince(cpu0);
  const full = {
    sent: u.sent, acked: u.acked, seconds: u.seconds, ordersPerSecond: u.acked / u.seconds, p50: pct(u.latencies, 50), p99: pct(u.latencies, 99),
    // CPU per acknowledged order: the server's process, the clients' process and PostgreSQL (all its processes).
    serverCpuUsPerOrder: (cpu.node / u.acked) * 1e6,
    clientCpuUsPerOrder: (u.cpuSeconds / u.acked) * 1e6,
    pgCpuUsPerOrder: db === 'postgres' ? (cpu.pg / u.acked) * 1e6 : NaN,
  };
  console.log(`[${db}] full speed: ${JSON.stringify(full)}`);

  await command({ cmd: 'stop' });
  await server.close();
  await database.dispose();
  rmSync(config.dataDir, { recursive: true, force: true });
  return { db, fixed, full, fixedCpu, ...(floor ? { commitFloor: floor } : {}) };
}

const kinds: DatabaseKind[] = args.db === 'both' ? ['pglite', 'postgres'] : [args.db as DatabaseKind];
const results: RunResult[] = [];
const startedAt = new Date();
const loadAtStart = loadavg()[0]!;
for (const k of kinds) results.push(await runOne(k));
const loadAtEnd = loadavg()[0]!;
const pg = results.find((r) => r.db === 'postgres');
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

const m = machineDescription();
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');
const section = `
## Order intake

Run ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s.
Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; 1-minute load average ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end (anything near or above the core count means other work shared the cores).
${SESSIONS} FIX sessions (our initiator, in a process of their own) send NewOrderSingles to the
server; latency is order sent → Pending New received, and every Pending New follows the order's
commit (PostgreSQL with synchronous_commit on). Targets on PostgreSQL: p50 ≤ 0.5 ms and p99 ≤ 2 ms
at 2,000 orders/s; ≥ 10,000 orders/s sustained.

| database | fixed rate | acked/sent | p50 ms | p99 ms | max ms | full speed orders/s | full p50 ms | full p99 ms | CPU µs/order: server / clients / PostgreSQL |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${results
  .map((r) => `| ${r.db} | ${r.fixed.rate}/s for ${FIXED_SECONDS}s | ${r.fixed.acked}/${r.fixed.sent} | ${ms(r.fixed.p50)} | ${ms(r.fixed.p99)} | ${ms(r.fixed.max)} | ${r.full.ordersPerSecond.toFixed(0)} | ${ms(r.full.p50)} | ${ms(r.full.p99)} | ${r.full.serverCpuUsPerOrder.toFixed(0)} / ${r.full.clientCpuUsPerOrder.toFixed(0)} / ${Number.isFinite(r.full.pgCpuUsPerOrder) ? r.full.pgCpuUsPerOrder.toFixed(0) : 'in the server'} |`)
  .join('\n')}
${pg ? `
| target (issue 4, PostgreSQL) | measured | |
| --- | --- | --- |
| Pending New p50 ≤ 0.5 ms at 2,000 orders/s | ${ms(pg.fixed.p50)} ms | ${verdict(pg.fixed.p50 <= 0.5 && pg.fixed.acked === pg.fixed.sent)} |
| Pending New p99 ≤ 2 ms at 2,000 orders/s | ${ms(pg.fixed.p99)} ms | ${verdict(pg.fixed.p99 <= 2 && pg.fixed.acked === pg.fixed.sent)} |
| ≥ 10,000 orders/s sustained | ${pg.full.ordersPerSecond.toFixed(0)}/s | ${verdict(pg.full.ordersPerSecond >= 10_000)} |
${pg.commitFloor && pg.fixedCpu ? `
What the machine allows at ${FIXED_RATE}/s, measured in the same run:
- one-row durable commits alone (the database's floor, nothing else running): p50 ${ms(pg.commitFloor.p50)} ms, p99 ${ms(pg.commitFloor.p99)} ms;
- cores busy during the fixed-rate phase: server ${pg.fixedCpu.server.toFixed(2)}, clients ${pg.fixedCpu.clients.toFixed(2)}, PostgreSQL ${pg.fixedCpu.pg.toFixed(2)} of 2
  (at this rate batches hold one to three orders, so per-statement and per-wake-up costs dominate: compare the CPU per order at full speed).
` : ''}` : ''}
### What is measured
- **Path**: the server's FIX acceptor hands each NewOrderSingle to the order core without waiting for
  the previous one (the session's pipelined mode); the order core validates it with cached reference
  data and queues it; an intake batch (two in flight at a time) stores everything queued (orders, parties)
  and, in the same commit, each order's Pending New: its row and the FIX message itself, numbered on
  the client's session and stored in the FIX store, so one WAL flush makes order and acknowledgement
  durable; the bytes are written after the commit (docs/adr/0005, docs/adr/0007). The inbound
  message's own number is persisted by the session's store in a commit of its own, off that path.
- **Fixed rate**: ${FIXED_RATE} orders/s for ${FIXED_SECONDS} s, round-robin over the sessions, due orders computed from the clock
  (1 ms timer), after a warm-up of 400 orders that is not counted. **Full speed**: each session keeps
  ${WINDOW} orders in flight for ${FULL_SECONDS} s; orders/s = Pending News received / elapsed.
- The clients (our own initiator sessions with memory stores: encode, persist, parse and validate
  every report) run in a process of their own (\`bench/order-clients.ts\`), as on their own machines,
  but on the same 2 cores as the server and PostgreSQL. **CPU per order** (full speed): CPU time of
  the server's process, of the clients' process and of all PostgreSQL processes, divided by the
  Pending News received; 2 cores give 2,000,000 µs per second, so their sum bounds the rate.
- **Floor** (PostgreSQL): before the orders, ${FIXED_RATE} one-row INSERTs a second into a scratch table with a
  primary key only, each its own commit with synchronous_commit on, from the benchmark's process on
  the same 1 ms timer, for ${FIXED_SECONDS / 2} s; nothing else runs meanwhile. **Cores busy**: CPU time of each
  process during the fixed-rate phase divided by its length.
`;
console.log(section);
if (!args['no-write'] && !args.quick) writeSection(join(root, 'BENCHMARKS.md'), 'orders', section);
process.exit(0);
