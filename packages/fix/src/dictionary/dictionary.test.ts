import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  REQUIRED_IN_COMPONENT,
  buildDictionary,
  codesPath,
  enumConstName,
  enumEntries,
  formatDictionaryJson,
  generateCodesTs,
  identifierFromDescription,
  parseXml,
} from '../../scripts/gen-fix-dictionary';
import { Dictionary, MemberKind, Placement, ValueType, enumValueKey, type DictionaryData } from './dictionary';
import * as codes from '@fixdesk/fix-codes';
import { ExecType, MsgType, OrdStatus, PartyRole, SessionRejectReason, Side, Tag } from '@fixdesk/fix-codes';

const xmlPath = fileURLToPath(new URL('../../../../../shared/fix/FIX44.xml', import.meta.url));
const jsonPath = fileURLToPath(new URL('./fix44.generated.json', import.meta.url));
const dict = Dictionary.fix44();

describe('generated dictionary data', () => {
  const data = JSON.parse(readFileSync(jsonPath, 'utf8')) as DictionaryData;

  it('has the shape the db seed reads', () => {
    assert.equal(data.beginString, 'FIX.4.4');
    assert.deepEqual(Object.keys(data), ['beginString', 'fields', 'header', 'trailer', 'components', 'messages']);
    assert.deepEqual(data.fields[0], { tag: 1, name: 'Account', type: 'STRING' });
    const side = data.fields.find((f) => f.tag === 54)!;
    assert.deepEqual(side.enums?.[0], { value: '1', description: 'BUY' });
    assert.ok(
      data.fields.every((f) => f.enums === undefined || f.enums.length > 0),
      'enums only when the field has values',
    );
    const nos = data.messages.find((m) => m.msgType === 'D')!;
    assert.equal(nos.name, 'NewOrderSingle');
    assert.equal(nos.category, 'app');
    assert.deepEqual(nos.items[0], { field: 11, required: true });
    assert.deepEqual(
      nos.items.find((i) => 'component' in i && i.component === 'Parties'),
      { component: 'Parties', required: false },
    );
    assert.deepEqual(data.components.Parties, [
      {
        group: 453,
        required: false,
        items: [
          { field: 448, required: false },
          { field: 447, required: false },
          { field: 452, required: false },
          { component: 'PtysSubGrp', required: false },
        ],
      },
    ]);
    assert.equal(data.messages.find((m) => m.msgType === 'A')!.category, 'admin');
    assert.deepEqual(data.trailer.at(-1), { field: 10, required: true });
  });

  it(
    'is what the generator produces from FIX44.xml (regenerate with npm run gen:fix-dictionary)',
    { skip: !existsSync(xmlPath) && 'FIX44.xml is not beside this checkout' },
    () => {
      const generated = buildDictionary(readFileSync(xmlPath, 'utf8'));
      assert.equal(formatDictionaryJson(generated), readFileSync(jsonPath, 'utf8'));
      assert.equal(generateCodesTs(generated), readFileSync(codesPath, 'utf8'));
    },
  );

  it('carries the QuickFIX acknowledgment in the generated constants', () => {
    assert.match(
      readFileSync(codesPath, 'utf8'),
      /This product includes software developed by quickfixengine\.org \(http:\/\/www\.quickfixengine\.org\/\)\./,
    );
  });
});

describe('generator XML reader', () => {
  it('reads attributes in either quote style, entities, comments and processing instructions', () => {
    const doc = parseXml(`<?xml version="1.0"?><!-- note --><fix a='1' b="x &amp; y &#65;&#x42;"><field name='N' /></fix>`);
    const fix = doc.children[0]!;
    assert.equal(fix.name, 'fix');
    assert.deepEqual(fix.attrs, { a: '1', b: 'x & y AB' });
    assert.equal(fix.children[0]!.attrs.name, 'N');
  });

  it('rejects malformed XML with a line number', () => {
    assert.throws(() => parseXml('<fix>\n<field></fix>'), /line 2.*does not close/);
    assert.throws(() => parseXml('<fix a=1/>'), /cannot read attributes/);
    assert.throws(() => parseXml('<fix>'), /unclosed/);
    assert.throws(() => parseXml(`<fix a='x & y'/>`), /bare '&'/);
  });

  it('rejects dictionaries that reference undefined fields or components', () => {
    const xml = (body: string) =>
      `<fix type='FIX' major='4' minor='4'><header/><trailer/><messages><message name='M' msgtype='Z' msgcat='app'>${body}</message></messages><components/><fields><field number='1' name='Account' type='STRING'/></fields></fix>`;
    assert.equal(buildDictionary(xml(`<field name='Account' required='Y'/>`), {}).messages[0]!.items.length, 1);
    assert.throws(() => buildDictionary(xml(`<field name='Nope' required='Y'/>`), {}), /unknown field Nope/);
    assert.throws(() => buildDictionary(xml(`<component name='Nope' required='Y'/>`), {}), /unknown component Nope/);
    assert.throws(() => buildDictionary(xml(`<group name='Account' required='N'><field name='Account'/></group>`), {}), /not NUMINGROUP/);
    // The corrections of required fields in components name components and fields that exist.
    assert.throws(() => buildDictionary(xml(`<field name='Account' required='Y'/>`)), /REQUIRED_IN_COMPONENT: no component Instrument/);
  });

  it(
    'marks Symbol required in Instrument, as QuickFIX/J does (the QuickFIX C++ FIX44.xml has it optional)',
    { skip: !existsSync(xmlPath) && 'FIX44.xml is not beside this checkout' },
    () => {
      assert.deepEqual(REQUIRED_IN_COMPONENT, { Instrument: ['Symbol'] });
      const xml = readFileSync(xmlPath, 'utf8');
      assert.match(xml, /<component name='Instrument'>\s*<field name='Symbol' required='N' \/>/);
      assert.deepEqual(buildDictionary(xml).components.Instrument![0], { field: 55, required: true });
      assert.deepEqual(buildDictionary(xml, {}).components.Instrument![0], { field: 55, required: false });
      assert.throws(() => buildDictionary(xml, { Instrument: ['Nope'] }), /Nope is not a field of Instrument/);
      assert.throws(() => buildDictionary(xml, { Instrument: ['Account'] }), /Account is not a field of Instrument/);
    },
  );

  it('turns enum descriptions into identifiers', () => {
    assert.equal(identifierFromDescription('NEW_ORDER_SINGLE'), 'NewOrderSingle');
    assert.equal(identifierFromDescription('TRADE'), 'Trade');
    assert.equal(identifierFromDescription('1_DAY'), '_1Day');
  });
});

describe('typed constants', () => {
  it('names tags and enum values after the dictionary', () => {
    assert.equal(Tag.MsgType, 35);
    assert.equal(Tag.NoPartyIDs, 453);
    assert.equal(MsgType.NewOrderSingle, 'D');
    assert.equal(MsgType.ExecutionReport, '8');
    assert.equal(ExecType.Trade, 'F');
    assert.equal(OrdStatus.PartiallyFilled, '1');
    assert.equal(Side.Sell, '2');
    assert.equal(PartyRole.ClientId, '3');
    assert.equal(SessionRejectReason.InvalidMsgType, '11');
  });

  // @fixdesk/fix-codes is the one table of tags and values (packages/domain builds its codes on it).
  describe('@fixdesk/fix-codes against the dictionary', () => {
    const data = JSON.parse(readFileSync(jsonPath, 'utf8')) as DictionaryData;

    it('is what the generator writes from the committed dictionary data (npm run gen:fix-dictionary)', () => {
      assert.equal(generateCodesTs(data as Parameters<typeof generateCodesTs>[0]), readFileSync(codesPath, 'utf8'));
    });

    it("has every field's tag number, and no other", () => {
      assert.deepEqual(
        Object.entries(codes.Tag),
        data.fields.map((f) => [f.name, f.tag]),
      );
    });

    it('has every value of every field, in dictionary order, and exports nothing else', () => {
      const exported = new Map<string, unknown>(Object.entries(codes));
      let fieldsWithValues = 0;
      for (const f of data.fields) {
        if (!f.enums) continue;
        fieldsWithValues++;
        const values = exported.get(enumConstName(f.name)) as Record<string, string> | undefined;
        assert.ok(values, `${f.name} (${f.tag}) values exported`);
        assert.deepEqual(
          Object.values(values),
          f.enums.map((e) => e.value),
          `${f.name} (${f.tag}) values`,
        );
        assert.deepEqual(Object.entries(values), enumEntries(f.enums), `${f.name} (${f.tag}) names`);
        for (const v of Object.values(values)) assert.ok(dict.isValidEnumValue(f.tag, v), `${f.name}=${v} valid for the engine`);
        exported.delete(enumConstName(f.name));
      }
      assert.ok(fieldsWithValues > 100);
      assert.deepEqual([...exported.keys()], ['Tag']);
    });
  });
});

describe('Dictionary', () => {
  it('looks fields up by tag and by name', () => {
    const price = dict.field(44)!;
    assert.equal(price.name, 'Price');
    assert.equal(price.type, 'PRICE');
    assert.equal(price.valueType, ValueType.Decimal);
    assert.equal(dict.fieldByName('ClOrdID')!.tag, 11);
    assert.equal(dict.tagOf('MsgSeqNum'), 34);
    assert.throws(() => dict.tagOf('NoSuchField'), /not in the FIX.4.4 dictionary/);
    assert.equal(dict.field(0), undefined);
    assert.equal(dict.field(99999), undefined);
    assert.equal(dict.isDefinedTag(5000), false);
  });

  it('looks messages up by MsgType and name', () => {
    const nos = dict.message('D')!;
    assert.equal(nos.name, 'NewOrderSingle');
    assert.equal(dict.messageByName('ExecutionReport')!.msgType, '8');
    assert.equal(dict.message('ZZ'), undefined);
    assert.equal(dict.messages.length, 93);
  });

  it('knows header and trailer tags', () => {
    for (const tag of [8, 9, 35, 49, 56, 34, 52, 43, 122, 627]) assert.ok(dict.isHeaderTag(tag), `header ${tag}`);
    for (const tag of [93, 89, 10]) assert.ok(dict.isTrailerTag(tag), `trailer ${tag}`);
    assert.ok(!dict.isHeaderTag(11));
    assert.deepEqual(dict.header.requiredTags, [8, 9, 35, 49, 56, 34, 52]);
    assert.deepEqual(dict.trailer.requiredTags, [10]);
  });

  it('derives required fields through required components only', () => {
    // Instrument is required in NewOrderSingle and requires Symbol (REQUIRED_IN_COMPONENT); OrderQtyData
    // is required but all its fields are optional. Instrument is optional in SecurityDefinitionRequest.
    assert.deepEqual(dict.message('D')!.body.requiredTags, [11, 55, 54, 60, 40]);
    assert.deepEqual(dict.message('8')!.body.requiredTags, [37, 17, 150, 39, 55, 54, 151, 14, 6]);
    assert.deepEqual(dict.message('c')!.body.requiredTags, [320, 321]);
    // LegOrdGrp is required in NewOrderMultileg, so is its NoLegs group.
    assert.ok(dict.message('AB')!.body.requiredTags.includes(555));
  });

  it('describes repeating groups with their delimiter, members and nested groups', () => {
    const parties = dict.group('D', 453)!;
    assert.equal(parties.name, 'NoPartyIDs');
    assert.equal(parties.delimiter, 448);
    assert.deepEqual(parties.memberTags, [448, 447, 452, 802]);
    assert.deepEqual(parties.requiredTags, [448]);
    assert.equal(parties.memberKind[802], MemberKind.Group);
    assert.equal(parties.group(802)!.delimiter, 523);
    const legs = dict.group('AB', 555)!;
    assert.equal(legs.delimiter, 600, 'the first field of the InstrumentLeg component');
    assert.deepEqual([...legs.groups.keys()], [604, 683, 670, 539]);
    const nested = legs.group(539)!;
    assert.deepEqual(nested.memberTags, [524, 525, 538, 804]);
    assert.equal(nested.group(804)!.delimiter, 545);
    assert.ok(legs.rank[687]! < legs.rank[539]!, 'LegQty precedes NestedParties');
    assert.equal(dict.group('D', 627)!.name, 'NoHops', 'header groups are found for any message');
  });

  it('places every tag of a message type in header, body or trailer', () => {
    const p = dict.message('D')!.placement;
    assert.equal(p[49], Placement.Header);
    assert.equal(p[627], Placement.HeaderGroup);
    assert.equal(p[11], Placement.Body);
    assert.equal(p[453], Placement.BodyGroup);
    assert.equal(p[448], Placement.None, 'group members are not top-level fields');
    assert.equal(p[10], Placement.Trailer);
    assert.equal(p[37], Placement.None, 'OrderID is not part of NewOrderSingle');
  });

  it('pairs DATA fields with their LENGTH fields', () => {
    assert.equal(dict.field(96)!.lengthTag, 95);
    assert.equal(dict.field(355)!.lengthTag, 354);
    assert.equal(dict.field(89)!.lengthTag, 93);
    assert.equal(dict.field(213)!.lengthTag, 212);
    assert.ok(dict.fields.filter((f) => f.type === 'DATA').every((f) => f.lengthTag !== undefined));
    assert.equal(dict.field(58)!.lengthTag, undefined);
  });

  it('exposes enum sets', () => {
    assert.ok(dict.enumValues(54)!.has('1'));
    assert.equal(dict.enumValues(11), undefined);
    assert.ok(dict.isValidEnumValue(54, '2'));
    assert.ok(!dict.isValidEnumValue(54, 'Z'));
    assert.ok(dict.isValidEnumValue(18, '1 2 G'), 'ExecInst is a multiple-value string');
    assert.ok(!dict.isValidEnumValue(18, '1 ?'));
    assert.ok(dict.isValidEnumValue(11, 'anything'));
    assert.ok(dict.charEnumByTag[54] !== undefined, 'single-character enums use a byte set');
    assert.ok(dict.keyedEnumByTag[452]!.has(enumValueKey('11')), 'PartyRole values are keyed');
    assert.equal(enumValueKey(''), -1);
    assert.equal(enumValueKey('TOOLONGX'), -1);
  });
});
