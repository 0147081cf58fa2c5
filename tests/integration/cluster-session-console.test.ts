// The live session console on any node (docs/adr/0012): an administrator signed in on node B sees the
// session of a client logged on at node A as node A has it (its next numbers, its address), and a
// Logout asked on node B logs the client out at node A, recorded with the numbers before and after.
// Before, node B answered from its own acceptor: the client looked logged out, and a Logout was
// refused as if nobody were there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryStoreFactory } from '@fixdesk/fix';
import type { SessionConsoleView } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { signIn, startTwoNodes, type TwoNodes } from '../support/two-nodes';
import { until } from '../support/until';

const COMP_ID = 'SGX_CLIENT_1';

describe('the session console acts on a session whichever node holds it', () => {
  let nodes: TwoNodes;
  let client: TestFixClient;
  let admin: string;

  const consoleAt = async (url: string) => {
    const r = await fetch(`${url}/api/client-connectors/${COMP_ID}/session`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(r.status, 200, await r.clone().text());
    return ((await r.json()) as { data: SessionConsoleView }).data;
  };

  before(async () => {
    nodes = await startTwoNodes(['node-a', 'node-b']);
    client = new TestFixClient(COMP_ID, new MemoryStoreFactory());
    await client.connect(nodes.a.server!.ctx.fix.port);
    await client.send('D', newOrderSingle('SC-1'));
    await client.waitForReport('SC-1', (m) => m.get(150) === 'A');
    admin = await signIn(nodes.b.url, 'admin');
  });
  after(async () => {
    await client?.stop();
    await nodes?.close();
  });

  it("shows node A's live session on node B, numbers and all", async () => {
    const seen = await until('the session as node A has it, on node B', async () => {
      const v = await consoleAt(nodes.b.url);
      return v.session.loggedOn && v.session.nextTargetMsgSeqNum === client.status().nextSenderMsgSeqNum ? v : undefined;
    });
    assert.equal(seen.session.connected, true);
    assert.equal(seen.session.nextSenderMsgSeqNum, client.status().nextTargetMsgSeqNum);
    assert.ok(seen.session.remoteAddress, 'the address node A sees');
    assert.equal(seen.session.lastIn?.msgType, 'D');
  });

  it('logs the client out at node A when asked on node B, and records it there', async () => {
    const logoutsBefore = client.logouts.length;
    const r = await fetch(`${nodes.b.url}/api/client-connectors/${COMP_ID}/session/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'logout', reason: 'end of day check from the other desk' }),
    });
    assert.equal(r.status, 200, await r.clone().text());
    // The client's Logout is counted, not its state: it reconnects 100 ms later (as a real client
    // would), and a loaded machine can take that long between two looks at its state.
    const why = await until('the client logged out', () => client.logouts[logoutsBefore], 10_000);
    assert.match(why, /logged out/);
    const view = ((await r.json()) as { data: SessionConsoleView }).data;
    const op = view.operations[0]!;
    assert.equal(op.action, 'LOGOUT');
    assert.equal(op.reason, 'end of day check from the other desk');
    assert.equal((op.before as { loggedOn: boolean }).loggedOn, true);
    assert.equal((op.after as { connected: boolean }).connected, false);
  });
});
