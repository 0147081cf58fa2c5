// The compliance record's seals end to end on PostgreSQL: the running server seals the order actions
// and FIX messages an order produced; `npm run audit:verify` (the command an auditor runs, on the
// server's DATABASE_URL) finds the chains intact; after a row is changed with the triggers bypassed,
// as a database superuser could, it exits 1 naming the broken block.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { TestFixClient, newOrderSingle } from '../support/fix-client';
import { startTestServer, type TestServer } from '../support/server';

const root = new URL('../..', import.meta.url).pathname;

function verify(databaseUrl: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/audit-verify.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('audit:verify on a running desk (postgres)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer('postgres');
  });
  after(async () => {
    await t?.stop();
  });

  it('finds the chains intact, then names the block of a row changed around the triggers', async () => {
    const token = await t.login('broker');
    const client = new TestFixClient('SGX_CLIENT_1');
    try {
      await client.connect(t.server.ctx.fix.port);
      await client.send('D', newOrderSingle('AUD-1'));
      const ack = await client.waitForReport('AUD-1', (m) => m.get(150) === 'A');
      const r = await t.api(`/api/orders/${ack.get(37)}/accept`, { method: 'POST', token, json: { notes: 'checked' } });
      assert.equal(r.status, 200);
      await client.waitForReport('AUD-1', (m) => m.get(150) === '0');
    } finally {
      await client.stop();
    }
    // The server seals every second.
    // Both tables are sealed in their own pass, so wait for each (a loaded host can seal one a beat later).
    const sealed = async (table: string) =>
      (await t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_seals WHERE table_name = $1`, [table])).rows[0]!.n;
    for (const table of ['order_actions', 'fix_messages']) {
      for (let i = 0; i < 100 && (await sealed(table)) === 0; i++) await new Promise((res) => setTimeout(res, 100));
      assert.ok((await sealed(table)) > 0, `the ${table} rows were sealed`);
    }

    const intact = verify(t.database.url!);
    assert.equal(intact.status, 0, intact.out);
    assert.match(intact.out, /order_actions: chain intact, [1-9]\d* records/);
    assert.match(intact.out, /fix_messages: chain intact, [1-9][\d,]* records/);

    await t.database.db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(`UPDATE order_actions SET notes = 'nothing to see' WHERE notes = 'checked'`);
    });
    const broken = verify(t.database.url!);
    assert.equal(broken.status, 1, broken.out);
    assert.match(broken.out, /order_actions: BROKEN at block 1 \(ids \d+-\d+\): a row differs from what was sealed/);
  });
});
