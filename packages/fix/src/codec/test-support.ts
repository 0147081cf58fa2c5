// Test helpers: write FIX messages readably with '|' for SOH; BodyLength and CheckSum are computed
// here independently of the encoder so encoder tests compare against a separate implementation.

export const SOH = '\x01';

/** '|' → SOH. */
export function soh(text: string): string {
  return text.replaceAll('|', SOH);
}

/** SOH → '|', for readable assertion messages. */
export function pipes(bytes: Buffer | string): string {
  return (typeof bytes === 'string' ? bytes : bytes.toString('latin1')).replaceAll(SOH, '|');
}

export function checksumOf(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
  return String(sum % 256).padStart(3, '0');
}

/**
 * A complete message from its body ("35=D|34=2|...|", '|' for SOH, starting after 9=): BeginString
 * and BodyLength are prepended and CheckSum appended. Overrides produce deliberately broken frames.
 */
export function fixMessage(body: string, overrides: { beginString?: string; bodyLength?: number; checksum?: string } = {}): Buffer {
  const b = soh(body);
  const head = `8=${overrides.beginString ?? 'FIX.4.4'}${SOH}9=${overrides.bodyLength ?? b.length}${SOH}`;
  const text = head + b;
  return Buffer.from(`${text}10=${overrides.checksum ?? checksumOf(text)}${SOH}`, 'latin1');
}

/** A standard header body prefix for tests: MsgType plus the required session fields. */
export function header(msgType: string, seq = 2): string {
  return `35=${msgType}|34=${seq}|49=CLIENT|52=20260315-09:30:01.123|56=BROKER|`;
}

/** A seeded PRNG (mulberry32) for the randomised tests: the same seed gives the same run, so a failure can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
