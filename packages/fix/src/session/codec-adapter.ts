import { FixEncoder } from '../codec/encoder';
import { FixParser } from '../codec/parser';
import type { ValidationOptions } from '../codec/rejection';
import { Dictionary } from '../dictionary/dictionary';
import type { InboundMessage, SessionCodec, ValidationIssue } from './message';

/**
 * The session's codec over the project's parser, encoder and dictionary. Header fields go out in
 * QuickFIX order (8, 9, 35, then by tag); the body exactly as given, so a resend reproduces the
 * original body byte for byte.
 */
export function createSessionCodec(dictionary: Dictionary = Dictionary.fix44(), validation: Partial<ValidationOptions> = {}): SessionCodec {
  const parser = new FixParser(dictionary, validation);
  // One encoder per BeginString: a refused Logon is answered in the peer's own BeginString.
  const encoders = new Map<string, FixEncoder>();
  return {
    decode: (raw: Buffer) => parser.parse(raw),
    encode(beginString, msgType, header, body) {
      let encoder = encoders.get(beginString);
      if (!encoder) {
        encoder = new FixEncoder(dictionary, { beginString });
        encoders.set(beginString, encoder);
      }
      // A view of the encoder's slab, which it never writes again: no copy.
      return encoder.encodeOrdered(msgType, byTag(header), body);
    },
    validate(message: InboundMessage): ValidationIssue | undefined {
      const r = message.rejection;
      return r ? { reason: String(r.reason), refTagID: r.refTagId, text: r.text } : undefined;
    },
    isHeaderTag: (tag) => dictionary.isHeaderTag(tag),
  };
}

/** The fields by tag number; the same array when they already are (the session builds its header so). */
function byTag<T extends readonly [number, unknown]>(fields: ReadonlyArray<T>): ReadonlyArray<T> {
  for (let i = 1; i < fields.length; i++) {
    if (fields[i]![0] < fields[i - 1]![0]) return [...fields].sort((a, b) => a[0] - b[0]);
  }
  return fields;
}
