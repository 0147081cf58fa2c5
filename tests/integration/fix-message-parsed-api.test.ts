// The FIX Messages screen's detail view (spec 000 §2 "FIX Messages audit screen"): GET
// /api/fix-messages/:id/parsed reads a stored message with the engine's FIX 4.4 dictionary.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import type { FixMessageRecord, ParsedFixMessage } from '@fixdesk/protocol';
import { newOrderSingle, TestFixClient } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

for (const kind of TEST_DB_KINDS) {
  describe(`parsed FIX message API on ${kind}`, () => {
    let t: TestServer;
    let viewer: string;
    let client: TestFixClient;

    before(async () => {
      t = await startTestServer(kind);
      viewer = await t.login('viewer');
      client = new TestFixClient('SGX_CLIENT_1');
      await client.connect(t.server.ctx.fix.port);
      await client.send('D', newOrderSingle('PARSE-1'));
      await client.waitForReport('PARSE-1', (m) => m.get(150) === 'A');
    });
    after(async () => {
      await client?.stop();
      await t?.stop();
    });

    const messages = async (query: string) => {
      const r = await t.api(`/api/fix-messages?${query}`, { token: viewer });
      return ((await r.json()) as { messages: FixMessageRecord[] }).messages;
    };
    const parsed = async (id: number | string) => t.api(`/api/fix-messages/${id}/parsed`, { token: viewer });

    it("lists a client's order with the dictionary's names, types, sections, required flags and party labels", async () => {
      const d = (await messages('clordid=PARSE-1')).find((m) => m.msgtype === 'D')!;
      const r = await parsed(d.id);
      assert.equal(r.status, 200);
      const body = (await r.json()) as { success: boolean; data: ParsedFixMessage };
      assert.equal(body.success, true);
      const p = body.data;
      assert.equal(p.id, d.id);
      assert.equal(p.msgType, 'D');
      assert.equal(p.msgName, 'NewOrderSingle');
      assert.equal(p.problem, null);
      // Every field of the raw text, in wire order.
      const wire = d.raw_fix
        .split('\x01')
        .filter(Boolean)
        .map((kv) => Number(kv.slice(0, kv.indexOf('='))));
      assert.deepEqual(
        p.fields.map((f) => f.tag),
        wire,
      );
      const f = (tag: number) => p.fields.find((x) => x.tag === tag)!;
      assert.deepEqual([f(8).section, f(49).section, f(11).section, f(10).section], ['header', 'header', 'body', 'trailer']);
      assert.deepEqual([f(11).name, f(11).type, f(11).required, f(11).value], ['ClOrdID', 'STRING', true, 'PARSE-1']);
      assert.equal(f(54).valueName, 'BUY');
      assert.match(f(54).validValues!, /1=BUY/);
      // Descriptions come from the FIX field specs (reference data).
      assert.equal(f(11).description, 'Cl Ord ID (STRING)');
      assert.deepEqual(f(448).groups, [{ countTag: 453, entry: 1, label: 'Party 1' }]);
      assert.deepEqual(f(453).groups, []);
    });

    it('reads our own execution report too', async () => {
      const report = (await messages('clordid=PARSE-1')).find((m) => m.msgtype === '8')!;
      const p = ((await (await parsed(report.id)).json()) as { data: ParsedFixMessage }).data;
      assert.equal(p.msgName, 'ExecutionReport');
      assert.equal(p.problem, null);
      assert.equal(p.fields.find((x) => x.tag === 150)!.valueName, 'PENDING_NEW');
    });

    it('answers 404 for an unknown id, 400 for a malformed one and 401 without a session', async () => {
      assert.equal((await parsed(999_999_999)).status, 404);
      assert.equal((await parsed('abc')).status, 400);
      assert.equal((await parsed(0)).status, 400);
      assert.equal((await parsed('1e400')).status, 400);
      assert.equal((await t.api('/api/fix-messages/1/parsed')).status, 401);
    });
  });
}
