// A client that reaches the other node while a dead node's lease on its session is still running
// (docs/adr/0012): the Logon waits for that lease's expiry and takes the session then,
// instead of being refused and coming back only after its reconnect interval (or after trying the
// dead node again). A live owner renews in the meantime: the Logon is refused as before, nothing sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { acquireLease, fixSessionLeaseName, renewLease } from '@fixdesk/db';
import { MemoryStoreFactory } from '@fixdesk/fix';
import { logonAttempt } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

const TTL_MS = 1_500;
const COMP_ID = 'SGX_CLIENT_1';
const LEASE = fixSessionLeaseName({ beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: COMP_ID });

describe("a Logon at the other node while a node's lease on the session runs", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer('postgres', { nodeId: 'node-b', leaseTtlMs: TTL_MS });
  });
  after(() => t?.stop());

  const lease = async () =>
    (await t.database.db.query<{ owner: string; term: number }>('SELECT owner, term FROM leases WHERE name = $1', [LEASE])).rows[0];
  const refusals = async () =>
    (
      await t.database.db.query<{ disconnect_reason: string }>(
        "SELECT disconnect_reason FROM client_sessions WHERE comp_id = $1 AND disconnect_reason LIKE 'logon refused%'",
        [COMP_ID],
      )
    ).rows.map((r) => r.disconnect_reason);

  it("of a dead node: waits for the lease's expiry and logs on then, at the first attempt", async () => {
    // Node A took the session and died at once: nobody renews its lease.
    const taken = await acquireLease(t.database.db, LEASE, 'node-a', TTL_MS);
    assert.ok(taken.acquired);
    const t0 = Date.now();
    const attempt = await logonAttempt(t.server.ctx.fix.port, COMP_ID, new MemoryStoreFactory(), { timeoutMs: TTL_MS + 5_000 });
    const took = Date.now() - t0;
    assert.equal(attempt.loggedOn, true, attempt.events.join('\n'));
    // Not before the lease ran out (the database decides), and not a reconnect interval after it.
    assert.ok(took >= TTL_MS - 300, `logged on ${took} ms after the attempt began`);
    assert.ok(took < TTL_MS + 1_500, `logged on ${took} ms after the attempt began`);
    assert.deepEqual(await lease(), { owner: 'node-b', term: taken.lease.term + 1 });
    assert.deepEqual(await refusals(), []);
  });

  it('of a live node (renewing): refused once the wait is over, nothing sent', async () => {
    // The attempt above logged out, and node B releases its holding after the logout (not before the
    // client heard it): node A takes the session once it is free, and keeps it.
    const taken = await until('node B to release the session after the logout', async () => {
      const r = await acquireLease(t.database.db, LEASE, 'node-a', TTL_MS);
      return r.acquired ? r : undefined;
    });
    const renewing = setInterval(() => void renewLease(t.database.db, { lease: LEASE, term: taken.lease.term }, TTL_MS), TTL_MS / 3);
    try {
      const attempt = await logonAttempt(t.server.ctx.fix.port, COMP_ID, new MemoryStoreFactory(), { timeoutMs: TTL_MS + 5_000 });
      assert.equal(attempt.loggedOn, false);
      assert.ok(!attempt.events.some((e) => /^incoming: .*\x0135=5\x01/.test(e)), attempt.events.join('\n'));
      assert.deepEqual(await lease(), { owner: 'node-a', term: taken.lease.term });
      const refused = await refusals();
      assert.equal(refused.length, 1);
      assert.match(refused[0]!, /^logon refused: Session owned by node node-a \(lease term \d+ until /);
    } finally {
      clearInterval(renewing);
    }
  });
});
