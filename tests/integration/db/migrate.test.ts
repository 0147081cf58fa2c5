import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrate, splitStatements } from '../../../packages/db/src/migrate';
import { MIGRATIONS } from '../../../packages/db/src/migrations';
import { createTestDatabase, TEST_DB_KINDS } from '@fixdesk/db/testing';

describe('splitStatements', () => {
  it('splits at top-level semicolons only', () => {
    const sql = `CREATE TABLE a (x text DEFAULT 'a;b'); -- c;d
      CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
      SELECT "we;ird" FROM a`;
    const parts = splitStatements(sql);
    assert.equal(parts.length, 3);
    assert.match(parts[0]!, /'a;b'\)$/);
    assert.match(parts[1]!, /\$\$ SELECT 1; \$\$ LANGUAGE sql$/);
  });
  it('drops comment-only tails', () => {
    assert.deepEqual(splitStatements('SELECT 1;\n-- the end\n'), ['SELECT 1']);
  });
});

for (const kind of TEST_DB_KINDS) {
  describe(`migrate on ${kind}`, () => {
    it('creates every table, records the version and is idempotent', async () => {
      const t = await createTestDatabase(kind, { migrate: false });
      try {
        const first = await migrate(t.db);
        assert.deepEqual(
          first.applied,
          MIGRATIONS.map((m) => m.version),
        );
        const again = await migrate(t.db);
        assert.deepEqual(again.applied, []);
        const { rows } = await t.db.query<{ table_name: string }>(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
        );
        const names = rows.map((r) => r.table_name);
        for (const table of [
          'orders',
          'order_legs',
          'order_parties',
          'execution_reports',
          'order_actions',
          'fix_messages',
          'fix_session_state',
          'security_master',
          'fix_fields',
          'fix_enums',
          'fix_message_specs',
          'component_blocks',
          'fix_client_defaults',
          'fix_client_group_instances',
          'client_connectors',
          'client_sessions',
          'client_capabilities',
          'users',
          'auth_sessions',
          'broker_information',
          'broker_contacts',
          'trade_history',
          'service_heartbeats',
        ]) {
          assert.ok(names.includes(table), `missing table ${table}`);
        }
      } finally {
        await t.dispose();
      }
    });

    it('refuses a shipped migration whose text changed', async () => {
      const t = await createTestDatabase(kind);
      try {
        const edited = MIGRATIONS.map((m) => ({ ...m, sql: `${m.sql}\n-- edited` }));
        await assert.rejects(migrate(t.db, edited), /was changed after it was applied/);
      } finally {
        await t.dispose();
      }
    });

    it('keeps numeric values exact and int8 as numbers', async () => {
      const t = await createTestDatabase(kind);
      try {
        const { rows } = await t.db.query<{ a: number; b: string }>('SELECT 9007199254740991::int8 AS a, 0.1::numeric + 0.2::numeric AS b');
        assert.equal(rows[0]!.a, 9007199254740991);
        assert.equal(rows[0]!.b, '0.3');
      } finally {
        await t.dispose();
      }
    });

    it('enforces one ClOrdID per client and session day', async () => {
      const t = await createTestDatabase(kind);
      try {
        const c = await t.db.query<{ id: number }>(
          "INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id) VALUES ('C1', 'C1', 'FIXDESK') RETURNING id",
        );
        const insert = (brokerId: string, day: string) =>
          t.db.query(
            `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type,
                                 symbol, side, ordtype, orderqty, leavesqty, transacttime)
             VALUES ($1, 'ORD-1', $2, 'C1', 'FIXDESK', $3, 'D', 'C5TC', '1', '1', 10, 10, now())`,
            [brokerId, c.rows[0]!.id, day],
          );
        await insert('B1', '2026-11-20');
        await insert('B2', '2026-11-21');
        await assert.rejects(insert('B3', '2026-11-21'), /orders_clordid_per_day_key|duplicate key/);
      } finally {
        await t.dispose();
      }
    });

    it('rolls back a failed transaction', async () => {
      const t = await createTestDatabase(kind);
      try {
        await assert.rejects(
          t.db.transaction(async (tx) => {
            await tx.query("INSERT INTO app_meta (key, value) VALUES ('k', 'v')");
            throw new Error('boom');
          }),
          /boom/,
        );
        const { rows } = await t.db.query("SELECT * FROM app_meta WHERE key = 'k'");
        assert.equal(rows.length, 0);
      } finally {
        await t.dispose();
      }
    });
  });
}
