import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMessageStoreSuite } from '@fixdesk/fix/store-suite';
import { openDb, type Db } from './db';
import { PgMessageStoreFactory } from './fix-message-store';
import { migrate } from './migrate';
import { createTestDatabase } from './testing';

// PGlite on disk in a temp dir: "reopen" opens the same directory again, as a restarted process would.
runMessageStoreSuite('PostgreSQL store on PGlite (temp dir)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fix-store-'));
  let db: Db = await openDb({ dataDir: dir });
  await migrate(db);
  return {
    factory: new PgMessageStoreFactory(db),
    reopen: async () => {
      // PGlite is single-process: the dead process's handle must be let go before the directory is
      // opened again. Everything a store call resolved was committed, which is all a crash keeps.
      await db.close();
      db = await openDb({ dataDir: dir });
      return new PgMessageStoreFactory(db);
    },
    cleanup: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

// The local PostgreSQL server, in a throwaway database per run.
runMessageStoreSuite('PostgreSQL store on PostgreSQL (throwaway database)', async () => {
  const t = await createTestDatabase('postgres');
  const extra: Db[] = [];
  return {
    factory: new PgMessageStoreFactory(t.db),
    reopen: async () => {
      // A new pool, as a restarted process would have; the old one is left as a crash leaves it.
      const db = await openDb({ databaseUrl: t.url, poolSize: 2 });
      extra.push(db);
      return new PgMessageStoreFactory(db);
    },
    cleanup: async () => {
      for (const db of extra) await db.close();
      await t.dispose();
    },
  };
});
