// The server as a process: it prints how to sign in, and SIGTERM / SIGINT stop it cleanly.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

function withoutPasswords(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ADMIN_PASSWORD: _a, DEMO_PASSWORD: _d, DATABASE_URL: _u, ...rest } = env;
  return rest;
}

function startProcess(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...withoutPasswords(process.env), PORT: '0', FIX_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', TEST_CLIENT_PORTS: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const check = () => {
      const m = /FixDesk is running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      } else setTimeout(check, 50);
    };
    check();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => out };
}

describe('the server process', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints the URL and generated passwords, and exits 0 on ${signal}`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fixdesk-proc-'));
      try {
        const p = startProcess(dataDir);
        const url = await p.ready;
        assert.match(p.output(), /admin\s+\S{16}/, 'the generated admin password is printed once');
        const health = (await (await fetch(`${url}/api/health`)).json()) as { status: string; database: string };
        assert.deepEqual([health.status, health.database], ['ok', 'pglite']);
        const t0 = Date.now();
        p.child.kill(signal);
        assert.equal(await p.exited, 0, p.output());
        assert.ok(Date.now() - t0 < 10_000, 'stops promptly');
        assert.match(p.output(), /shutting down/);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
