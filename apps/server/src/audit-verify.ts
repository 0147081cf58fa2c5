// npm run audit:verify
// Recomputes the seal chains of the compliance record (order actions, FIX messages) on the database the
// server uses (DATABASE_URL, else the embedded database in DATA_DIR; stop the server first on the
// embedded one, which only one process may open). Prints what it checked; exits 1 naming the first
// broken link, 2 when it cannot run.
import { openDb, SEALED_TABLES, verifyChain } from '@fixdesk/db';
import { loadConfig } from './config';

async function main(): Promise<number> {
  const config = loadConfig();
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    let ok = true;
    for (const table of SEALED_TABLES) {
      const v = await verifyChain(db, table);
      const counts = `${v.rows.toLocaleString('en-US')} records in ${v.blocks.toLocaleString('en-US')} sealed blocks checked`;
      const pending = v.unsealed ? `; ${v.unsealed.toLocaleString('en-US')} newer records not sealed yet` : '';
      if (v.broken) {
        ok = false;
        const b = v.broken;
        console.log(`${table}: BROKEN at block ${b.blockNo} (ids ${b.firstId}-${b.lastId}): ${b.reason}; ${counts} before it`);
      } else {
        console.log(`${table}: chain intact, ${counts}${pending}`);
      }
    }
    return ok ? 0 : 1;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`audit:verify could not run: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
