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

function refuse(tag: number): never {
  if (!Number.isInteger(tag) || tag <= 0 || tag >= 0x40000000) throw new RangeError(`bad FIX tag ${tag}`);
  if (tag === 8 || tag === 9 || tag === 10 || tag === 35) throw new RangeError(`FIX tag ${tag} is written by the encoder`);
  throw new RangeError(`FIX tag ${tag}: empty value`);
}

/** Room for this many fields is allocated with the builder (it grows past it). */
const INITIAL_FIELDS = 32;

/** An outgoing message being assembled; encode it with FixEncoder. Header and body tags go through the same set(). */
export class FixMessageBuilder {
  // Preallocated rather than grown by push: allocating once is cheaper than two regrowths per
  // message. Only the first `count` slots are in use.
  /** @internal */ readonly tags: number[] = new Array<number>(INITIAL_FIELDS);
  /** @internal */ readonly values: StoredValue[] = new Array<StoredValue>(INITIAL_FIELDS);
  /** @internal The number of fields set, replaced ones included. */ count = 0;

  constructor(readonly msgType: string) {
    if (!msgType || msgType.length > 3) throw new RangeError(`bad MsgType '${msgType}'`);
  }

  /** Sets (or replaces) a field. Header fields (49, 56, 34, 52, 43, 122, ...) are placed in the header on encode. */
  set(tag: number, value: FieldValue): this {
    // Kept small so that a chain of set() calls is inlined: one test for the common case (the mask
    // keeps integers from 0 to 2^30 - 1 as they are), the reason worked out only for a refused field.
    if ((tag & 0x3fffffff) !== tag || tag === 0 || (tag >= 8 && tag <= 10) || tag === 35 || value === '') refuse(tag);
    const n = this.count;
    this.tags[n] = tag;
    this.values[n] = value;
    this.count = n + 1;
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
    for (let i = this.count - 1; i >= 0; i--) if (this.tags[i] === tag) return this.values[i];
    return undefined;
  }

  has(tag: number): boolean {
    for (let i = 0; i < this.count; i++) if (this.tags[i] === tag) return true;
    return false;
  }

  delete(tag: number): boolean {
    const tags = this.tags;
    const values = this.values;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      if (tags[i] === tag) continue;
      tags[kept] = tags[i]!;
      values[kept] = values[i]!;
      kept++;
    }
    const found = kept < this.count;
    // Free the dropped values' slots for the garbage collector.
    for (let i = kept; i < this.count; i++) values[i] = undefined as unknown as StoredValue;
    this.count = kept;
    return found;
  }

  // Appending is O(1); a replaced field stays in the list and the encoder writes only the last value
  // set for a tag.
  private store(tag: number, value: StoredValue): void {
    const n = this.count;
    this.tags[n] = tag;
    this.values[n] = value;
    this.count = n + 1;
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
/** "YYYYMMDD-HH:MM:SS." */
const STAMP_PREFIX_LENGTH = 18;
/** The in-order check's key: section * SECTION_STEP + tag, for tags below TAG_CACHE_LIMIT. */
const SECTION_STEP = 0x4000;

function firstUnencodable(s: string, from: number): number {
  for (let k = from; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c > 0xff || c === SOH) return c;
  }
  return SOH;
}

function unencodable(tag: number, c: number): FixEncodeError {
  return new FixEncodeError(
    tag,
    c === SOH ? 'SOH inside a non-DATA field' : `character U+${c.toString(16)} is not encodable (use an Encoded* field)`,
  );
}

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
  /** "YYYYMMDD-HH:MM:SS." of the last Date written, for the second stampSecond, and its byte sum. */
  private readonly stampPrefix = new Uint8Array(STAMP_PREFIX_LENGTH);
  private stampSecond = Number.NaN;
  private stampSum = 0;
  /** By tag: section * SECTION_STEP + tag, or 0 for tags the in-order path leaves to the sort (DATA and LENGTH fields). */
  private readonly orderKey = new Uint16Array(TAG_CACHE_LIMIT);

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
    for (let tag = 1; tag < TAG_CACHE_LIMIT; tag++) {
      const section = tag < this.tagLimit ? this.sectionOf[tag]! : 1;
      this.orderKey[tag] = section * SECTION_STEP + tag;
      if (tag < 1000) {
        // "tag=" as a little-endian word for one 32-bit store, its length and its byte sum.
        let word = 0;
        let sum = 0;
        const text = `${tag}=`;
        for (let k = 0; k < text.length; k++) {
          word += text.charCodeAt(k) * 2 ** (8 * k);
          sum += text.charCodeAt(k);
        }
        this.tagWords[tag] = word;
        this.tagLengths[tag] = text.length;
        this.tagSums[tag] = sum;
      }
    }
    for (const tag of RESERVED_TAGS) this.orderKey[tag] = 0;
    for (const [lengthTag, dataTag] of this.dataOfLength) {
      if (lengthTag < TAG_CACHE_LIMIT) this.orderKey[lengthTag] = 0;
      if (dataTag < TAG_CACHE_LIMIT) this.orderKey[dataTag] = 0;
    }
  }

  /**
   * Encodes the message in QuickFIX field order. The result is a view of an internal slab that the
   * encoder never writes again, so the caller may keep it.
   */
  encode(message: FixMessageBuilder): Buffer {
    // Callers usually set the header and then the body fields by ascending tag, which is already the
    // wire order: one pass over the tags proves it and the fields are written as they are. Anything
    // else (another order, a tag set twice, DATA fields and their lengths, very high tags) is sorted.
    const tags = message.tags;
    const n = message.count;
    const orderKey = this.orderKey;
    let previous = 0;
    for (let i = 0; i < n; i++) {
      const tag = tags[i]!;
      const key = tag < TAG_CACHE_LIMIT ? orderKey[tag]! : 0;
      if (key <= previous) return this.encodeSorted(message);
      previous = key;
    }
    return this.encodeInOrder(message);
  }

  /** encode() for fields already in wire order, each exactly once: no sort, locals instead of fields. */
  private encodeInOrder(message: FixMessageBuilder): Buffer {
    const tags = message.tags;
    const values = message.values;
    const n = message.count;
    this.begin();
    this.writeStringField(35, message.msgType);
    const tagWords = this.tagWords;
    const tagLengths = this.tagLengths;
    const tagSums = this.tagSums;
    let buf = this.buf;
    let view = this.view;
    let p = this.pos;
    let sum = this.sum;
    for (let i = 0; i < n; i++) {
      const tag = tags[i]!;
      const value = values[i]!;
      if (typeof value === 'string' && tag < 1000) {
        const len = value.length;
        if (p + len + 24 > buf.length) {
          this.pos = p;
          this.ensure(len + 24);
          buf = this.buf;
          view = this.view;
          p = this.pos;
        }
        if (len === 0) throw new FixEncodeError(tag, 'empty value');
        // "tag=" in one 32-bit store; the value overwrites the spare bytes.
        view.setUint32(p, tagWords[tag]!, true);
        p += tagLengths[tag]!;
        sum += tagSums[tag]!;
        // Four characters per step, stored as one word: reading the string is most of the work.
        let k = 0;
        for (; k + 4 <= len; k += 4) {
          const c0 = value.charCodeAt(k);
          const c1 = value.charCodeAt(k + 1);
          const c2 = value.charCodeAt(k + 2);
          const c3 = value.charCodeAt(k + 3);
          if ((c0 | c1 | c2 | c3) > 0xff || c0 === SOH || c1 === SOH || c2 === SOH || c3 === SOH) {
            throw unencodable(tag, firstUnencodable(value, k));
          }
          view.setUint32(p, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24), true);
          p += 4;
          sum += c0 + c1 + c2 + c3;
        }
        for (; k < len; k++) {
          const c = value.charCodeAt(k);
          if (c > 0xff || c === SOH) throw unencodable(tag, c);
          buf[p++] = c;
          sum += c;
        }
        buf[p++] = SOH;
        sum += SOH;
      } else if (typeof value === 'number' && tag < 1000 && value >= 0 && value <= 0xffffffff && value % 1 === 0) {
        // Counters and sequence numbers: digits written backwards from the end of the number.
        if (p + 40 > buf.length) {
          this.pos = p;
          this.ensure(40);
          buf = this.buf;
          view = this.view;
          p = this.pos;
        }
        view.setUint32(p, tagWords[tag]!, true);
        p += tagLengths[tag]!;
        sum += tagSums[tag]!;
        let digits = 1;
        for (let t = value; t >= 10; t = (t / 10) >>> 0) digits++;
        let q = p + digits;
        p = q;
        let t = value;
        do {
          const next = (t / 10) >>> 0;
          const digit = 0x30 + t - next * 10;
          buf[--q] = digit;
          sum += digit;
          t = next;
        } while (t > 0);
        buf[p++] = SOH;
        sum += SOH;
      } else if (value instanceof Date && tag < 1000) {
        if (p + 40 > buf.length) {
          this.pos = p;
          this.ensure(40);
          buf = this.buf;
          view = this.view;
          p = this.pos;
        }
        view.setUint32(p, tagWords[tag]!, true);
        this.pos = p + tagLengths[tag]!;
        this.sum = sum + tagSums[tag]!;
        this.writeTimestamp(value);
        p = this.pos;
        sum = this.sum;
        buf[p++] = SOH;
        sum += SOH;
      } else {
        this.pos = p;
        this.sum = sum;
        if (Array.isArray(value)) {
          const scope = this.orderKey[tag]! < SECTION_STEP ? this.dictionary.header : this.dictionary.message(message.msgType)?.body;
          this.writeGroup(tag, value as readonly GroupEntryInput[], scope?.group(tag));
        } else this.writeField(tag, value as FieldValue);
        buf = this.buf;
        view = this.view;
        p = this.pos;
        sum = this.sum;
      }
    }
    this.pos = p;
    this.sum = sum;
    return this.finish();
  }

  private encodeSorted(message: FixMessageBuilder): Buffer {
    const tags = message.tags;
    const values = message.values;
    const n = message.count;
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
  encodeOrdered(
    msgType: string,
    header: ReadonlyArray<readonly [number, FieldValue]>,
    body: ReadonlyArray<readonly [number, FieldValue]>,
  ): Buffer {
    // The encoder writes a DATA field's LENGTH itself, so a LENGTH given with its DATA is skipped.
    const lengthTags = this.lengthTagsOfData(body, this.lengthTagsOfData(header, undefined));
    this.begin();
    this.writeStringField(35, msgType);
    this.writeInGivenOrder(header, lengthTags);
    this.writeInGivenOrder(body, lengthTags);
    return this.finish();
  }

  private lengthTagsOfData(fields: ReadonlyArray<readonly [number, FieldValue]>, found: Set<number> | undefined): Set<number> | undefined {
    for (let i = 0; i < fields.length; i++) {
      const tag = fields[i]![0];
      if (this.isDataField(tag)) (found ??= new Set()).add(this.dictionary.lengthTagByDataTag[tag]!);
    }
    return found;
  }

  private writeInGivenOrder(fields: ReadonlyArray<readonly [number, FieldValue]>, skip: Set<number> | undefined): void {
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      const tag = field[0];
      if (tag === 8 || tag === 9 || tag === 10 || tag === 35 || (skip !== undefined && skip.has(tag))) continue;
      const value = field[1];
      if (typeof value === 'string') this.writeStringField(tag, value);
      else this.writeField(tag, value);
    }
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
    for (let k = 0; k < prefix.length; k++) buf[start + k] = prefix[k]!;
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
    // Same as buf.subarray(start, q), without the species lookup.
    return Buffer.from(buf.buffer, buf.byteOffset + start, q - start);
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
        if (value instanceof Date) this.writeTimestamp(value);
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
    let k = 0;
    if (!allowSoh) {
      // Four characters per step, stored as one word: reading the string is most of the work.
      const view = this.view;
      for (; k + 4 <= len; k += 4) {
        const c0 = s.charCodeAt(k);
        const c1 = s.charCodeAt(k + 1);
        const c2 = s.charCodeAt(k + 2);
        const c3 = s.charCodeAt(k + 3);
        if ((c0 | c1 | c2 | c3) > 0xff || c0 === SOH || c1 === SOH || c2 === SOH || c3 === SOH)
          throw unencodable(tag, firstUnencodable(s, k));
        view.setUint32(p, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24), true);
        p += 4;
        sum += c0 + c1 + c2 + c3;
      }
    }
    for (; k < len; k++) {
      const c = s.charCodeAt(k);
      if (c > 0xff || (c === SOH && !allowSoh)) throw unencodable(tag, c);
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
    for (let k = 0; k < bytes.length; k++) sum += bytes[k]!;
    this.tagSums[tag] = sum;
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

  /**
   * A UTCTimestamp with milliseconds, straight into the buffer. Timestamps within one second share
   * "YYYYMMDD-HH:MM:SS.", which is formatted once per second and kept as bytes.
   */
  private writeTimestamp(time: Date): void {
    const ms = time.getTime();
    const second = Math.floor(ms / 1000);
    const prefix = this.stampPrefix;
    if (second !== this.stampSecond) {
      // Throws for an invalid Date or a year outside 0-9999.
      const text = formatUtcTimestamp(ms);
      let sum = 0;
      for (let k = 0; k < STAMP_PREFIX_LENGTH; k++) {
        prefix[k] = text.charCodeAt(k);
        sum += prefix[k]!;
      }
      this.stampSum = sum;
      this.stampSecond = second;
    }
    const buf = this.buf;
    let p = this.pos;
    for (let k = 0; k < STAMP_PREFIX_LENGTH; k++) buf[p++] = prefix[k]!;
    const millis = ms - second * 1000;
    const d0 = 0x30 + Math.floor(millis / 100);
    const d1 = 0x30 + (Math.floor(millis / 10) % 10);
    const d2 = 0x30 + (millis % 10);
    buf[p++] = d0;
    buf[p++] = d1;
    buf[p++] = d2;
    this.pos = p;
    this.sum += this.stampSum + d0 + d1 + d2;
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
        throw new FixEncodeError(
          tag,
          c === SOH ? 'SOH inside a non-DATA field' : `character U+${c.toString(16)} is not encodable (use an Encoded* field)`,
        );
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
