import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSessionCodec, outgoing } from '@fixdesk/fix';
import { buildCancelReject } from './fix-messages';

describe('outbound message building', () => {
  it('sends characters beyond Latin-1 as ? and reports the tag, so the message still encodes', () => {
    const built = buildCancelReject(
      {
        orderid: 'BO1',
        clordid: 'C-1',
        origclordid: 'C-0',
        ordstatus: '0',
        responseTo: '1',
        reason: 0,
        text: 'Zamówienie Łukasza €5',
        transacttime: new Date('2026-01-01T00:00:00Z'),
      },
      undefined,
    );
    assert.deepEqual(built.replaced, ['58']);
    assert.equal(new Map(built.body).get(58), 'Zamówienie ?ukasza ?5', 'Latin-1 (ó) is kept');
    const codec = createSessionCodec();
    const m = outgoing(built.msgType, built.body);
    assert.doesNotThrow(() =>
      codec.encode(
        'FIX.4.4',
        m.msgType,
        [
          [49, 'A'],
          [56, 'B'],
          [34, '1'],
          [52, '20260101-00:00:00.000'],
        ],
        m.body,
      ),
    );
  });
});
