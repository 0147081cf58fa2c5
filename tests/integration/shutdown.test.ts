// The server as a process: it prints how to sign in, and SIGTERM / SIGINT stop it cleanly.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startServerProcess } from '../support/server-process';

/**
 * The server with generated passwords (none given) on the embedded database, from its bundled sources
 * as `npm start` runs it; `exited` resolves with its exit code.
 */
async function startProcess(dataDir: string) {
  const p = await startServerProcess({ PORT: '0', FIX_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' }, 'server', { bundled: true });
  const exited = new Promise<number | null>((resolve) =>
    p.child.exitCode !== null ? resolve(p.child.exitCode) : p.child.on('exit', (code) => resolve(code)),
  );
  return { ...p, exited };
}

describe('the server process', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints the URL and generated passwords, and exits 0 on ${signal}`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fixdesk-proc-'));
      try {
        const p = await startProcess(dataDir);
        const url = p.url;
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
