// The database a test server starts on: as the server's first start leaves it (migrated, dictionary and
// demo data seeded, the demo users with the test passwords), built once per run and sources and copied
// for each server (tests/support/server.ts in memory, e2e/support/server.ts as a data directory).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TestTemplate } from '@fixdesk/db/testing';

export const ADMIN_PASSWORD = 'admin-test-pw-1';
export const DEMO_PASSWORD = 'demo-test-pw-1';

const repoRoot = new URL('../..', import.meta.url).pathname;

/** Every file under a directory of the repository, in a stable order. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * The template: the server's own start then finds everything there, as on any later start. The key
 * covers what the seed reads (the database package's sources, the dictionary, the server's demo users)
 * and the passwords.
 */
let seededTemplate: TestTemplate | undefined;
export function seededDatabase(): TestTemplate {
  if (seededTemplate) return seededTemplate;
  const h = createHash('sha256').update(
    `${ADMIN_PASSWORD}\n${DEMO_PASSWORD}\n${readFileSync(join(repoRoot, 'apps/server/src/server.ts'))}`,
  );
  for (const file of [...filesUnder('packages/db/src'), join(repoRoot, 'packages/fix/src/dictionary/fix44.generated.json')])
    h.update(relative(repoRoot, file)).update(readFileSync(file));
  seededTemplate = {
    key: `seeded server database ${h.digest('hex')}`,
    // The seed's modules (the whole server, for its demo users) load only when a template is built: a
    // browser test's process, which finds the template there, saves a second or two of CPU.
    build: async (db) => {
      const [{ seed }, { hashPassword }, { loadDictionaryData }, { demoUsers }] = await Promise.all([
        import('@fixdesk/db'),
        import('../../apps/server/src/auth/passwords'),
        import('../../apps/server/src/dictionary'),
        import('../../apps/server/src/server'),
      ]);
      await seed(db, {
        dictionary: loadDictionaryData(),
        users: demoUsers({ adminPassword: ADMIN_PASSWORD, demoPassword: DEMO_PASSWORD }).users,
        hashPassword,
      });
    },
  };
  return seededTemplate;
}
