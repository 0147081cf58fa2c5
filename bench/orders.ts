// Order intake benchmark: 10 FIX client sessions send NewOrderSingles to a real server; we measure
// the Pending New acknowledgement latency (order sent → ack received) at a fixed rate, and the
// sustained rate at full speed. On embedded PGlite and on PostgreSQL (synchronous_commit on: every
// ack follows a durable commit). The clients run in a process of their own (bench/order-clients.ts)
// on the same 2 cores. The clients have the default capability (short selling barred: every order is
// checked against the client's exposure) and 100,000 orders of history in the database.
//
// A baseline is measured in the same run: an older commit checked out in a git worktree
// beside the repository (made and installed once), running this very benchmark harness against its
// own server; the two alternate, two runs each, on each database. Results go to the "orders" section
// of BENCHMARKS.md.
//
//   npx tsx bench/orders.ts [--quick] [--no-write] [--db pglite|postgres|both] [--rate N]
//                           [--baseline REF | --no-baseline] [--rounds N] [--history N] [--drop-copy]
//                           (--drop-copy: each round also runs this code with a drop copy session of every client's reports)
//   npx tsx bench/orders.ts --run pglite|postgres   one run here, its result as one JSON line
//                           (the alternating parent starts each run with the Node flags of its checkout's `npm start`)
//                           [--profile FILE]  also the server's CPU profile of the full-speed phase
//                           [--trace]  also each stage of an order's acknowledgement at the fixed rate
//                                      (bench/order-trace.ts; the clients' and the server's stamps)
//                           [--table-stats]  PostgreSQL: also each table's rows and blocks read and written
//                                      per acknowledged order at full speed (pg_stat_user_tables, pg_statio_user_tables)
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDb, type Db, type DatabaseKind, type Queryable } from '@fixdesk/db';
import { createTestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/config';
import { startServer } from '../apps/server/src/server';
import { startOrderClients } from './order-clients-process';
import { testConfig } from '../tests/support/server';
import { machineDescription, writeSection } from './benchmarks-md';
import { addBenchConnectors, addBenchDropCopy } from './bench-connectors';
import { addClientHistory } from './order-history';
import { postgresCpuSeconds } from './proc-cpu';
import { traceReport, traceText, type Stamps, type TraceReport } from './order-trace';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    db: { type: 'string', default: 'both' },
    rate: { type: 'string' },
    run: { type: 'string' },
    baseline: { type: 'string', default: 'd3ddac2' },
    'no-baseline': { type: 'boolean', default: false },
    'drop-copy': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '2' },
    history: { type: 'string', default: '100000' },
    profile: { type: 'string' },
    trace: { type: 'boolean', default: false },
    'table-stats': { type: 'boolean', default: false },
  },
});
const SESSIONS = 10;
const FIXED_RATE = args.rate ? Number(args.rate) : 2000;
const FIXED_SECONDS = args.quick ? 3 : 10;
const FULL_SECONDS = args.quick ? 3 : 10;
/** The fixed rate's first seconds after the warm-up, measured apart (RunResult.cold). */
const COLD_SECONDS = args.quick ? 1 : 3;
/** Orders in flight per session at full speed (a client pipelines; the session acks in order). */
const WINDOW = 50;
const HISTORY = Number(args.history);
const ROUNDS = Number(args.rounds);

interface RunResult {
  db: DatabaseKind;
  /** PostgreSQL only: one-row durable commits at the fixed rate, nothing else running (the database's own floor). */
  commitFloor?: { p50: number; p99: number };
  /** CPU used during the fixed-rate phase, in cores (2 cores = 2.0): server, clients, PostgreSQL. */
  fixedCpu?: { server: number; clients: number; pg: number };
  /**
   * The first seconds at the fixed rate right after the 400-order warm-up: the server's code is still
   * being optimized by V8 (hundreds of functions reach the optimizing compiler only in these seconds),
   * so this is the latency just after a start. Reported beside the steady figures, not in them.
   */
  cold?: { seconds: number; p50: number; p99: number; max: number };
  fixed: {
    rate: number;
    sent: number;
    acked: number;
    p50: number;
    p99: number;
    max: number;
    achieved: number;
    /** The server's event loop delay during the phase (ms; perf_hooks, 1 ms resolution). */
    serverLoopDelay?: { p50: number; p99: number; max: number };
    /** The server's garbage collection pauses during the phase (count, total, p99 and longest, ms). */
    serverGc?: { pauses: number; totalMs: number; p99: number; max: number };
  };
  full: {
    sent: number;
    acked: number;
    seconds: number;
    ordersPerSecond: number;
    p50: number;
    p99: number;
    serverCpuUsPerOrder: number;
    clientCpuUsPerOrder: number;
    pgCpuUsPerOrder: number;
    /** With a drop copy session: the copies it received during the phase. */
    copies?: number;
  };
  /** With --trace: the stages of the fixed-rate phase's acknowledgements. */
  trace?: TraceReport;
}

/** CPU used by this process and by PostgreSQL since `from`. */
function cpuSince(from: { node: NodeJS.CpuUsage; pg: number }): { node: number; pg: number } {
  const u = process.cpuUsage(from.node);
  return { node: (u.user + u.system) / 1e6, pg: postgresCpuSeconds() - from.pg };
}

/** A table's counters (pg_stat_user_tables, pg_statio_user_tables): what its statements did, whatever the host's speed. */
type TableCounters = Record<string, number>;
const TABLE_COUNTERS = ['n_tup_ins', 'n_tup_upd', 'n_tup_hot_upd', 'n_tup_del', 'seq_tup_read', 'idx_tup_fetch', 'heap_blks', 'idx_blks'];

/**
 * Every table's counters now. A backend reports its counts when idle, at most once a second: read
 * after 1.5 s of quiet, in a fresh snapshot.
 */
async function tableStats(db: Queryable): Promise<Map<string, TableCounters>> {
  await new Promise((r) => setTimeout(r, 1500));
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.query<Record<string, string>>(
    `SELECT t.relname, t.n_tup_ins, t.n_tup_upd, t.n_tup_hot_upd, t.n_tup_del, coalesce(t.seq_tup_read, 0) AS seq_tup_read,
            coalesce(t.idx_tup_fetch, 0) AS idx_tup_fetch, coalesce(io.heap_blks_hit, 0) + coalesce(io.heap_blks_read, 0) AS heap_blks,
            coalesce(io.idx_blks_hit, 0) + coalesce(io.idx_blks_read, 0) AS idx_blks
       FROM pg_stat_user_tables t JOIN pg_statio_user_tables io USING (relid)`,
  );
  return new Map(rows.map((r) => [r.relname!, Object.fromEntries(TABLE_COUNTERS.map((k) => [k, Number(r[k])]))]));
}

/** The tables whose counters moved, each counter's change per order, busiest tables first. */
function tableStatsText(before: Map<string, TableCounters>, after: Map<string, TableCounters>, orders: number): string {
  const lines: Array<[number, string]> = [];
  for (const [table, a] of after) {
    const b = before.get(table);
    const d = TABLE_COUNTERS.map((k) => (a[k]! - (b?.[k] ?? 0)) / orders);
    const blocks = d[6]! + d[7]!;
    if (d.every((v) => v === 0)) continue;
    lines.push([blocks, `  ${table.padEnd(28)} ${TABLE_COUNTERS.map((k, i) => `${k} ${d[i]!.toFixed(2)}`).join('  ')}`]);
  }
  return lines
    .sort((x, y) => y[0] - x[0])
    .map(([, l]) => l)
    .join('\n');
}

/** The V8 profiler of this process (the server's), started now; stop() gives the profile (a .cpuprofile's JSON). */
async function startCpuProfile(): Promise<{ stop(): Promise<object> }> {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<object>((resolve, reject) => session.post(method, (err, res) => (err ? reject(err) : resolve(res as object))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await post('Profiler.stop')) as { profile: object };
      session.disconnect();
      return profile;
    },
  };
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
    const p: Promise<void> = db
      .query('INSERT INTO bench_commit_floor (payload) VALUES ($1)', [payload], { name: 'bench_commit_floor' })
      .then(() => {
        latencies.push(performance.now() - t0);
        pending.delete(p);
      });
    pending.add(p);
  };
  for (let i = 0; i < 200; i++)
    await db.query('INSERT INTO bench_commit_floor (payload) VALUES ($1)', [payload], { name: 'bench_commit_floor' });
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

/**
 * The run's database: PostgreSQL, a throwaway database; PGlite, a throwaway data directory on disk, as
 * `npm start` runs it (DATA_DIR), not the in-memory store of the tests, whose file growth costs what
 * the disk does not and whose writes cost nothing of what the disk's do.
 */
async function runDatabase(db: DatabaseKind): Promise<{ db: Db; dispose(): Promise<void> }> {
  if (db === 'postgres') return createTestDatabase(db, { migrate: false });
  const dir = mkdtempSync(join(tmpdir(), 'fixdesk-bench-pglite-'));
  const lite = await openDb({ dataDir: dir });
  return {
    db: lite,
    async dispose() {
      await lite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function runOne(db: DatabaseKind): Promise<RunResult> {
  const database = await runDatabase(db);
  // The server as `npm start` runs it: the tests' config but for the Desk Insights roll-up, which the
  // tests turn off and a desk runs in the background at its default interval (docs/adr/0019).
  const config = { ...testConfig({ insightsRollupMs: loadConfig({}).insightsRollupMs }), logLevel: 'silent' as const };
  const server = await startServer(config, {
    db: database.db,
    logger: pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' }),
    testClient: { ports: 'off' },
  });
  const compIds = Array.from({ length: SESSIONS }, (_, i) => `BENCH_${i + 1}`);
  await addBenchConnectors(database.db, compIds);
  // The desk's history: HISTORY orders over the clients, before their sessions start (as autovacuum would, analysed).
  for (const c of compIds) await addClientHistory(database.db, c, Math.round(HISTORY / SESSIONS));
  await database.db.query('VACUUM ANALYZE');
  // A desk running for months has its history rolled up: the roll-up's steps during the phases fold
  // only what they bring. Looked up at run time: the baseline's code has no roll-up.
  const foldHistory = ((await import('@fixdesk/db')) as Record<string, unknown>).rollUpInsightsFully;
  if (typeof foldHistory === 'function') await (foldHistory as (db: Db) => Promise<number>)(database.db);
  // With --drop-copy, a drop copy session of every client's reports, logged on in the clients' process.
  const dropCopy = args['drop-copy'] ? 'BENCH_COPIES' : undefined;
  if (dropCopy) await addBenchDropCopy(database.db, dropCopy);
  // The clients run in their own process (bench/order-clients.ts), as they would on their own machines.
  const clients = await startOrderClients(server.ctx.fix.port, compIds, dropCopy ? { dropCopy } : {});
  const floor = db === 'postgres' ? await commitFloor(database.db, FIXED_RATE, FIXED_SECONDS / 2) : undefined;
  if (floor) console.log(`[${db}] one-row commit floor at ${FIXED_RATE}/s: ${JSON.stringify(floor)}`);
  const command = clients.command;

  // --- warm-up (not measured): prepared statements, connection pool, the first compilations
  await command({ cmd: 'warmup', orders: 400 });

  // --- just after the start: the fixed rate while V8 still optimizes the intake's code (reported apart).
  const c = (await command({ cmd: 'fixed', rate: FIXED_RATE, seconds: COLD_SECONDS }))!;
  const cold = { seconds: COLD_SECONDS, p50: pct(c.latencies, 50), p99: pct(c.latencies, 99), max: c.latencies.at(-1) ?? NaN };
  console.log(`[${db}] just after the start, ${FIXED_RATE}/s for ${COLD_SECONDS} s: ${JSON.stringify(cold)}`);

  // --- fixed rate: FIXED_RATE orders/s spread over the sessions.
  // With --trace, the server's stamps of the phase (its engine and intake; none in a baseline's older code).
  const serverStamps = new Map<string, Map<string, number>>();
  const trace = args.trace
    ? (((await import('@fixdesk/fix')) as Record<string, unknown>).messageTrace as { sink: unknown } | undefined)
    : undefined;
  if (trace)
    trace.sink = (stage: string, id: string, at: number) => {
      let s = serverStamps.get(stage);
      if (!s) serverStamps.set(stage, (s = new Map()));
      if (!s.has(id)) s.set(id, at);
    };
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const gcPauses: number[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcPauses.push(e.duration);
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const fixedCpu0 = { node: process.cpuUsage(), pg: postgresCpuSeconds() };
  const f = (await command({ cmd: 'fixed', rate: FIXED_RATE, seconds: FIXED_SECONDS, ...(args.trace ? { trace: true } : {}) }))!;
  const fc = cpuSince(fixedCpu0);
  loopDelay.disable();
  gcObserver.disconnect();
  gcPauses.sort((a, b) => a - b);
  // The server's garbage collection pauses during the phase (ms): each one holds every message it has.
  const serverGc = {
    pauses: gcPauses.length,
    totalMs: gcPauses.reduce((a, b) => a + b, 0),
    p99: pct(gcPauses, 99),
    max: gcPauses.at(-1) ?? 0,
  };
  // How late the server's event loop ran a 1 ms timer during the phase (ms): what a message waits before the server even reads it.
  const serverLoopDelay = { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
  if (trace) trace.sink = undefined;
  const traced = f.trace
    ? traceReport(f.trace, Object.fromEntries([...serverStamps].map(([stage, m]) => [stage, Object.fromEntries(m)])) as Stamps)
    : undefined;
  if (traced) console.log(`[${db}] ${traceText(traced)}`);
  const fixedCpu = { server: fc.node / f.seconds, clients: f.cpuSeconds / f.seconds, pg: db === 'postgres' ? fc.pg / f.seconds : NaN };
  const fixed = {
    rate: FIXED_RATE,
    sent: f.sent,
    acked: f.acked,
    p50: pct(f.latencies, 50),
    p99: pct(f.latencies, 99),
    max: f.latencies.at(-1) ?? NaN,
    achieved: f.acked / f.seconds,
    serverLoopDelay,
    serverGc,
  };
  console.log(`[${db}] fixed ${FIXED_RATE}/s: ${JSON.stringify(fixed)}`);
  // Where in the phase the slow acknowledgements were: p50 / p99 / max (ms) of each half second of sending.
  const ms0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-');
  console.log(`[${db}] fixed, by half second: ${f.timeline.map((b) => `${b.at}s ${ms0(b.p50)}/${ms0(b.p99)}/${ms0(b.max)}`).join(' | ')}`);

  // --- full speed: each session keeps WINDOW orders in flight
  const profiler = args.profile ? await startCpuProfile() : undefined;
  const tables0 = args['table-stats'] && db === 'postgres' ? await tableStats(database.db) : undefined;
  const cpu0 = { node: process.cpuUsage(), pg: postgresCpuSeconds() };
  const u = (await command({ cmd: 'full', seconds: FULL_SECONDS, window: WINDOW }))!;
  const cpu = cpuSince(cpu0);
  if (profiler && args.profile) writeFileSync(args.profile, JSON.stringify(await profiler.stop()));
  const full = {
    sent: u.sent,
    acked: u.acked,
    seconds: u.seconds,
    ordersPerSecond: u.acked / u.seconds,
    p50: pct(u.latencies, 50),
    p99: pct(u.latencies, 99),
    // CPU per acknowledged order: the server's process, the clients' process and PostgreSQL (all its processes).
    serverCpuUsPerOrder: (cpu.node / u.acked) * 1e6,
    clientCpuUsPerOrder: (u.cpuSeconds / u.acked) * 1e6,
    pgCpuUsPerOrder: db === 'postgres' ? (cpu.pg / u.acked) * 1e6 : NaN,
    ...(u.copies !== undefined ? { copies: u.copies } : {}),
  };
  console.log(`[${db}] full speed: ${JSON.stringify(full)}`);
  if (tables0)
    console.log(`[${db}] full speed, per acknowledged order:\n${tableStatsText(tables0, await tableStats(database.db), u.acked)}`);

  await command({ cmd: 'stop' });
  await server.close();
  await database.dispose();
  rmSync(config.dataDir, { recursive: true, force: true });
  return { db, cold, fixed, full, fixedCpu, ...(floor ? { commitFloor: floor } : {}), ...(traced ? { trace: traced } : {}) };
}

// --- one run in this checkout (a child of the alternating parent below) ---
if (args.run) {
  const result = await runOne(args.run as DatabaseKind);
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  process.exit(0);
}

/** The files of this harness, copied into the baseline's checkout so both run the same benchmark. */
const HARNESS = [
  'orders.ts',
  'order-clients.ts',
  'order-clients-process.ts',
  'bench-connectors.ts',
  'order-history.ts',
  'order-trace.ts',
  'proc-cpu.ts',
  'benchmarks-md.ts',
];

/** The baseline's checkout: a git worktree beside the system's temporary files, made and installed once. */
function baselineTree(ref: string): string {
  const dir = join(tmpdir(), `fixdesk-bench-baseline-${ref}`);
  if (!existsSync(join(dir, 'node_modules'))) {
    console.log(`making the baseline's checkout of ${ref} (git worktree, npm ci) in ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    execFileSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'inherit' });
    execFileSync('git', ['worktree', 'add', '--detach', '--force', dir, ref], { cwd: root, stdio: 'inherit' });
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  }
  for (const f of HARNESS) copyFileSync(join(root, 'bench', f), join(dir, 'bench', f));
  return dir;
}

/**
 * The Node flags a checkout's `npm start` runs its server with (the options between `node` and
 * apps/server/dist/main.js in its package.json): a run measures the server as that checkout ships it.
 */
function serverNodeFlags(tree: string): string[] {
  const start = (JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts?.start ?? '';
  const flags = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+apps\/server\/dist\/main\.js/.exec(start)?.[1] ?? '';
  return flags.split(/\s+/).filter(Boolean);
}

function flagsText(tree: string): string {
  const flags = serverNodeFlags(tree);
  return flags.length ? flags.map((f) => `\`${f}\``).join(' ') : 'none';
}

/** One run of the benchmark in a checkout, in a process of its own; its result. */
function runIn(tree: string, kind: DatabaseKind, withDropCopy = false): Promise<RunResult> {
  const extra = [
    ...(args.quick ? ['--quick'] : []),
    ...(args.rate ? ['--rate', args.rate] : []),
    '--history',
    String(HISTORY),
    ...(withDropCopy ? ['--drop-copy'] : []),
    ...(args.trace ? ['--trace'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...serverNodeFlags(tree), '--import', 'tsx', 'bench/orders.ts', '--run', kind, ...extra], {
      cwd: tree,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      process.stdout.write(b);
    });
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('BENCH_RESULT '.length)) as RunResult);
      else reject(new Error(`benchmark run in ${tree} (${kind}) exited ${code}`));
    });
  });
}

const kinds: DatabaseKind[] = args.db === 'both' ? ['pglite', 'postgres'] : [args.db as DatabaseKind];
const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
const baseRef = args['no-baseline'] ? undefined : args.baseline;
/** This code with a drop copy session (--drop-copy), in the tables. */
const headWithCopy = `${head} + drop copy`;
const baseTree = baseRef ? baselineTree(baseRef) : undefined;
interface Labelled {
  code: string;
  round: number;
  r: RunResult;
}
const runs: Labelled[] = [];
const startedAt = new Date();
const loadAtStart = loadavg()[0]!;
// Alternated: baseline, this code, baseline, this code… on each database.
for (const k of kinds) {
  for (let round = 1; round <= ROUNDS; round++) {
    if (baseTree) runs.push({ code: baseRef!, round, r: await runIn(baseTree, k) });
    runs.push({ code: head, round, r: await runIn(root, k) });
    if (args['drop-copy']) runs.push({ code: headWithCopy, round, r: await runIn(root, k, true) });
  }
}
const loadAtEnd = loadavg()[0]!;
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const of = (code: string, db: DatabaseKind) => runs.filter((x) => x.code === code && x.r.db === db).map((x) => x.r);
const summary = (code: string, db: DatabaseKind) => {
  const rs = of(code, db);
  return rs.length
    ? {
        rate: mean(rs.map((r) => r.full.ordersPerSecond)),
        p50: mean(rs.map((r) => r.fixed.p50)),
        p99: mean(rs.map((r) => r.fixed.p99)),
        coldP99: mean(rs.map((r) => r.cold?.p99 ?? NaN)),
        floor: mean(rs.flatMap((r) => (r.commitFloor ? [r.commitFloor.p50] : []))),
        complete: rs.every((r) => r.fixed.acked === r.fixed.sent),
      }
    : undefined;
};

const m = machineDescription();
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');
const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const targetRows: string[] = [];
for (const k of kinds) {
  const cur = summary(head, k)!;
  const base = baseRef ? summary(baseRef, k) : undefined;
  if (base) {
    targetRows.push(
      `| ${k}: full-speed rate ≥ 1.0× the baseline's | ${cur.rate.toFixed(0)}/s against ${base.rate.toFixed(0)}/s (${x(cur.rate, base.rate)}) | ${verdict(cur.rate >= base.rate)} |`,
    );
    targetRows.push(
      `| ${k}: Pending New p50 at ${FIXED_RATE}/s no worse than the baseline's | ${ms(cur.p50)} ms against ${ms(base.p50)} ms (${x(cur.p50, base.p50)}) | ${verdict(cur.p50 <= base.p50 && cur.complete)} |`,
    );
    targetRows.push(
      `| ${k}: Pending New p99 at ${FIXED_RATE}/s no worse than the baseline's | ${ms(cur.p99)} ms against ${ms(base.p99)} ms (${x(cur.p99, base.p99)}) | ${verdict(cur.p99 <= base.p99 && cur.complete)} |`,
    );
    targetRows.push(
      `| ${k}: the same just after the start (first ${COLD_SECONDS} s; reported, not one of the issue's targets) | ${ms(cur.coldP99)} ms against ${ms(base.coldP99)} ms (${x(cur.coldP99, base.coldP99)}) | ${verdict(cur.coldP99 <= base.coldP99)} |`,
    );
  }
  if (k === 'postgres') {
    targetRows.push(`| postgres: ≥ 10,000 orders/s sustained | ${cur.rate.toFixed(0)}/s | ${verdict(cur.rate >= 10_000)} |`);
    targetRows.push(
      `| postgres: p50 ≤ 2× the one-row commit floor | ${ms(cur.p50)} ms against a floor of ${ms(cur.floor)} ms (${x(cur.p50, cur.floor)}) | ${verdict(cur.p50 <= 2 * cur.floor)} |`,
    );
    targetRows.push(
      `| postgres: p50 ≤ 0.5 ms and p99 ≤ 2 ms at ${FIXED_RATE}/s (issue 4) | ${ms(cur.p50)} / ${ms(cur.p99)} ms | ${verdict(cur.p50 <= 0.5 && cur.p99 <= 2 && cur.complete)} |`,
    );
  }
  // Issue 30: one drop copy session of every client's reports against none, this code both times.
  const withCopy = summary(headWithCopy, k);
  if (withCopy) {
    const plain = of(head, k);
    const copied = of(headWithCopy, k);
    const cpu = (rs: RunResult[], f: (r: RunResult) => number) => mean(rs.map(f));
    const serverCost = cpu(copied, (r) => r.full.serverCpuUsPerOrder) - cpu(plain, (r) => r.full.serverCpuUsPerOrder);
    const pgCost = cpu(copied, (r) => r.full.pgCpuUsPerOrder) - cpu(plain, (r) => r.full.pgCpuUsPerOrder);
    const delivered = mean(copied.map((r) => (r.full.copies ?? 0) / r.full.acked));
    targetRows.push(
      `| ${k}: a drop copy session's cost per order at full speed (CPU with − without: server${k === 'postgres' ? ' / PostgreSQL' : ''}; reported) | ${serverCost.toFixed(0)} µs${k === 'postgres' ? ` / ${pgCost.toFixed(0)} µs` : ''}; rate ${withCopy.rate.toFixed(0)}/s against ${cur.rate.toFixed(0)}/s without (${x(withCopy.rate, cur.rate)}); copies received during the phase ${(delivered * 100).toFixed(0)}% of its Pending News | reported |`,
    );
    if (base) {
      targetRows.push(
        `| ${k}: with a drop copy session, full-speed rate ≥ 1.0× the baseline's | ${withCopy.rate.toFixed(0)}/s against ${base.rate.toFixed(0)}/s (${x(withCopy.rate, base.rate)}) | ${verdict(withCopy.rate >= base.rate)} |`,
      );
      targetRows.push(
        `| ${k}: with a drop copy session, Pending New p50 / p99 at ${FIXED_RATE}/s no worse than the baseline's | ${ms(withCopy.p50)} / ${ms(withCopy.p99)} ms against ${ms(base.p50)} / ${ms(base.p99)} ms | ${verdict(withCopy.p50 <= base.p50 && withCopy.p99 <= base.p99 && withCopy.complete)} |`,
      );
    }
  }
}
const section = `
## Order intake

Run ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s, on ${head}${baseRef ? ` against the baseline ${baseRef} (its own server, this harness), alternated, ${ROUNDS} runs each` : ''}.
Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; 1-minute load average ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end (anything near or above the core count means other work shared the cores).
${SESSIONS} FIX sessions (our initiator, in a process of their own) send NewOrderSingles to the
server; latency is order sent → Pending New received, and every Pending New follows the order's
commit (PostgreSQL with synchronous_commit on; PGlite in a data directory on disk, as \`npm start\` runs it). The clients have the default capability (short
selling barred, so every order is checked against the client's exposure) and ${HISTORY.toLocaleString('en-US')} orders of
history in the database (\`bench/order-history.ts\`: filled outrights in live and expired months, one in
ten multileg), written before their sessions start.

| code | database | run | just after the start: p50 / p99 ms | fixed rate | acked/sent | p50 ms | p99 ms | max ms | full speed orders/s | full p50 ms | full p99 ms | CPU µs/order: server / clients / PostgreSQL | commit floor p50 / p99 ms |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${runs
  .map(
    ({ code, round, r }) =>
      `| ${code}${code === baseRef ? ' (baseline)' : ''} | ${r.db} | ${round} | ${r.cold ? `${ms(r.cold.p50)} / ${ms(r.cold.p99)}` : 'n/a'} | ${r.fixed.rate}/s for ${FIXED_SECONDS}s | ${r.fixed.acked}/${r.fixed.sent} | ${ms(r.fixed.p50)} | ${ms(r.fixed.p99)} | ${ms(r.fixed.max)} | ${r.full.ordersPerSecond.toFixed(0)} | ${ms(r.full.p50)} | ${ms(r.full.p99)} | ${r.full.serverCpuUsPerOrder.toFixed(0)} / ${r.full.clientCpuUsPerOrder.toFixed(0)} / ${Number.isFinite(r.full.pgCpuUsPerOrder) ? r.full.pgCpuUsPerOrder.toFixed(0) : 'in the server'} | ${r.commitFloor ? `${ms(r.commitFloor.p50)} / ${ms(r.commitFloor.p99)}` : 'n/a'} |`,
  )
  .join('\n')}

| target (issue 27; means of the runs) | measured | |
| --- | --- | --- |
${targetRows.join('\n')}

### What is measured
- **Path**: the server's FIX acceptor hands each NewOrderSingle to the order core without waiting for
  the previous one (the session's pipelined mode); the order core validates it with cached reference
  data and queues it; an intake batch (two in flight at a time) stores everything queued (orders, parties)
  and, in the same commit, each order's Pending New: its row and the FIX message itself, numbered on
  the client's session and stored in the FIX store, so one WAL flush makes order and acknowledgement
  durable; the bytes are written after the commit (docs/adr/0005, docs/adr/0007). The inbound
  message's own number is persisted by the session's store in a commit of its own, off that path.
- **Fixed rate**: ${FIXED_RATE} orders/s for ${FIXED_SECONDS} s, round-robin over the sessions, due orders computed from the clock
  (1 ms timer), after a warm-up of 400 orders that is not counted and ${COLD_SECONDS} s at the same rate measured
  apart (**just after the start**: V8 is still optimizing the server's code then; hundreds of its
  functions reach the optimizing compiler only in those seconds, so they show the latency of a freshly
  started server, not the intake's steady one). **Full speed**: each session keeps
  ${WINDOW} orders in flight for ${FULL_SECONDS} s; orders/s = Pending News received / elapsed.
- The clients (our own initiator sessions with memory stores: encode, persist, parse and validate
  every report) run in a process of their own (\`bench/order-clients.ts\`), as on their own machines,
  but on the same 2 cores as the server and PostgreSQL. **CPU per order** (full speed): CPU time of
  the server's process, of the clients' process and of all PostgreSQL processes, divided by the
  Pending News received; 2 cores give 2,000,000 µs per second, so their sum bounds the rate.
- **Drop copy** (\`--drop-copy\`, issue 30): each round also runs this code with one drop copy session of
  every client's reports (a connector with \`drop_copy_of\` empty) logged on in the clients' process, which
  counts the copies it receives; the cost per order is the difference of CPU per Pending New with and
  without it, this code both times, in the same run. A copy is not on a client's latency path: it is
  written by the report's own statement and sent after the commit (docs/adr/0017).
- **Baseline**: the older commit runs in a git worktree of its own (made once beside the system's
  temporary files, \`npm ci\` there), with this harness copied in, so both codes face the same clients,
  history and phases; each run is a process of its own, the two codes alternate.
- **Background work** as \`npm start\` runs it: this code's Desk Insights roll-up (docs/adr/0019) runs
  every ${loadConfig({}).insightsRollupMs / 1000} s in the server, folding the orders of the phases; the history is folded before the
  clients start, as on a desk that has been running (the baseline has no roll-up).
- **Node flags**: each code's runs start with the flags its own \`npm start\` gives the server
  (${[head, ...(baseTree && baseRef ? [baseRef] : [])].map((c) => `${c}: ${flagsText(c === head ? root : baseTree!)}`).join('; ')}); the server runs in the run's process, under tsx.
- **Floor** (PostgreSQL): before the orders, ${FIXED_RATE} one-row INSERTs a second into a scratch table with a
  primary key only, each its own commit with synchronous_commit on, from the benchmark's process on
  the same 1 ms timer, for ${FIXED_SECONDS / 2} s; nothing else runs meanwhile. **Cores busy**: CPU time of each
  process during the fixed-rate phase divided by its length.
`;
console.log(section);
if (!args['no-write'] && !args.quick) writeSection(join(root, 'BENCHMARKS.md'), 'orders', section);
process.exit(0);
