// Day orders expire at the end of their client's trading session: the order core closes them
// (ExecType/OrdStatus C), the client gets the report, the audit shows who did it (the system), and a
// client request still waiting is answered with an OrderCancelReject. Good-till-cancel orders stay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { dayOrderExpired } from '../../apps/server/src/orders/day-expiry';
import { newOrderSingle, TestFixClient, ts } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

describe('when a Day order has seen its session end', () => {
  const at = (iso: string) => new Date(iso);
  it('expires at the first session end after it arrived, in the client time zone', () => {
    // Singapore is UTC+8: a 17:00 end is 09:00 UTC.
    assert.equal(dayOrderExpired(at('2026-03-02T02:00:00Z'), at('2026-03-02T08:59:59Z'), '17:00:00', 'Asia/Singapore'), false);
    assert.equal(dayOrderExpired(at('2026-03-02T02:00:00Z'), at('2026-03-02T09:00:00Z'), '17:00:00', 'Asia/Singapore'), true);
    // Arrived after that day's end: it lives until the next day's.
    assert.equal(dayOrderExpired(at('2026-03-02T10:00:00Z'), at('2026-03-02T23:00:00Z'), '17:00:00', 'Asia/Singapore'), false);
    assert.equal(dayOrderExpired(at('2026-03-02T10:00:00Z'), at('2026-03-03T09:00:00Z'), '17:00:00', 'Asia/Singapore'), true);
  });
  it('follows a session that ends after midnight and a clock change', () => {
    // London, a session ending at 02:00: an order at 22:00 expires at 02:00 the next local day.
    assert.equal(dayOrderExpired(at('2026-06-01T21:00:00Z'), at('2026-06-02T00:59:00Z'), '02:00:00', 'Europe/London'), false);
    assert.equal(dayOrderExpired(at('2026-06-01T21:00:00Z'), at('2026-06-02T01:00:00Z'), '02:00:00', 'Europe/London'), true);
    // The night the clocks go forward (29 March 2026), 17:00 London is 16:00 UTC.
    assert.equal(dayOrderExpired(at('2026-03-29T10:00:00Z'), at('2026-03-29T15:59:00Z'), '17:00:00', 'Europe/London'), false);
    assert.equal(dayOrderExpired(at('2026-03-29T10:00:00Z'), at('2026-03-29T16:00:00Z'), '17:00:00', 'Europe/London'), true);
  });
});

for (const kind of TEST_DB_KINDS) {
  describe(`Day order expiry on ${kind}`, () => {
    let t: TestServer;
    let client: TestFixClient;
    let token: string;
    const api = (path: string, json?: unknown) => t.api(path, { method: json === undefined ? 'GET' : 'POST', token, json });

    before(async () => {
      t = await startTestServer(kind);
      token = await t.login('broker');
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(t.server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    it('expires open Day orders, answers a waiting cancel request, and leaves GTC and closed orders alone', async () => {
      const gtc = newOrderSingle('EXP-GTC').map(([t, v]): [number, string] => (t === 59 ? [59, '1'] : [t, v]));
      await client.send('D', newOrderSingle('EXP-DAY', { qty: '10' }));
      await client.send('D', newOrderSingle('EXP-PENDING'));
      await client.send('D', newOrderSingle('EXP-CXL'));
      await client.send('D', newOrderSingle('EXP-DONE', { qty: '5' }));
      await client.send('D', gtc);
      const id = async (clOrdId: string) => (await client.waitForReport(clOrdId, (m) => m.get(150) === 'A')).get(37)!;
      const [day, pending, cxl, done, gtcId] = [
        await id('EXP-DAY'),
        await id('EXP-PENDING'),
        await id('EXP-CXL'),
        await id('EXP-DONE'),
        await id('EXP-GTC'),
      ];
      for (const o of [day, cxl, done, gtcId]) assert.equal((await api(`/api/orders/${o}/accept`, {})).status, 200);
      assert.equal((await api(`/api/orders/${day}/fill`, { fillQty: 4, fillPrice: 26990 })).status, 200);
      assert.equal((await api(`/api/orders/${done}/fill`, { fillQty: 5, fillPrice: 26990 })).status, 200);
      await client.send('F', [
        [11, 'EXP-CXL-X'],
        [37, cxl],
        [38, '10'],
        [41, 'EXP-CXL'],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
      await client.waitForReport('EXP-CXL-X', (m) => m.get(150) === '6');

      // The same moment is not yet the end of the session; a day later it is.
      assert.equal(await t.server.dayOrderExpiry.sweep(new Date()), 0);
      assert.equal(await t.server.dayOrderExpiry.sweep(new Date(Date.now() + 86_400_000)), 3);

      const expired = await client.waitForReport('EXP-DAY', (m) => m.get(150) === 'C');
      assert.deepEqual([expired.get(39), expired.get(14), expired.get(151)], ['C', '4', '0']);
      assert.equal((await client.waitForReport('EXP-PENDING', (m) => m.get(150) === 'C')).get(39), 'C');
      await client.waitForReport('EXP-CXL', (m) => m.get(150) === 'C');
      const cxlRej = await until('cancel reject', () => client.received.find((m) => m.msgType === '9' && m.get(11) === 'EXP-CXL-X'));
      assert.equal(cxlRej.get(39), 'C');
      assert.match(cxlRej.get(58)!, /expired/);

      const status = async (o: string) =>
        ((await (await api(`/api/orders/${o}`)).json()) as { data: { ordstatus: string } }).data.ordstatus;
      assert.equal(await status(day), 'C');
      assert.equal(await status(gtcId), '0', 'good till cancel stays');
      assert.equal(await status(done), '2', 'a filled order is not touched');

      const actions = (
        (await (await api('/api/order-actions')).json()) as { data: Array<{ action_type: string; user_id: string; brokerorderid: string }> }
      ).data;
      const expiries = actions.filter((a) => a.action_type === 'EXPIRE');
      assert.deepEqual(expiries.map((a) => a.brokerorderid).sort(), [day, pending, cxl].sort());
      assert.ok(expiries.every((a) => a.user_id === 'SYSTEM'));

      // A second sweep finds nothing left to expire.
      assert.equal(await t.server.dayOrderExpiry.sweep(new Date(Date.now() + 86_400_000)), 0);
    });
  });
}
