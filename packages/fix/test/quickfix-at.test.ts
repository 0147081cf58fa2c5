// QuickFIX's own FIX 4.4 acceptance-test suite (its test/definitions/server/fix44, 59 scenarios),
// played one scenario at a time against our conformance acceptor over TCP, compared as QuickFIX's
// runner compares (quickfix-at.ts). The definitions are read from ../shared/fix/quickfix-at, which
// exists beside development checkouts and in CI; elsewhere the suite skips, saying so, except under
// CI, where a missing folder fails. Scenarios 4a and 6 wait for real heartbeats (about 45 s together):
// the scenarios run two at a time, each against an acceptor of its own, so the others play while one
// of those waits.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { startConformanceAcceptor } from '../src/conformance/conformance-acceptor';
import { playScenario, readFieldPatterns, scenarioFiles } from './quickfix-at';

const root = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fix', 'quickfix-at');
const present = existsSync(join(root, 'server', 'fix44'));
const EXPECTED_SCENARIOS = 59;

describe(
  'QuickFIX acceptance tests, FIX 4.4 server scenarios',
  { skip: !present && !process.env.CI ? `no ${root} here (it exists in development checkouts and CI)` : false, concurrency: 2 },
  () => {
    it('the suite is there (under CI it must be)', () => {
      assert.ok(present, `the QuickFIX acceptance-test definitions are missing: ${root}`);
      assert.equal(scenarioFiles(join(root, 'server', 'fix44')).length, EXPECTED_SCENARIOS);
    });
    if (!present) return;
    const patterns = readFieldPatterns(join(root, 'fields.fmt'));
    for (const file of scenarioFiles(join(root, 'server', 'fix44'))) {
      it(basename(file, '.def'), { timeout: 120_000 }, async () => {
        const acceptor = await startConformanceAcceptor({ port: 0, host: '127.0.0.1' });
        const trace: string[] = [];
        try {
          await playScenario(readFileSync(file, 'utf8'), patterns, {
            host: '127.0.0.1',
            port: acceptor.port,
            trace: (line) => trace.push(line),
          });
        } catch (err) {
          if (err instanceof Error) err.message += `\nexchange:\n  ${trace.join('\n  ')}`;
          throw err;
        } finally {
          await acceptor.stop(200);
        }
      });
    }
  },
);
