import { z } from 'zod';

// Certificates for a client connector, its session configuration, and the live
// session console (what an operator may do to a client's FIX session, when, and what it will do).

export const CERT_COUNTRY_DEFAULT = 'US';

/**
 * Why a certificate is refused while the desk serves no TLS (409; the TLS/SSL tab says it before anyone
 * asks): a certificate makes the connector's logons TLS-only, and no port would take them.
 */
export const TLS_NO_PORT_TEXT =
  'The desk has no TLS port, so a certificate would lock this client out: with a certificate its logons are accepted over TLS only. ' +
  'Set FIX_TLS_PORT (for example FIX_TLS_PORT=9877) on every node and restart, then generate the certificate.';

export const GenerateCertsSchema = z.strictObject({
  commonName: z
    .string({ error: 'Common name is required' })
    .trim()
    .min(1, 'Common name is required')
    .max(64, 'Common name has at most 64 characters'),
  organization: z.string().trim().max(64, 'Organization has at most 64 characters').optional().or(z.literal('')),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as US')
    .transform((c) => c.toUpperCase())
    .default(CERT_COUNTRY_DEFAULT),
});
export type GenerateCertsInput = z.input<typeof GenerateCertsSchema>;

export interface GenerateCertsResult {
  expiresAt: string;
  fingerprint256: string;
  commonName: string;
  /** The client's private key (PEM): in this answer only, once; the desk keeps no copy. */
  privateKeyPem: string;
}

/**
 * The file names the settings file refers to; the TLS/SSL tab offers the files under these names (also when
 * the session config could not be had).
 */
export function tlsFileNames(compId: string): { certificateFile: string; privateKeyFile: string; caFile: string } {
  return { certificateFile: `${compId}.crt`, privateKeyFile: `${compId}.key`, caFile: 'fixdesk-ca.crt' };
}

/** The session configuration a client's FIX team needs (GET …/session-config). */
export interface SessionConfig {
  compId: string;
  /** As the client sees it: its SenderCompID is the connector's comp id, its TargetCompID ours. */
  senderCompId: string;
  targetCompId: string;
  fixVersion: string;
  host: string;
  port: number;
  /** The TLS port when the connector's TLS is enabled and the acceptor serves TLS. */
  tls: { enabled: boolean; port: number | null; certificateFile: string; privateKeyFile: string; caFile: string; expiresAt: string | null };
  heartBtInt: number;
  schedule: { timeZone: string; startTime: string; endTime: string; tradingDays: string };
  resetPolicy: { resetOnLogon: boolean; resetFrequency: string };
  credentials: { username: string | null; passwordRequired: boolean };
  /** The same, as a QuickFIX settings file. */
  settingsFile: string;
}

export const SESSION_ACTIONS = ['logout', 'disconnect', 'reset_seqnums', 'set_next_sender', 'set_next_target'] as const;
export type SessionAction = (typeof SESSION_ACTIONS)[number];

export const SESSION_ACTION_LABELS: Record<SessionAction, string> = {
  logout: 'Logout',
  disconnect: 'Disconnect',
  reset_seqnums: 'Reset sequence numbers',
  set_next_sender: 'Set next sender number',
  set_next_target: 'Set next target number',
};

/** The FIX session states as the console names them (the engine's state names are not for people). */
const SESSION_STATE_LABELS: Readonly<Record<string, string>> = {
  disconnected: 'Disconnected',
  logon: 'Awaiting Logon',
  inSession: 'In session',
  resend: 'In session, resending',
  logout: 'Logging out',
};
export const sessionStateLabel = (state: string): string => SESSION_STATE_LABELS[state] ?? state;

/** A recorded console operation ('SET_NEXT_TARGET', as stored) in the words of its button. */
export function sessionOperationLabel(action: string): string {
  if (action === 'GENERATE_CERTS') return 'Generate certificates';
  return SESSION_ACTION_LABELS[action.toLowerCase() as SessionAction] ?? action;
}

const reason = z
  .string({ error: 'A reason is required' })
  .trim()
  .min(3, 'A reason of at least 3 characters is required')
  .max(500, 'The reason has at most 500 characters');
const seqNum = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(2_147_483_647, 'must be at most 2147483647');

export const SessionActionSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('logout'), reason }),
  z.strictObject({ action: z.literal('disconnect'), reason }),
  z.strictObject({ action: z.literal('reset_seqnums'), reason }),
  z.strictObject({ action: z.literal('set_next_sender'), reason, value: seqNum }),
  z.strictObject({ action: z.literal('set_next_target'), reason, value: seqNum }),
]);
export type SessionActionInput = z.infer<typeof SessionActionSchema>;

export interface LastMessage {
  msgType: string;
  msgSeqNum: number | null;
  at: string;
}

/** A client's FIX session as the console shows it. */
export interface SessionConsoleState {
  compId: string;
  /** Our CompID in this session (the client's TargetCompID). */
  ourCompId: string;
  state: string;
  connected: boolean;
  loggedOn: boolean;
  remoteAddress: string | null;
  /** TLS or plain TCP, while connected. */
  transport: 'TLS' | 'TCP' | null;
  heartBtInt: number;
  nextSenderMsgSeqNum: number;
  nextTargetMsgSeqNum: number;
  lastIn: LastMessage | null;
  lastOut: LastMessage | null;
}

export interface SessionOperationEntry {
  id: number;
  action: string;
  reason: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  changedBy: string;
  createdAt: string;
}

export interface SessionConsoleView {
  session: SessionConsoleState;
  operations: SessionOperationEntry[];
}

type GateState = Pick<SessionConsoleState, 'connected' | 'loggedOn'>;

/** Why an action may not run in this state; undefined when it may. Checked by the server and the screen alike. */
export function sessionActionProblem(action: SessionAction, s: GateState): string | undefined {
  switch (action) {
    case 'logout':
      return s.loggedOn ? undefined : 'The client is not logged on';
    case 'disconnect':
      return s.connected ? undefined : 'The client is not connected';
    case 'reset_seqnums':
    case 'set_next_sender':
    case 'set_next_target':
      return s.connected ? 'Only while the client is logged out: log it out or disconnect it first' : undefined;
  }
}

/** What the action will do, in the numbers the client will see. */
export function previewSessionAction(action: SessionAction, s: SessionConsoleState, value?: number): string {
  const keep = `The sequence numbers stay as they are: the next Logon will carry 34=${s.nextTargetMsgSeqNum} and our answer 34=${s.nextSenderMsgSeqNum}.`;
  switch (action) {
    case 'logout':
      // Our Logout takes 34=nextSender and the client's answer 34=nextTarget; the numbers go on from there.
      return `Sends ${s.compId} a Logout (34=${s.nextSenderMsgSeqNum}) with your reason as its text (58) and closes once the client answers. The sequence numbers go on: the next Logon will carry 34=${s.nextTargetMsgSeqNum + 1} and our answer 34=${s.nextSenderMsgSeqNum + 1}.`;
    case 'disconnect':
      return `Closes ${s.compId}'s connection at once, without a Logout. ${keep}`;
    case 'reset_seqnums':
      return `Both sequence numbers start again at 1 (now: next sender ${s.nextSenderMsgSeqNum}, next target ${s.nextTargetMsgSeqNum}): the next Logon will carry 141=Y and 34=1, and our answer 141=Y and 34=1.`;
    case 'set_next_sender':
      return `Our next message to ${s.compId} will carry 34=${value ?? '?'} (now ${s.nextSenderMsgSeqNum}): our answer to the next Logon will carry 34=${value ?? '?'}.`;
    case 'set_next_target':
      return `We will expect 34=${value ?? '?'} from ${s.compId} next (now ${s.nextTargetMsgSeqNum}): the next Logon will carry 34=${value ?? '?'}.`;
  }
}
