import type { Queryable } from '../db';

// The client FIX specification documents handed out: who generated which version for which
// client and when, and the document model each was rendered from. Never the password. Append-only.

export interface FixSpecDocumentRecord {
  connectorId: number;
  compId: string;
  version: number;
  clientName: string;
  clientContact: string;
  generatedBy: string;
  generatedByUserId: number | null;
  fileSha256: string;
  model: unknown;
}

export interface FixSpecDocumentRow {
  id: number;
  comp_id: string;
  version: number;
  client_name: string;
  client_contact: string;
  generated_by: string;
  generated_at: Date;
  file_sha256: string;
}

/** The version the next document for this client takes: one more than the last one handed out. */
export async function nextFixSpecVersion(db: Queryable, compId: string): Promise<number> {
  const { rows } = await db.query<{ next: number }>(
    'SELECT coalesce(max(version), 0) + 1 AS next FROM fix_spec_documents WHERE comp_id = $1',
    [compId],
  );
  return Number(rows[0]?.next ?? 1);
}

/**
 * Records a generated document. Two generations racing for the same version meet the (comp_id,
 * version) key: the second fails with a unique violation and the caller builds again with the next one.
 */
export async function insertFixSpecDocument(db: Queryable, d: FixSpecDocumentRecord): Promise<FixSpecDocumentRow> {
  const { rows } = await db.query<FixSpecDocumentRow>(
    `INSERT INTO fix_spec_documents (client_connector_id, comp_id, version, client_name, client_contact, generated_by, generated_by_user_id, file_sha256, model)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING id, comp_id, version, client_name, client_contact, generated_by, generated_at, file_sha256`,
    [
      d.connectorId,
      d.compId,
      d.version,
      d.clientName,
      d.clientContact,
      d.generatedBy,
      d.generatedByUserId,
      d.fileSha256,
      JSON.stringify(d.model),
    ],
  );
  return rows[0]!;
}

/** The documents generated for one client, newest first. */
export async function listFixSpecDocuments(db: Queryable, compId: string): Promise<FixSpecDocumentRow[]> {
  const { rows } = await db.query<FixSpecDocumentRow>(
    `SELECT id, comp_id, version, client_name, client_contact, generated_by, generated_at, file_sha256
       FROM fix_spec_documents WHERE comp_id = $1 ORDER BY version DESC`,
    [compId],
  );
  return rows;
}

/** The document model of one version (to compare two). */
export async function getFixSpecDocumentModel(db: Queryable, compId: string, version: number): Promise<unknown> {
  const { rows } = await db.query<{ model: unknown }>('SELECT model FROM fix_spec_documents WHERE comp_id = $1 AND version = $2', [
    compId,
    version,
  ]);
  const model = rows[0]?.model;
  // PGlite and node-postgres both parse jsonb; a driver handing back text is parsed here.
  return typeof model === 'string' ? (JSON.parse(model) as unknown) : model;
}
