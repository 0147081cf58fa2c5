// A field required inside a required component, in components nested in components,
// or inside a repeating group's entry when the group is present, is enforced like a field of the
// message itself: a message without it gets Reject 373=1 (Required tag missing) with 371 naming it.
// Checked for every message of the dictionary, on messages built from the dictionary alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixParser } from '../codec/parser';
import { REJECT_REASON_TEXT, RejectReason } from '../codec/rejection';
import { fixMessage, header, pipes } from '../codec/test-support';
import { Dictionary, ValueType, type DictionaryData, type FieldScope, type GroupDef, type MessageDef } from './dictionary';
import fix44Data from './fix44.generated.json' with { type: 'json' };

const dict = Dictionary.fix44();
const parser = new FixParser(dict);

/** A value the dictionary accepts for a tag: its first enum value, else one of its type's format. */
function valueFor(d: Dictionary, tag: number): string {
  const f = d.field(tag)!;
  if (f.enums) return f.valueType === ValueType.Boolean ? 'Y' : [...f.enums.keys()][0]!;
  switch (f.valueType) {
    case ValueType.Int:
    case ValueType.UnsignedInt:
    case ValueType.Decimal:
    case ValueType.DayOfMonth:
      return '1';
    case ValueType.Char:
      return 'A';
    case ValueType.Boolean:
      return 'Y';
    case ValueType.UtcTimestamp:
      return '20260315-09:30:01';
    case ValueType.UtcTimeOnly:
      return '09:30:01';
    case ValueType.Date:
      return '20260315';
    case ValueType.MonthYear:
      return '202603';
    default:
      return 'X';
  }
}

/** One field as wire pairs: a DATA field brings its LENGTH field just before it. */
function fieldPairs(d: Dictionary, tag: number): Array<[number, string]> {
  const value = valueFor(d, tag);
  const lengthTag = d.field(tag)!.lengthTag;
  return lengthTag === undefined
    ? [[tag, value]]
    : [
        [lengthTag, String(value.length)],
        [tag, value],
      ];
}

/** A LENGTH tag written with its DATA field rather than on its own. */
function isLengthOfRequired(d: Dictionary, scope: FieldScope, tag: number): boolean {
  return scope.requiredTags.some((t) => d.field(t)?.lengthTag === tag);
}

/**
 * The required fields of one group entry, in the entry's dictionary order (the delimiter first),
 * nested required groups with one entry each; `omit` leaves a tag out wherever it would go.
 */
function entryPairs(d: Dictionary, scope: FieldScope, omit?: number): Array<[number, string]> {
  const tags = [...scope.requiredTags].sort((a, b) => scope.rank[a]! - scope.rank[b]!);
  return tags.flatMap((tag) => (tag === omit || isLengthOfRequired(d, scope, tag) ? [] : memberPairs(d, scope, tag, omit)));
}

function memberPairs(d: Dictionary, scope: FieldScope, tag: number, omit?: number): Array<[number, string]> {
  const group = scope.group(tag);
  if (!group) return fieldPairs(d, tag);
  return [[tag, '1'], ...entryPairs(d, group, omit)];
}

/** The body of a message with every required field, top-level fields first, then required groups. */
function bodyPairs(d: Dictionary, def: MessageDef, omit?: number): Array<[number, string]> {
  const required = def.body.requiredTags.filter((t) => t !== omit && !isLengthOfRequired(d, def.body, t));
  const fields = required.filter((t) => !def.body.group(t));
  const groups = required.filter((t) => def.body.group(t));
  return [...fields.flatMap((t) => fieldPairs(d, t)), ...groups.flatMap((t) => memberPairs(d, def.body, t, omit))];
}

const wire = (pairs: Array<[number, string]>) => pairs.map(([t, v]) => `${t}=${v}|`).join('');

function parse(def: MessageDef, body: Array<[number, string]>, p = parser) {
  return p.parse(fixMessage(`${header(def.msgType)}${wire(body)}`));
}

function assertClean(def: MessageDef, body: Array<[number, string]>, what: string, p = parser): void {
  const m = parse(def, body, p);
  assert.equal(m.garbled, undefined, `${what}: garbled`);
  assert.equal(m.rejection, undefined, `${what} should be valid: ${pipes(m.raw)} → ${JSON.stringify(m.rejection)}`);
}

function assertMissing(def: MessageDef, body: Array<[number, string]>, tag: number, what: string, p = parser): void {
  const m = parse(def, body, p);
  assert.deepEqual(
    m.rejection && { reason: m.rejection.reason, ref: m.rejection.refTagId, text: m.rejection.text },
    { reason: RejectReason.RequiredTagMissing, ref: tag, text: REJECT_REASON_TEXT[RejectReason.RequiredTagMissing] },
    `${what}: ${pipes(m.raw)}`,
  );
}

/** Every group reachable in a scope (nested ones too), whether required or not, with its path. */
function* groupsOf(scope: FieldScope, path: number[] = []): Generator<{ path: number[]; group: GroupDef }> {
  for (const [countTag, group] of scope.groups) {
    yield { path: [...path, countTag], group };
    yield* groupsOf(group, [...path, countTag]);
  }
}

// The required tags worked out from the generated data on their own, without the Dictionary class:
// a field or group is required when it and every enclosing component are required; a group entry's
// own fields from the group's items (its delimiter always).
type Item = DictionaryData['messages'][number]['items'][number];
const data = fix44Data as unknown as DictionaryData;

function requiredOf(items: readonly Item[], required = true, out = new Set<number>()): Set<number> {
  for (const item of items) {
    if ('field' in item) {
      if (required && item.required) out.add(item.field);
    } else if ('component' in item) requiredOf(data.components[item.component]!, required && item.required, out);
    else if (required && item.required) out.add(item.group);
  }
  return out;
}

/** The items of the group `countTag` among `items` (through components, not into other groups). */
function groupItems(items: readonly Item[], countTag: number): readonly Item[] | undefined {
  for (const item of items) {
    if ('group' in item && item.group === countTag) return item.items;
    if ('component' in item) {
      const found = groupItems(data.components[item.component]!, countTag);
      if (found) return found;
    }
  }
  return undefined;
}

const sorted = (tags: Iterable<number>) => [...tags].sort((a, b) => a - b);

describe('required fields, through components and group entries, for every message of the dictionary', () => {
  it('a NewOrderSingle without Symbol (55, required in Instrument, which NewOrderSingle requires) is Reject 373=1 371=55', () => {
    const nos = fixMessage(`${header('D')}11=A|54=1|60=20260315-09:30:01|38=10|40=1|`);
    const m = parser.parse(nos);
    assert.deepEqual(m.rejection, { reason: RejectReason.RequiredTagMissing, refTagId: 55, text: 'Required tag missing' });
    assert.equal(parser.parse(fixMessage(`${header('D')}11=A|55=TD3C|54=1|60=20260315-09:30:01|38=10|40=1|`)).rejection, undefined);
  });

  it('Symbol is not required where Instrument is optional (a SecurityDefinitionRequest, an Email without related symbols)', () => {
    assert.equal(parser.parse(fixMessage(`${header('c')}320=R1|321=0|`)).rejection, undefined);
    assert.equal(parser.parse(fixMessage(`${header('C')}164=T1|94=0|147=S|33=1|58=hello|`)).rejection, undefined);
  });

  for (const def of dict.messages) {
    it(`${def.name} (${def.msgType})`, () => {
      const items = data.messages.find((m) => m.msgType === def.msgType)!.items;
      assert.deepEqual(sorted(def.body.requiredTags), sorted(requiredOf(items)), `${def.name}: required tags`);
      for (const { path, group } of groupsOf(def.body)) {
        const entry = path.reduce<readonly Item[]>((scope, tag) => groupItems(scope, tag)!, items);
        assert.deepEqual(
          sorted(group.requiredTags),
          sorted(requiredOf(entry).add(group.delimiter)),
          `${def.name} ${path.join('>')}: an entry's required tags`,
        );
      }
      const full = bodyPairs(dict, def);
      assertClean(def, full, `${def.name} with every required field`);
      // Each required top-level field or group (the fields of required components among them).
      for (const tag of def.body.requiredTags) {
        if (isLengthOfRequired(dict, def.body, tag)) continue;
        assertMissing(def, bodyPairs(dict, def, tag), tag, `${def.name} without ${tag}`);
      }
      // Each required field of a group entry, when the group is present: required groups are in the
      // minimal message; an optional one is added with one entry of its required fields.
      for (const { path, group } of groupsOf(def.body)) {
        const members = group.requiredTags.filter((t) => t !== group.delimiter && !isLengthOfRequired(dict, group, t));
        if (members.length === 0) continue;
        // The path's groups opened one entry each, down to this group, beside the other required fields.
        const build = (scope: FieldScope, depth: number, omit?: number): Array<[number, string]> => {
          const countTag = path[depth]!;
          const g = scope.group(countTag)!;
          if (depth === path.length - 1) return [[countTag, '1'], ...entryPairs(dict, g, omit)];
          const next = path[depth + 1]!;
          const tags = [...new Set([...g.requiredTags, next])].sort((a, b) => g.rank[a]! - g.rank[b]!);
          const entry = tags.flatMap((t) =>
            t === next ? build(g, depth + 1, omit) : isLengthOfRequired(dict, g, t) ? [] : memberPairs(dict, g, t),
          );
          return [[countTag, '1'], ...entry];
        };
        const withGroup = (omit?: number): Array<[number, string]> => {
          const required = def.body.requiredTags.filter((t) => t !== path[0] && !isLengthOfRequired(dict, def.body, t));
          const fields = required.filter((t) => !def.body.group(t)).flatMap((t) => fieldPairs(dict, t));
          const groups = required.filter((t) => def.body.group(t)).flatMap((t) => memberPairs(dict, def.body, t));
          return [...fields, ...groups, ...build(def.body, 0, omit)];
        };
        const where = `${def.name} ${path.join('>')}`;
        assertClean(def, withGroup(), `${where} with one entry`);
        for (const tag of members) assertMissing(def, withGroup(tag), tag, `${where} entry without ${tag}`);
      }
    });
  }
});

describe('required fields through nested components (a dictionary of its own)', () => {
  // M requires component Outer; Outer requires Inner and holds an optional Opt; Inner requires field
  // 55 and an optional group 453 whose entries require 452; Opt requires 58, which is therefore only
  // required when Opt is present, and QuickFIX does not track a component's presence: never enforced.
  const base = fix44Data as unknown as DictionaryData;
  const data: DictionaryData = {
    ...base,
    components: {
      ...base.components,
      Outer: [
        { component: 'Inner', required: true },
        { component: 'Opt', required: false },
        { field: 15, required: false },
      ],
      Inner: [
        { field: 55, required: true },
        {
          group: 453,
          required: false,
          items: [
            { field: 448, required: false },
            { field: 452, required: true },
          ],
        },
      ],
      Opt: [{ field: 58, required: true }],
    },
    messages: [
      ...base.messages.filter((m) => m.msgType !== 'D'),
      {
        name: 'NewOrderSingle',
        msgType: 'D',
        category: 'app',
        items: [
          { field: 11, required: true },
          { component: 'Outer', required: true },
        ],
      },
    ],
  };
  const own = new Dictionary(data);
  const p = new FixParser(own);
  const parseD = (body: string) => p.parse(fixMessage(`${header('D')}${body}`)).rejection;

  it('enforces a field required in a required component of a required component', () => {
    assert.equal(parseD('11=A|55=X|'), undefined);
    assert.deepEqual(parseD('11=A|'), { reason: RejectReason.RequiredTagMissing, refTagId: 55, text: 'Required tag missing' });
    assert.deepEqual(own.message('D')!.body.requiredTags, [11, 55]);
  });

  it('enforces a field required in a group entry only when the group is present', () => {
    assert.equal(parseD('11=A|55=X|453=1|448=P|452=3|'), undefined);
    assert.deepEqual(parseD('11=A|55=X|453=1|448=P|'), {
      reason: RejectReason.RequiredTagMissing,
      refTagId: 452,
      text: 'Required tag missing',
    });
    assert.deepEqual(parseD('11=A|55=X|453=2|448=P|452=3|448=Q|'), {
      reason: RejectReason.RequiredTagMissing,
      refTagId: 452,
      text: 'Required tag missing',
    });
  });

  it("does not enforce a field required in an optional component (QuickFIX's rule)", () => {
    assert.equal(parseD('11=A|55=X|15=USD|'), undefined);
  });
});
