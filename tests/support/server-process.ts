// The server as a process of its own, as `npm start` runs it: real signals, a real kill -9. Used by
// the shutdown, crash-safety and failover tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { killWithThisProcess } from './watchdog';

const root = new URL('../..', import.meta.url).pathname;
const START_TIMEOUT_MS = 180_000;

let bundle: Promise<string> | undefined;

/**
 * The server's sources bundled as `npm run build` bundles them (apps/server/build.mjs: our workspace
 * packages inlined, third-party packages loaded from node_modules), once per test process and removed
 * when it exits. A node started from it loads one file instead of tsx compiling hundreds of modules:
 * on 2 cores that is seconds of CPU per start (the failover trials start a node 20 times). It sits in
 * apps/server/dist, as the production bundle does, so that what the server finds beside itself
 * (the web app's dist) is where it would be.
 */
function serverBundle(): Promise<string> {
  bundle ??= (async () => {
    const outfile = join(root, 'apps/server/dist', `test-server-${process.pid}-${randomBytes(4).toString('hex')}.js`);
    process.once('exit', () => {
      rmSync(outfile, { force: true });
      rmSync(`${outfile}.map`, { force: true });
    });
    await build({
      entryPoints: [join(root, 'apps/server/src/main.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
      plugins: [
        {
          name: 'external-third-party',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@fixdesk/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
    });
    return outfile;
  })();
  return bundle;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** The URL it printed. */
  readonly url: string;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
}

/**
 * Starts `apps/server/src/main.ts` with this process's environment less the passwords and
 * DATABASE_URL, plus `env`; resolves with the URL it prints (rejects if it exits or takes three minutes:
 * a start takes a few seconds on a quiet machine, and has taken over a minute with another suite
 * sharing the 2 cores, between the migrations and the printed URL). Run under tsx, or with `bundled`
 * from the sources bundled once per test process (serverBundle): the same code, started faster.
 */
export async function startServerProcess(
  env: Record<string, string>,
  name = 'server',
  o: { bundled?: boolean } = {},
): Promise<ServerProcess> {
  const { ADMIN_PASSWORD: _a, DEMO_PASSWORD: _d, DATABASE_URL: _u, ...inherited } = process.env;
  const args = o.bundled ? ['--enable-source-maps', await serverBundle()] : ['--import', 'tsx', 'apps/server/src/main.ts'];
  // A process group of its own (detached: the server leads it), signalled as a group by killHard, and a
  // watchdog that kills that group when this process ends however it ends (a file's timeout, a SIGKILL).
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...inherited, TEST_CLIENT_PORTS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  watchGroup(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`${name} did not start:\n${out}`));
    }, START_TIMEOUT_MS);
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
  return { child, url, output: () => out };
}

/** SIGKILL to its process group (unless it already ended), resolved once the process is gone. */
export async function killHard(p: { readonly child: ChildProcess }): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  killGroup(p.child);
  await exited;
}

/** SIGKILL to the group the child leads (itself and anything it started), if it is still running. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Ends the child's process group when this process ends, whatever ends it (watchdog.ts), and at once
 * by an exit handler when this process exits in order.
 */
function watchGroup(child: ChildProcess): void {
  killWithThisProcess(child, { group: true });
  const onExit = () => killGroup(child);
  process.once('exit', onExit);
  child.once('exit', () => process.off('exit', onExit));
}
