// The e2e servers' embedded database: a data directory as the server's first start leaves it (the
// template of tests/support/seeded-database.ts), built once per run and sources and copied into each
// server's fresh DATA_DIR, so a server starts without PGlite's initdb, the migrations and the seed.
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeStaleTemplates, templateHash, touchTemplate } from '@fixdesk/db/testing';
import { seededDatabase } from '../../tests/support/seeded-database';

export { ADMIN_PASSWORD, DEMO_PASSWORD } from '../../tests/support/seeded-database';

const PREFIX = 'fixdesk-e2e-data-template-';

/** The template directory (holding `pglite/`), built by the first process that needs it. */
async function templateDir(): Promise<string> {
  const template = seededDatabase();
  const dir = join(tmpdir(), `${PREFIX}${templateHash(template)}`);
  if (existsSync(dir)) {
    touchTemplate(dir);
    return dir;
  }
  // Built under its own name and renamed whole: a reader never sees half a directory.
  const building = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const { migrate, openDb } = await import('@fixdesk/db');
  const db = await openDb({ dataDir: building });
  try {
    await migrate(db);
    await template.build(db);
  } finally {
    await db.close();
  }
  try {
    renameSync(building, dir);
  } catch {
    // Another process finished first: use its copy.
    rmSync(building, { recursive: true, force: true });
  }
  removeStaleTemplates((name) => name.startsWith(PREFIX) && !name.includes('.'), dir);
  return dir;
}

/** Fills a new DATA_DIR with a copy of the seeded embedded database. */
export async function seedDataDir(dataDir: string): Promise<void> {
  await cp(join(await templateDir(), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}
