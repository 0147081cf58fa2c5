// The database a test server starts on: as the server's first start leaves it (migrated, dictionary and
// demo data seeded, the demo users with the test passwords), built once per run and sources and copied
// for each server (tests/support/server.ts in memory, e2e/support/server.ts as a data directory).
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TestTemplate } from '@fixdesk/db/testing';
import { argon2id } from 'hash-wasm';

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
 * The seeded users' password hashes: argon2id as the server makes them (a PHC string the server's
 * verify reads its cost from), at the least cost argon2 allows. At the server's cost (19 MiB, 2 passes)
 * a sign-in takes about 110 ms of CPU, and nearly every test signs a seeded user in, many several times,
 * on two cores its tests keep busy (tests/integration/auth-api.test.ts alone: 48-49 s, now 37 s).
 * Passwords the tests set through the API (new users, changed passwords) are hashed by the server at
 * its own cost, and the server's hashing has its own tests.
 */
function cheapHash(password: string): Promise<string> {
  return argon2id({ password, salt: randomBytes(16), iterations: 1, memorySize: 8, parallelism: 1, hashLength: 32, outputType: 'encoded' });
}

/**
 * The template: the server's own start then finds everything there, as on any later start. The key
 * covers what the seed reads (the database package's sources, the dictionary, the server's demo users),
 * the passwords and how they are hashed (cheapHash's source text).
 */
let seededTemplate: TestTemplate | undefined;
export function seededDatabase(): TestTemplate {
  if (seededTemplate) return seededTemplate;
  const h = createHash('sha256').update(
    `${ADMIN_PASSWORD}\n${DEMO_PASSWORD}\n${cheapHash}\n${readFileSync(join(repoRoot, 'apps/server/src/server.ts'))}`,
  );
  for (const file of [...filesUnder('packages/db/src'), join(repoRoot, 'packages/fix/src/dictionary/fix44.generated.json')])
    h.update(relative(repoRoot, file)).update(readFileSync(file));
  seededTemplate = {
    key: `seeded server database ${h.digest('hex')}`,
    // The seed's modules (the whole server, for its demo users) load only when a template is built: a
    // browser test's process, which finds the template there, saves a second or two of CPU.
    build: async (db) => {
      const [{ seed }, { loadDictionaryData }, { demoUsers }] = await Promise.all([
        import('@fixdesk/db'),
        import('../../apps/server/src/dictionary'),
        import('../../apps/server/src/server'),
      ]);
      await seed(db, {
        dictionary: loadDictionaryData(),
        users: demoUsers({ adminPassword: ADMIN_PASSWORD, demoPassword: DEMO_PASSWORD }).users,
        hashPassword: cheapHash,
      });
    },
  };
  return seededTemplate;
}
