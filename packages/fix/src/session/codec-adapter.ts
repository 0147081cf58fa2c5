import { FixEncoder } from '../codec/encoder';
import { inQuickFixOrder } from '../codec/field-order';
import { FixParser } from '../codec/parser';
import type { ValidationOptions } from '../codec/rejection';
import { Dictionary } from '../dictionary/dictionary';
import type { InboundMessage, SessionCodec, ValidationIssue } from './message';

/**
 * The session's codec over the project's parser, encoder and dictionary. Fields go out in QuickFIX
 * order (8, 9, 35, the header by tag, the body by tag with each group at its NumInGroup tag and its
 * entries in dictionary order), so our bytes compare with QuickFIX's. A resend passes
 * `bodyOrder: 'asGiven'`: the stored body goes out again byte for byte.
 */
export function createSessionCodec(dictionary: Dictionary = Dictionary.fix44(), validation: Partial<ValidationOptions> = {}): SessionCodec {
  const parser = new FixParser(dictionary, validation);
  // One encoder per BeginString: a refused Logon is answered in the peer's own BeginString.
  const encoders = new Map<string, FixEncoder>();
  return {
    decode: (raw: Buffer) => parser.parse(raw),
    encode(beginString, msgType, header, body, bodyOrder = 'quickfix') {
      let encoder = encoders.get(beginString);
      if (!encoder) {
        encoder = new FixEncoder(dictionary, { beginString });
        encoders.set(beginString, encoder);
      }
      // A view of the encoder's slab, which it never writes again: no copy.
      const ordered = bodyOrder === 'asGiven' ? body : inQuickFixOrder(dictionary.message(msgType)?.body, body);
      return encoder.encodeOrdered(msgType, inQuickFixOrder(dictionary.header, header), ordered);
    },
    validate(message: InboundMessage): ValidationIssue | undefined {
      const r = message.rejection;
      return r ? { reason: String(r.reason), refTagID: r.refTagId, text: r.text } : undefined;
    },
    isHeaderTag: (tag) => dictionary.isHeaderTag(tag),
  };
}
