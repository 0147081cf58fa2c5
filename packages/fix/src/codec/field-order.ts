// QuickFIX's field order for a flat list of fields (as the session passes them): fields by tag
// number, each repeating group kept together at its NumInGroup tag, the fields of every entry in
// dictionary order (delimiter first), nested groups likewise. FixEncoder.encode writes the same order
// from a builder; this is the same rule for lists whose groups are already flattened.
import { MemberKind, type FieldScope, type GroupDef } from '../dictionary/dictionary';

type Field<V> = readonly [number, V];

/** One top-level unit: a plain field, or a group's count field followed by its entries. */
interface Item<V> {
  readonly tag: number;
  readonly fields: Array<Field<V>>;
}

/**
 * The fields in QuickFIX order, or the same array when they already are (the usual case costs one
 * pass). `scope` is the message body (or the header); undefined for a message type the dictionary
 * does not know, whose fields are then ordered by tag unless a tag repeats (an unknown group, whose
 * order only the caller knows).
 */
export function inQuickFixOrder<V>(scope: FieldScope | undefined, fields: ReadonlyArray<Field<V>>): ReadonlyArray<Field<V>> {
  if (fields.length < 2) return fields;
  if (scope === undefined) return ascendingUnlessRepeated(fields);
  // Fast path: tags strictly ascending and no group among them is QuickFIX order as it stands.
  let ordered = true;
  const kind = scope.memberKind;
  for (let i = 0; i < fields.length; i++) {
    const tag = fields[i]![0];
    if ((i > 0 && tag <= fields[i - 1]![0]) || (tag < kind.length && kind[tag] === MemberKind.Group)) {
      ordered = false;
      break;
    }
  }
  if (ordered) return fields;
  const items: Array<Item<V>> = [];
  let i = 0;
  while (i < fields.length) {
    const field = fields[i]!;
    const group = scope.group(field[0]);
    if (group === undefined) {
      items.push({ tag: field[0], fields: [field] });
      i++;
      continue;
    }
    const out: Array<Field<V>> = [field];
    i = readGroup(group, count(field[1]), fields, i + 1, out);
    items.push({ tag: field[0], fields: out });
  }
  // Stable: a tag given twice keeps its given order (the encoder writes both, as given).
  items.sort((a, b) => a.tag - b.tag);
  const result: Array<Field<V>> = [];
  for (const item of items) for (const f of item.fields) result.push(f);
  return sameOrder(result, fields) ? fields : result;
}

/**
 * Reads the entries of `group` starting at `from`, appends them in dictionary order to `out` and
 * returns the index after the group. An entry ends where a tag it already has comes again (the next
 * entry's delimiter, usually); the group ends at a tag that is not one of its members, or when
 * `expected` entries were read and another would start.
 */
function readGroup<V>(group: GroupDef, expected: number, fields: ReadonlyArray<Field<V>>, from: number, out: Array<Field<V>>): number {
  let i = from;
  let entries = 0;
  let entry: Array<Item<V>> | undefined;
  let seen = new Set<number>();
  const flush = () => {
    if (!entry) return;
    const rank = group.rank;
    const weight = (tag: number) => (tag < rank.length && rank[tag]! > 0 ? rank[tag]! : 0x10000 + tag);
    entry.sort((a, b) => weight(a.tag) - weight(b.tag));
    for (const item of entry) for (const f of item.fields) out.push(f);
  };
  while (i < fields.length) {
    const field = fields[i]!;
    const tag = field[0];
    if (!group.has(tag)) break;
    if (!entry || seen.has(tag)) {
      if (entry && entries >= expected) break;
      flush();
      entry = [];
      seen = new Set();
      entries++;
    }
    seen.add(tag);
    const nested = group.group(tag);
    if (nested === undefined) {
      entry.push({ tag, fields: [field] });
      i++;
    } else {
      const nestedOut: Array<Field<V>> = [field];
      i = readGroup(nested, count(field[1]), fields, i + 1, nestedOut);
      entry.push({ tag, fields: nestedOut });
    }
  }
  flush();
  return i;
}

function count(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : Number.MAX_SAFE_INTEGER;
}

function ascendingUnlessRepeated<V>(fields: ReadonlyArray<Field<V>>): ReadonlyArray<Field<V>> {
  let ascending = true;
  const seen = new Set<number>();
  for (let i = 0; i < fields.length; i++) {
    const tag = fields[i]![0];
    if (seen.has(tag)) return fields;
    seen.add(tag);
    if (i > 0 && tag < fields[i - 1]![0]) ascending = false;
  }
  return ascending ? fields : [...fields].sort((a, b) => a[0] - b[0]);
}

function sameOrder<V>(a: ReadonlyArray<Field<V>>, b: ReadonlyArray<Field<V>>): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
