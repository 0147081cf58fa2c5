// The Client FIX Defaults API (spec 001 §7): reads for the FIX Client, admin writes checked against the
// FIX 4.4 dictionary, the preview, and the defaults reaching the wire: the server's execution reports
// (with the cached client profile renewed on every change) and the simulated client's cancel requests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { buildNewOrderSingle, contractMonthOptions, serializeFixMessage, type ClientData, type GroupDefault } from '@fixdesk/domain';
import type { ClientDefaultsPreview, ClientFieldDefault, ClientGroupDefaults, FixFieldInfo, SendOrderResponse } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

type Json = Record<string, unknown>;

interface Answer<T = Json> {
  status: number;
  body: T & { success?: boolean; message?: string; field?: string; data?: unknown };
}

const SGX: ClientData = {
  compId: 'SGX_CLIENT_1',
  targetCompId: 'FIXDESK',
  clientName: 'Straits Shipping Capital',
  clientLei: '549300STRAITS000SG15',
  clientContact: 'Mei Lin Tan',
};
const fieldsOf = (raw: string, tag: number) =>
  raw
    .split(/[|\u0001]/)
    .filter((f) => f.startsWith(`${tag}=`))
    .map((f) => f.slice(String(tag).length + 1));

for (const kind of TEST_DB_KINDS) {
  describe(`client FIX defaults API on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    let sgx: number;
    let partiesBlock: number;

    const call = async <T = Json>(method: string, path: string, token: string | null, json?: unknown): Promise<Answer<T>> => {
      const r = await t.api(path, { method, ...(token ? { token } : {}), ...(json === undefined ? {} : { json }) });
      return { status: r.status, body: (await r.json()) as Answer<T>['body'] };
    };
    const get = <T = Json>(path: string, token = viewer) => call<T>('GET', path, token);
    const post = <T = Json>(path: string, json: unknown, token = admin) => call<T>('POST', path, token, json);
    const fixMessages = async (q: string) =>
      (await get<{ messages: Array<{ raw_fix: string; msgtype: string; clordid: string | null }> }>(`/api/fix-messages?${q}`, broker)).body
        .messages ?? [];

    before(async () => {
      t = await startTestServer(kind);
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
      const connectors = (await get<{ data: Array<{ id: number; comp_id: string }> }>('/api/client-connectors')).body.data;
      sgx = connectors.find((c) => c.comp_id === 'SGX_CLIENT_1')!.id;
      partiesBlock = (await t.server.ctx.db.query<{ id: number }>("SELECT id FROM component_blocks WHERE block_name = 'Parties'")).rows[0]!
        .id;
    });
    after(async () => {
      await t?.stop();
    });

    it('lets every signed-in user read what the FIX Client needs, and only an administrator write', async () => {
      for (const path of [
        `/api/fix-client-defaults/${sgx}/D`,
        `/api/fix-client-defaults/${sgx}/D/groups`,
        '/api/fix-client-defaults/variables',
        '/api/fix-client-defaults/field-info/54',
      ]) {
        assert.equal((await call('GET', path, null)).status, 401, `${path} without sign-in`);
        assert.equal((await get(path, viewer)).status, 200, `${path} as viewer`);
      }
      const body = { client_connector_id: sgx, msg_type: 'D', tag: 1, default_value: 'X' };
      const writes: Array<[string, string, unknown]> = [
        ['POST', '/api/fix-client-defaults', body],
        ['PUT', '/api/fix-client-defaults/1', { default_value: 'X' }],
        ['DELETE', '/api/fix-client-defaults/1', undefined],
        [
          'POST',
          '/api/fix-client-defaults/group',
          { client_connector_id: sgx, msg_type: 'D', component_block_id: 1, fields: [{ tag: 448, default_value: 'X' }] },
        ],
        ['DELETE', `/api/fix-client-defaults/group/${sgx}/D/1/1`, undefined],
        ['POST', '/api/fix-client-defaults/preview', { client_connector_id: sgx, msg_type: 'D' }],
      ];
      for (const [method, path, json] of writes) {
        assert.equal((await call(method, path, null, json)).status, 401, `${method} ${path} without sign-in`);
        assert.equal((await call(method, path, viewer, json)).status, 403, `${method} ${path} as viewer`);
        assert.equal((await call(method, path, broker, json)).status, 403, `${method} ${path} as broker`);
      }
      // Nothing was written by the refused calls.
      assert.deepEqual((await get<{ data: ClientFieldDefault[] }>(`/api/fix-client-defaults/${sgx}/D`)).body.data, []);
    });

    it('reads the seeded defaults: Account on execution reports and the two Parties instances', async () => {
      const er = (await get<{ data: ClientFieldDefault[] }>(`/api/fix-client-defaults/${sgx}/8`)).body.data;
      const account = er.find((d) => d.tag === 1);
      assert.ok(account);
      assert.deepEqual(
        [account.default_value, account.field_name, account.exec_type, account.msg_type, account.client_connector_id],
        ['%COMP_ID%', 'Account', null, '8', sgx],
      );

      for (const msgType of ['8', 'D', 'AB']) {
        const groups = (await get<{ data: ClientGroupDefaults[] }>(`/api/fix-client-defaults/${sgx}/${msgType}/groups`)).body.data;
        assert.equal(groups.length, 1, msgType);
        const parties = groups[0]!;
        assert.equal(parties.block_name, 'Parties');
        assert.equal(parties.component_block_id, partiesBlock);
        assert.equal(parties.group_field_number, 453);
        assert.deepEqual(
          parties.instances.map((i) => [i.group_instance_number, i.fields.map((f) => `${f.tag}=${f.default_value}`).join('|')]),
          [
            [1, '448=%LEI%|447=D|452=7'],
            [2, '448=%CONTACT_NAME%|447=D|452=11'],
          ],
        );
      }
      // Message types the FIX Client fetches but we configure nothing for answer an empty list.
      for (const msgType of ['0', 'A', 'AC']) {
        const r = await get<{ data: unknown[] }>(`/api/fix-client-defaults/${sgx}/${msgType}/groups`);
        assert.equal(r.status, 200, msgType);
        assert.deepEqual(r.body.data, []);
      }
    });

    it('lists the variables and the dictionary facts of a tag', async () => {
      const vars = (
        await get<{ data: { variables: Array<{ name: string; placeholder: string; source: string }> } }>(
          '/api/fix-client-defaults/variables',
        )
      ).body.data.variables;
      assert.deepEqual(
        vars.slice(0, 4).map((v) => v.placeholder),
        ['%COMP_ID%', '%LEI%', '%CONTACT_NAME%', '%CLIENT_NAME%'],
      );
      assert.ok(vars.some((v) => v.name === 'TIMESTAMP' && v.source === 'clock'));

      const side = (await get<{ data: FixFieldInfo }>('/api/fix-client-defaults/field-info/54')).body.data;
      assert.deepEqual([side.field_number, side.field_name, side.field_type], [54, 'Side', 'CHAR']);
      assert.deepEqual(side.enums.slice(0, 2), [
        { code: '1', description: 'BUY' },
        { code: '2', description: 'SELL' },
      ]);
      assert.equal((await get('/api/fix-client-defaults/field-info/99999')).status, 404);
      const bad = await get('/api/fix-client-defaults/field-info/abc');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.field, 'tag');
    });

    it('answers bad reads with 400 and unknown clients with 404', async () => {
      const cases: Array<[string, number, string]> = [
        [`/api/fix-client-defaults/abc/D`, 400, 'clientId'],
        [`/api/fix-client-defaults/${sgx}/ZZ`, 400, 'msgType'],
        [`/api/fix-client-defaults/${sgx}/D?execType=F`, 400, 'execType'],
        [`/api/fix-client-defaults/${sgx}/8?execType=Q`, 400, 'execType'],
        [`/api/fix-client-defaults/${sgx}/8?exec_type=F`, 400, 'exec_type'],
        [`/api/fix-client-defaults/999999/D`, 404, 'clientId'],
        [`/api/fix-client-defaults/999999/D/groups`, 404, 'clientId'],
      ];
      for (const [path, status, field] of cases) {
        const r = await get(path);
        assert.equal(r.status, status, path);
        assert.equal(r.body.field, field, `${path}: ${r.body.message}`);
        assert.equal(r.body.success, false);
      }
    });

    it('creates, changes and deletes a default, refusing what the dictionary does not allow', async () => {
      const created = await post<{ data: ClientFieldDefault }>('/api/fix-client-defaults', {
        client_connector_id: sgx,
        msg_type: 'D',
        tag: 1,
        default_value: '%COMP_ID%-ACC',
        notes: 'Account',
      });
      assert.equal(created.status, 200, created.body.message);
      const d = created.body.data;
      assert.deepEqual(
        [d.tag, d.default_value, d.notes, d.field_name, d.exec_type, d.is_mandatory],
        [1, '%COMP_ID%-ACC', 'Account', 'Account', null, false],
      );
      const mandatory = await post<{ data: ClientFieldDefault }>('/api/fix-client-defaults', {
        client_connector_id: sgx,
        msg_type: 'D',
        tag: '59',
        default_value: '0',
      });
      assert.equal(mandatory.status, 200, mandatory.body.message);
      assert.equal(mandatory.body.data.tag, 59, 'a tag given as digits');

      const dup = await post('/api/fix-client-defaults', { client_connector_id: sgx, msg_type: 'D', tag: 1, default_value: 'OTHER' });
      assert.equal(dup.status, 409);
      assert.equal(dup.body.field, 'tag');

      const base = { client_connector_id: sgx, msg_type: 'D', tag: 58, default_value: 'x' };
      const cases: Array<[unknown, number, string, RegExp]> = [
        [{ ...base, tag: 99999 }, 400, 'tag', /not a FIX 4\.4 field/],
        [{ ...base, tag: 49 }, 400, 'tag', /SenderCompID \(49\) is written by the FIX session/],
        [{ ...base, tag: 453 }, 400, 'tag', /NoPartyIDs \(453\) counts a repeating group/],
        [{ ...base, tag: 448 }, 400, 'tag', /PartyID \(448\) is not a field of NewOrderSingle \(D\)/],
        [{ ...base, tag: 32 }, 400, 'tag', /LastQty \(32\) is not a field of NewOrderSingle/],
        [{ ...base, tag: 0 }, 400, 'tag', /must be a FIX tag number/],
        [{ ...base, tag: undefined }, 400, 'tag', /is required/],
        [{ ...base, msg_type: 'ZZ' }, 400, 'msg_type', /'ZZ' is not a FIX 4\.4 message type/],
        [{ ...base, msg_type: '0' }, 400, 'msg_type', /Heartbeat \(0\) are not applied/],
        [{ ...base, exec_type: 'F' }, 400, 'exec_type', /ExecutionReport \(8\) defaults only/],
        [{ ...base, msg_type: '8', exec_type: 'Q' }, 400, 'exec_type', /not an ExecType/],
        [{ ...base, default_value: 'Hello %FOO%' }, 400, 'default_value', /unknown variable %FOO%/],
        [{ ...base, default_value: '  ' }, 400, 'default_value', /must not be empty/],
        [{ ...base, default_value: 'a\u0001b' }, 400, 'default_value', /control characters/],
        [{ ...base, tag: 54, default_value: 'Z' }, 400, 'default_value', /'Z' is not a valid Side \(54\) value/],
        [{ ...base, tag: 38, default_value: 'lots' }, 400, 'default_value', /not a valid QTY/],
        [{ ...base, colour: 'red' }, 400, 'colour', /unknown field/],
        [{ ...base, client_connector_id: 999999 }, 404, 'client_connector_id', /not found/],
      ];
      for (const [json, status, field, message] of cases) {
        const r = await post('/api/fix-client-defaults', json);
        assert.equal(r.status, status, JSON.stringify(json));
        assert.equal(r.body.field, field, `${JSON.stringify(json)}: ${r.body.message}`);
        assert.match(r.body.message!, message);
      }

      const put = (id: number, json: unknown) => call<{ data: ClientFieldDefault }>('PUT', `/api/fix-client-defaults/${id}`, admin, json);
      const changed = await put(d.default_id, { default_value: '%CLIENT_NAME%', notes: '' });
      assert.equal(changed.status, 200, changed.body.message);
      assert.deepEqual([changed.body.data.default_value, changed.body.data.notes], ['%CLIENT_NAME%', null]);
      // The edit form echoes the default back: fine while it names the same one.
      assert.equal((await put(d.default_id, { ...changed.body.data, default_value: '%COMP_ID%' })).status, 200);
      const retag = await put(d.default_id, { tag: 58, default_value: 'x' });
      assert.equal(retag.status, 400);
      assert.equal(retag.body.field, 'tag');
      assert.equal((await put(d.default_id, {})).status, 400);
      assert.equal((await put(d.default_id, { default_value: '%NOPE%' })).body.field, 'default_value');
      assert.equal((await put(999999, { default_value: 'x' })).status, 404);

      const del = await call('DELETE', `/api/fix-client-defaults/${d.default_id}`, admin);
      assert.equal(del.status, 200);
      assert.equal((await call('DELETE', `/api/fix-client-defaults/${d.default_id}`, admin)).status, 404);
      assert.equal((await call('DELETE', `/api/fix-client-defaults/${mandatory.body.data.default_id}`, admin)).status, 200);
      assert.equal((await call('DELETE', '/api/fix-client-defaults/x', admin)).status, 400);
      assert.deepEqual((await get<{ data: unknown[] }>(`/api/fix-client-defaults/${sgx}/D`)).body.data, []);
    });

    it('adds and deletes group instances, numbering them on', async () => {
      const group = (json: Json) =>
        post<{ data: { group_instance_number: number; fields: Array<{ tag: number }> } }>('/api/fix-client-defaults/group', json);
      const base = { client_connector_id: sgx, msg_type: 'D', component_block_id: partiesBlock };
      // Fields in any order come back in the group's order, delimiter first; the next number after the seeded 1 and 2.
      const added = await group({
        ...base,
        fields: [
          { tag: 452, default_value: '3' },
          { tag: 448, default_value: '%COMP_ID%' },
          { tag: 447, default_value: 'D', notes: 'Client ID' },
        ],
      });
      assert.equal(added.status, 200, added.body.message);
      assert.equal(added.body.data.group_instance_number, 3);
      assert.deepEqual(
        added.body.data.fields.map((f) => f.tag),
        [448, 447, 452],
      );

      const dup = await group({ ...base, group_instance_number: 3, fields: [{ tag: 448, default_value: 'X' }] });
      assert.equal(dup.status, 409);
      assert.equal(dup.body.field, 'group_instance_number');

      const instrument = (await t.server.ctx.db.query<{ id: number }>("SELECT id FROM component_blocks WHERE block_name = 'Instrument'"))
        .rows[0]!.id;
      const cases: Array<[Json, number, string, RegExp]> = [
        [{ ...base, fields: [{ tag: 55, default_value: 'C5TC' }] }, 400, 'fields.0.tag', /Symbol \(55\) is not a field of a Parties entry/],
        [{ ...base, fields: [{ tag: 452, default_value: '7' }] }, 400, 'fields', /starts with PartyID \(448\)/],
        [
          {
            ...base,
            fields: [
              { tag: 448, default_value: 'A' },
              { tag: 448, default_value: 'B' },
            ],
          },
          400,
          'fields.1.tag',
          /appears more than once/,
        ],
        [
          {
            ...base,
            fields: [
              { tag: 448, default_value: 'A' },
              { tag: 452, default_value: '999' },
            ],
          },
          400,
          'fields.1.default_value',
          /not a valid PartyRole/,
        ],
        [{ ...base, fields: [] }, 400, 'fields', /at least one field/],
        [
          { ...base, component_block_id: instrument, fields: [{ tag: 55, default_value: 'X' }] },
          400,
          'component_block_id',
          /Instrument is not a repeating group of NewOrderSingle/,
        ],
        [{ ...base, component_block_id: 999999, fields: [{ tag: 448, default_value: 'X' }] }, 404, 'component_block_id', /not found/],
        [{ ...base, group_instance_number: 100, fields: [{ tag: 448, default_value: 'X' }] }, 400, 'group_instance_number', /at most 99/],
      ];
      for (const [json, status, field, message] of cases) {
        const r = await group(json);
        assert.equal(r.status, status, JSON.stringify(json));
        assert.equal(r.body.field, field, `${JSON.stringify(json)}: ${r.body.message}`);
        assert.match(r.body.message!, message);
      }

      const groups = (await get<{ data: ClientGroupDefaults[] }>(`/api/fix-client-defaults/${sgx}/D/groups`)).body.data;
      assert.deepEqual(
        groups[0]!.instances.map((i) => i.group_instance_number),
        [1, 2, 3],
      );
      const del = (n: number | string) => call('DELETE', `/api/fix-client-defaults/group/${sgx}/D/${partiesBlock}/${n}`, admin);
      assert.equal((await del(3)).status, 200);
      assert.equal((await del(3)).status, 404);
      assert.equal((await del('x')).status, 400);
      assert.equal((await call('DELETE', `/api/fix-client-defaults/group/999999/D/${partiesBlock}/1`, admin)).status, 404);
      assert.deepEqual(
        (await get<{ data: ClientGroupDefaults[] }>(`/api/fix-client-defaults/${sgx}/D/groups`)).body.data[0]!.instances.length,
        2,
      );
    });

    it("lets an ExecType's own defaults take the place of the general ones", async () => {
      const fill = await post<{ data: ClientFieldDefault }>('/api/fix-client-defaults', {
        client_connector_id: sgx,
        msg_type: '8',
        exec_type: 'F',
        tag: 1,
        default_value: 'FILLS-%COMP_ID%',
      });
      assert.equal(fill.status, 200, fill.body.message);
      assert.equal(fill.body.data.exec_type, 'F');
      const forFills = (await get<{ data: ClientFieldDefault[] }>(`/api/fix-client-defaults/${sgx}/8?execType=F`)).body.data;
      assert.deepEqual(
        forFills.filter((d) => d.tag === 1).map((d) => d.default_value),
        ['FILLS-%COMP_ID%'],
      );
      assert.ok(forFills.find((d) => d.tag === 1)!.is_mandatory === false);
      const general = (await get<{ data: ClientFieldDefault[] }>(`/api/fix-client-defaults/${sgx}/8`)).body.data;
      assert.deepEqual(
        general.filter((d) => d.tag === 1).map((d) => d.default_value),
        ['%COMP_ID%'],
      );
      const forAccepts = (await get<{ data: ClientFieldDefault[] }>(`/api/fix-client-defaults/${sgx}/8?execType=0`)).body.data;
      assert.deepEqual(
        forAccepts.filter((d) => d.tag === 1).map((d) => d.default_value),
        ['%COMP_ID%'],
      );
      assert.equal((await call('DELETE', `/api/fix-client-defaults/${fill.body.data.default_id}`, admin)).status, 200);
    });

    it('previews the defaults with the variables resolved for the client', async () => {
      const r = await post<{ data: ClientDefaultsPreview }>('/api/fix-client-defaults/preview', {
        client_connector_id: sgx,
        msg_type: '8',
        exec_type: 'A',
      });
      assert.equal(r.status, 200, r.body.message);
      const p = r.body.data;
      assert.equal(p.client_connector.comp_id, 'SGX_CLIENT_1');
      assert.equal(p.variables.LEI, '549300STRAITS000SG15');
      assert.match(p.variables.TIMESTAMP!, /^\d{8}-\d{2}:\d{2}:\d{2}$/);
      const account = p.defaults.find((d) => d.tag === 1)!;
      assert.deepEqual([account.field_name, account.default_value, account.resolved_value], ['Account', '%COMP_ID%', 'SGX_CLIENT_1']);
      assert.deepEqual(
        p.groups[0]!.instances.map((i) => i.fields.map((f) => f.resolved_value).join('|')),
        ['549300STRAITS000SG15|D|7', 'Mei Lin Tan|D|11'],
      );
      assert.equal((await post('/api/fix-client-defaults/preview', { client_connector_id: 999999, msg_type: 'D' })).status, 404);
      const bad = await post('/api/fix-client-defaults/preview', { msg_type: 'D' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.field, 'client_connector_id');
    });

    it('shapes execution reports and cancel requests with the defaults as they are now', async () => {
      assert.equal((await call('POST', '/test-client/SGX_CLIENT_1/connect', broker, {})).status, 200);
      const month = contractMonthOptions(new Date())[2]!.value;
      // The FIX Client's way: the builder takes the client's D defaults and groups from the API.
      const dDefaults = (await get<{ data: ClientFieldDefault[] }>(`/api/fix-client-defaults/${sgx}/D`)).body.data;
      const dGroups = (await get<{ data: ClientGroupDefaults[] }>(`/api/fix-client-defaults/${sgx}/D/groups`)).body.data;
      const groups: GroupDefault[] = dGroups.map((g) => ({
        countTag: g.group_field_number,
        instances: g.instances.map((i) => i.fields.map((f) => ({ tag: f.tag, value: f.default_value }))),
      }));
      const send = async (clOrdId: string) => {
        const built = buildNewOrderSingle(
          { symbol: 'C5TC', contractMonth: month, side: '1', quantity: 5, orderType: '2', price: 27000, clOrdId },
          { client: SGX, now: new Date(), defaults: dDefaults.map((d) => ({ tag: d.tag, value: d.default_value })), groups },
        );
        const r = await call<SendOrderResponse>('POST', '/test-client/SGX_CLIENT_1/send-order', broker, {
          fixMessage: serializeFixMessage(built.fields),
        });
        assert.equal(r.body.success, true, r.body.error ?? undefined);
      };
      const reportFor = (clOrdId: string) =>
        until(
          `the Pending New for ${clOrdId}`,
          async () => (await fixMessages(`clordid=${clOrdId}&msgType=8&direction=TX`))[0]?.raw_fix,
          15_000,
          50,
        );

      await send('DEF-1.1');
      let er = await reportFor('DEF-1.1');
      assert.deepEqual(fieldsOf(er, 1), ['SGX_CLIENT_1'], 'seeded Account %COMP_ID%');
      assert.deepEqual(fieldsOf(er, 448), ['549300STRAITS000SG15', 'Mei Lin Tan']);

      // The profile is cached after that report; a change through the API applies to the next one.
      const account = (await get<{ data: ClientFieldDefault[] }>(`/api/fix-client-defaults/${sgx}/8`)).body.data.find((d) => d.tag === 1)!;
      assert.equal(
        (await call('PUT', `/api/fix-client-defaults/${account.default_id}`, admin, { default_value: 'ACC-%EXECUTION_ID_PREFIX%' })).status,
        200,
      );
      const stamped = await post('/api/fix-client-defaults', {
        client_connector_id: sgx,
        msg_type: '8',
        exec_type: 'A',
        tag: 58,
        default_value: 'Received %TIMESTAMP%',
      });
      assert.equal(stamped.status, 200, stamped.body.message);
      const trader = dGroups[0]!.instances[1]!;
      assert.equal((await call('DELETE', `/api/fix-client-defaults/group/${sgx}/8/${partiesBlock}/2`, admin)).status, 200);
      assert.equal(
        (
          await post('/api/fix-client-defaults/group', {
            client_connector_id: sgx,
            msg_type: '8',
            component_block_id: partiesBlock,
            group_instance_number: 2,
            fields: [
              { tag: 448, default_value: 'Desk of %CLIENT_NAME%' },
              { tag: 447, default_value: 'D' },
              { tag: 452, default_value: '11' },
            ],
          })
        ).status,
        200,
      );
      await send('DEF-2.1');
      er = await reportFor('DEF-2.1');
      assert.deepEqual(fieldsOf(er, 1), ['ACC-SGX']);
      assert.match(fieldsOf(er, 58)[0] ?? '', /^Received \d{8}-\d{2}:\d{2}:\d{2}$/);
      assert.deepEqual(fieldsOf(er, 448), ['549300STRAITS000SG15', 'Desk of Straits Shipping Capital']);
      assert.equal(trader.fields[0]!.default_value, '%CONTACT_NAME%');

      // The simulated client's cancel request carries its F defaults: Text when none is typed.
      assert.equal(
        (
          await post('/api/fix-client-defaults', {
            client_connector_id: sgx,
            msg_type: 'F',
            tag: 58,
            default_value: 'Cancel from %CONTACT_NAME%',
          })
        ).status,
        200,
      );
      await until(
        'DEF-1.1 pending on the client',
        async () =>
          (
            await call<{ orders: Array<{ clordid: string; ordstatus: string | null }> }>('GET', '/test-client/SGX_CLIENT_1/orders', broker)
          ).body.orders?.find((o) => o.clordid === 'DEF-1.1' && o.ordstatus === 'A'),
        15_000,
        50,
      );
      const cancel = await call<SendOrderResponse>('POST', '/test-client/SGX_CLIENT_1/cancel-order', broker, { origClOrdId: 'DEF-1.1' });
      assert.equal(cancel.body.success, true, cancel.body.error ?? undefined);
      const f = await until(
        'the cancel request',
        async () => (await fixMessages(`clordid=${cancel.body.clOrdId}&msgType=F&direction=RX`))[0]?.raw_fix,
        15_000,
        50,
      );
      assert.deepEqual(fieldsOf(f, 58), ['Cancel from Mei Lin Tan']);
      assert.deepEqual(fieldsOf(f, 41), ['DEF-1.1']);
      await call('POST', '/test-client/SGX_CLIENT_1/disconnect', broker, {});
    });

    it('shapes intake refusals and order status answers with the client defaults too', async () => {
      const client = new TestFixClient('EEX_CLIENT_1');
      await client.connect(t.server.ctx.fix.port);
      try {
        const eex = (await get<{ data: Array<{ id: number; comp_id: string }> }>('/api/client-connectors')).body.data.find(
          (c) => c.comp_id === 'EEX_CLIENT_1',
        )!.id;
        const parties = (await get<{ data: ClientGroupDefaults[] }>(`/api/fix-client-defaults/${eex}/8/groups`)).body.data;
        const preview = (
          await post<{ data: ClientDefaultsPreview }>('/api/fix-client-defaults/preview', { client_connector_id: eex, msg_type: '8' })
        ).body.data!;
        // The PartyIDs (448) the client's report defaults resolve to, in order.
        const partyIds = preview.groups.flatMap((g) =>
          g.instances.flatMap((i) => i.fields.filter((f) => f.tag === 448).map((f) => f.resolved_value)),
        );
        assert.ok(parties.length > 0, 'EEX has Parties instances for its reports');
        const fieldsOfMessage = (m: { raw: string }, tag: number) => fieldsOf(m.raw, tag);

        // Refused at intake (unknown symbol): 150=8 with the client's Account and Parties.
        await client.send('D', newOrderSingle('REF-1', { symbol: 'NOSUCH' }));
        const refusal = await client.waitForReport('REF-1', (m) => m.get(150) === '8');
        assert.equal(refusal.get(39), '8');
        assert.equal(refusal.get(103), '1', 'unknown symbol');
        assert.deepEqual(fieldsOfMessage(refusal, 1), ['EEX_CLIENT_1'], 'Account %COMP_ID%');
        assert.ok(fieldsOfMessage(refusal, 448).length >= 1, `Parties on the refusal: ${refusal.raw}`);
        assert.deepEqual(fieldsOfMessage(refusal, 448), partyIds);

        // Status of an order we do not hold: ExecType I, OrdStatus 8, OrdRejReason 5, shaped as well.
        await client.send('H', [
          [11, 'NO-SUCH-ORDER'],
          [54, '2'],
          [55, 'C5TC'],
        ]);
        const unknown = await client.waitForReport('NO-SUCH-ORDER', (m) => m.get(150) === 'I');
        assert.equal(unknown.get(39), '8');
        assert.equal(unknown.get(103), '5');
        assert.equal(unknown.get(54), '2');
        assert.match(unknown.get(58) ?? '', /Unknown order/);
        assert.deepEqual(fieldsOfMessage(unknown, 1), ['EEX_CLIENT_1']);

        // Status of a live order: its state, shaped.
        await client.send('D', newOrderSingle('REF-2'));
        await client.waitForReport('REF-2', (m) => m.get(150) === 'A');
        await client.send('H', [
          [11, 'REF-2'],
          [54, '1'],
          [55, 'C5TC'],
        ]);
        const status = await client.waitForReport('REF-2', (m) => m.get(150) === 'I');
        assert.equal(status.get(39), 'A');
        assert.deepEqual(fieldsOfMessage(status, 1), ['EEX_CLIENT_1']);
        assert.deepEqual(fieldsOfMessage(status, 448), partyIds);
      } finally {
        await client.stop();
      }
    });
  });
}
