// Cuts a TCP byte stream into FIX messages. The frame is trusted only when BeginString, BodyLength
// and CheckSum all agree; anything else is reported as garbled so the session can ignore it
// (no Reject, no sequence number consumed) and scanning resumes right after the bad frame's
// "8=" — so a corrupt or hostile frame can never swallow the valid message behind it.

const SOH = 0x01;
const MAX_BEGIN_STRING = 16;
const MAX_BODY_LENGTH_DIGITS = 9;
/** "10=" + three digits + SOH. */
const TRAILER_LENGTH = 7;
const START = Buffer.from('8=FIX', 'latin1');
/** The pending bytes when there are none; zero-length, so sharing it is safe. */
const EMPTY = Buffer.alloc(0);

export type Frame =
  /** A complete message whose BodyLength and CheckSum are correct. */
  | { readonly kind: 'message'; readonly bytes: Buffer }
  /**
   * A well-framed message (length and checksum correct) with a BeginString other than the
   * session's; FIX answers this with a Logout, not a Reject.
   */
  | { readonly kind: 'wrongBeginString'; readonly bytes: Buffer; readonly beginString: string }
  /** Bytes that started like a message but failed framing; ignore them (log only). */
  | { readonly kind: 'garbled'; readonly bytes: Buffer; readonly reason: string };

export interface FramerOptions {
  /** Expected BeginString (8). Default FIX.4.4. */
  beginString?: string;
  /** Hard limit on one message's size in bytes, header and trailer included. Default 64 KiB. */
  maxMessageSize?: number;
  /**
   * Copy each message out of the socket chunk (default true) so that keeping a message for the
   * audit log does not keep the whole chunk alive.
   */
  copyMessages?: boolean;
}

export class FixFramer {
  readonly beginString: string;
  readonly maxMessageSize: number;
  private readonly copyMessages: boolean;
  private readonly beginStringBytes: Buffer;
  /** Unconsumed bytes; always either empty, a partial "8=FIX" prefix, or starting at a message's "8=". */
  private pending: Buffer = EMPTY;
  // Early-end scan state for an incomplete frame, relative to its first byte (see scanForEarlyEnd):
  // prefix[i] is the byte sum of the frame's first i bytes, known up to prefixLength.
  private scanPos = 0;
  private prefix: Uint32Array | undefined;
  private prefixLength = 0;
  private discarded = 0;

  constructor(options: FramerOptions = {}) {
    this.beginString = options.beginString ?? 'FIX.4.4';
    this.maxMessageSize = options.maxMessageSize ?? 64 * 1024;
    this.copyMessages = options.copyMessages ?? true;
    this.beginStringBytes = Buffer.from(this.beginString, 'latin1');
    if (this.maxMessageSize < 64) throw new RangeError('maxMessageSize is too small for any FIX message');
  }

  /** Bytes held while waiting for the rest of a message (never more than maxMessageSize). */
  get bufferedBytes(): number {
    return this.pending.length;
  }

  /** Bytes thrown away so far: junk between messages and garbled frames. */
  get discardedBytes(): number {
    return this.discarded;
  }

  /** Forget any partial message (on disconnect). */
  reset(): void {
    this.pending = EMPTY;
    this.resetScan();
  }

  /** Feeds one chunk from the socket; returns the frames it completed, in stream order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let data: Buffer;
    if (this.pending.length === 0) data = chunk;
    else if (chunk.length === 0) data = this.pending;
    else data = Buffer.concat([this.pending, chunk]);
    const keepScan = this.pending.length > 0;
    this.pending = EMPTY;
    this.scan(data, frames, keepScan);
    return frames;
  }

  private scan(data: Buffer, frames: Frame[], resumeScan: boolean): void {
    const len = data.length;
    let pos = 0;
    let firstFrame = resumeScan;
    for (;;) {
      const start = this.findStart(data, pos);
      if (start < 0) {
        // Keep a tail that could be the beginning of "8=FIX" split across chunks.
        const keep = partialStartLength(data, pos);
        this.discarded += len - pos - keep;
        this.savePending(data, len - keep, false);
        return;
      }
      if (start > pos) {
        this.discarded += start - pos;
        firstFrame = false;
      }

      // 8=<BeginString><SOH>
      let i = start + 2;
      const bsLimit = Math.min(len, i + MAX_BEGIN_STRING + 1);
      while (i < bsLimit && data[i] !== SOH) i++;
      if (i >= len) return this.savePending(data, start, firstFrame);
      if (data[i] !== SOH) {
        pos = this.garbled(data, frames, start, i, 'BeginString too long or not terminated');
        firstFrame = false;
        continue;
      }
      const bsEnd = i;
      // 9=<digits><SOH>
      i++;
      if (i + 1 >= len) return this.savePending(data, start, firstFrame);
      if (data[i] !== 0x39 || data[i + 1] !== 0x3d) {
        pos = this.garbled(data, frames, start, i, 'BodyLength (9) must be the second field');
        firstFrame = false;
        continue;
      }
      i += 2;
      let bodyLength = 0;
      let digits = 0;
      while (i < len && digits <= MAX_BODY_LENGTH_DIGITS) {
        const c = data[i]!;
        if (c < 0x30 || c > 0x39) break;
        bodyLength = bodyLength * 10 + (c - 0x30);
        digits++;
        i++;
      }
      if (i >= len) return this.savePending(data, start, firstFrame);
      if (data[i] !== SOH || digits === 0 || digits > MAX_BODY_LENGTH_DIGITS) {
        pos = this.garbled(data, frames, start, i, 'BodyLength (9) is not a number');
        firstFrame = false;
        continue;
      }
      const bodyStart = i + 1;
      const checksumStart = bodyStart + bodyLength;
      const end = checksumStart + TRAILER_LENGTH;
      if (end - start > this.maxMessageSize) {
        pos = this.garbled(data, frames, start, bodyStart, `BodyLength ${bodyLength} exceeds the ${this.maxMessageSize}-byte limit`);
        firstFrame = false;
        continue;
      }
      if (end > len) {
        // Incomplete. Before waiting for more bytes, make sure the frame has not in fact already
        // ended (a BodyLength larger than the real body would otherwise hold every following
        // message hostage until enough bytes arrive).
        if (this.scanForEarlyEnd(data.subarray(start), bodyStart - start, end - start, firstFrame && start === 0)) {
          pos = this.garbled(data, frames, start, len, 'BodyLength (9) larger than the message');
          firstFrame = false;
          continue;
        }
        this.pending = data.subarray(start);
        return;
      }
      // <SOH>10=ddd<SOH> exactly where BodyLength says.
      if (
        data[checksumStart - 1] !== SOH ||
        data[checksumStart] !== 0x31 ||
        data[checksumStart + 1] !== 0x30 ||
        data[checksumStart + 2] !== 0x3d ||
        data[end - 1] !== SOH
      ) {
        pos = this.garbled(data, frames, start, end, 'BodyLength (9) does not match the CheckSum (10) position');
        firstFrame = false;
        continue;
      }
      const d0 = data[checksumStart + 3]! - 0x30;
      const d1 = data[checksumStart + 4]! - 0x30;
      const d2 = data[checksumStart + 5]! - 0x30;
      if (d0 < 0 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) {
        pos = this.garbled(data, frames, start, end, 'CheckSum (10) is not three digits');
        firstFrame = false;
        continue;
      }
      let sum = 0;
      let k = start;
      for (const unrolled = checksumStart - 3; k < unrolled; k += 4) sum += data[k]! + data[k + 1]! + data[k + 2]! + data[k + 3]!;
      for (; k < checksumStart; k++) sum += data[k]!;
      if ((sum & 0xff) !== d0 * 100 + d1 * 10 + d2) {
        pos = this.garbled(data, frames, start, end, `CheckSum (10) mismatch: computed ${pad3(sum & 0xff)}`);
        firstFrame = false;
        continue;
      }
      const bytes = this.copyMessages ? copyOut(data, start, end) : data.subarray(start, end);
      if (this.isExpectedBeginString(data, start + 2, bsEnd)) frames.push({ kind: 'message', bytes });
      else frames.push({ kind: 'wrongBeginString', bytes, beginString: data.toString('latin1', start + 2, bsEnd) });
      pos = end;
      firstFrame = false;
      this.resetScan();
    }
  }

  private findStart(data: Buffer, from: number): number {
    // Too few bytes left for "8=FIX" (the caller keeps a partial one): no need to search.
    if (from + START.length > data.length) return -1;
    if (
      from + 5 <= data.length &&
      data[from] === 0x38 &&
      data[from + 1] === 0x3d &&
      data[from + 2] === 0x46 &&
      data[from + 3] === 0x49 &&
      data[from + 4] === 0x58
    ) {
      return from;
    }
    return data.indexOf(START, from);
  }

  private isExpectedBeginString(data: Buffer, from: number, to: number): boolean {
    const expected = this.beginStringBytes;
    if (to - from !== expected.length) return false;
    for (let k = 0; k < expected.length; k++) if (data[from + k] !== expected[k]) return false;
    return true;
  }

  /** Reports data[start, until) as garbled and returns where to resume: just after this frame's "8". */
  private garbled(data: Buffer, frames: Frame[], start: number, until: number, reason: string): number {
    const upto = Math.min(Math.max(until, start + 1), data.length);
    frames.push({ kind: 'garbled', bytes: Buffer.from(data.subarray(start, upto)), reason });
    this.discarded += 1;
    this.resetScan();
    return start + 1;
  }

  private savePending(data: Buffer, from: number, resumeScan: boolean): void {
    this.pending = from < data.length ? copyOut(data, from, data.length) : EMPTY;
    if (!resumeScan) this.resetScan();
  }

  private resetScan(): void {
    this.scanPos = 0;
    this.prefixLength = 0;
  }

  /**
   * Decides, before waiting for the rest of an incomplete frame, whether it has in fact already
   * ended: a BodyLength larger than the real body would otherwise hold every following message
   * hostage until enough bytes arrive. Two proofs, looked for in the bytes received so far:
   *  - "<SOH>10=ddd<SOH>" where ddd is the checksum of everything before it, or
   *  - a complete, well-framed message (length and checksum correct) starting at an "8=FIX" inside
   *    the frame's declared extent.
   * A genuine message can contain either only inside a DATA field, and then only by checksum
   * coincidence or by embedding a whole FIX message; the cost of such a false alarm is one message
   * treated as garbled, which sequence-gap recovery repairs. Byte sums are kept as prefix sums and
   * the scan resumes where it stopped, so the work stays linear in the bytes received.
   */
  private scanForEarlyEnd(frame: Buffer, bodyStart: number, declaredEnd: number, resume: boolean): boolean {
    const len = frame.length;
    if (!resume) this.resetScan();
    // Sized to the frame's declared extent (bounded by maxMessageSize), growing by powers of two.
    if (this.prefix === undefined || this.prefix.length < declaredEnd + 1) {
      let size = 1024;
      while (size < declaredEnd + 1) size *= 2;
      const grown = new Uint32Array(size);
      if (this.prefix) grown.set(this.prefix.subarray(0, this.prefixLength + 1));
      this.prefix = grown;
    }
    const prefix = this.prefix;
    let sum = this.prefixLength > 0 ? prefix[this.prefixLength]! : 0;
    if (this.prefixLength === 0) prefix[0] = 0;
    for (let k = this.prefixLength; k < len; k++) {
      sum += frame[k]!;
      prefix[k + 1] = sum;
    }
    this.prefixLength = len;

    let k = Math.max(this.scanPos, bodyStart);
    for (; k < len; k++) {
      const c = frame[k];
      if (c === SOH) {
        if (k + TRAILER_LENGTH >= len) break;
        if (isTrailerAt(frame, k + 1) && (prefix[k + 1]! & 0xff) === trailerValue(frame, k + 1)) return true;
      } else if (c === 0x38 && k + START.length <= len && startsWithBeginString(frame, k)) {
        const verdict = this.completeFrameAt(frame, k, declaredEnd, prefix);
        if (verdict === FrameVerdict.Valid) return true;
        if (verdict === FrameVerdict.Incomplete) break;
      } else if (c === 0x38 && k + START.length > len) break;
    }
    this.scanPos = k;
    return false;
  }

  /** Whether a message that fits inside the outer frame's declared extent starts at `at`. */
  private completeFrameAt(frame: Buffer, at: number, declaredEnd: number, prefix: Uint32Array): FrameVerdict {
    const len = frame.length;
    let i = at + 2;
    const bsLimit = at + 2 + MAX_BEGIN_STRING + 1;
    while (i < len && i < bsLimit && frame[i] !== SOH) i++;
    if (i >= len) return FrameVerdict.Incomplete;
    if (frame[i] !== SOH) return FrameVerdict.Invalid;
    i++;
    if (i + 1 >= len) return FrameVerdict.Incomplete;
    if (frame[i] !== 0x39 || frame[i + 1] !== 0x3d) return FrameVerdict.Invalid;
    i += 2;
    let bodyLength = 0;
    let digits = 0;
    while (i < len && digits <= MAX_BODY_LENGTH_DIGITS) {
      const c = frame[i]!;
      if (c < 0x30 || c > 0x39) break;
      bodyLength = bodyLength * 10 + (c - 0x30);
      digits++;
      i++;
    }
    if (i >= len) return FrameVerdict.Incomplete;
    if (frame[i] !== SOH || digits === 0 || digits > MAX_BODY_LENGTH_DIGITS) return FrameVerdict.Invalid;
    const checksumStart = i + 1 + bodyLength;
    const end = checksumStart + TRAILER_LENGTH;
    // An inner frame reaching past the outer one cannot prove anything before the outer completes.
    if (end > declaredEnd) return FrameVerdict.Invalid;
    if (end > len) return FrameVerdict.Incomplete;
    if (frame[checksumStart - 1] !== SOH || !isTrailerAt(frame, checksumStart)) return FrameVerdict.Invalid;
    return ((prefix[checksumStart]! - prefix[at]!) & 0xff) === trailerValue(frame, checksumStart) ? FrameVerdict.Valid : FrameVerdict.Invalid;
  }
}

/** A copy of data[start, end) in a buffer of its own, without first making a view of the range. */
function copyOut(data: Buffer, start: number, end: number): Buffer {
  const copy = Buffer.allocUnsafe(end - start);
  copy.set(new Uint8Array(data.buffer, data.byteOffset + start, end - start));
  return copy;
}

const enum FrameVerdict {
  Valid,
  Invalid,
  Incomplete,
}

/** "10=ddd<SOH>" at `at` (caller guarantees 7 bytes). */
function isTrailerAt(data: Buffer, at: number): boolean {
  if (data[at] !== 0x31 || data[at + 1] !== 0x30 || data[at + 2] !== 0x3d || data[at + 6] !== SOH) return false;
  for (let k = at + 3; k < at + 6; k++) {
    const c = data[k]!;
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function trailerValue(data: Buffer, at: number): number {
  return (data[at + 3]! - 0x30) * 100 + (data[at + 4]! - 0x30) * 10 + (data[at + 5]! - 0x30);
}

function startsWithBeginString(data: Buffer, at: number): boolean {
  if (at + START.length > data.length) return false;
  for (let k = 0; k < START.length; k++) if (data[at + k] !== START[k]) return false;
  return true;
}

/** Length of the longest suffix of data[from..] that is a proper prefix of "8=FIX". */
function partialStartLength(data: Buffer, from: number): number {
  const len = data.length;
  for (let n = Math.min(START.length - 1, len - from); n > 0; n--) {
    let match = true;
    for (let k = 0; k < n; k++) {
      if (data[len - n + k] !== START[k]) {
        match = false;
        break;
      }
    }
    if (match) return n;
  }
  return 0;
}

function pad3(n: number): string {
  return n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n);
}
