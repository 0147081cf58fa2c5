import { FixParser } from '../codec/parser';
import type { ValidationOptions } from '../codec/rejection';
import { Dictionary } from '../dictionary/dictionary';
import type { InboundMessage, SessionCodec, ValidationIssue } from './message';

const SOH = '\x01';

/**
 * The session's codec over the project's parser and dictionary.
 *
 * encode() is a minimal writer kept here until the codec's own encoder lands: 8, 9, 35, then the
 * other header fields in ascending tag order (QuickFIX's header order), the body as given, 10 last.
 */
export function createSessionCodec(dictionary: Dictionary = Dictionary.fix44(), validation: Partial<ValidationOptions> = {}): SessionCodec {
  const parser = new FixParser(dictionary, validation);
  const headerTags = new Set<number>(dictionary.header.memberTags);
  return {
    decode: (raw: Buffer) => parser.parse(raw),
    encode(beginString, msgType, header, body) {
      const head = [...header].sort((a, b) => a[0] - b[0]);
      let text = `35=${msgType}${SOH}`;
      for (const [tag, value] of head) text += `${tag}=${value}${SOH}`;
      for (const [tag, value] of body) text += `${tag}=${value}${SOH}`;
      const bodyLength = Buffer.byteLength(text, 'latin1');
      const withoutTrailer = `8=${beginString}${SOH}9=${bodyLength}${SOH}${text}`;
      let sum = 0;
      for (let i = 0; i < withoutTrailer.length; i++) sum += withoutTrailer.charCodeAt(i) & 0xff;
      return `${withoutTrailer}10=${String(sum % 256).padStart(3, '0')}${SOH}`;
    },
    validate(message: InboundMessage): ValidationIssue | undefined {
      const r = message.rejection;
      return r ? { reason: String(r.reason), refTagID: r.refTagId, text: r.text } : undefined;
    },
    isHeaderTag: (tag) => headerTags.has(tag),
  };
}
