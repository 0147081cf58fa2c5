// One pass over the bytes of a framed message: split fields, build repeating groups from the
// dictionary and validate as we go. Every per-tag question is an array lookup; values are not
// decoded to strings unless an enum check needs it.
import { Dictionary, ENUM_KEY_MAX_LENGTH, Placement, ValueType, type GroupDef, type MessageDef } from '../dictionary/dictionary';
import { isValidFormat } from './format';
import { FIELD_STRIDE, FixMessage, type TopLevelIndex } from './message';
import { DEFAULT_VALIDATION, RejectReason, USER_DEFINED_TAG_MIN, rejection, type FixRejection, type ValidationOptions } from './rejection';

const SOH = 0x01;
const EQUALS = 0x3d;
/** Tags below this get O(1) duplicate detection; higher (rare) ones fall back to a scan. */
const STAMP_LIMIT = 10_000;
/** Deeper nesting than any dictionary defines means hostile input; the cap bounds the work. */
const MAX_GROUP_DEPTH = 16;
const MAX_TAG_DIGITS = 9;
/**
 * Field tables of consecutive messages are cut from one shared Int32Array of this many slots, so a
 * message costs no table allocation of its own; a message keeps its slab alive.
 */
const SLAB_SLOTS = 16_384;

const NO_ERROR = -1;
const UNREADABLE_COUNT = -2;

/** What a tag's non-empty value needs checked: the low CHECK_BITS bits of FixParser.checks. */
const Check = {
  None: 0,
  /** One byte from the tag's charEnum; any allowed byte also passes the type's format. */
  CharEnum: 1,
  /** The type's format, no enum. */
  Format: 2,
  /** Anything else (multiple-value strings, enums whose values can fail the format): valueProblem. */
  Full: 3,
  /** The type's format (none for STRING), then one value of the tag's string enum. */
  Enum: 4,
} as const;
const CHECK_BITS = 3;
const CHECK_KIND = (1 << CHECK_BITS) - 1;

export class FixParser implements TopLevelIndex {
  readonly dictionary: Dictionary;
  readonly options: Readonly<ValidationOptions>;

  // Scope stamps: levelStamps[level][tag] === scope id ⇔ tag already seen in that scope. Level 0
  // is the message, level d the current entry of the group open at depth d. Scope ids only grow
  // (until a wrap bumps the epoch), so nothing is cleared between messages.
  private readonly levelStamps: Uint32Array[] = [];
  private scopeId = 0;
  /** @internal Level-0 stamps and the field index of each tag's first top-level occurrence. */
  readonly stamps: Uint32Array;
  /** @internal */
  readonly index: Int32Array;
  /** @internal Bumped when scope ids wrap, which invalidates every earlier message's stamps. */
  epoch = 0;
  /** @internal Messages parsed so far; a message whose count is current owns the stamps outright. */
  parseCount = 0;

  // Where the next message's field table starts: slab[slabUsed...] is not used by any message.
  private slab = new Int32Array(SLAB_SLOTS);
  private slabUsed = 0;

  // Open repeating groups, by depth - 1.
  private readonly groupDef: GroupDef[] = [];
  private readonly groupCountIndex: number[] = [];
  private readonly groupDeclared: number[] = [];
  private readonly groupEntries: number[] = [];
  private readonly groupEntryScope: number[] = [];
  private readonly groupLastRank: number[] = [];

  // First problem per category in the current message (reason -1: none).
  private fieldReason = NO_ERROR;
  private fieldRef: number | undefined;
  private requiredRef = 0;

  private readonly beginStringBytes: Buffer;
  /**
   * By tag: the Check a non-empty value needs (STRING without enum and DATA need none); for
   * Check.CharEnum, bits CHECK_BITS and up number the tag's 256-byte row in charAllowed.
   */
  private readonly checks: Uint16Array;
  /** Rows of 256 bytes, 1 where that byte is an allowed single-character value. */
  private readonly charAllowed: Uint8Array;
  private readonly valueTypes: Uint8Array;
  private readonly stringEnums: readonly (ReadonlySet<string> | undefined)[];
  private readonly keyedEnums: readonly (ReadonlySet<number> | undefined)[];
  // The last MsgType looked up: consecutive messages mostly share their type.
  private lastTypeKey = -1;
  private lastTypeDef: MessageDef | undefined;

  constructor(dictionary: Dictionary = Dictionary.fix44(), options: Partial<ValidationOptions> = {}) {
    this.dictionary = dictionary;
    this.beginStringBytes = Buffer.from(dictionary.beginString, 'latin1');
    this.checks = new Uint16Array(dictionary.tagLimit);
    this.valueTypes = dictionary.valueTypeByTag;
    this.stringEnums = dictionary.stringEnumByTag;
    this.keyedEnums = dictionary.keyedEnumByTag;
    const rows: Uint8Array[] = [];
    for (const field of dictionary.fields) {
      const tag = field.tag;
      const type = field.valueType;
      const charEnum = dictionary.charEnumByTag[tag];
      // MsgType is checked against the message definitions, not its enum.
      if (tag === 35) continue;
      if (charEnum !== undefined) {
        let formatHolds = true;
        for (let c = 0; c < 256; c++)
          if (charEnum[c] === 1 && type !== ValueType.String && !isValidFormat(Uint8Array.of(c), type, 0, 1)) formatHolds = false;
        if (formatHolds) {
          this.checks[tag] = Check.CharEnum | (rows.length << CHECK_BITS);
          rows.push(charEnum);
        } else this.checks[tag] = Check.Full;
      } else if (dictionary.stringEnumByTag[tag] !== undefined)
        this.checks[tag] = type === ValueType.MultipleValueString ? Check.Full : Check.Enum;
      else if (type !== ValueType.String && type !== ValueType.Data) this.checks[tag] = Check.Format;
    }
    this.charAllowed = new Uint8Array(rows.length * 256);
    rows.forEach((row, k) => this.charAllowed.set(row.subarray(0, 256), k * 256));
    this.options = { ...DEFAULT_VALIDATION, ...options };
    this.stamps = new Uint32Array(Math.max(STAMP_LIMIT, dictionary.tagLimit));
    this.index = new Int32Array(this.stamps.length);
    this.levelStamps.push(this.stamps);
  }

  /**
   * Parses one framed message (as produced by FixFramer: BodyLength and CheckSum already checked).
   * Never throws on bad input: unreadable bytes come back with `garbled` set, dictionary violations
   * with `rejection` set (SessionRejectReason, RefTagID, text).
   */
  parse(raw: Buffer): FixMessage {
    const dict = this.dictionary;
    const opts = this.options;
    const validate = opts.validate;
    const checkOrder = validate && opts.validateFieldsOutOfOrder;
    const tagLimit = dict.tagLimit;
    const lengthTagByDataTag = dict.lengthTagByDataTag;
    const headerKind = dict.header.memberKind;
    const trailerKind = dict.trailer.memberKind;
    const checks = this.checks;
    const charAllowed = this.charAllowed;
    const len = raw.length;
    // Every field takes at least 3 bytes (a tag digit, '=', SOH): reserve room for that many.
    const reserve = ((len / 3) | 0) * FIELD_STRIDE + FIELD_STRIDE;
    if (this.slabUsed + reserve > this.slab.length) {
      this.slab = new Int32Array(Math.max(SLAB_SLOTS, reserve));
      this.slabUsed = 0;
    }
    const f = this.slab;
    const base = this.slabUsed;

    this.parseCount++;
    this.wrapScopesIfNeeded(len);
    this.fieldReason = NO_ERROR;
    this.fieldRef = undefined;
    this.requiredRef = 0;
    let orderRef = 0;
    const messageScope = this.nextScope();
    const epoch = this.epoch;
    const topStamps = this.stamps;
    const topIndex = this.index;

    let n = 0;
    let pos = 0;
    let depth = 0;
    /** 0 header, 1 body, 2 trailer: for "header field after body" checks. */
    let section = 0;
    let garbled: string | undefined;
    let beginString = '';
    let msgType = '';
    let msgSeqNum: number | undefined;
    let def: MessageDef | undefined;
    let placement: Uint8Array | undefined;

    // Every field ends with SOH, so the last byte must be one; the loops below then need no bounds
    // checks: an SOH always stops them.
    if (len === 0 || raw[len - 1] !== SOH) garbled = len === 0 ? 'empty message' : 'last field not terminated by SOH';

    while (pos < len && garbled === undefined) {
      // Tag: digits up to '='. QuickFIX treats a non-numeric tag as an unreadable message.
      const tagStart = pos;
      let tag = 0;
      let c = raw[pos]!;
      while (c !== EQUALS) {
        const digit = c - 0x30;
        if (digit < 0 || digit > 9) {
          garbled = c === SOH ? 'field without "="' : 'tag is not a number';
          break;
        }
        tag = tag * 10 + digit;
        c = raw[++pos]!;
      }
      if (garbled !== undefined) {
        // A negative tag ("-1=HI") is a number but never a tag: QuickFIX rejects it as an invalid tag
        // number (373=0, 371=-1) rather than dropping the message. The field is not kept.
        const skipTo = n >= 3 ? negativeTagFieldEnd(raw, tagStart) : -1;
        if (skipTo < 0) break;
        garbled = undefined;
        if (validate) this.noteFieldError(RejectReason.InvalidTagNumber, -unsignedAt(raw, tagStart + 1, raw.indexOf(EQUALS, tagStart)));
        pos = skipTo;
        continue;
      }
      if (pos === tagStart || pos - tagStart > MAX_TAG_DIGITS) {
        garbled = pos === tagStart ? 'field without a tag' : 'tag number too long';
        break;
      }
      const valueStart = ++pos;

      // Value: up to SOH, except DATA fields whose byte count comes from their LENGTH field.
      let valueEnd = -1;
      if (tag < tagLimit) {
        const lengthTag = lengthTagByDataTag[tag]!;
        if (lengthTag !== 0 && n > 0 && f[base + (n - 1) * FIELD_STRIDE] === lengthTag) {
          const dataLength = unsignedAt(raw, f[base + (n - 1) * FIELD_STRIDE + 1]!, f[base + (n - 1) * FIELD_STRIDE + 2]!);
          if (dataLength >= 0) {
            valueEnd = valueStart + dataLength;
            if (valueEnd >= len || raw[valueEnd] !== SOH) {
              garbled = `DATA field ${tag} is not ${dataLength} bytes long`;
              break;
            }
          }
        }
      }
      if (valueEnd < 0) {
        valueEnd = valueStart;
        while (raw[valueEnd] !== SOH) valueEnd++;
      }
      pos = valueEnd + 1;
      const index = n++;
      const slot = base + index * FIELD_STRIDE;
      f[slot] = tag;
      f[slot + 1] = valueStart;
      f[slot + 2] = valueEnd;
      f[slot + 3] = index + 1;

      // BeginString, BodyLength, MsgType must open the message.
      if (index < 3) {
        if (tag !== (index === 0 ? 8 : index === 1 ? 9 : 35)) {
          garbled =
            index === 0
              ? 'BeginString (8) must be the first field'
              : index === 1
                ? 'BodyLength (9) must be the second field'
                : 'MsgType (35) must be the third field';
          break;
        }
        topStamps[tag] = messageScope;
        topIndex[tag] = index;
        if (index === 0)
          beginString = bytesEqual(raw, valueStart, valueEnd, this.beginStringBytes)
            ? dict.beginString
            : raw.toString('latin1', valueStart, valueEnd);
        else if (index === 2) {
          const typeLength = valueEnd - valueStart;
          if (typeLength > 0 && typeLength <= 3) {
            let key = 0;
            for (let k = valueStart; k < valueEnd; k++) key = key * 256 + raw[k]!;
            key += typeLength * 0x1000000;
            if (key === this.lastTypeKey) def = this.lastTypeDef;
            else {
              def = dict.messageByTypeKey(key);
              this.lastTypeKey = key;
              this.lastTypeDef = def;
            }
          }
          msgType = def !== undefined ? def.msgType : raw.toString('latin1', valueStart, valueEnd);
          placement = def?.placement;
        }
        continue;
      }

      // Inside repeating groups: the field continues the innermost group that has it as a
      // member, closing the groups that do not.
      if (depth > 0) {
        let handled = false;
        while (depth > 0) {
          const d = depth - 1;
          const g = this.groupDef[d]!;
          if (tag === g.delimiter) {
            this.closeEntry(depth);
            this.groupEntries[d]!++;
            const scope = this.nextScope();
            this.groupEntryScope[d] = scope;
            this.groupLastRank[d] = g.rank[tag]!;
            this.levelStamps[depth]![tag] = scope;
            handled = true;
            break;
          }
          const kind = tag < tagLimit ? g.memberKind[tag]! : 0;
          if (kind !== 0) {
            const stamps = this.levelStamps[depth]!;
            if (validate) {
              if (this.groupEntries[d] === 0) this.noteFieldError(RejectReason.RepeatingGroupFieldsOutOfOrder, tag);
              else {
                const rank = g.rank[tag]!;
                if (stamps[tag] === this.groupEntryScope[d]) this.noteFieldError(RejectReason.TagAppearsMoreThanOnce, tag);
                else if (rank < this.groupLastRank[d]! && opts.validateUnorderedGroupFields) {
                  this.noteFieldError(RejectReason.RepeatingGroupFieldsOutOfOrder, tag);
                }
                this.groupLastRank[d] = rank;
              }
            }
            stamps[tag] = this.groupEntryScope[d]!;
            if (kind === 2) {
              if (depth >= MAX_GROUP_DEPTH) {
                garbled = 'repeating groups nested too deeply';
                break;
              }
              this.openGroup(g.groups.get(tag)!, index, raw, valueStart, valueEnd, depth + 1);
              depth++;
            }
            handled = true;
            break;
          }
          this.closeGroup(depth, index, f, base);
          depth--;
        }
        if (garbled !== undefined) break;
        if (handled) {
          if (validate && this.fieldReason === NO_ERROR) {
            const check = tag < tagLimit ? checks[tag]! : Check.None;
            // An allowed single character is checked here, anything else by valueCheck.
            if (
              valueStart === valueEnd ||
              (check !== Check.None &&
                !(
                  (check & CHECK_KIND) === Check.CharEnum &&
                  valueEnd - valueStart === 1 &&
                  charAllowed[((check >> CHECK_BITS) << 8) | raw[valueStart]!] === 1
                ))
            ) {
              const problem = this.valueCheck(raw, tag, check, valueStart, valueEnd);
              if (problem !== NO_ERROR) this.noteFieldError(problem, tag);
            }
          }
          continue;
        }
      }

      if (tag === 34 && msgSeqNum === undefined) {
        const seq = unsignedAt(raw, valueStart, valueEnd);
        if (seq >= 0) msgSeqNum = seq;
      }

      // Top level: header, body or trailer.
      let where: number;
      if (placement !== undefined) where = tag < tagLimit ? placement[tag]! : Placement.None;
      else if (tag < tagLimit && headerKind[tag] !== 0) where = headerKind[tag] === 2 ? Placement.HeaderGroup : Placement.Header;
      else if (tag < tagLimit && trailerKind[tag] !== 0) where = Placement.Trailer;
      else where = Placement.None;

      if (where === Placement.Header || where === Placement.HeaderGroup) {
        if (section !== 0 && checkOrder && orderRef === 0) orderRef = tag;
      } else if (where === Placement.Trailer) {
        section = 2;
      } else {
        if (section === 2 && checkOrder && orderRef === 0) orderRef = tag;
        section = 1;
      }

      if (tag < STAMP_LIMIT) {
        if (topStamps[tag] === messageScope) {
          if (validate) this.noteFieldError(RejectReason.TagAppearsMoreThanOnce, tag);
        } else {
          topStamps[tag] = messageScope;
          topIndex[tag] = index;
        }
      } else if (validate && this.seenAtTopLevel(f, base, index, tag)) this.noteFieldError(RejectReason.TagAppearsMoreThanOnce, tag);

      if (where === Placement.HeaderGroup || where === Placement.BodyGroup) {
        const g = where === Placement.HeaderGroup ? dict.header.groups.get(tag)! : def!.body.groups.get(tag)!;
        this.openGroup(g, index, raw, valueStart, valueEnd, 1);
        depth = 1;
      }

      if (validate && this.fieldReason === NO_ERROR) {
        if (where === Placement.None) this.checkUnknownTag(tag);
        const check = tag < tagLimit ? checks[tag]! : Check.None;
        if (
          this.fieldReason === NO_ERROR &&
          (valueStart === valueEnd ||
            (check !== Check.None &&
              !(
                (check & CHECK_KIND) === Check.CharEnum &&
                valueEnd - valueStart === 1 &&
                charAllowed[((check >> CHECK_BITS) << 8) | raw[valueStart]!] === 1
              )))
        ) {
          const problem = this.valueCheck(raw, tag, check, valueStart, valueEnd);
          if (problem !== NO_ERROR) this.noteFieldError(problem, tag);
        }
      }
    }

    if (garbled === undefined && (n < 4 || f[base + (n - 1) * FIELD_STRIDE] !== 10)) garbled = 'CheckSum (10) must be the last field';
    while (depth > 0) {
      this.closeGroup(depth, n, f, base);
      depth--;
    }

    // A NUL byte outside a DATA field is not a character any text field can hold (nor the audit store):
    // Incorrect data format for that field. memchr-fast, and only then a walk over the fields.
    if (garbled === undefined && validate && this.fieldReason === NO_ERROR && raw.indexOf(0) >= 0) this.checkNulBytes(raw, f, base, n);

    let result: FixRejection | undefined;
    if (garbled === undefined && validate) {
      // QuickFIX's order: structure, then MsgType, then required fields, then field by field.
      if (orderRef !== 0) result = rejection(RejectReason.TagSpecifiedOutOfRequiredOrder, orderRef);
      else if (def === undefined) result = rejection(RejectReason.InvalidMsgType);
      else {
        this.checkRequired(dict.header.requiredTags, topStamps, messageScope);
        this.checkRequired(def.body.requiredTags, topStamps, messageScope);
        this.checkRequired(dict.trailer.requiredTags, topStamps, messageScope);
        if (this.requiredRef !== 0) result = rejection(RejectReason.RequiredTagMissing, this.requiredRef);
        else if (this.fieldReason !== NO_ERROR) result = rejection(this.fieldReason as RejectReason, this.fieldRef);
      }
    }
    this.slabUsed = base + n * FIELD_STRIDE;
    const lookup = garbled === undefined ? this : undefined;
    const clean = validate && garbled === undefined && result === undefined;
    return new FixMessage(
      raw,
      f,
      base,
      n,
      dict,
      clean,
      beginString,
      msgType,
      msgSeqNum,
      def,
      garbled,
      result,
      lookup,
      messageScope,
      epoch,
      this.parseCount,
    );
  }

  private nextScope(): number {
    return ++this.scopeId;
  }

  /**
   * Restarts scope ids before they could overflow during this message (a message uses at most one
   * scope per field plus one), never in the middle of one, which would wipe its own stamps.
   */
  private wrapScopesIfNeeded(messageLength: number): void {
    if (this.scopeId + messageLength + 2 < 0xffffffff) return;
    for (const s of this.levelStamps) s.fill(0);
    this.scopeId = 0;
    this.epoch++;
  }

  private openGroup(g: GroupDef, countIndex: number, raw: Buffer, valueStart: number, valueEnd: number, depth: number): void {
    const d = depth - 1;
    this.groupDef[d] = g;
    this.groupCountIndex[d] = countIndex;
    const declared = unsignedAt(raw, valueStart, valueEnd);
    // A count too long to read (but all digits) cannot match any number of entries we accept.
    this.groupDeclared[d] =
      declared === -1 && isValidFormat(raw, ValueType.UnsignedInt, valueStart, valueEnd) ? UNREADABLE_COUNT : declared;
    this.groupEntries[d] = 0;
    this.groupEntryScope[d] = this.nextScope();
    this.groupLastRank[d] = 0;
    if (this.levelStamps.length <= depth) this.levelStamps.push(new Uint32Array(this.dictionary.tagLimit));
  }

  /** Required members of the group entry that is ending at this depth. */
  private closeEntry(depth: number): void {
    if (!this.options.validate || this.groupEntries[depth - 1] === 0) return;
    this.checkRequired(this.groupDef[depth - 1]!.requiredTags, this.levelStamps[depth]!, this.groupEntryScope[depth - 1]!);
  }

  /** Ends the group at this depth just before field `end`: links its count field past it, checks the count. */
  private closeGroup(depth: number, end: number, f: Int32Array, base: number): void {
    const d = depth - 1;
    this.closeEntry(depth);
    f[base + this.groupCountIndex[d]! * FIELD_STRIDE + 3] = end;
    const declared = this.groupDeclared[d]!;
    // A malformed count is reported by the format check of the count field itself.
    if (this.options.validate && declared !== -1 && declared !== this.groupEntries[d]) {
      this.noteFieldError(RejectReason.IncorrectNumInGroupCountForRepeatingGroup, this.groupDef[d]!.countTag);
    }
  }

  private checkRequired(required: readonly number[], stamps: Uint32Array, scope: number): void {
    if (this.requiredRef !== 0) return;
    for (let k = 0; k < required.length; k++) {
      const tag = required[k]!;
      if (stamps[tag] !== scope) {
        this.requiredRef = tag;
        return;
      }
    }
  }

  /** RejectReason for a value, or NO_ERROR; the common cases without the general valueProblem. */
  private valueCheck(raw: Buffer, tag: number, check: number, start: number, end: number): number {
    if (start !== end) {
      const kind = check & CHECK_KIND;
      if (kind === Check.CharEnum) {
        if (end - start === 1 && this.charAllowed[((check >> CHECK_BITS) << 8) | raw[start]!] === 1) return NO_ERROR;
      } else if (kind === Check.Format) {
        return isValidFormat(raw, this.valueTypes[tag]!, start, end) ? NO_ERROR : RejectReason.IncorrectDataFormatForValue;
      } else if (kind === Check.Enum) {
        const type = this.valueTypes[tag]!;
        if (type !== ValueType.String && !isValidFormat(raw, type, start, end)) return RejectReason.IncorrectDataFormatForValue;
        return enumContains(raw, start, end, this.keyedEnums[tag], this.stringEnums[tag]!) ? NO_ERROR : RejectReason.ValueIsIncorrect;
      }
    }
    return valueProblem(this.dictionary, this.options.validateFieldsHaveValues, raw, tag, start, end);
  }

  /** Notes the first field, DATA fields aside, whose value holds a NUL byte. */
  private checkNulBytes(raw: Buffer, f: Int32Array, base: number, n: number): void {
    const types = this.dictionary.valueTypeByTag;
    for (let i = 0; i < n; i++) {
      const slot = base + i * FIELD_STRIDE;
      const tag = f[slot]!;
      if (tag < types.length && types[tag] === ValueType.Data) continue;
      const at = raw.indexOf(0, f[slot + 1]!);
      if (at >= 0 && at < f[slot + 2]!) {
        this.noteFieldError(RejectReason.IncorrectDataFormatForValue, tag);
        return;
      }
    }
  }

  private noteFieldError(reason: number, tag: number): void {
    if (this.fieldReason === NO_ERROR) {
      this.fieldReason = reason;
      this.fieldRef = tag;
    }
  }

  private seenAtTopLevel(f: Int32Array, base: number, index: number, tag: number): boolean {
    for (let i = 0; i < index; i = f[base + i * FIELD_STRIDE + 3]!) if (f[base + i * FIELD_STRIDE] === tag) return true;
    return false;
  }

  /** A top-level tag the message type does not define. */
  private checkUnknownTag(tag: number): void {
    const opts = this.options;
    if (tag >= USER_DEFINED_TAG_MIN) {
      if (!opts.validateUserDefinedFields) return;
    } else if (opts.allowUnknownMessageFields) return;
    this.noteFieldError(
      this.dictionary.isDefinedTag(tag) ? RejectReason.TagNotDefinedForThisMessageType : RejectReason.InvalidTagNumber,
      tag,
    );
  }
}

/** Empty value, data format and enum checks; returns a RejectReason or NO_ERROR. */
function valueProblem(dict: Dictionary, checkHasValue: boolean, raw: Buffer, tag: number, start: number, end: number): number {
  if (start === end) return checkHasValue ? RejectReason.TagSpecifiedWithoutAValue : NO_ERROR;
  if (tag >= dict.tagLimit) return NO_ERROR;
  const type = dict.valueTypeByTag[tag]!;
  if (type === 255) return NO_ERROR;
  if (type !== ValueType.String && !isValidFormat(raw, type, start, end)) return RejectReason.IncorrectDataFormatForValue;
  if (tag === 35) return NO_ERROR; // an unknown MsgType is reported as Invalid MsgType
  const charEnum = dict.charEnumByTag[tag];
  if (charEnum !== undefined) return end - start === 1 && charEnum[raw[start]!] === 1 ? NO_ERROR : RejectReason.ValueIsIncorrect;
  const strings = dict.stringEnumByTag[tag];
  if (strings === undefined) return NO_ERROR;
  const keyed = dict.keyedEnumByTag[tag];
  if (type === ValueType.MultipleValueString) {
    // Space-separated values, each of which must be allowed.
    let s = start;
    for (let k = start; k <= end; k++) {
      if (k === end || raw[k] === 0x20) {
        if (k === s || !enumContains(raw, s, k, keyed, strings)) return RejectReason.ValueIsIncorrect;
        s = k + 1;
      }
    }
    return NO_ERROR;
  }
  return enumContains(raw, start, end, keyed, strings) ? NO_ERROR : RejectReason.ValueIsIncorrect;
}

function bytesEqual(raw: Buffer, start: number, end: number, expected: Buffer): boolean {
  if (end - start !== expected.length) return false;
  for (let k = 0; k < expected.length; k++) if (raw[start + k] !== expected[k]) return false;
  return true;
}

function enumContains(
  raw: Buffer,
  start: number,
  end: number,
  keyed: ReadonlySet<number> | undefined,
  strings: ReadonlySet<string>,
): boolean {
  if (keyed !== undefined && end - start <= ENUM_KEY_MAX_LENGTH) {
    let key = 1;
    for (let k = start; k < end; k++) {
      const c = raw[k]!;
      if (c >= 128) return false;
      key = key * 128 + c;
    }
    return keyed.has(key);
  }
  return strings.has(raw.toString('latin1', start, end));
}

/** Where the field after a "-<digits>=<value>" at `at` starts (past its SOH), or -1 when it is not one. */
function negativeTagFieldEnd(raw: Buffer, at: number): number {
  if (raw[at] !== 0x2d) return -1;
  let k = at + 1;
  while (raw[k]! >= 0x30 && raw[k]! <= 0x39) k++;
  if (k === at + 1 || k - at - 1 > MAX_TAG_DIGITS || raw[k] !== EQUALS) return -1;
  const soh = raw.indexOf(SOH, k);
  return soh < 0 ? -1 : soh + 1;
}

/** Digits only → value; -1 when empty, not digits or too long to be a count or length. */
function unsignedAt(raw: Buffer, start: number, end: number): number {
  if (start === end || end - start > 9) return -1;
  let v = 0;
  for (let k = start; k < end; k++) {
    const d = raw[k]! - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}
