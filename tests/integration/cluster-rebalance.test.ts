// Rebalancing when a node comes back (docs/adr/0012 "Rebalancing"): a client listing both
// nodes is logged on at its session's home node (the rendezvous-hash winner); the home node stops, the
// client logs on at the other; the home node starts again (same NODE_ID) and, once it has settled, the
// other node hands the session back: exactly one Logout saying so, the client logs on at home with its
// numbers (no reset), its orders carry on, and the session stays there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixSessionLeaseName, storedNextSenderSeq } from '@fixdesk/db';
import { MemoryStoreFactory } from '@fixdesk/fix';
import { preferredNode } from '../../apps/server/src/cluster/preferred-node';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTwoNodes, type TestNode, type TwoNodes } from '../support/two-nodes';
import { until } from '../support/until';

const COMP_ID = 'SGX_CLIENT_1';
const LEASE = fixSessionLeaseName({ beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: COMP_ID });

describe('two nodes on one PostgreSQL: a returning node gets its sessions back', () => {
  let nodes: TwoNodes;
  let home: TestNode;
  let other: TestNode;
  let client: TestFixClient;

  before(async () => {
    nodes = await startTwoNodes();
    const preferred = preferredNode(LEASE, [nodes.a.config.nodeId, nodes.b.config.nodeId]);
    [home, other] = preferred === nodes.a.config.nodeId ? [nodes.a, nodes.b] : [nodes.b, nodes.a];
  });
  after(async () => {
    await client?.stop();
    await nodes?.close();
  });

  const owner = async () =>
    (
      await nodes.database.db.query<{ owner: string; live: boolean }>(
        'SELECT owner, expires_at > now() AS live FROM leases WHERE name = $1',
        [LEASE],
      )
    ).rows[0];
  const stored = async () =>
    (
      await nodes.database.db.query<{ next_sender_seq: number; next_target_seq: number; owner_node: string | null }>(
        `SELECT ${storedNextSenderSeq('st')} AS next_sender_seq, next_target_seq, owner_node FROM fix_session_state st WHERE target_comp_id = $1`,
        [COMP_ID],
      )
    ).rows[0]!;
  /** The stored numbers once they are what the client has seen, at `node`. */
  const settledAt = (node: TestNode) =>
    until(`the numbers stored by ${node.config.nodeId}`, async () => {
      const n = await stored();
      const c = client.status();
      return client.isLoggedOn &&
        n.owner_node === node.config.nodeId &&
        n.next_target_seq === c.nextSenderMsgSeqNum &&
        n.next_sender_seq === c.nextTargetMsgSeqNum
        ? n
        : undefined;
    });

  it('moves the session back to its home node once, with its numbers, after the home node returns', async () => {
    client = new TestFixClient(COMP_ID, new MemoryStoreFactory());
    await client.connect([home.config.fixPort, other.config.fixPort]);
    await client.send('D', newOrderSingle('RB-1'));
    await client.waitForReport('RB-1', (m) => m.get(150) === 'A');
    assert.equal((await owner())?.owner, home.config.nodeId);

    // The home node stops; the client, listing both, logs on at the other node.
    await home.stop();
    await until(
      'the client logged on at the other node',
      async () => (await owner())?.owner === other.config.nodeId && client.isLoggedOn,
      10_000,
    );
    await client.send('D', newOrderSingle('RB-2'));
    await client.waitForReport('RB-2', (m) => m.get(150) === 'A');
    const atOther = await settledAt(other);
    const logoutsBefore = client.logouts.length;
    const logonsBefore = client.logons;

    // The home node starts again under its NODE_ID; after settling (2 × TTL) the other node hands the session back.
    const restartedAt = Date.now();
    await home.start();
    await until(
      'the session back at the home node',
      async () => (await owner())?.owner === home.config.nodeId && client.isLoggedOn,
      15_000,
      50,
    );
    const movedAfter = Date.now() - restartedAt;
    assert.ok(movedAfter >= 2 * home.config.leaseTtlMs, `moved ${movedAfter} ms after the home node started: before it settled`);

    // Exactly one Logout, saying why; one logon more; no sequence reset: the numbers carry on from the other node's.
    assert.deepEqual(client.logouts.slice(logoutsBefore), [
      `peer logged out: Session moving to node ${home.config.nodeId} of the desk: please log on again`,
    ]);
    assert.equal(client.logons, logonsBefore + 1);
    const atHome = await settledAt(home);
    assert.ok(
      atHome.next_sender_seq > atOther.next_sender_seq && atHome.next_target_seq > atOther.next_target_seq,
      JSON.stringify({ atOther, atHome }),
    );
    await client.send('D', newOrderSingle('RB-3'));
    const ack = await client.waitForReport('RB-3', (m) => m.get(150) === 'A');
    assert.ok(ack.seq > 0);
    const orders = await nodes.database.db.query<{ clordid: string }>(
      "SELECT clordid FROM orders WHERE sendercompid = $1 AND clordid LIKE 'RB-%' ORDER BY clordid",
      [COMP_ID],
    );
    assert.deepEqual(
      orders.rows.map((r) => r.clordid),
      ['RB-1', 'RB-2', 'RB-3'],
    );

    // It stays: no second move over several rebalancing passes of both nodes.
    const settledHome = await settledAt(home);
    await new Promise((r) => setTimeout(r, 4 * home.config.leaseTtlMs));
    assert.equal(client.logouts.length, logoutsBefore + 1);
    assert.equal((await owner())?.owner, home.config.nodeId);
    assert.ok((await stored()).next_target_seq >= settledHome.next_target_seq);
  });
});

describe('two nodes with REBALANCE_SESSIONS=false: a returning node leaves the sessions where they are', () => {
  let nodes: TwoNodes;
  let client: TestFixClient;
  after(async () => {
    await client?.stop();
    await nodes?.close();
  });

  it('keeps the session on the node the client logged on at after the home node returns', async () => {
    nodes = await startTwoNodes(['node-a', 'node-b'], { rebalanceSessions: false });
    const preferred = preferredNode(LEASE, [nodes.a.config.nodeId, nodes.b.config.nodeId]);
    const [home, other] = preferred === nodes.a.config.nodeId ? [nodes.a, nodes.b] : [nodes.b, nodes.a];
    const owner = async () =>
      (await nodes.database.db.query<{ owner: string }>('SELECT owner FROM leases WHERE name = $1', [LEASE])).rows[0]?.owner;
    client = new TestFixClient(COMP_ID, new MemoryStoreFactory());
    await client.connect([home.config.fixPort, other.config.fixPort]);
    await home.stop();
    await until('the client logged on at the other node', async () => (await owner()) === other.config.nodeId && client.isLoggedOn, 10_000);
    const logouts = client.logouts.length;
    await home.start();
    // Settled (2 × TTL) and several passes more: with rebalancing on, the session would have moved.
    await new Promise((r) => setTimeout(r, 6 * home.config.leaseTtlMs));
    assert.equal(await owner(), other.config.nodeId);
    assert.equal(client.logouts.length, logouts);
    assert.ok(client.isLoggedOn);
  });
});
