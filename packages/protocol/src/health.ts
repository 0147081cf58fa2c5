export type DatabaseKind = 'pglite' | 'postgres';
export interface HealthResponse {
  status: 'ok';
  database: DatabaseKind;
  version: string;
  uptimeSeconds: number;
}
