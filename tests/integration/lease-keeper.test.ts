// A node's lease keeper (docs/adr/0012): renews what it holds, gives back what is no longer needed,
// tells the holder when another node took a lease over, releases everything at stop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acquireLease, listLeases, releaseLease } from '@fixdesk/db';
import { createTestDatabase } from '@fixdesk/db/testing';
import { seededDatabase } from '../support/seeded-database';
import pino from 'pino';
import { LeaseKeeper } from '../../apps/server/src/cluster/lease-keeper';
import { until } from '../support/until';

const silent = pino({ level: 'silent' });

describe('LeaseKeeper', () => {
  it('renews, releases what is no longer needed, reports a takeover, and frees everything at stop', async () => {
    // A copy of the seeded template: no PGlite initdb and migrations for a test of a few statements.
    const t = await createTestDatabase('pglite', { template: seededDatabase() });
    const keeper = new LeaseKeeper(t.db, 'node-a', 300, silent);
    try {
      keeper.start();
      let lost = 0;
      let needed = true;
      assert.ok((await keeper.acquire('fix:s1', { onLost: () => lost++ })).acquired);
      assert.ok((await keeper.acquire('fix:s2', { stillNeeded: () => needed })).acquired);
      assert.ok(await keeper.runsDeskJob('sealer'));
      // Held past several TTLs: renewed, so another node cannot take any of them.
      await new Promise((r) => setTimeout(r, 700));
      for (const name of ['fix:s1', 'job:sealer']) assert.equal((await acquireLease(t.db, name, 'node-b', 1_000)).acquired, false, name);
      // Asking again for what it holds keeps the same holding (no new term that would fence its own writes).
      const term = keeper.fence('fix:s1').term;
      await keeper.acquire('fix:s1');
      assert.equal(keeper.fence('fix:s1').term, term);

      // No longer needed: given back at a renewal, its last holding kept as the fence of late writes.
      needed = false;
      await until('fix:s2 released', () => !keeper.holds('fix:s2'), 3_000);
      assert.equal(keeper.fence('fix:s2').term, 1);
      assert.ok((await acquireLease(t.db, 'fix:s2', 'node-b', 1_000)).acquired);

      // Taken over (as after a pause past the expiry): the holder is told, the lease is no longer held.
      await releaseLease(t.db, keeper.fence('fix:s1'));
      assert.ok((await acquireLease(t.db, 'fix:s1', 'node-b', 60_000)).acquired);
      await until('the takeover reported', () => lost === 1, 3_000);
      assert.equal(keeper.holds('fix:s1'), false);
      assert.equal(keeper.fence('fix:s1').term, term, 'its writes stay conditional on the lost term');
      // A lease never held here fences with term 0 (matches no holding).
      assert.equal(keeper.fence('fix:never').term, 0);

      await keeper.stop();
      const sealer = (await listLeases(t.db)).find((l) => l.name === 'job:sealer')!;
      assert.equal(sealer.live, false, 'released at stop');
    } finally {
      await keeper.stop();
      await t.dispose();
    }
  });

  it('renews everything it holds in one statement, however many leases', async () => {
    const t = await createTestDatabase('pglite', { template: seededDatabase() });
    // Counts the renewals reaching the database (the statement that moves expires_at of held leases).
    let renewals = 0;
    const db = {
      ...t.db,
      query: ((sql: string, ...rest: unknown[]) => {
        if (/UPDATE leases l SET expires_at/.test(sql)) renewals++;
        return (t.db.query as (...a: unknown[]) => unknown)(sql, ...rest);
      }) as typeof t.db.query,
    };
    const keeper = new LeaseKeeper(db, 'node-a', 3_000, silent);
    try {
      for (let i = 0; i < 40; i++) assert.ok((await keeper.acquire(`fix:s${i}`)).acquired);
      const before = new Map((await listLeases(t.db)).map((l) => [l.name, l.expiresAt.getTime()]));
      keeper.start();
      await until('a renewal', () => renewals > 0, 5_000);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(renewals, 1, 'one statement for 40 leases');
      const after = await listLeases(t.db);
      assert.equal(after.filter((l) => l.expiresAt.getTime() > before.get(l.name)!).length, 40, 'every lease renewed');
    } finally {
      await keeper.stop();
      await t.dispose();
    }
  });
});
