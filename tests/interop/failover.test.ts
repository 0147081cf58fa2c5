// Failover between two nodes (issue 22, docs/adr/0012): two server processes on one PostgreSQL, a
// QuickFIX C++ client whose settings list both acceptors (SocketConnectHost/Port and
// SocketConnectHost1/Port1). The node owning the client's session is killed with SIGKILL mid-burst;
// the other node owns the session within 5 s of the kill, the client logs on there with its stored
// numbers (no reset), every order the client got an answer for exists exactly once, every order it
// sent is stored and answered. FAILOVER_TRIALS trials (default 1) report the worst takeover.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { openDb, type Db } from '@fixdesk/db';
import { createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import { formatUtcTimestamp } from '@fixdesk/fix';
import { buildQuickfix, quickfixUnavailable, type QuickfixBuild } from '../../bench/quickfix/build';
import { maturity } from '../support/fix-client';
import { field, freePort, QuickfixPeer } from './quickfix-peer';

const root = new URL('../..', import.meta.url).pathname;
const ADMIN_PASSWORD = 'failover-admin-pw-1';
const ORDERS = 600;
const TRIALS = Number(process.env.FAILOVER_TRIALS ?? 1);
const CLIENT = 'SGX_CLIENT_1';
const TAKEOVER_BOUND_MS = 5_000;

const unavailable = quickfixUnavailable();
if (unavailable && process.env.CI) throw new Error(`the failover test cannot run in CI: ${unavailable}`);
const skip = unavailable ? `failover test skipped: ${unavailable}` : false;

interface Node {
  readonly name: string;
  readonly child: ChildProcess;
  readonly url: string;
}

/** A node as its own process (so SIGKILL is a real kill -9). */
async function startNode(name: string, databaseUrl: string, fixPort: number, dataDir: string): Promise<Node> {
  const { ADMIN_PASSWORD: _a, DEMO_PASSWORD: _d, DATABASE_URL: _u, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...env, DATABASE_URL: databaseUrl, NODE_ID: name, PORT: '0', FIX_PORT: String(fixPort), DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: 'warn', TEST_CLIENT_PORTS: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${out}`)), 60_000);
    const check = () => {
      const m = /FixDesk is running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      } else if (child.exitCode !== null) {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${child.exitCode}:\n${out}`));
      } else setTimeout(check, 50);
    };
    check();
  });
  return { name, child, url };
}

async function killHard(n: Node): Promise<void> {
  if (n.child.exitCode !== null || n.child.signalCode !== null) return;
  const exited = new Promise((resolve) => n.child.once('exit', resolve));
  n.child.kill('SIGKILL');
  await exited;
}

async function untilTrue(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
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
      const database: TestDatabase = await createTestDatabase('postgres');
      const dirs = [mkdtempSync(join(tmpdir(), 'fixdesk-fo-a-')), mkdtempSync(join(tmpdir(), 'fixdesk-fo-b-')), mkdtempSync(join(tmpdir(), 'qf-fo-'))];
      const [dataA, dataB, clientDir] = dirs as [string, string, string];
      const [portA, portB] = [await freePort(), await freePort()];
      const nodes: Node[] = [];
      let qf: QuickfixPeer | undefined;
      let check: Db | undefined;
      try {
        // Node A first (it migrates and seeds), then node B on the same database.
        const nodeA = await startNode('node-a', database.url!, portA, dataA);
        nodes.push(nodeA);
        nodes.push(await startNode('node-b', database.url!, portB, dataB));
        const login = await fetch(`${nodeA.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
        const { token } = (await login.json()) as { token: string };
        const put = await fetch(`${nodeA.url}/api/client-connectors/${CLIENT}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ max_orders_per_second: 100_000 }),
        });
        assert.equal(put.status, 200, await put.text());
        check = await openDb({ databaseUrl: database.url!, poolSize: 1 });
        const owner = async () => (await check!.query<{ owner: string; live: boolean }>("SELECT owner, expires_at > now() AS live FROM leases WHERE name = 'fix:FIX.4.4:FIXDESK:SGX_CLIENT_1'")).rows[0];

        // The client's settings as its FIX team would write them: node A first, node B second.
        writeFileSync(
          join(clientDir, 'client.cfg'),
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
            `DataDictionary=${build.dictionaryPath}`,
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
        qf = new QuickfixPeer({ binary: build.programs.fixpeer, settingsFile: 'client.cfg', cwd: clientDir, dictionaryPath: build.dictionaryPath, waitTimeoutMs: 30_000, killAfterMs: 240_000 });
        qf.script('start\nwait-logon');
        await qf.waitForLine((l) => l.startsWith('LOGON'), 30_000);
        assert.equal((await owner())?.owner, 'node-a');

        const ids = Array.from({ length: ORDERS }, (_, i) => `FO${trial}-${i + 1}`);
        const answeredSet = new Set<string>();
        let scanned = 0;
        const answered = () => {
          for (; scanned < qf!.lines.length; scanned++) {
            const line = qf!.lines[scanned]!;
            if (line.startsWith('APP ') && line.includes('|35=8|')) answeredSet.add(field(line.slice(4), 11)!);
          }
          return answeredSet;
        };
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
        await untilTrue('node B owning the session', async () => (await owner())?.owner === 'node-b', 30_000, 25);
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
        for (const n of nodes) await killHard(n);
        await check?.close();
        await database.dispose();
        for (const d of dirs) rmSync(d, { recursive: true, force: true });
      }
    });
  }

  test('worst takeover over the trials', { skip: TRIALS < 1 }, () => {
    if (takeovers.length) console.log(`# takeover over ${takeovers.length} trial(s): worst ${Math.max(...takeovers)} ms, all ${takeovers.join(', ')} ms`);
  });
});
