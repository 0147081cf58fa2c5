import type { Db, Queryable } from './db';
import {
  DEMO_SECURITIES,
  DEMO_BROKER,
  DEMO_CONNECTORS,
  SERVICES,
  MESSAGE_SPECS,
  PARTY_DEFAULTS,
  PARTY_DEFAULT_MSG_TYPES,
  FIELD_DEFAULTS,
} from './seed-data';
import { seedDictionary, type DictionaryData } from './seed-dictionary';

export interface SeedUser {
  username: string;
  role: 'admin' | 'broker' | 'viewer';
  password: string;
  first_name: string;
  last_name: string;
  email: string;
}

export interface SeedOptions {
  dictionary: DictionaryData;
  /** The demo users to create when the users table is empty (passwords in clear, hashed here). */
  users: SeedUser[];
  hashPassword: (password: string) => Promise<string>;
}

export interface SeedReport {
  dictionary: boolean;
  demo: boolean;
  usersCreated: string[];
}

/**
 * First-start seeding. Each part runs once: the dictionary when fix_fields is empty, the demo
 * reference data when the database has never been seeded, and the demo users when no user exists
 * (so an administrator who deletes a demo user does not see it come back).
 */
export async function seed(db: Db, opts: SeedOptions): Promise<SeedReport> {
  const report: SeedReport = { dictionary: false, demo: false, usersCreated: [] };
  // Hash outside the transaction (argon2 is deliberately slow), and only when there are no users yet:
  // every later start finds them and needs no hash.
  const existing = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  const hashed =
    existing.rows[0]!.n === 0 ? await Promise.all(opts.users.map(async (u) => ({ ...u, hash: await opts.hashPassword(u.password) }))) : [];
  await db.transaction(async (tx) => {
    // Serialise concurrent first starts of several nodes.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [7_301_105]);
    const fields = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM fix_fields');
    if (fields.rows[0]!.n === 0) {
      await seedDictionary(tx, opts.dictionary);
      report.dictionary = true;
    }
    const seeded = await tx.query("SELECT 1 FROM app_meta WHERE key = 'demo_seeded_at'");
    if (seeded.rows.length === 0) {
      await seedDemo(tx);
      await tx.query("INSERT INTO app_meta (key, value) VALUES ('demo_seeded_at', now()::text)");
      report.demo = true;
    }
    const users = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    if (users.rows[0]!.n === 0) {
      const broker = await tx.query<{ id: number }>('SELECT id FROM broker_information ORDER BY id LIMIT 1');
      for (const u of hashed) {
        const isBroker = u.role === 'broker';
        await tx.query(
          `INSERT INTO users (username, email, first_name, last_name, password_hash, role, user_type,
                              broker_branch_id, trader_id, trader_full_name, trader_party_id_source)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            u.username,
            u.email,
            u.first_name,
            u.last_name,
            u.hash,
            u.role,
            u.role === 'admin' ? 'admin' : 'broker',
            isBroker ? (broker.rows[0]?.id ?? null) : null,
            isBroker ? 'TRD-001' : null,
            isBroker ? `${u.first_name} ${u.last_name}` : null,
            isBroker ? 'PROPRIETARY' : null,
          ],
        );
        report.usersCreated.push(u.username);
      }
    }
  });
  return report;
}

async function seedDemo(tx: Queryable): Promise<void> {
  for (const s of DEMO_SECURITIES) {
    await tx.query(
      `INSERT INTO security_master (symbol, instrument_name, description, instrument_type, asset_class, price_tick_size,
                                    qty_tick_size, contract_size, contract_unit, series_months, currency, exchange, exchange_mics, trading_hours)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT DO NOTHING`,
      [
        s.symbol,
        s.instrument_name,
        s.description,
        s.instrument_type,
        s.asset_class,
        s.price_tick_size,
        s.qty_tick_size,
        s.contract_size,
        s.contract_unit,
        s.series_months,
        s.currency,
        s.exchange,
        s.exchange_mics,
        s.trading_hours,
      ],
    );
  }
  const b = DEMO_BROKER;
  const broker = await tx.query<{ id: number }>(
    `INSERT INTO broker_information (company_name, branch_type, address_line1, city, postal_code, country, lei, party_type,
                                     party_id, party_id_source, regulatory_id, notes)
     VALUES ($1, 'parent', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      b.company_name,
      b.address_line1,
      b.city,
      b.postal_code,
      b.country,
      b.lei,
      b.party_type,
      b.party_id,
      b.party_id_source,
      b.regulatory_id,
      b.notes,
    ],
  );
  const brokerId = broker.rows[0]!.id;
  for (const c of b.contacts) {
    await tx.query(
      `INSERT INTO broker_contacts (broker_id, contact_type, contact_name, title, email, phone_primary, is_primary)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [brokerId, c.contact_type, c.contact_name, c.title, c.email, c.phone_primary, c.is_primary],
    );
  }
  for (const c of DEMO_CONNECTORS) {
    const row = await tx.query<{ id: number }>(
      `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, broker_id, client_name, client_contact,
                                      client_email, client_phone, client_lei, company_website, company_name, test_port,
                                      host, heartbeatint, timezone, start_time, end_time, trading_days, reset_frequency,
                                      max_orders_per_second, notes, whitelisted_ips)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '127.0.0.1', 30, $13, '00:00:00', '23:59:59',
               'M,T,W,T,F,S,S', 'DAILY', 100, $14, '127.0.0.1,::1')
       RETURNING id`,
      [
        c.comp_id,
        c.execution_id_prefix,
        c.target_comp_id,
        brokerId,
        c.client_name,
        c.client_contact,
        c.client_email,
        c.client_phone,
        c.client_lei,
        c.company_website,
        c.company_name,
        c.test_port,
        c.timezone,
        c.notes,
      ],
    );
    const connectorId = row.rows[0]!.id;
    // "All securities" may be traded, both sides (short too: demo clients trade freely), up to 1,000 lots per order.
    await tx.query(
      `INSERT INTO client_capabilities (clientconnectors_id, asset_class, is_enabled, can_buy, can_sell, can_short, min_order_qty, max_order_qty)
       VALUES ($1, 'FUTURES', true, true, true, true, 1, 1000)`,
      [connectorId],
    );
    for (const d of FIELD_DEFAULTS) {
      await tx.query(
        'INSERT INTO fix_client_defaults (client_connector_id, msg_type, exec_type, tag, default_value, notes) VALUES ($1, $2, $3, $4, $5, $6)',
        [connectorId, d.msg_type, d.exec_type, d.tag, d.default_value, d.notes],
      );
    }
    await seedPartyDefaults(tx, connectorId);
  }
  for (const s of SERVICES) {
    await tx.query(
      `INSERT INTO service_registry (service_name, service_type, description, is_critical, stale_after_ms)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (service_name) DO NOTHING`,
      [s.name, s.type, s.description, s.critical, s.staleAfterMs],
    );
  }
  for (const spec of MESSAGE_SPECS) {
    let position = 1;
    for (const [field, mandatory] of spec.fields) {
      await tx.query(
        `INSERT INTO fix_message_specs (msg_type, msg_name, exec_type, field_number, field_position, is_mandatory)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [spec.msg_type, spec.msg_name, spec.exec_type, field, position++, mandatory],
      );
    }
  }
}

/**
 * Entering Firm (role 7) and Order Origination Trader (role 11): on every execution report we send, and
 * on the orders the client's FIX Client builds (D, AB).
 */
async function seedPartyDefaults(tx: Queryable, connectorId: number): Promise<void> {
  const block = await tx.query<{ id: number }>("SELECT id FROM component_blocks WHERE block_name = 'Parties'");
  const blockId = block.rows[0]?.id;
  if (blockId === undefined) return;
  for (const msgType of PARTY_DEFAULT_MSG_TYPES) {
    let instance = 1;
    for (const party of PARTY_DEFAULTS) {
      const row = await tx.query<{ id: number }>(
        `INSERT INTO fix_client_group_instances (client_connector_id, msg_type, exec_type, component_block_id, group_instance_number)
         VALUES ($1, $2, NULL, $3, $4) RETURNING id`,
        [connectorId, msgType, blockId, instance++],
      );
      for (const f of party.fields) {
        await tx.query('INSERT INTO fix_client_group_fields (instance_id, tag, default_value, notes) VALUES ($1, $2, $3, $4)', [
          row.rows[0]!.id,
          f.tag,
          f.default_value,
          party.name,
        ]);
      }
    }
  }
}
