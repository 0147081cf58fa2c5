import { createTestDatabase } from '@fixdesk/db/testing';
import { migrate, seed } from '@fixdesk/db';
import { loadDictionaryData } from '../apps/server/src/dictionary';
import { hashPassword } from '../apps/server/src/auth/passwords';
for (const kind of ['pglite', 'postgres'] as const) {
  const t0 = performance.now();
  const d = await createTestDatabase(kind, { migrate: false });
  const t1 = performance.now();
  await migrate(d.db);
  const t2 = performance.now();
  const dict = loadDictionaryData();
  const t3 = performance.now();
  await seed(d.db, { dictionary: dict, users: [{ username: 'admin', password: 'a-test-pw-1', role: 'admin' }, { username: 'broker', password: 'a-test-pw-1', role: 'broker' }, { username: 'viewer', password: 'a-test-pw-1', role: 'viewer' }] as never, hashPassword });
  const t4 = performance.now();
  console.log(kind, 'create', Math.round(t1 - t0), 'migrate', Math.round(t2 - t1), 'dict', Math.round(t3 - t2), 'seed', Math.round(t4 - t3));
  await d.dispose();
}
