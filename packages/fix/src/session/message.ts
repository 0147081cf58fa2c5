import type { FixMessage } from '../codec/message';
import { MsgType } from '@fixdesk/fix-codes';

/**
 * The session's view of FIX messages. Parsing, encoding and validation are the codec's; these types are
 * the narrow surface the state machine uses, so states can be tested without sockets.
 */

/**
 * A decoded inbound message: the codec's FixMessage (typed getters, repeating groups, the raw bytes,
 * and the dictionary verdict in `rejection`). Applications receive it as is.
 */
export type InboundMessage = FixMessage;

/** Admin (session-level) message types: never resent (replaced by SequenceReset-GapFill), never pipelined. */
export const ADMIN_MSG_TYPES: ReadonlySet<string> = new Set<string>([
  MsgType.Heartbeat,
  MsgType.TestRequest,
  MsgType.ResendRequest,
  MsgType.Reject,
  MsgType.SequenceReset,
  MsgType.Logout,
  MsgType.Logon,
]);

/** An outbound message before the session adds its header (8, 9, 35, 49, 56, 34, 52) and trailer. */
export interface OutgoingMessage {
  readonly msgType: string;
  /** Extra header fields in order (e.g. 43, 122, 50, 57, 115, 128); the session's own fields are added for you. */
  header: Array<[tag: number, value: string]>;
  /** Body fields; they go out in QuickFIX order (by tag, each group's entries together after its NumInGroup). */
  body: Array<[tag: number, value: string]>;
}

export function outgoing(msgType: string, body: Array<[number, string]> = [], header: Array<[number, string]> = []): OutgoingMessage {
  return { msgType, header, body };
}

/** Sets a field (replacing the first occurrence) in a field list. */
export function setField(fields: Array<[number, string]>, tag: number, value: string): void {
  const i = fields.findIndex(([t]) => t === tag);
  if (i >= 0) fields[i] = [tag, value];
  else fields.push([tag, value]);
}

export function getField(fields: ReadonlyArray<readonly [number, string]>, tag: number): string | undefined {
  return fields.find(([t]) => t === tag)?.[1];
}

/** A validation failure, reported to the peer as a session Reject (35=3). */
export interface ValidationIssue {
  /** SessionRejectReason (373). */
  readonly reason: string;
  /** RefTagID (371), when one field is at fault. */
  readonly refTagID?: number | undefined;
  /** Text (58). */
  readonly text: string;
}

/** What the session needs from the codec and dictionary; createSessionCodec (codec-adapter.ts) provides it. */
export interface SessionCodec {
  /** Decodes one framed message (BodyLength and CheckSum already checked); never throws, see FixMessage.garbled. */
  decode(raw: Buffer): InboundMessage;
  /**
   * Encodes a message the way QuickFIX writes it: BeginString, BodyLength and MsgType first, the other
   * header fields by tag, the body fields by tag with each repeating group at its NumInGroup tag and its
   * entries' fields in dictionary order, CheckSum last. `bodyOrder: 'asGiven'` keeps the body as passed
   * (a resend of stored bytes). The bytes are the caller's: the codec never writes them again.
   */
  encode(
    beginString: string,
    msgType: string,
    header: ReadonlyArray<readonly [number, string]>,
    body: ReadonlyArray<readonly [number, string]>,
    bodyOrder?: 'quickfix' | 'asGiven',
  ): Buffer;
  /** The dictionary verdict on a decoded message; undefined when valid. */
  validate(message: InboundMessage): ValidationIssue | undefined;
  isHeaderTag(tag: number): boolean;
}
