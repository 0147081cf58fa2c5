import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Decimal } from './decimal';
import { ORD_STATUS_CODES, type OrdStatusCode } from './codes';
import { isAwaitingAcceptance, applyEvent, newOrderState, workingStatus, type ApplyResult, type OrderState } from './order-state';
import {
  ORDER_EVENT_TYPES,
  ORDER_TRANSITIONS,
  OPEN_ORD_STATUSES,
  TERMINAL_ORD_STATUSES,
  allowedEvents,
  type OrderEvent,
  type OrderEventType,
} from './order-transitions';
import {
  closedFillNote,
  ordStatusWithFills,
  BLOTTER_STATUS_LABELS,
  EXEC_TYPE_LABELS,
  ORD_STATUS_LABELS,
  blotterStatusLabel,
  clientOrdStatusLabel,
  execTypeLabel,
  ordStatusLabel,
} from './order-status-labels';

const D = (v: string | number) => Decimal.from(v);

/** A buy limit 10 @ 100 in the given status, with quantities that status implies. */
function orderIn(status: OrdStatusCode): OrderState {
  const base = newOrderState({ side: '1', ordType: '2', orderQty: 10, price: 100 });
  const partly = { cumQty: D(4), leavesQty: D(6), fillNotional: D(398), avgPx: D('99.5') };
  const shapes: Record<OrdStatusCode, Partial<OrderState>> = {
    A: {},
    '0': {},
    '1': partly,
    '2': { cumQty: D(10), leavesQty: D(0), fillNotional: D(995), avgPx: D('99.5') },
    '3': { ...partly, leavesQty: D(0) },
    '4': { ...partly, leavesQty: D(0) },
    '5': {},
    '6': partly,
    '8': { leavesQty: D(0) },
    C: { ...partly, leavesQty: D(0) },
    E: { ...partly, pendingReplace: { orderQty: D(12), price: D(101), ordType: '2' } },
  };
  return { ...base, ...shapes[status], ordStatus: status, awaitingAcceptance: status === 'A' };
}

const EVENTS: Record<OrderEventType, OrderEvent> = {
  accept: { type: 'accept' },
  reject: { type: 'reject', reason: 'Outside trading hours' },
  fill: { type: 'fill', qty: 2, px: 99 },
  legFill: { type: 'legFill', cumQty: 5, avgPx: '99.6', lastQty: 3, lastPx: 98 },
  doneForDay: { type: 'doneForDay' },
  cancelRequest: { type: 'cancelRequest' },
  cancelConfirm: { type: 'cancelConfirm' },
  cancelRefuse: { type: 'cancelRefuse', reason: 'Order is being worked' },
  replaceRequest: { type: 'replaceRequest', orderQty: 8, price: 100 },
  replaceConfirm: { type: 'replaceConfirm' },
  replaceRefuse: { type: 'replaceRefuse', reason: 'Market moved' },
  brokerCancel: { type: 'brokerCancel' },
  expire: { type: 'expire' },
};

/*
 * The expected outcome of every (status, event) pair, written independently of the table under test.
 * "S/X" = applied, new OrdStatus S, ExecutionReport ExecType X ("S/9" = OrderCancelReject with OrdStatus S);
 * NA = refused NOT_ALLOWED, TL = TOO_LATE, AP = ALREADY_PENDING.
 */
const GRID = `
status accept reject fill legFill doneForDay cancelRequest cancelConfirm cancelRefuse replaceRequest replaceConfirm replaceRefuse brokerCancel expire
A      0/0    8/8    NA   NA      NA         6/6           NA            NA           E/E            NA             NA            4/4          C/C
0      NA     NA     1/F  1/F     NA         6/6           NA            NA           E/E            NA             NA            4/4          C/C
1      NA     NA     1/F  1/F     3/3        6/6           NA            NA           E/E            NA             NA            4/4          C/C
2      TL     TL     TL   TL      3/3        TL            TL            TL           TL             TL             TL            TL           TL
3      TL     TL     TL   TL      TL         TL            TL            TL           TL             TL             TL            TL           TL
4      TL     TL     TL   TL      TL         TL            TL            TL           TL             TL             TL            TL           TL
5      TL     TL     TL   TL      TL         TL            TL            TL           TL             TL             TL            TL           TL
6      AP     AP     6/F  6/F     AP         AP            4/4           1/9          AP             NA             NA            4/4          C/C
8      TL     TL     TL   TL      TL         TL            TL            TL           TL             TL             TL            TL           TL
C      TL     TL     TL   TL      TL         TL            TL            TL           TL             TL             TL            TL           TL
E      AP     AP     E/F  E/F     AP         AP            NA            NA           AP             1/5            1/9           4/4          C/C
`;

const REFUSAL: Record<string, string> = { NA: 'NOT_ALLOWED', TL: 'TOO_LATE', AP: 'ALREADY_PENDING' };

function describeResult(r: ApplyResult): string {
  if (!r.ok) return r.code;
  return `${r.state.ordStatus}/${r.report.msgType === '9' ? '9' : r.report.execType}`;
}

describe('every (status, event) pair', () => {
  const lines = GRID.trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/));
  const header = lines[0]!.slice(1) as OrderEventType[];
  it('the grid covers every status and every event', () => {
    assert.deepEqual([...header].sort(), [...ORDER_EVENT_TYPES].sort());
    assert.deepEqual(
      lines
        .slice(1)
        .map((l) => l[0])
        .sort(),
      [...ORD_STATUS_CODES].sort(),
    );
  });
  for (const row of lines.slice(1)) {
    const status = row[0] as OrdStatusCode;
    header.forEach((event, i) => {
      const expected = row[i + 1]!;
      it(`${status} + ${event} → ${expected}`, () => {
        const result = applyEvent(orderIn(status), EVENTS[event]);
        assert.equal(describeResult(result), REFUSAL[expected] ?? expected, JSON.stringify(result));
        if (!result.ok) assert.ok(result.reason.length > 0);
        if (!result.ok) assert.equal(result.ordStatus, status);
      });
    });
  }

  it('the table has one row per (from, event) and names only real statuses', () => {
    const keys = ORDER_TRANSITIONS.map((tr) => `${tr.from}:${tr.event}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const tr of ORDER_TRANSITIONS) {
      assert.ok(ORD_STATUS_CODES.includes(tr.from));
      assert.ok(ORDER_EVENT_TYPES.includes(tr.event));
    }
  });

  it('terminal statuses have no way out except done-for-day on a filled order', () => {
    for (const s of TERMINAL_ORD_STATUSES) {
      assert.deepEqual(allowedEvents(s), s === '2' ? ['doneForDay'] : []);
    }
    for (const s of OPEN_ORD_STATUSES) assert.ok(allowedEvents(s).length > 0);
    assert.deepEqual(allowedEvents('A'), ['accept', 'reject', 'cancelRequest', 'replaceRequest', 'brokerCancel', 'expire']);
  });
});

describe('the documented lifecycle (spec 001 §4)', () => {
  it('D → Pending New → New → Partial → Fill → Done for Day', () => {
    let s = newOrderState({ side: '1', ordType: '2', orderQty: '10', price: '27000' });
    assert.equal(s.ordStatus, 'A');
    assert.equal(s.leavesQty.toString(), '10');

    let r = applyEvent(s, { type: 'accept' });
    assert.ok(r.ok);
    assert.deepEqual(r.report, { msgType: '8', execType: '0', ordStatus: '0' });
    s = r.state;

    r = applyEvent(s, { type: 'fill', qty: '3', px: '26950' });
    assert.ok(r.ok);
    assert.deepEqual(r.report, { msgType: '8', execType: 'F', ordStatus: '1' });
    assert.equal(r.state.cumQty.toString(), '3');
    assert.equal(r.state.leavesQty.toString(), '7');
    assert.equal(r.state.lastQty.toString(), '3');
    assert.equal(r.state.lastPx.toString(), '26950');
    assert.equal(r.state.avgPx.toString(), '26950');
    s = r.state;

    r = applyEvent(s, { type: 'fill', qty: 7, px: 27000 });
    assert.ok(r.ok);
    assert.deepEqual(r.report, { msgType: '8', execType: 'F', ordStatus: '2' });
    assert.equal(r.state.leavesQty.toString(), '0');
    assert.ok(r.state.cumQty.eq(r.state.orderQty));
    assert.equal(r.state.avgPx.toString(), '26985'); // (3·26950 + 7·27000) / 10
    s = r.state;

    r = applyEvent(s, { type: 'doneForDay' });
    assert.ok(r.ok);
    assert.deepEqual(r.report, { msgType: '8', execType: '3', ordStatus: '3' });
    assert.equal(r.state.lastQty.toString(), '0');
  });

  it('reject carries OrdRejReason and the trimmed text, leaves 0', () => {
    const r = applyEvent(newOrderState({ side: '2', ordType: '1', orderQty: 5 }), { type: 'reject', reason: '  Credit limit  ' });
    assert.ok(r.ok);
    assert.deepEqual(r.report, { msgType: '8', execType: '8', ordStatus: '8', ordRejReason: '0', text: 'Credit limit' });
    assert.equal(r.state.leavesQty.toString(), '0');
    const r2 = applyEvent(newOrderState({ side: '2', ordType: '1', orderQty: 5 }), { type: 'reject', reason: 'x', ordRejReason: '1' });
    assert.ok(r2.ok && r2.report.msgType === '8' && r2.report.ordRejReason === '1');
  });

  it('reject needs a reason', () => {
    for (const reason of ['', '   ']) {
      const r = applyEvent(orderIn('A'), { type: 'reject', reason });
      assert.ok(!r.ok);
      assert.equal(r.code, 'REASON_REQUIRED');
      assert.equal(r.reason, 'Rejection reason is required');
    }
  });
});

describe('fills', () => {
  it('refuse quantities with the spec texts', () => {
    const s = orderIn('1');
    const cases: [OrderEvent, string][] = [
      [{ type: 'fill', qty: 0, px: 99 }, 'Fill quantity must be greater than 0'],
      [{ type: 'fill', qty: -1, px: 99 }, 'Fill quantity must be greater than 0'],
      [{ type: 'fill', qty: 'abc', px: 99 }, 'Fill quantity must be greater than 0'],
      [{ type: 'fill', qty: 7, px: 99 }, 'Fill quantity 7 exceeds remaining quantity 6'],
      [{ type: 'fill', qty: '1.5', px: 99 }, 'Fill quantity 1.5 must be a whole number of lots'],
    ];
    for (const [event, reason] of cases) {
      const r = applyEvent(s, event);
      assert.ok(!r.ok);
      assert.equal(r.code, 'INVALID_QUANTITY');
      assert.equal(r.reason, reason);
    }
  });

  it('refuse prices through the limit on either side, allow at the limit', () => {
    const buy = orderIn('0');
    const r1 = applyEvent(buy, { type: 'fill', qty: 1, px: '100.01' });
    assert.ok(!r1.ok);
    assert.equal(r1.code, 'INVALID_PRICE');
    assert.equal(r1.reason, 'Buy order fill price 100.01 exceeds limit price 100 (must be ≤)');
    assert.ok(applyEvent(buy, { type: 'fill', qty: 1, px: 100 }).ok);

    const sell = { ...buy, side: '2' as const };
    const r2 = applyEvent(sell, { type: 'fill', qty: 1, px: '99.99' });
    assert.ok(!r2.ok);
    assert.equal(r2.reason, 'Sell order fill price 99.99 is below limit price 100 (must be ≥)');
    assert.ok(applyEvent(sell, { type: 'fill', qty: 1, px: 100 }).ok);

    const r3 = applyEvent(buy, { type: 'fill', qty: 1, px: 'x' });
    assert.ok(!r3.ok);
    assert.equal(r3.code, 'INVALID_PRICE');
  });

  it('market orders have no limit; spreads may fill at zero or below', () => {
    const market = newOrderState({ side: '1', ordType: '1', orderQty: 5, price: 123 });
    assert.equal(market.price, null);
    const accepted = applyEvent(market, { type: 'accept' });
    assert.ok(accepted.ok);
    assert.ok(applyEvent(accepted.state, { type: 'fill', qty: 1, px: 1_000_000 }).ok);

    const spread = { ...orderIn('0'), price: D(-50), side: '2' as const };
    const r = applyEvent(spread, { type: 'fill', qty: 2, px: '-25' });
    assert.ok(r.ok);
    assert.equal(r.state.avgPx.toString(), '-25');
  });

  it('average price stays exact across many fills', () => {
    let s = orderIn('0');
    s = { ...s, orderQty: D(3), leavesQty: D(3), price: D(101) };
    for (const px of ['100.1', '100.2', '100.4']) {
      const r = applyEvent(s, { type: 'fill', qty: 1, px });
      assert.ok(r.ok);
      s = r.state;
    }
    assert.equal(s.fillNotional.toString(), '300.7');
    assert.equal(s.avgPx.toString(), '100.23333333');
    assert.equal(s.ordStatus, '2');
  });

  it('executions continue while a cancel is pending; the cancel then fails if nothing is left', () => {
    let r = applyEvent(orderIn('6'), { type: 'fill', qty: 6, px: 100 });
    assert.ok(r.ok);
    assert.equal(r.state.ordStatus, '6'); // Pending Cancel outranks Filled
    assert.equal(r.state.leavesQty.toString(), '0');
    assert.equal(workingStatus(r.state), '2');
    const confirm = applyEvent(r.state, { type: 'cancelConfirm' });
    assert.ok(!confirm.ok);
    assert.equal(confirm.code, 'TOO_LATE');
    assert.equal(confirm.cxlRejReason, '0');
    r = applyEvent(r.state, { type: 'cancelRefuse', reason: 'Order filled' });
    assert.ok(r.ok);
    assert.deepEqual(r.report, { msgType: '9', ordStatus: '2', cxlRejResponseTo: '1', cxlRejReason: '2', text: 'Order filled' });
    const again = applyEvent(r.state, { type: 'fill', qty: 1, px: 100 });
    assert.ok(!again.ok);
    assert.equal(again.reason, 'Order is already fully filled');
  });

  it('a pending cancel over a fully filled order refuses further fills', () => {
    const s = { ...orderIn('6'), cumQty: D(10), leavesQty: D(0) };
    const r = applyEvent(s, { type: 'fill', qty: 1, px: 100 });
    assert.ok(!r.ok);
    assert.equal(r.reason, 'Order is already fully filled');
  });

  it('pending new orders cannot be filled', () => {
    const r = applyEvent(orderIn('A'), EVENTS.fill);
    assert.ok(!r.ok);
    assert.equal(r.reason, 'Order must be accepted before it can be filled');
  });
});

describe('cancel', () => {
  it('request then confirm: leaves 0, cum kept', () => {
    const req = applyEvent(orderIn('1'), { type: 'cancelRequest' });
    assert.ok(req.ok);
    assert.deepEqual(req.report, { msgType: '8', execType: '6', ordStatus: '6' });
    const done = applyEvent(req.state, { type: 'cancelConfirm' });
    assert.ok(done.ok);
    assert.deepEqual(done.report, { msgType: '8', execType: '4', ordStatus: '4' });
    assert.equal(done.state.cumQty.toString(), '4');
    assert.equal(done.state.leavesQty.toString(), '0');
  });

  it('refusal returns to the working status and needs a reason', () => {
    const none = applyEvent(orderIn('6'), { type: 'cancelRefuse', reason: ' ' });
    assert.ok(!none.ok);
    assert.equal(none.code, 'REASON_REQUIRED');
    const fresh = { ...orderIn('6'), cumQty: D(0), leavesQty: D(10) };
    const r = applyEvent(fresh, { type: 'cancelRefuse', reason: 'No' });
    assert.ok(r.ok);
    assert.equal(r.state.ordStatus, '0');
  });

  it('client requests get OrderCancelReject reasons', () => {
    // An order the broker has not accepted yet can be canceled (see below); a second request cannot.
    const twice = applyEvent(orderIn('6'), { type: 'cancelRequest' });
    assert.ok(!twice.ok);
    assert.equal(twice.cxlRejReason, '3');
    assert.equal(twice.reason, 'Order already has a pending cancel request awaiting the broker');
    const filled = applyEvent(orderIn('2'), { type: 'cancelRequest' });
    assert.ok(!filled.ok);
    assert.equal(filled.cxlRejReason, '0');
    assert.equal(filled.reason, 'Too late to cancel: order is Filled');
    const replaceFilled = applyEvent(orderIn('4'), { type: 'replaceRequest', orderQty: 5 });
    assert.ok(!replaceFilled.ok);
    assert.equal(replaceFilled.reason, 'Too late to replace: order is Canceled');
  });

  it('broker cancel and expire carry an optional text and clear a pending replace', () => {
    const r = applyEvent(orderIn('E'), { type: 'brokerCancel', reason: ' End of market ' });
    assert.ok(r.ok);
    assert.deepEqual(r.report, { msgType: '8', execType: '4', ordStatus: '4', text: 'End of market' });
    assert.equal(r.state.pendingReplace, null);
    const e = applyEvent(orderIn('1'), { type: 'expire' });
    assert.ok(e.ok);
    assert.equal(e.state.leavesQty.toString(), '0');
    assert.equal(e.state.cumQty.toString(), '4');
  });

  it('broker cancel and expire refuse an order with nothing left (filled under a pending request)', () => {
    const s = { ...orderIn('E'), cumQty: D(10), leavesQty: D(0) };
    assert.equal(applyEvent(s, { type: 'brokerCancel' }).ok, false);
    assert.equal(applyEvent(s, { type: 'expire' }).ok, false);
  });
});

describe('done for day', () => {
  it('on a partially filled order the rest expires', () => {
    const r = applyEvent(orderIn('1'), { type: 'doneForDay' });
    assert.ok(r.ok);
    assert.equal(r.state.leavesQty.toString(), '0');
    assert.equal(r.state.cumQty.toString(), '4');
  });
  it('is refused on an order without fills, with advice', () => {
    const r = applyEvent(orderIn('0'), { type: 'doneForDay' });
    assert.ok(!r.ok);
    assert.match(r.reason, /no fills/);
  });
  it('is refused while a request is pending', () => {
    const r = applyEvent(orderIn('6'), { type: 'doneForDay' });
    assert.ok(!r.ok);
    assert.equal(r.reason, 'Order has a pending cancel request: confirm or refuse it first');
  });
});

describe('replace', () => {
  it('request stores the amendment; confirm applies it with ExecType 5', () => {
    const req = applyEvent(orderIn('1'), { type: 'replaceRequest', orderQty: '15', price: '102' });
    assert.ok(req.ok);
    assert.deepEqual(req.report, { msgType: '8', execType: 'E', ordStatus: 'E' });
    assert.equal(req.state.pendingReplace?.orderQty.toString(), '15');
    assert.equal(req.state.orderQty.toString(), '10'); // unchanged until confirmed
    const done = applyEvent(req.state, { type: 'replaceConfirm' });
    assert.ok(done.ok);
    assert.deepEqual(done.report, { msgType: '8', execType: '5', ordStatus: '1' });
    assert.equal(done.state.orderQty.toString(), '15');
    assert.equal(done.state.leavesQty.toString(), '11');
    assert.equal(done.state.price?.toString(), '102');
    assert.equal(done.state.pendingReplace, null);
  });

  it('an unfilled order replaced shows status 0; reduced to the executed quantity it is filled', () => {
    const fresh = applyEvent(orderIn('0'), { type: 'replaceRequest', orderQty: 20 });
    assert.ok(fresh.ok);
    assert.equal(fresh.state.pendingReplace?.price?.toString(), '100'); // price unchanged when not given
    const c = applyEvent(fresh.state, { type: 'replaceConfirm' });
    assert.ok(c.ok);
    assert.equal(c.state.ordStatus, '0');
    const down = applyEvent(orderIn('1'), { type: 'replaceRequest', orderQty: 4 });
    assert.ok(down.ok);
    const c2 = applyEvent(down.state, { type: 'replaceConfirm' });
    assert.ok(c2.ok);
    assert.equal(c2.state.ordStatus, '2');
    assert.equal(c2.state.leavesQty.toString(), '0');
  });

  it('quantity may not drop below the executed quantity, at request or at confirm', () => {
    const r = applyEvent(orderIn('1'), { type: 'replaceRequest', orderQty: 3 });
    assert.ok(!r.ok);
    assert.equal(r.reason, 'New order quantity 3 is below the executed quantity 4');
    assert.equal(r.cxlRejReason, '2');
    const req = applyEvent(orderIn('1'), { type: 'replaceRequest', orderQty: 5 });
    assert.ok(req.ok);
    const fill = applyEvent(req.state, { type: 'fill', qty: 2, px: 100 });
    assert.ok(fill.ok);
    assert.equal(fill.state.ordStatus, 'E');
    const confirm = applyEvent(fill.state, { type: 'replaceConfirm' });
    assert.ok(!confirm.ok);
    assert.equal(confirm.code, 'TOO_LATE');
    assert.equal(confirm.reason, 'New order quantity 5 is below the executed quantity 6');
  });

  it('checks the amended terms', () => {
    const s = orderIn('0');
    const bad: [OrderEvent, string][] = [
      [{ type: 'replaceRequest', orderQty: 0 }, 'New order quantity must be greater than 0'],
      [{ type: 'replaceRequest', orderQty: 'x' }, 'New order quantity must be greater than 0'],
      [{ type: 'replaceRequest', orderQty: '2.5' }, 'New order quantity 2.5 must be a whole number of lots'],
      [{ type: 'replaceRequest', orderQty: 5, ordType: '1', price: 5 }, 'Market orders carry no price'],
      [{ type: 'replaceRequest', orderQty: 5, price: 'x' }, 'Limit orders require a price'],
    ];
    for (const [event, reason] of bad) {
      const r = applyEvent(s, event);
      assert.ok(!r.ok, reason);
      assert.equal(r.reason, reason);
    }
    const toMarket = applyEvent(s, { type: 'replaceRequest', orderQty: 5, ordType: '1' });
    assert.ok(toMarket.ok);
    assert.deepEqual(toMarket.state.pendingReplace, { orderQty: D(5), price: null, ordType: '1' });
    const marketToLimit = applyEvent({ ...s, ordType: '1', price: null }, { type: 'replaceRequest', orderQty: 5, ordType: '2' });
    assert.ok(!marketToLimit.ok);
    assert.equal(marketToLimit.reason, 'Limit orders require a price');
  });

  it('confirm without a stored amendment is refused', () => {
    const r = applyEvent({ ...orderIn('E'), pendingReplace: null }, { type: 'replaceConfirm' });
    assert.ok(!r.ok);
    assert.equal(r.reason, 'No replace request is pending for this order');
  });

  it('refuse answers with CxlRejResponseTo 2', () => {
    const r = applyEvent(orderIn('E'), { type: 'replaceRefuse', reason: 'No' });
    assert.ok(r.ok);
    assert.equal(r.report.msgType, '9');
    assert.ok(r.report.msgType === '9' && r.report.cxlRejResponseTo === '2');
    assert.equal(r.state.pendingReplace, null);
  });
});

describe('purity', () => {
  it('never modifies the input state', () => {
    for (const status of ORD_STATUS_CODES) {
      for (const event of ORDER_EVENT_TYPES) {
        const s = orderIn(status);
        const before = JSON.stringify(s);
        applyEvent(s, EVENTS[event]);
        assert.equal(JSON.stringify(s), before);
      }
    }
  });
  it('newOrderState refuses a non-positive quantity', () => {
    assert.throws(() => newOrderState({ side: '1', ordType: '1', orderQty: 0 }), RangeError);
  });
});

describe('labels', () => {
  it('full, blotter and client status labels', () => {
    assert.equal(ordStatusLabel('A'), 'Pending');
    assert.equal(ordStatusLabel('1'), 'Partially Filled');
    assert.equal(ordStatusLabel('3'), 'Done for Day');
    assert.equal(ordStatusLabel('F'), 'Done for Day');
    assert.equal(ordStatusLabel(''), 'Order Received');
    assert.equal(ordStatusLabel(null), 'Order Received');
    assert.equal(ordStatusLabel('Z'), 'Z');
    assert.equal(blotterStatusLabel('1'), 'Partial');
    assert.equal(blotterStatusLabel('3'), 'Done');
    assert.equal(blotterStatusLabel('F'), 'Done');
    assert.equal(blotterStatusLabel(undefined), 'Order Received');
    assert.equal(blotterStatusLabel('?'), '?');
    assert.equal(clientOrdStatusLabel('1'), 'Partial Fill');
    assert.equal(clientOrdStatusLabel('A'), 'Pending');
    assert.equal(clientOrdStatusLabel(undefined), 'Sent');
    assert.equal(clientOrdStatusLabel('Q'), 'Q');
    for (const code of ORD_STATUS_CODES) {
      assert.ok(ORD_STATUS_LABELS[code]);
      assert.ok(BLOTTER_STATUS_LABELS[code]);
    }
  });
  it('ExecType labels (spec 001 §4)', () => {
    const spec: Record<string, string> = {
      '0': 'Accepted',
      '1': 'Partial Fill',
      '2': 'Fill',
      '4': 'Canceled',
      '8': 'Rejected',
      A: 'Pending',
      C: 'Expired',
      F: 'Trade',
    };
    for (const [code, label] of Object.entries(spec)) assert.equal(execTypeLabel(code), label);
    assert.equal(execTypeLabel('Z'), 'Z');
    assert.equal(execTypeLabel(undefined), '');
    assert.equal(Object.keys(EXEC_TYPE_LABELS).length, 16);
  });
});

describe('a cancel or replace request before the broker accepted the order', () => {
  const pending = newOrderState({ side: '1', ordType: '2', orderQty: 10, price: 100 });
  const ok = (r: ApplyResult) => {
    if (!r.ok) assert.fail(r.reason);
    return r;
  };
  it('goes Pending Cancel; refused, it is Pending New again; confirmed, it is canceled', () => {
    const requested = ok(applyEvent(pending, { type: 'cancelRequest' })).state;
    assert.equal(requested.ordStatus, '6');
    const fill = applyEvent(requested, { type: 'fill', qty: 2, px: 99 });
    assert.deepEqual(fill.ok ? 'applied' : [fill.code, fill.reason], ['NOT_ALLOWED', 'Order must be accepted before it can be filled']);
    const refused = ok(applyEvent(requested, { type: 'cancelRefuse', reason: 'Working it' }));
    assert.equal(refused.state.ordStatus, 'A');
    assert.equal(refused.report.msgType, '9');
    assert.equal(refused.report.ordStatus, 'A');
    const accepted = ok(applyEvent(refused.state, { type: 'accept' })).state;
    assert.equal(accepted.ordStatus, '0');
    assert.equal(ok(applyEvent(accepted, { type: 'fill', qty: 2, px: 99 })).state.ordStatus, '1');
    const canceled = ok(applyEvent(requested, { type: 'cancelConfirm' }));
    assert.deepEqual([canceled.state.ordStatus, canceled.report.msgType === '8' && canceled.report.execType], ['4', '4']);
  });
  it('goes Pending Replace; confirmed, it stays Pending New with the new terms', () => {
    const requested = ok(applyEvent(pending, { type: 'replaceRequest', orderQty: 8, price: 101 })).state;
    assert.equal(requested.ordStatus, 'E');
    const replaced = ok(applyEvent(requested, { type: 'replaceConfirm' }));
    assert.equal(replaced.state.ordStatus, 'A');
    assert.equal(replaced.state.orderQty.toString(), '8');
    assert.equal(replaced.state.leavesQty.toString(), '8');
    assert.equal(replaced.report.msgType === '8' && replaced.report.execType, '5');
  });
});

describe('isAwaitingAcceptance', () => {
  it('is true for Pending New and for a request on an order nobody accepted, false once accepted or filled', () => {
    assert.equal(isAwaitingAcceptance({ ordstatus: 'A', accepted_by: null, cumqty: '0' }), true);
    assert.equal(isAwaitingAcceptance({ ordstatus: '6', accepted_by: null, cumqty: '0' }), true);
    assert.equal(isAwaitingAcceptance({ ordstatus: 'E', accepted_by: null, cumqty: '0' }), true);
    assert.equal(isAwaitingAcceptance({ ordstatus: '6', accepted_by: 'broker', cumqty: '0' }), false);
    assert.equal(isAwaitingAcceptance({ ordstatus: '6', accepted_by: null, cumqty: '2' }), false);
    assert.equal(isAwaitingAcceptance({ ordstatus: '0', accepted_by: null, cumqty: '0' }), false);
  });
});

describe('leg fills', () => {
  it('a leg fill that completes the strategy fills the order; one that completes no unit keeps it New', () => {
    const done = applyEvent(orderIn('1'), { type: 'legFill', cumQty: 10, avgPx: '99.8', lastQty: 2, lastPx: 98 });
    assert.ok(done.ok);
    assert.equal(done.state.ordStatus, '2');
    assert.equal(done.state.leavesQty.toString(), '0');
    assert.equal(done.state.avgPx.toString(), '99.8');
    const none = applyEvent(orderIn('0'), { type: 'legFill', cumQty: 0, avgPx: 0, lastQty: 2, lastPx: 98 });
    assert.ok(none.ok);
    assert.equal(none.state.ordStatus, '0');
    assert.equal(none.state.lastQty.toString(), '2');
  });
  it('refuses a strategy quantity that goes back or beyond the order', () => {
    assert.equal(
      describeResult(applyEvent(orderIn('1'), { type: 'legFill', cumQty: 3, avgPx: 99, lastQty: 1, lastPx: 99 })),
      'INVALID_QUANTITY',
    );
    assert.equal(
      describeResult(applyEvent(orderIn('1'), { type: 'legFill', cumQty: 11, avgPx: 99, lastQty: 1, lastPx: 99 })),
      'INVALID_QUANTITY',
    );
  });
});

describe('ordRejReasonLabel', () => {
  it('names FIX 4.4 reasons with their code, and leaves others as the code', async () => {
    const { ordRejReasonLabel } = await import('./order-status-labels');
    assert.equal(ordRejReasonLabel(1), 'Unknown symbol (1)');
    assert.equal(ordRejReasonLabel('6'), 'Duplicate order (6)');
    assert.equal(ordRejReasonLabel(42), '42');
    assert.equal(ordRejReasonLabel(null), '');
  });
});

describe('a closed order shows what it had been filled', () => {
  it('names the fills of a done, canceled or expired order, not of an open one or an unfilled one', () => {
    assert.equal(ordStatusWithFills('3', '20', '20'), 'Done for Day (filled 20/20)');
    assert.equal(ordStatusWithFills('F', '20', '20'), 'Done for Day (filled 20/20)');
    assert.equal(ordStatusWithFills('4', '5', '20'), 'Canceled (filled 5/20)');
    assert.equal(ordStatusWithFills('3', '0', '20'), 'Done for Day');
    assert.equal(closedFillNote('1', '5', '20'), null);
    assert.equal(closedFillNote('2', '20', '20'), null, 'Filled says it already');
  });
});
