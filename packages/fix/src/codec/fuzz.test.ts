// Bounded property tests: random and mutated byte streams through framer and parser, and random
// messages through encoder and parser. Seeded, so a failure reproduces; set FIX_FUZZ_SEED to vary
// and FIX_FUZZ_SCALE to run longer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Dictionary, ValueType } from '../dictionary/dictionary';
import { FixEncoder, FixMessageBuilder, type GroupEntryInput } from './encoder';
import { FixFramer, type Frame } from './framer';
import type { FieldView, FixMessage } from './message';
import { FixParser } from './parser';
import { fixMessage, header, seededRandom } from './test-support';

const SEED = Number(process.env.FIX_FUZZ_SEED ?? 20260315);
const SCALE = Number(process.env.FIX_FUZZ_SCALE ?? 1);
const MAX_SIZE = 4096;

const rng = seededRandom;

const dictionary = Dictionary.fix44();
const parser = new FixParser(dictionary);

const SAMPLES: Buffer[] = [
  fixMessage(`${header('0', 1)}`),
  fixMessage(
    `${header('D', 2)}1=ACC|11=ORD-1|38=100|40=2|44=14325.5|54=1|55=TD3C|59=0|60=20260315-09:30:01.120|453=2|448=A|447=D|452=3|448=B|447=D|452=11|`,
  ),
  fixMessage(
    `${header('AB', 3)}11=ML|40=2|44=-1.5|54=1|55=S|60=20260315-09:30:02|555=2|600=L1|624=1|687=5|539=1|524=P|525=D|538=3|600=L2|624=2|687=5|`,
  ),
  fixMessage(`${header('8', 4)}6=0|11=A|14=0|17=E|37=O|39=0|54=1|55=X|150=0|151=5|58=text|354=4|355=a\x01=b|`),
  fixMessage(`${header('5', 5)}58=bye|`),
];

/** Independent check of a frame the framer calls a message: length and checksum agree. */
function assertWellFramed(bytes: Buffer): void {
  const text = bytes.toString('latin1');
  const m = /^8=[^\x01]+\x019=(\d+)\x01/.exec(text);
  assert.ok(m, `frame does not start with 8=...9=...: ${JSON.stringify(text.slice(0, 40))}`);
  const bodyStart = m[0].length;
  assert.equal(bytes.length, bodyStart + Number(m[1]) + 7, 'BodyLength agrees with the frame size');
  let sum = 0;
  for (let i = 0; i < bytes.length - 7; i++) sum += bytes[i]!;
  assert.equal(text.slice(-7), `10=${String(sum % 256).padStart(3, '0')}\x01`, 'CheckSum agrees');
}

/** Every field of a valid message is readable with the getter its dictionary type calls for. */
function readEverything(view: FieldView, msg: FixMessage): void {
  for (const [tag] of view.fields()) {
    const f = dictionary.field(tag);
    if (!f) continue;
    switch (f.valueType) {
      case ValueType.Int:
      case ValueType.UnsignedInt:
        view.getInt(tag);
        break;
      case ValueType.Decimal:
        view.getDecimal(tag);
        break;
      case ValueType.Char:
        view.getChar(tag);
        break;
      case ValueType.Boolean:
        view.getBoolean(tag);
        break;
      case ValueType.UtcTimestamp:
        view.getTimestamp(tag);
        break;
      case ValueType.UtcTimeOnly:
        view.getTimeOnly(tag);
        break;
      case ValueType.MonthYear:
        view.getMonthYear(tag);
        break;
      default:
        view.get(tag);
    }
    if (f.type === 'NUMINGROUP') {
      const entries = view.getGroup(tag);
      assert.equal(entries.length, view.getInt(tag), `a valid message has as many ${tag} entries as it declares`);
      for (const e of entries) readEverything(e, msg);
    }
  }
}

/** Frames and parses a stream in random chunks; checks the invariants; returns the frames. */
function runStream(stream: Buffer, random: () => number): Frame[] {
  const framer = new FixFramer({ maxMessageSize: MAX_SIZE });
  const frames: Frame[] = [];
  let i = 0;
  while (i < stream.length) {
    const size = 1 + Math.floor(random() * (random() < 0.2 ? 2000 : 64));
    for (const frame of framer.push(stream.subarray(i, i + size))) {
      frames.push(frame);
      if (frame.kind === 'garbled') continue;
      assertWellFramed(frame.bytes);
      assert.ok(frame.bytes.length <= MAX_SIZE);
      const msg = parser.parse(frame.bytes);
      // Each message is exactly one of: garbled, rejected, valid.
      assert.ok((msg.garbled !== undefined ? 1 : 0) + (msg.rejection !== undefined ? 1 : 0) <= 1);
      if (msg.rejection) {
        assert.ok(Number.isInteger(msg.rejection.reason));
        assert.ok(msg.rejection.text.length > 0);
      }
      if (msg.isValid) readEverything(msg, msg);
    }
    assert.ok(framer.bufferedBytes <= MAX_SIZE, `framer holds ${framer.bufferedBytes} bytes`);
    i += size;
  }
  return frames;
}

type Mutation = (msg: Buffer, random: () => number) => Buffer;
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const MUTATIONS: Record<string, Mutation> = {
  truncate: (m, r) => m.subarray(0, Math.floor(r() * m.length)),
  flipByte: (m, r) => {
    const c = Buffer.from(m);
    c[Math.floor(r() * c.length)] = Math.floor(r() * 256);
    return c;
  },
  dropByte: (m, r) => {
    const k = Math.floor(r() * m.length);
    return Buffer.concat([m.subarray(0, k), m.subarray(k + 1)]);
  },
  insertJunk: (m, r) => {
    const k = Math.floor(r() * m.length);
    const junk = Buffer.from(Array.from({ length: 1 + Math.floor(r() * 20) }, () => Math.floor(r() * 256)));
    return Buffer.concat([m.subarray(0, k), junk, m.subarray(k)]);
  },
  wrongLength: (m, r) => Buffer.from(m.toString('latin1').replace(/\x019=\d+\x01/, `\x019=${Math.floor(r() * 400)}\x01`), 'latin1'),
  hugeLength: (m) => Buffer.from(m.toString('latin1').replace(/\x019=\d+\x01/, '\x019=999999999\x01'), 'latin1'),
  wrongChecksum: (m, r) =>
    Buffer.from(m.toString('latin1').replace(/10=\d{3}\x01$/, `10=${String(Math.floor(r() * 1000)).padStart(3, '0')}\x01`), 'latin1'),
  badTag: (m, r) => Buffer.from(m.toString('latin1').replace(/\x01(\d+)=/, `\x01${pick(r, ['x1', '', '0', '99999', '-5'])}=`), 'latin1'),
  binaryJunk: (_m, r) => Buffer.from(Array.from({ length: Math.floor(r() * 300) }, () => Math.floor(r() * 256))),
  fakeStart: (m, r) =>
    Buffer.concat([
      Buffer.from(pick(r, ['8=FIX', '8=FIX.4.4\x01', '8=FIX.4.4\x019=', '8=FIX.4.4\x019=5\x01', '8=FIX.4.4\x019=10000\x01']), 'latin1'),
      m,
    ]),
};

/** A structurally valid (well-framed) message with random fields: exercises the parser beyond the framer. */
function randomFramedMessage(r: () => number): Buffer {
  const msgType = pick(r, ['D', 'AB', '8', 'W', 'E', '0', 'ZZ']);
  const tags = [
    11, 54, 60, 40, 453, 448, 447, 452, 555, 600, 539, 524, 687, 44, 38, 58, 18, 167, 200, 34, 43, 93, 89, 95, 96, 268, 269, 270, 73, 67,
    999, 5001, 20000,
  ];
  const values = ['1', 'A', '', '0', '2', '-1', '1.5', '20260315-09:30:01', '202604', 'Y', 'N', 'ZZZ', '999999999999', '3', 'D'];
  let body = `${header(msgType, Math.floor(r() * 100))}`;
  const n = Math.floor(r() * 25);
  for (let k = 0; k < n; k++) body += `${pick(r, tags)}=${pick(r, values)}|`;
  return fixMessage(body);
}

describe('fuzz: framer + parser on hostile streams', () => {
  it('random bytes and message fragments never throw, never grow memory, and only well-framed frames come out', () => {
    const r = rng(SEED);
    const seen = { message: 0, garbled: 0, wrongBeginString: 0 };
    for (let round = 0; round < 2000 * SCALE; round++) {
      const parts: Buffer[] = [];
      for (let k = Math.floor(r() * 8); k >= 0; k--) {
        const roll = r();
        if (roll < 0.4)
          parts.push(Buffer.from(Array.from({ length: Math.floor(r() * 200) }, () => (r() < 0.1 ? 1 : Math.floor(r() * 256)))));
        else if (roll < 0.7) {
          const sample = pick(r, SAMPLES);
          const from = Math.floor(r() * sample.length);
          parts.push(sample.subarray(from, from + Math.floor(r() * sample.length)));
        } else if (roll < 0.8) parts.push(fixMessage(header('0', 1), { beginString: 'FIX.4.2' }));
        else parts.push(pick(r, SAMPLES));
      }
      for (const f of runStream(Buffer.concat(parts), r)) seen[f.kind]++;
    }
    assert.ok(seen.message > 0 && seen.garbled > 0 && seen.wrongBeginString > 0, JSON.stringify(seen));
  });

  // A garbled frame ends at the first CheckSum after the body its BodyLength declares (at most MAX_SIZE),
  // as in QuickFIX: a message it reaches into is lost with it (gap recovery asks for it again). Here a
  // junk run longer than any frame and one sacrificial message stand between the mutation and the two
  // messages that must always arrive.
  it('mutated messages are garbled, rejected or valid, and never swallow the valid messages beyond their declared extent', () => {
    const r = rng(SEED + 1);
    const names = Object.keys(MUTATIONS);
    let delivered = 0;
    for (let round = 0; round < 5000 * SCALE; round++) {
      const name = pick(r, names);
      const before = pick(r, SAMPLES);
      const after = pick(r, SAMPLES);
      let mutated = MUTATIONS[name]!(pick(r, SAMPLES), r);
      if (r() < 0.3) mutated = MUTATIONS[pick(r, names)]!(mutated, r);
      const stream = Buffer.concat([before, mutated, Buffer.alloc(MAX_SIZE + 1, 0x41), pick(r, SAMPLES), after, SAMPLES[0]!]);
      const frames = runStream(stream, r);
      const messages = frames.filter((f) => f.kind === 'message').map((f) => f.bytes);
      // The valid message before and the two after the mutation always arrive intact, in order.
      assert.ok(messages[0]?.equals(before), `${name}: message before the mutation lost (round ${round})`);
      const last = messages.slice(-2);
      assert.ok(
        last[0]?.equals(after) && last[1]?.equals(SAMPLES[0]!),
        `${name}: message after the mutation lost (round ${round}): ${JSON.stringify(mutated.toString('latin1'))} frames ${frames.map((f) => f.kind + (f.kind === 'garbled' ? `(${f.reason})` : '')).join(',')}`,
      );
      delivered += messages.length;
    }
    assert.ok(delivered >= 15000 * SCALE);
  });

  it('well-framed random field soup parses to garbled, rejected or valid without throwing', () => {
    const r = rng(SEED + 2);
    let valid = 0;
    let rejected = 0;
    for (let round = 0; round < 10000 * SCALE; round++) {
      const bytes = randomFramedMessage(r);
      const msg = parser.parse(bytes);
      if (msg.rejection) rejected++;
      else if (msg.isValid) {
        valid++;
        readEverything(msg, msg);
      }
      // The same bytes through the framer give the same verdict.
      const frames = new FixFramer().push(bytes);
      assert.equal(frames.length, 1);
      assert.equal(frames[0]!.kind, 'message');
    }
    assert.ok(rejected > 0 && valid > 0, `both outcomes exercised (valid ${valid}, rejected ${rejected})`);
  });
});

describe('fuzz: encoder round trip', () => {
  it('random NewOrderSingles encode to valid messages that read back identically', () => {
    const r = rng(SEED + 3);
    const encoder = new FixEncoder(dictionary);
    const roles = [...dictionary.enumValues(452)!];
    const text = () => Array.from({ length: 1 + Math.floor(r() * 12) }, () => String.fromCharCode(0x21 + Math.floor(r() * 94))).join('');
    const decimal = () => `${r() < 0.3 ? '-' : ''}${Math.floor(r() * 1e6)}${r() < 0.5 ? `.${Math.floor(r() * 1e4)}` : ''}`;
    for (let round = 0; round < 4000 * SCALE; round++) {
      const b = new FixMessageBuilder('D')
        .set(34, 1 + Math.floor(r() * 1e6))
        .set(49, text())
        .set(56, text())
        .set(52, new Date(Date.UTC(2020, 0, 1) + Math.floor(r() * 1e11)))
        .set(11, text())
        .set(54, pick(r, ['1', '2', '5', '6']))
        .set(55, text())
        .set(60, new Date(Date.UTC(2020, 0, 1) + Math.floor(r() * 1e11)))
        .set(40, pick(r, ['1', '2', '3', '4']));
      const price = decimal();
      if (r() < 0.7) b.set(44, price);
      const qty = decimal();
      b.set(38, qty);
      if (r() < 0.5) b.set(58, text());
      const parties: GroupEntryInput[] = Array.from({ length: Math.floor(r() * 4) }, () => ({
        452: pick(r, roles),
        448: text(),
        447: 'D',
      }));
      b.setGroup(453, parties);
      const bytes = encoder.encode(b);
      const [frame] = new FixFramer().push(bytes);
      assert.equal(frame?.kind, 'message');
      const msg = parser.parse(bytes);
      assert.ok(msg.isValid, `round ${round}: ${JSON.stringify(msg.rejection ?? msg.garbled)} ${msg.toString()}`);
      assert.equal(msg.getDecimal(38), qty);
      if (b.has(44)) assert.equal(msg.getDecimal(44), price);
      assert.equal(msg.get(11), b.get(11));
      const got = msg.getGroup(453).map((e) => [e.get(448), e.get(447), e.get(452)]);
      assert.deepEqual(
        got,
        parties.map((p) => [p[448], p[447], p[452]]),
      );
    }
  });
});
