// Session-level property tests over real sockets (the conformance acceptor): random and mutated byte
// streams must never crash the engine or grow its memory past its limits, and each known kind of bad
// input gets the reaction FIX prescribes. Seeded, so a failure reproduces: FIX_FUZZ_SEED to vary,
// FIX_FUZZ_SCALE to run longer (the random part runs about 2.5 s per unit of scale).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FixFramer } from '../src/codec/framer';
import { AcceptorHarness, assertMessage, checksum, expand, frame, show, TestClient, TW } from './harness';
import { seededRandom } from '../src/codec/test-support';
import { until } from '../../../tests/support/until';

const SEED = Number(process.env.FIX_FUZZ_SEED ?? 20260316);
const SCALE = Number(process.env.FIX_FUZZ_SCALE ?? 1);
const MAX_QUEUED = 40;
/** The acceptor's framer default (the conformance acceptor sets none). */
const MAX_MESSAGE_SIZE = 64 * 1024;

const rng = seededRandom;

/** Everything thrown where nobody catches it while the tests run. */
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

async function logOn(h: AcceptorHarness): Promise<TestClient> {
  const client = await TestClient.open(h.port);
  client.send(frame(expand('8=FIX.4.4|35=A|34=1|49=TW|52=<TIME>|56=ISLD|98=0|108=30', h.clock)));
  const answer = await client.next(3000);
  assert.ok(answer, 'no Logon answer');
  assertMessage(answer, expand('8=FIX.4.4|35=A|34=1|49=ISLD|52=<TIME>|56=TW|98=0|108=30', h.clock), 'logon');
  return client;
}

async function disconnected(h: AcceptorHarness): Promise<void> {
  await until('the session to let go of the connection', () => h.acceptor.session(TW)?.isConnected === false, 3000, 5);
}

const testRequest = (h: AcceptorHarness, seq: number, id: string) =>
  frame(expand(`8=FIX.4.4|35=1|34=${seq}|49=TW|52=<TIME>|56=ISLD|112=${id}`, h.clock));

/** The heartbeat answering TestRequest `id`: proof that the message before it used up no number. */
async function expectHeartbeat(client: TestClient, h: AcceptorHarness, ourSeq: number, id: string, where: string): Promise<void> {
  const got = await client.next(3000);
  assert.ok(got, `${where}: no Heartbeat (${client.closed ? 'disconnected' : 'nothing'})`);
  assertMessage(got, expand(`8=FIX.4.4|35=0|34=${ourSeq}|49=ISLD|52=<TIME>|56=TW|112=${id}`, h.clock), where);
}

/** Garbled variants of a valid frame: each must be ignored without using up its number. */
function garble(valid: string, random: () => number): { kind: string; bytes: string } {
  const bodyLengthAt = valid.indexOf('\x019=') + 3;
  const bodyLengthEnd = valid.indexOf('\x01', bodyLengthAt);
  const bodyLength = Number(valid.slice(bodyLengthAt, bodyLengthEnd));
  const trailerAt = valid.lastIndexOf('10=');
  switch (Math.floor(random() * 4)) {
    case 0: {
      const good = Number(valid.slice(trailerAt + 3, trailerAt + 6));
      const bad = String((good + 1 + Math.floor(random() * 254)) % 256).padStart(3, '0');
      return { kind: 'wrong CheckSum', bytes: `${valid.slice(0, trailerAt + 3)}${bad}\x01` };
    }
    case 1: {
      // Shorter than the body: the frame ends inside it and its "10=" is not where it should be.
      const text = `${valid.slice(0, bodyLengthAt)}${bodyLength - 1 - Math.floor(random() * 5)}${valid.slice(bodyLengthEnd, trailerAt)}`;
      return { kind: 'wrong BodyLength', bytes: `${text}10=${checksum(text)}\x01` };
    }
    case 2:
      // Cut short, and the next message sent right behind it: as at QuickFIX the frame ends at that
      // message's CheckSum, so both are garbled; the message after them must still get through.
      return {
        kind: 'truncated',
        bytes: valid.slice(0, bodyLengthEnd + 1 + Math.floor(random() * (trailerAt - bodyLengthEnd - 1))) + valid,
      };
    default: {
      const text = `${valid.slice(0, bodyLengthAt)}${99_999_999}${valid.slice(bodyLengthEnd, trailerAt)}`;
      return { kind: 'huge BodyLength', bytes: `${text}10=${checksum(text)}\x01` };
    }
  }
}

describe(`session fuzz (seed ${SEED})`, () => {
  let h: AcceptorHarness;
  before(async () => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    h = new AcceptorHarness({ maxQueuedMessages: MAX_QUEUED });
    await h.start();
  });
  after(async () => {
    await h.stop();
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  });

  it('garbled frames (bad CheckSum, bad or huge BodyLength, truncated) are ignored and use up no number', async () => {
    const random = rng(SEED);
    const client = await logOn(h);
    try {
      let seq = 2;
      let ours = 2;
      for (let i = 0; i < 24; i++) {
        const { kind, bytes } = garble(testRequest(h, seq, `G${i}`), random);
        client.send(bytes);
        client.send(testRequest(h, seq, `V${i}`));
        await expectHeartbeat(client, h, ours, `V${i}`, `after a ${kind} frame (#${i}: ${show(bytes)})`);
        seq += 1;
        ours += 1;
      }
      await h.settle();
      assert.equal(h.acceptor.session(TW)!.status().nextTargetMsgSeqNum, seq);
    } finally {
      client.close();
      await disconnected(h);
    }
  });

  it('an invalid field gets a session Reject (35=3) with SessionRejectReason (373), and its number is used', async () => {
    const random = rng(SEED + 1);
    const client = await logOn(h);
    const invalid: Array<[string, string]> = [
      ['38=10|54=Z|55=C5TC', '5'], // value out of range
      ['38=10|55=C5TC', '1'], // Side missing
      ['38=10|54=1|55=C5TC|150=0', '2'], // tag not defined for this message type
      ['38=10|54=1|55=C5TC|9999=X', '0'], // invalid tag number (not in the dictionary)
      ['38=ten|54=1|55=C5TC', '6'], // incorrect data format
      ['38=10|54=1|55=', '4'], // tag without a value
      ['38=10|54=1|54=2|55=C5TC', '13'], // tag appears more than once
    ];
    try {
      let seq = 2;
      let ours = 2;
      for (let i = 0; i < 10; i++) {
        const [fields, reason] = invalid[Math.floor(random() * invalid.length)]!;
        const order = `11=F${i}|21=1|40=1|60=<TIME>|${fields}`;
        const raw = frame(expand(`8=FIX.4.4|35=D|34=${seq}|49=TW|52=<TIME>|56=ISLD|${order}`, h.clock));
        client.send(raw);
        const got = await client.next(3000);
        assert.ok(got, `#${i} ${fields}: no answer`);
        assert.match(show(got), new RegExp(`\\|35=3\\|.*\\|45=${seq}\\|.*\\|373=${reason}\\|`), `#${i} ${fields}: ${show(got)}`);
        seq += 1;
        ours += 1;
        client.send(testRequest(h, seq, `V${i}`));
        await expectHeartbeat(client, h, ours, `V${i}`, `after the Reject of #${i}`);
        seq += 1;
        ours += 1;
      }
    } finally {
      client.close();
      await disconnected(h);
    }
  });

  it('a MsgSeqNum too low without PossDupFlag ends in a Logout naming both numbers', async () => {
    const random = rng(SEED + 2);
    for (let round = 0; round < 4; round++) {
      const client = await logOn(h);
      try {
        const sent = 2 + Math.floor(random() * 5);
        for (let seq = 2; seq < 2 + sent; seq++) {
          client.send(testRequest(h, seq, `T${seq}`));
          await expectHeartbeat(client, h, seq, `T${seq}`, `round ${round}`);
        }
        const expected = 2 + sent;
        const low = 1 + Math.floor(random() * (expected - 1));
        client.send(testRequest(h, low, 'LOW'));
        const got = await client.next(3000);
        assert.ok(got, `round ${round}: no Logout`);
        assertMessage(
          got,
          expand(
            `8=FIX.4.4|35=5|34=<ANY>|49=ISLD|52=<TIME>|56=TW|58=MsgSeqNum too low, expecting ${expected} but received ${low}`,
            h.clock,
          ),
          `round ${round}`,
        );
        assert.equal(await client.next(3000), undefined, `round ${round}: disconnected after the Logout`);
      } finally {
        client.close();
        await disconnected(h);
      }
    }
  });

  it('messages behind a gap are queued up to maxQueuedMessages, then Logout and disconnect', async () => {
    const client = await logOn(h);
    try {
      // 2 is missing: 3.. are queued behind it, and the first one asks for a resend.
      for (let seq = 3; seq < 3 + MAX_QUEUED + 1; seq++) client.send(testRequest(h, seq, `Q${seq}`));
      const resend = await client.next(3000);
      assertMessage(resend!, expand('8=FIX.4.4|35=2|34=2|49=ISLD|52=<TIME>|56=TW|7=2|16=0', h.clock), 'ResendRequest');
      const logout = await client.next(3000);
      assertMessage(
        logout!,
        expand(`8=FIX.4.4|35=5|34=3|49=ISLD|52=<TIME>|56=TW|58=Too many messages queued behind a sequence gap (${MAX_QUEUED})`, h.clock),
        'Logout',
      );
      assert.equal(await client.next(3000), undefined, 'disconnected');
    } finally {
      client.close();
      await disconnected(h);
    }
    assert.equal(h.acceptor.session(TW)!.status().queuedInbound, 0, 'the queue is dropped with the connection');
  });

  it('random and mutated streams: no crash, framer and queue within their limits, the engine still serves a clean logon', async () => {
    const random = rng(SEED + 3);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const deadline = Date.now() + 2500 * SCALE;
    const mirror = new FixFramer({ beginString: 'FIX.4.4', maxMessageSize: MAX_MESSAGE_SIZE });
    let connections = 0;
    let chunks = 0;
    let maxQueued = 0;
    const heapBefore = process.memoryUsage().heapUsed;
    while (Date.now() < deadline) {
      connections += 1;
      const client = await logOn(h);
      let seq = 2;
      for (let n = 0; n < 150 && !client.closed && Date.now() < deadline; n++) {
        const valid = () => {
          const kind = pick(['1', '0', 'D', 'F', '4', '2']);
          const body =
            kind === '1'
              ? `112=R${n}`
              : kind === '0'
                ? ''
                : kind === 'D'
                  ? `11=R${n}|21=1|38=${Math.floor(random() * 1000)}|40=${pick(['1', '2', 'Z'])}|54=${pick(['1', '2', '9'])}|55=C5TC|60=<TIME>`
                  : kind === 'F'
                    ? `11=C${n}|41=R${n}|54=1|55=C5TC|60=<TIME>`
                    : kind === '4'
                      ? `123=${pick(['Y', 'N'])}|36=${seq + Math.floor(random() * 5) - 1}`
                      : `7=${Math.floor(random() * 4) + 1}|16=${pick(['0', '1', '3'])}`;
          // Mostly in sequence; sometimes a gap, a repeat or a number from the past (with or without PossDup).
          const r = random();
          const use = r < 0.75 ? seq++ : r < 0.85 ? seq + 1 + Math.floor(random() * 3) : Math.max(1, seq - 1 - Math.floor(random() * 3));
          const possDup = r >= 0.85 && random() < 0.5 ? '|43=Y|122=<TIME-1>' : '';
          return frame(expand(`8=FIX.4.4|35=${kind}|34=${use}|49=TW|52=<TIME>|56=ISLD${possDup}${body ? `|${body}` : ''}`, h.clock));
        };
        const shape = random();
        let bytes: string;
        if (shape < 0.4) bytes = valid();
        else if (shape < 0.6) bytes = garble(valid(), random).bytes;
        else if (shape < 0.7) {
          // A valid message with one byte changed (the checksum is recomputed half of the time).
          const v = valid();
          const at = Math.floor(random() * (v.length - 8));
          const mutated = v.slice(0, at) + String.fromCharCode(Math.floor(random() * 256)) + v.slice(at + 1);
          const trailer = mutated.lastIndexOf('10=');
          bytes = random() < 0.5 && trailer > 0 ? `${mutated.slice(0, trailer)}10=${checksum(mutated.slice(0, trailer))}\x01` : mutated;
        } else if (shape < 0.8) {
          // Bad tags: non-numeric, zero, negative, absurdly large, missing '='.
          const badTag = pick(['abc=1', '0=1', '-5=1', '99999999999=1', '58', '=x', '34=']);
          const text = `8=FIX.4.4\x019=<L>\x0135=1\x0134=${seq}\x0149=TW\x0152=${expand('<TIME>', h.clock)}\x0156=ISLD\x01${badTag}\x01112=B\x01`;
          const bodyStart = text.indexOf('35=');
          const withLength = text.replace('<L>', String(Buffer.byteLength(text.slice(bodyStart), 'latin1')));
          bytes = `${withLength}10=${checksum(withLength)}\x01`;
        } else if (shape < 0.9) {
          bytes = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256))).toString('latin1');
          if (random() < 0.3) bytes = `8=FIX.4.4\x019=${Math.floor(random() * 2 ** 31)}\x01${bytes}`;
        } else {
          // A burst well past the gap: fills the queue behind it.
          bytes = '';
          const from = seq + 2;
          for (let k = 0; k < 5 + Math.floor(random() * 20); k++) bytes += testRequest(h, from + k, `B${k}`);
        }
        const buffer = Buffer.from(bytes, 'latin1');
        // Split at random points, as TCP may.
        for (let at = 0; at < buffer.length;) {
          const size = 1 + Math.floor(random() * Math.max(1, buffer.length - at));
          const chunk = buffer.subarray(at, at + size);
          at += size;
          mirror.push(chunk);
          assert.ok(mirror.bufferedBytes <= MAX_MESSAGE_SIZE, `framer holds ${mirror.bufferedBytes} bytes`);
          client.send(chunk.toString('latin1'));
          chunks += 1;
        }
        if (n % 10 === 0) await new Promise((r) => setImmediate(r));
        const status = h.acceptor.session(TW)?.status();
        if (status) {
          maxQueued = Math.max(maxQueued, status.queuedInbound);
          assert.ok(status.queuedInbound <= MAX_QUEUED, `queued ${status.queuedInbound} > ${MAX_QUEUED}`);
        }
      }
      // Whatever the engine sent must frame cleanly.
      for (let got = await client.next(50); got !== undefined; got = await client.next(50))
        assert.ok(!got.startsWith('GARBLED'), `engine sent a garbled frame: ${got}`);
      client.close();
      await disconnected(h);
      mirror.reset();
    }
    assert.deepEqual(uncaught, [], 'nothing thrown uncaught');
    assert.ok(connections >= 1 && chunks > 0);
    assert.ok(maxQueued <= MAX_QUEUED);
    // Far below what an unbounded buffer or queue would reach after this many streams.
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 256 * 1024 * 1024, 'heap growth bounded');
    // The engine is still healthy: a clean logon and a TestRequest work.
    const client = await logOn(h);
    try {
      client.send(testRequest(h, 2, 'END'));
      await expectHeartbeat(client, h, 2, 'END', 'after the fuzzing');
    } finally {
      client.close();
      await disconnected(h);
    }
  });
});
