// One crash trial as a client would see it, shared by the crash-safety test (which checks
// what it leaves) and the recovery benchmark (which times it): a QuickFIX C++ client (its own file
// store, reconnecting every second) sends a burst of orders to the server running as a process of its
// own on PostgreSQL; the server is killed with SIGKILL after `killAt` answers, restarted on the same
// database and port, and the client logs on again without a reset; the trial ends when every order
// has an answer (or `answerTimeoutMs` passed). With `sendWhileDown`, the client sends that many more
// orders while the server is down: QuickFIX stores them unsent, and they reach the restarted server
// only by the resend its ResendRequest asks for (PossDupFlag), the resend exchange of a real outage.
// With `dropCopy`, a second QuickFIX session logs on as a drop copy session of the client's reports
// (docs/adr/0017) before the burst and reconnects after the restart like the client; the trial then
// also waits for a copy of every report the client got (`copyTimeoutMs`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Queryable } from '@fixdesk/db';
import { createTestDatabase } from '@fixdesk/db/testing';
import { ADMIN_PASSWORD, seededDatabase } from '../support/seeded-database';
import { formatUtcTimestamp } from '@fixdesk/fix';
import type { QuickfixBuild } from '../../bench/quickfix/build';
import { maturity } from '../support/fix-client';
import { killHard, startServerProcess, type ServerProcess } from '../support/server-process';
import { field, fieldsOf, QuickfixPeer } from './quickfix-peer';
import { freePort } from '../support/free-port';
import { until } from '../support/until';

export const CRASH_CLIENT = 'SGX_CLIENT_1';
export const CRASH_DROP_COPY = 'CRASH_COPIES';

const orderLine = (clOrdId: string) =>
  `send 35=D|11=${clOrdId}|453=2|448=JSMITH|447=D|452=11|448=STRAITS|447=D|452=7|55=C5TC|167=FUT|200=${maturity(2)}|54=2|` +
  `60=${formatUtcTimestamp(Date.now())}|38=15|40=2|44=24500|59=0|100=SGX`;

export interface CrashTrialResult {
  /** The ClOrdIDs the client sent, in order. */
  readonly ids: readonly string[];
  /** Orders the client had an answer for when the server was killed. */
  readonly ackedBeforeCrash: ReadonlySet<string>;
  /** Orders the server had stored at the kill (read before the restart). */
  readonly storedAtCrash: number;
  /** Orders the client has an answer for at the end. */
  readonly answered: ReadonlySet<string>;
  /** From the client's new logon to the answer of its last order (undefined: not all answered in time). */
  readonly answeredWithinMs: number | undefined;
  /** From the burst's first order to the answer the kill came at: this run's own pace before the crash. */
  readonly beforeCrashMs: number;
  /** ClOrdID → how many orders the server stored with it, at the end. */
  readonly stored: ReadonlyMap<string, number>;
  /** The client's lines (QuickFIX's events and messages) after the kill. */
  readonly linesAfterCrash: readonly string[];
  /** The highest MsgSeqNum the client received before the kill. */
  readonly lastServerSeqBefore: number;
  /** With `dropCopy`: what each side saw, and what the database holds at the end. */
  readonly dropCopy?: {
    /** ExecIDs of the reports the client received (each once, however often it got one). */
    readonly clientExecIds: ReadonlySet<string>;
    /** ExecID → the copies the drop copy session's application received, each with its PossResend (97). */
    readonly copies: ReadonlyMap<
      string,
      ReadonlyArray<{ possResend: boolean; copyMsgIndicator: string | undefined; clientParty: boolean }>
    >;
    /** ExecIDs of every report the server ever wrote for the client. */
    readonly storedExecIds: ReadonlySet<string>;
    /** The Rejects (35=3) QuickFIX sent the desk on the drop copy session (a copy its dictionary refused). */
    readonly sessionRejects: readonly string[];
    /** Whether every report the client got had its copy within `copyTimeoutMs`. */
    readonly allCopied: boolean;
  };
}

export async function runCrashTrial(
  build: QuickfixBuild,
  o: {
    orders: number;
    killAt: number;
    prefix: string;
    answerTimeoutMs: number;
    sendWhileDown?: number;
    dropCopy?: boolean;
    copyTimeoutMs?: number;
    /** Starts the server from the bundled sources (startServerProcess), not under tsx. */
    bundled?: boolean;
  },
): Promise<CrashTrialResult> {
  // A copy of the seeded template (as the server's first start leaves it): no migrations in this process
  // nor a seed at the first start, only what the trial is about.
  const database = await createTestDatabase('postgres', { template: seededDatabase() });
  const dataDir = mkdtempSync(join(tmpdir(), 'fixdesk-crash-'));
  const store = mkdtempSync(join(tmpdir(), 'qf-crash-'));
  const copyStore = mkdtempSync(join(tmpdir(), 'qf-crash-copies-'));
  const fixPort = await freePort();
  let server: ServerProcess | undefined;
  let qf: QuickfixPeer | undefined;
  let copies: QuickfixPeer | undefined;
  const check = await openDb({ databaseUrl: database.url!, poolSize: 1 });
  const serverEnv = {
    DATABASE_URL: database.url!,
    PORT: '0',
    FIX_PORT: String(fixPort),
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: process.env.CRASH_DEBUG ? 'info' : 'warn',
  };
  try {
    server = await startServerProcess(serverEnv, 'server', { bundled: o.bundled });
    // The burst is the trial's, not the rate limit's: lift the client's orders-per-second cap.
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const put = await fetch(`${server.url}/api/client-connectors/${CRASH_CLIENT}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ max_orders_per_second: 100_000 }),
    });
    if (put.status !== 200) throw new Error(`could not lift the rate limit: ${put.status} ${await put.text()}`);
    if (o.dropCopy) {
      const made = await fetch(`${server.url}/api/client-connectors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          comp_id: CRASH_DROP_COPY,
          execution_id_prefix: 'CCP',
          session_type: 'drop_copy',
          drop_copy_of: [CRASH_CLIENT],
          timezone: 'UTC',
          trading_days: 'M,T,W,T,F,S,S',
          start_time: '00:00',
          end_time: '23:59:59',
        }),
      });
      if (made.status !== 200) throw new Error(`could not make the drop copy connector: ${made.status} ${await made.text()}`);
      copies = new QuickfixPeer({
        binary: build.programs.fixpeer,
        mode: 'initiator',
        port: fixPort,
        senderCompID: CRASH_DROP_COPY,
        targetCompID: 'FIXDESK',
        storeDir: copyStore,
        dictionaryPath: build.dictionaryPath,
        heartBtIntSec: 5,
        waitTimeoutMs: 30_000,
        killAfterMs: 240_000,
      });
      copies.script('start\nwait-logon');
      await copies.waitForLine((l) => l.startsWith('LOGON'), 30_000);
    }

    qf = new QuickfixPeer({
      binary: build.programs.fixpeer,
      mode: 'initiator',
      port: fixPort,
      senderCompID: CRASH_CLIENT,
      targetCompID: 'FIXDESK',
      storeDir: store,
      dictionaryPath: build.dictionaryPath,
      heartBtIntSec: 5,
      waitTimeoutMs: 30_000,
      killAfterMs: 240_000,
    });
    qf.script('start\nwait-logon');
    await qf.waitForLine((l) => l.startsWith('LOGON'), 30_000);

    const total = o.orders + (o.sendWhileDown ?? 0);
    const ids = Array.from({ length: total }, (_, i) => `${o.prefix}-${i + 1}`);
    // Read incrementally: thousands of lines re-read every poll would slow this process, and with it
    // QuickFIX, which blocks writing its output when the pipe is not read.
    const answeredSet = new Set<string>();
    let scanned = 0;
    const answered = () => {
      for (; scanned < qf!.lines.length; scanned++) {
        const line = qf!.lines[scanned]!;
        if (line.startsWith('APP ') && line.includes('|35=8|')) answeredSet.add(field(line.slice(4), 11)!);
      }
      return answeredSet;
    };
    const burstAt = Date.now();
    qf.script(ids.slice(0, o.orders).map(orderLine).join('\n'));
    // Mid-burst: some orders answered, the rest on the wire, in the intake or not yet sent. Killed
    // from the line listener the moment the answer that reaches the mark arrives.
    let answers = 0;
    await qf.waitForLine((l) => l.startsWith('APP ') && l.includes('|35=8|') && ++answers >= o.killAt, 60_000);
    server.child.kill('SIGKILL');
    const beforeCrashMs = Date.now() - burstAt;
    await killHard(server);
    const lastServerSeqBefore = Math.max(...qf.messages('RX').map((m) => Number(field(m, 34))));
    const ackedBeforeCrash = new Set(answered());
    const linesAtCrash = qf.lines.length;
    if (o.sendWhileDown) {
      qf.script(`${ids.slice(o.orders).map(orderLine).join('\n')}\nseqnums`);
      await qf.waitForLine((l) => l.startsWith('SEQNUMS'), 30_000, linesAtCrash);
    }
    const storedAtCrash = (
      await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE sendercompid = $1`, [CRASH_CLIENT])
    ).rows[0]!.n;

    server = await startServerProcess(serverEnv, 'server', { bundled: o.bundled });
    await qf.waitForLine((l) => l.startsWith('LOGON'), 60_000, linesAtCrash);
    const loggedOnAt = Date.now();
    let answeredWithinMs: number | undefined;
    try {
      await until('an answer to every order', () => answered().size === total, o.answerTimeoutMs);
      answeredWithinMs = Date.now() - loggedOnAt;
    } catch {
      answeredWithinMs = undefined;
    }
    if (process.env.CRASH_DEBUG) {
      const reports = qf.lines
        .map((l, i) => [l, qf!.times[i]! - loggedOnAt] as const)
        .filter(([l], i) => i >= linesAtCrash && l.startsWith('APP'));
      for (const k of [0, 1, 100, 500, 1000, reports.length - 1]) if (reports[k]) console.log(`# report ${k} at ${reports[k]![1]} ms`);
      for (let i = linesAtCrash; i < qf.lines.length; i++) {
        const l = qf.lines[i]!;
        const t = field(l.slice(3), 35);
        if (!l.startsWith('APP') && t !== '8' && t !== 'D') console.log(`# ${qf.times[i]! - loggedOnAt} ${l.slice(0, 300)}`);
      }
      if (process.env.CRASH_DEBUG === '2')
        console.log(
          server
            .output()
            .split('\n')
            .map((l) => `# server: ${l.slice(0, 400)}`)
            .join('\n'),
        );
    }
    const { rows } = await check.query<{ clordid: string; n: number }>(
      `SELECT clordid, count(*)::int AS n FROM orders WHERE sendercompid = $1 GROUP BY clordid`,
      [CRASH_CLIENT],
    );
    const dropCopy = copies ? await dropCopyOutcome(qf, copies, check, o.copyTimeoutMs ?? 60_000) : undefined;
    return {
      ...(dropCopy ? { dropCopy } : {}),
      ids,
      ackedBeforeCrash,
      storedAtCrash,
      answered: new Set(answered()),
      answeredWithinMs,
      beforeCrashMs,
      stored: new Map(rows.map((r) => [r.clordid, r.n])),
      linesAfterCrash: qf.lines.slice(linesAtCrash),
      lastServerSeqBefore,
    };
  } finally {
    qf?.kill();
    copies?.kill();
    if (server && server.child.exitCode === null) await killHard(server);
    await check.close();
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(store, { recursive: true, force: true });
    rmSync(copyStore, { recursive: true, force: true });
  }
}

/** The drop copy session's side of a trial, once it has a copy of every report the client got (or the time is up). */
async function dropCopyOutcome(
  client: QuickfixPeer,
  copies: QuickfixPeer,
  check: Queryable,
  timeoutMs: number,
): Promise<NonNullable<CrashTrialResult['dropCopy']>> {
  const clientExecIds = new Set(client.messages('APP').flatMap((m) => (field(m, 35) === '8' ? [field(m, 17)!] : [])));
  // Read incrementally, as the answers are (runCrashTrial): re-reading every copy per poll, let alone per
  // report (2,000 x 2,000 parses), kept this process from reading QuickFIX's output under load, and
  // QuickFIX, blocked writing it, went silent until the server logged it out for want of a heartbeat.
  let scanned = 0;
  const missing = new Set(clientExecIds);
  const allArrived = () => {
    for (; scanned < copies.lines.length; scanned++) {
      const line = copies.lines[scanned]!;
      if (!line.startsWith('APP ') || !line.includes('|35=8|')) continue;
      missing.delete(field(line.slice(4), 17)!);
    }
    return missing.size === 0;
  };
  let allCopied = true;
  try {
    await until('a copy of every report the client got', allArrived, timeoutMs, 200);
  } catch {
    allCopied = false;
  }
  const byExecId = new Map<string, Array<{ possResend: boolean; copyMsgIndicator: string | undefined; clientParty: boolean }>>();
  for (const m of copies.messages('APP')) {
    if (field(m, 35) !== '8') continue;
    const list = byExecId.get(field(m, 17)!) ?? [];
    // The client named first among the parties: PartyID, PartyIDSource D, PartyRole 3.
    const parties = fieldsOf(m).filter(([t]) => t === 448 || t === 447 || t === 452);
    list.push({
      possResend: field(m, 97) === 'Y',
      copyMsgIndicator: field(m, 797),
      clientParty: parties[0]?.[1] === CRASH_CLIENT && parties[1]?.[1] === 'D' && parties[2]?.[1] === '3',
    });
    byExecId.set(field(m, 17)!, list);
  }
  const { rows } = await check.query<{ execid: string }>('SELECT execid FROM execution_reports WHERE sendercompid = $1', [CRASH_CLIENT]);
  return {
    clientExecIds,
    copies: byExecId,
    storedExecIds: new Set(rows.map((r) => r.execid)),
    sessionRejects: copies.messages('TX').filter((m) => field(m, 35) === '3'),
    allCopied,
  };
}
