// Several nodes on one PostgreSQL (docs/adr/0012): the timings the issue asks a benchmark
// for. Every node is a server process of its own (as `npm run cluster` runs them) on a throwaway
// database; the bench process hosts the signed-in browsers' WebSockets and the timed FIX client.
//   1. Takeover: kill -9 of the node owning a QuickFIX client's session mid-burst, N trials on one
//      pair of nodes (tests/interop/failover-cluster.ts, the failover test's trials): from the kill
//      to the lease owned by the other node.
//   2. Cross-node update latency: orders over FIX at node 1 at 500/s; a signed-in browser on every
//      node; when each receives the order's new_order, against the client's receipt of its Pending
//      New (sent by node 1 right after the order's commit) and against the order's sending. The
//      browser on node 1 is the same-node reference, in the same run. With 2 nodes, then 3.
//   3. What each added node costs the intake: the durable intake rate (10 FIX sessions at full speed
//      on node 1, Pending News/s) with a 2nd node, then a 2nd and a 3rd, running (each listening to the
//      node bus and serving a signed-in browser), each phase between two of node 1 alone and compared
//      with their mean (the database's growth and PostgreSQL's background work move the rate too).
// Results go to the "cluster" section of BENCHMARKS.md.
//
//   npx tsx bench/cluster.ts [--quick] [--no-write] [--trials N]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDb, type Db } from '@fixdesk/db';
import { createTestDatabase } from '@fixdesk/db/testing';
import { WebSocket } from 'ws';
import { FailoverCluster, failoverViolations } from '../tests/interop/failover-cluster';
import { freePort } from '../tests/support/free-port';
import { newOrderSingle, TestFixClient } from '../tests/support/fix-client';
import { startServerProcess, type ServerProcess } from '../tests/support/server-process';
import { addBenchConnectors } from './bench-connectors';
import { machineDescription, writeSection } from './benchmarks-md';
import { startOrderClients } from './order-clients-process';
import { postgresCpuSeconds, processCpuSeconds } from './proc-cpu';
import { buildQuickfix, quickfixUnavailable } from './quickfix/build';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, 'no-write': { type: 'boolean', default: false }, trials: { type: 'string' } },
});
const TRIALS = args.trials ? Number(args.trials) : args.quick ? 2 : 10;
const TRIAL_ORDERS = 200;
const TAKEOVER_TARGET_MS = 5_000;
const RATE = 500;
const LATENCY_SECONDS = args.quick ? 4 : 10;
const INTAKE_SECONDS = args.quick ? 3 : 8;
const SESSIONS = 10;
/** The sessions the 500 orders/s of the latency phase come over (100/s each, as from several clients). */
const TIMED_SESSIONS = 5;
const WINDOW = 50;
const ADMIN_PASSWORD = 'cluster-bench-admin-1';
const DEMO_PASSWORD = 'cluster-bench-demo-1';

const unavailable = quickfixUnavailable();
if (unavailable) throw new Error(`the cluster benchmark needs QuickFIX C++ (its client lists both nodes): ${unavailable}`);
const log = (line: string) => console.error(line);

function pct(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const sortNum = (xs: Iterable<number>) => [...xs].sort((a, b) => a - b);

// ---------------------------------------------------------------------------------------------------
// 1. Takeover
async function takeovers(): Promise<{ ms: number[]; broken: string[] }> {
  const build = buildQuickfix(['fixpeer']);
  const cluster = await FailoverCluster.start(build, { clientLifetimeMs: TRIALS * 60_000 + 60_000 });
  const ms: number[] = [];
  const broken: string[] = [];
  try {
    for (let i = 1; i <= TRIALS; i++) {
      const r = await cluster.trial({ prefix: `BT${i}`, orders: TRIAL_ORDERS, killAfter: TRIAL_ORDERS / 5 });
      const v = failoverViolations(r);
      if (v.length) broken.push(`trial ${i}: ${v.join('; ')}`);
      ms.push(r.takeoverMs);
      log(
        `takeover trial ${i}: ${r.killed} killed after ${r.ackedBeforeKill.size} answers, ${r.newOwner} owned the session after ${r.takeoverMs} ms${v.length ? ` (BROKE: ${v.join('; ')})` : ''}`,
      );
    }
  } finally {
    await cluster.close();
  }
  return { ms, broken };
}

// ---------------------------------------------------------------------------------------------------
// 2. and 3.: nodes, browsers, clients
interface Node {
  readonly name: string;
  readonly proc: ServerProcess;
  readonly fixPort: number;
  readonly browser: Browser;
}

/** A signed-in browser's WebSocket: when each order's new_order arrived (performance.now()). */
interface Browser {
  readonly newOrderAt: Map<string, number>;
  received: number;
  close(): void;
}

async function signIn(url: string, username: string, password: string): Promise<string> {
  const r = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await r.json()) as { token?: string };
  if (!body.token) throw new Error(`sign-in of ${username} at ${url} failed: ${r.status}`);
  return body.token;
}

async function openBrowser(url: string, track: (clOrdId: string) => boolean): Promise<Browser> {
  const token = await signIn(url, 'broker', DEMO_PASSWORD);
  const ws = new WebSocket(url.replace('http', 'ws') + '/ws');
  const b: Browser = { newOrderAt: new Map(), received: 0, close: () => ws.close() };
  let authenticated: () => void;
  const ready = new Promise<void>((r) => (authenticated = r));
  ws.on('message', (d) => {
    const at = performance.now();
    b.received++;
    // Only the type and the ClOrdID are read: this process also runs the timed FIX clients, whose
    // reading of their reports must not wait behind parsing whole orders for three browsers.
    const text = String(d);
    if (text.startsWith('{"type":"authenticated"')) authenticated();
    else if (text.startsWith('{"type":"new_order"')) {
      const id = /"clordid":"([^"]+)"/.exec(text)?.[1];
      if (id && track(id)) b.newOrderAt.set(id, at);
    }
  });
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  ws.send(JSON.stringify({ type: 'authenticate', token }));
  await Promise.race([
    ready,
    new Promise((_, j) => setTimeout(() => j(new Error(`the browser at ${url} was not signed in within 10 s`)), 10_000)),
  ]);
  return b;
}

interface LatencyResult {
  nodes: number;
  sent: number;
  acked: number;
  /** Order sent → Pending New at the client. */
  ack: { p50: number; p99: number };
  /** Per node (node 1 first): Pending New at the client → new_order at that node's browser, and order sent → new_order. */
  perNode: Array<{ node: string; received: number; fromAck: { p50: number; p99: number }; fromSend: { p50: number; p99: number } }>;
}

/** Orders at RATE/s over FIX at node 1 (round-robin over the timed sessions) for LATENCY_SECONDS; when every running node's browser received each. */
async function latencyPhase(nodes: readonly Node[], clients: readonly TestFixClient[], prefix: string): Promise<LatencyResult> {
  const sentAt = new Map<string, number>();
  const ackAt = new Map<string, number>();
  const restore = clients.map((client) => {
    const received = client.received;
    const origPush = received.push.bind(received);
    received.push = (...items) => {
      const now = performance.now();
      for (const m of items) if (m.msgType === '8' && m.get(150) === 'A') ackAt.set(m.get(11)!, now);
      return 0;
    };
    return () => (received.push = origPush);
  });
  try {
    const t0 = performance.now();
    let sent = 0;
    // What is due comes from the clock, so a late timer sends what it owes instead of lowering the rate.
    while (performance.now() - t0 < LATENCY_SECONDS * 1000) {
      const due = Math.floor(((performance.now() - t0) / 1000) * RATE);
      while (sent < due) {
        const id = `${prefix}-${++sent}`;
        sentAt.set(id, performance.now());
        void clients[sent % clients.length]!.send('D', newOrderSingle(id, { qty: '10', price: '27000' }));
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    const deadline = Date.now() + 15_000;
    const done = () => ackAt.size === sent && nodes.every((n) => [...sentAt.keys()].every((id) => n.browser.newOrderAt.has(id)));
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const ids = [...sentAt.keys()];
    const acks = ids.filter((id) => ackAt.has(id));
    return {
      nodes: nodes.length,
      sent,
      acked: acks.length,
      ack: (() => {
        const s = sortNum(acks.map((id) => ackAt.get(id)! - sentAt.get(id)!));
        return { p50: pct(s, 50), p99: pct(s, 99) };
      })(),
      perNode: nodes.map((n) => {
        const got = acks.filter((id) => n.browser.newOrderAt.has(id));
        const fromAck = sortNum(got.map((id) => n.browser.newOrderAt.get(id)! - ackAt.get(id)!));
        const fromSend = sortNum(got.map((id) => n.browser.newOrderAt.get(id)! - sentAt.get(id)!));
        return {
          node: n.name,
          received: got.length,
          fromAck: { p50: pct(fromAck, 50), p99: pct(fromAck, 99) },
          fromSend: { p50: pct(fromSend, 50), p99: pct(fromSend, 99) },
        };
      }),
    };
  } finally {
    for (const r of restore) r();
  }
}

interface IntakeResult {
  label: string;
  nodes: number;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  /** CPU µs per acknowledged order (until every browser had them): node 1, the other nodes together, PostgreSQL, the clients. */
  cpu: { node1: number; others: number; pg: number; clients: number };
}

// ---------------------------------------------------------------------------------------------------
const startedAt = new Date();
const loadStart = loadavg()[0]!;
log(`takeover: ${TRIALS} kill -9 trials on two nodes...`);
const take = await takeovers();

const database = await createTestDatabase('postgres');
const dirs: string[] = [];
const nodes: Node[] = [];
let check: Db | undefined;
const latencies: LatencyResult[] = [];
const intakes: IntakeResult[] = [];
try {
  const track = (id: string) => id.startsWith('LAT');
  const startNode = async (i: number): Promise<Node> => {
    const name = `node-${i}`;
    const dataDir = mkdtempSync(join(tmpdir(), `fixdesk-cluster-bench-${i}-`));
    dirs.push(dataDir);
    const fixPort = await freePort();
    // Sessions stay on node-1, where the benchmark's clients (one address each) log on: the nodes
    // started later would otherwise take over some of them once settled (rebalancing), and what is
    // measured here is the fan-out to other nodes and their cost, with the intake on one node.
    const proc = await startServerProcess(
      {
        DATABASE_URL: database.url!,
        NODE_ID: name,
        PORT: '0',
        FIX_PORT: String(fixPort),
        DATA_DIR: dataDir,
        ADMIN_PASSWORD,
        DEMO_PASSWORD,
        LOG_LEVEL: 'warn',
        REBALANCE_SESSIONS: 'false',
      },
      name,
    );
    const node = { name, proc, fixPort, browser: await openBrowser(proc.url, track) };
    nodes.push(node);
    log(`${name} up (${proc.url}), a broker signed in on it`);
    return node;
  };
  const node1 = await startNode(1);
  check = await openDb({ databaseUrl: database.url!, poolSize: 1 });
  const compIds = Array.from({ length: SESSIONS }, (_, i) => `BENCH_${i + 1}`);
  const timedIds = Array.from({ length: TIMED_SESSIONS }, (_, i) => `BENCH_LAT_${i + 1}`);
  await addBenchConnectors(check, [...compIds, ...timedIds]);
  const clients = await startOrderClients(node1.fixPort, compIds);
  const timed = timedIds.map((id) => new TestFixClient(id));
  for (const c of timed) await c.connect(node1.fixPort);
  await clients.command({ cmd: 'warmup', orders: 400 });

  /**
   * Until no browser has received anything for 750 ms: the other nodes publish node-1's orders after
   * reading them, and a phase must not start (or be charged) before the last phase's backlog is out.
   */
  const settle = async (what: string) => {
    const deadline = Date.now() + 120_000;
    let last = nodes.map((n) => n.browser.received);
    let quietSince = Date.now();
    while (Date.now() - quietSince < 750) {
      if (Date.now() > deadline) throw new Error(`the browsers still received messages 120 s after ${what}`);
      await new Promise((res) => setTimeout(res, 50));
      const now = nodes.map((n) => n.browser.received);
      if (now.some((v, i) => v !== last[i])) quietSince = Date.now();
      last = now;
    }
  };
  const intake = async (label: string): Promise<IntakeResult> => {
    await settle('the last phase');
    // What autovacuum does on a desk's PostgreSQL (this machine's test server runs with it off): the
    // rows updated with every message and order (session numbers, leases, orders) otherwise pile up
    // dead versions, and each phase would pay more than the one before for the last one's updates.
    // (It does not stop the drift of node 1 alone over a run: hence the phases around each.)
    await check!.query('VACUUM ANALYZE');
    const pids = nodes.map((n) => n.proc.child.pid!);
    const cpu0 = { nodes: pids.map(processCpuSeconds), pg: postgresCpuSeconds() };
    const r = (await clients.command({ cmd: 'full', seconds: INTAKE_SECONDS, window: WINDOW }))!;
    // The other nodes' work for these orders (reading and publishing them) counts until it is done.
    await settle(label);
    const used = pids.map((pid, i) => processCpuSeconds(pid) - cpu0.nodes[i]!);
    const pg = postgresCpuSeconds() - cpu0.pg;
    const perOrder = (s: number) => (s / r.acked) * 1e6;
    const result = {
      label,
      nodes: nodes.length,
      ordersPerSecond: r.acked / r.seconds,
      p50: pct(r.latencies, 50),
      p99: pct(r.latencies, 99),
      cpu: {
        node1: perOrder(used[0]!),
        others: perOrder(used.slice(1).reduce((a, b) => a + b, 0)),
        pg: perOrder(pg),
        clients: perOrder(r.cpuSeconds),
      },
    };
    log(`intake, ${label}: ${JSON.stringify(result)}`);
    return result;
  };
  const latency = async (prefix: string) => {
    await settle('the last phase');
    const r = await latencyPhase(nodes, timed, prefix);
    log(`latency, ${nodes.length} nodes: ${JSON.stringify(r)}`);
    latencies.push(r);
  };

  const stopOtherNodes = async () => {
    for (const n of nodes.splice(1).reverse()) {
      n.browser.close();
      const exited = new Promise((r) => n.proc.child.once('exit', r));
      n.proc.child.kill('SIGTERM');
      await exited;
    }
  };
  // Each phase with more nodes sits between two phases of node 1 alone, and is compared with their
  // mean: the intake rate of one node drifts over a run as the database grows and PostgreSQL's
  // background work (autovacuum, checkpoints) comes and goes, by as much as adding a node changes it.
  intakes.push(await intake('node 1 alone'));
  await startNode(2);
  intakes.push(await intake('+ node 2'));
  await latency('LAT2');
  await stopOtherNodes();
  intakes.push(await intake('node 1 alone'));
  await startNode(2);
  await startNode(3);
  intakes.push(await intake('+ nodes 2 and 3'));
  await latency('LAT3');
  await stopOtherNodes();
  intakes.push(await intake('node 1 alone'));
  await clients.command({ cmd: 'stop' });
  for (const c of timed) await c.stop();
} finally {
  for (const n of nodes) {
    n.browser.close();
    if (n.proc.child.exitCode === null) n.proc.child.kill('SIGKILL');
  }
  await check?.close();
  await database.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
const loadEnd = loadavg()[0]!;

// ---------------------------------------------------------------------------------------------------
const m = machineDescription();
const fmt = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const int = (v: number) => Math.round(v).toLocaleString('en-US');
const tk = sortNum(take.ms);
const tkP50 = pct(tk, 50);
const tkMax = tk.at(-1) ?? NaN;
/** Node 1 alone just before and just after a phase with more nodes (their mean is its reference). */
const aloneAround = (i: number) => (intakes[i - 1]!.ordersPerSecond + intakes[i + 1]!.ordersPerSecond) / 2;
const seconds = Math.round((Date.now() - startedAt.getTime()) / 1000);
const latencyRows = latencies.flatMap((l) => {
  const same = l.perNode[0]!;
  return l.perNode.map((p, i) =>
    i === 0
      ? `| ${l.nodes} | ${p.node} (same node: the reference) | ${p.received}/${l.sent} | ${fmt(p.fromAck.p50, 2)} / ${fmt(p.fromAck.p99, 2)} | ${fmt(p.fromSend.p50, 2)} / ${fmt(p.fromSend.p99, 2)} | 1 |`
      : `| ${l.nodes} | ${p.node} | ${p.received}/${l.sent} | ${fmt(p.fromAck.p50, 2)} / ${fmt(p.fromAck.p99, 2)} | ${fmt(p.fromSend.p50, 2)} / ${fmt(p.fromSend.p99, 2)} | ${fmt(p.fromSend.p50 / same.fromSend.p50, 2)} / ${fmt(p.fromSend.p99 / same.fromSend.p99, 2)} |`,
  );
});
const twoNodes = latencies.find((l) => l.nodes === 2);
const cross = twoNodes?.perNode[1];
const same = twoNodes?.perNode[0];
const section = `## Several nodes on one PostgreSQL: takeover, cross-node updates, intake per added node

Run ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${args.quick ? ' (**quick run**)' : ''}, ${seconds} s.
Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}; 1-minute load average ${loadStart.toFixed(2)} at the start, ${loadEnd.toFixed(2)} at the end. Every node, PostgreSQL, the clients and the browsers share these cores.

| target (issue 22) | measured | |
| --- | --- | --- |
| the surviving node owns the session within 5 s of a kill -9 | p50 ${int(tkP50)} ms, max ${int(tkMax)} ms over ${tk.length} trials${take.broken.length ? `; **${take.broken.length} trial(s) broke a failover rule**` : ', every rule kept'} | ${tkMax <= TAKEOVER_TARGET_MS && !take.broken.length ? 'met' : '**not met**'} |
| cross-node update latency at ${RATE} order updates/s (2 nodes) | p50 ${fmt(cross?.fromAck.p50 ?? NaN, 2)} ms, p99 ${fmt(cross?.fromAck.p99 ?? NaN, 2)} ms after the client's Pending New; from the order's sending ${fmt(cross?.fromSend.p50 ?? NaN, 2)} / ${fmt(cross?.fromSend.p99 ?? NaN, 2)} ms against ${fmt(same?.fromSend.p50 ?? NaN, 2)} / ${fmt(same?.fromSend.p99 ?? NaN, 2)} ms on the same node (${fmt((cross?.fromSend.p50 ?? NaN) / (same?.fromSend.p50 ?? NaN), 1)}× / ${fmt((cross?.fromSend.p99 ?? NaN) / (same?.fromSend.p99 ?? NaN), 1)}×) | ${(cross?.fromAck.p99 ?? Infinity) <= 200 ? 'within the 200 ms of the two-node test' : '**beyond the 200 ms of the two-node test**'} |

**Takeover** (kill -9 of the owner mid-burst; all ${tk.length} in ms): ${tk.map(int).join(', ')}.${take.broken.length ? `\n\n${take.broken.map((b) => `- ${b}`).join('\n')}` : ''}

**Order updates across nodes** at ${RATE} new orders/s over FIX at node-1 for ${LATENCY_SECONDS} s (ms; p50 / p99):

| nodes | browser on | received | Pending New → browser | order sent → browser | ratio to same node (from sent) |
| ---: | --- | ---: | ---: | ---: | ---: |
${latencyRows.join('\n')}

Order sent → Pending New at the client: ${latencies.map((l) => `${l.nodes} nodes p50 ${fmt(l.ack.p50, 2)} ms, p99 ${fmt(l.ack.p99, 2)} ms`).join('; ')}.

**Intake per added node**: ${SESSIONS} FIX sessions on node-1 at full speed (${WINDOW} orders in flight each) for ${INTAKE_SECONDS} s; every node serves a signed-in browser.

| nodes running | durable intake orders/s | vs node 1 alone (the phases before and after) | Pending New p50 / p99 ms | CPU µs/order: node-1 / other nodes / PostgreSQL / clients |
| --- | ---: | ---: | ---: | ---: |
${intakes.map((r, i) => `| ${r.label} (${r.nodes}) | ${int(r.ordersPerSecond)} | ${r.nodes === 1 ? '' : `${r.ordersPerSecond >= aloneAround(i) ? '+' : ''}${fmt(((r.ordersPerSecond - aloneAround(i)) / aloneAround(i)) * 100)} %`} | ${fmt(r.p50, 2)} / ${fmt(r.p99, 2)} | ${int(r.cpu.node1)} / ${int(r.cpu.others)} / ${int(r.cpu.pg)} / ${int(r.cpu.clients)} |`).join('\n')}

### What is measured
- **Nodes**: server processes of their own (\`apps/server/src/main.ts\`, as \`npm run cluster\` starts them) with their own \`NODE_ID\`, HTTP and FIX ports on one new PostgreSQL database; \`LEASE_TTL_MS\` at its default (3 s); \`REBALANCE_SESSIONS=false\`, so the sessions stay on node-1, where the clients log on, as nodes are added.
- **Takeover** (\`tests/interop/failover-cluster.ts\`, the trials the failover test checks): a QuickFIX C++ client (file store, \`ReconnectInterval=1\`, both acceptors listed as SocketConnectHost/Port and SocketConnectHost1/Port1) sends ${TRIAL_ORDERS} orders in chunks of 20 every 50 ms; at the ${TRIAL_ORDERS / 5}th answer the node owning its session gets SIGKILL; measured: from the kill to the session's lease owned, live, by the other node (polled every 25 ms), which happens at the client's first Logon there after the dead node's lease ran out. The killed node is started again once the session has moved, so the trials kill the two nodes in turn. Each trial also checks the failover rules (every answered order stored once, every sent order stored and answered, no reset, the new owner numbers on).
- **Order updates across nodes**: the bench process holds ${TIMED_SESSIONS} FIX sessions at node-1 (${RATE} NewOrderSingles/s round-robin over them, due orders computed from the clock) and one signed-in broker's WebSocket on every node. *Pending New → browser*: from the client's receipt of the order's Pending New (node-1 sends it right after the order's commit) to the browser's receipt of the order (\`new_order\`); on node-1 the order is published locally, on the others it comes through the node bus (NOTIFY with ids, then each order read from the database). *Order sent → browser* includes the intake. Ratio: cross-node over same-node, both from the order's sending.
- **Intake per added node**: orders/s = Pending News received / elapsed, by the ${SESSIONS} sessions of \`bench/order-clients.ts\` (a process of its own); node-1 alone, then with a 2nd node (it listens to the node bus, reads every order node-1 publishes for its signed-in browser, renews leases, runs its timers), node-1 alone again, with a 2nd and a 3rd node, and alone again; each phase with more nodes is compared with the mean of the phases of node-1 alone just before and after it, because the rate of node-1 alone drifts over a run (the database grows, PostgreSQL's autovacuum and checkpoints come and go). **CPU per order**: each process's CPU time (from /proc) from the phase's start until every browser has received its last order, over the Pending News received. Each phase starts once the browsers have been quiet for 750 ms (the other nodes' backlog of the last phase published).
`;
console.log(section);
if (!args['no-write'] && !args.quick) writeSection(join(root, 'BENCHMARKS.md'), 'cluster', section);
process.exit(0);
