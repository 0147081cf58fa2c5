// Desk Insights count rows in quarter hours of UTC before naming their periods
// (packages/db/src/repos/insights.ts, `grain`): exact while every period of the range starts on a
// quarter hour, as in every time zone in use today. A zone whose day started off the quarter hour
// (Africa/Monrovia on local mean time until 1972: a day from 00:44:30 UTC) must count each instant on
// its own: two orders and two session rejects 45 s apart, either side of that day's start, in one
// quarter hour, fall on two days.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { FixSessionsAnswer, OrderFlowAnswer } from '@fixdesk/protocol';
import { startTestServer, type TestServer } from '../support/server';

const CLIENT = 'SGX_CLIENT_1';
/** 00:44:00 UTC: 23:59:30 on the 9th in Monrovia; 00:44:45 UTC: 00:00:15 on the 10th. */
const BEFORE = '1971-03-10T00:44:00Z';
const AFTER = '1971-03-10T00:44:45Z';
const RANGE = 'from=1971-03-08T00:00:00Z&to=1971-03-12T00:00:00Z';

for (const kind of TEST_DB_KINDS) {
  describe(`desk insights periods off the quarter hour on ${kind}`, () => {
    let t: TestServer;
    let token: string;
    const get = async <T>(path: string): Promise<T> => {
      const res = await t.api(path, { token });
      const body = (await res.json()) as T;
      assert.equal(res.status, 200, JSON.stringify(body));
      return body;
    };

    before(async () => {
      t = await startTestServer(kind);
      token = await t.login('viewer');
      const db = t.database.db;
      for (const [i, at] of [BEFORE, AFTER].entries()) {
        await db.query(
          `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol,
                               maturity_month_year, side, ordtype, price, orderqty, exchange, ordstatus, cumqty, leavesqty, transacttime, created_at)
           SELECT $1::text, $2::text, c.id, c.comp_id, 'FIXDESK', ($3::timestamptz)::date, 'D', 'C5TC', '202612', '1', '2', 1, 1, 'SGX', 'A', 0, 1,
                  $3::timestamptz, $3::timestamptz
             FROM client_connectors c WHERE c.comp_id = $4`,
          [`GRAIN-${i}`, `CL-GRAIN-${i}`, at, CLIENT],
        );
        await db.query(
          `INSERT INTO fix_messages (begin_string, sender_comp_id, target_comp_id, direction, msg_seq_num, msg_type, raw_fix, created_at)
           VALUES ('FIX.4.4', 'FIXDESK', $1, 'TX', $2, '3', 'raw', $3)`,
          [CLIENT, 7000 + i, at],
        );
      }
    });
    after(async () => {
      await t?.stop();
    });

    it('counts the orders on their own days in Monrovia, and in one UTC day', async () => {
      const monrovia = await get<OrderFlowAnswer>(`/api/insights/order-flow?${RANGE}&tz=Africa/Monrovia`);
      assert.deepEqual(
        monrovia.series.map((p) => [p.period, p.start, p.received]),
        [
          ['1971-03-09', '1971-03-09T00:44:30.000Z', 1],
          ['1971-03-10', '1971-03-10T00:44:30.000Z', 1],
        ],
      );
      const utc = await get<OrderFlowAnswer>(`/api/insights/order-flow?${RANGE}`);
      assert.deepEqual(
        utc.series.map((p) => [p.period, p.received]),
        [['1971-03-10', 2]],
      );
    });

    it('counts the session rejects on their own days in Monrovia', async () => {
      const body = await get<FixSessionsAnswer>(`/api/insights/fix-sessions?${RANGE}&tz=Africa/Monrovia`);
      assert.deepEqual(
        body.series.map((p) => [p.period, p.client, p.sessionRejects]),
        [
          ['1971-03-09', CLIENT, 1],
          ['1971-03-10', CLIENT, 1],
        ],
      );
    });
  });
}
