import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DATA_DIR_LOCK_FILE, DataDirInUseError, lockDataDir } from './data-dir-lock';
import { openDb } from './db';

const lockOf = (pid: number) => JSON.stringify({ pid, host: hostname(), since: '2026-01-01T00:00:00.000Z' });

describe('the embedded database stays single-node', () => {
  it('a second live process on the same DATA_DIR is refused with a clear message; a lock of a process that is gone is taken over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixdesk-lock-'));
    const file = join(dir, DATA_DIR_LOCK_FILE);
    try {
      const release = lockDataDir(dir);
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).pid, process.pid);
      release();
      assert.equal(existsSync(file), false);

      // Another process that is alive (the one that started this test) holds it.
      writeFileSync(file, lockOf(process.ppid));
      assert.throws(
        () => lockDataDir(dir),
        (err: unknown) =>
          err instanceof DataDirInUseError &&
          /in use by another FixDesk node \(process \d+/.test(err.message) &&
          /one PostgreSQL database \(DATABASE_URL\)/.test(err.message),
      );
      await assert.rejects(openDb({ dataDir: dir }), /embedded database .* serves a single node/);
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).pid, process.ppid, 'the holder keeps its lock');

      // Left by a process that is gone (kill -9): taken over.
      const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
      writeFileSync(file, lockOf(Number(gone.stdout.trim())));
      const again = lockDataDir(dir);
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).pid, process.pid);
      again();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
