// When a node hands a client's session over to another (docs/adr/0012, "Rebalancing"): only to a
// node that came up after the session was placed, once both have settled, only a quiet session, with
// the lease reserved for the target, and not again towards a node that did not get the client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acquireLease, fixSessionLeaseName, getLeases, nodeLeaseName } from '@fixdesk/db';
import { createTestDatabase } from '@fixdesk/db/testing';
import type { SessionID } from '@fixdesk/fix';
import pino from 'pino';
import { LeaseKeeper } from '../../apps/server/src/cluster/lease-keeper';
import { preferredNode } from '../../apps/server/src/cluster/preferred-node';
import { SessionRebalancer, type ServedSessions } from '../../apps/server/src/cluster/rebalancer';
import { seededDatabase } from '../support/seeded-database';

const silent = pino({ level: 'silent' });
// Long enough that a loaded machine renews every lease in time (a lapse would count as a return).
const TTL = 1_000;
const settle = () => new Promise((r) => setTimeout(r, 2 * TTL + 200));
const idOf = (client: string): SessionID => ({ beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: client });

/** The first client whose session's home among node-a and node-b is `node`. */
function clientAtHome(node: string, skip = ''): string {
  for (let i = 0; ; i++) {
    const c = `CLIENT_${i}`;
    if (c !== skip && preferredNode(fixSessionLeaseName(idOf(c)), ['node-a', 'node-b']) === node) return c;
  }
}

describe('SessionRebalancer', () => {
  it('hands a session over only to a node that came up after it was placed, settled, when quiet; once per node incarnation', async () => {
    const t = await createTestDatabase('pglite', { template: seededDatabase() });
    const keeper = new LeaseKeeper(t.db, 'node-a', TTL, silent);
    const toB = clientAtHome('node-b');
    const toA = clientAtHome('node-a');
    const ready = new Map([
      [toB, true],
      [toA, true],
    ]);
    const handedOver: string[] = [];
    /** Sessions that were quiet at the rebalancer's look but not any more when the Logout was to go out. */
    const busyAtLogout = new Set<string>();
    const served: ServedSessions = {
      served: () => [...ready].map(([c, r]) => ({ id: idOf(c), ready: r })),
      handOver: async (id, target) => {
        if (busyAtLogout.has(id.targetCompID)) return false;
        handedOver.push(`${id.targetCompID}->${target}`);
        return true;
      },
    };
    /** Sessions whose client is the desk's own simulated client on this node. */
    const simulated = new Set<string>();
    const rebalancer = new SessionRebalancer(t.db, keeper, served, silent, (compId) => simulated.has(compId));
    const nodeB = () => acquireLease(t.db, nodeLeaseName('node-b'), 'node-b', 60_000);
    const moves = async () => (await rebalancer.rebalance()).map((m) => m.to);
    try {
      keeper.start();
      assert.ok((await keeper.acquire(nodeLeaseName('node-a'))).acquired);
      assert.ok((await nodeB()).acquired);
      for (const c of [toB, toA]) assert.ok((await keeper.acquire(fixSessionLeaseName(idOf(c)))).acquired);

      // Node A has just started: it moves nothing.
      assert.deepEqual(await moves(), []);
      await settle();
      // Node B was up when the client chose node A: the choice stands.
      assert.deepEqual(await moves(), []);

      // Node B restarts (comes back): once it has settled, its session goes to it, the other stays.
      assert.ok((await nodeB()).acquired);
      assert.deepEqual(await moves(), [], 'node B has not settled yet');
      await settle();
      ready.set(toB, false);
      assert.deepEqual(await moves(), [], 'a session busy with the client is not moved');
      ready.set(toB, true);
      busyAtLogout.add(toB);
      assert.deepEqual(await moves(), [], 'a session that got busy before its Logout is not moved');
      const [kept] = await getLeases(t.db, [fixSessionLeaseName(idOf(toB))]);
      assert.equal(kept!.reservedFor, null, 'the reservation is withdrawn: the client may log on here again');
      busyAtLogout.delete(toB);
      simulated.add(toB);
      assert.deepEqual(await moves(), [], "the desk's own simulated client stays: its one address is this node");
      simulated.delete(toB);
      assert.deepEqual(await moves(), ['node-b']);
      assert.deepEqual(handedOver, [`${toB}->node-b`]);
      const [row] = await getLeases(t.db, [fixSessionLeaseName(idOf(toB))]);
      assert.equal(row!.reservedFor, 'node-b');
      assert.ok(row!.reservedUntil! > new Date(Date.now() + 20_000));

      // The client did not follow (its logout failed, or it came back here): not tried again towards this node B.
      await t.db.query("UPDATE leases SET reserved_until = now() - interval '1 millisecond' WHERE name = $1", [
        fixSessionLeaseName(idOf(toB)),
      ]);
      assert.deepEqual(await moves(), []);
      // A new incarnation of node B gets another try.
      assert.ok((await nodeB()).acquired);
      await settle();
      assert.deepEqual(await moves(), ['node-b']);
      assert.deepEqual(handedOver, [`${toB}->node-b`, `${toB}->node-b`]);
    } finally {
      await keeper.stop();
      await t.dispose();
    }
  });
});
