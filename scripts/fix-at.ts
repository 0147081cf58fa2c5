// Plays QuickFIX's FIX 4.4 acceptance-test scenarios (../shared/fix/quickfix-at) and prints one line a
// scenario and "N passed, N failed". Without --port each scenario gets a fresh conformance acceptor of
// ours; with --port it runs against any acceptor set up as the suite assumes (ISLD, client TW44,
// FIX.4.4, reset on logon, always in session, QuickFIX's echo application).
//   npm run fix:at                                  all 59 against our conformance acceptor
//   npm run fix:at -- 2m_ 11                        the scenarios whose file names contain these
//   npm run fix:at -- --host 127.0.0.1 --port 9880  against an acceptor already listening
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { startConformanceAcceptor } from '../packages/fix/src/conformance/conformance-acceptor';
import { playScenario, readFieldPatterns, scenarioFiles } from '../packages/fix/test/quickfix-at';

const root = resolve(import.meta.dirname, '..', '..', 'shared', 'fix', 'quickfix-at');
const args = process.argv.slice(2);
let host = '127.0.0.1';
let port: number | undefined;
const filters: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--host') host = args[++i] ?? host;
  else if (args[i] === '--port') port = Number(args[++i]);
  else filters.push(args[i]!);
}
if (!existsSync(join(root, 'server', 'fix44'))) {
  console.error(`no QuickFIX acceptance tests at ${root}`);
  process.exit(2);
}
const patterns = readFieldPatterns(join(root, 'fields.fmt'));
let passed = 0;
let failed = 0;
for (const file of scenarioFiles(join(root, 'server', 'fix44'))) {
  if (filters.length && !filters.some((f) => basename(file).includes(f))) continue;
  const own = port === undefined ? await startConformanceAcceptor({ port: 0, host: '127.0.0.1' }) : undefined;
  const started = Date.now();
  try {
    await playScenario(readFileSync(file, 'utf8'), patterns, { host, port: own?.port ?? port! });
    passed++;
    console.log(`ok   ${basename(file, '.def')} (${Date.now() - started} ms)`);
  } catch (err) {
    failed++;
    console.log(
      `FAIL ${basename(file, '.def')} (${Date.now() - started} ms)\n     ${String(err instanceof Error ? err.message : err).replaceAll('\n', '\n     ')}`,
    );
  } finally {
    await own?.stop(200);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
