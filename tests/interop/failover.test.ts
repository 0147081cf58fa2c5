// Failover between two nodes (issue 22, docs/adr/0012): two server processes on one PostgreSQL, a
// QuickFIX C++ client whose settings list both acceptors (SocketConnectHost/Port and
// SocketConnectHost1/Port1). The node owning the client's session is killed with SIGKILL mid-burst;
// the other node owns the session within 5 s of the kill, the client logs on there with its stored
// numbers (no reset), every order the client got an answer for exists exactly once, every order it
// sent is stored and answered. FAILOVER_TRIALS trials (default 1) report the worst takeover. And a
// paused owner (SIGSTOP past its lease, SIGCONT after the other node took over) stores nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { openDb, type Db } from '@fixdesk/db';
import { createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import { formatUtcTimestamp } from '@fixdesk/fix';
import { buildQuickfix, quickfixUnavailable, type QuickfixBuild } from '../../bench/quickfix/build';
import { maturity } from '../support/fix-client';
import { killHard, startServerProcess, type ServerProcess } from '../support/server-process';
import { field, freePort, QuickfixPeer } from './quickfix-peer';

const ADMIN_PASSWORD = 'failover-admin-pw-1';
const ORDERS = 600;
const TRIALS = Number(process.env.FAILOVER_TRIALS ?? 1);
const CLIENT = 'SGX_CLIENT_1';
const TAKEOVER_BOUND_MS = 5_000;

const unavailable = quickfixUnavailable();
if (unavailable && process.env.CI) throw new Error(`the failover test cannot run in CI: ${unavailable}`);
const skip = unavailable ? `failover test skipped: ${unavailable}` : false;

interface Node extends ServerProcess {
  readonly name: string;
}

/** A node as its own process (so SIGKILL is a real kill -9). */
async function startNode(name: string, databaseUrl: string, fixPort: number, dataDir: string, logLevel: string): Promise<Node> {
  const p = await startServerProcess({ DATABASE_URL: databaseUrl, NODE_ID: name, PORT: '0', FIX_PORT: String(fixPort), DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: logLevel }, name);
  return { name, ...p };
}

async function closeCluster(cluster: Awaited<ReturnType<typeof twoNodes>> | undefined, dirs: string[]): Promise<void> {
  for (const n of cluster?.nodes ?? []) await killHard(n);
  await cluster?.check.close();
  await cluster?.database.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}


async function untilTrue(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The client's settings as its FIX team would write them: node A first, node B second. */
function writeClientSettings(dir: string, dictionaryPath: string, portA: number, portB: number): void {
  writeFileSync(
    join(dir, 'client.cfg'),
    [
      '[DEFAULT]',
      'ConnectionType=initiator',
      'HeartBtInt=5',
      'ReconnectInterval=1',
      'NonStopSession=Y',
      'StartTime=00:00:00',
      'EndTime=00:00:00',
      'FileStorePath=store',
      'UseDataDictionary=Y',
      `DataDictionary=${dictionaryPath}`,
      'ResetOnLogon=N',
      'CheckLatency=Y',
      'MaxLatency=120',
      '[SESSION]',
      'BeginString=FIX.4.4',
      `SenderCompID=${CLIENT}`,
      'TargetCompID=FIXDESK',
      'SocketConnectHost=127.0.0.1',
      `SocketConnectPort=${portA}`,
      'SocketConnectHost1=127.0.0.1',
      `SocketConnectPort1=${portB}`,
      '',
    ].join('\n'),
  );
}

/** Node A (it migrates and seeds), then node B, on one new database; the client's order rate cap lifted. */
async function twoNodes(dirs: string[], logLevel = 'warn'): Promise<{ database: TestDatabase; nodes: Node[]; ports: [number, number]; check: Db; owner(): Promise<string | undefined> }> {
  const database = await createTestDatabase('postgres');
  const [dataA, dataB] = [mkdtempSync(join(tmpdir(), 'fixdesk-fo-a-')), mkdtempSync(join(tmpdir(), 'fixdesk-fo-b-'))];
  dirs.push(dataA, dataB);
  const ports: [number, number] = [await freePort(), await freePort()];
  const nodes: Node[] = [];
  nodes.push(await startNode('node-a', database.url!, ports[0], dataA, logLevel));
  nodes.push(await startNode('node-b', database.url!, ports[1], dataB, logLevel));
  const login = await fetch(`${nodes[0]!.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
  const { token } = (await login.json()) as { token: string };
  const put = await fetch(`${nodes[0]!.url}/api/client-connectors/${CLIENT}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ max_orders_per_second: 100_000 }),
  });
  assert.equal(put.status, 200, await put.text());
  const check = await openDb({ databaseUrl: database.url!, poolSize: 1 });
  const owner = async () =>
    (await check.query<{ owner: string }>("SELECT owner FROM leases WHERE name = 'fix:FIX.4.4:FIXDESK:SGX_CLIENT_1' AND expires_at > now()")).rows[0]?.owner;
  return { database, nodes, ports, check, owner };
}

/** Every order answered once the client has one report per ClOrdID; counted incrementally (bursts print thousands of lines). */
function answersOf(qf: QuickfixPeer): () => Set<string> {
  const answered = new Set<string>();
  let scanned = 0;
  return () => {
    for (; scanned < qf.lines.length; scanned++) {
      const line = qf.lines[scanned]!;
      if (line.startsWith('APP ') && line.includes('|35=8|')) answered.add(field(line.slice(4), 11)!);
    }
    return answered;
  };
}

const orderLine = (clOrdId: string) =>
  `send 35=D|11=${clOrdId}|453=2|448=JSMITH|447=D|452=11|448=STRAITS|447=D|452=7|55=C5TC|167=FUT|200=${maturity(2)}|54=2|` +
  `60=${formatUtcTimestamp(Date.now())}|38=15|40=2|44=24500|59=0|100=SGX`;

describe('kill -9 of the node owning a session mid-burst, QuickFIX client listing both nodes', { skip, timeout: 600_000 }, () => {
  let build: QuickfixBuild;
  const takeovers: number[] = [];
  before(() => {
    build = buildQuickfix(['fixpeer']);
  });

  for (let trial = 1; trial <= TRIALS; trial++) {
    test(`trial ${trial}: the other node owns the session within 5 s; no answered order lost or doubled, numbers carry on`, async () => {
      const dirs = [mkdtempSync(join(tmpdir(), 'qf-fo-'))];
      const clientDir = dirs[0]!;
      let cluster: Awaited<ReturnType<typeof twoNodes>> | undefined;
      let qf: QuickfixPeer | undefined;
      try {
        cluster = await twoNodes(dirs);
        const { nodes, ports, check, owner } = cluster;
        const nodeA = nodes[0]!;
        writeClientSettings(clientDir, build.dictionaryPath, ...ports);
        qf = new QuickfixPeer({ binary: build.programs.fixpeer, settingsFile: 'client.cfg', cwd: clientDir, dictionaryPath: build.dictionaryPath, waitTimeoutMs: 30_000, killAfterMs: 240_000 });
        qf.script('start\nwait-logon');
        await qf.waitForLine((l) => l.startsWith('LOGON'), 30_000);
        assert.equal(await owner(), 'node-a');

        const ids = Array.from({ length: ORDERS }, (_, i) => `FO${trial}-${i + 1}`);
        const answered = answersOf(qf);
        qf.script(ids.map(orderLine).join('\n'));
        let answers = 0;
        await qf.waitForLine((l) => l.startsWith('APP ') && l.includes('|35=8|') && ++answers >= ORDERS / 5, 60_000);
        nodeA.child.kill('SIGKILL');
        const killedAt = Date.now();
        await killHard(nodeA);
        const lastServerSeqBefore = Math.max(...qf.messages('RX').map((m) => Number(field(m, 34))));
        const ackedBeforeKill = new Set(answered());
        const linesAtKill = qf.lines.length;

        // Node B owns the session once node A's lease ran out and the client came to it.
        await untilTrue('node B owning the session', async () => (await owner()) === 'node-b', 30_000, 25);
        const takeover = Date.now() - killedAt;
        takeovers.push(takeover);
        await qf.waitForLine((l) => l.startsWith('LOGON'), 30_000, linesAtKill);
        await untilTrue('an answer to every order', () => answered().size === ORDERS, 60_000);

        assert.ok(ackedBeforeKill.size < ORDERS, `the kill came after the burst (${ackedBeforeKill.size} answers): not mid-burst`);
        assert.ok(takeover <= TAKEOVER_BOUND_MS, `node B owned the session ${takeover} ms after the kill`);
        const { rows } = await check.query<{ clordid: string; n: number }>('SELECT clordid, count(*)::int AS n FROM orders WHERE sendercompid = $1 GROUP BY clordid', [CLIENT]);
        const stored = new Map(rows.map((r) => [r.clordid, r.n]));
        assert.deepEqual(rows.filter((r) => r.n !== 1).map((r) => r.clordid), [], 'orders stored more than once');
        assert.deepEqual([...ackedBeforeKill].filter((id) => !stored.has(id)), [], 'answered before the kill but not stored');
        assert.deepEqual(ids.filter((id) => !stored.has(id)), [], 'sent by the client but not stored');
        assert.deepEqual([...stored.keys()].filter((id) => !answered().has(id)), [], 'stored but never answered');
        const fills = await check.query<{ n: number }>("SELECT count(*)::int AS n FROM execution_reports WHERE sendercompid = $1 AND exectype = 'F'", [CLIENT]);
        assert.equal(fills.rows[0]!.n, 0, 'nothing filled');

        // Numbers carried on: no reset asked, node B numbered on from node A's last message.
        const after = qf.lines.slice(linesAtKill);
        const ourLogon = after.find((l) => l.startsWith('TX ') && field(l.slice(3), 35) === 'A');
        assert.ok(ourLogon, 'the client sent a Logon after the kill');
        assert.notEqual(field(ourLogon!.slice(3), 141), 'Y', 'the client logged on without a reset');
        const theirLogon = after.find((l) => l.startsWith('RX ') && field(l.slice(3), 35) === 'A');
        assert.ok(theirLogon, 'node B answered the Logon');
        assert.ok(Number(field(theirLogon!.slice(3), 34)) > lastServerSeqBefore, 'node B numbered on from node A');
        console.log(`# trial ${trial}: killed after ${ackedBeforeKill.size} answers; node B owned the session ${takeover} ms after the kill; all ${ORDERS} answered`);
      } finally {
        qf?.kill();
        await closeCluster(cluster, dirs);
      }
    });
  }

  test('a paused owner (SIGSTOP past its lease) writes nothing after the other node took over', async () => {
    const dirs = [mkdtempSync(join(tmpdir(), 'qf-fo-'))];
    const clientDir = dirs[0]!;
    let cluster: Awaited<ReturnType<typeof twoNodes>> | undefined;
    let qf: QuickfixPeer | undefined;
    try {
      // At info, node A's log shows its session's writes refused after it wakes.
      cluster = await twoNodes(dirs, 'info');
      const { nodes, ports, check, owner } = cluster;
      const nodeA = nodes[0]!;
      writeClientSettings(clientDir, build.dictionaryPath, ...ports);
      qf = new QuickfixPeer({ binary: build.programs.fixpeer, settingsFile: 'client.cfg', cwd: clientDir, dictionaryPath: build.dictionaryPath, waitTimeoutMs: 30_000, killAfterMs: 120_000 });
      const answered = answersOf(qf);
      qf.script('start\nwait-logon');
      await qf.waitForLine((l) => l.startsWith('LOGON'), 30_000);
      qf.script(['P-1', 'P-2', 'P-3'].map(orderLine).join('\n'));
      await untilTrue('answers on node A', () => answered().size === 3, 10_000);

      // Node A stops (a long GC pause, a frozen VM) with the client's session open. The client hears
      // nothing, gives up on it (heartbeat timeout), and comes to node B once node A's lease ran out.
      nodeA.child.kill('SIGSTOP');
      const linesAtPause = qf.lines.length;
      await qf.waitForLine((l) => l.startsWith('LOGON'), 60_000, linesAtPause);
      assert.equal(await owner(), 'node-b');
      qf.script(['P-4', 'P-5'].map(orderLine).join('\n'));
      await untilTrue('answers on node B', () => answered().size === 5, 10_000);

      // Node A wakes up still believing it serves the session: it finds its term taken over, drops
      // the session, and none of its writes land (they would reuse numbers node B has used).
      nodeA.child.kill('SIGCONT');
      await untilTrue('node A noticing it lost its leases', () => /lease taken over by another node|fenced out/.test(nodeA.output()), 10_000);
      qf.script(['P-6'].map(orderLine).join('\n'));
      await untilTrue('an answer on node B after node A woke', () => answered().size === 6, 10_000);
      const reused = await check.query<{ msg_seq_num: number; n: number }>(
        `SELECT m.msg_seq_num, count(*)::int AS n FROM fix_messages m JOIN fix_session_state s USING (begin_string, sender_comp_id, target_comp_id)
          WHERE m.target_comp_id = $1 AND m.direction = 'TX' AND NOT m.poss_dup AND m.store_epoch = s.store_epoch
          GROUP BY m.msg_seq_num HAVING count(*) > 1`,
        [CLIENT],
      );
      assert.deepEqual(reused.rows, [], 'an outbound number stored twice');
      const fenced = nodeA.output().split('\n').filter((l) => l.includes('fenced out')).length;
      // Whether node A tried to write at all depends on what it ran first on waking (a heartbeat tick, or the closed socket).
      console.log(`# node A woke: ${fenced} log line(s) of its session's writes refused by the fence; no number stored twice`);
      const state = await check.query<{ owner_node: string; next_target_seq: number }>('SELECT owner_node, next_target_seq FROM fix_session_state WHERE target_comp_id = $1', [CLIENT]);
      assert.equal(state.rows[0]!.owner_node, 'node-b');
      const clientNext = Math.max(...qf.messages('TX').map((m) => Number(field(m, 34)))) + 1;
      await untilTrue('the last inbound number stored by node B', async () => (await check.query<{ n: number }>('SELECT next_target_seq AS n FROM fix_session_state WHERE target_comp_id = $1', [CLIENT])).rows[0]!.n === clientNext, 5_000);
    } finally {
      qf?.kill();
      for (const n of cluster?.nodes ?? []) if (n.child.exitCode === null) n.child.kill('SIGCONT');
      await closeCluster(cluster, dirs);
    }
  });

  test('worst takeover over the trials', { skip: TRIALS < 1 }, () => {
    if (takeovers.length) console.log(`# takeover over ${takeovers.length} trial(s): worst ${Math.max(...takeovers)} ms, all ${takeovers.join(', ')} ms`);
  });
});
