import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixFramer, type Frame } from './framer';
import { fixMessage, header, pipes } from './test-support';

const heartbeat = (seq: number) => fixMessage(`${header('0', seq)}`);
const order = (seq: number) => fixMessage(`${header('D', seq)}11=ORD-${seq}|54=1|55=TD3C|60=20260315-09:30:01.000|40=1|`);

function kinds(frames: Frame[]): string[] {
  return frames.map((f) => (f.kind === 'message' ? `message:${pipes(f.bytes).match(/34=(\d+)/)?.[1]}` : f.kind));
}

function feedAll(framer: FixFramer, chunks: Buffer[]): Frame[] {
  return chunks.flatMap((c) => framer.push(c));
}

describe('FixFramer', () => {
  it('yields one complete message per push', () => {
    const framer = new FixFramer();
    const msg = order(1);
    const frames = framer.push(msg);
    assert.equal(frames.length, 1);
    assert.equal(frames[0]!.kind, 'message');
    assert.deepEqual(frames[0]!.bytes, msg);
    assert.equal(framer.bufferedBytes, 0);
  });

  it('copies messages out of the socket chunk by default', () => {
    const chunk = Buffer.concat([order(1)]);
    const [frame] = new FixFramer().push(chunk);
    chunk.fill(0);
    assert.match(pipes(frame!.bytes), /^8=FIX\.4\.4\|/);
  });

  it('splits several messages in one chunk', () => {
    const frames = new FixFramer().push(Buffer.concat([order(1), heartbeat(2), order(3)]));
    assert.deepEqual(kinds(frames), ['message:1', 'message:2', 'message:3']);
  });

  it('reassembles a message split at every possible byte', () => {
    const msg = order(7);
    for (let cut = 1; cut < msg.length; cut++) {
      const framer = new FixFramer();
      assert.deepEqual(framer.push(msg.subarray(0, cut)), [], `cut ${cut}`);
      const frames = framer.push(msg.subarray(cut));
      assert.deepEqual(kinds(frames), ['message:7'], `cut ${cut}`);
      assert.deepEqual(frames[0]!.bytes, msg);
    }
  });

  it('reassembles messages fed one byte at a time', () => {
    const stream = Buffer.concat([order(1), heartbeat(2), order(3)]);
    const framer = new FixFramer();
    const frames: Frame[] = [];
    for (let i = 0; i < stream.length; i++) frames.push(...framer.push(stream.subarray(i, i + 1)));
    assert.deepEqual(kinds(frames), ['message:1', 'message:2', 'message:3']);
  });

  it('skips junk before, between and after messages', () => {
    const framer = new FixFramer();
    const junk = Buffer.from('\x00\xffGARBAGE 8=FIY 9=12\x01', 'latin1');
    const frames = feedAll(framer, [Buffer.concat([junk, order(1), junk, heartbeat(2)]), junk]);
    assert.deepEqual(kinds(frames), ['message:1', 'message:2']);
    assert.ok(framer.discardedBytes >= junk.length * 2);
    assert.ok(framer.bufferedBytes < 5, 'junk at the end is not buffered beyond a possible "8=FIX" prefix');
  });

  it('keeps a "8=FI" prefix split at a chunk boundary', () => {
    const msg = order(1);
    const framer = new FixFramer();
    assert.deepEqual(framer.push(Buffer.concat([Buffer.from('noise'), msg.subarray(0, 4)])), []);
    assert.deepEqual(kinds(framer.push(msg.subarray(4))), ['message:1']);
  });

  it('reports a wrong CheckSum as garbled and still delivers the next message', () => {
    const bad = fixMessage(`${header('D', 1)}11=X|`, { checksum: '000' });
    const frames = new FixFramer().push(Buffer.concat([bad, heartbeat(2)]));
    assert.deepEqual(kinds(frames), ['garbled', 'message:2']);
    assert.match((frames[0] as { reason: string }).reason, /CheckSum/);
  });

  it('reports a CheckSum that is not three digits as garbled', () => {
    const frames = new FixFramer().push(Buffer.concat([fixMessage(header('0', 1), { checksum: '9A9' }), heartbeat(2)]));
    assert.deepEqual(kinds(frames), ['garbled', 'message:2']);
  });

  it('reports a too-small BodyLength as garbled and still delivers the next message', () => {
    const body = `${header('D', 1)}11=X|`;
    const frames = new FixFramer().push(Buffer.concat([fixMessage(body, { bodyLength: 20 }), heartbeat(2)]));
    assert.deepEqual(kinds(frames), ['garbled', 'message:2']);
  });

  it('ends a too-large BodyLength frame at the first CheckSum after its declared end, as QuickFIX does', () => {
    const bad = fixMessage(`${header('D', 1)}11=X|`, { bodyLength: 90 });
    // The declared body reaches into the heartbeat: the frame ends at that heartbeat's CheckSum.
    const frames = new FixFramer().push(Buffer.concat([bad, heartbeat(2), heartbeat(3)]));
    assert.deepEqual(kinds(frames), ['garbled', 'message:3']);
    assert.match((frames[0] as { reason: string }).reason, /does not match the CheckSum/);
  });

  it('waits for the CheckSum after a too-large BodyLength across chunks, then goes on', () => {
    const bad = fixMessage(`${header('D', 1)}11=X|`, { bodyLength: 900 });
    const framer = new FixFramer();
    const padding = Buffer.alloc(900, 0x41);
    const stream = Buffer.concat([bad, heartbeat(2), padding, heartbeat(3), heartbeat(4)]);
    const frames: Frame[] = [];
    for (let i = 0; i < stream.length; i += 7) frames.push(...framer.push(stream.subarray(i, i + 7)));
    assert.deepEqual(kinds(frames), ['garbled', 'message:4']);
  });

  it('gives up on a frame with no CheckSum within the size limit and rescans it', () => {
    const framer = new FixFramer({ maxMessageSize: 1024 });
    const bad = Buffer.from(`8=FIX.4.4\x019=900\x0135=D\x01${'A'.repeat(1100)}`, 'latin1');
    const frames = framer.push(Buffer.concat([bad, heartbeat(2)]));
    assert.deepEqual(kinds(frames), ['garbled', 'message:2']);
    assert.match((frames[0] as { reason: string }).reason, /no CheckSum/);
    assert.equal(framer.bufferedBytes, 0);
  });

  it('ends a frame with a malformed CheckSum at that CheckSum (QuickFIX 2d)', () => {
    const body = `${header('0', 1)}`;
    const raw = pipes(fixMessage(body)).replace(/10=\d{3}\|$/, '10=0|');
    const frames = new FixFramer().push(Buffer.concat([Buffer.from(raw.replaceAll('|', '\x01'), 'latin1'), heartbeat(2)]));
    assert.deepEqual(kinds(frames), ['garbled', 'message:2']);
  });

  it('rejects a hostile BodyLength beyond the size limit at once, without buffering', () => {
    const framer = new FixFramer({ maxMessageSize: 4096 });
    const frames = framer.push(Buffer.from('8=FIX.4.4\x019=99999999\x0135=D\x01', 'latin1'));
    assert.equal(frames.length, 1);
    assert.equal(frames[0]!.kind, 'garbled');
    assert.match((frames[0] as { reason: string }).reason, /exceeds the 4096-byte limit/);
    assert.ok(framer.bufferedBytes < 5);
  });

  it('never buffers more than the size limit while waiting for a message', () => {
    const framer = new FixFramer({ maxMessageSize: 1024 });
    framer.push(Buffer.from('8=FIX.4.4\x019=1000\x0135=D\x01', 'latin1'));
    for (let i = 0; i < 100; i++) {
      framer.push(Buffer.alloc(50, 0x41));
      assert.ok(framer.bufferedBytes <= 1024, `buffered ${framer.bufferedBytes}`);
    }
  });

  it('reports a BodyLength that is not a number, or a missing 9=, as garbled', () => {
    const framer = new FixFramer();
    const frames = framer.push(
      Buffer.concat([Buffer.from('8=FIX.4.4\x019=1x2\x01', 'latin1'), Buffer.from('8=FIX.4.4\x0135=0\x01', 'latin1'), heartbeat(3)]),
    );
    assert.deepEqual(kinds(frames), ['garbled', 'garbled', 'message:3']);
  });

  it('reports an unterminated BeginString as garbled', () => {
    const frames = new FixFramer().push(Buffer.concat([Buffer.from('8=FIX.4.4.4.4.4.4.4.4.4.4.4', 'latin1'), heartbeat(1)]));
    assert.deepEqual(kinds(frames), ['garbled', 'message:1']);
  });

  it('reports a well-framed message with another BeginString separately', () => {
    const frames = new FixFramer().push(Buffer.concat([fixMessage(header('A', 1), { beginString: 'FIX.4.2' }), heartbeat(2)]));
    assert.equal(frames[0]!.kind, 'wrongBeginString');
    assert.equal((frames[0] as { beginString: string }).beginString, 'FIX.4.2');
    assert.equal(frames[1]!.kind, 'message');
  });

  it('rescans a frame broken before its BodyLength from just after its "8="', () => {
    const good = heartbeat(2);
    const stream = Buffer.concat([Buffer.from('8=FIX.4.4\x019=4x', 'latin1'), good]);
    assert.deepEqual(kinds(new FixFramer().push(stream)), ['garbled', 'message:2']);
  });

  it('takes a frame whose BodyLength was read up to the next CheckSum, the message there with it (QuickFIX)', () => {
    const stream = Buffer.concat([Buffer.from('8=FIX.4.4\x019=40\x0135=0\x01', 'latin1'), heartbeat(2), heartbeat(3)]);
    assert.deepEqual(kinds(new FixFramer().push(stream)), ['garbled', 'message:3']);
  });

  it('keeps DATA fields containing SOH intact', () => {
    const msg = fixMessage(`${header('B', 1)}148=News|33=1|58=x|95=5|96=a\x01b=c|`);
    const frames = new FixFramer().push(msg);
    assert.deepEqual(kinds(frames), ['message:1']);
  });

  it('forgets a partial message on reset', () => {
    const framer = new FixFramer();
    framer.push(order(1).subarray(0, 30));
    assert.ok(framer.bufferedBytes > 0);
    framer.reset();
    assert.equal(framer.bufferedBytes, 0);
    assert.deepEqual(kinds(framer.push(heartbeat(2))), ['message:2']);
  });

  it('can hand out views instead of copies', () => {
    const chunk = order(1);
    const [frame] = new FixFramer({ copyMessages: false }).push(chunk);
    assert.equal(frame!.bytes.buffer, chunk.buffer);
  });

  it('refuses a size limit too small for any message', () => {
    assert.throws(() => new FixFramer({ maxMessageSize: 10 }), /too small/);
  });
});
