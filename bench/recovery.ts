// Recovery benchmark: how long after a kill -9 and restart of the server every order a
// client holds an answer for. A QuickFIX C++ client sends a burst of 2,000 orders to the server (its
// own process, PostgreSQL); the server is killed at a point of the burst, restarted on the same
// database and port, and the client logs on again; measured: from that logon to the answer of its
// last order. Trials kill at 10%, 20%, … 70% of the answers (later kills come after the last answer:
// the answers arrive in runs); every other trial the client also sends 1,000 orders while the server
// is down (they arrive by the resend exchange after the logon). Results go to the "recovery" section
// of BENCHMARKS.md. The crash-safety test (tests/interop/crash-safety.test.ts) checks what a trial
// leaves.
//
//   npx tsx bench/recovery.ts [--quick] [--no-write]
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCrashTrial } from '../tests/interop/crash-trial';
import { machineDescription, writeSection } from './benchmarks-md';
import { buildQuickfix, quickfixUnavailable } from './quickfix/build';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, 'no-write': { type: 'boolean', default: false } },
});
const ORDERS = 2000;
const TARGET_MS = 3000;
const KILL_POINTS = args.quick ? [0.1, 0.5] : [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];

const unavailable = quickfixUnavailable();
if (unavailable) throw new Error(`the recovery benchmark needs QuickFIX C++: ${unavailable}`);
const build = buildQuickfix(['fixpeer']);
const startedAt = new Date();
const loadStart = loadavg()[0]!;
const WHILE_DOWN = 1000;
const trials: Array<{ killAt: number; acked: number; stored: number; whileDown: number; ms: number | undefined }> = [];
for (const [i, point] of KILL_POINTS.entries()) {
  const killAt = Math.round(ORDERS * point);
  const whileDown = i % 2 === 1 ? WHILE_DOWN : 0;
  const r = await runCrashTrial(build, { orders: ORDERS, killAt, prefix: `RB${i + 1}`, answerTimeoutMs: 60_000, sendWhileDown: whileDown });
  const held = r.storedAtCrash - r.ackedBeforeCrash.size;
  trials.push({ killAt, acked: r.ackedBeforeCrash.size, stored: r.storedAtCrash, whileDown, ms: r.answeredWithinMs });
  console.log(
    `trial ${i + 1}: killed after ${r.ackedBeforeCrash.size} answers, ${r.storedAtCrash} orders stored (${held} held unanswered, ${ORDERS - r.storedAtCrash} not yet received), ${whileDown} sent while down; every order answered ${r.answeredWithinMs ?? 'never (60 s)'} ms after the new logon`,
  );
}
const loadEnd = loadavg()[0]!;

const times = trials.map((t) => t.ms ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
const median = times[Math.floor((times.length - 1) / 2)]!;
const worst = times[times.length - 1]!;
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : 'not all answered in 60 s');
const machine = machineDescription();
const section = `## Recovery after kill -9: held orders answered after the restart

Run ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${args.quick ? ' (**quick run**)' : ''}: ${trials.length} trials of ${ORDERS.toLocaleString('en-US')} orders, PostgreSQL.
Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; 1-minute load average ${loadStart.toFixed(2)} at the start, ${loadEnd.toFixed(2)} at the end. The server, PostgreSQL, QuickFIX and the bench share these cores.

| kill after answers | answered at the kill | stored at the kill | held unanswered | not yet received | sent while down | every order answered after the new logon |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${trials.map((t) => `| ${t.killAt.toLocaleString('en-US')} | ${t.acked.toLocaleString('en-US')} | ${t.stored.toLocaleString('en-US')} | ${(t.stored - t.acked).toLocaleString('en-US')} | ${(ORDERS - t.stored).toLocaleString('en-US')} | ${t.whileDown.toLocaleString('en-US')} | ${ms(t.ms ?? Number.POSITIVE_INFINITY)} |`).join('\n')}

| target (issue 21) | measured | |
| --- | --- | --- |
| every held order answered within 3 s of the client's logon after a restart | median ${ms(median)}, worst ${ms(worst)} | ${worst <= TARGET_MS ? 'met' : '**not met**'} |

### What is measured
- **A trial** (\`tests/interop/crash-trial.ts\`, the same code the crash-safety test checks): a fresh PostgreSQL database; the server started as a process of its own; a QuickFIX C++ initiator (file store, reconnect every second, FIX 4.4 data dictionary) logs on and sends ${ORDERS.toLocaleString('en-US')} NewOrderSingles at once; when its answer number *n* arrives the server gets SIGKILL; the server is started again on the same database and FIX port; QuickFIX reconnects and logs on with its stored numbers.
- **Measured**: from the client's new Logon (its own log line) to the answer (an ExecutionReport) of its last order: the Pending New reports the server held in its store or outbox, and the orders the client resends after the server's ResendRequest (PossDupFlag), received and answered.
- **Held unanswered**: stored by the server before the kill but not answered to the client; **not yet received**: sent by the client after the last order the server stored (they come back by resend); **sent while down**: orders the client sent between the kill and the restart, which QuickFIX stores unsent and resends (PossDupFlag) when the restarted server's ResendRequest asks for them.
`;
console.log(section);
if (!args['no-write']) writeSection(join(root, 'BENCHMARKS.md'), 'recovery', section);
