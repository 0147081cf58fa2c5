// A drop copy session on two nodes (docs/adr/0017 point 7): copies made at the node that does not hold
// the drop copy session are announced on the outbox channel, and the node that holds it sends them,
// live (not PossResend), in the order the client's reports were made, once each.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newOrderSingle, TestFixClient, type ReceivedMessage } from '../support/fix-client';
import { signIn, startTwoNodes, type TwoNodes } from '../support/two-nodes';
import { until } from '../support/until';

const CLIENT = 'SGX_CLIENT_1';
const DROP = 'DC_TWO_NODES';

const appMessages = (c: TestFixClient) => c.received.filter((m) => m.msgType === '8' || m.msgType === '9');
const identity = (m: ReceivedMessage) => `${m.msgType} ${m.get(17)} ${m.get(150)}/${m.get(39)} ${m.get(11)} ${m.get(37)}`;

describe('two nodes on one PostgreSQL: a drop copy session gets the copies made at either node', () => {
  let nodes: TwoNodes;
  let client: TestFixClient;
  let dropCopy: TestFixClient;
  let brokerA: string;
  let brokerB: string;

  const post = async (url: string, token: string, path: string, json: unknown) => {
    const r = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    const text = await r.text();
    assert.equal(r.status, 200, `${path}: ${text}`);
  };
  const inStep = (what: string) => until(`the copy of ${what}`, () => appMessages(dropCopy).length === appMessages(client).length, 10_000);

  before(async () => {
    nodes = await startTwoNodes(['node-a', 'node-b'], { rebalanceSessions: false });
    const admin = await signIn(nodes.a.url, 'admin');
    await post(nodes.a.url, admin, '/api/client-connectors', {
      comp_id: DROP,
      execution_id_prefix: 'DC2',
      session_type: 'drop_copy',
      drop_copy_of: [CLIENT],
      timezone: 'UTC',
      trading_days: 'M,T,W,T,F,S,S',
      start_time: '00:00',
      end_time: '23:59:59',
    });
    [brokerA, brokerB] = await Promise.all([signIn(nodes.a.url, 'broker'), signIn(nodes.b.url, 'broker')]);
    // The client on node A, its drop copy session on node B.
    client = new TestFixClient(CLIENT);
    await client.connect(nodes.a.server!.ctx.fix.port);
    dropCopy = new TestFixClient(DROP);
    await dropCopy.connect(nodes.b.server!.ctx.fix.port);
  });
  after(async () => {
    await client?.stop();
    await dropCopy?.stop();
    await nodes?.close();
  });

  it("sends the drop copy session, from its node, a copy of each of the client's reports made at either node", async () => {
    // The Pending New, made at node A: announced to node B.
    await client.send('D', newOrderSingle('DC2N-1'));
    const orderId = (await client.waitForReport('DC2N-1', (m) => m.get(150) === 'A')).get(37)!;
    await inStep('a Pending New made at the other node');
    // An accept made at node B, where the drop copy session is.
    await post(nodes.b.url, brokerB, `/api/orders/${orderId}/accept`, {});
    await client.waitForReport('DC2N-1', (m) => m.get(150) === '0');
    await inStep('an accept made at its own node');
    // Fills made at node A.
    await post(nodes.a.url, brokerA, `/api/orders/${orderId}/fill`, { fillQty: 4, fillPrice: 27000 });
    await client.waitForReport('DC2N-1', (m) => m.get(39) === '1');
    await inStep('a partial fill made at the other node');
    await post(nodes.a.url, brokerA, `/api/orders/${orderId}/fill`, { fillQty: 6, fillPrice: 26990 });
    await client.waitForReport('DC2N-1', (m) => m.get(39) === '2');
    await inStep('a fill made at the other node');
    // A refusal at intake at node A (no report row: its copy is written by the intake statement).
    await client.send('D', newOrderSingle('DC2N-2', { symbol: 'NO_SUCH_SYMBOL' }));
    await client.waitForReport('DC2N-2', (m) => m.get(150) === '8');
    await inStep('a refusal made at the other node');

    await new Promise((r) => setTimeout(r, 300));
    const copies = appMessages(dropCopy);
    assert.deepEqual(copies.map(identity), appMessages(client).map(identity));
    assert.deepEqual(
      copies.map((m) => [m.get(150), m.get(797), m.get(97)]),
      [
        ['A', 'Y', undefined],
        ['0', 'Y', undefined],
        ['F', 'Y', undefined],
        ['F', 'Y', undefined],
        ['8', 'Y', undefined],
      ],
    );
    await until('every copy marked sent', async () => {
      const r = await nodes.database.db.query('SELECT 1 FROM drop_copies WHERE sent_at IS NULL');
      return r.rows.length === 0;
    });
  });
});
