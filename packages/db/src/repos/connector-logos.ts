import type { Queryable } from '../db';

/** A connector's logo as fetched from its logo_url: the image, or why the fetch was refused. */
export interface ConnectorLogoRow {
  connector_id: number;
  source_url: string;
  content_type: string | null;
  image: Buffer | null;
  sha256: string | null;
  problem: string | null;
  fetched_at: Date;
}

export type ConnectorLogoWrite =
  { sourceUrl: string; contentType: string; image: Uint8Array; sha256: string } | { sourceUrl: string; problem: string };

export async function getConnectorLogo(db: Queryable, connectorId: number): Promise<ConnectorLogoRow | undefined> {
  const { rows } = await db.query<ConnectorLogoRow>('SELECT * FROM client_connector_logos WHERE connector_id = $1', [connectorId]);
  const row = rows[0];
  // PGlite answers bytea as a Uint8Array, node-postgres as a Buffer.
  return row && { ...row, image: row.image ? Buffer.from(row.image) : null };
}

/** Keeps what the fetch of `sourceUrl` gave for the connector, replacing what an earlier URL gave. */
export async function saveConnectorLogo(db: Queryable, connectorId: number, logo: ConnectorLogoWrite): Promise<void> {
  const image = 'image' in logo ? logo : null;
  await db.query(
    `INSERT INTO client_connector_logos (connector_id, source_url, content_type, image, sha256, problem, fetched_at)
     VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (connector_id) DO UPDATE SET source_url = EXCLUDED.source_url, content_type = EXCLUDED.content_type,
       image = EXCLUDED.image, sha256 = EXCLUDED.sha256, problem = EXCLUDED.problem, fetched_at = EXCLUDED.fetched_at`,
    [
      connectorId,
      logo.sourceUrl,
      image?.contentType ?? null,
      image ? Buffer.from(image.image) : null,
      image?.sha256 ?? null,
      'problem' in logo ? logo.problem : null,
    ],
  );
}

export async function deleteConnectorLogo(db: Queryable, connectorId: number): Promise<void> {
  await db.query('DELETE FROM client_connector_logos WHERE connector_id = $1', [connectorId]);
}
