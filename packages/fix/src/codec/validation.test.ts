import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Dictionary } from '../dictionary/dictionary';
import { FixParser } from './parser';
import { REJECT_REASON_TEXT, RejectReason, type ValidationOptions } from './rejection';
import { fixMessage, header } from './test-support';

const NOS_BODY = '11=A|55=TD3C|54=1|60=20260315-09:30:01|40=1|';
const nos = (extra = '', seq = 2) => fixMessage(`${header('D', seq)}${NOS_BODY}${extra}`);

function rejectOf(bytes: Buffer, options: Partial<ValidationOptions> = {}) {
  const m = new FixParser(undefined, options).parse(bytes);
  assert.equal(m.garbled, undefined, `unexpectedly garbled: ${m.garbled}`);
  return m.rejection && { reason: m.rejection.reason, ref: m.rejection.refTagId, text: m.rejection.text };
}

function expectReject(bytes: Buffer, reason: RejectReason, ref: number | undefined, options: Partial<ValidationOptions> = {}) {
  assert.deepEqual(rejectOf(bytes, options), { reason, ref, text: REJECT_REASON_TEXT[reason] });
}

describe('validation: valid messages pass', () => {
  const valid: [string, Buffer][] = [
    ['minimal NewOrderSingle', nos()],
    ['Heartbeat', fixMessage(header('0'))],
    ['Logon', fixMessage(`${header('A', 1)}98=0|108=30|141=Y|`)],
    [
      'ExecutionReport with parties',
      fixMessage(`${header('8')}6=0|11=A|14=0|17=E1|37=O1|39=0|54=1|55=TD3C|150=0|151=10|453=1|448=X|447=D|452=3|`),
    ],
    ['ExecInst with several values', nos('18=1 G|')],
    ['UTCTimestamp without milliseconds', nos()],
    ['UTCTimestamp with microseconds', fixMessage(`${header('D')}11=A|55=TD3C|54=1|60=20260315-09:30:01.123456|40=1|`)],
    ['user-defined tag allowed by option', nos('5001=x|')],
    ['a leap second', fixMessage(`${header('D')}11=A|55=TD3C|54=1|60=20261231-23:59:60.000|40=1|`)],
    ['MonthYear with week', nos('200=202604w2|')],
    ['MonthYear with day', nos('200=20260430|')],
    ['empty groups', nos('453=0|')],
  ];
  for (const [name, bytes] of valid) {
    it(name, () => {
      const options = name.startsWith('user-defined') ? { validateUserDefinedFields: false } : {};
      assert.equal(rejectOf(bytes, options), undefined);
    });
  }
});

describe('validation: session reject reasons (373), RefTagID (371) and texts (58)', () => {
  it('0 Invalid tag number: a tag the dictionary does not define', () => {
    expectReject(nos('999=x|'), RejectReason.InvalidTagNumber, 999);
    expectReject(nos('0=x|'), RejectReason.InvalidTagNumber, 0);
    expectReject(nos('5005=x|'), RejectReason.InvalidTagNumber, 5005);
    expectReject(nos('123456789=x|'), RejectReason.InvalidTagNumber, 123456789);
  });

  it('1 Required tag missing: body, header, trailer-side and inside group entries', () => {
    expectReject(fixMessage(`${header('D')}54=1|60=20260315-09:30:01|40=1|`), RejectReason.RequiredTagMissing, 11);
    expectReject(fixMessage(`35=D|34=2|52=20260315-09:30:01.123|56=BROKER|${NOS_BODY}`), RejectReason.RequiredTagMissing, 49);
    expectReject(fixMessage(`35=0|49=A|52=20260315-09:30:01.123|56=B|`), RejectReason.RequiredTagMissing, 34);
    // NewOrderList: each NoOrders entry needs ListSeqNo (67) and Side (54).
    const list = (entries: string) => fixMessage(`${header('E')}66=L1|394=1|68=2|73=2|${entries}`);
    assert.equal(rejectOf(list('11=A|67=1|55=X|54=1|40=1|11=B|67=2|55=Y|54=2|40=1|')), undefined);
    expectReject(list('11=A|67=1|55=X|54=1|40=1|11=B|55=Y|54=2|40=1|'), RejectReason.RequiredTagMissing, 67);
    expectReject(list('11=A|67=1|55=X|40=1|11=B|67=2|55=Y|54=2|40=1|'), RejectReason.RequiredTagMissing, 54);
    // A required group (NoLegs in NewOrderMultileg).
    expectReject(fixMessage(`${header('AB')}11=A|55=TD3C|54=1|60=20260315-09:30:01|40=1|`), RejectReason.RequiredTagMissing, 555);
    // A field required in a required component: Symbol (55) in Instrument, which NewOrderSingle requires.
    expectReject(fixMessage(`${header('D')}11=A|54=1|60=20260315-09:30:01|40=1|`), RejectReason.RequiredTagMissing, 55);
  });

  it('2 Tag not defined for this message type', () => {
    expectReject(nos('37=O1|'), RejectReason.TagNotDefinedForThisMessageType, 37);
    expectReject(nos('448=X|'), RejectReason.TagNotDefinedForThisMessageType, 448);
    expectReject(fixMessage(`${header('0')}11=A|`), RejectReason.TagNotDefinedForThisMessageType, 11);
  });

  it('4 Tag specified without a value', () => {
    expectReject(nos('58=|'), RejectReason.TagSpecifiedWithoutAValue, 58);
    expectReject(nos('453=1|448=|447=D|452=3|'), RejectReason.TagSpecifiedWithoutAValue, 448);
  });

  it('5 Value is incorrect (out of range) for this tag', () => {
    expectReject(fixMessage(`${header('D')}11=A|55=TD3C|54=Z|60=20260315-09:30:01|40=1|`), RejectReason.ValueIsIncorrect, 54);
    expectReject(nos('453=1|448=X|447=D|452=999|'), RejectReason.ValueIsIncorrect, 452);
    expectReject(nos('18=1 ?|'), RejectReason.ValueIsIncorrect, 18);
    expectReject(nos('18=1  2|'), RejectReason.ValueIsIncorrect, 18);
    expectReject(nos('167=NOTATYPE|'), RejectReason.ValueIsIncorrect, 167);
    expectReject(nos('167=FUT\xe9|'), RejectReason.ValueIsIncorrect, 167);
  });

  it('6 Incorrect data format for value', () => {
    const cases: [string, number][] = [
      ['44=abc|', 44],
      ['44=1.2.3|', 44],
      ['44=-|', 44],
      ['38=1e5|', 38],
      ['126=20261301-00:00:00|', 126],
      ['126=20260230-00:00:00|', 126],
      ['126=20260315-24:00:00|', 126],
      ['126=20260315 09:30:00|', 126],
      ['126=20260315-09:30:00.|', 126],
      ['432=2026031|', 432],
      ['200=202613|', 200],
      ['200=202604w9|', 200],
      ['226=1.5|', 226],
      ['226=-|', 226],
      ['110=-1-|', 110],
      ['114=X|', 114],
      ['114=YES|', 114],
      ['453=two|', 453],
    ];
    for (const [extra, tag] of cases) expectReject(nos(extra), RejectReason.IncorrectDataFormatForValue, tag);
    expectReject(fixMessage(`35=0|34=x|49=A|52=20260315-09:30:01.123|56=B|`), RejectReason.IncorrectDataFormatForValue, 34);
    expectReject(fixMessage(`${header('A')}98=0|108=30|141=YES|`), RejectReason.IncorrectDataFormatForValue, 141);
    expectReject(fixMessage('35=1|34=2|49=A|52=now|56=B|112=T|'), RejectReason.IncorrectDataFormatForValue, 52);
  });

  it('11 Invalid MsgType (no RefTagID, as QuickFIX)', () => {
    expectReject(fixMessage(`${header('ZZ')}`), RejectReason.InvalidMsgType, undefined);
    expectReject(fixMessage(`${header('')}`), RejectReason.InvalidMsgType, undefined);
    expectReject(fixMessage(`${header('DDDD')}`), RejectReason.InvalidMsgType, undefined);
  });

  it('6 Incorrect data format for a NUL byte in a text field (not in a DATA field)', () => {
    expectReject(nos('58=a\x00b|'), RejectReason.IncorrectDataFormatForValue, 58);
    expectReject(
      fixMessage(`${header('D')}11=A\x00|21=1|40=1|54=1|55=X|60=20260315-09:30:01.000|`),
      RejectReason.IncorrectDataFormatForValue,
      11,
    );
  });

  it('0 Invalid tag number for a negative tag, which is kept out of the fields', () => {
    expectReject(fixMessage(`${header('0')}-1=HI|`), RejectReason.InvalidTagNumber, -1);
    const msg = new FixParser(Dictionary.fix44()).parse(fixMessage(`${header('0')}-12=HI|`));
    assert.equal(msg.garbled, undefined);
    assert.equal(msg.get(-12), undefined);
  });

  it('13 Tag appears more than once', () => {
    expectReject(nos('11=B|'), RejectReason.TagAppearsMoreThanOnce, 11);
    expectReject(nos('453=1|448=X|447=D|452=3|452=4|'), RejectReason.TagAppearsMoreThanOnce, 452);
    expectReject(nos('20000=a|20000=b|'), RejectReason.TagAppearsMoreThanOnce, 20000, { validateUserDefinedFields: false });
    expectReject(fixMessage(`35=0|34=2|49=A|49=A|52=20260315-09:30:01.123|56=B|`), RejectReason.TagAppearsMoreThanOnce, 49);
  });

  it('14 Tag specified out of required order', () => {
    expectReject(nos('43=Y|'), RejectReason.TagSpecifiedOutOfRequiredOrder, 43);
    expectReject(nos('93=2|89=ab|58=late|'), RejectReason.TagSpecifiedOutOfRequiredOrder, 58);
  });

  it('15 Repeating group fields out of order', () => {
    expectReject(nos('453=1|447=D|448=X|452=3|'), RejectReason.RepeatingGroupFieldsOutOfOrder, 447);
    expectReject(nos('453=1|448=X|452=3|447=D|'), RejectReason.RepeatingGroupFieldsOutOfOrder, 447);
    assert.equal(rejectOf(nos('453=1|448=X|452=3|447=D|'), { validateUnorderedGroupFields: false }), undefined);
  });

  it('16 Incorrect NumInGroup count for repeating group', () => {
    expectReject(nos('453=3|448=X|447=D|452=3|448=Y|447=D|452=1|'), RejectReason.IncorrectNumInGroupCountForRepeatingGroup, 453);
    expectReject(nos('453=1|448=X|447=D|452=3|448=Y|447=D|452=1|'), RejectReason.IncorrectNumInGroupCountForRepeatingGroup, 453);
    expectReject(nos('453=0|448=X|'), RejectReason.IncorrectNumInGroupCountForRepeatingGroup, 453);
    expectReject(nos('453=2|448=X|447=D|452=3|'), RejectReason.IncorrectNumInGroupCountForRepeatingGroup, 453);
    expectReject(nos('453=999999999999|448=X|447=D|452=3|'), RejectReason.IncorrectNumInGroupCountForRepeatingGroup, 453);
    // Nested: two leg parties declared, one sent.
    const legs = fixMessage(`${header('AB')}11=A|55=TD3C|54=1|60=20260315-09:30:01|40=1|555=1|600=TD3C|624=1|539=2|524=X|525=D|538=3|`);
    expectReject(legs, RejectReason.IncorrectNumInGroupCountForRepeatingGroup, 539);
    // A group ended by the end of the message.
    expectReject(fixMessage(`${header('W')}55=TD3C|268=2|269=0|270=1|`), RejectReason.IncorrectNumInGroupCountForRepeatingGroup, 268);
  });

  it('reports the first problem in QuickFIX order: structure, MsgType, required, then fields', () => {
    // Missing ClOrdID and a bad Side: required wins.
    expectReject(fixMessage(`${header('D')}54=Z|60=20260315-09:30:01|40=1|`), RejectReason.RequiredTagMissing, 11);
    // Out-of-order header field and a bad value: order wins.
    expectReject(nos('58=|43=Y|'), RejectReason.TagSpecifiedOutOfRequiredOrder, 43);
    // Two field problems: the first on the wire wins.
    expectReject(nos('44=x|58=|'), RejectReason.IncorrectDataFormatForValue, 44);
    expectReject(nos('58=|44=x|'), RejectReason.TagSpecifiedWithoutAValue, 58);
  });
});

describe('validation options (QuickFIX settings)', () => {
  it('ValidateUserDefinedFields=N accepts any tag ≥ 5000 without checks', () => {
    assert.equal(rejectOf(nos('5001=x|9999=y|'), { validateUserDefinedFields: false }), undefined);
    // As in QuickFIX, an empty value is still an error (ValidateFieldsHaveValues governs that).
    expectReject(nos('9999=|'), RejectReason.TagSpecifiedWithoutAValue, 9999, { validateUserDefinedFields: false });
    expectReject(nos('999=x|'), RejectReason.InvalidTagNumber, 999, { validateUserDefinedFields: false });
  });

  it('AllowUnknownMsgFields=Y accepts unknown and foreign tags below 5000', () => {
    assert.equal(rejectOf(nos('37=O1|999=x|'), { allowUnknownMessageFields: true }), undefined);
    expectReject(nos('5005=x|'), RejectReason.InvalidTagNumber, 5005, { allowUnknownMessageFields: true });
  });

  it('ValidateFieldsHaveValues=N accepts empty values', () => {
    assert.equal(rejectOf(nos('58=|'), { validateFieldsHaveValues: false }), undefined);
  });

  it('ValidateFieldsOutOfOrder=N accepts header fields after the body', () => {
    assert.equal(rejectOf(nos('43=Y|'), { validateFieldsOutOfOrder: false }), undefined);
  });

  it('validate=false reports nothing but still builds groups', () => {
    const parser = new FixParser(undefined, { validate: false });
    const m = parser.parse(nos('453=5|448=X|447=D|452=999|58=|11=dup|'));
    assert.equal(m.rejection, undefined);
    assert.equal(m.getGroup(453).length, 1);
    assert.equal(parser.parse(fixMessage(header('ZZ'))).rejection, undefined);
  });

  it('never reports a structure problem as a reject', () => {
    const m = new FixParser().parse(Buffer.from('8=FIX.4.4\x019=5\x0135=D\x0111=A\x01junk\x0110=000\x01', 'latin1'));
    assert.ok(m.garbled);
    assert.equal(m.rejection, undefined);
  });
});
