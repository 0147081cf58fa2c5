// Builds outgoing messages and encodes them the way QuickFIX writes them: 8, 9, 35 first, the
// other header fields by tag number, body fields by tag number with each repeating group at its
// NumInGroup tag and its entries in dictionary order (delimiter first), CheckSum last. Bytes are
// written straight into a reusable buffer; BodyLength and CheckSum are computed on the bytes.
import { Dictionary, type FieldScope, type GroupDef } from '../dictionary/dictionary';
import { formatUtcTimestamp } from './values';

const SOH = 0x01;

/**
 * A field value. Decimals (prices, quantities) are passed as strings so they are written exactly;
 * numbers must be safe integers; Date is written as a UTCTimestamp with milliseconds; booleans as
 * Y/N; byte arrays only for DATA fields.
 */
export type FieldValue = string | number | bigint | boolean | Date | Uint8Array;

/** One repeating-group entry: tag → value, or tag → entries for a nested group. */
export type GroupEntryInput = { readonly [tag: number]: FieldValue | readonly GroupEntryInput[] | undefined };

type StoredValue = FieldValue | readonly GroupEntryInput[];

/** Tags the encoder owns: BeginString, BodyLength, MsgType, CheckSum. */
const RESERVED_TAGS = new Set([8, 9, 10, 35]);

/** An outgoing message being assembled; encode it with FixEncoder. Header and body tags go through the same set(). */
export class FixMessageBuilder {
  /** @internal */ readonly tags: number[] = [];
  /** @internal */ readonly values: StoredValue[] = [];

  constructor(readonly msgType: string) {
    if (!msgType || msgType.length > 3) throw new RangeError(`bad MsgType '${msgType}'`);
  }

  /** Sets (or replaces) a field. Header fields (49, 56, 34, 52, 43, 122, ...) are placed in the header on encode. */
  set(tag: number, value: FieldValue): this {
    if (!Number.isInteger(tag) || tag <= 0 || tag >= 0x40000000) throw new RangeError(`bad FIX tag ${tag}`);
    if (tag === 8 || tag === 9 || tag === 10 || tag === 35) throw new RangeError(`FIX tag ${tag} is written by the encoder`);
    if (typeof value === 'string' && value.length === 0) throw new RangeError(`FIX tag ${tag}: empty value`);
    this.store(tag, value);
    return this;
  }

  /** Sets a field only when the value is defined; convenient for optional fields. */
  setIfDefined(tag: number, value: FieldValue | undefined | null): this {
    if (value !== undefined && value !== null) this.set(tag, value);
    return this;
  }

  /** Sets a repeating group; NumInGroup (countTag) is written as entries.length. Empty → the group is omitted. */
  setGroup(countTag: number, entries: readonly GroupEntryInput[]): this {
    if (!Number.isInteger(countTag) || countTag <= 0 || countTag >= 0x40000000) throw new RangeError(`bad FIX tag ${countTag}`);
    if (entries.length === 0) this.delete(countTag);
    else this.store(countTag, entries);
    return this;
  }

  get(tag: number): StoredValue | undefined {
    const i = this.tags.lastIndexOf(tag);
    return i < 0 ? undefined : this.values[i];
  }

  has(tag: number): boolean {
    return this.tags.indexOf(tag) >= 0;
  }

  delete(tag: number): boolean {
    let found = false;
    for (let i = this.tags.length - 1; i >= 0; i--) {
      if (this.tags[i] === tag) {
        this.tags.splice(i, 1);
        this.values.splice(i, 1);
        found = true;
      }
    }
    return found;
  }

  // Appending is O(1); a replaced field stays in the list and the encoder writes only the last value
  // set for a tag.
  private store(tag: number, value: StoredValue): void {
    this.tags.push(tag);
    this.values.push(value);
  }
}

export interface EncoderOptions {
  /** BeginString (8). Default: the dictionary's (FIX.4.4). */
  beginString?: string;
}

/** Thrown for values that cannot be put on the wire (SOH in a non-DATA field, non-latin1 text, fractional numbers). */
export class FixEncodeError extends Error {
  constructor(
    readonly tag: number,
    message: string,
  ) {
    super(`FIX tag ${tag}: ${message}`);
    this.name = 'FixEncodeError';
  }
}

/** Room before the body for "8=FIX.4.4<SOH>9=<length><SOH>", filled in once the length is known. */
const PREFIX_ROOM = 32;
/** Tags below this have their "tag=" bytes precomputed. */
const TAG_CACHE_LIMIT = 10_000;
const SLAB_SIZE = 64 * 1024;
/** Tags are below 2^30 (checked in set), so section * 2^30 + tag orders by section, then tag. */
const SECTION_WEIGHT = 0x40000000;

export class FixEncoder {
  readonly dictionary: Dictionary;
  readonly beginString: string;
  // Messages are written one after another into a slab and handed out as views of it, which
  // saves a copy per message; a full slab is left to the messages still referencing it.
  private buf: Buffer = Buffer.allocUnsafe(SLAB_SIZE);
  /** A view of buf for writing a short tag's "tag=" bytes with one 32-bit store. */
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  /** Where the message being encoded starts in buf (its prefix room included). */
  private base = 0;
  private pos = 0;
  /** Running byte sum of everything written after the prefix, for CheckSum. */
  private sum = 0;
  private readonly order: number[] = [];
  private readonly keys: number[] = [];
  /** By tag: 0 header, 1 body, 2 trailer. */
  private readonly sectionOf: Uint8Array;
  /** By tag: 1 for DATA fields (which may contain SOH). */
  private readonly dataTag: Uint8Array;
  /** LENGTH tag → its DATA tag. */
  private readonly dataOfLength = new Map<number, number>();
  private readonly prefixBytes: Buffer;
  private readonly prefixSum: number;
  private readonly tagLimit: number;
  private readonly tagBytes: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(TAG_CACHE_LIMIT).fill(undefined);
  private readonly tagSums = new Uint16Array(TAG_CACHE_LIMIT);
  private readonly tagWords = new Uint32Array(1000);
  private readonly tagLengths = new Uint8Array(1000);

  constructor(dictionary: Dictionary = Dictionary.fix44(), options: EncoderOptions = {}) {
    this.dictionary = dictionary;
    this.beginString = options.beginString ?? dictionary.beginString;
    this.prefixBytes = Buffer.from(`8=${this.beginString}\x019=`, 'latin1');
    if (this.prefixBytes.length + 12 > PREFIX_ROOM) throw new RangeError('BeginString too long');
    let prefixSum = 0;
    for (const b of this.prefixBytes) prefixSum += b;
    this.prefixSum = prefixSum;
    this.tagLimit = dictionary.tagLimit;
    this.sectionOf = new Uint8Array(this.tagLimit).fill(1);
    this.dataTag = new Uint8Array(this.tagLimit);
    for (let tag = 1; tag < this.tagLimit; tag++) {
      if (dictionary.header.has(tag)) this.sectionOf[tag] = 0;
      else if (dictionary.trailer.has(tag)) this.sectionOf[tag] = 2;
      if (dictionary.lengthTagByDataTag[tag] !== 0) {
        this.dataTag[tag] = 1;
        this.dataOfLength.set(dictionary.lengthTagByDataTag[tag]!, tag);
      }
    }
  }

  /**
   * Encodes the message in QuickFIX field order. The result is a view of an internal slab that the
   * encoder never writes again, so the caller may keep it.
   */
  encode(message: FixMessageBuilder): Buffer {
    const tags = message.tags;
    const values = message.values;
    const n = tags.length;
    const sectionOf = this.sectionOf;
    const tagLimit = this.tagLimit;
    // Sort key: section (header 0, body 1, trailer 2), then tag number. Insertion sort is O(n) for
    // the usual input, which already lists header then body fields in ascending order.
    const keys = this.keys;
    const order = this.order;
    keys.length = n;
    order.length = n;
    let lengthTagsToSkip: Set<number> | undefined;
    for (let i = 0; i < n; i++) {
      const tag = tags[i]!;
      let key = (tag < tagLimit ? sectionOf[tag]! : 1) * SECTION_WEIGHT + tag;
      if (tag < tagLimit && this.dataTag[tag] === 1) {
        // The encoder writes a DATA field's LENGTH itself, right before it (so SignatureLength
        // goes before Signature even though its tag is higher).
        const lengthTag = this.dictionary.lengthTagByDataTag[tag]!;
        (lengthTagsToSkip ??= new Set()).add(lengthTag);
        if (lengthTag > tag) key += lengthTag - tag + 0.5;
      }
      keys[i] = key;
      let j = i - 1;
      while (j >= 0 && keys[order[j]!]! > key) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = i;
    }

    this.begin();
    this.writeStringField(35, message.msgType);
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      const tag = tags[i]!;
      // The sort is stable, so when a tag was set more than once the last value set comes last.
      if (k + 1 < n && tags[order[k + 1]!] === tag) continue;
      if (lengthTagsToSkip !== undefined && lengthTagsToSkip.has(tag)) continue;
      const value = values[i]!;
      if (typeof value === 'string') this.writeStringField(tag, value);
      else if (Array.isArray(value)) {
        const inHeader = keys[i]! < SECTION_WEIGHT;
        const scope: FieldScope | undefined = inHeader ? this.dictionary.header : this.dictionary.message(message.msgType)?.body;
        this.writeGroup(tag, value as readonly GroupEntryInput[], scope?.group(tag));
      } else this.writeField(tag, value as FieldValue);
    }
    return this.finish();
  }

  /**
   * Encodes fields in exactly the order given (8, 9, 35 and 10 are still written by the encoder):
   * for re-sending stored messages and for tests that need a specific wire order.
   */
  encodeOrdered(msgType: string, header: ReadonlyArray<readonly [number, FieldValue]>, body: ReadonlyArray<readonly [number, FieldValue]>): Buffer {
    this.begin();
    this.writeStringField(35, msgType);
    const skip = new Set(RESERVED_TAGS);
    for (const [tag] of [...header, ...body]) {
      if (this.isDataField(tag)) skip.add(this.dictionary.lengthTagByDataTag[tag]!);
    }
    for (const [tag, value] of header) {
      if (!skip.has(tag)) this.writeField(tag, value);
    }
    for (const [tag, value] of body) {
      if (!skip.has(tag)) this.writeField(tag, value);
    }
    return this.finish();
  }

  private begin(): void {
    if (this.base + PREFIX_ROOM + 1024 > this.buf.length) {
      this.setSlab(Buffer.allocUnsafe(SLAB_SIZE));
      this.base = 0;
    }
    this.pos = this.base + PREFIX_ROOM;
    this.sum = 0;
  }

  private finish(): Buffer {
    const bodyEnd = this.pos;
    const bodyLength = bodyEnd - this.base - PREFIX_ROOM;
    this.ensure(8);
    const buf = this.buf;
    // "8=FIX.4.4<SOH>9=" + length + <SOH>, placed right before the body.
    let p = this.base + PREFIX_ROOM - 1;
    buf[p] = SOH;
    let sum = this.sum + this.prefixSum + SOH;
    let v = bodyLength;
    do {
      const digit = 0x30 + (v % 10);
      buf[--p] = digit;
      sum += digit;
      v = Math.floor(v / 10);
    } while (v > 0);
    const prefix = this.prefixBytes;
    const start = p - prefix.length;
    prefix.copy(buf, start);
    sum &= 0xff;
    let q = bodyEnd;
    buf[q++] = 0x31;
    buf[q++] = 0x30;
    buf[q++] = 0x3d;
    buf[q++] = 0x30 + Math.floor(sum / 100);
    buf[q++] = 0x30 + (Math.floor(sum / 10) % 10);
    buf[q++] = 0x30 + (sum % 10);
    buf[q++] = SOH;
    this.base = q;
    return buf.subarray(start, q);
  }

  private writeGroup(countTag: number, entries: readonly GroupEntryInput[], group: GroupDef | undefined): void {
    this.writeField(countTag, entries.length);
    for (const entry of entries) {
      // Members in dictionary order (delimiter first); tags the group does not define follow by number.
      const entryTags: number[] = [];
      for (const key in entry) {
        if (entry[key as unknown as number] !== undefined) entryTags.push(+key);
      }
      const rank = group?.rank;
      const weight = (tag: number): number => (rank !== undefined && tag < rank.length && rank[tag]! > 0 ? rank[tag]! : 0x10000 + tag);
      entryTags.sort((a, b) => weight(a) - weight(b));
      if (group !== undefined && entryTags[0] !== group.delimiter) {
        throw new FixEncodeError(countTag, `every ${group.name} entry must set the delimiter field ${group.delimiter}`);
      }
      for (const tag of entryTags) {
        if (this.isLengthOfDataIn(tag, entry)) continue;
        const value = entry[tag]!;
        if (Array.isArray(value)) this.writeGroup(tag, value as readonly GroupEntryInput[], group?.group(tag));
        else this.writeField(tag, value as FieldValue);
      }
    }
  }

  private writeField(tag: number, value: FieldValue): void {
    if (typeof value === 'string') {
      this.writeStringField(tag, value);
      return;
    }
    if (value instanceof Uint8Array && value.length > 0 && this.isDataField(tag)) this.writeDataLength(tag, value.length);
    this.writeTag(tag);
    switch (typeof value) {
      case 'number':
        if (!Number.isSafeInteger(value)) throw new FixEncodeError(tag, `${value} is not an integer; pass decimals as strings`);
        if (value < 0) {
          this.buf[this.pos++] = 0x2d;
          this.sum += 0x2d;
          this.writeUnsigned(-value);
        } else this.writeUnsigned(value);
        break;
      case 'bigint':
        this.writeString(tag, value.toString(), false);
        break;
      case 'boolean':
        this.buf[this.pos++] = value ? 0x59 : 0x4e;
        this.sum += value ? 0x59 : 0x4e;
        break;
      default:
        if (value instanceof Date) this.writeString(tag, formatUtcTimestamp(value), false);
        else if (value instanceof Uint8Array) {
          if (!this.isDataField(tag) && value.includes(SOH)) throw new FixEncodeError(tag, 'SOH inside a non-DATA field');
          if (value.length === 0) throw new FixEncodeError(tag, 'empty value');
          this.ensure(value.length);
          this.buf.set(value, this.pos);
          this.pos += value.length;
          let sum = 0;
          for (let k = 0; k < value.length; k++) sum += value[k]!;
          this.sum += sum;
        } else throw new FixEncodeError(tag, `unsupported value ${String(value)}`);
    }
    this.buf[this.pos++] = SOH;
    this.sum += SOH;
  }

  /** A LENGTH tag whose DATA field is also in the entry (the encoder writes the length itself). */
  private isLengthOfDataIn(tag: number, entry: GroupEntryInput): boolean {
    const data = this.dataOfLength.get(tag);
    return data !== undefined && entry[data] !== undefined;
  }

  /** Writes "lengthTag=<byte count><SOH>" for the DATA field about to be written. */
  private writeDataLength(dataTag: number, byteLength: number): void {
    const lengthTag = this.dictionary.lengthTagByDataTag[dataTag]!;
    this.writeTag(lengthTag);
    this.writeUnsigned(byteLength);
    this.buf[this.pos++] = SOH;
    this.sum += SOH;
  }

  private isDataField(tag: number): boolean {
    return tag < this.tagLimit && this.dataTag[tag] === 1;
  }

  /** tag=value<SOH> for a string value: the hot path, with locals instead of per-byte field access. */
  private writeStringField(tag: number, s: string): void {
    const len = s.length;
    if (len === 0) throw new FixEncodeError(tag, 'empty value');
    const allowSoh = tag < this.tagLimit && this.dataTag[tag] === 1;
    if (allowSoh) this.writeDataLength(tag, len);
    this.ensure(len + 24);
    const buf = this.buf;
    let p = this.pos;
    let sum = this.sum;
    if (tag < 1000) {
      // "tag=" is at most 4 bytes: one little-endian 32-bit store (ensure() left room for the
      // extra bytes, which the value overwrites).
      if (this.tagBytes[tag] === undefined) this.cacheTag(tag);
      this.view.setUint32(p, this.tagWords[tag]!, true);
      p += this.tagLengths[tag]!;
      sum += this.tagSums[tag]!;
    } else if (tag < TAG_CACHE_LIMIT) {
      const bytes = this.tagBytes[tag] ?? this.cacheTag(tag);
      for (let k = 0; k < bytes.length; k++) buf[p++] = bytes[k]!;
      sum += this.tagSums[tag]!;
    } else {
      this.writeTag(tag);
      p = this.pos;
      sum = this.sum;
    }
    for (let i = 0; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff || (c === SOH && !allowSoh)) {
        throw new FixEncodeError(tag, c === SOH ? 'SOH inside a non-DATA field' : `character U+${c.toString(16)} is not encodable (use an Encoded* field)`);
      }
      buf[p++] = c;
      sum += c;
    }
    buf[p++] = SOH;
    this.pos = p;
    this.sum = sum + SOH;
  }

  private cacheTag(tag: number): Uint8Array {
    const bytes = Buffer.from(`${tag}=`, 'latin1');
    this.tagBytes[tag] = bytes;
    let sum = 0;
    let word = 0;
    for (let k = 0; k < bytes.length; k++) {
      sum += bytes[k]!;
      if (k < 4) word += bytes[k]! * 2 ** (8 * k);
    }
    this.tagSums[tag] = sum;
    if (tag < 1000) {
      this.tagWords[tag] = word;
      this.tagLengths[tag] = bytes.length;
    }
    return bytes;
  }

  /** Writes "tag=" and guarantees room for at least 24 more bytes. */
  private writeTag(tag: number): void {
    this.ensure(40);
    if (tag >= TAG_CACHE_LIMIT) {
      this.writeUnsigned(tag);
      this.buf[this.pos++] = 0x3d;
      this.sum += 0x3d;
      return;
    }
    const bytes = this.tagBytes[tag] ?? this.cacheTag(tag);
    const buf = this.buf;
    let p = this.pos;
    for (let k = 0; k < bytes.length; k++) buf[p++] = bytes[k]!;
    this.pos = p;
    this.sum += this.tagSums[tag]!;
  }

  private writeUnsigned(v: number): void {
    const buf = this.buf;
    let digits = 1;
    for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    let sum = 0;
    let t = v;
    do {
      const digit = 0x30 + (t % 10);
      buf[--p] = digit;
      sum += digit;
      t = Math.floor(t / 10);
    } while (t > 0);
    this.sum += sum;
  }

  private writeString(tag: number, s: string, allowSoh: boolean): void {
    const len = s.length;
    this.ensure(len);
    const buf = this.buf;
    let p = this.pos;
    let sum = 0;
    for (let i = 0; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff || (c === SOH && !allowSoh)) {
        throw new FixEncodeError(tag, c === SOH ? 'SOH inside a non-DATA field' : `character U+${c.toString(16)} is not encodable (use an Encoded* field)`);
      }
      buf[p++] = c;
      sum += c;
    }
    this.pos = p;
    this.sum += sum;
  }

  private setSlab(buf: Buffer): void {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  }

  /** Makes room for `extra` more bytes (plus slack), moving the message in progress to a new slab if needed. */
  private ensure(extra: number): void {
    if (this.pos + extra + 16 <= this.buf.length) return;
    const used = this.pos - this.base;
    const grown = Buffer.allocUnsafe(Math.max(SLAB_SIZE, 2 * (used + extra + 1024)));
    this.buf.copy(grown, 0, this.base, this.pos);
    this.setSlab(grown);
    this.base = 0;
    this.pos = used;
  }
}
