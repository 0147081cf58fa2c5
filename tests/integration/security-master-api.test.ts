// The security master API (spec 001 §5, §7, §8): admin-only writes validated by the shared
// schema, duplicates refused, a new, changed or deactivated security in force for the very next FIX
// order without a restart, prices checked against the tick size at intake and on manual fills, delete
// refused while orders exist, and every change kept with who made it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { SecurityText, type Security } from '@fixdesk/protocol';
import { maturity, newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

type Json = Record<string, unknown>;
interface Answer<T = Json> {
  status: number;
  body: T & { success?: boolean; message?: string; error?: string; field?: string; data?: unknown };
}

for (const kind of TEST_DB_KINDS) {
  describe(`security master API on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    let client: TestFixClient;
    let seq = 0;

    const call = async <T = Json>(method: string, path: string, token: string | null, json?: unknown): Promise<Answer<T>> => {
      const r = await t.api(path, { method, ...(token ? { token } : {}), ...(json === undefined ? {} : { json }) });
      return { status: r.status, body: (await r.json()) as Answer<T>['body'] };
    };
    const create = (json: unknown, token = admin) => call<{ data: Security }>('POST', '/api/security-master', token, json);
    const update = (id: number, json: unknown, token = admin) => call<{ data: Security }>('PUT', `/api/security-master/${id}`, token, json);
    const remove = (id: number, token = admin) => call<{ data: { id: number } }>('DELETE', `/api/security-master/${id}`, token);

    /** Sends a NewOrderSingle over FIX and returns the first report for it. */
    const order = async (symbol: string, price = '100.5') => {
      const clOrdId = `SM-${kind}-${++seq}`;
      await client.send('D', newOrderSingle(clOrdId, { symbol, price }));
      return client.waitForReport(clOrdId, (m) => m.msgType === '8');
    };
    const orderId = async (clOrdId: string) =>
      (await t.server.ctx.db.query<{ id: number }>('SELECT id FROM orders WHERE clordid = $1', [clOrdId])).rows[0]!.id;

    before(async () => {
      t = await startTestServer(kind);
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(t.server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    it('lets every signed-in user read and only an administrator write', async () => {
      assert.equal((await call('GET', '/api/security-master', null)).status, 401);
      const list = await call<{ data: Security[] }>('GET', '/api/security-master', viewer);
      assert.equal(list.status, 200);
      assert.ok(list.body.data.some((s) => s.symbol === 'C5TC'));
      const c5tc = list.body.data.find((s) => s.symbol === 'C5TC')!;
      assert.equal((await call<{ data: Security }>('GET', `/api/security-master/${c5tc.id}`, viewer)).body.data.symbol, 'C5TC');
      const body = { symbol: 'DENIED', instrument_name: 'Denied', instrument_type: 'Commodities' };
      for (const token of [viewer, broker]) {
        assert.equal((await create(body, token)).status, 403);
        assert.equal((await update(c5tc.id, { instrument_name: 'x' }, token)).status, 403);
        assert.equal((await remove(c5tc.id, token)).status, 403);
        assert.equal((await call('GET', `/api/security-master/${c5tc.id}/history`, token)).status, 403);
      }
      assert.equal((await create(body, '')).status, 401);
      const after = await call<{ data: Security[] }>('GET', '/api/security-master', viewer);
      assert.equal(
        after.body.data.some((s) => s.symbol === 'DENIED'),
        false,
        'a refused write wrote nothing',
      );
      assert.equal(after.body.data.find((s) => s.symbol === 'C5TC')!.instrument_name, c5tc.instrument_name);
    });

    it('validates every write with the shared schema: 400 naming the field and the reason', async () => {
      const cases: Array<[unknown, string, RegExp]> = [
        [{ instrument_name: 'X', instrument_type: 'Commodities' }, 'symbol', /is required/],
        [{ symbol: 'X1', instrument_type: 'Commodities' }, 'instrument_name', /is required/],
        [{ symbol: 'X1', instrument_name: 'X' }, 'instrument_type', /is required/],
        [
          { symbol: 'X1', instrument_name: 'X', instrument_type: 'Stocks' },
          'instrument_type',
          /Commodities, Equities, FX, Bonds, Derivatives/,
        ],
        [{ symbol: '<b>X</b>', instrument_name: 'X', instrument_type: 'FX' }, 'symbol', /letters, digits/],
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', price_tick_size: '0' }, 'price_tick_size', /greater than 0/],
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', price_tick_size: '-1' }, 'price_tick_size', /greater than 0/],
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', currency: 'DOLLARS' }, 'currency', /ISO 4217/],
        // Three letters are not enough, the code must be one ISO 4217 has.
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', currency: 'ABC' }, 'currency', /ISO 4217 currency code/],
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', settlement_days: 1.5 }, 'settlement_days', /whole number/],
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', exchange_mics: 'SGX,SGX' }, 'exchange_mics', /twice/],
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', asset_class: 'SHARES' }, 'asset_class', /FUTURES/],
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', is_active: 'yes' }, 'is_active', /true or false/],
        [{ symbol: 'X1', instrument_name: 'X', instrument_type: 'FX', evil: 1 }, 'evil', /unknown field/],
        [{ symbol: 'X1', instrument_name: 'X\u0000', instrument_type: 'FX' }, 'instrument_name', /NUL character/], // refused for every route (http/errors.ts)
      ];
      for (const [json, field, reason] of cases) {
        const r = await create(json);
        assert.equal(r.status, 400, JSON.stringify(json));
        assert.equal(r.body.field, field, JSON.stringify(r.body));
        assert.match(r.body.error!, reason);
        assert.equal(r.body.success, false);
      }
      assert.equal((await create(undefined)).status, 400);
      assert.equal((await update(999_999, { instrument_name: 'nobody' })).status, 404);
      assert.equal((await call('PUT', '/api/security-master/abc', admin, { instrument_name: 'x' })).status, 400);
    });

    it('creates a security with the spec defaults, answers data.id, and refuses a duplicate symbol with 409', async () => {
      const r = await create({
        symbol: 'c14x',
        instrument_name: 'Tubarao to Rotterdam <script>alert(1)</script>',
        instrument_type: 'Commodities',
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.message, SecurityText.created);
      const s = r.body.data;
      assert.ok(Number.isInteger(s.id) && s.id > 0, 'data.id');
      assert.equal(s.symbol, 'C14X', 'stored upper-case');
      assert.equal(s.currency, 'USD');
      assert.equal(s.exchange_mics, 'SGX,EEX');
      assert.equal(s.is_active, true);
      assert.equal(s.price_tick_size, '0.01');
      assert.equal(s.instrument_name, 'Tubarao to Rotterdam <script>alert(1)</script>', 'text kept as typed; screens render it as text');
      const dup = await create({ symbol: 'C14X ', instrument_name: 'Again', instrument_type: 'Commodities' });
      assert.equal(dup.status, 409);
      assert.equal(dup.body.field, 'symbol');
      assert.match(dup.body.error!, /already exists/);
      const dupExisting = await create({ symbol: 'c5tc', instrument_name: 'Again', instrument_type: 'Commodities' });
      assert.equal(dupExisting.status, 409, 'symbols are unique whatever their case');
      // A rename onto another symbol is the same conflict.
      assert.equal((await update(s.id, { symbol: 'C5TC' })).status, 409);
      const del = await remove(s.id);
      assert.equal(del.status, 200);
      assert.equal(del.body.message, SecurityText.deleted('C14X'));
      assert.equal((await call('GET', `/api/security-master/${s.id}`, viewer)).status, 404);
    });

    it('makes a new security tradable over FIX at once, prices on its tick, and a deactivated one refused', async () => {
      const r = await create({
        symbol: 'PMX4TC',
        instrument_name: 'Panamax 4TC',
        instrument_type: 'Commodities',
        price_tick_size: '0.5',
        series_months: 24,
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const id = r.body.data.id;

      const first = await order('PMX4TC', '100.5');
      assert.equal(first.get(150), 'A', `accepted for review at once, got ${first.raw}`);
      const offTick = await order('PMX4TC', '100.25');
      assert.equal(offTick.get(150), '8');
      assert.equal(offTick.get(58), 'Price 100.25 is not a multiple of the tick size 0.5 for PMX4TC');

      // A manual fill off the tick is a clear error; on it, it is booked.
      const oid = await orderId(first.get(11)!);
      assert.equal((await call('POST', `/api/orders/${oid}/accept`, broker, {})).status, 200);
      const bad = await call('POST', `/api/orders/${oid}/fill`, broker, { fillQty: '5', fillPrice: '100.3' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error, 'Fill price 100.3 is not a multiple of the tick size 0.5 for PMX4TC');
      assert.equal(bad.body.field, 'fillPrice');
      const good = await call('POST', `/api/orders/${oid}/fill`, broker, { fillQty: '5', fillPrice: '100' });
      assert.equal(good.status, 200, JSON.stringify(good.body));

      // A finer tick applies to the next order and the next fill.
      assert.equal((await update(id, { price_tick_size: '0.25' })).status, 200);
      assert.equal((await order('PMX4TC', '100.25')).get(150), 'A');
      assert.equal((await call('POST', `/api/orders/${oid}/fill`, broker, { fillQty: '1', fillPrice: '99.75' })).status, 200);

      // Deactivated: refused at intake with the reason; reactivated: tradable again.
      const off = await update(id, { is_active: false });
      assert.equal(off.status, 200);
      assert.equal(off.body.message, SecurityText.updated);
      assert.equal(off.body.data.price_tick_size, '0.25', 'a PUT changes only the fields it names');
      assert.equal(off.body.data.series_months, 24);
      const refused = await order('PMX4TC', '100');
      assert.equal(refused.get(150), '8');
      assert.equal(refused.get(58), 'Symbol PMX4TC is not active');
      assert.equal(refused.get(103), '1', 'OrdRejReason unknown symbol');
      assert.equal((await update(id, { is_active: true })).status, 200);
      assert.equal((await order('PMX4TC', '100')).get(150), 'A');

      // Orders exist: neither deleted nor renamed (the orders name it).
      const n = Number((await t.server.ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM orders WHERE symbol = 'PMX4TC'")).rows[0]!.n);
      assert.equal(n, 3, 'the three accepted orders (refusals are not orders)');
      const del = await remove(id);
      assert.equal(del.status, 409);
      assert.equal(del.body.error, SecurityText.hasOrders('PMX4TC', n));
      assert.equal(
        del.body.error,
        `Cannot delete security PMX4TC - it has ${n} order(s) in the system. Please remove all orders for this security before deleting.`,
      );
      const rename = await update(id, { symbol: 'PMX5TC' });
      assert.equal(rename.status, 409);
      assert.match(rename.body.error!, /Cannot change the symbol of security PMX4TC - it has \d+ order\(s\)/);
      assert.equal((await call<{ data: Security }>('GET', `/api/security-master/${id}`, viewer)).body.data.symbol, 'PMX4TC');
    });

    it('counts a multileg order with a leg on the security as one of its orders', async () => {
      const r = await create({ symbol: 'LEGONLY', instrument_name: 'Leg only', instrument_type: 'Derivatives', price_tick_size: '1' });
      const id = r.body.data.id;
      await t.server.ctx.db.query(
        `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol, side, ordtype, price, orderqty, leavesqty, transacttime)
         SELECT 'SM-ML-1', 'SM-ML-1', id, comp_id, 'FIXDESK', current_date, 'AB', 'C5TC/LEGONLY', '1', '2', 0, 1, 1, now() FROM client_connectors WHERE comp_id = 'SGX_CLIENT_1'`,
      );
      await t.server.ctx.db.query(
        `INSERT INTO order_legs (order_id, leg_index, leg_symbol, leg_maturity_month_year, leg_side, leg_ratio_qty)
         SELECT id, 0, 'C5TC', $1, '1', 1 FROM orders WHERE brokerorderid = 'SM-ML-1'
         UNION ALL SELECT id, 1, 'legonly', $1, '2', 1 FROM orders WHERE brokerorderid = 'SM-ML-1'`,
        [maturity()],
      );
      const del = await remove(id);
      assert.equal(del.status, 409);
      assert.equal(del.body.error, SecurityText.hasOrders('LEGONLY', 1));
    });

    it('keeps who changed what: create, update and delete in the history', async () => {
      const r = await create({ symbol: 'HIST1', instrument_name: 'History', instrument_type: 'FX', currency: 'eur' });
      const id = r.body.data.id;
      assert.equal(r.body.data.currency, 'EUR');
      await update(id, { instrument_name: 'History renamed', trading_hours: '08:00-17:00 CET' });
      await remove(id);
      const h = await call<{ data: Array<{ action: string; changed_by: string; before: Json | null; after: Json | null }> }>(
        'GET',
        `/api/security-master/${id}/history`,
        admin,
      );
      assert.equal(h.status, 200);
      assert.deepEqual(
        h.body.data.map((c) => c.action),
        ['DELETE', 'UPDATE', 'CREATE'],
      );
      assert.ok(h.body.data.every((c) => c.changed_by === 'admin'));
      const upd = h.body.data[1]!;
      assert.equal(upd.before!.instrument_name, 'History');
      assert.equal(upd.after!.instrument_name, 'History renamed');
      assert.equal(h.body.data[0]!.after, null);
    });
  });
}
