// Client onboarding: the capability and session APIs (administrators only, every
// write validated by the shared schema), the connector list's live state without secrets, and the
// intake enforcing every capability field for the very next order: no capability, short selling
// against the worst-case exposure (fills and working orders), order and position limits, the market identifier.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { ClientCapabilityRecord, ClientConnector, ClientSessionRecord } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

type Json = Record<string, unknown>;
interface Answer<T = Json> {
  status: number;
  body: T & { success?: boolean; message?: string; error?: string; field?: string };
}

const COMP = 'ONBOARD_1';

for (const kind of TEST_DB_KINDS) {
  describe(`client onboarding API on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    let client: TestFixClient | undefined;
    let seq = 0;

    const call = async <T = Json>(method: string, path: string, token: string | null, json?: unknown): Promise<Answer<T>> => {
      const r = await t.api(path, { method, ...(token ? { token } : {}), ...(json === undefined ? {} : { json }) });
      return { status: r.status, body: (await r.json()) as Answer<T>['body'] };
    };
    const connectorId = async (compId: string) =>
      (await t.server.ctx.db.query<{ id: number }>('SELECT id FROM client_connectors WHERE comp_id = $1', [compId])).rows[0]!.id;
    /** A NewOrderSingle from the onboarded client; its first report. */
    const order = async (o: { side?: string; qty?: string; exDestination?: string } = {}) => {
      const clOrdId = `ONB-${kind}-${++seq}`;
      const body = newOrderSingle(clOrdId, o);
      if (o.exDestination !== undefined) for (const f of body) if (f[0] === 100) f[1] = o.exDestination;
      await client!.send('D', body);
      const report = await client!.waitForReport(clOrdId, (m) => m.msgType === '8');
      return { clOrdId, execType: report.get(150), text: report.get(58) };
    };
    const fill = async (clOrdId: string, qty: number) => {
      const id = (await t.server.ctx.db.query<{ id: string }>('SELECT id::text AS id FROM orders WHERE clordid = $1', [clOrdId])).rows[0]!
        .id;
      assert.equal((await call('POST', `/api/orders/${id}/accept`, broker, {})).status, 200);
      assert.equal((await call('POST', `/api/orders/${id}/fill`, broker, { fillQty: qty, fillPrice: 27000 })).status, 200);
    };

    before(async () => {
      t = await startTestServer(kind);
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    it('lets every signed-in user read the capabilities (docs/adr/0014) and refuses every other capability and session call to non-administrators', async () => {
      for (const token of [broker, viewer]) {
        const list = await call<{ data: ClientCapabilityRecord[] }>('GET', '/api/client-capabilities?comp_id=SGX_CLIENT_1', token);
        assert.equal(list.status, 200, JSON.stringify(list.body));
        assert.ok(list.body.data.length > 0 && list.body.data.every((c) => c.comp_id === 'SGX_CLIENT_1'));
        const one = await call<{ data: ClientCapabilityRecord }>('GET', `/api/client-capabilities/${list.body.data[0]!.id}`, token);
        assert.equal(one.status, 200);
        assert.equal(one.body.data.id, list.body.data[0]!.id);
        assert.equal((await call('GET', '/api/client-capabilities', null)).status, 401);
      }
      const calls: [string, string][] = [
        ['POST', '/api/client-capabilities'],
        ['PUT', '/api/client-capabilities/1'],
        ['DELETE', '/api/client-capabilities/1'],
        ['GET', '/api/client-sessions'],
        ['POST', '/api/client-sessions'],
        ['PUT', '/api/client-sessions/1'],
        ['DELETE', '/api/client-sessions/1'],
        ['POST', '/api/client-connectors'],
        ['PUT', '/api/client-connectors/SGX_CLIENT_1'],
        ['DELETE', '/api/client-connectors/SGX_CLIENT_1'],
      ];
      for (const [method, path] of calls) {
        const json = method === 'POST' || method === 'PUT' ? { notes: 'x' } : undefined;
        assert.equal((await call(method, path, null, json)).status, 401, `${method} ${path} signed out`);
        for (const token of [broker, viewer]) assert.equal((await call(method, path, token, json)).status, 403, `${method} ${path}`);
      }
    });

    it('validates with the shared schemas: 400 naming the field and the reason', async () => {
      const sgx = await connectorId('SGX_CLIENT_1');
      const capCases: [Json, string, RegExp][] = [
        [{ asset_class: 'FUTURES' }, 'clientconnectors_id', /required/],
        [{ clientconnectors_id: sgx }, 'asset_class', /required/],
        [{ clientconnectors_id: sgx, asset_class: 'SHARES' }, 'asset_class', /must be one of FUTURES/],
        [{ clientconnectors_id: sgx, asset_class: 'FUTURES', max_order_qty: 'ten' }, 'max_order_qty', /greater than 0/],
        [{ clientconnectors_id: sgx, asset_class: 'FUTURES', max_position_long: '-1' }, 'max_position_long', /0 or more/],
        [{ clientconnectors_id: sgx, asset_class: 'FUTURES', min_order_qty: '50', max_order_qty: '10' }, 'min_order_qty', /max order qty/],
        [{ clientconnectors_id: sgx, asset_class: 'FUTURES', additional_params: '{nope' }, 'additional_params', /JSON object/],
        [{ clientconnectors_id: 999999, asset_class: 'FUTURES' }, 'clientconnectors_id', /client connector/],
        [{ clientconnectors_id: sgx, asset_class: 'FUTURES', is_root: true }, 'is_root', /./],
      ];
      for (const [json, field, reason] of capCases) {
        const r = await call('POST', '/api/client-capabilities', admin, json);
        assert.equal(r.status, 400, JSON.stringify(json));
        assert.equal(r.body.field, field, JSON.stringify(r.body));
        assert.match(r.body.message!, reason);
      }
      const sessionCases: [Json, string, RegExp][] = [
        [{ session_start: '2026-01-05 09:00' }, 'comp_id', /required/],
        [{ comp_id: 'SGX_CLIENT_1' }, 'session_start', /required/],
        [{ comp_id: 'SGX_CLIENT_1', session_start: 'yesterday' }, 'session_start', /date and time/],
        [
          { comp_id: 'SGX_CLIENT_1', session_start: '2026-01-05 09:00', session_end: '2026-01-05 08:00' },
          'session_end',
          /before the start/,
        ],
        [{ comp_id: 'SGX_CLIENT_1', session_start: '2026-01-05 09:00', messages_sent: -3 }, 'messages_sent', /at least 0/],
        // A count is a whole number, not what parseInt makes of any text.
        [{ comp_id: 'SGX_CLIENT_1', session_start: '2026-01-05 09:00', messages_sent: 'abc' }, 'messages_sent', /whole number/],
        [{ comp_id: 'SGX_CLIENT_1', session_start: '2026-01-05 09:00', orders_processed: '1.5' }, 'orders_processed', /whole number/],
        [{ comp_id: 'NO_SUCH_CLIENT', session_start: '2026-01-05 09:00' }, 'comp_id', /not a client connector/],
      ];
      for (const [json, field, reason] of sessionCases) {
        const r = await call('POST', '/api/client-sessions', admin, json);
        assert.equal(r.status, 400, JSON.stringify(json));
        assert.equal(r.body.field, field, JSON.stringify(r.body));
        assert.match(r.body.message!, reason);
      }
      const prefix = await call('POST', '/api/client-connectors', admin, { comp_id: 'X1', execution_id_prefix: 'ABCD' });
      assert.equal(prefix.status, 400);
      assert.equal(prefix.body.field, 'execution_id_prefix');
      const lei = await call('POST', '/api/client-connectors', admin, {
        comp_id: 'X1',
        execution_id_prefix: 'X1',
        client_lei: 'L'.repeat(21),
      });
      assert.equal(lei.body.field, 'client_lei');
    });

    it('onboards a client: no capability refuses, a new one applies to the next order, every limit is enforced', async () => {
      const created = await call<{ data: ClientConnector }>('POST', '/api/client-connectors', admin, {
        comp_id: COMP,
        execution_id_prefix: 'OB1',
        client_name: 'Onboard Shipping',
        fix_password: 'pw-onboard-1',
        start_time: '00:00:00',
        end_time: '23:59:59',
        trading_days: 'M,T,W,T,F,S,S',
        timezone: 'UTC',
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      // The list: live state and capability count, never a secret (not even for an administrator).
      const listRaw = await (await t.api('/api/client-connectors', { token: admin })).text();
      assert.ok(!listRaw.includes('pw-onboard-1'));
      const listed = (JSON.parse(listRaw) as { data: ClientConnector[] }).data.find((c) => c.comp_id === COMP)!;
      assert.equal(listed.fix_password, null);
      assert.deepEqual(
        { ...listed.live, remote_address: undefined },
        {
          logged_on: false,
          remote_address: undefined,
          next_sender_seq: null,
          next_target_seq: null,
          capabilities: 0,
          capabilities_enabled: 0,
        },
      );

      client = new TestFixClient(COMP);
      await client.connect(t.server.ctx.fix.port, { password: 'pw-onboard-1' });
      const online = (await call<{ data: ClientConnector[] }>('GET', '/api/client-connectors', viewer)).body.data.find(
        (c) => c.comp_id === COMP,
      )!;
      assert.equal(online.live!.logged_on, true);
      assert.equal(online.live!.next_sender_seq, 2);

      // No capability: refused with the reason.
      let r = await order();
      assert.deepEqual([r.execType, r.text], ['8', 'No trading permission for C5TC']);

      // A capability for all securities (short selling off by default), max 20 lots an order.
      const cap = await call<{ data: ClientCapabilityRecord }>('POST', '/api/client-capabilities', admin, {
        clientconnectors_id: await connectorId(COMP),
        asset_class: 'FUTURES',
        max_order_qty: '20',
      });
      assert.equal(cap.status, 200, JSON.stringify(cap.body));
      assert.deepEqual(
        [
          cap.body.data.is_enabled,
          cap.body.data.can_buy,
          cap.body.data.can_sell,
          cap.body.data.can_short,
          cap.body.data.security_symbol,
          cap.body.data.comp_id,
        ],
        [true, true, true, false, null, COMP],
      );
      const capId = cap.body.data.id;
      const bought = await order({ qty: '10' });
      assert.equal(bought.execType, 'A', bought.text);
      r = await order({ qty: '25' });
      assert.deepEqual([r.execType, r.text], ['8', 'Order quantity 25 exceeds the maximum of 20 for C5TC']);
      // Selling without a position is a short sale.
      r = await order({ side: '2', qty: '5' });
      assert.equal(r.execType, '8');
      assert.match(
        r.text!,
        /^Client is not permitted to sell C5TC \w{3}-\d{2} short: position 0, working sells 0, this order 5 would leave -5$/,
      );
      // Once 10 lots are bought and filled, selling 5 (and then 10 in all) closes the position.
      await fill(bought.clOrdId, 10);
      const sold = await order({ side: '2', qty: '5' });
      assert.equal(sold.execType, 'A', sold.text);
      await fill(sold.clOrdId, 5);
      r = await order({ side: '2', qty: '6' });
      assert.match(r.text!, /position 5, working sells 0, this order 6 would leave -1$/);
      assert.equal((await order({ side: '2', qty: '5' })).execType, 'A');
      // Long 5 with 5 working to sell: a working sale counts as if filled.
      r = await order({ side: '2', qty: '1' });
      assert.match(r.text!, /position 5, working sells 5, this order 1 would leave -1$/);

      // Short selling allowed, but at most 3 lots net short and 8 net long: in force for the next order.
      let upd = await call<{ data: ClientCapabilityRecord }>('PUT', `/api/client-capabilities/${capId}`, admin, {
        can_short: true,
        max_position_short: '3',
        max_position_long: '8',
      });
      assert.equal(upd.status, 200, JSON.stringify(upd.body));
      // Long 5, 5 working to sell: 3 more may be sold (worst case short 3), not 4.
      assert.equal((await order({ side: '2', qty: '3' })).execType, 'A');
      r = await order({ side: '2', qty: '1' });
      assert.match(
        r.text!,
        /^Net short position in C5TC \w{3}-\d{2} could reach 4 \(position 5, working sells 8, this order 1\), above the limit of 3$/,
      );
      r = await order({ qty: '4' });
      assert.match(
        r.text!,
        /^Net long position in C5TC \w{3}-\d{2} could reach 9 \(position 5, working buys 0, this order 4\), above the limit of 8$/,
      );

      // Market identifier: the order must name it in ExDestination.
      upd = await call('PUT', `/api/client-capabilities/${capId}`, admin, { market_identifier: 'xses', max_position_long: '' });
      assert.equal(upd.body.data.market_identifier, 'XSES');
      assert.equal(upd.body.data.max_position_long, null);
      r = await order({ qty: '2' });
      assert.equal(r.text, 'Client may trade C5TC only on market XSES (ExDestination 100)');
      assert.equal((await order({ qty: '2', exDestination: 'XSES' })).execType, 'A');

      // Disabled, then the client may not buy: each for the next order.
      await call('PUT', `/api/client-capabilities/${capId}`, admin, { market_identifier: null, is_enabled: false });
      assert.equal((await order({ qty: '1' })).text, 'Trading in C5TC is disabled for this client');
      await call('PUT', `/api/client-capabilities/${capId}`, admin, { is_enabled: true, can_buy: false });
      assert.equal((await order({ qty: '1' })).text, 'Client is not permitted to buy C5TC');
      // The client is fixed once the capability exists.
      const move = await call('PUT', `/api/client-capabilities/${capId}`, admin, {
        clientconnectors_id: await connectorId('SGX_CLIENT_1'),
      });
      assert.equal(move.status, 400);
      assert.equal(move.body.field, 'clientconnectors_id');
      // A second row for the same security and exchange is a conflict.
      const dup = await call('POST', '/api/client-capabilities', admin, {
        clientconnectors_id: await connectorId(COMP),
        asset_class: 'FUTURES',
      });
      assert.equal(dup.status, 409);

      const list = await call<{ data: ClientCapabilityRecord[] }>('GET', `/api/client-capabilities?comp_id=${COMP}`, admin);
      assert.deepEqual(
        list.body.data.map((c) => c.id),
        [capId],
      );
      const withCaps = (await call<{ data: ClientConnector[] }>('GET', '/api/client-connectors', admin)).body.data.find(
        (c) => c.comp_id === COMP,
      )!;
      assert.deepEqual([withCaps.live!.capabilities, withCaps.live!.capabilities_enabled], [1, 1]);
      // Every change is in the reference trail with who made it.
      const trail = await t.server.ctx.db.query<{ action: string; changed_by: string }>(
        "SELECT action, changed_by FROM reference_changes WHERE entity = 'client_capabilities' AND entity_id = $1 ORDER BY id",
        [capId],
      );
      assert.equal(trail.rows[0]!.action, 'CREATE');
      assert.ok(trail.rows.every((x) => x.changed_by === 'admin'));

      // Deleting the capability: the next order is refused again.
      assert.equal((await call('DELETE', `/api/client-capabilities/${capId}`, admin)).status, 200);
      assert.equal((await order()).text, 'No trading permission for C5TC');
      assert.equal((await call('DELETE', `/api/client-capabilities/${capId}`, admin)).status, 404);
    });

    it('records the sessions and keeps the recorded values beside a correction', async () => {
      const live = await call<{ data: ClientSessionRecord[] }>('GET', `/api/client-sessions?comp_id=${COMP}`, admin);
      assert.equal(live.body.data[0]!.status, 'Active');
      assert.equal(live.body.data[0]!.recorded, true);
      // While logged on, the counters so far.
      assert.ok(
        live.body.data[0]!.orders_processed >= 15 &&
          live.body.data[0]!.messages_received >= live.body.data[0]!.orders_processed &&
          live.body.data[0]!.messages_sent > 0,
        JSON.stringify(live.body.data[0]),
      );
      await client!.stop();
      client = undefined;
      let rows: ClientSessionRecord[] = [];
      for (let i = 0; i < 100; i++) {
        rows = (await call<{ data: ClientSessionRecord[] }>('GET', `/api/client-sessions?comp_id=${COMP}`, admin)).body.data;
        if (rows[0]!.session_end) break;
        await new Promise((res) => setTimeout(res, 50));
      }
      const s = rows[0]!;
      assert.equal(s.status, 'Completed', JSON.stringify(s));
      assert.ok(s.messages_received > 10 && s.messages_sent > 10, JSON.stringify(s));
      assert.ok(s.orders_processed >= 15, JSON.stringify(s));

      // A correction: the values in force change, the recorded ones stay, with who corrected them.
      const fixed = await call<{ data: ClientSessionRecord }>('PUT', `/api/client-sessions/${s.id}`, admin, {
        comp_id: COMP,
        messages_sent: '7',
        disconnect_reason: 'line dropped (per the client)',
      });
      assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
      assert.equal(fixed.body.data.messages_sent, 7);
      assert.equal(fixed.body.data.status, 'Disconnected');
      assert.equal(fixed.body.data.original!.messages_sent, s.messages_sent);
      assert.equal(fixed.body.data.original!.disconnect_reason, null);
      assert.equal(fixed.body.data.corrected_by, 'admin');
      const stored = (
        await t.server.ctx.db.query<{ messages_sent: number }>('SELECT messages_sent FROM client_sessions WHERE id = $1', [s.id])
      ).rows[0]!;
      assert.equal(stored.messages_sent, s.messages_sent);
      const renamed = await call('PUT', `/api/client-sessions/${s.id}`, admin, { comp_id: 'SGX_CLIENT_1' });
      assert.equal(renamed.status, 400);
      assert.equal(renamed.body.field, 'comp_id');

      // A session added by hand: counts are whole numbers, an empty one 0.
      const added = await call<{ data: ClientSessionRecord }>('POST', '/api/client-sessions', admin, {
        comp_id: COMP,
        session_start: '2026-01-05 09:00',
        session_end: '2026-01-05T11:35:00Z',
        messages_sent: '',
        messages_received: '12',
        orders_processed: '',
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.deepEqual(
        [
          added.body.data.session_start,
          added.body.data.messages_sent,
          added.body.data.messages_received,
          added.body.data.orders_processed,
          added.body.data.recorded,
          added.body.data.status,
        ],
        ['2026-01-05T09:00:00.000Z', 0, 12, 0, false, 'Completed'],
      );
      assert.equal((await call('DELETE', `/api/client-sessions/${added.body.data.id}`, admin)).status, 200);
      assert.equal((await call('DELETE', `/api/client-sessions/${added.body.data.id}`, admin)).status, 404);
    });

    it('refuses to delete a connector that has orders, with the reason', async () => {
      const r = await call('DELETE', `/api/client-connectors/${COMP}`, admin);
      assert.equal(r.status, 409);
      assert.match(r.body.message!, new RegExp(`Cannot delete client connector ${COMP} - it has \\d+ order\\(s\\)`));
    });
  });
}
