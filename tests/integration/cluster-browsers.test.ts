// What the browsers of a several-node desk see (issue 22, docs/adr/0012): a sign-out or revocation
// made on one node closes the user's sockets on every node at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WS_CLOSE } from '@fixdesk/protocol';
import { DEMO_PASSWORD } from '../support/server';
import { openSocket, poll, signIn, startTwoNodes, type TwoNodes } from '../support/two-nodes';

/** Well inside the 15 s re-check every node makes anyway: the bus, not the re-check, closed it. */
const PROPAGATION_MS = 1_500;

describe('two nodes on one PostgreSQL: browsers', () => {
  let nodes: TwoNodes;
  before(async () => {
    nodes = await startTwoNodes();
  });
  after(async () => {
    await nodes?.close();
  });

  it("a sign-out at node A closes the user's socket on node B at once", async () => {
    const token = await signIn(nodes.b.url, 'broker');
    const socket = await openSocket(nodes.b.url, token);
    const other = await openSocket(nodes.b.url, await signIn(nodes.b.url, 'broker'));
    const t0 = Date.now();
    const r = await fetch(`${nodes.a.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    assert.equal(r.status, 200);
    const closed = await poll(() => socket.closed, "node B closing the signed-out user's socket", PROPAGATION_MS);
    assert.ok(Date.now() - t0 < PROPAGATION_MS);
    assert.equal(closed.code, WS_CLOSE.authFailed);
    // The same user's other sign-in holds: its socket stays open.
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(other.closed, undefined);
    other.close();
  });

  it("a password changed at node A ends the user's other sign-ins: their socket on node B closes at once", async () => {
    const socket = await openSocket(nodes.b.url, await signIn(nodes.b.url, 'viewer'));
    const here = await signIn(nodes.a.url, 'viewer');
    // (The viewer keeps the new password: the tests after this one use the other users.)
    const r = await fetch(`${nodes.a.url}/api/account/password`, {
      method: 'POST',
      headers: { authorization: `Bearer ${here}`, 'content-type': 'application/json' },
      body: JSON.stringify({ current_password: DEMO_PASSWORD, new_password: 'a-new-viewer-pw-22' }),
    });
    assert.equal(r.status, 200, await r.text());
    const closed = await poll(() => socket.closed, "node B closing the socket of the user's other sign-in", PROPAGATION_MS);
    assert.equal(closed.code, WS_CLOSE.authFailed);
  });
});
