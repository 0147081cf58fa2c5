// GET /api/fix-messages/export.csv and /api/order-actions/export.csv: the whole range as a
// CSV file streamed page by page (keyset by id), with the table's columns, formula-safe cells, the
// total in X-Export-Rows for the browser's progress, and the export recorded in the who-looked log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import Papa from 'papaparse';
import { readOrderActionsCsv } from '../support/order-actions-csv';
import { startTestServer, type TestServer } from '../support/server';

const ROWS = 12_345; // many pages of EXPORT_PAGE_ROWS and a part one
const ACTIONS = 10_001; // full pages and one row
const SOH = '\x01';

for (const kind of TEST_DB_KINDS) {
  describe(`FIX messages and order actions CSV export streams on ${kind}`, () => {
    let t: TestServer;
    let viewer: string;
    const day = '2031-03-04';

    before(async () => {
      t = await startTestServer(kind);
      viewer = await t.login('viewer');
      // Outbound execution reports of our session with SGX_CLIENT_1, one a formula-shaped ClOrdID.
      await t.database.db.query(
        `INSERT INTO fix_messages (begin_string, sender_comp_id, target_comp_id, direction, msg_seq_num, msg_type, clordid, raw_fix, created_at)
         SELECT 'FIX.4.4', 'FIXDESK', 'SGX_CLIENT_1', 'TX', g, '8', CASE WHEN g = 7 THEN '=1+2' ELSE 'EXP-' || g END,
                '8=FIX.4.4${SOH}35=8${SOH}34=' || g || '${SOH}11=EXP-' || g || '${SOH}',
                timestamptz '${day} 10:00:00+00' + g * interval '1 millisecond'
           FROM generate_series(1, ${ROWS}) g`,
      );
      // Partial fills by the broker on SGX_CLIENT_1's orders, one with a formula-shaped note.
      await t.database.db.query(
        `INSERT INTO order_actions (brokerorderid, clordid, sendercompid, symbol, side, orderqty, price, action_type, user_id, notes, action_data, fill_qty, fill_price, created_at)
         SELECT 'BO' || g, 'ACT-' || g, 'SGX_CLIENT_1', 'C5TC', '2', 20, -12.5, 'PARTIAL_FILL', 'broker',
                CASE WHEN g = 9 THEN '@SUM(A1)' ELSE 'note ' || g END, jsonb_build_object('fillQty', '5'), 5, -12.25,
                timestamptz '${day} 11:00:00+00' + g * interval '1 millisecond'
           FROM generate_series(1, ${ACTIONS}) g`,
      );
    });
    after(async () => {
      await t?.stop();
    });

    const exportCsv = (query: string, token = viewer) => t.api(`/api/fix-messages/export.csv?${query}`, { token });

    it('streams every row of the range once, in the table columns, with the total up front', async () => {
      const res = await exportCsv(`start=${day}T00:00:00Z&end=${day}T23:59:59Z`);
      assert.equal(res.status, 200, await res.clone().text());
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(res.headers.get('content-disposition') ?? '', /attachment/);
      assert.equal(res.headers.get('x-export-rows'), String(ROWS));
      const bytes = Buffer.from(await res.arrayBuffer());
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a BOM so spreadsheets read UTF-8');
      // One line per row after the heading, none empty (the browser counts lines for its progress).
      const lines = bytes.toString('utf8').split('\r\n');
      assert.equal(lines.pop(), '', 'the last row ends its line');
      assert.equal(lines.length, ROWS + 1);
      assert.ok(!lines.includes(''), 'no empty line');
      const [head, ...body] = Papa.parse<string[]>(bytes.subarray(3).toString('utf8'), { skipEmptyLines: true }).data;
      assert.deepEqual(head, [
        'ID',
        'TransactTime (UTC)',
        'Direction',
        'Msg Type',
        'Seq Num',
        'Sender',
        'Target',
        'Client Order ID',
        'Broker Order ID',
        'Raw Message',
      ]);
      assert.equal(body.length, ROWS);
      assert.equal(new Set(body.map((r) => r[0])).size, ROWS, 'no row twice across the pages');
      const seven = body.find((r) => r[4] === '7')!;
      assert.equal(seven[7], "'=1+2", 'a formula-shaped cell is written as text');
      assert.equal(seven[3], '8 · Execution Report');
      assert.equal(seven[5], 'FIXDESK');
      assert.equal(seven[6], 'SGX_CLIENT_1');
      assert.equal(seven[9], '8=FIX.4.4|35=8|34=7|11=EXP-7|');
      assert.match(seven[1]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('takes the filters of the list, needs both dates, and is recorded as an export', async () => {
      const one = await exportCsv(`start=${day}T00:00:00Z&end=${day}T23:59:59Z&clordid=EXP-42`);
      assert.equal(one.headers.get('x-export-rows'), '1');
      assert.equal(Papa.parse<string[]>(await one.text(), { skipEmptyLines: true }).data.length, 2);
      const none = await exportCsv(`start=${day}T00:00:00Z`);
      assert.equal(none.status, 400);
      assert.equal(((await none.json()) as { field?: string }).field, 'end');
      assert.equal((await t.api(`/api/fix-messages/export.csv?start=${day}&end=${day}`)).status, 401);
      const admin = await t.login('admin');
      const looks = (await (await t.api('/api/audit-access', { token: admin })).json()) as {
        data: Array<{ username: string; action: string; row_count: number | null }>;
      };
      assert.ok(looks.data.some((l) => l.username === 'viewer' && l.action === 'export_fix_messages' && l.row_count === ROWS));
    });

    it('streams the order actions of a range the same way, with their table columns, and records it', async () => {
      const res = await t.api(`/api/order-actions/export.csv?start=${day}T00:00:00Z&end=${day}T23:59:59Z`, { token: viewer });
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(res.headers.get('x-export-rows'), String(ACTIONS));
      assert.match(res.headers.get('content-disposition') ?? '', /filename="order_actions.csv"/);
      const { rows: body, cell } = readOrderActionsCsv(await res.text());
      assert.equal(body.length, ACTIONS);
      assert.equal(new Set(body.map((r) => cell(r, 'ID'))).size, ACTIONS, 'no row twice across the pages');
      const nine = body.find((r) => cell(r, 'Client Order ID') === 'ACT-9')!;
      assert.equal(cell(nine, 'Notes'), "'@SUM(A1)", 'a formula-shaped note is written as text');
      assert.equal(cell(nine, 'Client'), 'Straits Shipping Capital Pte Ltd (SGX_CLIENT_1)');
      assert.deepEqual(
        (['Side', 'Order Price', 'Action Type', 'Fill Qty', 'Fill Price'] as const).map((c) => cell(nine, c)),
        ['Sell', '-12.5', 'PARTIAL_FILL', '5', '-12.25'],
      );
      assert.deepEqual(JSON.parse(cell(nine, 'Action Data')!), { fillQty: '5' });
      const none = await t.api(`/api/order-actions/export.csv?end=${day}`, { token: viewer });
      assert.equal(none.status, 400);
      assert.equal(((await none.json()) as { field?: string }).field, 'start');
      const admin = await t.login('admin');
      const looks = (await (await t.api('/api/audit-access', { token: admin })).json()) as {
        data: Array<{ username: string; action: string; row_count: number | null }>;
      };
      assert.ok(looks.data.some((l) => l.username === 'viewer' && l.action === 'export_order_actions' && l.row_count === ACTIONS));
    });
  });
}
