import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ModeChange } from './data-dir-permissions';
import { openDb } from './db';

/** Every directory and file under `dir` (itself included) whose mode lets group or others in. */
function open(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.mode & 0o077) out.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(dir);
  return out;
}

describe("the embedded database's files are closed to other local users", () => {
  it('a new DATA_DIR is 0700 and every file PGlite writes 0600, WAL included, from the first start on', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'fixdesk-perm-')), 'data');
    try {
      const db = await openDb({ dataDir: dir });
      // Enough writes for new relation files and WAL.
      await db.exec(
        `CREATE TABLE secrets (id serial PRIMARY KEY, v text); INSERT INTO secrets (v) SELECT repeat('k', 500) FROM generate_series(1, 20000); CHECKPOINT;`,
      );
      assert.equal(lstatSync(dir).mode & 0o777, 0o700);
      assert.deepEqual(open(dir), [], 'while open');
      await db.close();
      assert.deepEqual(open(dir), [], 'once closed');
      assert.ok(readdirSync(join(dir, 'pglite')).includes('pg_wal'));
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('an existing DATA_DIR open to others is tightened at start, and what changed is told', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixdesk-perm-'));
    try {
      await (await openDb({ dataDir: dir })).close();
      // As an older version left it: 0755 directories, 0666 files; and a file of someone else's.
      const loosen = (p: string) => {
        const st = lstatSync(p);
        chmodSync(p, st.isDirectory() ? 0o755 : 0o666);
        if (st.isDirectory()) for (const n of readdirSync(p)) loosen(join(p, n));
      };
      loosen(dir);
      writeFileSync(join(dir, 'notes.txt'), 'not ours', { mode: 0o644 });
      chmodSync(join(dir, 'notes.txt'), 0o644);
      let told: { existing: readonly ModeChange[]; created: readonly ModeChange[] } | undefined;
      const db = await openDb({ dataDir: dir, onDataDirSecured: (c) => (told = c) });
      await db.close();
      assert.ok(told, 'told');
      assert.deepEqual(
        told.existing.find((c) => c.path === dir),
        { path: dir, from: '755', to: '700' },
      );
      assert.ok(
        told.existing.some((c) => c.path.endsWith(join('pglite', 'PG_VERSION')) && c.from === '666' && c.to === '600'),
        JSON.stringify(told.existing.slice(0, 5)),
      );
      // PGlite rewrites its relation cache files as it starts, with modes of its own: closed once it has opened.
      assert.ok(
        told.created.every((c) => c.path.startsWith(join(dir, 'pglite'))),
        JSON.stringify(told.created),
      );
      assert.deepEqual(open(dir), [`${join(dir, 'notes.txt')} 644`], 'only the file that is not ours is left as it was');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
