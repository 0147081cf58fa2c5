// What the browsers of a several-node desk see (docs/adr/0012): a sign-out or revocation
// made on one node closes the user's sockets on every node at once; the users online and whether a
// client is logged on are the desk's, whichever node answers; a node that dies (kill -9) takes its
// browsers and its client's connection with it within a bounded time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WS_CLOSE } from '@fixdesk/protocol';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStoreFactory } from '@fixdesk/fix';
import { freePort } from '../support/free-port';
import { TestFixClient } from '../support/fix-client';
import { killHard, startServerProcess } from '../support/server-process';
import { DEMO_PASSWORD } from '../support/server';
import { openSocket, signIn, startTwoNodes, type TestSocket, type TwoNodes } from '../support/two-nodes';
import { until } from '../support/until';

type Online = Array<{ username: string; connections: number }>;

/** The users online a socket was last told of (its latest heartbeat, else its authenticated message), as `name×n`. */
function lastOnline(s: TestSocket): string | undefined {
  const m = s.messages.findLast((x) => x.type === 'heartbeat' || x.type === 'authenticated');
  return m && (m.activeUsers as Online).map((u) => `${u.username}×${u.connections}`).join(',');
}

const COMP_ID = 'SGX_CLIENT_1';

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
    const closed = await until("node B closing the signed-out user's socket", () => socket.closed, PROPAGATION_MS);
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
      body: JSON.stringify({ current_password: DEMO_PASSWORD, new_password: 'a-new-reader-pw-22' }),
    });
    assert.equal(r.status, 200, await r.text());
    const closed = await until("node B closing the socket of the user's other sign-in", () => socket.closed, PROPAGATION_MS);
    assert.equal(closed.code, WS_CLOSE.authFailed);
  });

  /** Until the sockets of the tests before have left the desk's users online (a close is recorded just after it). */
  const nobodyOnline = () =>
    until(
      'no browser signed in',
      async () => (await nodes.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM browser_presence')).rows[0]!.n === 0,
    );

  it("counts the users online over the desk: node B's browsers are told of node A's, both ways", async () => {
    await nobodyOnline();
    const admin = await openSocket(nodes.b.url, await signIn(nodes.b.url, 'admin'));
    assert.equal(lastOnline(admin), 'admin×1');
    const broker = await openSocket(nodes.a.url, await signIn(nodes.a.url, 'broker'));
    // Node A's own answer counts node B's admin; node B's browser hears of node A's broker.
    assert.equal(lastOnline(broker), 'admin×1,broker×1');
    assert.equal(broker.messages.find((m) => m.type === 'authenticated')!.connectedUsers, 2);
    await until(`node B's browser told of node A's broker (${lastOnline(admin)})`, () => lastOnline(admin) === 'admin×1,broker×1', 2_000);

    // Service status on node B counts the desk's browsers.
    const token = await signIn(nodes.b.url, 'admin');
    const status = (await (await fetch(`${nodes.b.url}/api/service-status`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { services: Array<{ name: string; metadata: Record<string, unknown> }> };
    };
    assert.equal(status.data.services.find((x) => x.name === 'api')!.metadata.browsersConnected, 2);

    broker.close();
    await until(`node B's browser told node A's broker left (${lastOnline(admin)})`, () => lastOnline(admin) === 'admin×1', 2_000);
    admin.close();
  });

  it("a node killed with its browsers and a client's session: the others drop them within a bounded time", async () => {
    // A third node as a process of its own, so that it can really be killed.
    const dataDir = mkdtempSync(join(tmpdir(), 'fixdesk-node-c-'));
    const fixPort = await freePort();
    const nodeC = await startServerProcess(
      {
        DATABASE_URL: nodes.database.url!,
        NODE_ID: 'node-c',
        PORT: '0',
        FIX_PORT: String(fixPort),
        DATA_DIR: dataDir,
        LEASE_TTL_MS: '1000',
        LOG_LEVEL: 'warn',
      },
      'node-c',
    );
    const client = new TestFixClient(COMP_ID, new MemoryStoreFactory());
    await nobodyOnline();
    try {
      await openSocket(nodeC.url, await signIn(nodeC.url, 'broker'));
      await client.connect(fixPort);
      const admin = await signIn(nodes.b.url, 'admin');
      const watcher = await openSocket(nodes.b.url, admin);
      assert.equal(lastOnline(watcher), 'admin×1,broker×1');
      const loggedOnAtB = async () => {
        const r = (await (
          await fetch(`${nodes.b.url}/api/client-connectors`, { headers: { authorization: `Bearer ${admin}` } })
        ).json()) as { data: Array<{ comp_id: string; is_connected: boolean; live: { logged_on: boolean } }> };
        const c = r.data.find((x) => x.comp_id === COMP_ID)!;
        return c.live.logged_on && c.is_connected;
      };
      // The connectors screen of node B shows node C's client logged on.
      assert.equal(await loggedOnAtB(), true);

      await killHard(nodeC);
      const killedAt = Date.now();
      client.crash();
      // Once node C's node lease (1 s, renewed every third) ran out, node B notices (it looks every TTL) and
      // tells its browsers: the broker is no longer online, the client no longer logged on.
      await until(`node B's browser told node C's broker is gone (${lastOnline(watcher)})`, () => lastOnline(watcher) === 'admin×1', 5_000);
      await until(
        "node B's browser told node C's client is gone",
        () => watcher.messages.find((m) => m.type === 'client_connection_status' && m.comp_id === COMP_ID && m.is_connected === false),
        5_000,
      );
      const toldAfter = Date.now() - killedAt;
      assert.ok(toldAfter < 5_000, `told ${toldAfter} ms after the kill`);
      // What a new look says too: a new sign-in's count, and the connectors screen.
      const fresh = await openSocket(nodes.b.url, admin);
      fresh.close();
      assert.equal(lastOnline(fresh), 'admin×2');
      assert.equal(await loggedOnAtB(), false);
      watcher.close();
    } finally {
      client.crash();
      await killHard(nodeC);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
