import type { Queryable } from '../db';

// Broker information and its contacts. The list read lives with the reference data
// (listBrokers); these are the administration's reads and writes.

export interface BrokerRow {
  id: number;
  company_name: string;
  branch_type: 'parent' | 'branch' | 'subsidiary';
  parent_company_id: number | null;
  parent_company_name: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state_province: string | null;
  postal_code: string | null;
  country: string | null;
  lei: string | null;
  party_type: number;
  party_id: string | null;
  party_id_source: 'BIC' | 'LEI' | 'PROPRIETARY' | 'MIC' | 'ISITC';
  clearing_firm_name: string | null;
  clearing_firm_id: string | null;
  regulatory_id: string | null;
  is_active: boolean;
  notes: string | null;
  company_logo: string | null;
  created_at: Date;
  updated_at: Date;
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

export interface BrokerContactRow {
  id: number;
  broker_id: number;
  contact_type: 'business' | 'trading_desk' | 'backoffice' | 'it_support';
  contact_name: string;
  title: string | null;
  department: string | null;
  email: string | null;
  phone_primary: string | null;
  phone_mobile: string | null;
  phone_direct: string | null;
  is_primary: boolean;
  is_emergency: boolean;
  availability_hours: string;
  timezone: string;
  is_active: boolean;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}

function given<K extends string>(columns: readonly K[], values: Partial<Record<K, unknown>>): K[] {
  return columns.filter((k) => values[k] !== undefined);
}

export async function getBrokerById(db: Queryable, id: number, opts: { lock?: boolean } = {}): Promise<BrokerRow | undefined> {
  if (opts.lock) await db.query('SELECT 1 FROM broker_information WHERE id = $1 FOR UPDATE', [id]);
  const { rows } = await db.query<BrokerRow>(
    `SELECT b.*, p.company_name AS parent_company_name
       FROM broker_information b LEFT JOIN broker_information p ON p.id = b.parent_company_id WHERE b.id = $1`,
    [id],
  );
  return rows[0];
}

export async function insertBroker(db: Queryable, values: BrokerWrite): Promise<BrokerRow> {
  const cols = given(BROKER_COLUMNS, values);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO broker_information (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    cols.map((k) => values[k]),
  );
  return (await getBrokerById(db, rows[0]!.id))!;
}

export async function updateBroker(db: Queryable, id: number, values: BrokerWrite): Promise<BrokerRow | undefined> {
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

export async function listContacts(db: Queryable, brokerId: number): Promise<BrokerContactRow[]> {
  const { rows } = await db.query<BrokerContactRow>(
    'SELECT * FROM broker_contacts WHERE broker_id = $1 ORDER BY is_primary DESC, contact_name, id',
    [brokerId],
  );
  return rows;
}

export async function getContact(db: Queryable, brokerId: number, contactId: number): Promise<BrokerContactRow | undefined> {
  const { rows } = await db.query<BrokerContactRow>('SELECT * FROM broker_contacts WHERE broker_id = $1 AND id = $2', [
    brokerId,
    contactId,
  ]);
  return rows[0];
}

export async function insertContact(db: Queryable, brokerId: number, values: ContactWrite): Promise<BrokerContactRow> {
  const cols = given(CONTACT_COLUMNS, values);
  const { rows } = await db.query<BrokerContactRow>(
    `INSERT INTO broker_contacts (broker_id, ${cols.join(', ')}) VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING *`,
    [brokerId, ...cols.map((k) => values[k])],
  );
  return rows[0]!;
}

export async function updateContact(
  db: Queryable,
  brokerId: number,
  contactId: number,
  values: ContactWrite,
): Promise<BrokerContactRow | undefined> {
  const cols = given(CONTACT_COLUMNS, values);
  const { rows } = await db.query<BrokerContactRow>(
    `UPDATE broker_contacts SET ${[...cols.map((k, i) => `${k} = $${i + 3}`), 'updated_at = now()'].join(', ')}
      WHERE broker_id = $1 AND id = $2 RETURNING *`,
    [brokerId, contactId, ...cols.map((k) => values[k])],
  );
  return rows[0];
}

export async function deleteContact(db: Queryable, brokerId: number, contactId: number): Promise<boolean> {
  const r = await db.query('DELETE FROM broker_contacts WHERE broker_id = $1 AND id = $2', [brokerId, contactId]);
  return r.rowCount > 0;
}
