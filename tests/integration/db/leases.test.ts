// Leases with a fencing term (docs/adr/0012) on both engines: acquire, renew, release,
// expiry and takeover, and the FIX store's writes refused once their term is no longer the lease's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SessionID, StoredMessage } from '@fixdesk/fix';
import { createTestDatabase, TEST_DB_KINDS } from '@fixdesk/db/testing';
import { seededDatabase } from '../../support/seeded-database';
import {
  persistReservedOutbound,
  persistReservedOutboundAtomically,
  PgMessageStoreFactory,
} from '../../../packages/db/src/fix-message-store';
import {
  acquireLease,
  checkFences,
  fixSessionLeaseName,
  isFencedOut,
  listLeases,
  liveNodes,
  nodeLeaseName,
  releaseLease,
  renewLease,
  renewLeases,
  reserveLease,
  type LeaseFence,
} from '../../../packages/db/src/leases';
import { openDb } from '../../../packages/db/src/db';
import { until } from '../../support/until';

const id: SessionID = { beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: 'LEASED' };
const created = new Date('2026-01-01T00:00:00Z');
const tx = (seq: number, raw = `m${seq}`): StoredMessage => ({
  direction: 'TX',
  msgSeqNum: seq,
  msgType: '8',
  senderCompID: 'FIXDESK',
  targetCompID: 'LEASED',
  sendingTime: '20260101-00:00:01.000',
  raw,
});

for (const kind of TEST_DB_KINDS) {
  describe(`leases on ${kind}`, () => {
    it('acquire, reclaim by the same owner, refusal while live, takeover after expiry, renew and release', async () => {
      const t = await createTestDatabase(kind, { template: seededDatabase() });
      try {
        const name = 'job:test';
        const a1 = await acquireLease(t.db, name, 'node-a', 60_000);
        assert.ok(a1.acquired);
        assert.equal(a1.lease.term, 1);
        // A restarted node-a takes its own lease back at once, under a new term.
        const a2 = await acquireLease(t.db, name, 'node-a', 200);
        assert.ok(a2.acquired);
        assert.equal(a2.lease.term, 2);
        // Another node is told who holds it while it is live.
        const b1 = await acquireLease(t.db, name, 'node-b', 60_000);
        assert.ok(!b1.acquired);
        assert.equal(b1.heldBy.owner, 'node-a');
        assert.equal(b1.heldBy.term, 2);
        assert.equal(b1.heldBy.live, true);
        // Once it expired (nobody renewed), node-b takes over with the next term.
        const b2 = await until('node-b to take the expired lease', async () => {
          const r = await acquireLease(t.db, name, 'node-b', 60_000);
          return r.acquired ? r : undefined;
        });
        assert.equal(b2.lease.term, 3);
        // node-a's holding is gone: renewing and releasing it do nothing.
        assert.equal(await renewLease(t.db, { lease: name, term: 2 }, 60_000), undefined);
        assert.equal(await releaseLease(t.db, { lease: name, term: 2 }), false);
        assert.ok((await renewLease(t.db, { lease: name, term: 3 }, 60_000)) instanceof Date);
        // A release frees it at once for anyone.
        assert.equal(await releaseLease(t.db, { lease: name, term: 3 }), true);
        const a3 = await acquireLease(t.db, name, 'node-a', 60_000);
        assert.ok(a3.acquired);
        assert.equal(a3.lease.term, 4);
        const rows = await listLeases(t.db);
        assert.deepEqual(
          rows.map((r) => [r.name, r.owner, r.term, r.live]),
          [[name, 'node-a', 4, true]],
        );
      } finally {
        await t.dispose();
      }
    });

    it("renews a node's holdings in one statement, leaving out those taken over", async () => {
      const t = await createTestDatabase(kind, { template: seededDatabase() });
      try {
        const fences: LeaseFence[] = [];
        for (const name of ['fix:c', 'fix:a', 'job:b']) {
          const r = await acquireLease(t.db, name, 'node-a', 60_000);
          assert.ok(r.acquired);
          fences.push({ lease: name, term: r.lease.term });
        }
        // fix:a is taken over: released by node-a's holding, acquired by node-b under a new term.
        assert.equal(await releaseLease(t.db, fences[1]!), true);
        assert.ok((await acquireLease(t.db, 'fix:a', 'node-b', 60_000)).acquired);
        const before = await listLeases(t.db);
        const renewed = await renewLeases(t.db, fences, 120_000);
        assert.deepEqual([...renewed.keys()].sort(), ['fix:c', 'job:b']);
        const after = new Map((await listLeases(t.db)).map((l) => [l.name, l]));
        for (const l of before) {
          const now = after.get(l.name)!;
          if (l.name === 'fix:a') assert.deepEqual([now.owner, now.expiresAt], ['node-b', l.expiresAt], "node-b's holding untouched");
          else {
            assert.ok(now.expiresAt > l.expiresAt, `${l.name} renewed`);
            assert.equal(now.expiresAt.getTime(), renewed.get(l.name)!.getTime());
          }
        }
        assert.equal((await renewLeases(t.db, [], 60_000)).size, 0);
      } finally {
        await t.dispose();
      }
    });

    it('a handover: the lease reserved for a live node is taken by that node only, until the reservation lapses or its node dies', async () => {
      const t = await createTestDatabase(kind, { template: seededDatabase() });
      try {
        const name = fixSessionLeaseName(id);
        for (const n of ['node-a', 'node-b', 'node-c']) assert.ok((await acquireLease(t.db, nodeLeaseName(n), n, 60_000)).acquired);
        const nodes = await liveNodes(t.db, 60_000);
        assert.deepEqual(
          nodes.map((n) => [n.nodeId, n.settled]),
          [
            ['node-a', false],
            ['node-b', false],
            ['node-c', false],
          ],
        );
        assert.deepEqual(
          (await liveNodes(t.db, 0)).map((n) => n.settled),
          [true, true, true],
        );

        const a = await acquireLease(t.db, name, 'node-a', 60_000);
        assert.ok(a.acquired);
        const fenceA = { lease: name, term: a.lease.term };
        assert.equal(await reserveLease(t.db, fenceA, 'node-b', 60_000), true);
        assert.ok(await releaseLease(t.db, fenceA));
        // Neither a third node nor the node that handed it over may take it: it is kept for node-b.
        const c = await acquireLease(t.db, name, 'node-c', 60_000);
        assert.ok(!c.acquired);
        assert.equal(c.heldBy.reservedFor, 'node-b');
        assert.equal(c.heldBy.live, false);
        assert.ok(!(await acquireLease(t.db, name, 'node-a', 60_000)).acquired);
        const b = await acquireLease(t.db, name, 'node-b', 60_000);
        assert.ok(b.acquired);
        assert.equal(b.lease.term, a.lease.term + 1);
        // Taken by its target, the reservation is over.
        assert.equal(b.lease.reservedFor, null);

        // A reservation that lapsed unused no longer binds, and stays on the row (the attempt is remembered).
        const fenceB = { lease: name, term: b.lease.term };
        assert.equal(await reserveLease(t.db, fenceB, 'node-c', 100), true);
        assert.ok(await releaseLease(t.db, fenceB));
        const later = await until('node-a to take the lease past the lapsed reservation', async () => {
          const r = await acquireLease(t.db, name, 'node-a', 60_000);
          return r.acquired ? r : undefined;
        });
        assert.equal(later.lease.reservedFor, 'node-c');

        // A reservation for a node that is not live binds nobody; a holding that ended cannot reserve.
        const fenceA2 = { lease: name, term: later.lease.term };
        assert.equal(await reserveLease(t.db, fenceA2, 'node-gone', 60_000), true);
        assert.ok(await releaseLease(t.db, fenceA2));
        assert.equal(await reserveLease(t.db, fenceA2, 'node-b', 60_000), false);
        assert.ok((await acquireLease(t.db, name, 'node-c', 60_000)).acquired);
      } finally {
        await t.dispose();
      }
    });

    it('a FIX store write under a term that was taken over is refused and changes nothing', async () => {
      const t = await createTestDatabase(kind, { template: seededDatabase() });
      try {
        const name = fixSessionLeaseName(id);
        const a = await acquireLease(t.db, name, 'node-a', 60_000);
        assert.ok(a.acquired);
        let fenceA: LeaseFence = { lease: name, term: a.lease.term };
        const storeA = await new PgMessageStoreFactory(t.db, { fence: () => fenceA }).open(id, created);
        await storeA.saveOutbound(tx(1));
        await storeA.saveInbound({ ...tx(1), direction: 'RX' }, 2);

        // node-a stalls past its lease; node-b takes the session over and writes.
        await releaseLease(t.db, fenceA);
        const b = await acquireLease(t.db, name, 'node-b', 60_000);
        assert.ok(b.acquired);
        const storeB = await new PgMessageStoreFactory(t.db, { fence: () => ({ lease: name, term: b.lease.term }) }).open(id, created);
        await storeB.saveOutbound(tx(2));

        // Every kind of write node-a still makes is refused.
        for (const write of [
          () => storeA.saveOutbound(tx(3, 'stale')),
          () => storeA.saveInbound({ ...tx(2), direction: 'RX' }, 3),
          () => storeA.setNextSenderMsgSeqNum(50),
          () => storeA.reset(new Date('2026-01-02T00:00:00Z')),
        ]) {
          await assert.rejects(write(), (err: unknown) => isFencedOut(err));
        }
        const state = await storeB.sequenceState();
        assert.equal(state.nextSenderMsgSeqNum, 3);
        assert.equal(state.nextTargetMsgSeqNum, 2);
        assert.deepEqual(
          (await storeB.outboundRange(1, 10, 10)).map((m) => m.raw),
          ['m1', 'm2'],
        );

        // The intake's commit of reserved replies is fenced the same way, in and outside a transaction.
        const reserved = (seq: number, fence: LeaseFence) => ({
          beginString: 'FIX.4.4',
          storeCreationTime: state.creationTime,
          record: tx(seq, `reserved${seq}`),
          fence,
        });
        await assert.rejects(persistReservedOutbound(t.db, [reserved(3, fenceA)]), (err: unknown) => isFencedOut(err));
        await assert.rejects(
          persistReservedOutboundAtomically(t.db, [reserved(3, fenceA)], { name: 'lease_test', ctes: 'nothing AS (SELECT 1)', params: [] }),
          (err: unknown) => isFencedOut(err),
        );
        await persistReservedOutbound(t.db, [reserved(3, { lease: name, term: b.lease.term })]);
        assert.equal((await storeB.sequenceState()).nextSenderMsgSeqNum, 4);
        // A node that never held the lease (term 0) cannot write either.
        fenceA = { lease: name, term: 0 };
        await assert.rejects(storeA.saveOutbound(tx(9)), (err: unknown) => isFencedOut(err));
        assert.equal((await storeB.sequenceState()).nextSenderMsgSeqNum, 4);
      } finally {
        await t.dispose();
      }
    });
  });
}

describe('fencing on PostgreSQL orders a write against a takeover', () => {
  it('an acquisition waits for a guarded write in progress; the write behind a takeover is refused', async () => {
    const t = await createTestDatabase('postgres');
    const other = await openDb({ databaseUrl: t.url, poolSize: 2 });
    try {
      const name = 'job:ordering';
      const a = await acquireLease(t.db, name, 'node-a', 100);
      assert.ok(a.acquired);
      const fence = { lease: name, term: a.lease.term };
      await new Promise((r) => setTimeout(r, 150)); // expired; node-a does not know yet
      let acquiredAt = 0;
      let committedAt = 0;
      await t.db.transaction(async (tx) => {
        // node-a's write checks its fence (the lease row share-locked to the commit)...
        await checkFences(tx, [fence]);
        // ...so node-b's takeover waits for it rather than slipping in before the commit.
        const takeover = acquireLease(other, name, 'node-b', 60_000).then((r) => {
          acquiredAt = performance.now();
          return r;
        });
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(acquiredAt, 0, 'the takeover did not wait for the guarded write');
        committedAt = performance.now();
        void takeover;
      });
      const b = await until('the takeover', async () => (acquiredAt ? (await listLeases(other)).find((l) => l.name === name) : undefined));
      assert.ok(acquiredAt >= committedAt);
      assert.equal(b.owner, 'node-b');
      // After the takeover committed, node-a's next guarded write fails.
      await assert.rejects(
        t.db.transaction((tx) => checkFences(tx, [fence])),
        (err: unknown) => isFencedOut(err),
      );
    } finally {
      await other.close();
      await t.dispose();
    }
  });
});
