// The FIX specification: the page's document for every signed-in user, built from the
// configuration the engine enforces (the acceptor's real port, the connector's CompIDs and schedule);
// the password-protected client document for administrators only, validated by the shared schema,
// recorded (who, which client, when, which version) without the password; the versions and what
// changed between two of them; and the client's FIX Orchestra file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JSDOM } from 'jsdom';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { FixSpecChange, FixSpecDocument } from '@fixdesk/domain';
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
  });
}
