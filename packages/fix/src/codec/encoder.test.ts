import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Dictionary } from '../dictionary/dictionary';
import { Tag } from '@fixdesk/fix-codes';
import { FixEncodeError, FixEncoder, FixMessageBuilder, type FieldValue, type GroupEntryInput } from './encoder';
import { FixFramer } from './framer';
import { FixParser } from './parser';
import { checksumOf, fixMessage, pipes, seededRandom } from './test-support';
import { formatUtcTimestamp } from './values';

const encoder = new FixEncoder();
const parser = new FixParser();

describe('FixEncoder: QuickFIX field order, byte for byte', () => {
  it('ExecutionReport: 8, 9, 35, header by tag, body by tag, group entries in dictionary order, 10', () => {
    // Fields are set in a scrambled order on purpose.
    const er = new FixMessageBuilder('8')
      .set(Tag.Symbol, 'TD3C')
      .set(Tag.TargetCompID, 'CLIENT')
      .set(Tag.OrderCapacity, 'A')
      .setGroup(Tag.NoPartyIDs, [
        { [Tag.PartyRole]: '3', [Tag.PartyIDSource]: 'D', [Tag.PartyID]: 'ACME' },
        { [Tag.PartyID]: 'JSMITH', [Tag.PartyRole]: 11, [Tag.PartyIDSource]: 'D' },
      ])
      .set(Tag.LeavesQty, '100')
      .set(Tag.OrigSendingTime, '20260315-09:29:59.000')
      .set(Tag.ExecType, '0')
      .set(Tag.MsgSeqNum, 7)
      .set(Tag.Side, '1')
      .set(Tag.SenderCompID, 'BROKER')
      .set(Tag.AvgPx, '0')
      .set(Tag.ClOrdID, 'ORD1')
      .set(Tag.CumQty, '0')
      .set(Tag.ExecID, 'E1')
      .set(Tag.PossDupFlag, true)
      .set(Tag.OrderID, 'O1')
      .set(Tag.OrderQty, '100')
      .set(Tag.OrdStatus, '0')
      .set(Tag.SendingTime, new Date(Date.UTC(2026, 2, 15, 9, 30, 1, 200)))
      .set(Tag.OrdType, '2')
      .set(Tag.Price, '14325.5');
    assert.equal(
      pipes(encoder.encode(er)),
      '8=FIX.4.4|9=227|35=8|34=7|43=Y|49=BROKER|52=20260315-09:30:01.200|56=CLIENT|122=20260315-09:29:59.000|' +
        '6=0|11=ORD1|14=0|17=E1|37=O1|38=100|39=0|40=2|44=14325.5|54=1|55=TD3C|150=0|151=100|' +
        '453=2|448=ACME|447=D|452=3|448=JSMITH|447=D|452=11|528=A|10=061|',
    );
  });

  it('NewOrderMultileg: nested groups follow the dictionary, not tag numbers', () => {
    const ml = new FixMessageBuilder('AB')
      .set(Tag.MsgSeqNum, 3)
      .set(Tag.SenderCompID, 'CLIENT')
      .set(Tag.SendingTime, '20260315-09:30:02.450')
      .set(Tag.TargetCompID, 'BROKER')
      .set(Tag.ClOrdID, 'ML1')
      .set(Tag.OrdType, '2')
      .set(Tag.Price, '-125.25')
      .set(Tag.Side, '1')
      .set(Tag.Symbol, 'TD3C-SPREAD')
      .setGroup(Tag.NoLegs, [
        {
          [Tag.LegRefID]: 'L1',
          [Tag.NoNestedPartyIDs]: [{ [Tag.NestedPartyRole]: '3', [Tag.NestedPartyID]: 'ACME', [Tag.NestedPartyIDSource]: 'D' }],
          [Tag.LegPositionEffect]: 'O',
          [Tag.LegQty]: '1000',
          [Tag.LegSide]: '1',
          [Tag.LegMaturityMonthYear]: '202604',
          [Tag.LegSymbol]: 'TD3C',
        },
        {
          [Tag.LegSymbol]: 'TD3C',
          [Tag.LegMaturityMonthYear]: '202605',
          [Tag.LegSide]: '2',
          [Tag.LegQty]: '1000',
          [Tag.LegPositionEffect]: 'O',
          [Tag.LegRefID]: 'L2',
        },
      ])
      .set(Tag.TransactTime, '20260315-09:30:02.450');
    assert.equal(
      pipes(encoder.encode(ml)),
      '8=FIX.4.4|9=253|35=AB|34=3|49=CLIENT|52=20260315-09:30:02.450|56=BROKER|11=ML1|40=2|44=-125.25|54=1|55=TD3C-SPREAD|' +
        '60=20260315-09:30:02.450|555=2|600=TD3C|610=202604|624=1|687=1000|564=O|539=1|524=ACME|525=D|538=3|654=L1|' +
        '600=TD3C|610=202605|624=2|687=1000|564=O|654=L2|10=210|',
    );
  });

  it('Heartbeat: header only', () => {
    const hb = new FixMessageBuilder('0').set(56, 'B').set(52, '20260101-00:00:00.000').set(49, 'A').set(34, 1);
    assert.equal(pipes(encoder.encode(hb)), '8=FIX.4.4|9=45|35=0|34=1|49=A|52=20260101-00:00:00.000|56=B|10=052|');
  });

  it('encodeOrdered keeps the given order', () => {
    const bytes = encoder.encodeOrdered(
      '0',
      [
        [56, 'B'],
        [49, 'A'],
      ],
      [[112, 'T']],
    );
    const text = '8=FIX.4.4|9=21|35=0|56=B|49=A|112=T|';
    assert.equal(pipes(bytes), `${text}10=${checksumOf(text.replaceAll('|', '\x01'))}|`);
  });

  it('writes another BeginString when configured', () => {
    const bytes = new FixEncoder(undefined, { beginString: 'FIX.4.2' }).encode(new FixMessageBuilder('0').set(34, 1));
    assert.match(pipes(bytes), /^8=FIX\.4\.2\|9=10\|35=0\|34=1\|10=\d{3}\|$/);
  });
});

describe('FixEncoder values', () => {
  it('formats dates, booleans, integers, bigints and DATA bytes', () => {
    const b = new FixMessageBuilder('B')
      .set(Tag.OrigTime, new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))
      .set(Tag.Urgency, 0)
      .set(Tag.Headline, 'H')
      .set(Tag.RawDataLength, 99)
      .set(Tag.RawData, Buffer.from('a\x01b', 'latin1'))
      .set(Tag.MsgSeqNum, 12345678901234n)
      .set(Tag.PossResend, false)
      .setGroup(Tag.NoLinesOfText, [{ [Tag.Text]: 'x' }]);
    const text = pipes(encoder.encode(b));
    assert.match(text, /\|34=12345678901234\|97=N\|/);
    assert.match(text, /\|33=1\|58=x\|42=20260102-03:04:05\.006\|61=0\|95=3\|96=a\|b\|148=H\|/);
  });

  it('writes the LENGTH of each DATA field itself, right before it (SignatureLength before Signature)', () => {
    const b = new FixMessageBuilder('0')
      .set(Tag.Signature, 'si\x01g')
      .set(Tag.EncodedTextLen, 1)
      .set(Tag.SignatureLength, 1)
      .set(Tag.MsgSeqNum, 4);
    const text = pipes(encoder.encode(b));
    assert.match(text, /\|34=4\|354=1\|93=4\|89=si\|g\|10=\d{3}\|$/, 'a LENGTH without its DATA field is written as given');
    const m = parser.parse(encoder.encode(b));
    assert.equal(m.trailer.get(Tag.Signature), 'si\x01g');
    const g = new FixMessageBuilder('B')
      .set(Tag.Headline, 'H')
      .setGroup(Tag.NoLinesOfText, [{ [Tag.Text]: 't', [Tag.EncodedTextLen]: 7, [Tag.EncodedText]: Buffer.from('\x01x') }]);
    assert.match(pipes(encoder.encode(g)), /\|33=1\|58=t\|354=2\|355=\|x\|148=H\|/);
    assert.match(
      pipes(
        encoder.encodeOrdered(
          'B',
          [],
          [
            [148, 'H'],
            [354, 9],
            [355, 'ab'],
          ],
        ),
      ),
      /\|148=H\|354=2\|355=ab\|/,
    );
  });

  it('writes negative integers', () => {
    assert.match(pipes(encoder.encode(new FixMessageBuilder('0').set(5001, -42))), /\|5001=-42\|/);
  });

  it('round-trips through the framer and the parser', () => {
    const b = new FixMessageBuilder('D')
      .set(34, 2)
      .set(49, 'C')
      .set(52, new Date())
      .set(56, 'B')
      .set(11, 'A')
      .set(54, '1')
      .set(55, 'TD3C')
      .set(60, new Date())
      .set(40, '1')
      .set(58, 'Zürich café')
      .setGroup(453, [{ 448: 'X', 447: 'D', 452: '3' }]);
    const bytes = encoder.encode(b);
    const [frame] = new FixFramer().push(bytes);
    assert.equal(frame!.kind, 'message');
    const m = parser.parse(frame!.bytes);
    assert.equal(m.rejection, undefined);
    assert.equal(m.get(58), 'Zürich café');
    assert.equal(m.getGroup(453)[0]!.get(448), 'X');
  });

  it('returns buffers that later encodes do not overwrite, across slab boundaries', () => {
    const enc = new FixEncoder();
    const kept: [Buffer, string][] = [];
    for (let i = 0; i < 3000; i++) {
      const bytes = enc.encode(new FixMessageBuilder('1').set(34, i).set(112, `T${i}-${'x'.repeat(i % 50)}`));
      kept.push([bytes, pipes(bytes)]);
    }
    for (const [bytes, text] of kept) assert.equal(pipes(bytes), text);
  });

  it('grows for large messages', () => {
    const big = 'y'.repeat(200_000);
    const m = parser.parse(
      encoder.encode(new FixMessageBuilder('1').set(34, 1).set(49, 'A').set(56, 'B').set(52, '20260101-00:00:00').set(112, big)),
    );
    assert.equal(m.get(112), big);
  });

  it('refuses values that cannot go on the wire', () => {
    assert.throws(() => encoder.encode(new FixMessageBuilder('0').set(58, 'a\x01b')), FixEncodeError);
    assert.throws(() => encoder.encode(new FixMessageBuilder('0').set(58, 'emoji 😀')), /not encodable/);
    assert.throws(() => encoder.encode(new FixMessageBuilder('0').set(44, 1.5)), /not an integer; pass decimals as strings/);
    assert.throws(() => encoder.encode(new FixMessageBuilder('0').set(58, Buffer.from('a\x01'))), /SOH inside a non-DATA field/);
    assert.throws(() => encoder.encode(new FixMessageBuilder('D').setGroup(453, [{ 447: 'D' }])), /must set the delimiter field 448/);
    // The encoder stays usable after a refused message.
    assert.match(pipes(encoder.encode(new FixMessageBuilder('0').set(34, 9))), /35=0\|34=9\|/);
  });
});

describe('FixMessageBuilder', () => {
  it('replaces, reads and deletes fields', () => {
    const b = new FixMessageBuilder('D').set(11, 'A').set(54, '1').set(11, 'B');
    assert.equal(b.get(11), 'B');
    assert.match(pipes(encoder.encode(b)), /\|11=B\|54=1\|10=/, 'the last value set is written, once');
    assert.ok(b.has(54));
    assert.ok(b.delete(54));
    assert.ok(!b.delete(54));
    b.setIfDefined(58, undefined).setIfDefined(1, 'ACC');
    assert.ok(!b.has(58));
    assert.equal(b.get(1), 'ACC');
    b.setGroup(453, []);
    assert.ok(!b.has(453), 'an empty group is omitted');
  });

  it('refuses tags the encoder owns and malformed input', () => {
    for (const tag of [8, 9, 10, 35]) assert.throws(() => new FixMessageBuilder('D').set(tag, 'x'), /written by the encoder/);
    assert.throws(() => new FixMessageBuilder('D').set(0, 'x'), /bad FIX tag/);
    assert.throws(() => new FixMessageBuilder('D').set(1.5, 'x'), /bad FIX tag/);
    assert.throws(() => new FixMessageBuilder('D').set(58, ''), /empty value/);
    assert.throws(() => new FixMessageBuilder(''), /bad MsgType/);
  });
});

describe('FixEncoder: fields set in wire order take the unsorted path, with the same bytes', () => {
  const dictionary = Dictionary.fix44();
  // Seeded, so a failure reproduces.
  const rng = seededRandom;
  const r = rng(Number(process.env.FIX_FUZZ_SEED ?? 20260315));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
  // ASCII, latin1 beyond ASCII (é, ü, ÿ, NBSP) and lengths on both sides of the four-byte steps.
  const LATIN1 = 'ABCxyz0189-.:/ _#éüÿ\u00a0';
  const text = (max = 30) => Array.from({ length: 1 + Math.floor(r() * max) }, () => pick([...LATIN1])).join('');
  const date = () => new Date(Date.UTC(1990, 0, 1) + Math.floor(r() * 2e12));
  const flatValue = (): FieldValue =>
    pick<() => FieldValue>([
      () => text(),
      () => text(3),
      () => Math.floor(r() * 1e6),
      () => pick([0, 9, 10, 99, 4294967295, 4294967296, Number.MAX_SAFE_INTEGER, -1, -123456]),
      () => BigInt(Math.floor(r() * 1e15)),
      () => r() < 0.5,
      date,
    ])();
  /** The wire text of a value, written here independently of the encoder. */
  const wire = (v: FieldValue): string =>
    typeof v === 'boolean'
      ? v
        ? 'Y'
        : 'N'
      : v instanceof Date
        ? formatUtcTimestamp(v)
        : v instanceof Uint8Array
          ? Buffer.from(v).toString('latin1')
          : String(v);
  const HEADER = [34, 43, 49, 50, 52, 56, 57, 97, 115, 116, 122, 128, 142, 369];
  const BODY = [1, 6, 11, 14, 17, 31, 32, 37, 38, 39, 40, 44, 54, 55, 58, 59, 60, 150, 151, 167, 200, 528, 5001, 9999, 20001];
  const party = (): GroupEntryInput => {
    const entry: Record<number, FieldValue | GroupEntryInput[]> = { 448: text(12), 447: 'D', 452: pick([1, 3, '11', 12]) };
    if (r() < 0.3) entry[802] = [{ 523: text(8), 803: 4 }];
    return entry;
  };
  const partyWire = (e: GroupEntryInput): string => {
    let out = `448=${wire(e[448] as FieldValue)}|447=D|452=${wire(e[452] as FieldValue)}|`;
    const sub = e[802] as GroupEntryInput[] | undefined;
    if (sub) out += `802=${sub.length}|${sub.map((s) => `523=${wire(s[523] as FieldValue)}|803=4|`).join('')}`;
    return out;
  };

  interface Sample {
    msgType: string;
    /** In wire order: header by tag, then body by tag, a group at its count tag. */
    fields: Array<[number, FieldValue | GroupEntryInput[]]>;
  }
  function sample(): Sample {
    const msgType = pick(['8', 'D', '0', 'j', 'U1']);
    const fields: Sample['fields'] = [];
    for (const tag of HEADER) if (r() < 0.5) fields.push([tag, flatValue()]);
    for (const tag of BODY) if (r() < 0.5) fields.push([tag, flatValue()]);
    // Parties only where the dictionary defines them (elsewhere members go by tag number).
    if ((msgType === '8' || msgType === 'D') && r() < 0.6) {
      const entries = Array.from({ length: 1 + Math.floor(r() * 3) }, party);
      const at = fields.findIndex(([tag]) => !dictionary.isHeaderTag(tag) && tag > 453);
      fields.splice(at < 0 ? fields.length : at, 0, [453, entries]);
    }
    return { msgType, fields };
  }
  const build = (msgType: string, fields: Sample['fields']) => {
    const b = new FixMessageBuilder(msgType);
    for (const [tag, value] of fields) {
      if (Array.isArray(value)) b.setGroup(tag, value);
      else b.set(tag, value as FieldValue);
    }
    return b;
  };
  const shuffled = <T>(items: T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  /** Counts the messages the in-order path encodes, so the test knows it exercised both paths. */
  function countInOrder(enc: FixEncoder): { calls: number } {
    const counter = { calls: 0 };
    const target = enc as unknown as { encodeInOrder: (m: FixMessageBuilder) => Buffer };
    const original = target.encodeInOrder.bind(enc);
    target.encodeInOrder = (m) => {
      counter.calls++;
      return original(m);
    };
    return counter;
  }

  it('random messages: in order, shuffled, with replaced fields and through encodeOrdered, against an independent framing', () => {
    const enc = new FixEncoder(dictionary);
    const inOrder = countInOrder(enc);
    const rounds = 3000;
    let expectedInOrder = 0;
    for (let round = 0; round < rounds; round++) {
      const { msgType, fields } = sample();
      const expected = fixMessage(
        `35=${msgType}|` +
          fields
            .map(([tag, v]) => (Array.isArray(v) ? `${tag}=${v.length}|${v.map(partyWire).join('')}` : `${tag}=${wire(v as FieldValue)}|`))
            .join(''),
      ).toString('latin1');
      const label = `round ${round}: ${pipes(expected)}`;
      assert.equal(enc.encode(build(msgType, fields)).toString('latin1'), expected, label);
      const mixed = shuffled(fields);
      assert.equal(enc.encode(build(msgType, mixed)).toString('latin1'), expected, `${label} (shuffled)`);
      // Tags from 10,000 up are left to the sort; a shuffle may leave the order as it was.
      if (fields.every(([tag]) => tag < 10_000)) expectedInOrder += mixed.every((f, i) => f === fields[i]) ? 2 : 1;
      // A field set twice: the last value is written, in its place.
      if (fields.length > 0) {
        const twice = build(msgType, [[fields[0]![0], 'STALE'], ...fields.slice(1), fields[0]!]);
        assert.equal(enc.encode(twice).toString('latin1'), expected, `${label} (replaced)`);
      }
      if (fields.every(([, v]) => !Array.isArray(v))) {
        const pairs = fields as Array<[number, FieldValue]>;
        const split = pairs.findIndex(([tag]) => !dictionary.isHeaderTag(tag));
        const head = split < 0 ? pairs : pairs.slice(0, split);
        const body = split < 0 ? [] : pairs.slice(split);
        assert.equal(enc.encodeOrdered(msgType, head, body).toString('latin1'), expected, `${label} (encodeOrdered)`);
      }
    }
    assert.equal(inOrder.calls, expectedInOrder, 'the in-order path takes exactly the messages set in wire order');
    assert.ok(expectedInOrder > rounds / 3 && expectedInOrder < 2 * rounds, `both paths exercised (${expectedInOrder} in order)`);
  });

  it('refuses the same values with the same error on both paths, and keeps working', () => {
    const enc = new FixEncoder(dictionary);
    for (let round = 0; round < 500; round++) {
      const fields: Array<[number, FieldValue]> = [
        [34, 7],
        [49, 'A'],
        [56, 'B'],
        [11, text()],
        [55, text()],
        [58, text()],
      ];
      const bad = text(20);
      const at = Math.floor(r() * (bad.length + 1));
      const poisoned = bad.slice(0, at) + pick(['\x01', '\u20ac', '\ud83d\ude00', '\u0100']) + bad.slice(at);
      fields[3 + Math.floor(r() * 3)]![1] = poisoned;
      const errorOf = (b: FixMessageBuilder): string => {
        try {
          enc.encode(b);
        } catch (err) {
          assert.ok(err instanceof FixEncodeError);
          return err.message;
        }
        assert.fail(`encoded ${JSON.stringify(poisoned)}`);
      };
      const first = errorOf(build('D', fields));
      assert.match(first, /SOH inside a non-DATA field|is not encodable/);
      assert.equal(errorOf(build('D', shuffled(fields))), first);
      assert.match(pipes(enc.encode(new FixMessageBuilder('0').set(34, round))), new RegExp(`\\|34=${round}\\|10=`));
    }
  });

  it('Dates: one formatted second serves every millisecond in it, and the next second is formatted afresh', () => {
    const enc = new FixEncoder(dictionary);
    const base = Date.UTC(2026, 2, 15, 9, 30, 1);
    for (const ms of [
      base,
      base + 1,
      base + 999,
      base + 1000,
      base + 1001,
      base - 1,
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29, 0, 0, 0, 50),
    ]) {
      const text = pipes(enc.encode(new FixMessageBuilder('0').set(34, 1).set(52, new Date(ms))));
      assert.match(text, new RegExp(`\\|52=${formatUtcTimestamp(ms)}\\|10=`));
    }
    assert.throws(() => enc.encode(new FixMessageBuilder('0').set(52, new Date(Number.NaN))), RangeError);
  });
});
