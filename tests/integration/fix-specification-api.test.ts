// The FIX specification: the page's document for every signed-in user, built from the
// configuration the engine enforces (the acceptor's real port, the connector's CompIDs and schedule);
// the password-protected client document for administrators only, validated by the shared schema,
// recorded (who, which client, when, which version) without the password; the versions and what
// changed between two of them; and the client's FIX Orchestra file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JSDOM } from 'jsdom';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { describeFixSpecChange, type FixSpecChange, type FixSpecDocument } from '@fixdesk/domain';
import type { FixSpecVersion } from '@fixdesk/protocol';
import { decryptDocument, type EncryptedPayload } from '../../apps/server/src/fix-spec/encrypted-document';
import { startTestServer, type TestServer } from '../support/server';

const COMP = 'SGX_CLIENT_1';
const PASSWORD = 'Tq4#hN7xWc9!';

const payloadOf = (html: string): EncryptedPayload =>
  JSON.parse(/<script id="payload" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as EncryptedPayload;

for (const kind of TEST_DB_KINDS) {
  describe(`FIX specification API on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    const body = (over: Record<string, unknown> = {}) => ({
      clientName: 'SGX Client One',
      senderCompId: COMP,
      targetCompId: 'FIXDESK',
      clientContact: 'Jane Trader',
      password: PASSWORD,
      includeTabs: { aboutFFA: true, orderGeneration: true, tradeLifecycle: true, sessionInfo: true },
      ...over,
    });
    const generate = (token: string | undefined, json: unknown) =>
      t.api('/api/generate-client-fix-spec', { method: 'POST', ...(token ? { token } : {}), json });

    before(async () => {
      t = await startTestServer(kind);
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
    });
    after(async () => {
      await t?.stop();
    });

    it("gives every signed-in user the page's document from the live configuration", async () => {
      assert.equal((await t.api('/api/fix-specification')).status, 401);
      const r = await t.api('/api/fix-specification', { token: viewer });
      assert.equal(r.status, 200);
      const doc = ((await r.json()) as { data: FixSpecDocument }).data;
      assert.equal(doc.client.compId, COMP, 'SGX_CLIENT_1 by default');
      assert.equal(doc.session.senderCompId, COMP);
      assert.equal(doc.session.targetCompId, 'FIXDESK');
      assert.equal(doc.session.port, t.server.ctx.fix.port, "the acceptor's real port");
      assert.equal(doc.session.fixVersion, 'FIX.4.4');
      assert.ok(Array.isArray(doc.capabilities) && doc.capabilities.length > 0, "a viewer sees the client's limits (docs/adr/0014)");
      assert.deepEqual(doc.contracts.filter((c) => ['C5TC', 'P4TC', 'S10TC', 'C3', 'C5', 'C7'].includes(c.symbol)).length, 6);
      const c5tc = doc.contracts.find((c) => c.symbol === 'C5TC')!;
      assert.equal(c5tc.seriesMonths, 84);
      const d = doc.messages.find((m) => m.msgType === 'D')!;
      assert.equal(d.direction, 'in');
      assert.equal(d.fields.find((f) => f.tag === 54)!.validValues, '1=Buy, 2=Sell');
      assert.ok(d.fields.find((f) => f.tag === 11)!.required);
      const report = doc.messages.find((m) => m.msgType === '8' && m.execType === '0')!;
      assert.equal(report.fields.find((f) => f.tag === 1)?.clientDefault, COMP, 'Account default %COMP_ID% resolved');
      assert.ok(doc.examples.length === 3 && doc.examples[0]!.fix.includes(`49=${COMP}|`) && doc.examples[0]!.fix.includes('35=D|'));
      assert.deepEqual(
        doc.session.header.slice(0, 3).map((f) => f.tag),
        [8, 9, 35],
      );
      assert.ok(doc.session.trailer.some((f) => f.tag === 10));

      const other = (await (await t.api('/api/fix-specification?compId=EEX_CLIENT_1', { token: admin })).json()) as {
        data: FixSpecDocument;
      };
      assert.equal(other.data.client.compId, 'EEX_CLIENT_1');
      assert.ok(Array.isArray(other.data.capabilities), 'an administrator sees them too');
      assert.equal((await t.api('/api/fix-specification?compId=NOPE', { token: viewer })).status, 404);
      assert.equal((await t.api('/api/fix-specification?bogus=1', { token: viewer })).status, 400);
    });

    it('lets only administrators generate, with a validated body', async () => {
      assert.equal((await generate(undefined, body())).status, 401);
      for (const token of [broker, viewer]) assert.equal((await generate(token, body())).status, 403);
      const short = await generate(admin, body({ password: 'short' }));
      assert.equal(short.status, 400);
      assert.match(((await short.json()) as { message: string }).message, /Password must be at least 8 characters long/);
      const missing = await generate(admin, body({ clientContact: '' }));
      assert.equal(missing.status, 400);
      assert.match(((await missing.json()) as { message: string }).message, /Please fill in all required fields/);
      assert.equal((await generate(admin, body({ extra: 1 }))).status, 400);
      assert.equal(
        (await generate(admin, body({ includeTabs: { aboutFFA: false, orderGeneration: true, tradeLifecycle: true, sessionInfo: true } })))
          .status,
        400,
      );
      assert.equal((await generate(admin, body({ senderCompId: 'NOPE' }))).status, 404);
      assert.equal((await generate(admin, body({ targetCompId: 'OTHER' }))).status, 400);
      const { rows } = await t.server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM fix_spec_documents');
      assert.equal(rows[0]!.n, 0, 'nothing recorded for refused calls');
    });

    it('returns one encrypted HTML file, records the generation without the password, versions and diffs it', async () => {
      const r = await generate(admin, body());
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /text\/html/);
      assert.match(
        r.headers.get('content-disposition') ?? '',
        /attachment; filename="FIX_Specification_SGX_CLIENT_1_v1_\d{4}-\d{2}-\d{2}\.html"/,
      );
      assert.equal(r.headers.get('x-fix-spec-version'), '1');
      const html = await r.text();
      assert.ok(!html.includes(COMP) && !html.includes(PASSWORD), 'the file shows neither the client nor the password');
      const payload = payloadOf(html);
      assert.ok(payload.iterations >= 600_000);
      assert.equal(await decryptDocument(payload, 'wrong-password'), null);
      const plain = (await decryptDocument(payload, PASSWORD))!;
      assert.ok(plain.includes(COMP) && plain.includes('SGX Client One') && plain.includes('Jane Trader'));
      for (const tab of ['About FFA Futures', 'Order Generation', 'Trade Lifecycle', 'Session Information'])
        assert.ok(plain.includes(tab), tab);
      assert.ok(plain.includes(String(t.server.ctx.fix.port)));

      const { rows } = await t.server.ctx.db.query<{
        comp_id: string;
        version: number;
        generated_by: string;
        client_name: string;
        model: unknown;
        file_sha256: string;
        generated_at: Date;
      }>('SELECT comp_id, version, generated_by, client_name, model::text AS model, file_sha256, generated_at FROM fix_spec_documents');
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.comp_id, COMP);
      assert.equal(rows[0]!.version, 1);
      assert.equal(rows[0]!.generated_by, 'admin');
      assert.equal(rows[0]!.client_name, 'SGX Client One');
      assert.ok(!String(rows[0]!.model).includes(PASSWORD), 'no password stored');
      assert.match(rows[0]!.file_sha256, /^[0-9a-f]{64}$/);

      // A second version after the schedule changed: the diff says so.
      await t.server.ctx.db.query("UPDATE client_connectors SET end_time = '18:30:00' WHERE comp_id = $1", [COMP]);
      const second = await generate(admin, body());
      assert.equal(second.headers.get('x-fix-spec-version'), '2');
      await second.text();
      const versions = (await (await t.api(`/api/client-connectors/${COMP}/fix-spec-versions`, { token: admin })).json()) as {
        data: FixSpecVersion[];
      };
      assert.deepEqual(
        versions.data.map((v) => v.version),
        [2, 1],
      );
      assert.equal(versions.data[0]!.generatedBy, 'admin');
      assert.equal((await t.api(`/api/client-connectors/${COMP}/fix-spec-versions`, { token: broker })).status, 403);
      const diff = (await (await t.api(`/api/client-connectors/${COMP}/fix-spec-versions/diff?from=1&to=2`, { token: admin })).json()) as {
        data: { changes: FixSpecChange[] };
      };
      assert.ok(
        diff.data.changes.some((c) => c.kind === 'scheduleChanged' && c.item === 'endTime' && c.after === '18:30:00'),
        JSON.stringify(diff.data.changes),
      );
      assert.equal((await t.api(`/api/client-connectors/${COMP}/fix-spec-versions/diff?from=1&to=9`, { token: admin })).status, 404);
      assert.equal((await t.api(`/api/client-connectors/${COMP}/fix-spec-versions/diff?from=x&to=2`, { token: admin })).status, 400);
    });

    it("serves the client's FIX Orchestra file to administrators", async () => {
      assert.equal((await t.api(`/api/client-connectors/${COMP}/fix-orchestra`, { token: viewer })).status, 403);
      const r = await t.api(`/api/client-connectors/${COMP}/fix-orchestra`, { token: admin });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /application\/xml/);
      const xml = new JSDOM('').window.DOMParser
        ? new new JSDOM('').window.DOMParser().parseFromString(await r.text(), 'application/xml')
        : null;
      assert.ok(xml && xml.getElementsByTagName('parsererror').length === 0, 'well-formed');
      const ns = 'http://fixprotocol.io/2020/orchestra/repository';
      assert.equal(xml.documentElement.namespaceURI, ns);
      const d = [...xml.getElementsByTagNameNS(ns, 'message')].find((m) => m.getAttribute('msgType') === 'D')!;
      assert.ok(d, 'NewOrderSingle present');
      assert.ok(
        [...d.getElementsByTagNameNS(ns, 'fieldRef')].some(
          (f) => f.getAttribute('id') === '11' && f.getAttribute('presence') === 'required',
        ),
      );
      const side = [...xml.getElementsByTagNameNS(ns, 'codeSet')].find((c) => c.getAttribute('id') === '54')!;
      assert.deepEqual(
        [...side.getElementsByTagNameNS(ns, 'code')].map((c) => c.getAttribute('value')),
        ['1', '2'],
        'only the sides we accept',
      );
    });

    it('describes drop copy: the sessions a covered client is copied to, and a drop copy session its copies', async () => {
      const spec = async (compId: string, token = viewer) => {
        const r = await t.api(`/api/fix-specification?compId=${compId}`, { token });
        assert.equal(r.status, 200, compId);
        return ((await r.json()) as { data: FixSpecDocument }).data;
      };
      const connector = async (json: Record<string, unknown>) => {
        const r = await t.api('/api/client-connectors', { method: 'POST', token: admin, json });
        assert.equal(r.status, 200, JSON.stringify(await r.clone().json()));
      };
      assert.equal((await spec(COMP)).dropCopy, null, 'no drop copy session yet');
      // Version 1 of a client's document, stored as documents were before drop copy (no dropCopy field).
      const v1 = await generate(admin, body({ senderCompId: 'EEX_CLIENT_1', targetCompId: undefined }));
      assert.equal(v1.status, 200);
      const v1Number = Number(v1.headers.get('x-fix-spec-version'));
      await v1.text();
      await t.server.ctx.db.query(
        "UPDATE fix_spec_documents SET model = (model - 'dropCopy') || '{\"formatVersion\":1}'::jsonb WHERE comp_id = 'EEX_CLIENT_1' AND version = $1",
        [v1Number],
      );

      await connector({ comp_id: 'MO_DC', execution_id_prefix: 'MOD', session_type: 'drop_copy', drop_copy_of: [COMP] });
      await connector({ comp_id: 'BO_DC', execution_id_prefix: 'BOD', session_type: 'drop_copy' });
      await connector({ comp_id: 'OFF_DC', execution_id_prefix: 'OFD', session_type: 'drop_copy', drop_copy_of: [COMP], is_active: false });

      const client = await spec(COMP);
      assert.deepEqual(client.dropCopy, { role: 'copiedClient', sessions: ['BO_DC', 'MO_DC'] }, 'the active ones, by comp id');
      assert.equal(client.examples.length, 3, 'a covered client still trades: its examples');
      assert.ok(client.messages.some((m) => m.direction === 'in'));
      assert.ok(!client.messages.some((m) => m.fields.some((f) => f.tag === 797)), 'its own reports are not copies');
      assert.deepEqual((await spec('EEX_CLIENT_1')).dropCopy, { role: 'copiedClient', sessions: ['BO_DC'] }, 'every client: EEX too');

      const copies = await spec('BO_DC', admin);
      assert.deepEqual(copies.dropCopy, { role: 'dropCopySession', everyClient: true, clients: [] });
      assert.deepEqual(copies.examples, [], 'no order it could send');
      assert.equal(copies.capabilities, null, 'nothing to trade');
      assert.ok(copies.messages.length > 0 && copies.messages.every((m) => m.direction === 'out'), 'only the messages the desk sends it');
      const fill = copies.messages.find((m) => m.msgType === '8' && m.execType === 'F')!;
      const copyMsg = fill.fields.find((f) => f.tag === 797)!;
      assert.deepEqual([copyMsg.name, copyMsg.required, copyMsg.clientDefault], ['CopyMsgIndicator', true, 'Y']);
      assert.match(fill.fields.find((f) => f.tag === 453)!.description, /PartyRole \(452\) 3 Client ID/);
      const cxlRej = copies.messages.find((m) => m.msgType === '9')!;
      assert.equal(cxlRej.fields.find((f) => f.tag === 1)?.required, true, 'a copied 35=9 names the client in Account');
      assert.ok(
        copies.messages.every((m) => m.fields.every((f) => f.tag === 797 || f.clientDefault === null)),
        "no client's configured values: copies have the standard shape",
      );
      assert.deepEqual((await spec('MO_DC')).dropCopy, { role: 'dropCopySession', everyClient: false, clients: [COMP] });

      // Its Orchestra file describes the copies.
      const xml = await (await t.api('/api/client-connectors/BO_DC/fix-orchestra', { token: admin })).text();
      assert.match(xml, /<fixr:fieldRef id="797" presence="required">/);
      assert.doesNotMatch(xml, /msgType="D"/);

      // Its password-protected document, and a stored version of format 1 compared with a new one.
      const dc = await generate(admin, body({ senderCompId: 'BO_DC', clientName: 'Back office' }));
      assert.equal(dc.status, 200);
      const plain = (await decryptDocument(payloadOf(await dc.text()), PASSWORD))!;
      assert.match(plain, /BO_DC is a drop copy session: it receives copies of the reports we send every client/);
      assert.match(plain, /Drop copy session: application messages are not accepted/);
      const v2 = await generate(admin, body({ senderCompId: 'EEX_CLIENT_1', targetCompId: undefined }));
      const v2Number = Number(v2.headers.get('x-fix-spec-version'));
      const eex = (await decryptDocument(payloadOf(await v2.text()), PASSWORD))!;
      assert.match(eex, /Copies of the reports we send EEX_CLIENT_1 also go to the drop copy session BO_DC\./);
      const diff = (await (
        await t.api(`/api/client-connectors/EEX_CLIENT_1/fix-spec-versions/diff?from=${v1Number}&to=${v2Number}`, { token: admin })
      ).json()) as { data: { changes: FixSpecChange[] } };
      assert.deepEqual(diff.data.changes.filter((c) => c.kind === 'dropCopyChanged').map(describeFixSpecChange), [
        'Drop copy: copied to (none) → BO_DC',
      ]);
    });
  });
}
