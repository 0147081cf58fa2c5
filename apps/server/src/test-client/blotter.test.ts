import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serializeFixMessage } from '@fixdesk/domain';
import { FixParser } from '@fixdesk/fix';
import { ClientBlotter, fixTimeToIso } from './blotter';

const parser = new FixParser(undefined, { validate: false });
const msg = (msgType: string, body: Array<[number, string]>) =>
  parser.parse(Buffer.from(serializeFixMessage([[35, msgType], ...body]), 'latin1'));
const at = (s: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, s));

const newOrder = (clOrdId: string, qty = '10') =>
  msg('D', [
    [11, clOrdId],
    [38, qty],
    [40, '2'],
    [44, '27000'],
    [54, '1'],
    [55, 'C5TC'],
    [59, '0'],
    [60, '20260105-10:00:00'],
    [200, '202603'],
    [453, '2'],
    [448, 'LEI1'],
    [447, 'D'],
    [452, '7'],
    [448, 'Mei'],
    [447, 'D'],
    [452, '11'],
  ]);
const report = (
  clOrdId: string,
  execId: string,
  execType: string,
  ordStatus: string,
  o: {
    cum?: string;
    leaves?: string;
    avg?: string;
    lastQty?: string;
    lastPx?: string;
    orig?: string;
    qty?: string;
    px?: string;
    text?: string;
  } = {},
) => {
  const body: Array<[number, string]> = [
    [6, o.avg ?? '0'],
    [11, clOrdId],
    [14, o.cum ?? '0'],
    [17, execId],
    [37, 'BO00000001'],
    [38, o.qty ?? '10'],
    [39, ordStatus],
  ];
  if (o.orig) body.push([41, o.orig]);
  if (o.px) body.push([44, o.px]);
  if (o.lastQty) body.push([32, o.lastQty], [31, o.lastPx ?? '0']);
  body.push([54, '1'], [55, 'C5TC']);
  if (o.text) body.push([58, o.text]);
  body.push([60, '20260105-10:00:01.250'], [150, execType], [151, o.leaves ?? '10']);
  return msg('8', body);
};

describe('the simulated client blotter', () => {
  it('folds an order with its reports and counts it', () => {
    const b = new ClientBlotter();
    b.applySent(newOrder('SGX-1.1'), 5, at(0));
    let o = b.order('SGX-1.1')!;
    assert.equal(o.ordstatus, null, 'Sent until the first report');
    assert.equal(o.tradername, 'Mei');
    assert.equal(o.parties.length, 2);
    assert.deepEqual(b.counters(), { sent: 1, pending: 1, filled: 0, completed: 0 });
    b.applyReceived(report('SGX-1.1', 'E1', 'A', 'A'), 3, at(1));
    b.applyReceived(report('SGX-1.1', 'E2', '0', '0'), 4, at(2));
    b.applyReceived(report('SGX-1.1', 'E3', 'F', '1', { cum: '4', leaves: '6', avg: '26990', lastQty: '4', lastPx: '26990' }), 5, at(3));
    const dup = b.applyReceived(report('SGX-1.1', 'E3', 'F', '1', { cum: '4', leaves: '6' }), 5, at(3));
    assert.equal(dup, null, 'a resent report (same ExecID) changes nothing');
    b.applyReceived(report('SGX-1.1', 'E4', 'F', '2', { cum: '10', leaves: '0', avg: '26996', lastQty: '6', lastPx: '27000' }), 6, at(4));
    o = b.order('SGX-1.1')!;
    assert.deepEqual(
      [o.ordstatus, o.cumqty, o.leavesqty, o.avgpx, o.lastqty, o.lastpx, o.brokerorderid],
      ['2', '10', '0', '26996', '6', '27000', 'BO00000001'],
    );
    assert.equal(o.transacttime, '2026-01-05T10:00:01.250Z');
    assert.deepEqual(b.counters(), { sent: 1, pending: 0, filled: 1, completed: 0 });
    b.applyReceived(report('SGX-1.1', 'E5', '3', '3', { cum: '10', leaves: '0' }), 7, at(5));
    assert.deepEqual(b.counters(), { sent: 1, pending: 0, filled: 0, completed: 1 });
    assert.deepEqual(
      b.listExecutions().map((e) => e.execid),
      ['E1', 'E2', 'E3', 'E4', 'E5'],
    );
  });

  it('follows a cancel and a replace through their own ClOrdIDs', () => {
    const b = new ClientBlotter();
    b.applySent(newOrder('A.1'), 1, at(0));
    b.applyReceived(report('A.1', 'X1', '0', '0'), 1, at(1));
    b.applySent(
      msg('G', [
        [11, 'A.2'],
        [38, '12'],
        [40, '2'],
        [41, 'A.1'],
        [44, '26500'],
        [54, '1'],
        [55, 'C5TC'],
        [60, '20260105-10:00:00'],
      ]),
      2,
      at(2),
    );
    assert.equal(b.order('A.2')?.pendingRequest?.type, 'G');
    b.applyReceived(report('A.2', 'X2', 'E', 'E', { orig: 'A.1' }), 2, at(3));
    assert.equal(b.order('A.1')?.pendingRequest?.clOrdId, 'A.2', 'still waiting for the decision');
    b.applyReceived(report('A.2', 'X3', '5', '0', { orig: 'A.1', qty: '12', px: '26500', leaves: '12' }), 3, at(4));
    const o = b.order('A.1')!;
    assert.deepEqual([o.id, o.clordid, o.origclordid, o.orderqty, o.price, o.pendingRequest], ['A.1', 'A.2', 'A.1', '12', '26500', null]);

    b.applySent(
      msg('F', [
        [11, 'A.3'],
        [38, '12'],
        [41, 'A.2'],
        [54, '1'],
        [55, 'C5TC'],
        [60, '20260105-10:00:00'],
      ]),
      3,
      at(5),
    );
    const rej = b.applyReceived(
      msg('9', [
        [11, 'A.3'],
        [37, 'BO00000001'],
        [39, '0'],
        [41, 'A.2'],
        [58, 'Too late to cancel'],
        [434, '1'],
      ]),
      4,
      at(6),
    );
    assert.equal(rej?.execution?.msgtype, '9');
    assert.equal(rej?.execution?.text, 'Too late to cancel');
    assert.equal(b.order('A.1')?.pendingRequest, null, 'a cancel reject ends the request');
    assert.equal(b.order('A.1')?.ordstatus, '0');
  });

  it('marks an order the session or business layer refused', () => {
    const b = new ClientBlotter();
    b.applySent(newOrder('R.1'), 9, at(0));
    b.applyReceived(
      msg('3', [
        [45, '9'],
        [58, 'Required tag missing'],
        [371, '54'],
        [372, 'D'],
        [373, '1'],
      ]),
      2,
      at(1),
    );
    const o = b.order('R.1')!;
    assert.equal(o.ordstatus, '8');
    assert.equal(o.text, 'Session Reject: Required tag missing');
    assert.deepEqual(b.counters(), { sent: 1, pending: 0, filled: 0, completed: 1 });
  });

  it('keeps a row for reports about orders sent before its history starts, and forgets a send that failed', () => {
    const b = new ClientBlotter();
    b.applyReceived(report('OLD.1', 'Z1', '0', '0', { qty: '5', leaves: '5' }), 1, at(0));
    assert.equal(b.order('OLD.1')?.orderqty, '5');
    b.applySent(newOrder('N.1'), 0, at(1));
    b.forget('N.1');
    assert.equal(b.order('N.1'), undefined);
    assert.equal(b.hasClOrdId('N.1'), false);
  });

  it('reads FIX timestamps', () => {
    assert.equal(fixTimeToIso('20260105-10:00:01'), '2026-01-05T10:00:01.000Z');
    assert.equal(fixTimeToIso('20260105-10:00:01.5'), '2026-01-05T10:00:01.500Z');
    assert.equal(fixTimeToIso(null), null);
  });
});
