import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FixMessageRecord, ParsedFixField } from '@fixdesk/protocol';
import { csvText, FIX_MESSAGE_CSV_FIELDS, rawForDisplay } from '@fixdesk/client';
import { msgTypeLabel } from '@fixdesk/domain';
import Papa from 'papaparse';
import { fixMessageColumns, legsOf, matchesFixMessage } from './fixMessageColumns';

const RAW = '8=FIX.4.4\x019=60\x0135=D\x0149=SGX_CLIENT_1\x0156=FIXDESK\x0111==cmd|calc\x0110=123\x01';
const msg = (over: Partial<FixMessageRecord> = {}): FixMessageRecord => ({
  id: 9,
  timestamp: '2026-03-15T09:30:01.200Z',
  transacttime: '2026-03-15T09:30:01.123Z',
  direction: 'RX',
  msgtype: 'D',
  msgseqnum: 12,
  sender_comp_id: 'SGX_CLIENT_1',
  target_comp_id: 'FIXDESK',
  clordid: '=cmd|calc',
  brokerorderid: 'BO00000003',
  poss_dup: false,
  raw_fix: RAW,
  ...over,
});

describe('FIX Messages columns', () => {
  it('have the spec columns in order', () => {
    assert.deepEqual(
      fixMessageColumns('UTC').map((c) => c.header),
      ['ID', 'TransactTime', 'Direction', 'Msg Type', 'Seq Num', 'Sender', 'Target', 'Client Order ID', 'Broker Order ID', 'View Raw'],
    );
  });

  it('name message types and show SOH as |', () => {
    assert.equal(msgTypeLabel('8'), '8 · Execution Report');
    assert.equal(msgTypeLabel('AB'), 'AB · New Order Multileg');
    assert.equal(msgTypeLabel('j'), 'j · Business Message Reject');
    assert.equal(msgTypeLabel('ZZ'), 'ZZ');
    assert.equal(rawForDisplay(RAW), '8=FIX.4.4|9=60|35=D|49=SGX_CLIENT_1|56=FIXDESK|11==cmd|calc|10=123|');
    assert.equal(rawForDisplay(null), '');
  });

  it("the server's file has the table's columns, one for one and in order", () => {
    assert.deepEqual(
      FIX_MESSAGE_CSV_FIELDS.map((f) => f.id),
      fixMessageColumns('UTC').map((c) => c.id),
    );
  });

  it('export UTC times, the raw message and neutralised cells', () => {
    const [head, row] = Papa.parse<string[]>(csvText(FIX_MESSAGE_CSV_FIELDS, [msg()])).data;
    assert.deepEqual(head, [
      'ID',
      'TransactTime (UTC)',
      'Direction',
      'Msg Type',
      'Seq Num',
      'Sender',
      'Target',
      'Client Order ID',
      'Broker Order ID',
      'Raw Message',
    ]);
    assert.equal(row![1], '2026-03-15T09:30:01.123Z');
    assert.equal(row![3], 'D · New Order Single');
    assert.equal(row![7], "'=cmd|calc");
    assert.equal(row![9], rawForDisplay(RAW));
  });

  it('filter on ClOrdID, sender, target, msg type and direction', () => {
    for (const hit of ['cmd', 'sgx_client', 'fixdesk', 'd', 'new order', 'rx']) assert.equal(matchesFixMessage(msg(), hit), true, hit);
    assert.equal(matchesFixMessage(msg(), 'tx'), false);
    assert.equal(matchesFixMessage(msg(), 'BO00000003'), false, 'broker order id is not one of the filtered fields');
  });

  it('collect legs from the NoLegs entries only', () => {
    const f = (tag: number, value: string, groups: ParsedFixField['groups']): ParsedFixField => ({
      tag,
      value,
      name: null,
      type: null,
      required: false,
      valueName: null,
      validValues: null,
      description: null,
      section: 'body',
      groups,
    });
    const leg = (n: number) => ({ countTag: 555, entry: n, label: `Leg ${n}` });
    const legs = legsOf([
      f(555, '2', []),
      f(600, 'FE', [leg(1)]),
      f(624, '1', [leg(1)]),
      f(448, 'X', [leg(1), { countTag: 539, entry: 1, label: 'Nested Party 1' }]),
      f(600, 'FE', [leg(2)]),
      f(448, 'T', [{ countTag: 453, entry: 1, label: 'Party 1' }]),
    ]);
    assert.deepEqual(
      legs.map((l) => [l.leg, [...l.fields.keys()]]),
      [
        [1, [600, 624]],
        [2, [600]],
      ],
    );
    assert.deepEqual(legsOf([]), []);
  });
});
