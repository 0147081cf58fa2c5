import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as Fix44 from '@fixdesk/fix-codes';
import * as codes from './codes';

// The desk's codes as codes.ts wrote them by hand before they were built on the generated table of
// @fixdesk/fix-codes: the names and values the server, the web app and stored rows rely on.
const EXPECTED = {
  Side: { Buy: '1', Sell: '2' },
  OrdType: { Market: '1', Limit: '2' },
  TimeInForce: { Day: '0', GoodTillCancel: '1' },
  OrdStatus: {
    PendingNew: 'A',
    New: '0',
    PartiallyFilled: '1',
    Filled: '2',
    DoneForDay: '3',
    Canceled: '4',
    Replaced: '5',
    PendingCancel: '6',
    Rejected: '8',
    Expired: 'C',
    PendingReplace: 'E',
  },
  ExecType: {
    New: '0',
    PartialFill: '1',
    Fill: '2',
    DoneForDay: '3',
    Canceled: '4',
    Replaced: '5',
    PendingCancel: '6',
    Rejected: '8',
    PendingNew: 'A',
    Expired: 'C',
    Restated: 'D',
    PendingReplace: 'E',
    Trade: 'F',
    TradeCorrect: 'G',
    TradeCancel: 'H',
    OrderStatus: 'I',
  },
  OrdRejReason: {
    BrokerOption: '0',
    UnknownSymbol: '1',
    ExchangeClosed: '2',
    OrderExceedsLimit: '3',
    TooLateToEnter: '4',
    UnknownOrder: '5',
    DuplicateOrder: '6',
    StaleOrder: '8',
    UnsupportedOrderCharacteristic: '11',
    IncorrectQuantity: '13',
    Other: '99',
  },
  CxlRejReason: { TooLateToCancel: '0', UnknownOrder: '1', BrokerOption: '2', AlreadyPending: '3', DuplicateClOrdId: '6', Other: '99' },
  CxlRejResponseTo: { CancelRequest: '1', CancelReplaceRequest: '2' },
  PartyRole: { EnteringFirm: '7', OrderOriginationTrader: '11' },
  PartyIDSource: { Proprietary: 'D', LEI: 'N' },
  SecurityType: { Future: 'FUT', Multileg: 'MLEG' },
  MsgType: {
    Heartbeat: '0',
    TestRequest: '1',
    ResendRequest: '2',
    Reject: '3',
    SequenceReset: '4',
    Logout: '5',
    ExecutionReport: '8',
    OrderCancelReject: '9',
    Logon: 'A',
    NewOrderSingle: 'D',
    OrderCancelRequest: 'F',
    OrderCancelReplaceRequest: 'G',
    NewOrderMultileg: 'AB',
    MultilegOrderCancelReplace: 'AC',
  },
} as const;

/** The only desk codes that are not FIX 4.4 values of their field (codes.ts, BEYOND_FIX44). */
const BEYOND_FIX44 = ['OrdStatus.Replaced=5', 'ExecType.PartialFill=1', 'ExecType.Fill=2', 'PartyIDSource.LEI=N'];

describe('FIX codes of the desk', () => {
  it('keep their names, values and order', () => {
    for (const [field, values] of Object.entries(EXPECTED)) {
      assert.deepEqual(Object.entries((codes as unknown as Record<string, object>)[field]!), Object.entries(values), field);
    }
    assert.deepEqual(codes.ORD_STATUS_CODES, Object.values(EXPECTED.OrdStatus));
  });

  it('are values of the generated FIX 4.4 table, but for the few older or newer codes listed', () => {
    const beyond: string[] = [];
    for (const field of Object.keys(EXPECTED)) {
      const fix44 = new Set(Object.values((Fix44 as unknown as Record<string, Record<string, string>>)[field]!));
      assert.ok(fix44.size > 0, `${field} is a generated value set`);
      for (const [name, value] of Object.entries((codes as unknown as Record<string, Record<string, string>>)[field]!)) {
        if (!fix44.has(value)) beyond.push(`${field}.${name}=${value}`);
      }
    }
    assert.deepEqual(beyond, BEYOND_FIX44);
  });

  it('keep the labels and helpers built on them', () => {
    assert.equal(codes.SIDE_LABELS[codes.Side.Sell], 'Sell');
    assert.equal(codes.msgTypeName(codes.MsgType.NewOrderMultileg), 'New Order Multileg');
    assert.equal(codes.msgTypeLabel(Fix44.MsgType.OrderStatusRequest), 'H · Order Status Request');
    assert.equal(codes.normalizeSide('SELL'), codes.Side.Sell);
    assert.equal(codes.isOrdStatusCode(Fix44.OrdStatus.Stopped), false, 'a FIX 4.4 status the desk does not use');
  });
});
