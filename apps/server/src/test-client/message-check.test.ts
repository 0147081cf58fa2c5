import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serializeFixMessage } from '@fixdesk/domain';
import { checkOutboundMessage, MessageCheckError, normalizeFixText } from './message-check';

const session = { senderCompId: 'SGX_CLIENT_1', targetCompId: 'FIXDESK' };
const order = (extra: Array<[number, string]> = []) =>
  serializeFixMessage([
    [35, 'D'],
    [49, 'SGX_CLIENT_1'],
    [56, 'FIXDESK'],
    [34, '7'],
    [52, '20260101-10:00:00.000'],
    [11, 'SGX-1.1'],
    [38, '10'],
    [40, '2'],
    [44, '27000'],
    [54, '1'],
    [55, 'C5TC'],
    [59, '0'],
    [60, '20260101-10:00:00'],
    [167, 'FUT'],
    [200, '202612'],
    ...extra,
  ]);

function refused(input: string): MessageCheckError {
  try {
    checkOutboundMessage(input, session);
  } catch (err) {
    assert.ok(err instanceof MessageCheckError, String(err));
    return err;
  }
  assert.fail('the message was accepted');
}

describe('checking a message before the test client sends it', () => {
  it('takes SOH or | as the delimiter, with or without the final one', () => {
    const raw = order();
    assert.equal(normalizeFixText(raw.split('\u0001').join('|')), raw);
    assert.equal(normalizeFixText(`  ${raw.slice(0, -1)}\n`), raw);
  });

  it('returns the body in wire order and drops the header the session owns', () => {
    const checked = checkOutboundMessage(order(), { senderCompId: 'SGX_CLIENT_1', targetCompId: 'FIXDESK' });
    assert.equal(checked.msgType, 'D');
    assert.equal(checked.clOrdId, 'SGX-1.1');
    assert.deepEqual(checked.header, []);
    assert.deepEqual(
      checked.body.map(([t]) => t),
      [11, 38, 40, 44, 54, 55, 59, 60, 167, 200],
    );
    assert.equal(checked.view.get(49), 'SGX_CLIENT_1');
  });

  it('re-stamps a header written for another session and needs no sequence number', () => {
    const foreign = serializeFixMessage([
      [35, 'D'],
      [49, 'SOMEONE'],
      [56, 'ELSEWHERE'],
      [52, '20200101-00:00:00'],
      [50, 'DESK7'],
      [43, 'Y'],
      [11, 'X-1'],
      [38, '1'],
      [40, '1'],
      [54, '2'],
      [55, 'C5TC'],
      [60, '20260101-10:00:00'],
    ]);
    const checked = checkOutboundMessage(foreign, session);
    assert.deepEqual(checked.header, [[50, 'DESK7']], 'SenderSubID kept, PossDupFlag dropped');
    assert.equal(checked.view.get(49), 'SGX_CLIENT_1');
    assert.equal(checked.view.get(56), 'FIXDESK');
  });

  it('names the wrong CheckSum and BodyLength with the right values', () => {
    const raw = order();
    const sum = raw.match(/10=(\d{3})\u0001$/)![1]!;
    const wrong = sum === '000' ? '001' : '000';
    assert.equal(
      refused(raw.replace(/10=\d{3}\u0001$/, `10=${wrong}\u0001`)).message,
      `Invalid FIX message: CheckSum (10) is ${wrong} but the message sums to ${sum}`,
    );
    const len = Number(raw.match(/\u00019=(\d+)\u0001/)![1]);
    assert.match(
      refused(raw.replace(`9=${len}`, `9=${len - 3}`)).message,
      new RegExp(`BodyLength \\(9\\) is ${len - 3} but the body is ${len} bytes`),
    );
  });

  it('refuses what the dictionary refuses, naming the tag', () => {
    const noSide = serializeFixMessage([
      [35, 'D'],
      [11, 'A'],
      [38, '1'],
      [40, '1'],
      [55, 'C5TC'],
      [60, '20260101-10:00:00'],
    ]);
    const e = refused(noSide);
    assert.equal(e.message, 'Required tag missing: tag 54 (Side)');
    assert.equal(e.tag, 54);
    assert.equal(refused(order([[1500, 'x']])).tag, 1500);
    const badSide = serializeFixMessage([
      [35, 'D'],
      [11, 'A'],
      [38, '1'],
      [40, '1'],
      [54, 'Z'],
      [55, 'C5TC'],
      [60, '20260101-10:00:00'],
    ]);
    assert.match(refused(badSide).message, /Value is incorrect \(out of range\) for this tag: tag 54 \(Side\)/);
  });

  it('sends client application messages only', () => {
    const logon = serializeFixMessage([
      [35, 'A'],
      [98, '0'],
      [108, '30'],
    ]);
    assert.match(refused(logon).message, /MsgType \(35\) A cannot be sent here/);
    const report = serializeFixMessage([
      [35, '8'],
      [6, '0'],
      [11, 'A'],
      [14, '0'],
      [17, 'E'],
      [37, 'O'],
      [39, '0'],
      [54, '1'],
      [55, 'X'],
      [150, '0'],
      [151, '1'],
    ]);
    assert.match(refused(report).message, /MsgType \(35\) 8 cannot be sent here/);
    assert.match(
      refused(
        serializeFixMessage([
          [35, 'ZZ'],
          [11, 'A'],
        ]),
      ).message,
      /Invalid MsgType \(35\): 'ZZ'/,
    );
  });

  it('refuses garbage, two messages at once and text outside Latin-1', () => {
    assert.match(refused('hello').message, /FIX message/);
    assert.equal(refused(order() + order()).message, 'Send one FIX message at a time: text follows the first message');
    assert.match(refused(order([[58, 'naïve ✓']])).message, /outside Latin-1/);
    assert.match(refused('8=FIX.4.2\u00019=5\u000135=0\u000110=000\u0001').message, /BeginString \(8\) must be FIX.4.4/);
  });
});
