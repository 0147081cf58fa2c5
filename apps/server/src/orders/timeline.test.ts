import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FixMessageRow, OrderTimelineRows } from '@fixdesk/db';
import { buildTimeline, fixFields } from './timeline';

const SOH = '\x01';
const raw = (fields: Array<[number, string]>) => fields.map(([t, v]) => `${t}=${v}`).join(SOH) + SOH;

function msg(id: number, at: string, direction: 'TX' | 'RX', fields: Array<[number, string]>): FixMessageRow {
  return {
    id,
    created_at: at,
    direction,
    msg_type: fields.find(([t]) => t === 35)![1],
    msg_seq_num: id,
    sender_comp_id: 'FIXDESK',
    target_comp_id: 'SGX_CLIENT_1',
    clordid: 'C1',
    brokerorderid: direction === 'TX' ? 'BO1' : null,
    poss_dup: false,
    sending_time: null,
    raw_fix: raw(fields),
  };
}

const order = {
  id: 7,
  brokerorderid: 'BO1',
  clordid: 'C1',
  sendercompid: 'SGX_CLIENT_1',
  targetcompid: 'FIXDESK',
  ordstatus: '0',
  created_at: '2026-03-15T10:00:00.000100Z',
  refused: false,
  ordrejreason: null,
  reject_text: null,
  refusal_execid: null,
};

describe('order timeline', () => {
  it('reads the tags of a raw message, the first of each', () => {
    assert.deepEqual(
      fixFields(
        raw([
          [35, '8'],
          [150, '0'],
          [58, 'a=b'],
          [150, 'X'],
        ]),
        ['150', '58'],
      ),
      { '150': '0', '58': 'a=b' },
    );
  });

  it('merges messages, state changes and actions in time order, links each change and action to its message', () => {
    const rows: OrderTimelineRows = {
      order,
      messages: [
        msg(1, '2026-03-15T10:00:00.000000Z', 'RX', [
          [35, 'D'],
          [11, 'C1'],
        ]),
        msg(2, '2026-03-15T10:00:00.001000Z', 'TX', [
          [35, '8'],
          [17, 'E1'],
          [150, 'A'],
          [39, 'A'],
        ]),
        msg(3, '2026-03-15T10:00:05.000000Z', 'TX', [
          [35, '8'],
          [17, 'E2'],
          [150, '0'],
          [39, '0'],
        ]),
      ],
      reports: [
        {
          id: 11,
          at: '2026-03-15T10:00:00.000500Z',
          execid: 'E1',
          clordid: 'C1',
          origclordid: null,
          exectype: 'A',
          ordstatus: 'A',
          lastqty: '0',
          lastpx: '0',
          cumqty: '0',
          leavesqty: '10',
          avgpx: '0',
          leg_index: null,
          ordrejreason: null,
          text: null,
          sent_at: null,
        },
        {
          id: 12,
          at: '2026-03-15T10:00:04.999999Z',
          execid: 'E2',
          clordid: 'C1',
          origclordid: null,
          exectype: '0',
          ordstatus: '0',
          lastqty: '0',
          lastpx: '0',
          cumqty: '0',
          leavesqty: '10',
          avgpx: '0',
          leg_index: null,
          ordrejreason: null,
          text: null,
          sent_at: null,
        },
      ],
      actions: [
        {
          id: 21,
          at: '2026-03-15T10:00:04.999999Z',
          action_type: 'ACCEPT',
          user_id: 'broker',
          notes: 'ok',
          fill_qty: null,
          fill_price: null,
          leg_index: null,
          action_data: {},
        },
      ],
      // The accept copied to two drop copy sessions: one sent, one waiting.
      copies: [
        { report_id: 12, session: 'MIDDLE_OFFICE', sent_at: '2026-03-15T10:00:05.100000Z', sent_seq_num: 44 },
        { report_id: 12, session: 'BACK_OFFICE', sent_at: null, sent_seq_num: null },
      ],
    };
    const tl = buildTimeline(rows, (m) => ({ id: m.id, direction: m.direction }) as never);
    assert.deepEqual(
      tl.entries.map((e) => `${e.kind}:${e.kind === 'fix' ? e.message.id : e.kind === 'state' ? e.ordStatus : e.actionType}`),
      ['fix:1', 'state:A', 'fix:2', 'state:0', 'action:ACCEPT', 'fix:3'],
    );
    const states = tl.entries.filter((e) => e.kind === 'state');
    assert.deepEqual(
      states.map((s) => [s.previousStatus, s.fixMessageId]),
      [
        [null, 2],
        ['A', 3],
      ],
    );
    const action = tl.entries.find((e) => e.kind === 'action');
    assert.equal(action?.kind === 'action' && action.fixMessageId, 3, 'the action shares its report’s instant and so its message');
    assert.deepEqual(
      states.map((s) => s.copies),
      [
        undefined,
        [
          { session: 'MIDDLE_OFFICE', sentAt: '2026-03-15T10:00:05.100000Z', seqNum: 44 },
          { session: 'BACK_OFFICE', sentAt: null, seqNum: null },
        ],
      ],
    );
  });

  it('an order refused at intake: its refusal is the one state change, linked to the reply by its ExecID', () => {
    const rows: OrderTimelineRows = {
      order: {
        ...order,
        brokerorderid: '',
        refused: true,
        ordstatus: '8',
        ordrejreason: 1,
        reject_text: 'Unknown symbol',
        refusal_execid: 'R9',
        created_at: '2026-03-15T10:00:00.002000Z',
      },
      messages: [
        msg(1, '2026-03-15T10:00:00.000000Z', 'RX', [[35, 'D']]),
        msg(2, '2026-03-15T10:00:00.001000Z', 'TX', [
          [35, '8'],
          [17, 'R9'],
          [150, '8'],
        ]),
      ],
      reports: [],
      actions: [],
      copies: [],
    };
    const tl = buildTimeline(rows, (m) => ({ id: m.id, direction: m.direction }) as never);
    assert.equal(tl.refused, true);
    const state = tl.entries.at(-1)!;
    assert.ok(state.kind === 'state');
    assert.deepEqual([state.ordStatus, state.ordRejReason, state.text, state.fixMessageId], ['8', 1, 'Unknown symbol', 2]);
  });
});
