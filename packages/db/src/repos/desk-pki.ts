import type { Queryable } from '../db';

// The desk's certificate authority and the FIX acceptor's server certificate (kind 'ca' / 'server'),
// and the certificates issued to client connectors. Private keys are read only by the server itself.

export type PkiKind = 'ca' | 'server';

export interface PkiRow {
  kind: PkiKind;
  cert_pem: string;
  key_pem: string;
  fingerprint: string;
  expires_at: Date;
  created_at: Date;
}

export async function getPki(db: Queryable, kind: PkiKind): Promise<PkiRow | undefined> {
  const { rows } = await db.query<PkiRow>(
    'SELECT kind, cert_pem, key_pem, fingerprint, expires_at, created_at FROM desk_pki WHERE kind = $1',
    [kind],
  );
  return rows[0];
}

/**
 * Stores a CA or server certificate unless one is there already (two nodes racing both keep the first
 * one written); returns the row in force.
 */
export async function insertPkiOnce(db: Queryable, row: Omit<PkiRow, 'created_at'>): Promise<PkiRow> {
  await db.query(
    `INSERT INTO desk_pki (kind, cert_pem, key_pem, fingerprint, expires_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (kind) DO NOTHING`,
    [row.kind, row.cert_pem, row.key_pem, row.fingerprint, row.expires_at],
  );
  return (await getPki(db, row.kind))!;
}

/** Replaces the server certificate (renewal before it expires, or new host names). */
export async function replacePki(db: Queryable, row: Omit<PkiRow, 'created_at'>): Promise<void> {
  await db.query(
    `INSERT INTO desk_pki (kind, cert_pem, key_pem, fingerprint, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (kind) DO UPDATE SET cert_pem = EXCLUDED.cert_pem, key_pem = EXCLUDED.key_pem,
       fingerprint = EXCLUDED.fingerprint, expires_at = EXCLUDED.expires_at, created_at = now()`,
    [row.kind, row.cert_pem, row.key_pem, row.fingerprint, row.expires_at],
  );
}

export interface ConnectorCertificate {
  certPem: string;
  caPem: string;
  expiresAt: Date;
}

/**
 * Stores a connector's issued certificate and CA; false when the connector does not exist. The client's
 * private key is not kept: it is handed out once, when issued, and a key kept from an earlier
 * certificate is removed with it.
 */
export async function setConnectorCertificate(db: Queryable, compId: string, c: ConnectorCertificate): Promise<boolean> {
  const r = await db.query(
    `UPDATE client_connectors SET tls_cert = $2, tls_key = NULL, tls_ca = $3, tls_expires_at = $4, updated_at = now() WHERE comp_id = $1`,
    [compId, c.certPem, c.caPem, c.expiresAt],
  );
  return r.rowCount > 0;
}
