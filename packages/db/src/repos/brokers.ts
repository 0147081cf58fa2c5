import type { Broker, BrokerContact } from '@fixdesk/protocol';
import type { Queryable } from '../db';

// Broker information and its contacts. The list read lives with the reference data
// (listBrokers); these are the administration's reads and writes.

/** A broker as SQL reads it (with its parent's name); `toBroker` makes it the API's `Broker`. */
type BrokerSqlRow = Omit<Broker, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

/** The one mapping of a broker row to the protocol's Broker (timestamps as ISO text). */
function toBroker(b: BrokerSqlRow): Broker {
  return { ...b, created_at: b.created_at.toISOString(), updated_at: b.updated_at.toISOString() };
}

const BROKER_COLUMNS = [
  'company_name',
  'branch_type',
  'parent_company_id',
  'address_line1',
  'address_line2',
  'city',
  'state_province',
  'postal_code',
  'country',
  'lei',
  'party_type',
  'party_id',
  'party_id_source',
  'clearing_firm_name',
  'clearing_firm_id',
  'regulatory_id',
  'is_active',
  'notes',
  'company_logo',
] as const;
export type BrokerWrite = Partial<Record<(typeof BROKER_COLUMNS)[number], unknown>>;

const CONTACT_COLUMNS = [
  'contact_type',
  'contact_name',
  'title',
  'department',
  'email',
  'phone_primary',
  'phone_mobile',
  'phone_direct',
  'is_primary',
  'is_emergency',
  'availability_hours',
  'timezone',
  'is_active',
  'notes',
] as const;
export type ContactWrite = Partial<Record<(typeof CONTACT_COLUMNS)[number], unknown>>;

/** A broker contact as SQL reads it; `toBrokerContact` makes it the API's `BrokerContact`. */
type BrokerContactSqlRow = Omit<BrokerContact, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

/** The one mapping of a contact row to the protocol's BrokerContact (timestamps as ISO text). */
function toBrokerContact(c: BrokerContactSqlRow): BrokerContact {
  return { ...c, created_at: c.created_at.toISOString(), updated_at: c.updated_at.toISOString() };
}

function given<K extends string>(columns: readonly K[], values: Partial<Record<K, unknown>>): K[] {
  return columns.filter((k) => values[k] !== undefined);
}

export async function getBrokerById(db: Queryable, id: number, opts: { lock?: boolean } = {}): Promise<Broker | undefined> {
  if (opts.lock) await db.query('SELECT 1 FROM broker_information WHERE id = $1 FOR UPDATE', [id]);
  const { rows } = await db.query<BrokerSqlRow>(
    `SELECT b.*, p.company_name AS parent_company_name
       FROM broker_information b LEFT JOIN broker_information p ON p.id = b.parent_company_id WHERE b.id = $1`,
    [id],
  );
  return rows[0] && toBroker(rows[0]);
}

export async function insertBroker(db: Queryable, values: BrokerWrite): Promise<Broker> {
  const cols = given(BROKER_COLUMNS, values);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO broker_information (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    cols.map((k) => values[k]),
  );
  return (await getBrokerById(db, rows[0]!.id))!;
}

export async function updateBroker(db: Queryable, id: number, values: BrokerWrite): Promise<Broker | undefined> {
  const cols = given(BROKER_COLUMNS, values);
  await db.query(
    `UPDATE broker_information SET ${[...cols.map((k, i) => `${k} = $${i + 2}`), 'updated_at = now()'].join(', ')} WHERE id = $1`,
    [id, ...cols.map((k) => values[k])],
  );
  return getBrokerById(db, id);
}

/** What still names a broker: its users, client connectors and branches (a delete would orphan them). */
export async function brokerReferences(db: Queryable, id: number): Promise<{ users: number; connectors: number; branches: number }> {
  const { rows } = await db.query<{ users: number; connectors: number; branches: number }>(
    `SELECT (SELECT count(*)::int FROM users WHERE broker_branch_id = $1) AS users,
            (SELECT count(*)::int FROM client_connectors WHERE broker_id = $1) AS connectors,
            (SELECT count(*)::int FROM broker_information WHERE parent_company_id = $1) AS branches`,
    [id],
  );
  return rows[0]!;
}

export async function deleteBroker(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM broker_information WHERE id = $1', [id]);
}

export async function listContacts(db: Queryable, brokerId: number): Promise<BrokerContact[]> {
  const { rows } = await db.query<BrokerContactSqlRow>(
    'SELECT * FROM broker_contacts WHERE broker_id = $1 ORDER BY is_primary DESC, contact_name, id',
    [brokerId],
  );
  return rows.map(toBrokerContact);
}

export async function getContact(db: Queryable, brokerId: number, contactId: number): Promise<BrokerContact | undefined> {
  const { rows } = await db.query<BrokerContactSqlRow>('SELECT * FROM broker_contacts WHERE broker_id = $1 AND id = $2', [
    brokerId,
    contactId,
  ]);
  return rows[0] && toBrokerContact(rows[0]);
}

export async function insertContact(db: Queryable, brokerId: number, values: ContactWrite): Promise<BrokerContact> {
  const cols = given(CONTACT_COLUMNS, values);
  const { rows } = await db.query<BrokerContactSqlRow>(
    `INSERT INTO broker_contacts (broker_id, ${cols.join(', ')}) VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING *`,
    [brokerId, ...cols.map((k) => values[k])],
  );
  return toBrokerContact(rows[0]!);
}

export async function updateContact(
  db: Queryable,
  brokerId: number,
  contactId: number,
  values: ContactWrite,
): Promise<BrokerContact | undefined> {
  const cols = given(CONTACT_COLUMNS, values);
  const { rows } = await db.query<BrokerContactSqlRow>(
    `UPDATE broker_contacts SET ${[...cols.map((k, i) => `${k} = $${i + 3}`), 'updated_at = now()'].join(', ')}
      WHERE broker_id = $1 AND id = $2 RETURNING *`,
    [brokerId, contactId, ...cols.map((k) => values[k])],
  );
  return rows[0] && toBrokerContact(rows[0]);
}

export async function deleteContact(db: Queryable, brokerId: number, contactId: number): Promise<boolean> {
  const r = await db.query('DELETE FROM broker_contacts WHERE broker_id = $1 AND id = $2', [brokerId, contactId]);
  return r.rowCount > 0;
}
