import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axesContracts, axesCounters, axesRowsOf, deriveAxes, filterAxes, formatRowAge, type AxesOrderInput } from './axes';

let nextId = 1;
function order(over: Partial<AxesOrderInput> = {}): AxesOrderInput {
  const id = over.id ?? nextId++;
  return {
    id,
    brokerorderid: `B${id}`,
    ordstatus: '0',
    leavesqty: '10',
    orderqty: '10',
    sendercompid: 'SGX_CLIENT_1',
    symbol: 'C5TC',
    maturity_month_year: '202701',
    price: '27000',
    side: '1',
    exchange: 'SGX',
    accepted_by: 'broker',
    created_at: '2026-11-26T01:00:00.000Z',
    legs: [],
    ...over,
  };
}

describe('axes board: order book derivation', () => {
  it('excludes Canceled (4), Rejected (8) and Filled (2) orders and any with no remaining quantity', () => {
    for (const ordstatus of ['4', '8', '2']) assert.deepEqual(axesRowsOf(order({ ordstatus })), [], ordstatus);
    assert.deepEqual(axesRowsOf(order({ leavesqty: '0' })), [], 'leaves 0');
    assert.deepEqual(axesRowsOf(order({ ordstatus: '3', leavesqty: '0' })), [], 'done for day, nothing left');
    for (const ordstatus of ['A', '0', '1', '6', 'E']) assert.equal(axesRowsOf(order({ ordstatus })).length, 1, ordstatus);
  });

  it('takes the leaves quantity, else the order quantity', () => {
    assert.equal(axesRowsOf(order({ leavesqty: '4', orderqty: '10' }))[0]!.quantity, 4);
    assert.equal(axesRowsOf(order({ leavesqty: null, orderqty: '7' }))[0]!.quantity, 7);
    assert.deepEqual(axesRowsOf(order({ leavesqty: null, orderqty: '0' })), []);
  });

  it('side 1 is a buyer, side 2 a seller', () => {
    const book = deriveAxes([order({ side: '1' }), order({ side: '2' }), order({ side: '2' })]);
    assert.equal(book.buyers.length, 1);
    assert.equal(book.sellers.length, 2);
    assert.ok(book.buyers.every((r) => r.side === '1') && book.sellers.every((r) => r.side === '2'));
  });

  it('splits a multileg order per leg on each leg on its own side, quantity times ratio, ratio default 1', () => {
    const o = order({
      id: 500,
      symbol: 'C5TC-SPREAD',
      leavesqty: '6',
      orderqty: '10',
      legs: [
        { legIndex: 0, symbol: 'C5TC', side: '1', ratio: '2', legMaturityMonthYear: '202701' },
        { legIndex: 1, symbol: 'C5TC', side: '2', ratio: null, legMaturityMonthYear: '202702' },
        { legIndex: 2, symbol: 'P4TC', side: '2', ratio: '', legMaturityMonthYear: '202701' },
      ],
    });
    const book = deriveAxes([o]);
    assert.deepEqual(
      book.buyers.map((r) => [r.key, r.symbol, r.maturity, r.quantity]),
      [['500-0', 'C5TC', '202701', 12]],
    );
    assert.deepEqual(
      book.sellers.map((r) => [r.key, r.symbol, r.maturity, r.quantity]),
      [
        ['500-1', 'C5TC', '202702', 6],
        ['500-2', 'P4TC', '202701', 6],
      ],
    );
    assert.deepEqual(axesCounters(book), { orders: 1, clients: 1, brokers: 1 });
  });

  it('orders by contract, then price priority (best bid highest, best offer lowest), then time', () => {
    const t = (m: number) => `2026-11-26T01:0${m}:00.000Z`;
    const b1 = order({ id: 11, side: '1', price: '100', created_at: t(1) });
    const b2 = order({ id: 12, side: '1', price: '101', created_at: t(2) });
    const b3 = order({ id: 13, side: '1', price: '100', created_at: t(0) });
    const s1 = order({ id: 21, side: '2', price: '105', created_at: t(1) });
    const s2 = order({ id: 22, side: '2', price: '104', created_at: t(2) });
    const other = order({ id: 30, side: '1', price: '999', symbol: 'AAA', created_at: t(3) });
    const book = deriveAxes([b1, b2, b3, s1, s2, other]);
    assert.deepEqual(
      book.buyers.map((r) => r.orderId),
      [30, 12, 13, 11],
    );
    assert.deepEqual(
      book.sellers.map((r) => r.orderId),
      [22, 21],
    );
    // The same input in another order gives the same board (stable: nothing jumps).
    assert.deepEqual(deriveAxes([s2, other, b3, s1, b2, b1]), book);
    const c5 = axesContracts(book).find((c) => c.symbol === 'C5TC')!;
    assert.equal(c5.bestBid?.orderId, 12);
    assert.equal(c5.bestOffer?.orderId, 22);
    assert.equal(c5.spread, '3');
    assert.equal(axesContracts(book).find((c) => c.symbol === 'AAA')!.spread, undefined);
  });

  it('counts orders, clients and brokers; filters by exchange and symbol', () => {
    const book = deriveAxes([
      order({ sendercompid: 'A', accepted_by: null, exchange: 'SGX', symbol: 'C5TC' }),
      order({ sendercompid: 'B', accepted_by: 'ann', exchange: 'EEX', symbol: 'P4TC' }),
      order({ sendercompid: 'B', accepted_by: 'bob', exchange: 'EEX', symbol: 'C5TC', side: '2' }),
    ]);
    assert.deepEqual(axesCounters(book), { orders: 3, clients: 2, brokers: 2 });
    assert.equal(filterAxes(book, { exchange: 'EEX', symbol: '' }).buyers.length, 1);
    assert.equal(filterAxes(book, { exchange: 'Any', symbol: 'c5' }).buyers.length, 1);
    assert.equal(filterAxes(book, { exchange: 'Any', symbol: 'c5' }).sellers.length, 1);
    assert.equal(filterAxes(book, { exchange: 'SGX', symbol: 'P4' }).buyers.length, 0);
  });

  it('shows a row age in seconds, minutes, hours and days', () => {
    const at = Date.parse('2026-11-26T01:00:00.000Z');
    assert.equal(formatRowAge('2026-11-26T00:59:15.000Z', at), '45s');
    assert.equal(formatRowAge('2026-11-26T00:48:00.000Z', at), '12m');
    assert.equal(formatRowAge('2026-11-25T22:00:00.000Z', at), '3h');
    assert.equal(formatRowAge('2026-11-22T22:00:00.000Z', at), '3d');
  });
});
