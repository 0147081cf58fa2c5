#!/usr/bin/env node
// Runs the whole suite in one node:test run so the runner prints one closing summary.
// Tiers: unit (next to the source), integration (tests/), e2e (browser, needs a build).
//   node scripts/test.mjs                 all tiers, with the typecheck and lint (and the build, for e2e) beside them
//   node scripts/test.mjs --tier unit     only unit tests; also: integration, e2e
//   node scripts/test.mjs path/to/x.test.ts ...   just those files
//   node scripts/test.mjs packages/fix ...        every test file under those directories
//   TEST_TIMES=times.tsv node scripts/test.mjs   also writes each top-level test's file and duration
//   node scripts/test.mjs --save-durations ...   also stores each file's wall time in scripts/test-durations.json
//
// Longest files first: the files run two at a time, and a long file started last runs alone at the
// end while the other slot idles. `node --test` sorts the files it is given by path, so the files go
// through node:test's run(), which keeps their order: any file scripts/test-durations.json does not
// list, by path, then the files it lists by descending duration (seconds of wall time, as measured in
// a run of two at a time). To refresh that file after tests were added or got faster or slower:
//   SKIP_LINT=1 node scripts/test.mjs --save-durations     (or a tier or some files: only those
//   files' figures change) and commit scripts/test-durations.json.
// run() applies no loader of its own: each test file runs in a child process started with this
// process's node flags, so the run itself happens in a copy of this script started under
// `--import tsx` (FIXDESK_TEST_RUN=1, the ordered files as its arguments).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const DURATIONS = join(root, 'scripts/test-durations.json');

if (process.env.FIXDESK_TEST_RUN === '1') {
  await runFiles(process.argv.slice(2));
} else {
  await prepareAndRun();
}

async function prepareAndRun() {
  const args = process.argv.slice(2);
  const USAGE = `usage: node scripts/test.mjs [--tier unit|integration|e2e] [--save-durations] [test file or directory ...]
  no arguments: the whole suite (types and lint beside it); a directory: every test file under it
  --save-durations: store each file's wall time in scripts/test-durations.json (the order of later runs)`;
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  const saveDurations = args.includes('--save-durations');
  const tierIdx = args.indexOf('--tier');
  const tier = tierIdx >= 0 ? args[tierIdx + 1] : 'all';
  const unknown = args.filter(
    (a, i) => a.startsWith('-') && a !== '--tier' && a !== '--save-durations' && !(tierIdx >= 0 && i === tierIdx + 1),
  );
  if (unknown.length) {
    console.error(`unknown option ${unknown.join(', ')}\n${USAGE}`);
    process.exit(2);
  }
  const isTestFile = (f) => f.endsWith('.test.ts') || f.endsWith('.test.tsx') || f.endsWith('.e2e.ts');
  const explicit = args
    .filter((a, i) => !a.startsWith('-') && (tierIdx < 0 || i !== tierIdx + 1))
    .flatMap((a) => {
      if (!existsSync(a)) {
        console.error(`no such test file or directory: ${a}`);
        process.exit(2);
      }
      return statSync(a).isDirectory() ? walk(resolve(a)).filter(isTestFile) : [a];
    });

  // A package's test/ folder holds its tests over real sockets (the FIX engine's scripted sessions, the
  // QuickFIX acceptance suite): integration tier, like tests/. Unit tests sit next to the source.
  const isSocketTest = (f) => /[\\/]packages[\\/][^\\/]+[\\/]test[\\/]/.test(relative(root, f).replace(/^/, '/'));
  const tiers = {
    unit: () =>
      ['packages', 'apps']
        .flatMap((d) => walk(join(root, d)))
        .filter((f) => (f.endsWith('.test.ts') || f.endsWith('.test.tsx')) && !isSocketTest(f)),
    integration: () =>
      [...walk(join(root, 'tests')), ...walk(join(root, 'packages')).filter(isSocketTest)].filter((f) => f.endsWith('.test.ts')),
    e2e: () => walk(join(root, 'e2e')).filter((f) => f.endsWith('.e2e.ts')),
  };

  let files;
  if (explicit.length) files = explicit;
  else if (args.some((a) => !a.startsWith('-') && (tierIdx < 0 || args.indexOf(a) !== tierIdx + 1))) {
    console.error('no test files under the given directories');
    process.exit(2);
  } else if (tier === 'all') files = [...tiers.unit(), ...tiers.integration(), ...tiers.e2e()];
  else if (tiers[tier]) files = tiers[tier]();
  else {
    console.error(`unknown tier ${tier}`);
    process.exit(2);
  }

  // The whole suite also runs the static checks: types and lint (including the layer rules). They run
  // beside the build and the tests, not before them, at the lowest CPU priority (nice 19): the test
  // files spend much of their time waiting (browsers, sockets, timers), and the checks take that idle
  // CPU without slowing the tests, where before they took minutes of their own ahead of them. Their
  // output goes to a file (never a pipe this process might not read while it waits for the tests) and
  // is printed after the tests; a failed check fails the run.
  let lint;
  if (tier === 'all' && !explicit.length && !process.env.SKIP_LINT) {
    console.log('typecheck and lint (beside the build and the tests, at low priority; their report follows the tests)...');
    lint = inBackground('typecheck and lint', 'npm run lint', { low: true, report: true });
  }

  // The build, for the browser tests only, runs beside the first test files: the longest files run
  // first and few of them are browser tests. It writes its exit status into a file named by
  // FIXDESK_BUILD_STATUS, which e2e/support/server.ts waits for before it starts a server (and fails
  // with the build's output if the build failed).
  let build;
  if (files.some((f) => f.endsWith('.e2e.ts')) && !process.env.SKIP_BUILD) {
    console.log('building the app for the browser tests (beside the first test files)...');
    build = inBackground('the build', 'npm run build');
  }

  const ordered = longestFirst([...new Set(files.map((f) => relative(root, resolve(f))))]);
  console.log(`running ${ordered.length} test files`);
  // The test files' processes get this one's node flags: the loader, and the flags `node --test` passed
  // on to them before (each test's own default of 300 s; a file as a whole gets fileTimeoutMs).
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test-concurrency=2', '--test-timeout=300000', join(root, 'scripts/test.mjs'), ...ordered],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        NODE_ENV: 'test',
        FIXDESK_TEST_RUN: '1',
        FIXDESK_TEST_SAVE_DURATIONS: saveDurations ? '1' : '',
        ...(build ? { FIXDESK_BUILD_STATUS: build.statusFile } : {}),
      },
    },
  );
  let status = r.status ?? 1;
  if (build) {
    // Normally long done; a run of no browser test file (all skipped) still wants it to have passed.
    const built = await build.done;
    if (!built && status === 0) status = 1;
  }
  if (lint && !(await lint.done) && status === 0) status = 1;
  process.exit(status);
}

/**
 * A command in the background (`sh` runs it, at `nice` 19 when `low`), its output into a temporary
 * file and its exit status, when it ends, into `statusFile` (renamed into place, so a reader never sees
 * half of it). Files, not pipes: this process does not read a pipe while spawnSync waits for the tests.
 * `done` resolves (true when it passed) once it has ended and its output is printed (always when
 * `report`, else only if it failed).
 */
function inBackground(name, command, { low = false, report = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'fixdesk-background-'));
  const statusFile = join(dir, 'status');
  const logFile = join(dir, 'output.log');
  const script = `${low ? 'nice -n 19 ' : ''}sh -c "$3" >"$1" 2>&1; echo $? >"$2.tmp" && mv "$2.tmp" "$2"`;
  const child = spawn('sh', ['-c', script, 'sh', logFile, statusFile, command], { cwd: root, stdio: 'ignore' });
  const done = new Promise((resolveDone) => {
    let over = false;
    const ended = () => {
      if (over) return;
      over = true;
      const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');
      const code = read(statusFile);
      if (report || code !== '0')
        console.log(`# ${name}: ${code === '0' ? 'passed' : `FAILED (${code || 'no status'})`}\n${read(logFile)}`);
      rmSync(dir, { recursive: true, force: true });
      resolveDone(code === '0');
    };
    child.once('error', ended);
    child.once('exit', ended);
  });
  return { statusFile, done };
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Seconds of wall time per file (paths relative to the repository), from the last --save-durations. */
function readDurations() {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * The files without a recorded duration first (by path), then the others, longest first. A new file
 * may be long: started last, it ran alone at the end while the other slot idled (a CI run's last 3
 * minutes went to four new Desk Insights files that way); a short one started first costs nothing.
 */
function longestFirst(files) {
  const known = readDurations();
  const has = (f) => typeof known[f] === 'number';
  return [
    ...files.filter((f) => !has(f)).sort((a, b) => a.localeCompare(b)),
    ...files.filter(has).sort((a, b) => known[b] - known[a] || a.localeCompare(b)),
  ];
}

/**
 * How long one file may run before it is failed as hung: seven times the longest recorded duration of
 * the files run (seconds, as measured two at a time on a quiet machine), and never under 300 s. A file
 * whose own tests are bounded (the failover trials' budget, say) then fails on its own bounds, not on
 * this one, on a machine busy with other work (with another suite beside it, files have run two to
 * five times as long: the failover trials' file about 1,000 s against 191 s); a file that hangs is
 * still stopped.
 */
function fileTimeoutMs(files) {
  const known = readDurations();
  const longest = Math.max(0, ...files.map((f) => known[f] ?? 0));
  return Math.max(300_000, Math.ceil(longest * 7) * 1000);
}

// The run itself, in the copy started under --import tsx: the files in the order given, two at a time,
// each file in its own process, for at most fileTimeoutMs, and the reporters of before.
async function runFiles(files) {
  const { run } = await import('node:test');
  const reporters = await import('node:test/reporters');
  const { PassThrough } = await import('node:stream');
  const { finished } = await import('node:stream/promises');
  const { createWriteStream } = await import('node:fs');
  const diagnostics = await import('node:diagnostics_channel');

  // Each file's wall time, from its child process's creation to its exit (run() starts one per file).
  const wallMs = new Map();
  const wanted = new Set(files);
  diagnostics.subscribe('child_process', ({ process: child }) => {
    const started = performance.now();
    child.once('exit', () => {
      const file = child.spawnargs?.at(-1);
      if (wanted.has(file)) wallMs.set(file, performance.now() - started);
    });
  });

  const load = async (name) => {
    const mod = name in reporters ? reporters[name] : (await import(join(root, name))).default;
    return mod.prototype && Object.getOwnPropertyDescriptor(mod.prototype, 'constructor') ? new mod() : mod;
  };
  // TEST_TIMES=<file>: also write each top-level test's duration and file there (where the time goes).
  // Always: the usual report (spec on a terminal, TAP otherwise), then the failed tests listed at the end.
  const outputs = [
    [await load(process.stdout.isTTY ? 'spec' : 'tap'), process.stdout],
    [await load('scripts/test-failures-reporter.mjs'), process.stdout],
    ...(process.env.TEST_TIMES
      ? [[await load('scripts/test-times-reporter.mjs'), createWriteStream(resolve(process.env.TEST_TIMES))]]
      : []),
  ];

  const events = run({ files, concurrency: 2, timeout: fileTimeoutMs(files) });
  // A failed test, or a file that does not load, fails the run (as under --test).
  events.on('test:fail', (data) => {
    if (data.todo === undefined || data.todo === false) process.exitCode = 1;
  });
  const done = outputs.map(([reporter, destination]) => {
    const fanOut = new PassThrough({ objectMode: true });
    events.pipe(fanOut);
    const text = fanOut.compose(reporter);
    text.pipe(destination, { end: destination !== process.stdout });
    return finished(text);
  });
  await Promise.all(done);

  const measured = [...wallMs].sort((a, b) => b[1] - a[1]);
  console.log(
    `# slowest files (wall time, s): ${measured
      .slice(0, 15)
      .map(([f, ms]) => `${f} ${(ms / 1000).toFixed(1)}`)
      .join(', ')}`,
  );
  const unlisted = measured.filter(([f]) => typeof readDurations()[f] !== 'number');
  if (unlisted.length)
    console.log(
      `# files scripts/test-durations.json does not list (they run first; --save-durations records them): ${unlisted
        .map(([f, ms]) => `${f} ${(ms / 1000).toFixed(1)}`)
        .join(', ')}`,
    );
  if (process.env.FIXDESK_TEST_SAVE_DURATIONS === '1') {
    const known = readDurations();
    for (const [file, ms] of measured) known[file] = Math.round(ms / 100) / 10;
    // Files that are gone are dropped; the rest sorted by path, so a refresh diffs line by line.
    const kept = Object.keys(known)
      .filter((f) => existsSync(join(root, f)))
      .sort();
    writeFileSync(DURATIONS, `${JSON.stringify(Object.fromEntries(kept.map((f) => [f, known[f]])), null, 2)}\n`);
    console.log(`# wrote the wall time of ${measured.length} files to ${relative(root, DURATIONS)}`);
  }
}
