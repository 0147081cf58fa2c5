/**
 * Credentials inside FIX messages (Password 554, NewPassword 925, RawData 96 on a Logon) are never
 * shown: the stored message is the compliance record, the screens and the API get it with the values
 * masked. RawData is a data field: its length is in RawDataLength (95) just before it, and it may hold
 * any byte, SOH included, so it is masked by that length, not up to the next SOH (the rest
 * of a RawData holding an SOH was shown as if it were fields). It is masked by as many * as its length
 * (which RawDataLength shows anyway), so that the masked message still parses with the dictionary.
 */
const MASK = '********';
const SECRET_TAGS = new Set(['554', '925', '96']);
/** A data field's tag → its length field's tag. */
const LENGTH_OF: Readonly<Record<string, string>> = { '96': '95' };

export function redactFix(raw: string): string {
  let out = '';
  let at = 0; // the start of the field being read
  let lastLength: { tag: string; value: number } | undefined;
  while (at < raw.length) {
    const eq = raw.indexOf('=', at);
    if (eq < 0) break;
    const soh = raw.indexOf('\x01', at);
    if (soh >= 0 && soh < eq) {
      // Not a field (no tag=): kept as it is, up to its SOH.
      out += raw.slice(at, soh + 1);
      at = soh + 1;
      lastLength = undefined;
      continue;
    }
    const tag = raw.slice(at, eq);
    let end: number; // where the value ends (its SOH, or the text's end)
    let mask = MASK;
    const lengthTag = LENGTH_OF[tag];
    if (lengthTag && lastLength?.tag === lengthTag) {
      end = Math.min(raw.length, eq + 1 + lastLength.value);
      // As long as its length says (shown beside it anyway): the masked message still parses.
      if (raw[end] === '\x01') mask = '*'.repeat(lastLength.value);
    } else {
      end = raw.indexOf('\x01', eq + 1);
      if (end < 0) end = raw.length;
    }
    // A data field's length ends where its SOH should be; what follows must still start a field.
    if (lengthTag && raw[end] !== '\x01' && end < raw.length) {
      const soh = raw.indexOf('\x01', end);
      end = soh < 0 ? raw.length : soh;
    }
    const value = raw.slice(eq + 1, end);
    lastLength = /^\d{1,9}$/.test(value) ? { tag, value: Number(value) } : undefined;
    out += raw.slice(at, eq + 1) + (SECRET_TAGS.has(tag) ? mask : value);
    if (end < raw.length) out += '\x01';
    at = end + 1;
  }
  return at < raw.length ? out + raw.slice(at) : out;
}
