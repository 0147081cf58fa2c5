export type DatabaseKind = 'pglite' | 'postgres';
export interface HealthResponse {
  status: 'ok';
  database: DatabaseKind;
  version: string;
  uptimeSeconds: number;
}

/**
 * How a service is doing. `healthy`: working; `degraded`: working with a problem (slow, partly
 * unavailable); `down`: not working; `offline`: not running and not expected to be (a client's FIX
 * session while the client is logged off, the test clients while none runs).
 */
export type ServiceHealth = 'healthy' | 'degraded' | 'down' | 'offline';

/** One entry of the service status list (spec 001 §7 "Service status entry"). */
export interface ServiceStatusEntry {
  /** Unique, stable: `database`, `fix-acceptor`, `fix-session:{comp id}`, `api`, `test-clients`. */
  name: string;
  type: 'database' | 'fix-acceptor' | 'fix-session' | 'api' | 'simulator';
  description: string;
  /** The desk cannot trade without it. */
  critical: boolean;
  status: ServiceHealth;
  /** The last time it was seen working (ISO 8601), null when never. */
  lastHeartbeat: string | null;
  isConnected: boolean;
  /** Milliseconds since lastHeartbeat when the list was made (0 when never seen). */
  staleDuration: number;
  /** A FIX session's: connected, senderCompID, targetCompID, txSeqNum, rxSeqNum, sessionID. */
  metadata: Record<string, unknown>;
  /** The server node that reports it. */
  containerName: string;
}

/** GET /api/service-status */
export interface ServiceStatusResponse {
  data: { services: ServiceStatusEntry[]; lastUpdated: string };
}
