import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { Tag } from '@fixdesk/fix-codes';
import type { TransportInfo } from '../transport/tls';
import type { InboundMessage } from './message';
import { isWithinSchedule, type SessionSchedule } from './schedule';
import type { SessionSettings } from './session-settings';
import type { SessionID } from './session-id';

/** What the acceptor knows when a Logon arrives on a new connection. */
export interface LogonRequest {
  /** From our side: senderCompID is ours (the Logon's 56), targetCompID the client's (its 49). */
  readonly sessionID: SessionID;
  readonly username: string | undefined;
  readonly password: string | undefined;
  /** The peer's IP address (IPv4-mapped IPv6 already unwrapped). */
  readonly remoteAddress: string;
  /** Plain TCP or TLS, with the client certificate a TLS peer presented (absent: plain TCP). */
  readonly transport?: TransportInfo;
  readonly logon: InboundMessage;
  /** Milliseconds since epoch, from the session clock. */
  readonly now: number;
}

export type LogonDecision =
  | { readonly accept: true; readonly settings?: Partial<SessionSettings> }
  /**
   * `authenticated`: the counterparty proved who it is (a configured pair, an allowed address, its
   * credentials) and is refused for its connector's state (inactive, outside its schedule): it gets a
   * Logout with `reason`, under the session's stored next number. Otherwise nothing is sent (a
   * stranger learns nothing); `reason` goes to the log only.
   */
  | { readonly accept: false; readonly reason: string; readonly authenticated?: boolean };

/**
 * Decides whether a Logon may open a session, and with which settings. A refused Logon never changes a
 * sequence number; see LogonDecision for what the peer is told.
 */
export interface Authenticator {
  authenticate(request: LogonRequest): LogonDecision | Promise<LogonDecision>;
}

/** A counterparty as the acceptor knows it (the server builds these from its client connectors). */
export interface CounterpartyConfig {
  readonly active: boolean;
  /** When set, the Logon must carry this Username (553). */
  readonly username?: string | undefined;
  /** When set, the Logon must carry a Password (554) this accepts (e.g. an argon2 verify). */
  readonly verifyPassword?: ((password: string) => boolean | Promise<boolean>) | undefined;
  /** Addresses or CIDR ranges the client may connect from; empty or absent allows any. */
  readonly allowedSourceIps?: readonly string[] | undefined;
  /** Outside its windows a Logon is refused. */
  readonly schedule?: SessionSchedule | undefined;
  /** The HeartBtInt (108) a Logon may ask for; outside it the Logon is refused with the range. Absent: any. */
  readonly heartBtIntRange?: HeartBtIntRange | undefined;
  readonly settings?: Partial<SessionSettings> | undefined;
}

/** Seconds, inclusive; 0 (no heartbeats at all) only when `allowZero`. */
export interface HeartBtIntRange {
  readonly minSec: number;
  readonly maxSec: number;
  readonly allowZero: boolean;
}

/** Why a HeartBtInt is outside the range, or undefined when it is inside. */
export function heartBtIntProblem(heartBtIntSec: number, range: HeartBtIntRange): string | undefined {
  if (heartBtIntSec === 0 ? range.allowZero : heartBtIntSec >= range.minSec && heartBtIntSec <= range.maxSec) return undefined;
  const allowed = `${range.minSec}-${range.maxSec} seconds${range.allowZero ? ' or 0' : ''}`;
  return `HeartBtInt (108) of ${heartBtIntSec} is outside the allowed range ${allowed}`;
}

/**
 * The standard checks: first who the peer is (known pair, source address, credentials), refused
 * silently; then, for an authenticated peer, its connector's state (active, schedule) and what its Logon
 * asks for (HeartBtInt in range), refused with a Logout that says why. `lookup` is the server's connector table.
 */
export class CounterpartyAuthenticator implements Authenticator {
  constructor(
    private readonly lookup: (sessionID: SessionID) => CounterpartyConfig | undefined | Promise<CounterpartyConfig | undefined>,
  ) {}

  async authenticate(request: LogonRequest): Promise<LogonDecision> {
    const config = await this.lookup(request.sessionID);
    const { senderCompID, targetCompID } = request.sessionID;
    if (!config) return refuse(`Unknown session: SenderCompID ${targetCompID} / TargetCompID ${senderCompID}`);
    if (config.allowedSourceIps && config.allowedSourceIps.length > 0 && !ipAllowed(request.remoteAddress, config.allowedSourceIps)) {
      return refuse(`Connection from ${request.remoteAddress} not allowed`);
    }
    if (config.username !== undefined && !safeEqual(request.username ?? '', config.username)) {
      return refuse('Invalid username or password');
    }
    if (config.verifyPassword) {
      if (request.password === undefined || !(await config.verifyPassword(request.password))) return refuse('Invalid username or password');
    }
    if (!config.active) return refuse(`Session ${targetCompID} is not active`, true);
    if (config.schedule && !isWithinSchedule(config.schedule, request.now)) return refuse('Logon outside of session time', true);
    if (config.heartBtIntRange) {
      // The session checked that 108 is a whole number before it asked us.
      const problem = heartBtIntProblem(Number(request.logon.get(Tag.HeartBtInt)), config.heartBtIntRange);
      if (problem) return refuse(problem, true);
    }
    // The schedule that admitted the logon also ends the session (Logout at the window's end).
    const settings = config.schedule
      ? { timeZone: config.schedule.timeZone, schedule: config.schedule, ...config.settings }
      : config.settings;
    return { accept: true, settings };
  }
}

function refuse(reason: string, authenticated = false): LogonDecision {
  return authenticated ? { accept: false, reason, authenticated } : { accept: false, reason };
}

/** Compares without leaking the position of the first difference through timing. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function ipAllowed(address: string, allowed: readonly string[]): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of allowed) {
    const [net, bits] = entry.trim().split('/');
    const netFamily = isIP(net ?? '');
    if (netFamily === 0) continue;
    const type = netFamily === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(net!, type);
    else list.addSubnet(net!, Number(bits), type);
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
