// `npm run bench`: our FIX engine side by side with QuickFIX C++ and jspurefix on the same messages,
// and the session round trip against the loopback TCP floor. Prints a table and rewrites the FIX
// section of BENCHMARKS.md (other sections are kept).
//   npm run bench                  full run (about two minutes on 2 cores)
//   npm run bench -- --quick       fewer rounds, for checking the harness; BENCHMARKS.md is not written
// Each engine runs in its own process, one after the other, so none shares a JIT, a heap or a core.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FixEncoder, FixMessageBuilder } from '../packages/fix/src/index';
import { machineDescription, writeSection } from './benchmarks-md';
import { EXECUTION_REPORT, NEW_ORDER_MULTILEG, NEW_ORDER_SINGLE } from './codec-messages';
import { ensureJspurefix, JSPUREFIX_VERSION } from './jspurefix/install';
import { buildQuickfix } from './quickfix/build';
import type { SessionRttResult } from './session-rtt';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = join(root, 'bench', '.build');
const { values: flags } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, 'no-write': { type: 'boolean', default: false } },
});
const quick = flags.quick;
const rounds = quick ? 3 : 9;

type CaseName = 'nos_parse_validate_typed' | 'multileg_parse_validate_typed' | 'execution_report_encode';
interface CodecRun {
  results: Array<{ name: string; medianPerSec: number; rounds: number[] }>;
  [key: string]: unknown;
}
type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

const log = (line: string) => console.error(line);

function runJson<T>(what: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): T {
  const started = Date.now();
  log(`${what}...`);
  const r = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 240_000,
  });
  if (r.status !== 0)
    throw new Error(`${what} failed (${r.status ?? r.signal}):\n${(r.stderr || r.stdout || r.error?.message || '').slice(-2000)}`);
  const text = r.stdout.slice(r.stdout.indexOf('{'));
  log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return JSON.parse(text) as T;
}

function attempt<T>(fn: () => T): Outcome<T> {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log(`  skipped: ${reason.split('\n')[0]}`);
    return { ok: false, reason };
  }
}

function median(run: CodecRun | undefined, name: CaseName): number | undefined {
  return run?.results.find((r) => r.name === name)?.medianPerSec;
}

/** Our encoder's bytes for the benchmark ExecutionReport, to prove QuickFIX encodes the same message. */
function ourExecutionReport(): string {
  const builder = new FixMessageBuilder('8').set(34, EXECUTION_REPORT.firstSeqNum);
  for (const [tag, value] of Object.entries(EXECUTION_REPORT.header)) builder.set(Number(tag), value);
  for (const [tag, value] of Object.entries(EXECUTION_REPORT.body)) builder.set(Number(tag), value);
  return new FixEncoder().encode(builder).toString('latin1');
}

// ---------------------------------------------------------------------------------------------------
const startedAt = new Date();
// The machine may be shared; the load average says how much the numbers can be trusted.
const loadAtStart = loadavg()[0]!;
const tsx = ['--import', 'tsx'];

const ours = runJson<CodecRun & { nosBytes: number; multilegBytes: number; executionReportBytes: number }>(
  'our engine: bench/fix-codec.ts',
  process.execPath,
  [...tsx, 'bench/fix-codec.ts'],
  { BENCH_ROUNDS: String(rounds) },
);
if (ours.nosBytes !== NEW_ORDER_SINGLE.length || ours.multilegBytes !== NEW_ORDER_MULTILEG.length) {
  throw new Error(
    `bench/fix-codec.ts measures ${ours.nosBytes}/${ours.multilegBytes}-byte messages but bench/codec-messages.ts has ${NEW_ORDER_SINGLE.length}/${NEW_ORDER_MULTILEG.length}: keep the two in step`,
  );
}
const ourEr = ourExecutionReport();
if (ours.executionReportBytes !== ourEr.length) {
  throw new Error(
    `bench/fix-codec.ts encodes a ${ours.executionReportBytes}-byte ExecutionReport, bench/codec-messages.ts describes ${ourEr.length} bytes: keep the two in step`,
  );
}

const framing = runJson<CodecRun>(
  'our engine: bench/codec-framing.ts (BodyLength + CheckSum)',
  process.execPath,
  [...tsx, 'bench/codec-framing.ts'],
  {
    BENCH_ROUNDS: String(rounds),
  },
);

mkdirSync(buildDir, { recursive: true });
const nosPath = join(buildDir, 'new-order-single.fix');
const multilegPath = join(buildDir, 'new-order-multileg.fix');
writeFileSync(nosPath, NEW_ORDER_SINGLE);
writeFileSync(multilegPath, NEW_ORDER_MULTILEG);

let dictionaryPath = '';
const quickfix = attempt(() => {
  const build = buildQuickfix(['codec-bench'], log);
  dictionaryPath = build.dictionaryPath;
  const scale = quick ? 0.2 : 1;
  const run = runJson<CodecRun & { executionReportSample: string }>(
    'QuickFIX C++: bench/quickfix/codec-bench.cpp (-O2)',
    build.programs['codec-bench'],
    [
      '--dict',
      build.dictionaryPath,
      '--nos',
      nosPath,
      '--multileg',
      multilegPath,
      '--rounds',
      String(rounds),
      '--nos-ops',
      String(Math.round(100_000 * scale)),
      '--multileg-ops',
      String(Math.round(60_000 * scale)),
      '--er-ops',
      String(Math.round(150_000 * scale)),
    ],
  );
  return run;
});
// Outside attempt(): QuickFIX missing is a skip, QuickFIX writing other bytes than ours is a failure of
// the field-order guarantee and must stop the run.
if (quickfix.ok && quickfix.value.executionReportSample !== ourEr) {
  throw new Error(
    `QuickFIX encodes the benchmark ExecutionReport differently from us (field order or values):\nQuickFIX: ${quickfix.value.executionReportSample}\nours:     ${ourEr}`,
  );
}
const quickfixVersion =
  spawnSync('dpkg-query', ['-W', '-f=${Version}', 'libquickfix-dev'], { encoding: 'utf8' }).stdout?.trim() || 'unknown';

const jspurefix = attempt(() => {
  const prefix = ensureJspurefix(log);
  if (!dictionaryPath) throw new Error('needs the FIX44.xml the QuickFIX build writes');
  const scale = quick ? 0.2 : 1;
  return runJson<CodecRun & { executionReportSample: string; version: string }>(
    'jspurefix: bench/jspurefix/codec-bench.ts',
    process.execPath,
    [
      ...tsx,
      'bench/jspurefix/codec-bench.ts',
      '--prefix',
      prefix,
      '--dict',
      dictionaryPath,
      '--rounds',
      String(rounds),
      '--nos-ops',
      String(Math.round(15_000 * scale)),
      '--multileg-ops',
      String(Math.round(9_000 * scale)),
      '--er-ops',
      String(Math.round(40_000 * scale)),
    ],
  );
});

const rtt = runJson<SessionRttResult>('session round trip: bench/session-rtt.ts', process.execPath, [
  ...tsx,
  'bench/session-rtt.ts',
  '--samples',
  quick ? '5000' : '30000',
  '--warmup',
  quick ? '1000' : '5000',
]);
const elapsedSec = Math.round((Date.now() - startedAt.getTime()) / 1000);
const loadAtEnd = loadavg()[0]!;

// ---------------------------------------------------------------------------------------------------
// Report

const fmt = (n: number | undefined) => (n === undefined ? 'n/a' : n.toLocaleString('en-US'));
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? 'n/a' : `${(a / b).toFixed(2)}×`);
const qf = quickfix.ok ? quickfix.value : undefined;
const js = jspurefix.ok ? jspurefix.value : undefined;
const LABELS: Record<CaseName, string> = {
  nos_parse_validate_typed: `NewOrderSingle parse + validate + typed read (${NEW_ORDER_SINGLE.length} B, 2 parties)`,
  multileg_parse_validate_typed: `NewOrderMultileg parse + validate + typed read (${NEW_ORDER_MULTILEG.length} B, 2 legs)`,
  execution_report_encode: `ExecutionReport build + encode (${ourEr.length} B)`,
};
/** Our receive path, framing included, as 1 / (1/framing + 1/parse): both run back to back per message. */
const withFraming = (parse: number | undefined, frame: number | undefined) =>
  parse === undefined || frame === undefined ? undefined : Math.round(1 / (1 / parse + 1 / frame));
const nosReceive = withFraming(median(ours, 'nos_parse_validate_typed'), framing.results.find((r) => r.name === 'nos_frame')?.medianPerSec);
const multilegReceive = withFraming(
  median(ours, 'multileg_parse_validate_typed'),
  framing.results.find((r) => r.name === 'multileg_frame')?.medianPerSec,
);
const row = (label: string, o: number | undefined, c: CaseName) =>
  `| ${label} | ${fmt(o)} | ${fmt(median(qf, c))} | ${fmt(median(js, c))} | ${ratio(o, median(qf, c))} | ${ratio(o, median(js, c))} |`;
const codecRows = [
  row(
    `${LABELS.nos_parse_validate_typed}: parse of a framed message`,
    median(ours, 'nos_parse_validate_typed'),
    'nos_parse_validate_typed',
  ),
  row(`the same with framing (BodyLength + CheckSum), like for like`, nosReceive, 'nos_parse_validate_typed'),
  row(
    `${LABELS.multileg_parse_validate_typed}: parse of a framed message`,
    median(ours, 'multileg_parse_validate_typed'),
    'multileg_parse_validate_typed',
  ),
  row(`the same with framing, like for like`, multilegReceive, 'multileg_parse_validate_typed'),
  row(LABELS.execution_report_encode, median(ours, 'execution_report_encode'), 'execution_report_encode'),
];

const nos = median(ours, 'nos_parse_validate_typed');
const er = median(ours, 'execution_report_encode');
const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? 'met' : '**not met**');
const qfNos = median(qf, 'nos_parse_validate_typed');
const jsNos = median(js, 'nos_parse_validate_typed');
const targets: Array<[string, string, boolean | undefined]> = [
  ['parse ≥ 500,000 NewOrderSingle/s', `${fmt(nos)}/s (${fmt(nosReceive)}/s with framing)`, nos === undefined ? undefined : nos >= 500_000],
  [
    'parse faster than QuickFIX C++ (same run, framing included on both sides)',
    `${ratio(nosReceive, qfNos)} QuickFIX (multileg ${ratio(multilegReceive, median(qf, 'multileg_parse_validate_typed'))})`,
    qfNos === undefined || nosReceive === undefined ? undefined : nosReceive > qfNos,
  ],
  ['encode ≥ 600,000 ExecutionReport/s', `${fmt(er)}/s`, er === undefined ? undefined : er >= 600_000],
  [
    'parse ≥ 6× jspurefix (framing included on both sides)',
    `${ratio(nosReceive, jsNos)}`,
    jsNos === undefined || nosReceive === undefined ? undefined : nosReceive >= 6 * jsNos,
  ],
  [
    'encode ≥ 6× jspurefix',
    `${ratio(er, median(js, 'execution_report_encode'))}`,
    js ? er! >= 6 * median(js, 'execution_report_encode')! : undefined,
  ],
  ['session adds < 40 µs at p50', `${rtt.addedP50Us} µs`, rtt.addedP50Us < 40],
];

const machine = machineDescription();
const us = (n: number) => n.toFixed(1);
const missingNotes = [
  quickfix.ok ? undefined : `- QuickFIX C++ was not measured: ${quickfix.reason.split('\n')[0]}`,
  jspurefix.ok ? undefined : `- jspurefix was not measured: ${jspurefix.reason.split('\n')[0]}`,
].filter(Boolean);

const section = `
## FIX engine: codec and session

Run ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${quick ? ' (**quick run**: 3 rounds)' : ''}, ${elapsedSec} s.
Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; 1-minute load average ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end (anything near or above the core count means other work shared the cores).
Compared with QuickFIX C++ ${quickfixVersion} (Debian libquickfix, g++ -O2) and jspurefix ${js?.version ?? JSPUREFIX_VERSION}.

### Codec throughput (median messages/s over ${rounds} timed rounds after warm-up; higher is better)

| operation | ours | QuickFIX C++ | jspurefix | ours ÷ QuickFIX | ours ÷ jspurefix |
| --- | ---: | ---: | ---: | ---: | ---: |
${codecRows.join('\n')}

### Session round trip (µs; one message in flight; lower is better)

| path | p50 | p90 | p99 | mean |
| --- | ---: | ---: | ---: | ---: |
| loopback TCP echo of the same ${rtt.messageBytes} bytes (floor) | ${us(rtt.floor.p50Us)} | ${us(rtt.floor.p90Us)} | ${us(rtt.floor.p99Us)} | ${us(rtt.floor.meanUs)} |
| our Initiator → Acceptor (echo) → Initiator, NewOrderSingle | ${us(rtt.session.p50Us)} | ${us(rtt.session.p90Us)} | ${us(rtt.session.p99Us)} | ${us(rtt.session.meanUs)} |
| added by the session layer (both ends) | ${us(rtt.addedP50Us)} | | ${us(rtt.addedP99Us)} | |

### Targets (issue 3)

| target | measured | |
| --- | --- | --- |
${targets.map(([t, m, ok]) => `| ${t} | ${m} | ${verdict(ok)} |`).join('\n')}

### What is measured
- **Same input.** Every engine gets the bytes of \`bench/codec-messages.ts\`, which \`bench/run.ts\` checks against the sizes \`bench/fix-codec.ts\` (our engine) reports; QuickFIX's encoded ExecutionReport is checked to be byte-identical to ours before its numbers are used.
- **Ours** (\`bench/fix-codec.ts\`): \`FixParser.parse\` with dictionary validation on, then the order's fields read through the typed getters (decimals as exact text, TransactTime as a timestamp, the party and leg groups); encode = \`FixMessageBuilder\` + \`FixEncoder.encode\` into a Buffer, fields set in QuickFIX order, MsgSeqNum counting up, SendingTime passed as a \`Date\` and formatted per message (QuickFIX is given it as text), BodyLength and CheckSum computed per message. Our parser takes a message the framer already checked, while QuickFIX's and jspurefix's figures include the BodyLength/CheckSum check; the "with framing" rows add our \`FixFramer.push\` (\`bench/codec-framing.ts\`, measured alone and combined as 1 / (1/framing + 1/parse)), and the comparisons with the other engines use those rows.
- **QuickFIX C++** (\`bench/quickfix/codec-bench.cpp\`): \`FIX::Message(string, dataDictionary, true)\` then \`DataDictionary::validate\` (what a QuickFIX session does on receipt), BodyLength and CheckSum included, then the same fields through \`getField\`/\`getGroupRef\` and TransactTime converted to \`UtcTimeStamp\`; encode = a \`FIX::Message\` with the same fields set, \`toString()\`. Its data dictionary is generated from ours (\`bench/quickfix/fix44-xml.ts\`), as Debian ships none.
- **jspurefix** (\`bench/jspurefix/codec-bench.ts\`, installed into \`bench/.build\` for this run only): \`AsciiParser\` with the same FIX44.xml, the checks its session makes on each inbound message (CheckSum, \`invalid()\`, \`undefinedForMsg()\`, \`missing()\`), then \`toObject()\` and the same field reads; encode = its \`AsciiMsgTransmitter.encodeMessage\` (header from its session factory, body, BodyLength patch, checksum) and the Buffer copy it sends. Closest equivalent rather than identical: its validation checks tag membership and required fields but not value formats or enumerations (ours and QuickFIX's do), its \`toObject()\` converts every field rather than only those read, and it writes BodyLength zero-padded to a fixed width (\`9=0295\`) with body fields in dictionary order, so its ExecutionReport is the same fields in another order.
- **Session round trip** (\`bench/session-rtt.ts\`): both ends in one Node process on one event loop, memory stores, validation on both sides; the floor is a raw socket echo of the same bytes with the same process layout. ${rtt.session.samples.toLocaleString('en-US')} samples after ${quick ? '1,000' : '5,000'} warm-up round trips.
${missingNotes.join('\n')}
`;

console.log(section);
if (!quick && !flags['no-write']) {
  writeSection(join(root, 'BENCHMARKS.md'), 'fix', section);
  log('BENCHMARKS.md: FIX section written');
}

// The blotter in Chromium (50,000 orders, 1,000 updates/s): its own process and its own section of
// BENCHMARKS.md, written by bench/blotter.ts. Needs the built web app; BENCH_SKIP_BLOTTER=1 skips it.
if (!process.env.BENCH_SKIP_BLOTTER) {
  const blotterArgs = [...tsx, 'bench/blotter.ts', ...(quick ? ['--quick'] : []), ...(flags['no-write'] ? ['--no-write'] : [])];
  log('blotter in Chromium: bench/blotter.ts...');
  const blotter = spawnSync(process.execPath, blotterArgs, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 });
  if (blotter.status !== 0)
    log(`  blotter benchmark failed (${blotter.status ?? blotter.signal}); its section of BENCHMARKS.md is unchanged`);
}
