import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '@fixdesk/protocol';
import { ordersCsvFileName, ordersCsvText } from './ordersCsv';

const order = (o: Partial<Order>): Order =>
  ({
    id: 7,
    brokerorderid: 'BO00000007',
    clordid: 'CL-77',
    symbol: 'C5TC',
    client_name: 'Straits Shipping Capital',
    sendercompid: 'SGX_CLIENT_1',
    ordstatus: '1',
    side: '1',
    orderqty: '2000',
    cumqty: '500',
    leavesqty: '1500',
    price: '27000.5',
    created_at: '2026-03-15T10:30:01.123Z',
    refusal: null,
    ...o,
  }) as Order;

describe('the Orders CSV', () => {
  it('has the shown columns in their order, the shown texts, raw numbers and the time in ISO UTC', () => {
    const text = ordersCsvText(['brokerorderid', 'status', 'side', 'orderqty', 'price', 'client', 'time'], [order({})]);
    assert.equal(
      text,
      'Broker Order ID,Status,Side,Qty,Price,Client,Received (UTC)\r\nBO00000007,Partially Filled,BUY,2000,27000.5,Straits Shipping Capital (SGX_CLIENT_1),2026-03-15T10:30:01.123Z',
    );
  });
  it('neutralises formulas a client could have put in a field', () => {
    const text = ordersCsvText(['clordid', 'client'], [order({ clordid: '=HYPERLINK("http://x","y")', client_name: '+cmd' })]);
    const row = text.split('\r\n')[1]!;
    assert.ok(!/(^|,)"?[=+\-@]/.test(row), row);
  });
  it('leaves out columns it does not know (hidden or removed)', () => {
    assert.equal(ordersCsvText(['nope', 'id'], [order({})]), 'ID\r\n7');
  });
  it('names the file with the export time', () => {
    assert.equal(ordersCsvFileName(new Date('2026-03-15T10:30:01Z')), 'blotter_orders_20260315-103001.csv');
  });
});
