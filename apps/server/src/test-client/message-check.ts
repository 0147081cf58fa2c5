import { Dictionary, FixEncoder, FixFramer, FixParser, type FixMessage } from '@fixdesk/fix';

/**
 * The checks a message asked to be sent through the test-client service goes through: framing
 * (BeginString, BodyLength, CheckSum), the FIX 4.4 dictionary (required fields, formats, enums,
 * groups), and what a client may send at all. The message's own session header is then replaced by
 * the session's (49/56/34/52), so a preview built for another session or an older sequence number
 * still goes out correctly numbered.
 */

/** Application messages a client sends to a broker. */
const CLIENT_SENDABLE_MSG_TYPES = new Set(['D', 'AB', 'F', 'G', 'AC', 'H']);

/** Header tags the session owns or that would be false on a fresh send; the caller's values are dropped. */
const SESSION_OWNED_HEADER_TAGS = new Set([8, 9, 35, 49, 56, 34, 52, 43, 97, 122, 369, 627, 628, 629, 630]);
/** Header tags replaced by the session: their absence in the caller's text is fine. */
const RESTAMPED_TAGS = new Set([34, 49, 52, 56]);

const SOH = '\u0001';

export class MessageCheckError extends Error {
  constructor(
    message: string,
    /** The offending tag, when one can be named. */
    readonly tag?: number,
  ) {
    super(message);
    this.name = 'MessageCheckError';
  }
}

export interface CheckedMessage {
  msgType: string;
  /** Header fields the caller set that the session does not own (SenderSubID and the like), by tag. */
  header: Array<[number, string]>;
  /** Body fields in wire order, groups included. */
  body: Array<[number, string]>;
  clOrdId: string | undefined;
  /** The message as the session will send it, readable like a received one. */
  view: FixMessage;
}

const dictionary = Dictionary.fix44();

function fieldName(tag: number | undefined): string {
  if (tag === undefined) return '';
  const def = dictionary.field(tag);
  return def ? `${tag} (${def.name})` : String(tag);
}

/** The message as text with SOH delimiters: accepts '|' as the delimiter (what previews and logs show). */
export function normalizeFixText(input: string): string {
  let text = input.trim();
  if (!text.includes(SOH) && text.includes('|')) text = text.split('|').join(SOH);
  // A message copied without its final delimiter still ends with 10=ddd.
  if (!text.endsWith(SOH)) text += SOH;
  return text;
}

/** Byte sum modulo 256 as three digits. */
function checksumOf(bytes: Buffer, end: number): string {
  let sum = 0;
  for (let i = 0; i < end; i++) sum = (sum + bytes[i]!) & 0xff;
  return String(sum).padStart(3, '0');
}

/**
 * Explains a framing failure in the caller's terms (which of BodyLength or CheckSum is wrong, and what
 * it should be), since the framer only says that the frame is unusable.
 */
function framingProblem(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  const m = /^8=([^\u0001]*)\u00019=([^\u0001]*)\u0001/.exec(text);
  if (!m) return 'A FIX message starts with 8=FIX.4.4 then 9=BodyLength';
  if (m[1] !== 'FIX.4.4') return `BeginString (8) must be FIX.4.4, not ${m[1]}`;
  if (!/^\d{1,9}$/.test(m[2]!)) return `BodyLength (9) must be a number, not '${m[2]}'`;
  const bodyStart = m[0].length;
  const trailerAt = text.lastIndexOf(`${SOH}10=`);
  if (trailerAt < 0) return 'CheckSum (10) is missing: the message must end with 10=ddd';
  const actualBody = trailerAt + 1 - bodyStart;
  if (Number(m[2]) !== actualBody) return `BodyLength (9) is ${m[2]} but the body is ${actualBody} bytes`;
  const given = text.slice(trailerAt + 4).replace(/\u0001$/, '');
  const expected = checksumOf(bytes, trailerAt + 1);
  if (given !== expected) return `CheckSum (10) is ${given} but the message sums to ${expected}`;
  return 'The message could not be framed';
}

/** Frames and reads one message; throws MessageCheckError with a precise reason. */
function frameMessage(input: string): FixMessage {
  const text = normalizeFixText(input);
  if (/[^\u0000-\u00ff]/.test(text)) {
    throw new MessageCheckError('The message contains characters outside Latin-1; FIX 4.4 text fields are single-byte');
  }
  const bytes = Buffer.from(text, 'latin1');
  const framer = new FixFramer({ beginString: 'FIX.4.4', maxMessageSize: 64 * 1024 });
  const frames = framer.push(bytes);
  const frame = frames[0];
  if (!frame) throw new MessageCheckError(`Incomplete FIX message: ${framingProblem(bytes)}`);
  if (frame.kind === 'wrongBeginString') throw new MessageCheckError(`BeginString (8) must be FIX.4.4, not ${frame.beginString}`, 8);
  if (frame.kind === 'garbled') throw new MessageCheckError(`Invalid FIX message: ${framingProblem(bytes)}`);
  if (frames.length > 1 || framer.bufferedBytes > 0 || frame.bytes.length !== bytes.length) {
    throw new MessageCheckError('Send one FIX message at a time: text follows the first message');
  }
  const parsed = new FixParser(dictionary, { validate: false }).parse(frame.bytes);
  if (parsed.garbled) throw new MessageCheckError(`Invalid FIX message: ${parsed.garbled}`);
  return parsed;
}

export interface SessionParties {
  senderCompId: string;
  targetCompId: string;
}

/**
 * Checks a message for sending as `senderCompId` → `targetCompId` and returns its parts for the
 * session, which adds its own header. Throws MessageCheckError with the first problem found.
 */
export function checkOutboundMessage(input: string, session: SessionParties): CheckedMessage {
  const parsed = frameMessage(input);
  const header: Array<[number, string]> = [];
  const body: Array<[number, string]> = [];
  for (const [tag, value] of parsed.allFields()) {
    if (dictionary.isTrailerTag(tag)) continue;
    if (dictionary.isHeaderTag(tag)) {
      if (!SESSION_OWNED_HEADER_TAGS.has(tag)) header.push([tag, value]);
      continue;
    }
    body.push([tag, value]);
  }
  return checkOutboundParts(parsed.msgType, header, body, session);
}

/**
 * Validates a message as it will go out (the session's header, the given body) against the dictionary
 * and what a client may send. The result's `view` reads the message like a received one.
 */
export function checkOutboundParts(
  msgType: string,
  header: Array<[number, string]>,
  body: Array<[number, string]>,
  session: SessionParties,
): CheckedMessage {
  if (!dictionary.message(msgType)) throw new MessageCheckError(`Invalid MsgType (35): '${msgType}' is not a FIX 4.4 message`, 35);
  if (!CLIENT_SENDABLE_MSG_TYPES.has(msgType)) {
    throw new MessageCheckError(
      `MsgType (35) ${msgType} cannot be sent here: a client sends orders (D, AB), cancels (F), replaces (G, AC) and status requests (H); the session sends its own admin messages`,
      35,
    );
  }
  const sessionHeader: Array<[number, string]> = [
    [34, '1'],
    [49, session.senderCompId],
    [52, '20000101-00:00:00.000'],
    [56, session.targetCompId],
  ];
  const restamped = new FixEncoder(dictionary, { beginString: 'FIX.4.4' }).encodeOrdered(
    msgType,
    [...sessionHeader, ...header].sort((a, b) => a[0] - b[0]),
    body,
  );
  const view = new FixParser(dictionary).parse(Buffer.from(restamped));
  if (view.garbled) throw new MessageCheckError(`Invalid FIX message: ${view.garbled}`);
  const r = view.rejection;
  if (r && !(r.refTagId !== undefined && RESTAMPED_TAGS.has(r.refTagId))) {
    const where = r.refTagId !== undefined ? `: tag ${fieldName(r.refTagId)}` : '';
    throw new MessageCheckError(`${r.text}${where}`, r.refTagId);
  }
  const clOrdId = view.get(11);
  return { msgType, header, body, clOrdId: clOrdId === '' ? undefined : clOrdId, view };
}
