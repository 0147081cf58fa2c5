import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactFix } from '@fixdesk/db';
import { describeFixMessage, groupEntryName } from './describe-fix-message';

const SOH = '\x01';
function fix(body: string): string {
  const b = body.replaceAll('|', SOH);
  const text = `8=FIX.4.4${SOH}9=${b.length}${SOH}${b}`;
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
  return `${text}10=${String(sum % 256).padStart(3, '0')}${SOH}`;
}

const MULTILEG = fix(
  '35=AB|34=7|49=SGX_CLIENT_1|52=20260315-09:30:01.123|56=FIXDESK|11=ML-1|453=2|448=TRADER1|447=D|452=11|448=FIRM1|447=D|452=7|' +
    '1=ACC|54=1|55=FE-SPD|555=2|600=FE|609=FUT|610=202604|623=1|624=1|600=FE|609=FUT|610=202605|623=1|624=2|38=10|40=2|44=-5.5|60=20260315-09:30:01|',
);

describe('a stored FIX message read with the engine dictionary', () => {
  it('lists header, body and trailer fields with names, types, enum meanings and required flags', () => {
    const d = describeFixMessage(MULTILEG, new Map([[11, 'Cl Ord ID (STRING)']]));
    assert.equal(d.problem, null);
    assert.equal(d.msgType, 'AB');
    assert.equal(d.msgName, 'NewOrderMultileg');
    const byTag = (tag: number) => d.fields.find((f) => f.tag === tag)!;
    assert.deepEqual([byTag(8).section, byTag(35).section, byTag(11).section, byTag(10).section], ['header', 'header', 'body', 'trailer']);
    assert.equal(byTag(35).valueName, 'NEW_ORDER_MULTILEG');
    assert.equal(byTag(11).name, 'ClOrdID');
    assert.equal(byTag(11).type, 'STRING');
    assert.equal(byTag(11).required, true);
    assert.equal(byTag(11).description, 'Cl Ord ID (STRING)');
    assert.equal(byTag(1).required, false);
    assert.equal(byTag(54).valueName, 'BUY');
    assert.match(byTag(54).validValues ?? '', /^1=BUY, 2=SELL/);
    assert.equal(byTag(11).validValues, null);
    assert.equal(d.fields.at(-1)!.tag, 10);
    // Wire order is kept.
    assert.deepEqual(
      d.fields.slice(0, 3).map((f) => f.tag),
      [8, 9, 35],
    );
  });

  it('labels repeating-group members by entry: Party 1, Party 2, Leg 1, Leg 2', () => {
    const d = describeFixMessage(MULTILEG);
    const labels = (tag: number) => d.fields.filter((f) => f.tag === tag).map((f) => f.groups.map((g) => g.label).join(' / '));
    assert.deepEqual(labels(448), ['Party 1', 'Party 2']);
    assert.deepEqual(labels(600), ['Leg 1', 'Leg 2']);
    assert.deepEqual(labels(624), ['Leg 1', 'Leg 2']);
    const count = d.fields.find((f) => f.tag === 555)!;
    assert.deepEqual(count.groups, []);
    assert.equal(count.type, 'NUMINGROUP');
    // The delimiter is required within its entry.
    assert.equal(d.fields.find((f) => f.tag === 448)!.required, true);
    assert.deepEqual(d.fields.find((f) => f.tag === 610)!.groups, [{ countTag: 555, entry: 1, label: 'Leg 1' }]);
  });

  it('names the problem of a message the dictionary rejects, and still lists its fields', () => {
    const d = describeFixMessage(fix('35=D|34=2|49=A|52=20260315-09:30:01|56=B|11=X|54=Z|55=FE|60=20260315-09:30:01|38=1|40=1|'));
    assert.match(d.problem ?? '', /Value is incorrect \(out of range\) for this tag \(tag 54 Side\)/);
    assert.equal(d.fields.find((f) => f.tag === 54)!.value, 'Z');
    assert.equal(d.fields.find((f) => f.tag === 54)!.valueName, null);
  });

  it('reports an unreadable message and lists no fields for empty text', () => {
    const empty = describeFixMessage('');
    assert.deepEqual(empty.fields, []);
    assert.match(empty.problem ?? '', /^Not a readable FIX message/);
    const garbled = describeFixMessage('hello world');
    assert.match(garbled.problem ?? '', /^Not a readable FIX message/);
  });

  it('keeps a tag the dictionary does not know, without a name', () => {
    const d = describeFixMessage(fix('35=0|34=9|49=A|52=20260315-09:30:01|56=B|9999=x|'));
    const custom = d.fields.find((f) => f.tag === 9999)!;
    assert.equal(custom.name, null);
    assert.equal(custom.type, null);
  });

  it('turns group names into entry names', () => {
    assert.equal(groupEntryName('NoLegs'), 'Leg');
    assert.equal(groupEntryName('NoPartyIDs'), 'Party');
    assert.equal(groupEntryName('NoNestedPartyIDs'), 'Nested Party');
    assert.equal(groupEntryName('NoLegStipulations'), 'Leg Stipulation');
    assert.equal(groupEntryName('NoUnderlyings'), 'Underlying');
    assert.equal(groupEntryName('NoPartySubIDs'), 'Party Sub');
    assert.equal(groupEntryName('NoMiscFees'), 'Misc Fee');
  });
});

it('reads a Logon masked by redactFix: its RawData masked and the fields after it read', () => {
  const raw =
    [
      '8=FIX.4.4',
      '9=99',
      '35=A',
      '49=C',
      '56=FIXDESK',
      '34=1',
      '52=20261128-10:00:00.000',
      '98=0',
      '108=30',
      '95=16',
      '96=QQ\x01554=x\x0158=ZZZZ',
      '553=alice',
      '554=pw',
      '10=000',
    ].join(SOH) + SOH;
  const d = describeFixMessage(redactFix(raw), new Map());
  assert.deepEqual(
    d.fields.slice(-5).map((f) => [f.tag, f.value]),
    [
      [95, '16'],
      [96, '*'.repeat(16)],
      [553, 'alice'],
      [554, '********'],
      [10, '000'],
    ],
  );
  const text = JSON.stringify(d);
  for (const leak of ['QQ', 'ZZZZ', '"pw"', '"x"']) assert.ok(!text.includes(leak), `${leak} left`);
});
