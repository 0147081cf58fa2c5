// Pre-trade risk and the kill switch on two nodes (docs/adr/0013): the node holding a
// client's FIX session holds its risk; a broker's fill or cancel made at the other node reaches it
// through the node bus before the client's next order is decided there; a stop made at the other node
// refuses the client's next order on the session's node, cancels its working orders and is resumed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { maturity, newOrderSingle, TestFixClient } from '../support/fix-client';
import { signIn, startTwoNodes, type TwoNodes } from '../support/two-nodes';
import { until } from '../support/until';

const COMP = 'RISK_2N';

describe('two nodes on one PostgreSQL: pre-trade risk and the kill switch', () => {
  let nodes: TwoNodes;
  let client: TestFixClient;
  let brokerB: string;
  let seq = 0;

  const onB = async (path: string, json: unknown) => {
    const r = await fetch(`${nodes.b.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${brokerB}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    const text = await r.text();
    assert.equal(r.status, 200, `${path}: ${text}`);
    return JSON.parse(text) as { data: Record<string, unknown> };
  };
  const order = async (side: string, qty: string) => {
    const id = `R2-${++seq}`;
    await client.send('D', newOrderSingle(id, { side, qty }));
    const r = await client.waitForReport(id, (m) => m.msgType === '8');
    return { id, execType: r.get(150), text: r.get(58), orderId: r.get(37)! };
  };

  before(async () => {
    nodes = await startTwoNodes(['node-a', 'node-b'], { rebalanceSessions: false });
    const db = nodes.database.db;
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, max_orders_per_second)
       VALUES ($1, 'R2N', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F,S,S', 1000) RETURNING id`,
      [COMP],
    );
    await db.query(`INSERT INTO client_capabilities (clientconnectors_id, asset_class, max_order_qty) VALUES ($1, 'FUTURES', 1000)`, [
      rows[0]!.id,
    ]);
    brokerB = await signIn(nodes.b.url, 'broker');
    client = new TestFixClient(COMP);
    await client.connect(nodes.a.server!.ctx.fix.port);
    await until("node A holding the client's risk", () => nodes.a.server!.ctx.orders.riskExposure(COMP));
    assert.equal(nodes.b.server!.ctx.orders.riskExposure(COMP), undefined);
  });
  after(async () => {
    await client?.stop();
    await nodes?.close();
  });

  it("a fill and a cancel made at node B reach node A's risk before the client's next order", async () => {
    const bought = await order('1', '10');
    await onB(`/api/orders/${bought.orderId}/accept`, {});
    await onB(`/api/orders/${bought.orderId}/fill`, { fillQty: 10, fillPrice: 27000 });
    await until(
      "node A hearing of node B's fill",
      () => nodes.a.server!.ctx.orders.riskExposure(COMP)?.get(`C5TC|${maturity()}`)?.filled === '10',
    );
    const sold = await order('2', '10');
    assert.equal(sold.execType, 'A', sold.text);
    assert.equal((await order('2', '1')).execType, '8');
    await onB(`/api/orders/${sold.orderId}/cancel`, { reason: 'client asked by phone' });
    await until(
      "node A hearing of node B's cancel",
      () => nodes.a.server!.ctx.orders.riskExposure(COMP)?.get(`C5TC|${maturity()}`)?.workingSell === '0',
    );
    assert.equal((await order('2', '10')).execType, 'A');
  });

  it("a stop made at node B cancels the client's working orders and refuses its next order at node A; a resume at node B lifts it", async () => {
    const working = await order('1', '2');
    const stopped = await onB(`/api/client-connectors/${COMP}/stop`, { reason: 'runaway algo' });
    assert.ok(Number(stopped.data.canceled_orders) >= 2, JSON.stringify(stopped.data));
    await client.waitForReport(working.id, (m) => m.get(150) === '4');
    const refused = await until(
      'node A refusing the stopped client',
      async () => {
        const r = await order('1', '1');
        return r.execType === '8' ? r : undefined;
      },
      5_000,
      100,
    );
    assert.equal(refused.text, 'Orders from this client are stopped by the desk (kill switch): runaway algo');
    await onB(`/api/client-connectors/${COMP}/resume`, { reason: 'fixed' });
    await until('node A taking the resumed client', async () => (await order('1', '1')).execType === 'A', 5_000, 100);
  });
});
