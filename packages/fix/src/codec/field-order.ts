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
  let groups = false;
  const kind = scope.memberKind;
  for (let i = 0; i < fields.length; i++) {
    const tag = fields[i]![0];
    if (i > 0 && tag <= fields[i - 1]![0]) {
      ordered = false;
      break;
    }
    if (tag < kind.length && kind[tag] === MemberKind.Group) {
      groups = true;
      break;
    }
  }
  if (ordered && !groups) return fields;
  // Groups (an execution report's Parties, say) already in order: checked in one pass, no allocation
  // beyond a small list per group.
  if (alreadyInQuickFixOrder(scope, fields)) return fields;
  return sortIntoQuickFixOrder(scope, fields);
}

/**
 * Whether sortIntoQuickFixOrder would give the fields back in the order they are in: top-level tags
 * not decreasing, each group's entries cut where sortIntoQuickFixOrder cuts them (a member tag the
 * entry already has, within the count; a non-member ends the group) with their members in strictly
 * ascending dictionary rank, nested groups likewise.
 */
export function alreadyInQuickFixOrder<V>(scope: FieldScope, fields: ReadonlyArray<Field<V>>): boolean {
  let prev = -1;
  let i = 0;
  while (i < fields.length) {
    const field = fields[i]!;
    const tag = field[0];
    if (tag < prev) return false;
    prev = tag;
    const group = scope.group(tag);
    if (group === undefined) {
      i++;
      continue;
    }
    const end = orderedGroupEnd(group, count(field[1]), fields, i + 1);
    if (end < 0) return false;
    i = end;
  }
  return true;
}

/** The index after a group whose entries are in order, or -1 when one is not. */
function orderedGroupEnd<V>(group: GroupDef, expected: number, fields: ReadonlyArray<Field<V>>, from: number): number {
  const rank = group.rank;
  // Ranks of the current entry's own members, ascending.
  const ranks: number[] = [];
  let entries = 0;
  let i = from;
  while (i < fields.length) {
    const field = fields[i]!;
    const tag = field[0];
    if (!group.has(tag)) break;
    const r = rank[tag]!;
    const last = ranks.length ? ranks[ranks.length - 1]! : 0;
    if (entries === 0 || r <= last) {
      // A member at or before the last one's place starts the next entry only if this entry has it already.
      if (entries > 0) {
        if (!ranks.includes(r)) return -1;
        if (entries >= expected) break;
      }
      ranks.length = 0;
      entries++;
    }
    ranks.push(r);
    const nested = group.group(tag);
    if (nested === undefined) i++;
    else {
      const end = orderedGroupEnd(nested, count(field[1]), fields, i + 1);
      if (end < 0) return -1;
      i = end;
    }
  }
  return i;
}

/** inQuickFixOrder without the fast paths: the fields sorted into QuickFIX order (the same array when nothing moved). */
export function sortIntoQuickFixOrder<V>(scope: FieldScope, fields: ReadonlyArray<Field<V>>): ReadonlyArray<Field<V>> {
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
