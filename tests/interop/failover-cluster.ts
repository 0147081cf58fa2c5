// Failover between server nodes as a client sees it (docs/adr/0012), shared by the failover
// test (which checks what each trial leaves) and the cluster benchmark (which times the takeovers):
// nodes as processes of their own on one new PostgreSQL database, and a QuickFIX C++ client whose
// settings list every node's acceptor (SocketConnectHost/Port, SocketConnectHost1/Port1, …).
//
// A trial kills the node owning the client's session with SIGKILL in the middle of a burst of orders,
// times how long until another node owns the session, starts the killed node again (same NODE_ID, port
// and database, as a supervisor would) once the session has moved, and waits for an answer to every
// order. The nodes and the client are kept from one trial to the next: each trial starts from the
// state the previous one left (a client logged on to the node that took over, the killed node back),
// so successive trials kill the nodes in turn and a returning node is the next takeover target.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '@fixdesk/db';
import { createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import { ADMIN_PASSWORD, seededDatabase } from '../support/seeded-database';
import { formatUtcTimestamp } from '@fixdesk/fix';
import type { QuickfixBuild } from '../../bench/quickfix/build';
import { maturity } from '../support/fix-client';
import { killHard, startServerProcess, type ServerProcess } from '../support/server-process';
import { field, initiatorSettings, QuickfixPeer } from './quickfix-peer';
import { freePort } from '../support/free-port';
import { until } from '../support/until';

export const FAILOVER_CLIENT = 'SGX_CLIENT_1';
const LEASE = `fix:FIX.4.4:FIXDESK:${FAILOVER_CLIENT}`;

export const orderLine = (clOrdId: string) =>
  `send 35=D|11=${clOrdId}|453=2|448=JSMITH|447=D|452=11|448=STRAITS|447=D|452=7|55=C5TC|167=FUT|200=${maturity(2)}|54=2|` +
  `60=${formatUtcTimestamp(Date.now())}|38=15|40=2|44=24500|59=0|100=SGX`;

/** The client's settings as its FIX team would write them: one acceptor address per node, in node order. */
function clientSettings(dictionaryPath: string, ports: readonly number[]): string {
  return initiatorSettings({
    senderCompID: FAILOVER_CLIENT,
    dictionaryPath,
    ports,
    heartBtIntSec: 5,
    extra: ['CheckLatency=Y', 'MaxLatency=120'],
  });
}

export interface ClusterNode {
  readonly name: string;
  readonly fixPort: number;
  /** The running process (replaced when the node is started again). */
  process: ServerProcess;
}

export interface FailoverTrialResult {
  readonly killed: string;
  readonly newOwner: string;
  /** From the SIGKILL to the lease owned (live) by another node. */
  readonly takeoverMs: number;
  /** The trial's ClOrdIDs, in the order sent. */
  readonly ids: readonly string[];
  /** The trial's orders the client had an answer for at the kill. */
  readonly ackedBeforeKill: ReadonlySet<string>;
  /** The trial's orders the client has an answer for at the end. */
  readonly answered: ReadonlySet<string>;
  /** ClOrdID → how many orders the desk stored with it (the trial's orders only). */
  readonly stored: ReadonlyMap<string, number>;
  /** Fill reports the desk stored for the client (no broker acts in a trial: must stay 0). */
  readonly fills: number;
  /** The client's lines from the kill on. */
  readonly linesAfterKill: readonly string[];
  /** The highest MsgSeqNum the client received from the killed node (before the new owner's Logon). */
  readonly lastServerSeqBefore: number;
}

/** What a trial broke of the failover rules; empty when it kept them all. */
export function failoverViolations(r: FailoverTrialResult): string[] {
  const out: string[] = [];
  const list = (what: string, ids: readonly string[]) => {
    if (ids.length) out.push(`${what}: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}`);
  };
  if (r.ackedBeforeKill.size >= r.ids.length) out.push(`the kill came after the burst (${r.ackedBeforeKill.size} answers): not mid-burst`);
  list(
    'stored more than once',
    [...r.stored].filter(([, n]) => n !== 1).map(([id]) => id),
  );
  list(
    'answered before the kill but not stored',
    [...r.ackedBeforeKill].filter((id) => !r.stored.has(id)),
  );
  list(
    'sent by the client but not stored',
    r.ids.filter((id) => !r.stored.has(id)),
  );
  list(
    'stored but never answered',
    [...r.stored.keys()].filter((id) => !r.answered.has(id)),
  );
  if (r.fills !== 0) out.push(`${r.fills} fill(s) stored for the client, none made`);
  // Numbers carried on: no reset asked, the new owner numbered on from the killed node's last message.
  const ourLogon = r.linesAfterKill.find((l) => l.startsWith('TX ') && field(l.slice(3), 35) === 'A');
  const theirLogon = r.linesAfterKill.find((l) => l.startsWith('RX ') && field(l.slice(3), 35) === 'A');
  if (!ourLogon) out.push('the client sent no Logon after the kill');
  else if (field(ourLogon.slice(3), 141) === 'Y') out.push('the client logged on with a reset (141=Y)');
  if (!theirLogon) out.push('no node answered the Logon after the kill');
  else if (!(Number(field(theirLogon.slice(3), 34)) > r.lastServerSeqBefore))
    out.push(`the new owner's Logon (34=${field(theirLogon.slice(3), 34)}) did not number on from ${r.lastServerSeqBefore}`);
  return out;
}

export class FailoverCluster {
  private readonly answeredSet = new Set<string>();
  private scanned = 0;

  private constructor(
    readonly database: TestDatabase,
    readonly nodes: ClusterNode[],
    /** A connection of the test's own, to read what the desk stored. */
    readonly check: Db,
    readonly client: QuickfixPeer,
    private readonly env: (node: ClusterNode) => Record<string, string>,
    private readonly dirs: string[],
    private readonly bundled: boolean,
  ) {}

  /**
   * `count` nodes (node-a, node-b, …) on one new database, a copy of the seeded template (migrated and
   * seeded as a first start leaves it: no node has migrations or a seed to run, so they start at once;
   * both would take turns through advisory locks if they had); the client's order rate cap lifted (the
   * burst is the trial's); the QuickFIX client started and logged on (to node-a, its first address). `clientLifetimeMs` bounds the client's process.
   * `leaseTtlMs` sets the nodes' LEASE_TTL_MS (unset: the production default, which the benchmark times);
   * `bundled` starts the nodes from the bundled sources (startServerProcess), not under tsx.
   */
  static async start(
    build: QuickfixBuild,
    o: { count?: number; logLevel?: string; clientLifetimeMs?: number; leaseTtlMs?: number; bundled?: boolean } = {},
  ): Promise<FailoverCluster> {
    const count = o.count ?? 2;
    const dirs: string[] = [];
    const database = await createTestDatabase('postgres', { template: seededDatabase() });
    const nodes: ClusterNode[] = [];
    let check: Db | undefined;
    let client: QuickfixPeer | undefined;
    try {
      const dataDirs = new Map<string, string>();
      const env = (n: ClusterNode) => ({
        DATABASE_URL: database.url!,
        NODE_ID: n.name,
        PORT: '0',
        FIX_PORT: String(n.fixPort),
        DATA_DIR: dataDirs.get(n.name)!,
        ADMIN_PASSWORD,
        LOG_LEVEL: o.logLevel ?? 'warn',
        ...(o.leaseTtlMs === undefined ? {} : { LEASE_TTL_MS: String(o.leaseTtlMs) }),
      });
      const bundled = o.bundled ?? false;
      const plan = [];
      for (let i = 0; i < count; i++) {
        const name = `node-${String.fromCharCode(97 + i)}`;
        const dir = mkdtempSync(join(tmpdir(), `fixdesk-fo-${name}-`));
        dirs.push(dir);
        dataDirs.set(name, dir);
        plan.push({ name, fixPort: await freePort() });
      }
      const startOne = async (p: { name: string; fixPort: number }) => {
        const half = { ...p, process: undefined as unknown as ServerProcess };
        half.process = await startServerProcess(env(half), p.name, { bundled });
        nodes.push(half);
      };
      await Promise.all(plan.map(startOne));
      nodes.sort((a, b) => a.name.localeCompare(b.name));

      const url = nodes[0]!.process.url;
      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      const { token } = (await login.json()) as { token: string };
      const put = await fetch(`${url}/api/client-connectors/${FAILOVER_CLIENT}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ max_orders_per_second: 100_000 }),
      });
      if (put.status !== 200) throw new Error(`could not lift the rate limit: ${put.status} ${await put.text()}`);
      check = await openDb({ databaseUrl: database.url!, poolSize: 1 });

      const clientDir = mkdtempSync(join(tmpdir(), 'qf-fo-'));
      dirs.push(clientDir);
      writeFileSync(
        join(clientDir, 'client.cfg'),
        clientSettings(
          build.dictionaryPath,
          nodes.map((n) => n.fixPort),
        ),
      );
      client = new QuickfixPeer({
        binary: build.programs.fixpeer,
        settingsFile: 'client.cfg',
        cwd: clientDir,
        dictionaryPath: build.dictionaryPath,
        waitTimeoutMs: 30_000,
        killAfterMs: o.clientLifetimeMs ?? 240_000,
      });
      client.script('start\nwait-logon');
      await client.waitForLine((l) => l.startsWith('LOGON'), 30_000);
      return new FailoverCluster(database, nodes, check, client, env, dirs, bundled);
    } catch (err) {
      client?.kill();
      for (const n of nodes) await killHard(n.process);
      await check?.close();
      await database.dispose();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      throw err;
    }
  }

  node(name: string): ClusterNode {
    const n = this.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name}`);
    return n;
  }

  /** The node holding the client's session lease, if it is live. */
  async owner(): Promise<string | undefined> {
    return (await this.check.query<{ owner: string }>('SELECT owner FROM leases WHERE name = $1 AND expires_at > now()', [LEASE])).rows[0]
      ?.owner;
  }

  /** Every ClOrdID the client has a report for (read incrementally: bursts print thousands of lines). */
  answered(): ReadonlySet<string> {
    const lines = this.client.lines;
    for (; this.scanned < lines.length; this.scanned++) {
      const line = lines[this.scanned]!;
      if (line.startsWith('APP ') && line.includes('|35=8|')) this.answeredSet.add(field(line.slice(4), 11)!);
    }
    return this.answeredSet;
  }

  /** Starts a node again with its own NODE_ID, port and data directory (after it was killed). */
  async restart(node: ClusterNode): Promise<void> {
    node.process = await startServerProcess(this.env(node), node.name, { bundled: this.bundled });
  }

  /**
   * One kill -9 trial: `orders` orders sent in chunks of `chunk` every `chunkGapMs` (so the kill falls
   * in the middle of the burst however quickly the owner answers); the owner is killed when
   * `killAfter` of them are answered. Resolves once every order is answered and the killed node runs
   * again; rejects if the takeover or the answers do not come within `timeoutMs` each.
   */
  async trial(o: {
    prefix: string;
    orders: number;
    killAfter: number;
    chunk?: number;
    chunkGapMs?: number;
    timeoutMs?: number;
  }): Promise<FailoverTrialResult> {
    const timeoutMs = o.timeoutMs ?? 30_000;
    const killed = await this.owner();
    if (!killed) throw new Error('no node owns the session at the start of the trial');
    const victim = this.node(killed);
    const ids = Array.from({ length: o.orders }, (_, i) => `${o.prefix}-${i + 1}`);
    const chunk = o.chunk ?? 20;
    const script: string[] = [];
    for (let i = 0; i < ids.length; i += chunk) {
      if (i) script.push(`sleep ${o.chunkGapMs ?? 50}`);
      script.push(...ids.slice(i, i + chunk).map(orderLine));
    }
    const mine = new Set(ids);
    const from = this.client.lines.length;
    let answers = 0;
    this.client.script(script.join('\n'));
    // Killed from the line listener the moment the answer that reaches the mark arrives.
    await this.client.waitForLine(
      (l) => l.startsWith('APP ') && l.includes('|35=8|') && mine.has(field(l.slice(4), 11)!) && ++answers >= o.killAfter,
      timeoutMs,
      from,
    );
    victim.process.child.kill('SIGKILL');
    const killedAt = Date.now();
    // The client's lines so far, counted before anything is awaited: it may notice the lost connection
    // and send its Logon to the other node while this process still waits for the killed one to end
    // (a CI run beside another suite counted them after that wait and found no Logon after the kill).
    const linesAtKill = this.client.lines.length;
    await killHard(victim.process);
    const ackedBeforeKill = new Set([...this.answered()].filter((id) => mine.has(id)));

    let newOwner: string | undefined;
    await until(
      'another node owning the session',
      async () => {
        newOwner = await this.owner();
        return newOwner !== undefined && newOwner !== killed;
      },
      timeoutMs,
      25,
    );
    const takeoverMs = Date.now() - killedAt;
    // Back (as a supervisor would start it) once the session has moved, so that the client's next
    // reconnect is the takeover being timed, not the killed node reclaiming its own lease.
    const restarted = this.restart(victim);
    try {
      await this.client.waitForLine((l) => l.startsWith('LOGON'), timeoutMs, linesAtKill);
      await until('an answer to every order of the trial', () => ids.every((id) => this.answered().has(id)), timeoutMs);
    } finally {
      await restarted;
    }
    // What the killed node sent reaches the client up to the new owner's answer to its Logon (messages
    // in flight at the kill arrive after it): the highest number before that answer is the killed node's last.
    const lines = this.client.lines;
    const newLogon = lines.findIndex((l, i) => i >= linesAtKill && l.startsWith('RX ') && field(l.slice(3), 35) === 'A');
    const lastServerSeqBefore = Math.max(
      ...lines
        .slice(0, newLogon < 0 ? lines.length : newLogon)
        .filter((l) => l.startsWith('RX '))
        .map((l) => Number(field(l.slice(3), 34))),
    );
    const { rows } = await this.check.query<{ clordid: string; n: number }>(
      'SELECT clordid, count(*)::int AS n FROM orders WHERE sendercompid = $1 AND clordid LIKE $2 GROUP BY clordid',
      [FAILOVER_CLIENT, `${o.prefix}-%`],
    );
    const fills = await this.check.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM execution_reports WHERE sendercompid = $1 AND exectype = 'F'",
      [FAILOVER_CLIENT],
    );
    return {
      killed,
      newOwner: newOwner!,
      takeoverMs,
      ids,
      ackedBeforeKill,
      answered: new Set([...this.answered()].filter((id) => mine.has(id))),
      stored: new Map(rows.map((r) => [r.clordid, r.n])),
      fills: fills.rows[0]!.n,
      linesAfterKill: this.client.lines.slice(linesAtKill),
      lastServerSeqBefore,
    };
  }

  async close(): Promise<void> {
    this.client.kill();
    // SIGKILL ends a stopped (SIGSTOP) process too.
    for (const n of this.nodes) await killHard(n.process);
    await this.check.close();
    await this.database.dispose();
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}
