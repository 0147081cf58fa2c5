// Builds the QuickFIX C++ programs (the interop peer and the codec benchmark) with g++ against
// Debian's libquickfix-dev, and writes the FIX44.xml they load. Output goes to bench/.build/quickfix
// (gitignored); a program is recompiled only when its source, the flags or the compiler change.
//   npx tsx bench/quickfix/build.ts            builds everything, prints the paths
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quickfixDictionaryXml } from './fix44-xml';

const here = dirname(fileURLToPath(import.meta.url));
export const QUICKFIX_BUILD_DIR = join(here, '..', '.build', 'quickfix');

export type QuickfixProgram = 'fixpeer' | 'codec-bench';

export interface QuickfixBuild {
  readonly dictionaryPath: string;
  readonly programs: Readonly<Record<QuickfixProgram, string>>;
}

/**
 * QuickFIX 1.15's headers use dynamic exception specifications, which C++17 removed. Debian builds
 * libquickfix with SSL (it links libssl); HAVE_SSL=1 opens its SSL initiator's header to us.
 */
const CXXFLAGS = ['-std=c++14', '-O2', '-Wall', '-Wno-deprecated', '-Wno-deprecated-declarations', '-DHAVE_SSL=1'];
const LIBS = ['-lquickfix', '-lpthread', '-lssl', '-lcrypto'];

/** Why the QuickFIX programs cannot be built here, or undefined when they can. */
export function quickfixUnavailable(): string | undefined {
  if (!existsSync('/usr/include/quickfix/Session.h'))
    return 'libquickfix-dev is not installed (no /usr/include/quickfix/Session.h); apt-get install libquickfix-dev';
  if (spawnSync('g++', ['--version'], { stdio: 'ignore' }).status !== 0) return 'g++ is not installed';
  return undefined;
}

function writeIfChanged(path: string, content: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

function compile(program: QuickfixProgram, log: (line: string) => void): string {
  const source = join(here, `${program}.cpp`);
  const binary = join(QUICKFIX_BUILD_DIR, program);
  const stampPath = `${binary}.stamp`;
  const compiler = execFileSync('g++', ['--version'], { encoding: 'utf8' }).split('\n')[0] ?? '';
  const stamp = createHash('sha256')
    .update(readFileSync(source))
    .update(JSON.stringify([CXXFLAGS, LIBS, compiler]))
    .digest('hex');
  if (existsSync(binary) && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp) return binary;
  log(`compiling ${program}.cpp with g++ against libquickfix...`);
  // A private output name, then rename: two runs building at once never execute a half-written binary.
  const tmp = `${binary}.${process.pid}.tmp`;
  const r = spawnSync('g++', [...CXXFLAGS, '-o', tmp, source, ...LIBS], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(tmp, { force: true });
    throw new Error(`g++ failed for ${program}.cpp:\n${r.stderr || r.error?.message}`);
  }
  renameSync(tmp, binary);
  writeIfChanged(stampPath, stamp);
  return binary;
}

/** Builds what is missing or stale; throws with g++'s output when a compile fails. */
export function buildQuickfix(
  programs: readonly QuickfixProgram[] = ['fixpeer', 'codec-bench'],
  log: (line: string) => void = () => {},
): QuickfixBuild {
  const missing = quickfixUnavailable();
  if (missing) throw new Error(missing);
  mkdirSync(QUICKFIX_BUILD_DIR, { recursive: true });
  const dictionaryPath = join(QUICKFIX_BUILD_DIR, 'FIX44.xml');
  writeIfChanged(dictionaryPath, quickfixDictionaryXml());
  const built: Partial<Record<QuickfixProgram, string>> = {};
  for (const p of programs) built[p] = compile(p, log);
  return { dictionaryPath, programs: built as Record<QuickfixProgram, string> };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const build = buildQuickfix(undefined, (line) => console.log(line));
  console.log(JSON.stringify(build, null, 2));
}
