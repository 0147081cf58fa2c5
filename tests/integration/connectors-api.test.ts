import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { startTestServer, type TestServer } from '../support/server';

interface Connector {
  comp_id: string;
  execution_id_prefix: string;
  fix_password: string | null;
  tls_key: string | null;
  client_lei: string | null;
  lei: string | null;
  heartbeatint: number;
  start_time: string;
  whitelisted_ips: string | null;
  is_connected: boolean;
  tls_enabled: boolean;
}

for (const kind of TEST_DB_KINDS) {
  describe(`client connectors and reference reads on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    before(async () => {
      // A TLS port: a certificate is issued only where a TLS logon can use it.
      t = await startTestServer(kind, { fixTlsPort: 0 });
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
    });
    after(async () => {
      await t?.stop();
    });

    it('lists the demo connectors, hiding secrets from non-admins', async () => {
      await t.api('/api/client-connectors/SGX_CLIENT_1', { method: 'PUT', token: admin, json: { fix_password: 's3cret' } });
      const asViewer = (await (await t.api('/api/client-connectors', { token: viewer })).json()) as { success: boolean; data: Connector[] };
      assert.equal(asViewer.success, true);
      const sgx = asViewer.data.find((c) => c.comp_id === 'SGX_CLIENT_1');
      assert.ok(sgx, 'SGX_CLIENT_1 seeded');
      assert.equal(sgx.fix_password, null);
      assert.equal(sgx.is_connected, false);
      const asAdmin = (await (await t.api('/api/client-connectors/SGX_CLIENT_1', { token: admin })).json()) as { data: Connector };
      assert.equal(asAdmin.data.fix_password, 's3cret');
    });

    it('creates, updates and deletes a connector with the spec validations', async () => {
      const created = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: {
          comp_id: 'NEW_CLIENT',
          execution_id_prefix: 'nc1',
          lei: '5493001KJTIIGC8Y1R12',
          start_time: '08:30',
          whitelisted_ips: '10.0.0.1, 192.168.1.0/24',
        },
      });
      assert.equal(created.status, 200);
      const c = ((await created.json()) as { data: Connector }).data;
      assert.equal(c.execution_id_prefix, 'NC1');
      assert.equal(c.client_lei, '5493001KJTIIGC8Y1R12');
      assert.equal(c.lei, '5493001KJTIIGC8Y1R12');
      assert.equal(c.heartbeatint, 30);
      assert.equal(c.start_time, '08:30:00');
      assert.equal(c.whitelisted_ips, '10.0.0.1,192.168.1.0/24');

      const dup = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: { comp_id: 'NEW_CLIENT', execution_id_prefix: 'ZZ' },
      });
      assert.equal(dup.status, 409);
      const dupPrefix = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: { comp_id: 'OTHER', execution_id_prefix: 'NC1' },
      });
      assert.equal(dupPrefix.status, 409);
      assert.equal(((await dupPrefix.json()) as { field: string }).field, 'execution_id_prefix');

      const upd = await t.api('/api/client-connectors/NEW_CLIENT', {
        method: 'PUT',
        token: admin,
        json: { heartbeatint: 10, is_active: false },
      });
      assert.equal(upd.status, 200);
      assert.equal(((await upd.json()) as { data: Connector }).data.heartbeatint, 10);
      const prefixChange = await t.api('/api/client-connectors/NEW_CLIENT', {
        method: 'PUT',
        token: admin,
        json: { execution_id_prefix: 'XX' },
      });
      assert.equal(prefixChange.status, 400);
      assert.match(((await prefixChange.json()) as { message: string }).message, /fixed once the connector is created/);

      const del = await t.api('/api/client-connectors/NEW_CLIENT', { method: 'DELETE', token: admin });
      assert.equal(del.status, 200);
      assert.equal((await t.api('/api/client-connectors/NEW_CLIENT', { token: admin })).status, 404);
    });

    it('answers invalid connector input with the field and reason', async () => {
      const cases: [unknown, string, RegExp][] = [
        [{ execution_id_prefix: 'A' }, 'comp_id', /Component ID is required/],
        [{ comp_id: 'X1' }, 'execution_id_prefix', /Execution ID prefix is required/],
        [{ comp_id: 'X1', execution_id_prefix: 'ABCD' }, 'execution_id_prefix', /at most 3/],
        [{ comp_id: 'X1', execution_id_prefix: 'AB', lei: 'x'.repeat(21) }, 'lei', /20-character LEI/],
        [{ comp_id: 'X1', execution_id_prefix: 'AB', client_lei: '549300STRAITS000SG01' }, 'client_lei', /check digits/],
        [{ comp_id: 'X1', execution_id_prefix: 'AB', heartbeatint: 'often' }, 'heartbeatint', /./],
        [{ comp_id: 'X1', execution_id_prefix: 'AB', timezone: 'Mars/Olympus' }, 'timezone', /IANA/],
        [{ comp_id: 'X1', execution_id_prefix: 'AB', reset_frequency: 'HOURLY' }, 'reset_frequency', /./],
        [{ comp_id: 'X1', execution_id_prefix: 'AB', whitelisted_ips: 'not an ip' }, 'whitelisted_ips', /IP addresses/],
        [{ comp_id: 'X1', execution_id_prefix: 'AB', bogus: 1 }, 'bogus', /unknown field/],
      ];
      for (const [json, field, reason] of cases) {
        const r = await t.api('/api/client-connectors', { method: 'POST', token: admin, json });
        assert.equal(r.status, 400, JSON.stringify(json));
        const body = (await r.json()) as { field: string; message: string };
        assert.equal(body.field, field, JSON.stringify(body));
        assert.match(body.message, reason);
      }
    });

    it('ignores the certificate columns in a connector write, as every read-only field: only generate-certs sets them', async () => {
      const forged = '-----BEGIN CERTIFICATE-----\nMIIBforgedNotIssuedByTheDeskCA\n-----END CERTIFICATE-----\n';
      const forgedKey = '-----BEGIN PRIVATE KEY-----\nMC4CAQforged\n-----END PRIVATE KEY-----\n';
      const tlsEcho = { tls_cert: forged, tls_key: forgedKey, tls_ca: forged, tls_enabled: true };
      const read = async (compId: string) =>
        (
          (await (await t.api(`/api/client-connectors/${compId}`, { token: admin })).json()) as {
            data: Connector & { tls_cert: string | null; tls_ca: string | null };
          }
        ).data;

      const created = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: { comp_id: 'TLS_ECHO', execution_id_prefix: 'TE1', ...tlsEcho },
      });
      assert.equal(created.status, 200, await created.text());
      let c = await read('TLS_ECHO');
      assert.deepEqual([c.tls_cert, c.tls_key, c.tls_ca, c.tls_enabled], [null, null, null, false], 'a create does not take a certificate');

      const put = await t.api('/api/client-connectors/TLS_ECHO', {
        method: 'PUT',
        token: admin,
        json: { notes: 'echoed the read back', ...tlsEcho },
      });
      assert.equal(put.status, 200, await put.text());
      c = await read('TLS_ECHO');
      assert.equal(c.tls_enabled, false, 'a PUT does not turn TLS on');
      assert.equal(c.tls_cert, null);
      assert.equal(c.tls_key, null);

      // Once the desk's CA has issued one, a PUT echoing other PEM text leaves the issued certificate as it is.
      const issued = await t.api('/api/client-connectors/TLS_ECHO/generate-certs', {
        method: 'POST',
        token: admin,
        json: { commonName: 'tls-echo.example', country: 'US' },
      });
      assert.equal(issued.status, 200, await issued.text());
      const before = await read('TLS_ECHO');
      assert.match(before.tls_cert ?? '', /^-----BEGIN CERTIFICATE-----/);
      const again = await t.api('/api/client-connectors/TLS_ECHO', {
        method: 'PUT',
        token: admin,
        json: { ...tlsEcho, tls_cert: null, tls_key: null },
      });
      assert.equal(again.status, 200, await again.text());
      const after = await read('TLS_ECHO');
      assert.deepEqual(
        [after.tls_cert, after.tls_key, after.tls_ca, after.tls_enabled],
        [before.tls_cert, before.tls_key, before.tls_ca, true],
      );
      assert.equal((await t.api('/api/client-connectors/TLS_ECHO', { method: 'DELETE', token: admin })).status, 200);
    });

    it('lets only administrators write connectors', async () => {
      for (const token of [broker, viewer]) {
        const r = await t.api('/api/client-connectors', { method: 'POST', token, json: { comp_id: 'NOPE', execution_id_prefix: 'NP' } });
        assert.equal(r.status, 403);
        const d = await t.api('/api/client-connectors/SGX_CLIENT_1', { method: 'DELETE', token });
        assert.equal(d.status, 403);
      }
      assert.equal((await t.api('/api/client-connectors')).status, 401);
    });

    it('serves the reference reads the screens load', async () => {
      const get = async (path: string) => {
        const r = await t.api(path, { token: viewer });
        assert.equal(r.status, 200, path);
        return ((await r.json()) as { data: unknown }).data;
      };
      const securities = (await get('/api/security-master')) as { symbol: string; price_tick_size: string }[];
      for (const s of ['C5TC', 'P4TC', 'S10TC', 'C3', 'C5', 'C7'])
        assert.ok(
          securities.some((x) => x.symbol === s),
          s,
        );
      assert.equal(securities.find((s) => s.symbol === 'C5TC')!.price_tick_size, '1');
      assert.equal(securities.find((s) => s.symbol === 'C3')!.price_tick_size, '0.01');

      const fields = (await get('/api/fix-fields')) as { field_number: number; field_name: string }[];
      assert.ok(fields.length > 900);
      assert.equal(fields.find((f) => f.field_number === 35)!.field_name, 'MsgType');
      const enums = (await get('/api/fix-enums?field_number=54')) as { enum_value: string; description: string }[];
      assert.ok(enums.some((e) => e.enum_value === '1' && e.description === 'BUY'));
      const groups = (await get('/api/repeating-group-fields')) as Record<string, { field_number: number }[]>;
      assert.deepEqual(
        groups['453']!.slice(0, 3).map((f) => f.field_number),
        [448, 447, 452],
      );
      const specs = (await get('/api/fix-message-specs/8?execType=F')) as { field_number: number; is_mandatory: boolean }[];
      assert.ok(specs.some((s) => s.field_number === 32 && s.is_mandatory));
      const brokers = (await get('/api/broker-information')) as { company_name: string }[];
      assert.equal(brokers.length, 1);
      assert.deepEqual(await get('/api/trade-history/latest-prices'), []);

      const badType = await t.api('/api/fix-message-specs/!!', { token: viewer });
      assert.equal(badType.status, 400);
      const unknownQuery = await t.api('/api/security-master?limit=5', { token: viewer });
      assert.equal(unknownQuery.status, 400);
    });
  });
}
