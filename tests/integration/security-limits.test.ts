// Security review findings, kept fixed: an SVG logo too deep or too large to parse is refused at once;
// a wrong current password on a password change is counted like a wrong sign-in; bulk reads of the
// compliance record are in the who-looked log; a claimed actor in an order action names no person.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { BROKER_SIM_USER_ID } from '@fixdesk/client';
import { AccountText, BrokerText } from '@fixdesk/protocol';
import { FREE_FAILURES_PER_PAIR } from '../../apps/server/src/auth/sign-in-throttle';
import type { IncomingNewOrder } from '../../apps/server/src/orders/intake';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/server';

for (const kind of TEST_DB_KINDS) {
  describe(`security limits on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    before(async () => {
      t = await startTestServer(kind);
      admin = await t.login('admin');
    });
    after(async () => {
      await t?.stop();
    });

    it('refuses a logo nested 12,000 or 5,000 deep, or of too many elements, with a 400 saying why, at once', async () => {
      const nested = (n: number) => `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(n)}${'</g>'.repeat(n)}</svg>`;
      for (const [logo, why] of [
        [nested(12_000), BrokerText.logoTooDeep],
        [nested(5_000), BrokerText.logoTooDeep],
        [`<svg>${'<rect/>'.repeat(30_000)}</svg>`, BrokerText.logoTooManyElements],
      ] as const) {
        const t0 = Date.now();
        const r = await t.api('/api/broker-information/1', { method: 'PUT', token: admin, json: { company_logo: logo } });
        const ms = Date.now() - t0;
        const body = (await r.json()) as { field?: string; message: string };
        assert.equal(r.status, 400, JSON.stringify(body).slice(0, 200));
        assert.equal(body.field, 'company_logo');
        assert.equal(body.message, why);
        assert.ok(ms < 2_000, `answered in ${ms} ms`);
      }
      // The server still answers, and a plain logo is taken.
      const ok = await t.api('/api/broker-information/1', { method: 'PUT', token: admin, json: { company_logo: nested(20) } });
      assert.equal(ok.status, 200, await ok.text());
    });

    it('counts wrong current passwords of a password change like failed sign-ins, and stops them the same way', async () => {
      const viewer = await t.login('viewer');
      const change = (current: string) =>
        t.api('/api/account/password', {
          method: 'POST',
          token: viewer,
          json: { current_password: current, new_password: 'Evening-Tide-2031' },
        });
      for (let i = 0; i < FREE_FAILURES_PER_PAIR; i++) {
        const r = await change(`wrong-guess-${i}`);
        assert.equal(r.status, 400, `guess ${i}`);
        assert.equal(((await r.json()) as { message: string }).message, AccountText.wrongCurrent);
      }
      // The next guess is not checked at all, not even the right password.
      for (const guess of ['wrong-guess-x', DEMO_PASSWORD]) {
        const r = await change(guess);
        const body = (await r.json()) as { message: string; field?: string };
        assert.equal(r.status, 429, `${guess}: ${JSON.stringify(body)}`);
        assert.equal(body.field, 'current_password');
        const wait = Number(r.headers.get('retry-after'));
        assert.ok(wait >= 1, `retry-after ${r.headers.get('retry-after')}`);
        assert.equal(body.message, AccountText.tooManyWrongCurrent(wait));
      }
      // Recorded as sign-in attempts of that user from that address; sign-in is held back too.
      const { rows } = await t.database.db.query<{ reason: string; n: number }>(
        `SELECT reason, count(*)::int AS n FROM login_attempts WHERE username = 'viewer' AND NOT succeeded GROUP BY reason ORDER BY reason`,
      );
      assert.deepEqual(rows, [
        { reason: 'bad_current_password', n: FREE_FAILURES_PER_PAIR },
        { reason: 'rate_limited', n: 2 },
      ]);
      const signIn = await t.api('/api/auth/login', { method: 'POST', json: { username: 'viewer', password: DEMO_PASSWORD } });
      assert.equal(signIn.status, 429);
      // Once the wait is over the right password goes through and clears the count.
      await t.database.db.query(`UPDATE login_attempts SET created_at = created_at - interval '1 hour' WHERE username = 'viewer'`);
      const ok = await change(DEMO_PASSWORD);
      assert.equal(ok.status, 200, await ok.text());
    });

    it('records bulk reads of the audit lists and the opening of an order timeline in the who-looked log', async () => {
      const broker = await t.login('broker');
      const before = async () =>
        ((await (await t.api('/api/audit-access?limit=10000', { token: admin })).json()) as { data: Array<{ id: number }> }).data.length;
      const n0 = await before();
      const { rows } = await t.database.db.query<{ id: number; brokerorderid: string }>(
        `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, side, ordtype, price, orderqty, leavesqty, transacttime)
         SELECT 'BO-LOOK-1', 'C-LOOK-1', id, comp_id, 'FIXDESK', current_date, 'D', 'C5TC', '1', '2', 10, 1, 1, now() FROM client_connectors WHERE comp_id = 'SGX_CLIENT_1'
         RETURNING id, brokerorderid`,
      );
      for (const path of ['/api/fix-messages?limit=100000&ignoreHeartbeats=false', '/api/order-actions?limit=100000']) {
        const r = await t.api(path, { token: broker });
        assert.equal(r.status, 200, path);
      }
      const order = rows[0]!;
      const timeline = await t.api(`/api/orders/${order.brokerorderid}/timeline`, { token: broker });
      assert.equal(timeline.status, 200, await timeline.text());
      type Look = { action: string; username: string; filter: Record<string, string>; row_count: number | null; subject_id: number | null };
      const log = ((await (await t.api('/api/audit-access?limit=10000', { token: admin })).json()) as { data: Look[] }).data;
      const mine = log.slice(0, log.length - n0);
      const fx = mine.find((e) => e.action === 'list_fix_messages');
      assert.ok(fx && fx.username === 'broker' && fx.filter.limit === '100000' && typeof fx.row_count === 'number', JSON.stringify(mine));
      const oa = mine.find((e) => e.action === 'list_order_actions');
      assert.ok(oa && oa.filter.limit === '100000' && typeof oa.row_count === 'number', JSON.stringify(mine));
      assert.ok(
        mine.some((e) => e.action === 'view_order_timeline' && e.subject_id === order.id && e.username === 'broker'),
        JSON.stringify(mine),
      );
    });

    it("keeps a claimed actor on an order action only for the Broker Simulator, never a person's claim", async () => {
      const broker = await t.login('broker');
      const month = new Date();
      month.setUTCMonth(month.getUTCMonth() + 2);
      const order = async (clOrdId: string) => {
        const o: IncomingNewOrder = {
          msgType: 'D',
          senderCompId: 'SGX_CLIENT_1',
          targetCompId: 'FIXDESK',
          clOrdId,
          side: '1',
          ordType: '2',
          orderQty: '10',
          price: '27000',
          symbol: 'C5TC',
          securityType: 'FUT',
          maturityMonthYear: `${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`,
          timeInForce: '0',
          exDestination: 'SGX',
          currency: 'USD',
          account: undefined,
          text: undefined,
          transactTime: new Date(),
          legs: [],
          parties: [{ partyId: 'TRADER1', partyIdSource: 'D', partyRole: 11, legIndex: null }],
        };
        const r = await t.server.ctx.orders.receiveNewOrder(o);
        assert.equal(r.accepted, true);
        return r.brokerOrderId!;
      };
      const accept = async (id: string, body: object) => {
        const r = await t.api(`/api/orders/${id}/accept`, { method: 'POST', token: broker, json: body });
        assert.equal(r.status, 200, await r.text());
        const { rows } = await t.database.db.query<{ user_id: string; action_data: Record<string, unknown> }>(
          `SELECT user_id, action_data FROM order_actions WHERE brokerorderid = $1 AND action_type = 'ACCEPT'`,
          [id],
        );
        return rows[0]!;
      };
      const person = await accept(await order(`VIA-P-${Date.now()}`), { notes: 'on the phone', userId: 'admin' });
      assert.equal(person.user_id, 'broker');
      assert.equal(person.action_data.via, undefined, JSON.stringify(person.action_data));
      const sim = await accept(await order(`VIA-S-${Date.now()}`), { notes: 'Broker Simulator: accept', userId: BROKER_SIM_USER_ID });
      assert.equal(sim.user_id, 'broker');
      assert.equal(sim.action_data.via, BROKER_SIM_USER_ID);
    });
  });
}
