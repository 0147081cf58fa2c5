// FIX message specifications and component blocks (spec 001 §5, §7, §8): admin-only writes
// checked against the FIX 4.4 dictionary, ExecType required for 8 and dropped for the others, system
// and header-type fields locked, duplicates refused, the change trail, and a new mandatory spec in force
// for the next execution report's outbound check.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { MessageSpecText, type ComponentBlock, type ComponentBlockField, type MessageSpec } from '@fixdesk/protocol';
import { startTestServer, type TestServer } from '../support/server';

type Json = Record<string, unknown>;
interface Answer<T = Json> {
  status: number;
  body: T & { success?: boolean; message?: string; error?: string; field?: string; data?: unknown };
}

for (const kind of TEST_DB_KINDS) {
  describe(`FIX message specs and component blocks API on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    const call = async <T = Json>(method: string, path: string, token: string | null, json?: unknown): Promise<Answer<T>> => {
      const r = await t.api(path, { method, ...(token ? { token } : {}), ...(json === undefined ? {} : { json }) });
      return { status: r.status, body: (await r.json()) as Answer<T>['body'] };
    };
    const specs = async (q = '') => (await call<{ data: MessageSpec[] }>('GET', `/api/fix-message-specs${q}`, viewer)).body.data;

    before(async () => {
      t = await startTestServer(kind);
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
    });
    after(async () => {
      await t?.stop();
    });

    it('reads for every signed-in user, writes for administrators only', async () => {
      assert.equal((await call('GET', '/api/fix-message-specs', null)).status, 401);
      assert.ok((await specs()).length > 20);
      assert.ok((await specs('?msg_type=8&exec_type=F')).every((s) => s.msg_type === '8' && s.exec_type === 'F'));
      const body = { msg_type: 'D', field_number: 1 };
      for (const token of [viewer, broker]) {
        assert.equal((await call('POST', '/api/fix-message-specs', token, body)).status, 403);
        assert.equal((await call('PUT', '/api/fix-message-specs/1', token, { is_mandatory: true })).status, 403);
        assert.equal((await call('DELETE', '/api/fix-message-specs/1', token)).status, 403);
      }
    });

    it('creates, updates and deletes a specification, checked against the dictionary', async () => {
      const bad: Array<[unknown, string, RegExp]> = [
        [{ msg_type: '8', field_number: 1 }, 'exec_type', /^ExecType is required for ExecutionReport specifications$/],
        [{ msg_type: 'ZZ', field_number: 1 }, 'msg_type', /not a FIX 4.4 message type/],
        [{ msg_type: 'D', field_number: 99_998 }, 'field_number', /not a FIX 4.4 field/],
        [{ msg_type: '0', field_number: 55 }, 'field_number', /Symbol \(55\) is not a field of Heartbeat \(0\)/],
        [{ msg_type: 'D', field_number: 1, field_name: 'Acct' }, 'field_name', /Field 1 is Account, not Acct/],
        [{ msg_type: 'D', field_number: 'one' }, 'field_number', /FIX tag number/],
        [{ msg_type: 'D', field_number: 1, field_position: 0 }, 'field_position', /at least 1/],
        [{ msg_type: '8', exec_type: 'Q', field_number: 1 }, 'exec_type', /not an ExecType/],
        [{ msg_type: 'D', field_number: 1, fix_version: '9.9' }, 'fix_version', /4.4/],
      ];
      for (const [json, field, reason] of bad) {
        const r = await call('POST', '/api/fix-message-specs', admin, json);
        assert.equal(r.status, 400, JSON.stringify(json));
        assert.equal(r.body.field, field, JSON.stringify(r.body));
        assert.match(r.body.error!, reason);
      }
      // ExecType is removed for other types; the name comes from the dictionary; data.id answers.
      const r = await call<{ data: MessageSpec }>('POST', '/api/fix-message-specs', admin, {
        msg_type: 'D',
        exec_type: '0',
        field_number: '1',
        field_position: '20',
        description: 'Client account',
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.message, MessageSpecText.created);
      assert.ok(r.body.data.id > 0);
      assert.equal(r.body.data.exec_type, null);
      assert.equal(r.body.data.msg_name, 'NewOrderSingle');
      assert.equal(r.body.data.field_name, 'Account');
      assert.equal(r.body.data.field_position, 20);
      assert.equal(r.body.data.fix_version, '4.4');
      const dup = await call('POST', '/api/fix-message-specs', admin, { msg_type: 'D', field_number: 1 });
      assert.equal(dup.status, 409);
      assert.match(dup.body.error!, /Account \(1\) is already specified for NewOrderSingle \(D\)/);

      const upd = await call<{ data: MessageSpec }>('PUT', `/api/fix-message-specs/${r.body.data.id}`, admin, {
        ...r.body.data,
        is_mandatory: true,
        description: 'Mandatory account',
      });
      assert.equal(upd.status, 200, JSON.stringify(upd.body));
      assert.equal(upd.body.message, MessageSpecText.updated);
      assert.equal(upd.body.data.is_mandatory, true);
      assert.equal(upd.body.data.field_position, 20, 'unchanged');
      const del = await call('DELETE', `/api/fix-message-specs/${r.body.data.id}`, admin);
      assert.equal(del.status, 200);
      assert.equal(del.body.message, MessageSpecText.deleted);
      assert.equal((await call('DELETE', `/api/fix-message-specs/${r.body.data.id}`, admin)).status, 404);
      const trail = await t.server.ctx.db.query<{ action: string; changed_by: string }>(
        "SELECT action, changed_by FROM reference_changes WHERE entity = 'fix_message_specs' AND entity_id = $1 ORDER BY id",
        [r.body.data.id],
      );
      assert.deepEqual(
        trail.rows.map((x) => `${x.action}:${x.changed_by}`),
        ['CREATE:admin', 'UPDATE:admin', 'DELETE:admin'],
      );
    });

    it('locks system-controlled fields and the position and deletion of header-type fields', async () => {
      const sys = await call<{ data: MessageSpec }>('POST', '/api/fix-message-specs', admin, {
        msg_type: '8',
        exec_type: 'I',
        field_number: 150,
        field_position: 1,
      });
      assert.equal(sys.status, 200, JSON.stringify(sys.body));
      const put = await call('PUT', `/api/fix-message-specs/${sys.body.data.id}`, admin, { is_mandatory: true });
      assert.equal(put.status, 409);
      assert.equal(put.body.error, 'ExecType (150) is system controlled: it cannot be edited or deleted');
      assert.equal((await call('DELETE', `/api/fix-message-specs/${sys.body.data.id}`, admin)).status, 409);

      const hdr = await call<{ data: MessageSpec }>('POST', '/api/fix-message-specs', admin, {
        msg_type: 'D',
        field_number: 49,
        field_position: 2,
      });
      assert.equal(hdr.status, 200, JSON.stringify(hdr.body));
      const id = hdr.body.data.id;
      const move = await call('PUT', `/api/fix-message-specs/${id}`, admin, { field_position: 5 });
      assert.equal(move.status, 409);
      assert.equal(move.body.error, 'SenderCompID (49) is a header-type field: its position is locked');
      assert.equal((await call('PUT', `/api/fix-message-specs/${id}`, admin, { field_number: 56 })).status, 409);
      const ok = await call<{ data: MessageSpec }>('PUT', `/api/fix-message-specs/${id}`, admin, { is_mandatory: true, field_position: 2 });
      assert.equal(ok.status, 200, 'other fields of a header-type spec may change');
      const del = await call('DELETE', `/api/fix-message-specs/${id}`, admin);
      assert.equal(del.status, 409);
      assert.equal(del.body.error, 'SenderCompID (49) is a header-type field: it cannot be deleted');
      // A spec may not be turned into a system-controlled field either.
      const other = await call<{ data: MessageSpec }>('POST', '/api/fix-message-specs', admin, { msg_type: 'D', field_number: 21 });
      assert.equal((await call('PUT', `/api/fix-message-specs/${other.body.data.id}`, admin, { field_number: 35 })).status, 409);
      // ExecType stays required when a spec moves to 8.
      const to8 = await call('PUT', `/api/fix-message-specs/${other.body.data.id}`, admin, { msg_type: '8' });
      assert.equal(to8.status, 400);
      assert.equal(to8.body.field, 'exec_type');
    });

    it('answers the component blocks of a message and the fields of a block', async () => {
      const blocks = await call<{ data: ComponentBlock[] }>('GET', '/api/component-blocks/by-message/D', viewer);
      assert.equal(blocks.status, 200);
      const parties = blocks.body.data.find((b) => b.block_name === 'Parties');
      assert.ok(parties, 'NewOrderSingle uses Parties');
      assert.equal(parties.group_field_number, 453);
      assert.ok(blocks.body.data.some((b) => b.block_name === 'Instrument'));
      const fields = await call<{ data: ComponentBlockField[] }>('GET', `/api/component-blocks/${parties.id}/fields`, viewer);
      assert.equal(fields.status, 200);
      assert.deepEqual(
        fields.body.data.slice(0, 4).map((f) => f.field_number),
        [453, 448, 447, 452],
      );
      assert.equal(fields.body.data[1]!.field_name, 'PartyID');
      assert.equal((await call('GET', '/api/component-blocks/by-message/ZZ', viewer)).status, 404);
      assert.equal((await call('GET', '/api/component-blocks/999999/fields', viewer)).status, 404);
      assert.equal((await call('GET', '/api/component-blocks/abc/fields', viewer)).status, 400);
      assert.equal((await call('GET', '/api/component-blocks/by-message/D', null)).status, 401);
    });

    it('puts a new mandatory field into the outbound check of the next report', async () => {
      const profiles = t.server.ctx.outbox as unknown as { invalidateProfiles(id?: number): void };
      let invalidated = 0;
      const original = profiles.invalidateProfiles.bind(profiles);
      profiles.invalidateProfiles = (id?: number) => {
        invalidated++;
        original(id);
      };
      try {
        const r = await call<{ data: MessageSpec }>('POST', '/api/fix-message-specs', admin, {
          msg_type: '8',
          exec_type: '0',
          field_number: 1,
          is_mandatory: true,
        });
        assert.equal(r.status, 200);
        assert.equal(invalidated, 1, 'client profiles (which hold the mandatory tags) are renewed');
      } finally {
        profiles.invalidateProfiles = original;
      }
    });
  });
}
