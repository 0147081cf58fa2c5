// Drop copy connectors (docs/adr/0017): the session type and the clients copied, through the connector
// API with their validations, and a drop copy session that logs on like a client but may not trade.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { DROP_COPY_REJECT_TEXT } from '@fixdesk/domain';
import { MemoryStoreFactory } from '@fixdesk/fix';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

interface Connector {
  comp_id: string;
  session_type: string;
  drop_copy_of: string[];
}
interface Answer {
  success: boolean;
  data: Connector;
  field?: string;
  message: string;
}

const DROP = 'MIDDLE_OFFICE_1';
// Every day, all day: the drop copy session logs on whatever the test's date and time.
const ANY_TIME = { timezone: 'UTC', trading_days: 'M,T,W,T,F,S,S', start_time: '00:00', end_time: '23:59:59' };

for (const kind of TEST_DB_KINDS) {
  describe(`drop copy connectors on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let viewer: string;
    const call = async (method: string, path: string, json?: unknown) => {
      const r = await t.api(path, { method, token: admin, ...(json === undefined ? {} : { json }) });
      return { status: r.status, body: (await r.json()) as Answer };
    };
    before(async () => {
      t = await startTestServer(kind);
      [admin, viewer] = await Promise.all([t.login('admin'), t.login('viewer')]);
    });
    after(async () => {
      await t?.stop();
    });

    it('gives every connector a session type, order entry by default, and no clients copied', async () => {
      const list = ((await (await t.api('/api/client-connectors', { token: viewer })).json()) as { data: Connector[] }).data;
      for (const c of list) {
        assert.equal(c.session_type, 'order_entry', c.comp_id);
        assert.deepEqual(c.drop_copy_of, [], c.comp_id);
      }
      const made = await call('POST', '/api/client-connectors', { comp_id: 'PLAIN_CLIENT', execution_id_prefix: 'PLC' });
      assert.equal(made.status, 200, made.body.message);
      assert.equal(made.body.data.session_type, 'order_entry');
      assert.deepEqual(made.body.data.drop_copy_of, []);
    });

    it('creates a drop copy connector naming clients, each once, and reads it back', async () => {
      const made = await call('POST', '/api/client-connectors', {
        comp_id: DROP,
        execution_id_prefix: 'MO1',
        session_type: 'drop_copy',
        drop_copy_of: ['SGX_CLIENT_1', 'EEX_CLIENT_1', 'SGX_CLIENT_1'],
        ...ANY_TIME,
      });
      assert.equal(made.status, 200, made.body.message);
      assert.equal(made.body.data.session_type, 'drop_copy');
      assert.deepEqual(made.body.data.drop_copy_of, ['SGX_CLIENT_1', 'EEX_CLIENT_1']);
      const read = await call('GET', `/api/client-connectors/${DROP}`);
      assert.deepEqual(read.body.data.drop_copy_of, ['SGX_CLIENT_1', 'EEX_CLIENT_1']);
      const listed = ((await (await t.api('/api/client-connectors', { token: viewer })).json()) as { data: Connector[] }).data;
      assert.equal(listed.find((c) => c.comp_id === DROP)?.session_type, 'drop_copy');
    });

    it('changes the clients copied (empty: every client) and keeps them when a PUT leaves them out', async () => {
      let r = await call('PUT', `/api/client-connectors/${DROP}`, { drop_copy_of: ['SGX_CLIENT_1'] });
      assert.equal(r.status, 200, r.body.message);
      assert.deepEqual(r.body.data.drop_copy_of, ['SGX_CLIENT_1']);
      r = await call('PUT', `/api/client-connectors/${DROP}`, { client_name: 'Middle office' });
      assert.deepEqual(r.body.data.drop_copy_of, ['SGX_CLIENT_1']);
      r = await call('PUT', `/api/client-connectors/${DROP}`, { drop_copy_of: [] });
      assert.deepEqual(r.body.data.drop_copy_of, []);
      r = await call('PUT', `/api/client-connectors/${DROP}`, { drop_copy_of: ['SGX_CLIENT_1'] });
      assert.equal(r.status, 200);
    });

    it('refuses clients copied that are not order-entry connectors, naming the field and why', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [
          { comp_id: 'DC_X', execution_id_prefix: 'DCX', session_type: 'drop_copy', drop_copy_of: ['NO_SUCH'] },
          /NO_SUCH is not a client connector/,
        ],
        [
          { comp_id: 'DC_X', execution_id_prefix: 'DCX', session_type: 'drop_copy', drop_copy_of: [DROP] },
          /is a drop copy session, not a client/,
        ],
        [{ comp_id: 'DC_X', execution_id_prefix: 'DCX', session_type: 'drop_copy', drop_copy_of: ['DC_X'] }, /is this drop copy session/],
        [{ comp_id: 'DC_X', execution_id_prefix: 'DCX', drop_copy_of: ['SGX_CLIENT_1'] }, /only for a drop copy session/],
        [
          { comp_id: 'DC_X', execution_id_prefix: 'DCX', session_type: 'order_entry', drop_copy_of: ['SGX_CLIENT_1'] },
          /only for a drop copy/,
        ],
        [{ comp_id: 'DC_X', execution_id_prefix: 'DCX', session_type: 'drop_copy', drop_copy_of: ['bad id!'] }, /letters, digits/],
        [
          { comp_id: 'DC_X', execution_id_prefix: 'DCX', session_type: 'drop_copy', drop_copy_of: 'SGX_CLIENT_1' },
          /list of client comp IDs/,
        ],
      ];
      for (const [json, reason] of cases) {
        const r = await call('POST', '/api/client-connectors', json);
        assert.equal(r.status, 400, JSON.stringify(json));
        assert.match(r.body.message, reason);
        assert.match(r.body.field ?? '', /^drop_copy_of/, JSON.stringify(r.body));
      }
      for (const [json, reason] of [
        [{ session_type: 'fast' }, /session type must be one of order_entry, drop_copy/i],
        [{ session_type: 'drop_copy' }, undefined],
      ] as const) {
        const r = await call('POST', '/api/client-connectors', { comp_id: 'DC_Y', execution_id_prefix: 'DCY', ...json });
        if (reason) {
          assert.equal(r.status, 400);
          assert.match(r.body.message, reason);
          assert.equal(r.body.field, 'session_type');
        } else assert.equal(r.status, 200, r.body.message);
      }
      // The same rules on an update, on the row as it will be: an order-entry connector names none.
      const r = await call('PUT', '/api/client-connectors/PLAIN_CLIENT', { drop_copy_of: ['SGX_CLIENT_1'] });
      assert.equal(r.status, 400);
      assert.equal(r.body.field, 'drop_copy_of');
      const back = await call('PUT', `/api/client-connectors/DC_Y`, { session_type: 'order_entry', drop_copy_of: ['SGX_CLIENT_1'] });
      assert.equal(back.status, 400);
      // Turned back into a client with its list emptied (as the dialog sends it): fine.
      const ok = await call('PUT', `/api/client-connectors/DC_Y`, { session_type: 'order_entry', drop_copy_of: [] });
      assert.equal(ok.status, 200, ok.body.message);
    });

    it('keeps a client copied by a drop copy session a client: no drop copy type, no delete', async () => {
      const turn = await call('PUT', '/api/client-connectors/SGX_CLIENT_1', { session_type: 'drop_copy' });
      assert.equal(turn.status, 409);
      assert.equal(turn.body.field, 'session_type');
      assert.match(turn.body.message, new RegExp(`copied by drop copy session ${DROP}`));
      await call('PUT', `/api/client-connectors/${DROP}`, { drop_copy_of: ['PLAIN_CLIENT'] });
      const del = await call('DELETE', '/api/client-connectors/PLAIN_CLIENT');
      assert.equal(del.status, 409);
      assert.match(del.body.message, new RegExp(`drop copy session ${DROP} copies it`));
      // Unnamed, it may go.
      await call('PUT', `/api/client-connectors/${DROP}`, { drop_copy_of: ['SGX_CLIENT_1'] });
      assert.equal((await call('DELETE', '/api/client-connectors/PLAIN_CLIENT')).status, 200);
    });

    it('keeps a connector with orders an order-entry session', async () => {
      await call('PUT', `/api/client-connectors/${DROP}`, { drop_copy_of: ['SGX_CLIENT_1'] });
      const { rows } = await t.database.db.query<{ id: number }>(`SELECT id FROM client_connectors WHERE comp_id = 'EEX_CLIENT_1'`);
      const orders = await t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE client_connector_id = $1', [
        rows[0]!.id,
      ]);
      if (orders.rows[0]!.n === 0) return; // a seed without orders: nothing to refuse
      const r = await call('PUT', '/api/client-connectors/EEX_CLIENT_1', { session_type: 'drop_copy' });
      assert.equal(r.status, 409);
      assert.match(r.body.message, /order\(s\)/);
    });

    it('logs a drop copy session on like a client and answers its orders with a BusinessMessageReject', async () => {
      const client = new TestFixClient(DROP, new MemoryStoreFactory());
      try {
        await client.connect(t.server.ctx.fix.port, {}, 5000);
        await client.send('D', newOrderSingle('DC-ORDER-1'));
        const reject = await until('business reject', () => client.received.find((m) => m.msgType === 'j'));
        assert.equal(reject.get(372), 'D');
        assert.equal(reject.get(380), '6');
        assert.equal(reject.get(58), DROP_COPY_REJECT_TEXT, 'the text its FIX specification quotes');
        // Nothing reached the order core.
        const { rows } = await t.database.db.query(`SELECT 1 FROM orders WHERE clordid = 'DC-ORDER-1'`);
        assert.equal(rows.length, 0);
        assert.equal(client.isLoggedOn, true);
        // A change of its session type ends the logon: the type holds for the whole of one.
        await call('PUT', `/api/client-connectors/${DROP}`, { session_type: 'order_entry', drop_copy_of: [] });
        await until('logout on a session type change', () => client.logouts.length > 0);
        assert.match(client.logouts[0]!, /Session type changed/);
      } finally {
        await client.stop();
      }
    });

    it("records a copy of each report of a covered client (the intake's Pending New, a broker's accept), and keeps a drop copy connector owed copies", async () => {
      const made = await call('PUT', `/api/client-connectors/${DROP}`, { session_type: 'drop_copy', drop_copy_of: ['SGX_CLIENT_1'] });
      assert.equal(made.status, 200, made.body.message);
      const client = new TestFixClient('SGX_CLIENT_1', new MemoryStoreFactory());
      try {
        await client.connect(t.server.ctx.fix.port, {}, 5000);
        await client.send('D', newOrderSingle('DC-COPIED-1'));
        const ack = await until('Pending New', () => client.received.find((m) => m.msgType === '8' && m.get(11) === 'DC-COPIED-1'));
        const broker = await t.login('broker');
        const accepted = await t.api(`/api/orders/${ack.get(37)}/accept`, { method: 'POST', token: broker, json: {} });
        assert.equal(accepted.status, 200);
      } finally {
        await client.stop();
      }
      const { rows } = await t.database.db.query<{ comp_id: string; client_comp_id: string; exectype: string; sent_at: Date | null }>(
        `SELECT d.comp_id, c.client_comp_id, e.exectype, c.sent_at
           FROM drop_copies c JOIN execution_reports e ON e.id = c.exec_report_id JOIN client_connectors d ON d.id = c.drop_copy_connector_id
          WHERE e.clordid = 'DC-COPIED-1' ORDER BY c.id`,
      );
      assert.deepEqual(
        rows.map((r) => [r.comp_id, r.client_comp_id, r.exectype]),
        [
          [DROP, 'SGX_CLIENT_1', 'A'],
          [DROP, 'SGX_CLIENT_1', '0'],
        ],
      );
      const del = await call('DELETE', `/api/client-connectors/${DROP}`);
      assert.equal(del.status, 409);
      assert.match(del.body.message, /has 2 drop copies in the system\. Deactivate it instead/);
    });
  });
}
