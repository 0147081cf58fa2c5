// alreadyInQuickFixOrder must say yes exactly when sorting would change nothing: it lets a message
// whose groups are already in order (every execution report with Parties) skip the sort.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Dictionary, type FieldScope } from '../dictionary/dictionary';
import { alreadyInQuickFixOrder, inQuickFixOrder, sortIntoQuickFixOrder } from './field-order';
import { seededRandom } from './test-support';

type F = [number, string];

/** Random fields of a scope: members in dictionary order (some skipped), groups with 0-3 entries, then mangled a little. */
function randomFields(scope: FieldScope, rnd: () => number, depth = 0): F[] {
  const out: F[] = [];
  // The body by tag number, a group entry's members in dictionary order.
  const tags = depth === 0 ? [...scope.memberTags].sort((a, b) => a - b) : scope.memberTags;
  for (const tag of tags) {
    if (rnd() < (depth === 0 ? 0.85 : 0.5)) continue;
    const group = scope.group(tag);
    if (!group) {
      out.push([tag, 'v']);
      continue;
    }
    if (depth > 1) continue;
    const n = Math.floor(rnd() * 4);
    // Now and then a count that does not match the entries.
    out.push([tag, String(rnd() < 0.15 ? n + 1 : n)]);
    for (let e = 0; e < n; e++) {
      out.push([group.delimiter, 'd']);
      for (const f of randomFields(group, rnd, depth + 1)) if (f[0] !== group.delimiter) out.push(f);
    }
  }
  // Mangle: swap two neighbours, move one field elsewhere, or repeat one.
  const r = rnd();
  if (out.length > 2 && r < 0.3) {
    const i = Math.floor(rnd() * (out.length - 1));
    [out[i], out[i + 1]] = [out[i + 1]!, out[i]!];
  } else if (out.length > 2 && r < 0.45) {
    const [f] = out.splice(Math.floor(rnd() * out.length), 1);
    out.splice(Math.floor(rnd() * out.length), 0, f!);
  } else if (out.length > 1 && r < 0.5) {
    out.splice(Math.floor(rnd() * out.length), 0, out[Math.floor(rnd() * out.length)]!);
  }
  return out;
}

describe('alreadyInQuickFixOrder', () => {
  const dict = Dictionary.fix44();

  it('agrees with sorting on random bodies of execution reports, new orders (single and multileg)', () => {
    const rnd = seededRandom(20261125);
    let ordered = 0;
    let withGroups = 0;
    for (const msgType of ['8', 'D', 'AB', 'j', '3']) {
      const scope = dict.message(msgType)!.body;
      for (let n = 0; n < 4000; n++) {
        const fields = randomFields(scope, rnd);
        const sorted = sortIntoQuickFixOrder(scope, fields);
        const unchanged = sorted.length === fields.length && sorted.every((f, i) => f === fields[i]);
        assert.equal(alreadyInQuickFixOrder(scope, fields), unchanged, `${msgType}: ${fields.map((f) => f.join('=')).join('|')}`);
        if (unchanged) {
          ordered++;
          if (fields.some(([t]) => scope.group(t))) withGroups++;
          assert.equal(inQuickFixOrder(scope, fields), fields, 'the same array back');
        } else assert.deepEqual(inQuickFixOrder(scope, fields), sorted);
      }
    }
    // Both answers were exercised, groups included.
    assert.ok(ordered > 2000 && withGroups > 500, `${ordered} ordered, ${withGroups} with groups`);
  });
});
