import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FixMessageRecord, OrderTimelineEntry } from '@fixdesk/protocol';
import { timelineLine } from './timelineText';

const message = (over: Partial<FixMessageRecord>): FixMessageRecord => ({
  id: 1,
  timestamp: '',
  transacttime: '',
  direction: 'TX',
  msgtype: '8',
  msgseqnum: 5,
  sender_comp_id: 'FIXDESK',
  target_comp_id: 'C',
  clordid: 'C1',
  brokerorderid: 'BO1',
  poss_dup: false,
  raw_fix: '',
  ...over,
});

describe('timeline lines', () => {
  it('reads an execution report out: its exec type and status, the last fill, the text', () => {
    const e: OrderTimelineEntry = {
      kind: 'fix',
      at: '',
      message: message({}),
      fields: { '11': 'C1', '150': 'F', '39': '1', '32': '5', '31': '27000', '58': 'part' },
    };
    const line = timelineLine(e);
    assert.equal(line.actor, 'Desk → Client');
    assert.equal(line.title, '8 · Execution Report · Trade / Partially Filled');
    assert.deepEqual(line.details, ['Seq 5', 'ClOrdID C1', 'Last 5 @ 27,000.00', 'Text: part']);
    assert.equal(line.tone, 'out');
  });

  it('a refusal at intake names its reason', () => {
    const e: OrderTimelineEntry = {
      kind: 'state',
      at: '',
      reportId: null,
      execId: 'R1',
      execType: '8',
      ordStatus: '8',
      previousStatus: null,
      lastQty: null,
      lastPx: null,
      cumQty: null,
      leavesQty: null,
      ordRejReason: 1,
      text: 'Unknown symbol NOPE',
      fixMessageId: 2,
    };
    assert.deepEqual(timelineLine(e), {
      actor: 'State',
      title: 'Refused at intake: Rejected',
      details: ['Unknown symbol (1)', 'Unknown symbol NOPE'],
      tone: 'reject',
    });
  });

  it("a report's copies to drop copy sessions: sent under their number, or waiting", () => {
    const e: OrderTimelineEntry = {
      kind: 'state',
      at: '',
      reportId: 12,
      execId: 'E2',
      execType: '0',
      ordStatus: '0',
      previousStatus: 'A',
      lastQty: '0',
      lastPx: '0',
      cumQty: '0',
      leavesQty: '10',
      ordRejReason: null,
      text: null,
      fixMessageId: 3,
      copies: [
        { session: 'MIDDLE_OFFICE', sentAt: '2026-03-15T10:00:05.100000Z', seqNum: 44 },
        { session: 'BACK_OFFICE', sentAt: null, seqNum: null },
      ],
    };
    assert.deepEqual(timelineLine(e).details, [
      'Accepted · ExecID E2',
      'Filled 0, leaves 10',
      'Copy to MIDDLE_OFFICE: sent, seq 44',
      'Copy to BACK_OFFICE: waiting',
    ]);
  });

  it('a refusal at intake lists its copies too (it has no report row, its copies carry its facts)', () => {
    const e: OrderTimelineEntry = {
      kind: 'state',
      at: '',
      reportId: null,
      execId: 'E9',
      execType: '8',
      ordStatus: '8',
      previousStatus: null,
      lastQty: null,
      lastPx: null,
      cumQty: null,
      leavesQty: null,
      ordRejReason: 1,
      text: 'Unknown symbol NOSUCH',
      fixMessageId: null,
      copies: [{ session: 'MIDDLE_OFFICE', sentAt: null, seqNum: null }],
    };
    const line = timelineLine(e);
    assert.equal(line.title, 'Refused at intake: Rejected');
    assert.deepEqual(line.details.slice(1), ['Unknown symbol NOSUCH', 'Copy to MIDDLE_OFFICE: waiting']);
  });

  it('a user action says who, what and the notes', () => {
    const e: OrderTimelineEntry = {
      kind: 'action',
      at: '',
      actionId: 3,
      actionType: 'PARTIAL_FILL',
      userId: 'broker',
      notes: 'by phone',
      fillQty: '5',
      fillPrice: '27000.5',
      legIndex: null,
      fixMessageId: null,
    };
    assert.deepEqual(timelineLine(e), {
      actor: 'broker',
      title: 'PARTIAL FILL',
      details: ['5 @ 27,000.50', 'Notes: by phone'],
      tone: 'action',
    });
  });
});
