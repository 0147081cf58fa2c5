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
  private maxTag = 0;

  constructor(readonly msgType: string) {
    if (!msgType || msgType.length > 3) throw new RangeError(`bad MsgType '${msgType}'`);
  }

  /** Sets (or replaces) a field. Header fields (49, 56, 34, 52, 43, 122, ...) are placed in the header on encode. */
  set(tag: number, value: FieldValue): this {
    if (!Number.isInteger(tag) || tag <= 0) throw new RangeError(`bad FIX tag ${tag}`);
    if (RESERVED_TAGS.has(tag)) throw new RangeError(`FIX tag ${tag} is written by the encoder`);
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
    if (!Number.isInteger(countTag) || countTag <= 0) throw new RangeError(`bad FIX tag ${countTag}`);
    if (entries.length === 0) this.delete(countTag);
    else this.store(countTag, entries);
    return this;
  }

  get(tag: number): StoredValue | undefined {
    const i = this.tags.indexOf(tag);
    return i < 0 ? undefined : this.values[i];
  }

  has(tag: number): boolean {
    return this.tags.indexOf(tag) >= 0;
  }

  delete(tag: number): boolean {
    const i = this.tags.indexOf(tag);
    if (i < 0) return false;
    this.tags.splice(i, 1);
    this.values.splice(i, 1);
    return true;
  }

  private store(tag: number, value: StoredValue): void {
    // Fields are usually added in ascending order, so a new tag above the maximum cannot be a replacement.
    if (tag <= this.maxTag) {
      const i = this.tags.indexOf(tag);
      if (i >= 0) {
        this.values[i] = value;
        return;
      }
    } else this.maxTag = tag;
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
const PREFIX_ROOM = 64;

export class FixEncoder {
  readonly dictionary: Dictionary;
  readonly beginString: string;
  private buf: Buffer = Buffer.allocUnsafe(16 * 1024);
  private pos = 0;
  private readonly order: number[] = [];
  private readonly beginStringBytes: Buffer;
  private readonly headerKind: Uint8Array;
  private readonly trailerKind: Uint8Array;
  private readonly tagLimit: number;

  constructor(dictionary: Dictionary = Dictionary.fix44(), options: EncoderOptions = {}) {
    this.dictionary = dictionary;
    this.beginString = options.beginString ?? dictionary.beginString;
    this.beginStringBytes = Buffer.from(`8=${this.beginString}\x019=`, 'latin1');
    if (this.beginStringBytes.length + 12 > PREFIX_ROOM) throw new RangeError('BeginString too long');
    this.headerKind = dictionary.header.memberKind;
    this.trailerKind = dictionary.trailer.memberKind;
    this.tagLimit = dictionary.tagLimit;
  }

  /** Encodes the message in QuickFIX field order; returns a new Buffer the caller owns. */
  encode(message: FixMessageBuilder): Buffer {
    const tags = message.tags;
    const values = message.values;
    const n = tags.length;
    const order = this.order;
    order.length = n;
    // Insertion sort by tag: O(n) for the usual ascending input.
    for (let i = 0; i < n; i++) {
      const tag = tags[i]!;
      let j = i - 1;
      while (j >= 0 && tags[order[j]!]! > tag) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = i;
    }

    const def = this.dictionary.message(message.msgType);
    this.pos = PREFIX_ROOM;
    this.writeField(35, message.msgType);
    const headerKind = this.headerKind;
    const trailerKind = this.trailerKind;
    const tagLimit = this.tagLimit;
    // Header fields by tag number, then body fields by tag number, then trailer fields.
    for (let section = 0; section < 3; section++) {
      for (let k = 0; k < n; k++) {
        const i = order[k]!;
        const tag = tags[i]!;
        const inHeader = tag < tagLimit && headerKind[tag] !== 0;
        const inTrailer = !inHeader && tag < tagLimit && trailerKind[tag] !== 0;
        if ((section === 0) !== inHeader || (section === 2) !== inTrailer) continue;
        const value = values[i]!;
        if (Array.isArray(value)) {
          const scope: FieldScope | undefined = inHeader ? this.dictionary.header : def?.body;
          this.writeGroup(tag, value as readonly GroupEntryInput[], scope?.group(tag));
        } else this.writeField(tag, value as FieldValue);
      }
    }
    return this.finish();
  }

  /**
   * Encodes fields in exactly the order given (8, 9, 35 and 10 are still written by the encoder):
   * for re-sending stored messages and for tests that need a specific wire order.
   */
  encodeOrdered(msgType: string, header: ReadonlyArray<readonly [number, FieldValue]>, body: ReadonlyArray<readonly [number, FieldValue]>): Buffer {
    this.pos = PREFIX_ROOM;
    this.writeField(35, msgType);
    for (const [tag, value] of header) {
      if (!RESERVED_TAGS.has(tag)) this.writeField(tag, value);
    }
    for (const [tag, value] of body) {
      if (!RESERVED_TAGS.has(tag)) this.writeField(tag, value);
    }
    return this.finish();
  }

  private finish(): Buffer {
    const bodyEnd = this.pos;
    const bodyLength = bodyEnd - PREFIX_ROOM;
    const lengthDigits = bodyLength < 10 ? 1 : bodyLength < 100 ? 2 : bodyLength < 1000 ? 3 : bodyLength < 10000 ? 4 : bodyLength < 100000 ? 5 : String(bodyLength).length;
    this.ensure(8);
    const prefix = this.beginStringBytes;
    const start = PREFIX_ROOM - prefix.length - lengthDigits - 1;
    const buf = this.buf;
    prefix.copy(buf, start);
    let p = PREFIX_ROOM - 2;
    for (let v = bodyLength; p >= PREFIX_ROOM - 1 - lengthDigits; v = Math.floor(v / 10)) buf[p--] = 0x30 + (v % 10);
    buf[PREFIX_ROOM - 1] = SOH;
    let sum = 0;
    for (let k = start; k < bodyEnd; k++) sum += buf[k]!;
    sum &= 0xff;
    let q = bodyEnd;
    buf[q++] = 0x31;
    buf[q++] = 0x30;
    buf[q++] = 0x3d;
    buf[q++] = 0x30 + Math.floor(sum / 100);
    buf[q++] = 0x30 + (Math.floor(sum / 10) % 10);
    buf[q++] = 0x30 + (sum % 10);
    buf[q++] = SOH;
    const out = Buffer.allocUnsafe(q - start);
    buf.copy(out, 0, start, q);
    return out;
  }

  private writeGroup(countTag: number, entries: readonly GroupEntryInput[], group: GroupDef | undefined): void {
    this.writeTag(countTag);
    this.writeUnsigned(entries.length);
    this.buf[this.pos++] = SOH;
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
        const value = entry[tag]!;
        if (Array.isArray(value)) this.writeGroup(tag, value as readonly GroupEntryInput[], group?.group(tag));
        else this.writeField(tag, value as FieldValue);
      }
    }
  }

  private writeField(tag: number, value: FieldValue): void {
    this.writeTag(tag);
    switch (typeof value) {
      case 'string':
        if (value.length === 0) throw new FixEncodeError(tag, 'empty value');
        this.writeString(tag, value, this.isDataField(tag));
        break;
      case 'number':
        if (!Number.isSafeInteger(value)) throw new FixEncodeError(tag, `${value} is not an integer; pass decimals as strings`);
        if (value < 0) {
          this.ensure(1);
          this.buf[this.pos++] = 0x2d;
          this.writeUnsigned(-value);
        } else this.writeUnsigned(value);
        break;
      case 'bigint':
        this.writeString(tag, value.toString(), false);
        break;
      case 'boolean':
        this.ensure(1);
        this.buf[this.pos++] = value ? 0x59 : 0x4e;
        break;
      default:
        if (value instanceof Date) this.writeString(tag, formatUtcTimestamp(value), false);
        else if (value instanceof Uint8Array) {
          if (!this.isDataField(tag) && value.includes(SOH)) throw new FixEncodeError(tag, 'SOH inside a non-DATA field');
          if (value.length === 0) throw new FixEncodeError(tag, 'empty value');
          this.ensure(value.length);
          this.buf.set(value, this.pos);
          this.pos += value.length;
        } else throw new FixEncodeError(tag, `unsupported value ${String(value)}`);
    }
    this.ensure(1);
    this.buf[this.pos++] = SOH;
  }

  private isDataField(tag: number): boolean {
    return tag < this.tagLimit && this.dictionary.lengthTagByDataTag[tag] !== 0;
  }

  private writeTag(tag: number): void {
    this.ensure(16);
    this.writeUnsigned(tag);
    this.buf[this.pos++] = 0x3d;
  }

  private writeUnsigned(v: number): void {
    this.ensure(16);
    const buf = this.buf;
    if (v < 10) {
      buf[this.pos++] = 0x30 + v;
      return;
    }
    let digits = 1;
    for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
    let p = this.pos + digits - 1;
    for (let t = v; p >= this.pos; t = Math.floor(t / 10)) buf[p--] = 0x30 + (t % 10);
    this.pos += digits;
  }

  private writeString(tag: number, s: string, allowSoh: boolean): void {
    const len = s.length;
    this.ensure(len);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff || (c === SOH && !allowSoh)) {
        throw new FixEncodeError(tag, c === SOH ? 'SOH inside a non-DATA field' : `character U+${c.toString(16)} is not encodable (use an Encoded* field)`);
      }
      buf[p++] = c;
    }
    this.pos = p;
  }

  private ensure(extra: number): void {
    if (this.pos + extra + 8 <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + extra + 1024));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }
}
