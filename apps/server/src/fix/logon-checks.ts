import { fixSessionLeaseName, getConnector, recordRefusedLogon, type ConnectorRow, type Db } from '@fixdesk/db';
import {
  CounterpartyAuthenticator,
  parseTradingDays,
  safeEqual,
  type Authenticator,
  type CounterpartyConfig,
  type SessionID,
  type TransportInfo,
} from '@fixdesk/fix';
import type { FastifyBaseLogger } from 'fastify';
import type { LeaseKeeper } from '../cluster/lease-keeper';
import { fingerprintOf } from '../pki/desk-pki';
import { refusalCause, type SessionStats } from '../status/session-stats';

// Whether a client may log on: its connector (credentials, addresses, schedule, heartbeat range),
// its TLS certificate, and this node's claim on its session. Every refusal is counted and recorded.

/**
 * Why a connector whose TLS is enabled (it has a certificate) may not log on over this transport;
 * undefined when it may. The client must come over TLS with the very certificate issued to it (bound
 * by its SHA-256 fingerprint), verified against the desk CA.
 */
export function tlsLogonProblem(c: ConnectorRow, transport: TransportInfo | undefined): string | undefined {
  if (!c.tls_cert) return undefined;
  if (!transport?.tls) return 'TLS required: Logon over plain TCP refused';
  const peer = transport.peerCertificate;
  if (!peer) return 'TLS client certificate required';
  if (!peer.authorized) return `TLS client certificate not trusted: ${peer.authorizationError ?? 'not signed by the desk CA'}`;
  let expected: string;
  try {
    expected = fingerprintOf(c.tls_cert);
  } catch {
    return "the connector's stored certificate cannot be read";
  }
  if (peer.fingerprint256 !== expected)
    return `TLS client certificate${peer.subjectCN ? ` (CN ${peer.subjectCN})` : ''} is not the one issued to ${c.comp_id}`;
  return undefined;
}

/** A connector row as the engine's authenticator sees it. Settings apply from the next logon. */
export function counterpartyFor(c: ConnectorRow): CounterpartyConfig {
  const ips = (c.whitelisted_ips ?? '').split(/[,\s]+/).filter(Boolean);
  let schedule: CounterpartyConfig['schedule'];
  try {
    schedule = { timeZone: c.timezone, tradingDays: parseTradingDays(c.trading_days), startTime: c.start_time, endTime: c.end_time };
  } catch {
    schedule = undefined;
  }
  return {
    active: c.is_active,
    username: c.fix_username || undefined,
    verifyPassword: c.fix_password ? (pw: string) => safeEqual(pw, c.fix_password!) : undefined,
    allowedSourceIps: ips,
    schedule,
    heartBtIntRange: { minSec: c.heartbeat_min_sec, maxSec: c.heartbeat_max_sec, allowZero: c.heartbeat_allow_zero },
    settings: {
      heartBtIntSec: c.heartbeatint,
      resetOnLogon: c.resetseqnumflag || c.resetseqnums,
      resetFrequency: c.reset_frequency,
      timeZone: c.timezone,
      logonTimeoutMs: c.timeout,
    },
  };
}

export interface LogonCheckDeps {
  readonly db: Db;
  readonly nodeId: string;
  readonly leases: LeaseKeeper;
  readonly stats: SessionStats;
  readonly log: FastifyBaseLogger;
  /** Takes the session's lease for this node; why not when another node keeps it. */
  claimSession(id: SessionID): Promise<string | undefined>;
  /** A logon accepted so far came over TLS (true) or plain TCP (false). */
  onTransport(compId: string, tls: boolean): void;
  /** A logon accepted so far is a drop copy session's (true) or a client's own (false): fixed until it ends. */
  onSessionType?(compId: string, dropCopy: boolean): void;
}

/**
 * The acceptor's authenticator. A configured client's refused logon goes into its session history with
 * the reason, whether or not the client was told (an unauthenticated one is told nothing); a
 * stranger's only to the log.
 */
export function logonAuthenticator(d: LogonCheckDeps): Authenticator {
  const counterparties = new CounterpartyAuthenticator(async (id) => {
    const c = await getConnector(d.db, id.targetCompID);
    if (!c || c.target_comp_id !== id.senderCompID) return undefined;
    return counterpartyFor(c);
  });
  return {
    authenticate: async (request) => {
      let decision = await counterparties.authenticate(request);
      if (decision.accept) {
        // A connector whose TLS is enabled logs on only over TLS with its own certificate; anything
        // else is refused like an unknown peer (nothing sent), and recorded with why.
        const c = await getConnector(d.db, request.sessionID.targetCompID);
        const problem = c ? tlsLogonProblem(c, request.transport) : 'connector deleted';
        if (problem || !c) decision = { accept: false, reason: problem ?? 'connector deleted' };
        else {
          d.onTransport(request.sessionID.targetCompID, request.transport?.tls ?? false);
          d.onSessionType?.(request.sessionID.targetCompID, c.session_type === 'drop_copy');
        }
      }
      // A known client's session (logging on, or refused with a Logout under its numbers) is this
      // node's only while it holds the session's lease; another live node's session is refused
      // with nothing sent, its numbers untouched. A refused one's lease goes again at once.
      if (decision.accept || decision.authenticated) {
        const owner = await d.claimSession(request.sessionID);
        if (owner) decision = { accept: false, reason: owner };
        else if (!decision.accept) await d.leases.release(fixSessionLeaseName(request.sessionID));
      }
      if (!decision.accept) {
        const cause = refusalCause(decision.reason);
        // A stranger's made-up comp ids get no counters of their own (the metrics count the cause).
        d.stats.refusedLogon(cause === 'unknown-session' ? '' : request.sessionID.targetCompID, cause);
        await recordRefusedLogon(d.db, request.sessionID.targetCompID, request.remoteAddress, d.nodeId, decision.reason).catch(
          (err: unknown) => d.log.warn({ err, compId: request.sessionID.targetCompID }, 'could not record a refused logon'),
        );
      }
      return decision;
    },
  };
}
