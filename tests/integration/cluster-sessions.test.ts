// Two nodes on one PostgreSQL (docs/adr/0012): each client's FIX session is owned by one
// node at a time through its lease. A Logon at the other node is refused with nothing sent and the
// owner's session is undisturbed; once the owner is gone the client logs on at the other node with
// its numbers intact.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getConnector, storedNextSenderSeq, type Db } from '@fixdesk/db';
import type { TestDatabase } from '@fixdesk/db/testing';
import { MemoryStoreFactory } from '@fixdesk/fix';
import { WebSocket } from 'ws';
import type { RunningServer } from '../../apps/server/src/server';
import { logonAttempt, newOrderSingle, TestFixClient } from '../support/fix-client';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from '../support/server';
import { signIn, startTwoNodes, type TwoNodes } from '../support/two-nodes';
import { until } from '../support/until';

const COMP_ID = 'SGX_CLIENT_1';

describe('two nodes on one PostgreSQL: one owner per FIX session', () => {
  let nodes: TwoNodes;
  let database: TestDatabase;
  let dbB: Db;
  let nodeA: RunningServer;
  let nodeB: RunningServer;
  const stores = new MemoryStoreFactory();
  let client: TestFixClient;

  const numbers = async () =>
    (
      await database.db.query<{ next_sender_seq: number; next_target_seq: number; owner_node: string | null }>(
        `SELECT ${storedNextSenderSeq('st')} AS next_sender_seq, next_target_seq, owner_node FROM fix_session_state st WHERE target_comp_id = $1`,
        [COMP_ID],
      )
    ).rows[0];

  /** The stored numbers once they match what the client has seen (its next sender is our next target). */
  const settledAt = (owner: string) =>
    until(`the numbers stored by ${owner}`, async () => {
      const n = await numbers();
      const c = client.status();
      return n?.owner_node === owner && n.next_target_seq === c.nextSenderMsgSeqNum && n.next_sender_seq === c.nextTargetMsgSeqNum
        ? n
        : undefined;
    });

  before(async () => {
    nodes = await startTwoNodes(['node-a', 'node-b']);
    ({ database } = nodes);
    dbB = nodes.b.db;
    nodeA = nodes.a.server!;
    nodeB = nodes.b.server!;
    client = new TestFixClient(COMP_ID, stores);
    await client.connect(nodeA.ctx.fix.port);
  });
  after(async () => {
    await client?.stop();
    await nodes?.close();
  });

  it('refuses a Logon at node B for the session node A owns, without touching its numbers', async () => {
    await client.send('D', newOrderSingle('CL-A1'));
    await client.waitForReport('CL-A1', (m) => m.get(150) === 'A');
    const settled = await settledAt('node-a');

    // A second client process with the same comp id (its own copy of the numbers) tries node B.
    const attempt = await logonAttempt(nodeB.ctx.fix.port, COMP_ID, new MemoryStoreFactory(), { timeoutMs: 3_000 });
    assert.equal(attempt.loggedOn, false);
    // Nothing was sent to it: no Logout carrying the session's number.
    assert.ok(!attempt.events.some((e) => /^incoming: .*\x0135=5\x01/.test(e)), attempt.events.join('\n'));
    const refusals = await database.db.query<{ disconnect_reason: string; node_id: string }>(
      `SELECT disconnect_reason, node_id FROM client_sessions WHERE comp_id = $1 AND disconnect_reason LIKE 'logon refused%' ORDER BY id`,
      [COMP_ID],
    );
    assert.equal(refusals.rows.length, 1);
    assert.match(refusals.rows[0]!.disconnect_reason, /^logon refused: Session owned by node node-a \(lease term \d+ until /);
    assert.equal(refusals.rows[0]!.node_id, 'node-b');

    // Node A's session carries on as before; the refused attempt moved no number.
    assert.deepEqual(await numbers(), settled);
    assert.ok(client.isLoggedOn);
    await client.send('D', newOrderSingle('CL-A2'));
    await client.waitForReport('CL-A2', (m) => m.get(150) === 'A');
    const later = await settledAt('node-a');
    assert.equal(later!.next_target_seq, settled!.next_target_seq + 1);
    assert.equal(later!.next_sender_seq, settled!.next_sender_seq + 1);
    assert.equal(client.logons, 1);
  });

  it('service status on node B says which node owns the session, its term and lease expiry', async () => {
    const login = await fetch(`${nodeB.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'viewer', password: DEMO_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    type Entry = { name: string; status: string; isConnected: boolean; containerName: string; metadata: Record<string, unknown> };
    type Job = { job: string; node: string; live: boolean };
    // The desk-wide jobs take their leases at their first pass (the sealer's comes after a second).
    const services = await until('both desk jobs in the service status', async () => {
      const r = await fetch(`${nodeB.url}/api/service-status`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(r.status, 200);
      const { data } = (await r.json()) as { data: { services: Entry[] } };
      const jobs = data.services.find((s) => s.name === 'database')!.metadata.deskJobs as Job[];
      return jobs.filter((j) => j.live).length === 2 ? data.services : undefined;
    });
    const entry = services.find((s) => s.name === `fix-session:${COMP_ID}`)!;
    const owner = entry.metadata.owner as { node: string; term: number; expiresAt: string; live: boolean };
    assert.equal(entry.containerName, 'node-b');
    assert.equal(owner.node, 'node-a');
    assert.equal(owner.live, true);
    assert.ok(owner.term >= 1);
    assert.ok(Date.parse(owner.expiresAt) > Date.now() - 1_000);
    assert.equal(entry.metadata.servedBy, 'node-a');
    assert.equal(entry.isConnected, true);
    assert.equal(entry.status, 'healthy');
    // Each desk-wide job runs on one node, named with its lease.
    const jobs = services.find((s) => s.name === 'database')!.metadata.deskJobs as Job[];
    assert.deepEqual(jobs.map((j) => j.job).sort(), ['audit-sealer', 'day-order-expiry']);
  });

  it('an operator at node B cannot change the numbers of the session node A owns', async () => {
    const connector = (await getConnector(dbB, COMP_ID))!;
    await assert.rejects(nodeB.ctx.fix.operations.setNextTargetMsgSeqNum(connector, 500), /owned by node node-a/);
    assert.notEqual((await numbers())!.next_target_seq, 500);
  });

  it("an order over FIX on node A reaches node B's browsers within 200 ms; a fill made on node B reaches node A's client", async () => {
    const token = await signIn(nodeB.url, 'broker');
    const ws = new WebSocket(nodeB.url.replace('http', 'ws') + '/ws');
    const got: Array<{
      at: number;
      type: string;
      orderData?: { clordid: string; ordstatus: string; brokerorderid: string };
      data?: { clordid?: string; exectype?: string };
    }> = [];
    ws.on('message', (d) => got.push({ at: performance.now(), ...(JSON.parse(String(d)) as { type: string }) }));
    try {
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'authenticate', token }));
      await until('ws authenticated', () => got.some((m) => m.type === 'authenticated'));

      const latencies: number[] = [];
      let brokerOrderId = '';
      for (let i = 1; i <= 5; i++) {
        const clOrdId = `CL-X${i}`;
        await client.send('D', newOrderSingle(clOrdId));
        const ack = await client.waitForReport(clOrdId, (m) => m.get(150) === 'A');
        const ackAt = performance.now();
        const shown = await until(
          `new_order ${clOrdId} on node B`,
          () => got.find((m) => m.type === 'new_order' && m.orderData?.clordid === clOrdId),
          2_000,
        );
        await until(
          `its Pending New on node B`,
          () => got.find((m) => m.type === 'execution_report' && m.data?.clordid === clOrdId && m.data.exectype === 'A'),
          2_000,
        );
        latencies.push(shown.at - ackAt);
        brokerOrderId = ack.get(37)!;
      }
      // From the client holding its Pending New to node B's browser holding the order.
      assert.ok(Math.max(...latencies) < 200, `cross-node latencies ${latencies.map((l) => l.toFixed(1)).join(', ')} ms`);

      // A broker on node B accepts and fills the order of node A's session; node A's client gets the reports.
      const api = (path: string) =>
        fetch(`${nodeB.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(path.endsWith('/fill') ? { fillQty: 10, fillPrice: 27000 } : {}),
        });
      assert.equal((await api(`/api/orders/${brokerOrderId}/accept`)).status, 200);
      await client.waitForReport('CL-X5', (m) => m.get(150) === '0');
      assert.equal((await api(`/api/orders/${brokerOrderId}/fill`)).status, 200);
      const fill = await client.waitForReport('CL-X5', (m) => m.get(150) === 'F');
      assert.deepEqual([fill.get(39), fill.get(32), fill.get(31)], ['2', '10', '27000']);
      // Node B's own browsers saw its fill too (published locally, not through the bus).
      await until('the fill on node B', () =>
        got.find((m) => m.type === 'order_update' && m.orderData?.clordid === 'CL-X5' && m.orderData.ordstatus === '2'),
      );
    } finally {
      ws.close();
    }
  });

  it("a burst of orders on node A reaches node B's browsers once each, in the order taken, each order before its report; those refused at intake too", async () => {
    const login = await fetch(`${nodeB.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'broker', password: DEMO_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const ws = new WebSocket(nodeB.url.replace('http', 'ws') + '/ws');
    const got: Array<{ type: string; orderData?: { clordid: string; ordstatus: string }; data?: { clordid?: string; exectype?: string } }> =
      [];
    ws.on('message', (d) => got.push(JSON.parse(String(d)) as { type: string }));
    try {
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'authenticate', token }));
      await until('ws authenticated', () => got.some((m) => m.type === 'authenticated'));
      // Sent back to back: node A takes them in batches and tells node B a batch of changes at a time.
      // Beyond the client's order rate limit they are refused at intake, and are records too.
      const ids = Array.from({ length: 300 }, (_, i) => `CL-BURST-${i + 1}`);
      for (const id of ids) await client.send('D', newOrderSingle(id));
      const answers = await Promise.all(ids.map((id) => client.waitForReport(id, (m) => m.get(150) === 'A' || m.get(150) === '8')));
      const taken = ids.filter((_, i) => answers[i]!.get(150) === 'A');
      const refused = ids.filter((_, i) => answers[i]!.get(150) === '8');
      assert.ok(taken.length > 0 && refused.length > 0, `${taken.length} taken, ${refused.length} refused`);
      const shown = () =>
        got.flatMap((m, i) =>
          m.type === 'new_order' && m.orderData?.clordid.startsWith('CL-BURST-')
            ? [{ id: m.orderData.clordid, status: m.orderData.ordstatus, i }]
            : [],
        );
      await until(`every order on node B (${shown().length})`, () => shown().length >= ids.length, 20_000);
      const pendingNew = (id: string) =>
        got.findIndex((m) => m.type === 'execution_report' && m.data?.clordid === id && m.data.exectype === 'A');
      await until('every Pending New on node B', () => taken.every((id) => pendingNew(id) >= 0), 20_000);
      const all = shown();
      assert.equal(all.length, ids.length, 'each order once');
      assert.deepEqual(
        all.filter((s) => s.status !== '8').map((s) => s.id),
        taken,
      );
      assert.deepEqual(
        all.filter((s) => s.status === '8').map((s) => s.id),
        refused,
      );
      for (const s of all.filter((x) => x.status !== '8')) assert.ok(s.i < pendingNew(s.id), `${s.id}: the order comes before its report`);
    } finally {
      ws.close();
    }
  });

  it("a connector deactivated on node B logs its client out of node A; reactivated, the client logs on again; node B's browsers see both", async () => {
    const login = await fetch(`${nodeB.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const ws = new WebSocket(nodeB.url.replace('http', 'ws') + '/ws');
    const seen: Array<{ type: string; comp_id?: string; is_connected?: boolean }> = [];
    ws.on('message', (d) => seen.push(JSON.parse(String(d)) as { type: string }));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'authenticate', token }));
    await until('ws authenticated', () => seen.some((m) => m.type === 'authenticated'));
    const put = (isActive: boolean) =>
      fetch(`${nodeB.url}/api/client-connectors/${COMP_ID}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ is_active: isActive }),
      });
    const logons = client.logons;
    assert.equal((await put(false)).status, 200);
    await until('the client logged out of node A', () => !client.isLoggedOn, 5_000);
    assert.equal((await put(true)).status, 200);
    // The client reconnects by itself (to node A: the lease was released at its logout).
    await until('the client logged on again', () => client.isLoggedOn && client.logons === logons + 1, 10_000);
    // Node B's browsers heard of the logout and the new logon on node A.
    const events = () => seen.filter((m) => m.type === 'client_connection_status' && m.comp_id === COMP_ID).map((m) => m.is_connected);
    await until(`the connection events on node B (${events().join()})`, () => events().join() === 'false,true', 5_000);
    ws.close();
  });

  it('once node A is gone the client logs on at node B with its numbers, no reset', async () => {
    const seqBefore = await numbers();
    const t0 = Date.now();
    await client.stop();
    await nodes.a.stop();
    client = new TestFixClient(COMP_ID, stores);
    await client.connect(nodeB.ctx.fix.port, {}, 5_000);
    assert.ok(Date.now() - t0 < 5_000);
    // The Logon and Logout exchanged with node A moved the numbers by one each way, nothing reset them.
    const n = await settledAt('node-b');
    assert.ok(
      n.next_sender_seq > seqBefore!.next_sender_seq && n.next_target_seq > seqBefore!.next_target_seq,
      JSON.stringify({ seqBefore, n }),
    );
    // The order taken on node A is there for node B's orders, and the session carries on.
    await client.send('D', newOrderSingle('CL-B1'));
    await client.waitForReport('CL-B1', (m) => m.get(150) === 'A');
    const leases = await database.db.query<{ owner: string; term: number }>(
      "SELECT owner, term FROM leases WHERE name = 'fix:FIX.4.4:FIXDESK:SGX_CLIENT_1'",
    );
    assert.equal(leases.rows[0]?.owner, 'node-b');
    assert.ok(leases.rows[0]!.term >= 2);
  });
});
