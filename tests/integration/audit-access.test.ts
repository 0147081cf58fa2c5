// Who looked at the compliance record: every export and every detail view of the audit
// screens is itself recorded (user, time, range, filter) and only administrators may read that log;
// the log is append-only like the record.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { startTestServer, type TestServer } from '../support/server';

interface Access {
  username: string;
  role: string;
  action: string;
  subject_id: number | null;
  range_start: string | null;
  range_end: string | null;
  filter: Record<string, string>;
  row_count: number | null;
}

for (const kind of TEST_DB_KINDS) {
  describe(`who looked at the audit record on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let viewer: string;
    before(async () => {
      t = await startTestServer(kind);
      [admin, viewer] = await Promise.all([t.login('admin'), t.login('viewer')]);
    });
    after(async () => {
      await t?.stop();
    });
    const log = async () => ((await (await t.api('/api/audit-access', { token: admin })).json()) as { data: Access[] }).data;

    it('records exports with their range and filter, and detail views with what was opened', async () => {
      const fx = await t.api('/api/fix-messages/export?start=2026-11-01&end=2026-11-25&ignoreHeartbeats=true', { token: viewer });
      assert.equal(fx.status, 200);
      const oa = await t.api('/api/order-actions/export?start=2026-11-01&end=2026-11-25', { token: viewer });
      assert.equal(oa.status, 200);
      // One stored message and one order action to open.
      const { rows: m } = await t.database.db.query<{ id: number }>(
        `INSERT INTO fix_messages (begin_string, sender_comp_id, target_comp_id, direction, msg_seq_num, msg_type, raw_fix)
         VALUES ('FIX.4.4', 'FIXDESK', 'SGX_CLIENT_1', 'TX', 1, '0', '8=FIX.4.4' || chr(1) || '9=5' || chr(1) || '35=0' || chr(1) || '10=000' || chr(1)) RETURNING id`,
      );
      const { rows: a } = await t.database.db.query<{ id: number }>(
        `INSERT INTO order_actions (brokerorderid, action_type, user_id, notes) VALUES ('B-1', 'ACCEPT', 'broker', 'looked at') RETURNING id`,
      );
      assert.equal((await t.api(`/api/fix-messages/${m[0]!.id}/parsed`, { token: viewer })).status, 200);
      const action = await t.api(`/api/order-actions/${a[0]!.id}`, { token: viewer });
      assert.equal(action.status, 200);
      assert.equal(((await action.json()) as { data: { notes: string } }).data.notes, 'looked at');
      // A list's read is a look too.
      assert.equal((await t.api('/api/order-actions?brokerorderid=B-1', { token: viewer })).status, 200);

      const entries = await log();
      const exportFx = entries.find((e) => e.action === 'export_fix_messages')!;
      assert.equal(exportFx.username, 'viewer');
      assert.equal(exportFx.role, 'viewer');
      assert.ok(exportFx.range_start && exportFx.range_end && exportFx.range_start < exportFx.range_end, JSON.stringify(exportFx));
      assert.equal(exportFx.filter.ignoreHeartbeats, 'true');
      assert.equal(typeof exportFx.row_count, 'number');
      assert.ok(entries.some((e) => e.action === 'export_order_actions' && e.username === 'viewer'));
      assert.ok(entries.some((e) => e.action === 'view_fix_message' && e.subject_id === m[0]!.id));
      assert.ok(entries.some((e) => e.action === 'view_order_action' && e.subject_id === a[0]!.id));
      assert.ok(
        entries.some(
          (e) => e.action === 'list_order_actions' && e.username === 'viewer' && e.filter.brokerorderid === 'B-1' && e.row_count === 1,
        ),
      );
      assert.equal(entries.filter((e) => /^(view|export|list)_/.test(e.action)).length, entries.length, 'nothing else recorded');
    });

    it('shows the log to administrators only, and keeps it append-only', async () => {
      assert.equal((await t.api('/api/audit-access', { token: viewer })).status, 403);
      assert.equal((await t.api('/api/audit-access', { token: await t.login('broker') })).status, 403);
      assert.equal((await t.api('/api/audit-access')).status, 401);
      await assert.rejects(t.database.db.query('DELETE FROM audit_access'), /append-only/);
      await assert.rejects(t.database.db.query(`UPDATE audit_access SET username = 'nobody'`), /append-only/);
    });

    it('refuses an export without its range, and records nothing for it', async () => {
      const before = (await log()).length;
      const r = await t.api('/api/order-actions/export?start=2026-11-01', { token: viewer });
      assert.equal(r.status, 400);
      assert.equal(((await r.json()) as { field?: string }).field, 'end');
      assert.equal((await log()).length, before);
    });
  });
}
