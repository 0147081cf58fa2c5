/**
 * Service health rules (spec 001 §4 "Overall service health", §9 heartbeat and stale age), pure.
 *
 * A service's status is one of: healthy, degraded (working with a problem), stale (its last heartbeat
 * is older than it should be: nothing proves it works), down (not working), offline (not running and
 * not expected to be). On screen down and offline both read Offline; down is drawn as a fault.
 */
import type { ColourToken } from './format';

export type ServiceHealthStatus = 'healthy' | 'degraded' | 'stale' | 'down' | 'offline';

/** Heartbeats are every 15-30 s (spec 001 §9): a heartbeat older than two of the longest is stale. */
const SERVICE_STALE_AFTER_MS = 60_000;
/** The Service Status page reloads the list this often (spec 001 §9). */
export const SERVICE_STATUS_POLL_MS = 30_000;
/** A logged-on FIX session silent for longer than HeartBtInt times this has missed a heartbeat. */
const SESSION_SILENCE_FACTOR = 1.5;
/** A client expected in session and not logged on this long after its start time raises the alert. */
const SESSION_LATE_ALERT_MS = 5 * 60_000;

const SERVICE_HEALTH_LABELS: Readonly<Record<ServiceHealthStatus, string>> = {
  healthy: 'Healthy',
  degraded: 'Degraded',
  stale: 'Stale',
  down: 'Offline',
  offline: 'Offline',
};

export function serviceHealthLabel(status: string | null | undefined): string {
  return SERVICE_HEALTH_LABELS[status as ServiceHealthStatus] ?? (status || 'Unknown');
}

/** Healthy green, Degraded yellow, Stale orange, a fault (down) red, not running (offline) grey. */
export function serviceHealthColour(status: string | null | undefined): ColourToken {
  switch (status) {
    case 'healthy':
      return 'green';
    case 'degraded':
      return 'yellow';
    case 'stale':
      return 'orange';
    case 'down':
      return 'red';
    default:
      return 'grey';
  }
}

export type OverallHealthLevel = 'unknown' | 'operational' | 'partial' | 'major';

export interface OverallHealth {
  level: OverallHealthLevel;
  label: string;
  colour: ColourToken;
}

/**
 * The banner (spec 001 §4), from the critical services only: none critical → Unknown; every critical
 * one Healthy → All Systems Operational (green); none Healthy → Major Outage (red); otherwise Partial
 * Outage (yellow).
 */
export function overallHealth(services: ReadonlyArray<{ critical: boolean; status: string }>): OverallHealth {
  const critical = services.filter((s) => s.critical);
  if (critical.length === 0) return { level: 'unknown', label: 'Unknown', colour: 'grey' };
  const healthy = critical.filter((s) => s.status === 'healthy').length;
  if (healthy === critical.length) return { level: 'operational', label: 'All Systems Operational', colour: 'green' };
  if (healthy === 0) return { level: 'major', label: 'Major Outage', colour: 'red' };
  return { level: 'partial', label: 'Partial Outage', colour: 'yellow' };
}

/**
 * A running service judged by its heartbeat: healthy (or the probe's own verdict) while the last
 * heartbeat is fresh, stale once it is older than staleAfterMs or there never was one.
 */
export function heartbeatHealth(
  probe: 'healthy' | 'degraded',
  lastHeartbeatMs: number | undefined,
  nowMs: number,
  staleAfterMs = SERVICE_STALE_AFTER_MS,
): 'healthy' | 'degraded' | 'stale' {
  if (lastHeartbeatMs === undefined || nowMs - lastHeartbeatMs > staleAfterMs) return 'stale';
  return probe;
}

/**
 * A logged-on FIX session by its last inbound message against its HeartBtInt: silent past
 * HeartBtInt × 1.5 it has missed a heartbeat (stale; the engine's TestRequest and timeout follow).
 * HeartBtInt 0 means the client sends no heartbeats: silence proves nothing then.
 */
export function sessionSilenceHealth(heartBtIntSec: number, lastInboundMs: number | undefined, nowMs: number): 'healthy' | 'stale' {
  if (heartBtIntSec <= 0) return 'healthy';
  if (lastInboundMs === undefined) return 'stale';
  return nowMs - lastInboundMs > heartBtIntSec * 1000 * SESSION_SILENCE_FACTOR ? 'stale' : 'healthy';
}

export type SessionExpectation =
  /** Logged on, as it should be (or logged on outside its hours: allowed, noted by `inSchedule`). */
  | 'logged-on'
  /** Not logged on and not expected to be now: normal. */
  | 'outside-hours'
  /** Inside its hours, not logged on yet, within five minutes of the start: not yet a problem. */
  | 'awaited'
  /** Inside its hours, not logged on, five minutes or more after its start: the alert. */
  | 'missing';

/**
 * Whether a client's absence is a problem. `msSinceStart` is the time since today's session start
 * (its connector's start time in its time zone), undefined outside its trading days or hours.
 */
export function sessionExpectation(loggedOn: boolean, inSchedule: boolean, msSinceStart: number | undefined): SessionExpectation {
  if (loggedOn) return 'logged-on';
  if (!inSchedule) return 'outside-hours';
  return msSinceStart !== undefined && msSinceStart < SESSION_LATE_ALERT_MS ? 'awaited' : 'missing';
}

/** p50 (nearest rank) and worst of a set of durations; undefined for none. */
export function medianAndWorst(values: readonly number[]): { p50: number; worst: number } | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.ceil(sorted.length / 2) - 1]!, worst: sorted[sorted.length - 1]! };
}

/** Whole days until a certificate expires (negative once expired); undefined without one. */
export function daysUntil(expiresAt: Date | string | null | undefined, now: Date): number | undefined {
  if (expiresAt === null || expiresAt === undefined) return undefined;
  const t = expiresAt instanceof Date ? expiresAt.getTime() : Date.parse(expiresAt);
  if (!Number.isFinite(t)) return undefined;
  return Math.floor((t - now.getTime()) / 86_400_000);
}
