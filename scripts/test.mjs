#!/usr/bin/env node
// Runs the whole suite in one node:test invocation so the runner prints one closing summary.
// Tiers: unit (next to the source), integration (tests/), e2e (browser, needs a build).
//   node scripts/test.mjs                 all tiers (builds the app first for e2e)
//   node scripts/test.mjs --tier unit     only unit tests; also: integration, e2e
//   node scripts/test.mjs path/to/x.test.ts ...   just those files
//   node scripts/test.mjs packages/fix ...        every test file under those directories
//   TEST_TIMES=times.tsv node scripts/test.mjs   also writes each top-level test's file and duration
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const USAGE = `usage: node scripts/test.mjs [--tier unit|integration|e2e] [test file or directory ...]
  no arguments: the whole suite (types and lint first); a directory: every test file under it`;
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const tierIdx = args.indexOf('--tier');
const tier = tierIdx >= 0 ? args[tierIdx + 1] : 'all';
const unknown = args.filter((a, i) => a.startsWith('-') && a !== '--tier' && !(tierIdx >= 0 && i === tierIdx + 1));
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

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

// A package's test/ folder holds its tests over real sockets (the FIX engine's scripted sessions, the
// QuickFIX acceptance suite): integration tier, like tests/. Unit tests sit next to the source.
const isSocketTest = (f) => /[\\/]packages[\\/][^\\/]+[\\/]test[\\/]/.test(relative(root, f).replace(/^/, '/'));
const tiers = {
  unit: () => ['packages', 'apps'].flatMap((d) => walk(join(root, d))).filter((f) => (f.endsWith('.test.ts') || f.endsWith('.test.tsx')) && !isSocketTest(f)),
  integration: () => [...walk(join(root, 'tests')), ...walk(join(root, 'packages')).filter(isSocketTest)].filter((f) => f.endsWith('.test.ts')),
  e2e: () => walk(join(root, 'e2e')).filter((f) => f.endsWith('.e2e.ts')),
};

let files;
if (explicit.length) files = explicit;
else if (args.some((a) => !a.startsWith('-') && (tierIdx < 0 || args.indexOf(a) !== tierIdx + 1))) {
  console.error('no test files under the given directories');
  process.exit(2);
}
else if (tier === 'all') files = [...tiers.unit(), ...tiers.integration(), ...tiers.e2e()];
else if (tiers[tier]) files = tiers[tier]();
else { console.error(`unknown tier ${tier}`); process.exit(2); }

// The whole suite starts with the static checks: types and lint (including the layer rules).
if (tier === 'all' && !explicit.length && !process.env.SKIP_LINT) {
  console.log('typecheck and lint...');
  const l = spawnSync('npm', ['run', 'lint'], { cwd: root, stdio: 'inherit' });
  if (l.status !== 0) process.exit(l.status ?? 1);
}

const needsBuild = files.some((f) => f.endsWith('.e2e.ts')) && !process.env.SKIP_BUILD;
if (needsBuild) {
  console.log('building the app for the browser tests...');
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

// TEST_TIMES=<file>: also write each top-level test's duration and file there (where the time goes).
// Always: the usual report (spec on a terminal, TAP otherwise), then the failed tests listed at the end.
const reporters = [
  `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`, '--test-reporter-destination=stdout',
  `--test-reporter=${join(root, 'scripts/test-failures-reporter.mjs')}`, '--test-reporter-destination=stdout',
  ...(process.env.TEST_TIMES
    ? [`--test-reporter=${join(root, 'scripts/test-times-reporter.mjs')}`, `--test-reporter-destination=${resolve(process.env.TEST_TIMES)}`]
    : []),
];
console.log(`running ${files.length} test files`);
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...reporters, ...files.map((f) => relative(root, f))],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(r.status ?? 1);
