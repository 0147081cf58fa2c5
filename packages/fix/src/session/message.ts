/**
 * The session's view of FIX messages. Parsing, encoding and validation are the codec's; these types are
 * the narrow surface the state machine uses, so states can be tested without sockets.
 */

/** A decoded inbound message. */
export interface InboundMessage {
  readonly msgType: string;
  /** First occurrence of a top-level field (header, body or trailer); undefined when absent. */
  get(tag: number): string | undefined;
  /** Every field in wire order, header and trailer included. */
  readonly fields: ReadonlyArray<readonly [tag: number, value: string]>;
  /** The frame as received, one character per byte (latin1). */
  readonly raw: string;
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

/**
 * What the session needs from the codec and dictionary; packages/fix/src/session/codec-adapter.ts
 * implements it over the project's codec.
 */
export interface SessionCodec {
  /** Decodes one complete frame; throws when it is not a well-formed FIX message. */
  decode(raw: string): InboundMessage;
  /**
   * Encodes a message: BeginString, BodyLength and MsgType first, the given header fields in header
   * order, the body as given, CheckSum last. Returns one character per byte.
   */
  encode(beginString: string, msgType: string, header: ReadonlyArray<readonly [number, string]>, body: ReadonlyArray<readonly [number, string]>): string;
  /** Dictionary validation of a decoded message; undefined when valid. */
  validate(message: InboundMessage): ValidationIssue | undefined;
  isHeaderTag(tag: number): boolean;
}

/** An outbound message before the session adds its header (8, 9, 35, 49, 56, 34, 52) and trailer. */
export interface OutgoingMessage {
  readonly msgType: string;
  /** Extra header fields in order (e.g. 43, 122, 50, 57, 115, 128); the session's own fields are added for you. */
  header: Array<[tag: number, value: string]>;
  /** Body fields in wire order, repeating groups already in their order. */
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
