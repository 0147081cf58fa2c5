import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Tag } from '@fixdesk/fix-codes';
import { FixFieldMissingError } from './message';
import { FixParser } from './parser';
import { fixMessage, header } from './test-support';
import { FixValueError } from './values';

const parser = new FixParser();

const NOS = fixMessage(
  `${header('D', 1542)}1=ACC-7788|11=ORD-000042|38=2500|40=2|44=14325.50|54=1|55=TD3C|59=0|60=20260315-09:30:01.120|` +
    `167=FUT|200=202604|453=2|448=JSMITH|447=D|452=11|448=ACME-CAP|447=D|452=3|`,
);

const MULTILEG = fixMessage(
  `${header('AB', 9)}11=ML-7|40=2|44=-125.25|54=1|55=TD3C-SPREAD|60=20260315-09:30:02.450|453=1|448=JSMITH|447=D|452=11|` +
    `555=2|600=TD3C|608=FXXXXX|610=202604|623=1|624=1|687=1000|539=2|524=ACME-CAP|525=D|538=3|804=1|545=DESK-A|805=4|524=BRK|525=D|538=1|` +
    `600=TD3C|608=FXXXXX|610=202605|623=1|624=2|687=1000|539=1|524=ACME-CAP|525=D|538=3|`,
);

describe('FixMessage', () => {
  it('keeps the raw bytes and the session fields', () => {
    const m = parser.parse(NOS);
    assert.equal(m.garbled, undefined);
    assert.equal(m.rejection, undefined);
    assert.ok(m.isValid);
    assert.equal(m.raw, NOS);
    assert.equal(m.rawText, NOS.toString('latin1'));
    assert.equal(m.beginString, 'FIX.4.4');
    assert.equal(m.msgType, 'D');
    assert.equal(m.msgSeqNum, 1542);
    assert.equal(m.definition?.name, 'NewOrderSingle');
    assert.equal(m.fieldCount, 26);
    assert.match(m.toString(), /^8=FIX\.4\.4\|9=\d+\|35=D\|/);
  });

  it('reads strings, ints, chars and decimals', () => {
    const m = parser.parse(NOS);
    assert.equal(m.get(Tag.ClOrdID), 'ORD-000042');
    assert.equal(m.get(Tag.Text), undefined);
    assert.equal(m.require(Tag.Symbol), 'TD3C');
    assert.throws(() => m.require(Tag.Text), FixFieldMissingError);
    assert.equal(m.getInt(Tag.MsgSeqNum), 1542);
    assert.equal(m.getChar(Tag.Side), '1');
    assert.equal(m.getDecimal(Tag.Price), '14325.50', 'decimals keep their exact text');
    assert.equal(m.getDecimal(Tag.OrderQty), '2500');
    assert.equal(m.getDecimal(Tag.StopPx), undefined);
    assert.ok(m.has(Tag.Account));
    assert.ok(!m.has(Tag.ExDestination));
    assert.deepEqual(m.getBytes(Tag.Symbol), Buffer.from('TD3C'));
  });

  it('reads UTCTimestamp with milliseconds as an instant plus its exact text', () => {
    const m = parser.parse(NOS);
    const t = m.getTimestamp(Tag.TransactTime)!;
    assert.equal(t.text, '20260315-09:30:01.120');
    assert.equal(t.epochMs, Date.UTC(2026, 2, 15, 9, 30, 1, 120));
    assert.equal(t.date.toISOString(), '2026-03-15T09:30:01.120Z');
    assert.equal(String(t), '20260315-09:30:01.120');
  });

  it('reads timestamps of every fraction length, validated or not', () => {
    const cases: [string, number][] = [
      ['20260315-09:30:01', 0],
      ['20260315-09:30:01.5', 500],
      ['20260315-09:30:01.25', 250],
      ['20260315-09:30:01.123456', 123],
      ['20261231-23:59:60.000', 0],
    ];
    for (const [text, ms] of cases) {
      const base = text.endsWith(':60.000') ? Date.UTC(2027, 0, 1, 0, 0, 0) : Date.UTC(2026, 2, 15, 9, 30, 1, ms);
      for (const p of [parser, new FixParser(undefined, { validate: false })]) {
        const m = p.parse(fixMessage(`${header('D')}11=A|54=1|60=${text}|40=1|`));
        assert.equal(m.getTimestamp(Tag.TransactTime)!.epochMs, base, text);
        assert.equal(m.getTimestamp(Tag.TransactTime)!.text, text);
      }
    }
  });

  it('reads MonthYear', () => {
    const m = parser.parse(NOS);
    assert.deepEqual(m.getMonthYear(Tag.MaturityMonthYear), { text: '202604', year: 2026, month: 4, day: undefined, week: undefined });
  });

  it('reads booleans and negative ints', () => {
    const m = parser.parse(fixMessage(`${header('4', 3)}43=Y|123=N|36=10|`));
    assert.equal(m.getBoolean(Tag.PossDupFlag), true);
    assert.equal(m.getBoolean(Tag.GapFillFlag), false);
    assert.equal(m.getBoolean(Tag.PossResend), undefined);
    const n = parser.parse(fixMessage(`${header('8', 3)}37=O|17=E|150=0|39=0|54=1|151=0|14=0|6=0|1500=-7|`));
    assert.equal(n.getInt(1500), -7);
  });

  it('throws a FixValueError when a typed getter meets a malformed value', () => {
    const m = parser.parse(fixMessage(`${header('D', 1)}11=A|54=1|60=2026|40=2|44=1.2.3|58=x|`));
    assert.ok(m.rejection, 'the message itself is rejected');
    assert.throws(() => m.getTimestamp(Tag.TransactTime), FixValueError);
    assert.throws(() => m.getDecimal(Tag.Price), FixValueError);
    assert.throws(() => m.getInt(Tag.ClOrdID), FixValueError);
    assert.throws(() => m.getBoolean(Tag.Text), FixValueError);
    assert.throws(() => m.getMonthYear(Tag.Text), FixValueError);
  });

  it('splits header, body and trailer', () => {
    const m = parser.parse(NOS);
    assert.deepEqual(
      m.header.fields().map(([t]) => t),
      [8, 9, 35, 34, 49, 52, 56],
    );
    assert.equal(m.header.get(Tag.SenderCompID), 'CLIENT');
    assert.equal(m.header.get(Tag.ClOrdID), undefined);
    assert.equal(m.body.get(Tag.ClOrdID), 'ORD-000042');
    assert.equal(m.body.get(Tag.SenderCompID), undefined);
    assert.deepEqual(
      m.trailer.fields().map(([t]) => t),
      [10],
    );
    assert.deepEqual(
      m.body.fields().map(([t]) => t),
      [1, 11, 38, 40, 44, 54, 55, 59, 60, 167, 200, 453],
      'a group appears at its level as its count field',
    );
    assert.equal(m.allFields().length, m.fieldCount);
    assert.deepEqual(m.allFields()[19], [448, 'JSMITH']);
  });

  it('reads the Parties group', () => {
    const m = parser.parse(NOS);
    const parties = m.getGroup(Tag.NoPartyIDs);
    assert.equal(parties.length, 2);
    assert.equal(m.groupSize(Tag.NoPartyIDs), 2);
    assert.deepEqual(
      parties.map((p) => [p.get(Tag.PartyID), p.getChar(Tag.PartyIDSource), p.getInt(Tag.PartyRole)]),
      [
        ['JSMITH', 'D', 11],
        ['ACME-CAP', 'D', 3],
      ],
    );
    assert.equal(parties[0]!.get(Tag.ClOrdID), undefined, 'entries only see their own fields');
    assert.equal(m.get(Tag.PartyID), undefined, 'group members are not top-level fields');
    assert.deepEqual(m.getGroup(Tag.NoLegs), []);
    assert.equal(m.groupSize(Tag.NoLegs), 0);
  });

  it('reads NoLegs with nested leg parties and their sub-IDs', () => {
    const m = parser.parse(MULTILEG);
    assert.equal(m.rejection, undefined);
    assert.equal(m.getDecimal(Tag.Price), '-125.25');
    assert.equal(m.getGroup(Tag.NoPartyIDs).length, 1);
    const legs = m.getGroup(Tag.NoLegs);
    assert.equal(legs.length, 2);
    assert.deepEqual(
      legs.map((l) => [
        l.get(Tag.LegSymbol),
        l.getMonthYear(Tag.LegMaturityMonthYear)?.month,
        l.getChar(Tag.LegSide),
        l.getDecimal(Tag.LegQty),
      ]),
      [
        ['TD3C', 4, '1', '1000'],
        ['TD3C', 5, '2', '1000'],
      ],
    );
    const legParties = legs[0]!.getGroup(Tag.NoNestedPartyIDs);
    assert.deepEqual(
      legParties.map((p) => p.get(Tag.NestedPartyID)),
      ['ACME-CAP', 'BRK'],
    );
    const subIds = legParties[0]!.getGroup(Tag.NoNestedPartySubIDs);
    assert.deepEqual(
      subIds.map((s) => [s.get(Tag.NestedPartySubID), s.get(Tag.NestedPartySubIDType)]),
      [['DESK-A', '4']],
    );
    assert.equal(legParties[1]!.groupSize(Tag.NoNestedPartySubIDs), 0);
    assert.deepEqual(
      legs[1]!.getGroup(Tag.NoNestedPartyIDs).map((p) => p.get(Tag.NestedPartyRole)),
      ['3'],
    );
    assert.equal(legs[0]!.get(Tag.NestedPartyID), undefined, 'nested members belong to the nested entries');
    assert.equal(m.get(Tag.TransactTime), '20260315-09:30:02.450', 'fields after the groups are top-level again');
  });

  it('reads groups of any message type the dictionary defines', () => {
    // MarketDataSnapshotFullRefresh: NoMDEntries with entry types, prices and sizes.
    const m = parser.parse(fixMessage(`${header('W', 4)}55=TD3C|268=2|269=0|270=14300|271=5|269=1|270=14350.5|271=3|`));
    assert.equal(m.rejection, undefined);
    assert.deepEqual(
      m.getGroup(Tag.NoMDEntries).map((e) => [e.get(Tag.MDEntryType), e.getDecimal(Tag.MDEntryPx), e.getDecimal(Tag.MDEntrySize)]),
      [
        ['0', '14300', '5'],
        ['1', '14350.5', '3'],
      ],
    );
  });

  it('reads header groups (NoHops)', () => {
    const m = parser.parse(fixMessage(`35=0|34=2|49=CLIENT|52=20260315-09:30:01.123|56=BROKER|627=1|628=HUB|629=20260315-09:30:01.000|`));
    assert.equal(m.rejection, undefined);
    assert.deepEqual(
      m.header.getGroup(Tag.NoHops).map((h) => h.get(Tag.HopCompID)),
      ['HUB'],
    );
  });

  it('keeps DATA fields with embedded SOH whole', () => {
    const m = parser.parse(fixMessage(`${header('B', 5)}148=Headline|33=1|58=line|354=5|355=a\x01b\x01c|`));
    assert.equal(m.rejection, undefined);
    // In News, EncodedText belongs to each line of text.
    const line = m.getGroup(Tag.NoLinesOfText)[0]!;
    assert.equal(line.get(Tag.Text), 'line');
    assert.equal(line.get(Tag.EncodedText), 'a\x01b\x01c');
    assert.deepEqual(line.getBytes(Tag.EncodedText), Buffer.from('a\x01b\x01c', 'latin1'));
    const top = parser.parse(fixMessage(`${header('D', 5)}11=A|54=1|55=TD3C|60=20260315-09:30:01|40=1|354=3|355=\x01=\x01|`));
    assert.equal(top.rejection, undefined);
    assert.equal(top.get(Tag.EncodedText), '\x01=\x01');
  });

  it('keeps working as a message after the parser has moved on', () => {
    const first = parser.parse(NOS);
    const second = parser.parse(MULTILEG);
    assert.equal(first.get(Tag.ClOrdID), 'ORD-000042');
    assert.equal(first.get(Tag.Account), 'ACC-7788');
    assert.equal(first.get(Tag.NoLegs), undefined);
    assert.equal(second.get(Tag.ClOrdID), 'ML-7');
    assert.equal(second.get(Tag.Account), undefined);
  });

  it('keeps answering correctly across the scope-id wrap-around of the parser', () => {
    const p = new FixParser();
    const kept = [p.parse(NOS)];
    // The next message still fits below the limit, the one after forces a restart of scope ids.
    (p as unknown as { scopeId: number }).scopeId = 0xffffffff - 3 - MULTILEG.length;
    for (let i = 1; i < 6; i++) kept.push(p.parse(i % 2 ? MULTILEG : NOS));
    assert.equal(kept[1]!.get(Tag.ClOrdID), 'ML-7');
    assert.equal(p.epoch, 1);
    for (let i = 0; i < 6; i++) {
      const m = kept[i]!;
      assert.equal(m.rejection, undefined);
      assert.equal(m.get(Tag.ClOrdID), i % 2 ? 'ML-7' : 'ORD-000042');
      assert.equal(m.get(Tag.Account), i % 2 ? undefined : 'ACC-7788');
      assert.equal(m.getGroup(Tag.NoPartyIDs).length, i % 2 ? 1 : 2);
    }
  });

  it('returns the first occurrence of a repeated tag', () => {
    const m = parser.parse(fixMessage(`${header('0', 2)}112=first|112=second|`));
    assert.equal(m.get(Tag.TestReqID), 'first');
  });

  it('reads latin1 text byte for byte', () => {
    const m = parser.parse(Buffer.concat([fixMessage(`${header('1', 2)}112=Zürich|`)]));
    assert.equal(m.get(Tag.TestReqID), Buffer.from('Zürich', 'latin1').toString('latin1'));
  });
});

describe('FixParser structure errors (garbled: ignored, never rejected)', () => {
  const cases: [string, Buffer, RegExp][] = [
    ['a field without "="', Buffer.from('8=FIX.4.4\x019=5\x0135=0\x0149\x0110=000\x01', 'latin1'), /without "="/],
    ['a non-numeric tag', Buffer.from('8=FIX.4.4\x019=5\x0135=0\x01A9=x\x0110=000\x01', 'latin1'), /not a number/],
    ['an empty tag', Buffer.from('8=FIX.4.4\x019=5\x0135=0\x01=x\x0110=000\x01', 'latin1'), /without a tag/],
    ['BeginString not first', Buffer.from('9=5\x018=FIX.4.4\x0135=0\x0110=000\x01', 'latin1'), /BeginString \(8\) must be the first/],
    ['BodyLength not second', Buffer.from('8=FIX.4.4\x0135=0\x019=5\x0110=000\x01', 'latin1'), /BodyLength \(9\) must be the second/],
    ['MsgType not third', fixMessage('34=1|35=0|49=A|52=20260101-00:00:00|56=B|'), /MsgType \(35\) must be the third/],
    ['CheckSum not last', Buffer.from('8=FIX.4.4\x019=5\x0135=0\x0110=000\x0158=x\x01', 'latin1'), /CheckSum \(10\) must be the last/],
    ['no CheckSum', Buffer.from('8=FIX.4.4\x019=5\x0135=0\x01', 'latin1'), /CheckSum \(10\) must be the last/],
    ['an unterminated last field', Buffer.from('8=FIX.4.4\x019=5\x0135=0\x0110=000', 'latin1'), /not terminated/],
    ['a DATA length past the end', fixMessage(`${header('B', 5)}148=H|33=1|58=x|354=50|355=abc|`), /DATA field 355 is not 50 bytes/],
    ['empty input', Buffer.alloc(0), /empty message/],
  ];
  for (const [name, bytes, reason] of cases) {
    it(name, () => {
      const m = parser.parse(bytes);
      assert.match(m.garbled ?? '', reason);
      assert.equal(m.rejection, undefined);
      assert.ok(!m.isValid);
    });
  }

  it('still reports MsgType and MsgSeqNum read before the damage', () => {
    const m = parser.parse(Buffer.from('8=FIX.4.4\x019=5\x0135=D\x0134=17\x01oops\x0110=000\x01', 'latin1'));
    assert.ok(m.garbled);
    assert.equal(m.msgType, 'D');
    assert.equal(m.msgSeqNum, 17);
  });
});
