// Desk-wide users online (docs/adr/0012) on both engines: each node's rows count while its node lease
// is live; a node replacing its rows, a node dying, a deleted user, and a desk with thousands of users.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestDatabase, TEST_DB_KINDS } from '@fixdesk/db/testing';
import { seededDatabase } from '../../support/seeded-database';
import { deskPresence, replaceNodePresence } from '../../../packages/db/src/repos/browser-presence';
import { acquireLease, nodeLeaseName, releaseLease } from '../../../packages/db/src/leases';

for (const kind of TEST_DB_KINDS) {
  describe(`users online on ${kind}`, () => {
    it("counts each user's connections over the live nodes only", async () => {
      const t = await createTestDatabase(kind, { template: seededDatabase() });
      try {
        const ids = new Map(
          (await t.db.query<{ user_id: number; username: string }>('SELECT user_id, username FROM users')).rows.map((r) => [
            r.username,
            r.user_id,
          ]),
        );
        const [admin, broker, viewer] = [ids.get('admin')!, ids.get('broker')!, ids.get('viewer')!];
        const a = await acquireLease(t.db, nodeLeaseName('node-a'), 'node-a', 60_000);
        const b = await acquireLease(t.db, nodeLeaseName('node-b'), 'node-b', 60_000);
        assert.ok(a.acquired && b.acquired);
        await replaceNodePresence(
          t.db,
          'node-a',
          new Map([
            [admin, 1],
            [broker, 2],
          ]),
        );
        await replaceNodePresence(
          t.db,
          'node-b',
          new Map([
            [broker, 1],
            [viewer, 1],
          ]),
        );
        const seen = async (asking: string) => (await deskPresence(t.db, asking)).map((u) => `${u.username}×${u.connections}`).join(',');
        assert.equal(await seen('node-a'), 'admin×1,broker×3,viewer×1');
        assert.deepEqual(
          (await deskPresence(t.db, 'node-a')).find((u) => u.username === 'admin'),
          { username: 'admin', first_name: 'Ada', last_name: 'Admin', role: 'admin', connections: 1 },
        );

        // A node's new rows replace its old ones.
        await replaceNodePresence(t.db, 'node-b', new Map([[viewer, 2]]));
        assert.equal(await seen('node-a'), 'admin×1,broker×2,viewer×2');

        // Node B's lease ends (it died, or stopped): its browsers no longer count, and the next write of any node drops its rows.
        assert.ok(await releaseLease(t.db, { lease: nodeLeaseName('node-b'), term: b.lease.term }));
        assert.equal(await seen('node-a'), 'admin×1,broker×2');
        await replaceNodePresence(t.db, 'node-a', new Map([[admin, 1]]));
        assert.equal(
          (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM browser_presence WHERE node_id = 'node-b'")).rows[0]!.n,
          0,
        );
        // A node asking counts its own rows even before its lease is there (it is starting).
        await replaceNodePresence(t.db, 'node-c', new Map([[viewer, 1]]));
        assert.equal(await seen('node-c'), 'admin×1,viewer×1');
        assert.equal(await seen('node-a'), 'admin×1');
      } finally {
        await t.dispose();
      }
    });

    it('takes thousands of users in one write (no message carries them)', async () => {
      const t = await createTestDatabase(kind, { template: seededDatabase() });
      try {
        await t.db.query(
          `INSERT INTO users (username, password_hash, role) SELECT 'user-' || i, 'x', 'viewer' FROM generate_series(1, 3000) AS i`,
        );
        const ids = (await t.db.query<{ user_id: number }>("SELECT user_id FROM users WHERE username LIKE 'user-%'")).rows.map(
          (r) => r.user_id,
        );
        assert.ok((await acquireLease(t.db, nodeLeaseName('node-a'), 'node-a', 60_000)).acquired);
        await replaceNodePresence(t.db, 'node-a', new Map(ids.map((id) => [id, 1])));
        const online = await deskPresence(t.db, 'node-a');
        assert.equal(online.length, 3000);
        // A user deleted meanwhile is left out of the next write (and their rows go with them).
        await t.db.query("DELETE FROM users WHERE username = 'user-1'");
        await replaceNodePresence(t.db, 'node-a', new Map(ids.map((id) => [id, 2])));
        const after = await deskPresence(t.db, 'node-a');
        assert.equal(after.length, 2999);
        assert.ok(after.every((u) => u.connections === 2));
      } finally {
        await t.dispose();
      }
    });
  });
}
