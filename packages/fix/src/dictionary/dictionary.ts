// The FIX data dictionary at run time: the generated JSON turned into lookups the codec can use
// on its hot path (arrays indexed by tag number instead of maps keyed by strings).
import fix44Data from './fix44.generated.json' with { type: 'json' };

export type DictionaryItem =
  | { field: number; required: boolean }
  | { component: string; required: boolean }
  | { group: number; required: boolean; items: DictionaryItem[] };

export interface DictionaryData {
  beginString: string;
  fields: { tag: number; name: string; type: string; enums?: { value: string; description: string }[] }[];
  header: DictionaryItem[];
  trailer: DictionaryItem[];
  components: Record<string, DictionaryItem[]>;
  messages: { name: string; msgType: string; category: 'app' | 'admin'; items: DictionaryItem[] }[];
}

/** How a field's value is checked and decoded; one code per family of FIX types. */
export const ValueType = {
  String: 0,
  Int: 1,
  /** LENGTH, SEQNUM, NUMINGROUP: digits only. */
  UnsignedInt: 2,
  /** FLOAT, PRICE, QTY, AMT, PRICEOFFSET, PERCENTAGE: exact decimals. */
  Decimal: 3,
  Char: 4,
  Boolean: 5,
  UtcTimestamp: 6,
  UtcTimeOnly: 7,
  /** UTCDATEONLY, LOCALMKTDATE: YYYYMMDD. */
  Date: 8,
  MonthYear: 9,
  Data: 10,
  MultipleValueString: 11,
  DayOfMonth: 12,
} as const;
export type ValueType = (typeof ValueType)[keyof typeof ValueType];

const VALUE_TYPE_BY_FIX_TYPE: Record<string, ValueType> = {
  STRING: ValueType.String,
  CURRENCY: ValueType.String,
  COUNTRY: ValueType.String,
  EXCHANGE: ValueType.String,
  LANGUAGE: ValueType.String,
  INT: ValueType.Int,
  LENGTH: ValueType.UnsignedInt,
  SEQNUM: ValueType.UnsignedInt,
  NUMINGROUP: ValueType.UnsignedInt,
  FLOAT: ValueType.Decimal,
  PRICE: ValueType.Decimal,
  QTY: ValueType.Decimal,
  AMT: ValueType.Decimal,
  PRICEOFFSET: ValueType.Decimal,
  PERCENTAGE: ValueType.Decimal,
  CHAR: ValueType.Char,
  BOOLEAN: ValueType.Boolean,
  UTCTIMESTAMP: ValueType.UtcTimestamp,
  UTCTIMEONLY: ValueType.UtcTimeOnly,
  UTCDATEONLY: ValueType.Date,
  UTCDATE: ValueType.Date,
  LOCALMKTDATE: ValueType.Date,
  MONTHYEAR: ValueType.MonthYear,
  DATA: ValueType.Data,
  MULTIPLEVALUESTRING: ValueType.MultipleValueString,
  DAYOFMONTH: ValueType.DayOfMonth,
};

export interface FieldDef {
  readonly tag: number;
  readonly name: string;
  /** The FIX type name as in the dictionary (STRING, PRICE, UTCTIMESTAMP, ...). */
  readonly type: string;
  readonly valueType: ValueType;
  /** Allowed values → description, when the dictionary enumerates them. */
  readonly enums: ReadonlyMap<string, string> | undefined;
  /** For DATA fields: the LENGTH field that carries the value's byte count. */
  readonly lengthTag: number | undefined;
}

/** Membership kinds in FieldScope.memberKind. */
export const MemberKind = { None: 0, Field: 1, Group: 2 } as const;

/** Where a tag sits in a message, in MessageDef.placement. */
export const Placement = { None: 0, Header: 1, HeaderGroup: 2, Body: 3, BodyGroup: 4, Trailer: 5 } as const;

/**
 * The fields allowed at one level: a message body, the header, the trailer or one repeating-group
 * entry. Components are flattened in; nested groups stay groups.
 */
export class FieldScope {
  /** By tag: MemberKind.None / Field / Group (a NumInGroup field opening a nested group). */
  readonly memberKind: Uint8Array;
  /** Direct members in dictionary order (group count tags included, nested members not). */
  readonly memberTags: readonly number[];
  /** Tags that must be present at this level (respecting optional components). */
  readonly requiredTags: readonly number[];
  readonly groups: ReadonlyMap<number, GroupDef>;
  /** By tag: 1 + position in memberTags, 0 for non-members; the encoder orders group entries by it. */
  readonly rank: Uint16Array;

  constructor(tagLimit: number, members: number[], required: number[], groups: Map<number, GroupDef>) {
    this.memberKind = new Uint8Array(tagLimit);
    this.rank = new Uint16Array(tagLimit);
    members.forEach((tag, i) => {
      this.memberKind[tag] = groups.has(tag) ? MemberKind.Group : MemberKind.Field;
      this.rank[tag] = i + 1;
    });
    this.memberTags = members;
    this.requiredTags = required;
    this.groups = groups;
  }

  has(tag: number): boolean {
    return tag < this.memberKind.length && this.memberKind[tag] !== MemberKind.None;
  }

  group(countTag: number): GroupDef | undefined {
    return this.groups.get(countTag);
  }
}

/** A repeating group: its NumInGroup tag, its delimiter (first field of every entry) and its members. */
export class GroupDef extends FieldScope {
  constructor(
    readonly name: string,
    readonly countTag: number,
    readonly delimiter: number,
    tagLimit: number,
    members: number[],
    required: number[],
    groups: Map<number, GroupDef>,
  ) {
    super(tagLimit, members, required, groups);
  }
}

export interface MessageDef {
  readonly name: string;
  readonly msgType: string;
  readonly category: 'app' | 'admin';
  readonly body: FieldScope;
  /** By tag: the Placement of the tag in this message type (header, body, trailer, or not allowed). */
  readonly placement: Uint8Array;
}

interface ScopeParts {
  members: number[];
  required: number[];
  groups: Map<number, GroupDef>;
}

export class Dictionary {
  readonly beginString: string;
  /** One past the highest tag the dictionary defines; per-tag arrays have this length. */
  readonly tagLimit: number;
  readonly fields: readonly FieldDef[];
  readonly header: FieldScope;
  readonly trailer: FieldScope;
  readonly messages: readonly MessageDef[];

  /** By tag: ValueType code; 255 for tags the dictionary does not define. */
  readonly valueTypeByTag: Uint8Array;
  /** By DATA tag: its LENGTH tag; 0 when the tag is not a DATA field. */
  readonly lengthTagByDataTag: Uint32Array;
  /** By tag: a 256-entry byte set when every enum value is one character (CHAR enums). */
  readonly charEnumByTag: readonly (Uint8Array | undefined)[];
  /** By tag: the enum values when at least one is longer than a character. */
  readonly stringEnumByTag: readonly (ReadonlySet<string> | undefined)[];
  /**
   * By tag: the short ASCII values among stringEnumByTag as numbers (see enumValueKey), so a parser
   * can check a short value without decoding it to a string; longer values need the string set.
   */
  readonly keyedEnumByTag: readonly (ReadonlySet<number> | undefined)[];

  private readonly fieldByTag: (FieldDef | undefined)[];
  private readonly fieldsByName = new Map<string, FieldDef>();
  private readonly messageByType = new Map<string, MessageDef>();
  private readonly messageByKey = new Map<number, MessageDef>();
  private readonly messagesByName = new Map<string, MessageDef>();
  private readonly groupCache = new Map<object, GroupDef>();
  private readonly components: Record<string, DictionaryItem[]>;

  constructor(data: DictionaryData) {
    this.beginString = data.beginString;
    this.components = data.components;
    let maxTag = 0;
    for (const f of data.fields) if (f.tag > maxTag) maxTag = f.tag;
    this.tagLimit = maxTag + 1;
    this.valueTypeByTag = new Uint8Array(this.tagLimit).fill(255);
    this.lengthTagByDataTag = new Uint32Array(this.tagLimit);
    this.fieldByTag = new Array<FieldDef | undefined>(this.tagLimit).fill(undefined);
    const charEnums = new Array<Uint8Array | undefined>(this.tagLimit).fill(undefined);
    const stringEnums = new Array<ReadonlySet<string> | undefined>(this.tagLimit).fill(undefined);
    const keyedEnums = new Array<ReadonlySet<number> | undefined>(this.tagLimit).fill(undefined);

    const lengthTags = this.pairDataFields(data);
    const fields: FieldDef[] = [];
    for (const f of data.fields) {
      const valueType = VALUE_TYPE_BY_FIX_TYPE[f.type] ?? ValueType.String;
      const enums = f.enums ? new Map(f.enums.map((e) => [e.value, e.description])) : undefined;
      const def: FieldDef = { tag: f.tag, name: f.name, type: f.type, valueType, enums, lengthTag: lengthTags.get(f.tag) };
      fields.push(def);
      this.fieldByTag[f.tag] = def;
      this.fieldsByName.set(f.name, def);
      this.valueTypeByTag[f.tag] = valueType;
      if (def.lengthTag !== undefined) this.lengthTagByDataTag[f.tag] = def.lengthTag;
      // Booleans are checked by their type; an enum list of Y/N adds nothing.
      if (enums && valueType !== ValueType.Boolean) {
        const values = [...enums.keys()];
        if (valueType !== ValueType.MultipleValueString && values.every((v) => v.length === 1)) {
          const set = new Uint8Array(256);
          for (const v of values) set[v.charCodeAt(0) & 0xff] = 1;
          charEnums[f.tag] = set;
        } else {
          stringEnums[f.tag] = new Set(values);
          keyedEnums[f.tag] = new Set(values.map(enumValueKey).filter((k) => k >= 0));
        }
      }
    }
    this.fields = fields;
    this.charEnumByTag = charEnums;
    this.stringEnumByTag = stringEnums;
    this.keyedEnumByTag = keyedEnums;

    this.header = this.scope(this.collect(data.header));
    this.trailer = this.scope(this.collect(data.trailer));
    const messages: MessageDef[] = [];
    for (const m of data.messages) {
      const body = this.scope(this.collect(m.items));
      const placement = new Uint8Array(this.tagLimit);
      for (const tag of body.memberTags) placement[tag] = body.groups.has(tag) ? Placement.BodyGroup : Placement.Body;
      for (const tag of this.trailer.memberTags) placement[tag] = Placement.Trailer;
      for (const tag of this.header.memberTags) placement[tag] = this.header.groups.has(tag) ? Placement.HeaderGroup : Placement.Header;
      const def: MessageDef = { name: m.name, msgType: m.msgType, category: m.category, body, placement };
      messages.push(def);
      this.messageByType.set(m.msgType, def);
      this.messageByKey.set(msgTypeKey(m.msgType), def);
      this.messagesByName.set(m.name, def);
    }
    this.messages = messages;
  }

  private static fix44Instance: Dictionary | undefined;

  /** The FIX 4.4 dictionary generated from the QuickFIX FIX44.xml (loaded once). */
  static fix44(): Dictionary {
    return (Dictionary.fix44Instance ??= new Dictionary(fix44Data as unknown as DictionaryData));
  }

  field(tag: number): FieldDef | undefined {
    return tag > 0 && tag < this.tagLimit ? this.fieldByTag[tag] : undefined;
  }

  fieldByName(name: string): FieldDef | undefined {
    return this.fieldsByName.get(name);
  }

  /** Tag number of a field name; throws for names the dictionary does not define. */
  tagOf(name: string): number {
    const f = this.fieldsByName.get(name);
    if (!f) throw new Error(`FIX field ${name} is not in the ${this.beginString} dictionary`);
    return f.tag;
  }

  isDefinedTag(tag: number): boolean {
    return tag > 0 && tag < this.tagLimit && this.valueTypeByTag[tag] !== 255;
  }

  isHeaderTag(tag: number): boolean {
    return this.header.has(tag);
  }

  isTrailerTag(tag: number): boolean {
    return this.trailer.has(tag);
  }

  message(msgType: string): MessageDef | undefined {
    return this.messageByType.get(msgType);
  }

  messageByName(name: string): MessageDef | undefined {
    return this.messagesByName.get(name);
  }

  /** Message lookup by MsgType's numeric key (see msgTypeKey), for parsers working on bytes. */
  messageByTypeKey(key: number): MessageDef | undefined {
    return this.messageByKey.get(key);
  }

  /** The allowed values of an enumerated field, or undefined when any value is allowed. */
  enumValues(tag: number): ReadonlySet<string> | undefined {
    const f = this.field(tag);
    return f?.enums ? new Set(f.enums.keys()) : undefined;
  }

  isValidEnumValue(tag: number, value: string): boolean {
    const f = this.field(tag);
    if (!f?.enums) return true;
    if (f.valueType === ValueType.MultipleValueString) return value.split(' ').every((v) => f.enums!.has(v));
    return f.enums.has(value);
  }

  /** The repeating group opened by countTag in a message type's body (or the header), if any. */
  group(msgType: string, countTag: number): GroupDef | undefined {
    return this.message(msgType)?.body.group(countTag) ?? this.header.group(countTag);
  }

  private collect(items: DictionaryItem[]): ScopeParts {
    const parts: ScopeParts = { members: [], required: [], groups: new Map() };
    this.collectInto(items, true, parts, new Set());
    return parts;
  }

  // A field inside an optional component is required only when the component is present, which
  // QuickFIX (and we) do not enforce at message level: required = every enclosing level required.
  private collectInto(items: DictionaryItem[], required: boolean, parts: ScopeParts, seen: Set<number>): void {
    for (const item of items) {
      if ('field' in item) {
        if (seen.has(item.field)) continue;
        seen.add(item.field);
        parts.members.push(item.field);
        if (required && item.required) parts.required.push(item.field);
      } else if ('component' in item) {
        const component = this.components[item.component];
        if (!component) throw new Error(`FIX dictionary: unknown component ${item.component}`);
        this.collectInto(component, required && item.required, parts, seen);
      } else {
        if (seen.has(item.group)) continue;
        seen.add(item.group);
        parts.members.push(item.group);
        parts.groups.set(item.group, this.groupDef(item));
        if (required && item.required) parts.required.push(item.group);
      }
    }
  }

  private groupDef(item: { group: number; items: DictionaryItem[] }): GroupDef {
    const cached = this.groupCache.get(item);
    if (cached) return cached;
    const parts = this.collect(item.items);
    const delimiter = parts.members[0];
    if (delimiter === undefined) throw new Error(`FIX dictionary: group ${item.group} has no fields`);
    // The delimiter starts every entry, so it is required within an entry even if marked optional.
    const required = parts.required.includes(delimiter) ? parts.required : [delimiter, ...parts.required];
    const name = this.fieldByTag[item.group]?.name ?? String(item.group);
    const def = new GroupDef(name, item.group, delimiter, this.tagLimit, parts.members, required, parts.groups);
    this.groupCache.set(item, def);
    return def;
  }

  private scope(parts: ScopeParts): FieldScope {
    return new FieldScope(this.tagLimit, parts.members, parts.required, parts.groups);
  }

  // DATA values may contain SOH, so their length travels in the LENGTH field defined just before
  // them (RawDataLength/RawData, EncodedTextLen/EncodedText, ...). The pairing is read off the
  // definition order rather than hard-coded.
  private pairDataFields(data: DictionaryData): Map<number, number> {
    const types = new Map(data.fields.map((f) => [f.tag, f.type]));
    const pairs = new Map<number, number>();
    const walk = (items: DictionaryItem[]): void => {
      let previous: number | undefined;
      for (const item of items) {
        if ('field' in item) {
          if (types.get(item.field) === 'DATA' && previous !== undefined && types.get(previous) === 'LENGTH') {
            pairs.set(item.field, previous);
          }
          previous = item.field;
        } else {
          previous = undefined;
          if ('group' in item) walk(item.items);
        }
      }
    };
    walk(data.header);
    walk(data.trailer);
    for (const c of Object.values(data.components)) walk(c);
    for (const m of data.messages) walk(m.items);
    return pairs;
  }
}

/** Numeric key of a MsgType (1-3 ASCII characters), so parsers can look up messages without a string. */
export function msgTypeKey(msgType: string): number {
  let key = 0;
  for (let i = 0; i < msgType.length; i++) key = key * 256 + (msgType.charCodeAt(i) & 0xff);
  return key + msgType.length * 0x1000000;
}

/** Longest enum value enumValueKey can key: 7 ASCII characters fit in 50 bits. */
export const ENUM_KEY_MAX_LENGTH = 7;

/**
 * A number identifying a short ASCII value (1 followed by 7 bits per character), or -1 when the
 * value is empty, longer than ENUM_KEY_MAX_LENGTH or not ASCII. Parsers compute the same key
 * straight from the bytes.
 */
export function enumValueKey(value: string): number {
  if (value.length === 0 || value.length > ENUM_KEY_MAX_LENGTH) return -1;
  let key = 1;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128) return -1;
    key = key * 128 + c;
  }
  return key;
}
