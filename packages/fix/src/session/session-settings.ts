import { ADMIN_MSG_TYPES } from './message';
import type { ResetFrequency, SessionSchedule } from './schedule';

export interface SessionSettings {
  readonly role: 'acceptor' | 'initiator';
  /** Initiator: HeartBtInt (108) sent in our Logon. Acceptor: used only until the client's value arrives. */
  readonly heartBtIntSec: number;
  /**
   * Start both sequences at 1 on every logon. Initiator: our Logon carries ResetSeqNumFlag=Y.
   * Acceptor: reset when a Logon arrives (a client's 141=Y is honoured whatever this says).
   */
  readonly resetOnLogon: boolean;
  /** Scheduled reset, evaluated at logon against the store creation time. */
  readonly resetFrequency: ResetFrequency;
  /** IANA zone for scheduled resets (and the schedule). */
  readonly timeZone: string;
  /** When set, the session logs out at the end of a window and resets count from the window start. */
  readonly schedule?: SessionSchedule | undefined;
  /** Reject + Logout when |SendingTime - now| exceeds maxLatencySec. */
  readonly checkLatency: boolean;
  readonly maxLatencySec: number;
  /** Validate inbound messages against the dictionary (session Reject on failure). */
  readonly validate: boolean;
  /** Initiator: extra Logon fields, added before the toAdmin hook. */
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  /** Disconnect when no Logon is completed in this time. */
  readonly logonTimeoutMs: number;
  /** After our Logout, wait this long for the peer's Logout before disconnecting. */
  readonly logoutTimeoutMs: number;
  /** Silence of HeartBtInt x this factor triggers a TestRequest, twice that a disconnect. */
  readonly testRequestDelayFactor: number;
  /** Stored messages fetched per store read while answering a ResendRequest. */
  readonly resendChunkSize: number;
  /** A ResendRequest spanning more numbers is rejected (373=5) instead of replayed. */
  readonly maxResendRange: number;
  /** More ResendRequests than this per minute is a storm: Logout and disconnect. */
  readonly maxResendRequestsPerMinute: number;
  /** Inbound messages held back behind a gap; past this the session disconnects. */
  readonly maxQueuedMessages: number;
  /** How often timer ticks are queued at most: a short HeartBtInt ticks every twentieth of it instead. */
  readonly tickIntervalMs: number;
  /** Send application messages while logged out: persist for later resend ('persist') or throw ('reject'). */
  readonly whenNotLoggedOn: 'persist' | 'reject';
  /**
   * Application message types the session may hand to fromApp before the previous message's fromApp
   * has resolved (empty: none, one message at a time). fromApp is still called in MsgSeqNum order and
   * each number is still persisted only once its fromApp resolved, in order; any other message, timer
   * or operator action first waits for every handed-on message. The application must keep its own
   * effects in the order it was called, and a pipelined fromApp must not wait for this session
   * (e.g. await a send to it): the session may be waiting for that fromApp.
   */
  readonly pipelineApplication: readonly string[];
  /** Handed-on messages not yet finished by the application beyond which the session waits for them. */
  readonly maxPipelinedMessages: number;
  /**
   * Application messages sent from outside an event (send()) no longer hold the session's event queue
   * while their store write commits: the next event (an inbound order) goes ahead. Each message is
   * still persisted before its bytes are written, and bytes still go out in MsgSeqNum order; events
   * that need the wire settled (a ResendRequest answer, a reset, a logon) wait for them.
   */
  readonly pipelineSends: boolean;
}

export const DEFAULT_SESSION_SETTINGS: Omit<SessionSettings, 'role'> = {
  heartBtIntSec: 30,
  resetOnLogon: false,
  resetFrequency: 'NEVER',
  timeZone: 'UTC',
  checkLatency: true,
  maxLatencySec: 120,
  validate: true,
  logonTimeoutMs: 10_000,
  logoutTimeoutMs: 2_000,
  testRequestDelayFactor: 1.2,
  resendChunkSize: 500,
  maxResendRange: 100_000,
  maxResendRequestsPerMinute: 30,
  maxQueuedMessages: 10_000,
  tickIntervalMs: 1_000,
  whenNotLoggedOn: 'persist',
  pipelineApplication: [],
  maxPipelinedMessages: 1_000,
  pipelineSends: false,
};

export function sessionSettings(role: SessionSettings['role'], overrides: Partial<SessionSettings> = {}): SessionSettings {
  const s: SessionSettings = { ...DEFAULT_SESSION_SETTINGS, ...overrides, role };
  if (!Number.isInteger(s.heartBtIntSec) || s.heartBtIntSec < 0)
    throw new RangeError(`heartBtIntSec must be a non-negative integer, got ${s.heartBtIntSec}`);
  if (!(s.maxLatencySec > 0)) throw new RangeError('maxLatencySec must be positive');
  if (!(s.testRequestDelayFactor > 1)) throw new RangeError('testRequestDelayFactor must be above 1');
  const admin = s.pipelineApplication.filter((t) => ADMIN_MSG_TYPES.has(t));
  if (admin.length) throw new RangeError(`pipelineApplication takes application message types only, got ${admin.join(', ')}`);
  if (!Number.isInteger(s.maxPipelinedMessages) || s.maxPipelinedMessages < 1)
    throw new RangeError(`maxPipelinedMessages must be a positive integer, got ${s.maxPipelinedMessages}`);
  return s;
}
