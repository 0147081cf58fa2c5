// GET /api/orders writes its JSON straight from text rows (listOrderRows + orderListJson); the answer
// must be exactly what presentOrders made of listOrders: same orders in the same order, same keys,
// same values (decimal strings without trailing zeros, ISO times, nulls).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listOrders, presentOrders, type OrderListFilter } from '@fixdesk/db';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { startTestServer, type TestServer } from '../support/server';

function todayStart(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

for (const kind of TEST_DB_KINDS) {
  describe(`GET /api/orders on ${kind}`, () => {
    let t: TestServer;
    let token: string;
    before(async () => {
      t = await startTestServer(kind);
      token = await t.login('viewer');
      const db = t.server.ctx.db;
      // Orders of every shape, written directly: a plain one with two parties, a multi-leg one with a
      // pending replace, a filled one with reports, text that needs escaping, odd timestamps, an old
      // closed order (outside the default list) and an old open one (inside it).
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO orders (brokerorderid, clordid, origclordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol,
                             security_type, maturity_month_year, side, ordtype, price, orderqty, timeinforce, exchange, currency, account, text,
                             ordstatus, cumqty, leavesqty, avgpx, lastqty, lastpx, transacttime, accepted_by, created_at, updated_at)
         SELECT v.bo, v.cl, v.orig, c.id, c.comp_id, 'FIXDESK', current_date, v.mt, v.sym, v.st, v.mmy, v.side, v.ot, v.px::numeric, v.qty::numeric, '0',
                v.ex, v.ccy, v.acct, v.txt, v.st2, v.cum::numeric, v.leaves::numeric, v.avg::numeric, v.lq::numeric, v.lp::numeric, v.tt::timestamptz, v.acc,
                coalesce(v.created::timestamptz, now()), coalesce(v.created::timestamptz, now())
           FROM (VALUES
             ('BO-T-1', 'CL-1', NULL, 'D', 'C5TC', 'FUT', '202612', '1', '2', '27000.500', '10', 'SGX', 'USD', NULL, NULL, '0', '0', '10', '0', NULL, NULL,
              '2026-11-22 08:35:12.123956+00', 'broker', NULL),
             ('BO-T-2', 'CL-2', 'CL-1', 'AB', 'C5TC-P4TC', 'FUT', NULL, '2', '1', NULL, '007.50', 'SGX', NULL, 'ACC "7"', E'tab\\there "quoted" \\\\ back\\nline ü €',
              'A', '0.000', '7.5', '0', NULL, NULL, '1999-12-31 23:59:59.9999+00', NULL, NULL),
             ('BO-T-3', 'CL-3', NULL, 'D', 'P4TC', NULL, '202701', '1', '2', '-12.3400', '100', NULL, 'USD', 'ACC', '', '2', '100', '0', '15000.125', '40.0', '15000.10',
              '2026-02-03 04:05:06.7+00', 'broker', NULL),
             ('BO-T-4', 'CL-4', NULL, 'D', 'S10TC', 'FUT', '202612', '2', '2', '100', '5', 'SGX', 'USD', NULL, NULL, '2', '5', '0', '100', '5', '100',
              '2020-01-01 00:00:00+00', 'broker', '2020-01-01 00:00:00+00'),
             ('BO-T-5', 'CL-5', NULL, 'D', 'C3', 'FUT', '202612', '1', '2', '12', '3', 'SGX', 'USD', NULL, NULL, '0', '0', '3', '0', NULL, NULL,
              '2020-01-01 00:00:00.5+00', 'broker', '2020-01-02 03:04:05.678+00')
           ) AS v(bo, cl, orig, mt, sym, st, mmy, side, ot, px, qty, ex, ccy, acct, txt, st2, cum, leaves, avg, lq, lp, tt, acc, created)
           JOIN client_connectors c ON c.comp_id = 'SGX_CLIENT_1'
         RETURNING id`,
      );
      const [o1, o2, o3, o4, o5] = rows.map((r) => r.id) as [number, number, number, number, number];
      await db.query(
        `INSERT INTO order_legs (order_id, leg_index, leg_symbol, leg_security_type, leg_maturity_month_year, leg_side, leg_ratio_qty, leg_price, leg_cumqty, leg_avgpx)
         VALUES ($1, 1, 'P4TC', 'FUT', '202703', '2', 2.50, NULL, 0, 0), ($1, 0, 'C5TC', NULL, 'bad', '1', 1, 27000.50, 1.0, 26999.990)`,
        [o2],
      );
      await db.query(
        `INSERT INTO order_parties (order_id, leg_index, position, party_id, party_id_source, party_role)
         VALUES ($1, NULL, 1, 'TRADER1', 'D', 11), ($1, NULL, 0, 'LEI "X"', NULL, 7), ($2, 0, 0, 'DESK\\A', 'D', 12), ($3, NULL, 0, 'T3', 'D', 11)`,
        [o1, o2, o3],
      );
      await db.query(
        `INSERT INTO order_requests (order_id, request_type, clordid, origclordid, new_orderqty, new_price, new_ordtype, text, status, decided_by, decided_at, decision_text, created_at)
         VALUES ($1, 'G', 'CL-2R', 'CL-2', 12.50, NULL, '2', E'more\\u0001', 'PENDING', NULL, NULL, NULL, '2026-01-02 03:04:05.006789+00'),
                ($2, 'F', 'CL-3C', 'CL-3', NULL, NULL, NULL, NULL, 'REFUSED', 'broker', now(), 'no', now())`,
        [o2, o3],
      );
      // Years outside 1–9999 as toISOString writes them ('+010000', '0000'), and a year below 100. Only
      // on PostgreSQL: on PGlite, whose driver reads timestamps through Date's string parsing,
      // presentOrders could not present the former and read year 42 as 2042.
      if (kind === 'postgres') {
        await db.query(`UPDATE orders SET transacttime = '0042-03-04 05:06:07+00' WHERE id = $1`, [o3]);
        await db.query(
          `INSERT INTO order_requests (order_id, request_type, clordid, origclordid, new_price, status, decided_by, decided_at, decision_text, created_at)
           VALUES ($1, 'F', 'CL-3D', 'CL-3', 99.9000, 'PENDING', 'x', '10000-01-01 00:00:00+00', 'odd', '0001-06-01 00:00:00.25+00 BC')`,
          [o3],
        );
      }
      await db.query(
        `INSERT INTO execution_reports (order_id, execid, sendercompid, clordid, origclordid, orderid, exectype, ordstatus, side, symbol, orderqty, price,
                                        lastqty, lastpx, cumqty, avgpx, leavesqty, leg_index, ordrejreason, text, transacttime, created_at)
         VALUES ($1, 'E-1', 'SGX_CLIENT_1', 'CL-1', NULL, 'BO-T-1', 'A', 'A', '1', 'C5TC', 10, 27000.500, NULL, NULL, 0, 0, 10, NULL, NULL, NULL, now(), now()),
                ($1, 'E-2', 'SGX_CLIENT_1', 'CL-1', NULL, 'BO-T-1', '0', '0', '1', 'C5TC', 10, 27000.500, 0, 0, 0, 0, 10, NULL, NULL, 'ok', now(), now()),
                ($2, 'E-3', 'SGX_CLIENT_1', 'CL-3', NULL, 'BO-T-3', 'F', '1', NULL, NULL, NULL, NULL, 40.0, 15000.10, 40, 15000.1, 60, 0, 5, E'q"\\\\', '2026-03-04 05:06:07.89+00', now()),
                ($2, 'E-4', 'SGX_CLIENT_1', 'CL-3', NULL, 'BO-T-3', 'F', '2', '1', 'P4TC', 100, -12.34, 60, 15000.15000, 100, 15000.125, 0, NULL, NULL, NULL, now(), now()),
                ($3, 'E-5', 'SGX_CLIENT_1', 'CL-4', NULL, 'BO-T-4', 'F', '2', '2', 'S10TC', 5, 100, 5, 100, 5, 100, 0, NULL, NULL, NULL, now(), now())`,
        [o1, o3, o4],
      );
      assert.ok(o5);
    });
    after(async () => {
      await t?.stop();
    });

    // What presentOrders made of listOrders for the same filter, through JSON as the framework sent it.
    const expected = async (filter: OrderListFilter, withExecReports: boolean) =>
      JSON.parse(JSON.stringify(presentOrders(await listOrders(t.server.ctx.db, filter, withExecReports), withExecReports))) as unknown[];

    const cases: Array<[string, OrderListFilter, boolean]> = [
      ['', { todayStart: todayStart() }, true],
      ['?includeExecReports=false', { todayStart: todayStart() }, false],
      ['?from=2000-01-01&to=2099-12-31', { from: new Date('2000-01-01T00:00:00.000Z'), to: new Date('2099-12-31T23:59:59.999Z') }, true],
      ['?from=2000-01-01&limit=2&includeExecReports=true', { from: new Date('2000-01-01T00:00:00.000Z'), limit: 2 }, true],
      ['?status=2,A&from=2000-01-01', { from: new Date('2000-01-01T00:00:00.000Z'), statuses: ['2', 'A'] }, true],
      [
        '?symbol=C5TC-P4TC&from=2000-01-01&includeExecReports=false',
        { from: new Date('2000-01-01T00:00:00.000Z'), symbol: 'C5TC-P4TC' },
        false,
      ],
      ['?symbol=NONE', { todayStart: todayStart(), symbol: 'NONE' }, true],
    ];
    for (const [query, filter, withExecReports] of cases) {
      it(`answers ${query || 'the default list'} exactly as presentOrders did`, async () => {
        const r = await t.api(`/api/orders${query}`, { token });
        assert.equal(r.status, 200);
        assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
        const body = (await r.json()) as unknown[];
        const want = await expected(filter, withExecReports);
        assert.deepStrictEqual(body, want);
        if (query === '') {
          // The default list: today's orders and the old open one, not the old filled one; all shapes present.
          assert.deepEqual(
            body.map((o) => (o as { brokerorderid: string }).brokerorderid),
            ['BO-T-5', 'BO-T-3', 'BO-T-2', 'BO-T-1'],
          );
          const o2 = body[2] as { legs: unknown[]; parties: unknown[]; pendingRequest: unknown; execReports: unknown[]; text: string };
          assert.equal(o2.legs.length, 2);
          assert.equal(o2.parties.length, 1);
          assert.ok(o2.pendingRequest);
          assert.equal(o2.text, 'tab\there "quoted" \\ back\nline ü €');
          assert.equal((body[1] as { execReports: unknown[] }).execReports.length, 2);
        }
      });
    }

    it('still refuses a bad query and an unauthenticated read', async () => {
      assert.equal((await t.api('/api/orders?status=2;DROP', { token })).status, 400);
      assert.equal((await t.api('/api/orders?from=yesterday', { token })).status, 400);
      assert.equal((await t.api('/api/orders')).status, 401);
    });
  });
}
