// A parsed FIX message: the raw bytes plus a flat table of field positions, decoded lazily.
import { ValueType, type Dictionary, type MessageDef } from '../dictionary/dictionary';
import { isValidFormat } from './format';
import type { FixRejection } from './rejection';
import { FixTimestamp, FixValueError, parseMonthYear, parseUtcTimeOnly, utcEpochMs, type FixMonthYear } from './values';

/** Field table stride: tag, value start, value end, index of the next field at the same level. */
export const FIELD_STRIDE = 4;

/**
 * Where a FixMessage can find its top-level fields in O(1) while its parser has not moved on. The
 * parser (parser.ts) implements it; defined here, beside its one reader, so the two modules do not
 * import each other.
 */
export interface TopLevelIndex {
  readonly stamps: Uint32Array;
  readonly index: Int32Array;
  readonly epoch: number;
  readonly parseCount: number;
}

const CHAR_STRINGS: readonly string[] = Array.from({ length: 256 }, (_, c) => String.fromCharCode(c));

// Buffer's latin1 decoder itself: Buffer#toString spends about as long checking its arguments and
// looking up the encoding as decoding a small message. Not part of Node's documented API, so
// toString stays the fallback.
const latin1Slice = (Buffer.prototype as { latin1Slice?: (this: Buffer, start: number, end: number) => string }).latin1Slice;

function decodeLatin1(raw: Buffer): string {
  return latin1Slice !== undefined ? latin1Slice.call(raw, 0, raw.length) : raw.toString('latin1');
}

/** Read access to one level of fields: a whole message, or one entry of a repeating group. */
export class FieldView {
  /** The message whose field table this level reads: the message itself for a FixMessage. */
  protected readonly table: FixMessage;

  /** @internal `table` undefined: this view is the message itself. */
  constructor(
    table: FixMessage | undefined,
    /** First field index of this level. */
    protected readonly from: number,
    /** One past the last field index of this level. */
    protected readonly to: number,
  ) {
    this.table = table ?? (this as unknown as FixMessage);
  }

  /** Field index (wire position) of the first occurrence of tag at this level, or -1. */
  indexOf(tag: number): number {
    const f = this.table.f;
    const base = this.table.base;
    for (let i = this.from; i < this.to; i = f[base + i * FIELD_STRIDE + 3]!) {
      if (f[base + i * FIELD_STRIDE] === tag) return i;
    }
    return -1;
  }

  /** Overridden by section views to restrict a level to header, body or trailer tags. */
  protected accepts(_tag: number): boolean {
    return true;
  }

  has(tag: number): boolean {
    return this.indexOf(tag) >= 0;
  }

  /** The value as text (latin1: one character per byte), or undefined when the field is absent. */
  get(tag: number): string | undefined {
    const i = this.indexOf(tag);
    return i < 0 ? undefined : this.table.value(i);
  }

  /** Like get, but throws when the field is absent. */
  require(tag: number): string {
    const i = this.indexOf(tag);
    if (i < 0) throw new FixFieldMissingError(tag);
    return this.table.value(i);
  }

  /** The raw value bytes (a view into the message; DATA fields may contain SOH). */
  getBytes(tag: number): Buffer | undefined {
    const i = this.indexOf(tag);
    if (i < 0) return undefined;
    const f = this.table.f;
    const slot = this.table.base + i * FIELD_STRIDE;
    return this.table.raw.subarray(f[slot + 1]!, f[slot + 2]!);
  }

  /** INT, LENGTH, SEQNUM, NUMINGROUP; decoded from the bytes, without building a string. */
  getInt(tag: number): number | undefined {
    const i = this.indexOf(tag);
    if (i < 0) return undefined;
    const f = this.table.f;
    const raw = this.table.raw;
    const slot = this.table.base + i * FIELD_STRIDE;
    let p = f[slot + 1]!;
    const end = f[slot + 2]!;
    const negative = raw[p] === 0x2d;
    if (negative) p++;
    if (p === end || end - p > 15) throw new FixValueError(tag, this.table.value(i), 'integer');
    let v = 0;
    for (; p < end; p++) {
      const d = raw[p]! - 0x30;
      if (d < 0 || d > 9) throw new FixValueError(tag, this.table.value(i), 'integer');
      v = v * 10 + d;
    }
    return negative ? -v : v;
  }

  /**
   * PRICE, QTY, AMT, FLOAT, PRICEOFFSET, PERCENTAGE as the exact decimal text received (see
   * values.ts for scaled-integer arithmetic). Never converted through Number.
   */
  getDecimal(tag: number): string | undefined {
    const i = this.indexOf(tag);
    if (i < 0) return undefined;
    if (!this.table.hasFormat(i, ValueType.Decimal)) throw new FixValueError(tag, this.table.value(i), 'decimal');
    return this.table.value(i);
  }

  getChar(tag: number): string | undefined {
    const i = this.indexOf(tag);
    if (i < 0) return undefined;
    const table = this.table;
    const slot = table.base + i * FIELD_STRIDE;
    const start = table.f[slot + 1]!;
    if (table.f[slot + 2]! - start !== 1) throw new FixValueError(tag, table.value(i), 'char');
    return CHAR_STRINGS[table.raw[start]!]!;
  }

  /** BOOLEAN: Y → true, N → false. */
  getBoolean(tag: number): boolean | undefined {
    const v = this.get(tag);
    if (v === undefined) return undefined;
    if (v === 'Y') return true;
    if (v === 'N') return false;
    throw new FixValueError(tag, v, 'boolean (Y/N)');
  }

  /** UTCTimestamp (YYYYMMDD-HH:MM:SS[.sss]): the instant plus the exact text. */
  getTimestamp(tag: number): FixTimestamp | undefined {
    const i = this.indexOf(tag);
    if (i < 0) return undefined;
    const f = this.table.f;
    const slot = this.table.base + i * FIELD_STRIDE;
    const start = f[slot + 1]!;
    const end = f[slot + 2]!;
    const raw = this.table.raw;
    if (!this.table.hasFormat(i, ValueType.UtcTimestamp)) throw new FixValueError(tag, this.table.value(i), 'UTCTimestamp');
    // Format known good: read the digits straight from the bytes.
    const fraction = end - start - 18;
    let millis = 0;
    if (fraction > 0) {
      millis = (raw[start + 18]! - 0x30) * 100;
      if (fraction > 1) millis += (raw[start + 19]! - 0x30) * 10;
      if (fraction > 2) millis += raw[start + 20]! - 0x30;
    }
    const ms = utcEpochMs(
      (raw[start]! - 0x30) * 1000 + (raw[start + 1]! - 0x30) * 100 + (raw[start + 2]! - 0x30) * 10 + (raw[start + 3]! - 0x30),
      (raw[start + 4]! - 0x30) * 10 + (raw[start + 5]! - 0x30),
      (raw[start + 6]! - 0x30) * 10 + (raw[start + 7]! - 0x30),
      (raw[start + 9]! - 0x30) * 10 + (raw[start + 10]! - 0x30),
      (raw[start + 12]! - 0x30) * 10 + (raw[start + 13]! - 0x30),
      (raw[start + 15]! - 0x30) * 10 + (raw[start + 16]! - 0x30),
      millis,
    );
    return new FixTimestamp(this.table.value(i), ms);
  }

  /** UTCTimeOnly (HH:MM:SS[.sss]) as milliseconds since midnight UTC. */
  getTimeOnly(tag: number): number | undefined {
    const v = this.get(tag);
    if (v === undefined) return undefined;
    const ms = parseUtcTimeOnly(v);
    if (Number.isNaN(ms)) throw new FixValueError(tag, v, 'UTCTimeOnly');
    return ms;
  }

  /** MonthYear (YYYYMM, YYYYMMDD or YYYYMMwN). */
  getMonthYear(tag: number): FixMonthYear | undefined {
    const v = this.get(tag);
    if (v === undefined) return undefined;
    const my = parseMonthYear(v);
    if (!my) throw new FixValueError(tag, v, 'MonthYear');
    return my;
  }

  /** Number of entries actually present in a repeating group (0 when absent). */
  groupSize(countTag: number): number {
    const i = this.indexOf(countTag);
    return i < 0 ? 0 : this.entryCount(i);
  }

  /**
   * The entries of the repeating group opened by countTag (NoPartyIDs, NoLegs, ...), each a view
   * with the same getters, nested groups included. Empty when the group is absent.
   */
  getGroup(countTag: number): FixGroupEntry[] {
    const i = this.indexOf(countTag);
    if (i < 0) return [];
    // An entry starts at each occurrence of the group's first field (the delimiter) at the group's
    // level and ends where the next one starts, the last one where the group ends.
    const table = this.table;
    const f = table.f;
    const base = table.base;
    const end = f[base + i * FIELD_STRIDE + 3]!;
    // One pass, growing a packed array (entries are few).
    const entries: FixGroupEntry[] = [];
    let from = i + 1;
    if (from >= end) return entries;
    const delimiter = f[base + from * FIELD_STRIDE]!;
    for (let j = f[base + from * FIELD_STRIDE + 3]!; j < end; j = f[base + j * FIELD_STRIDE + 3]!) {
      if (f[base + j * FIELD_STRIDE] === delimiter) {
        entries.push(new FixGroupEntry(table, from, j));
        from = j;
      }
    }
    entries.push(new FixGroupEntry(table, from, end));
    return entries;
  }

  private entryCount(countIndex: number): number {
    const f = this.table.f;
    const base = this.table.base;
    const end = f[base + countIndex * FIELD_STRIDE + 3]!;
    const first = countIndex + 1;
    if (first >= end) return 0;
    const delimiter = f[base + first * FIELD_STRIDE]!;
    let count = 0;
    for (let j = first; j < end; j = f[base + j * FIELD_STRIDE + 3]!) if (f[base + j * FIELD_STRIDE] === delimiter) count++;
    return count;
  }

  /** This level's fields in wire order as [tag, value]; groups appear as their count field only. */
  fields(): Array<[tag: number, value: string]> {
    const out: Array<[number, string]> = [];
    const f = this.table.f;
    const base = this.table.base;
    for (let i = this.from; i < this.to; i = f[base + i * FIELD_STRIDE + 3]!) {
      const tag = f[base + i * FIELD_STRIDE]!;
      if (this.accepts(tag)) out.push([tag, this.table.value(i)]);
    }
    return out;
  }
}

/** One entry of a repeating group. */
export class FixGroupEntry extends FieldView {}

class SectionView extends FieldView {
  constructor(
    table: FixMessage,
    from: number,
    to: number,
    private readonly section: 'header' | 'body' | 'trailer',
  ) {
    super(table, from, to);
  }

  override indexOf(tag: number): number {
    return this.accepts(tag) ? super.indexOf(tag) : -1;
  }

  protected override accepts(tag: number): boolean {
    const d = this.table.dictionary;
    if (this.section === 'header') return d.isHeaderTag(tag);
    if (this.section === 'trailer') return d.isTrailerTag(tag);
    return !d.isHeaderTag(tag) && !d.isTrailerTag(tag);
  }
}

export class FixFieldMissingError extends Error {
  constructor(readonly tag: number) {
    super(`FIX tag ${tag} is missing`);
    this.name = 'FixFieldMissingError';
  }
}

/**
 * A received message. Getters at this level see header, body and trailer fields (tags are unique
 * across the three in FIX 4.4); `header`, `body` and `trailer` restrict to one section.
 *
 * The message also holds the field table its group-entry views share (one object per message): from
 * `base` on, `f` holds FIELD_STRIDE numbers per field in wire order (the parser cuts the tables of
 * many messages from one array); field indexes count from 0 at `base`. A NumInGroup field's "next"
 * skips its whole group, so walking "next" from a level's first field visits that level only.
 */
export class FixMessage extends FieldView {
  /** The bytes exactly as received (for the audit log). */
  readonly raw: Buffer;
  /** @internal */
  readonly f: Int32Array;
  /** @internal Slot of field 0 in f. */
  readonly base: number;
  /** @internal Number of fields. */
  readonly count: number;
  /** @internal */
  readonly dictionary: Dictionary;
  /**
   * @internal True when the parser validated the whole message without finding anything wrong:
   * every field the dictionary types has then had its format checked, and typed getters can skip
   * re-checking.
   */
  readonly formatsChecked: boolean;
  private text: string | undefined;
  /** BeginString (8). */
  readonly beginString: string;
  /** MsgType (35); empty when the message is garbled before it. */
  readonly msgType: string;
  /** MsgSeqNum (34); undefined when absent or not a number. */
  readonly msgSeqNum: number | undefined;
  /** The dictionary definition of MsgType, undefined for MsgTypes the dictionary does not know. */
  readonly definition: MessageDef | undefined;
  /**
   * Set when the bytes cannot be read as a FIX message at all (a field without '=', 8/9/35 not
   * first, CheckSum not last, a DATA length running past the end). The session ignores such a
   * message like a garbled frame: no Reject, no sequence number consumed.
   */
  readonly garbled: string | undefined;
  /** Set when the message is readable but breaks the dictionary: answer with a session Reject. */
  readonly rejection: FixRejection | undefined;

  // The parser's tag → first top-level index table, valid for this message while the parser's
  // stamps still carry this message's scope (see indexOf).
  private readonly lookup: TopLevelIndex | undefined;
  private readonly scope: number;
  private readonly epoch: number;
  private readonly parseCount: number;

  /** @internal Built by FixParser. */
  constructor(
    raw: Buffer,
    f: Int32Array,
    base: number,
    count: number,
    dictionary: Dictionary,
    formatsChecked: boolean,
    beginString: string,
    msgType: string,
    msgSeqNum: number | undefined,
    definition: MessageDef | undefined,
    garbled: string | undefined,
    rejection: FixRejection | undefined,
    lookup?: TopLevelIndex,
    scope = 0,
    epoch = 0,
    parseCount = 0,
  ) {
    super(undefined, 0, count);
    this.raw = raw;
    this.f = f;
    this.base = base;
    this.count = count;
    this.dictionary = dictionary;
    this.formatsChecked = formatsChecked;
    this.text = undefined;
    this.lookup = lookup;
    this.scope = scope;
    this.epoch = epoch;
    this.parseCount = parseCount;
    this.beginString = beginString;
    this.msgType = msgType;
    this.msgSeqNum = msgSeqNum;
    this.definition = definition;
    this.garbled = garbled;
    this.rejection = rejection;
  }

  override indexOf(tag: number): number {
    const lookup = this.lookup;
    if (lookup !== undefined && tag >= 0 && tag < lookup.stamps.length && lookup.epoch === this.epoch) {
      if (lookup.stamps[tag] === this.scope) return lookup.index[tag]!;
      // No message parsed since this one: the stamps are authoritative, the tag is absent.
      if (lookup.parseCount === this.parseCount) return -1;
    }
    return super.indexOf(tag);
  }

  /** @internal Whether field i's format is already known to match the given ValueType. */
  checked(i: number, type: number): boolean {
    if (!this.formatsChecked) return false;
    const tag = this.f[this.base + i * FIELD_STRIDE]!;
    return tag < this.dictionary.tagLimit && this.dictionary.valueTypeByTag[tag] === type;
  }

  /** @internal Whether the bytes of field i have the given ValueType's format. */
  hasFormat(i: number, type: number): boolean {
    const slot = this.base + i * FIELD_STRIDE;
    return this.checked(i, type) || isValidFormat(this.raw, type, this.f[slot + 1]!, this.f[slot + 2]!);
  }

  /** @internal The value of field i as text. */
  value(i: number): string {
    const slot = this.base + i * FIELD_STRIDE;
    const start = this.f[slot + 1]!;
    const end = this.f[slot + 2]!;
    if (end - start === 1) return CHAR_STRINGS[this.raw[start]!]!;
    // One latin1 decode per message, then cheap substrings: faster than a native call per field
    // once a handful of fields are read, and byte offsets equal string offsets in latin1.
    this.text ??= decodeLatin1(this.raw);
    return this.text.substring(start, end);
  }

  /** The bytes as a latin1 string (one character per byte). */
  get rawText(): string {
    return (this.text ??= decodeLatin1(this.raw));
  }

  get fieldCount(): number {
    return this.count;
  }

  get header(): FieldView {
    return new SectionView(this, 0, this.count, 'header');
  }

  get body(): FieldView {
    return new SectionView(this, 0, this.count, 'body');
  }

  get trailer(): FieldView {
    return new SectionView(this, 0, this.count, 'trailer');
  }

  /** True for a valid (neither garbled nor rejected) message. */
  get isValid(): boolean {
    return this.garbled === undefined && this.rejection === undefined;
  }

  /** Every field in wire order, group members included, as [tag, value]. */
  allFields(): Array<[tag: number, value: string]> {
    const out: Array<[number, string]> = new Array(this.count);
    for (let i = 0; i < this.count; i++) out[i] = [this.f[this.base + i * FIELD_STRIDE]!, this.value(i)];
    return out;
  }

  /** The message with SOH shown as '|', for logs. */
  override toString(): string {
    return this.rawText.replaceAll('\x01', '|');
  }
}
