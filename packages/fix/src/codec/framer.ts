// Cuts a TCP byte stream into FIX messages, with QuickFIX's rule for where a frame ends: BodyLength
// says where CheckSum starts, and the frame ends at the first "<SOH>10=...<SOH>" from there on. The
// frame is trusted only when BeginString, BodyLength and CheckSum all agree; anything else is
// reported as garbled so the session can ignore it (no Reject, no sequence number consumed) and
// scanning resumes after it. So a too-long BodyLength swallows the message it reaches into, exactly
// as at a QuickFIX peer, and the session's gap detection asks for it again. A frame broken before its
// BodyLength is readable, or one that would exceed maxMessageSize, is skipped from just after its "8=".

const SOH = 0x01;
const MAX_BEGIN_STRING = 16;
const MAX_BODY_LENGTH_DIGITS = 9;
/** "10=" + three digits + SOH. */
const TRAILER_LENGTH = 7;
const START = Buffer.from('8=FIX', 'latin1');
const TRAILER_START = Buffer.from('\x0110=', 'latin1');
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
  }

  /** Feeds one chunk from the socket; returns the frames it completed, in stream order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let data: Buffer;
    if (this.pending.length === 0) data = chunk;
    else if (chunk.length === 0) data = this.pending;
    else data = Buffer.concat([this.pending, chunk]);
    this.pending = EMPTY;
    this.scan(data, frames);
    return frames;
  }

  private scan(data: Buffer, frames: Frame[]): void {
    const len = data.length;
    let pos = 0;
    for (;;) {
      const start = this.findStart(data, pos);
      if (start < 0) {
        // Keep a tail that could be the beginning of "8=FIX" split across chunks.
        const keep = partialStartLength(data, pos);
        this.discarded += len - pos - keep;
        this.savePending(data, len - keep);
        return;
      }
      if (start > pos) this.discarded += start - pos;

      // 8=<BeginString><SOH>
      let i = start + 2;
      const bsLimit = Math.min(len, i + MAX_BEGIN_STRING + 1);
      while (i < bsLimit && data[i] !== SOH) i++;
      if (i >= len) return this.savePending(data, start);
      if (data[i] !== SOH) {
        pos = this.garbled(data, frames, start, i, 'BeginString too long or not terminated');
        continue;
      }
      const bsEnd = i;
      // 9=<digits><SOH>
      i++;
      if (i + 1 >= len) return this.savePending(data, start);
      if (data[i] !== 0x39 || data[i + 1] !== 0x3d) {
        pos = this.garbled(data, frames, start, i, 'BodyLength (9) must be the second field');
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
      if (i >= len) return this.savePending(data, start);
      if (data[i] !== SOH || digits === 0 || digits > MAX_BODY_LENGTH_DIGITS) {
        pos = this.garbled(data, frames, start, i, 'BodyLength (9) is not a number');
        continue;
      }
      const bodyStart = i + 1;
      const checksumStart = bodyStart + bodyLength;
      const end = checksumStart + TRAILER_LENGTH;
      if (end - start > this.maxMessageSize) {
        pos = this.garbled(data, frames, start, bodyStart, `BodyLength ${bodyLength} exceeds the ${this.maxMessageSize}-byte limit`);
        continue;
      }
      // The usual case: <SOH>10=ddd<SOH> exactly where BodyLength says.
      const trailerInPlace =
        end <= len &&
        data[checksumStart - 1] === SOH &&
        data[checksumStart] === 0x31 &&
        data[checksumStart + 1] === 0x30 &&
        data[checksumStart + 2] === 0x3d &&
        data[end - 1] === SOH;
      if (!trailerInPlace) {
        // The frame ends at the first "<SOH>10=...<SOH>" from the declared CheckSum on (QuickFIX).
        const frameEnd = trailerEnd(data, checksumStart - 1);
        if (frameEnd < 0 || frameEnd - start > this.maxMessageSize) {
          if (len - start <= this.maxMessageSize && frameEnd < 0) return this.savePending(data, start);
          pos = this.garbled(data, frames, start, bodyStart, `no CheckSum (10) within the ${this.maxMessageSize}-byte limit`);
          continue;
        }
        pos = this.garbled(data, frames, start, frameEnd, 'BodyLength (9) does not match the CheckSum (10) position', frameEnd);
        continue;
      }
      const d0 = data[checksumStart + 3]! - 0x30;
      const d1 = data[checksumStart + 4]! - 0x30;
      const d2 = data[checksumStart + 5]! - 0x30;
      if (d0 < 0 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) {
        pos = this.garbled(data, frames, start, end, 'CheckSum (10) is not three digits', end);
        continue;
      }
      let sum = 0;
      let k = start;
      for (const unrolled = checksumStart - 3; k < unrolled; k += 4) sum += data[k]! + data[k + 1]! + data[k + 2]! + data[k + 3]!;
      for (; k < checksumStart; k++) sum += data[k]!;
      if ((sum & 0xff) !== d0 * 100 + d1 * 10 + d2) {
        pos = this.garbled(data, frames, start, end, `CheckSum (10) mismatch: computed ${pad3(sum & 0xff)}`, end);
        continue;
      }
      const bytes = this.copyMessages ? copyOut(data, start, end) : data.subarray(start, end);
      if (this.isExpectedBeginString(data, start + 2, bsEnd)) frames.push({ kind: 'message', bytes });
      else frames.push({ kind: 'wrongBeginString', bytes, beginString: data.toString('latin1', start + 2, bsEnd) });
      pos = end;
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

  /**
   * Reports data[start, until) as garbled and returns where to resume: `frameEnd` when the frame's end
   * is known, else just after this frame's "8".
   */
  private garbled(data: Buffer, frames: Frame[], start: number, until: number, reason: string, frameEnd?: number): number {
    const upto = Math.min(Math.max(until, start + 1), data.length);
    frames.push({ kind: 'garbled', bytes: Buffer.from(data.subarray(start, upto)), reason });
    const resume = frameEnd ?? start + 1;
    this.discarded += resume - start;
    return resume;
  }

  private savePending(data: Buffer, from: number): void {
    this.pending = from < data.length ? copyOut(data, from, data.length) : EMPTY;
  }
}

/** A copy of data[start, end) in a buffer of its own, without first making a view of the range. */
function copyOut(data: Buffer, start: number, end: number): Buffer {
  const copy = Buffer.allocUnsafe(end - start);
  copy.set(new Uint8Array(data.buffer, data.byteOffset + start, end - start));
  return copy;
}

/** The end (past its SOH) of the first "<SOH>10=...<SOH>" at or after `from`, or -1 when not there yet. */
function trailerEnd(data: Buffer, from: number): number {
  const t = data.indexOf(TRAILER_START, from);
  if (t < 0) return -1;
  const soh = data.indexOf(SOH, t + TRAILER_START.length);
  return soh < 0 ? -1 : soh + 1;
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
