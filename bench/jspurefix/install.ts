// Installs jspurefix into bench/.build/jspurefix for the comparison benchmark only: it is not a
// dependency of the project and never enters package.json or the lockfile.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const JSPUREFIX_VERSION = '5.11.4';
export const JSPUREFIX_PREFIX = join(dirname(fileURLToPath(import.meta.url)), '..', '.build', 'jspurefix');

function installedVersion(): string | undefined {
  const pkg = join(JSPUREFIX_PREFIX, 'node_modules', 'jspurefix', 'package.json');
  if (!existsSync(pkg)) return undefined;
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version;
}

/** Installs the pinned version when it is not there yet; returns the prefix, or throws with npm's output. */
export function ensureJspurefix(log: (line: string) => void = () => {}): string {
  if (installedVersion() === JSPUREFIX_VERSION) return JSPUREFIX_PREFIX;
  mkdirSync(JSPUREFIX_PREFIX, { recursive: true });
  log(`installing jspurefix@${JSPUREFIX_VERSION} into bench/.build/jspurefix (benchmark only)...`);
  const r = spawnSync(
    'npm',
    ['install', '--prefix', JSPUREFIX_PREFIX, `jspurefix@${JSPUREFIX_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0 || installedVersion() !== JSPUREFIX_VERSION)
    throw new Error(`npm install jspurefix@${JSPUREFIX_VERSION} failed:\n${r.stderr || r.stdout}`);
  return JSPUREFIX_PREFIX;
}
