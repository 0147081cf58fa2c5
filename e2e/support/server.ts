import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../../tests/support/free-port';
import { killWithThisProcess } from '../../tests/support/watchdog';
import { ADMIN_PASSWORD, DEMO_PASSWORD, seedDataDir } from './seeded-data-dir';

const repoRoot = new URL('../..', import.meta.url).pathname;
const serverMain = join(repoRoot, 'apps/server/dist/main.js');
const webIndex = join(repoRoot, 'apps/web/dist/index.html');

export interface RunningServer {
  baseUrl: string;
  /** The FIX acceptor's port (clients log on here with their comp id). */
  fixPort: number;
  adminPassword: string;
  /** Password of the seeded broker and viewer accounts. */
  demoPassword: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  /** Stops the process and starts it again on the same ports and data (a server restart), after `downForMs` stopped. */
  restart(downForMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts the built server (`node apps/server/dist/main.js`) on free ports with a fresh data
 * directory (a copy of the seeded template) and known passwords, and resolves once /api/health answers.
 */
export interface ServerOptions {
  /** More environment for the server (e.g. FIX_TLS_PORT: '0' for a TLS port on a free port). */
  env?: Record<string, string>;
  /** Writes a test's own data into the fresh data directory before the server first starts on it. */
  seed?: (dataDir: string) => Promise<void>;
}

/**
 * Under scripts/test.mjs the build runs beside the first test files, and FIXDESK_BUILD_STATUS names the
 * file its exit status is written to when it ends: waits for it (a build takes seconds, longer under
 * load; 15 minutes is a hung build) and fails with the build's output if the build failed.
 */
async function builtApp(): Promise<void> {
  const statusFile = process.env.FIXDESK_BUILD_STATUS;
  if (!statusFile) return;
  const deadline = Date.now() + 15 * 60_000;
  while (!existsSync(statusFile)) {
    if (Date.now() > deadline) throw new Error('the build of the app did not end within 15 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const code = (await readFile(statusFile, 'utf8')).trim();
  if (code !== '0') {
    const log = await readFile(join(dirname(statusFile), 'output.log'), 'utf8').catch(() => '');
    throw new Error(`the build of the app failed (exit status ${code}):\n${log}`);
  }
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  await builtApp();
  for (const [file, what] of [
    [serverMain, 'server'],
    [webIndex, 'web app'],
  ] as const) {
    if (!existsSync(file))
      throw new Error(`The ${what} is not built (${file} missing): run npm run build, or the e2e tier without SKIP_BUILD.`);
  }
  const [port, fixPort] = [await freePort(), await freePort()];
  const dataDir = await mkdtemp(join(tmpdir(), 'fixdesk-e2e-'));
  // The embedded database as a first start leaves it, with the test passwords (seeded-data-dir.ts).
  await seedDataDir(dataDir);
  await options.seed?.(dataDir);
  const [adminPassword, demoPassword] = [ADMIN_PASSWORD, DEMO_PASSWORD];

  let output = '';
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    FIX_PORT: String(fixPort),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: adminPassword,
    DEMO_PASSWORD: demoPassword,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
    // Simulated clients on ephemeral ports: several test servers may run at once.
    TEST_CLIENT_PORTS: 'auto',
    ...options.env,
  };
  const spawnServer = () => {
    const proc = spawn(process.execPath, [serverMain], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    killWithThisProcess(proc);
    proc.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return proc;
  };
  let child = spawnServer();

  const baseUrl = `http://127.0.0.1:${port}`;
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(killer);
    }
  };
  // The end of the server and of its data: nothing reads either again, so no orderly shutdown (a few
  // seconds of CPU closing the embedded database); restart() stops it in order, as an operator would.
  // The orderly shutdown is tested on its own (tests/integration/shutdown.test.ts).
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const waitHealthy = async () => {
    // E2E_START_TIMEOUT_MS: more time on a machine busy with other work (starting on a fresh PGlite directory takes longest).
    const limitMs = Number(process.env.E2E_START_TIMEOUT_MS) || 90_000;
    const deadline = Date.now() + limitMs;
    for (;;) {
      if (child.exitCode !== null) {
        await stop();
        throw new Error(`server exited with code ${child.exitCode} before becoming healthy:\n${output}`);
      }
      try {
        const response = await fetch(`${baseUrl}/api/health`);
        if (response.ok && ((await response.json()) as { status?: string }).status === 'ok') break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`server did not become healthy within ${limitMs / 1000} s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  await waitHealthy();

  const restart = async (downForMs = 0) => {
    await kill();
    if (downForMs > 0) await new Promise((resolve) => setTimeout(resolve, downForMs));
    child = spawnServer();
    await waitHealthy();
  };

  return { baseUrl, fixPort, adminPassword, demoPassword, output: () => output, restart, stop };
}
