import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OrderAction } from '@fixdesk/protocol';
import { csvText, ORDER_ACTION_CSV_FIELDS } from '@fixdesk/client';
import { type OrderActionsCsvColumn, readOrderActionsCsv } from '../../../../../tests/support/order-actions-csv';
import { matchesOrderAction, orderActionColumns } from './orderActionColumns';

const action = (over: Partial<OrderAction> = {}): OrderAction => ({
  id: 41,
  order_id: 7,
  timestamp: '2026-03-15T09:30:01.123Z',
  created_at: '2026-03-15T09:30:01.123Z',
  brokerorderid: 'BO00000007',
  clordid: 'SGX-12.1',
  sendercompid: 'SGX_CLIENT_1',
  client_name: 'SGX Client One',
  company_name: 'Acme Shipping',
  symbol: 'C5TC-Apr-26',
  side: '2',
  orderqty: '1500',
  price: '-12.5',
  action_type: 'PARTIAL_FILL',
  user_id: 'broker',
  notes: '=HYPERLINK("http://evil") and a note longer than thirty characters',
  action_data: { fillQty: '500', fillPrice: '-12.25' },
  fillQty: null,
  fillPrice: null,
  legIndex: null,
  ...over,
});

describe('Order Actions columns', () => {
  it('have the spec columns in order', () => {
    assert.deepEqual(
      orderActionColumns('UTC').map((c) => c.header),
      [
        'ID',
        'Timestamp',
        'Client',
        'Broker Order ID',
        'Client Order ID',
        'Symbol',
        'Side',
        'Order Qty',
        'Order Price',
        'Action Type',
        'User ID',
        'Fill Qty',
        'Fill Price',
        'Notes',
        'Action Data',
      ],
    );
  });

  it('show local times with the zone, Buy/Sell, notes cut at 30 characters and fills from the action data', () => {
    const cols = orderActionColumns('Europe/Paris');
    const shown = Object.fromEntries(cols.map((c) => [c.id, c.format ? c.format(action()) : c.value(action())]));
    assert.equal(shown.timestamp, '2026-03-15 10:30:01.123 CET');
    assert.equal(shown.side, 'Sell');
    assert.equal(shown.client, 'Acme Shipping');
    assert.equal(shown.orderqty, '1,500');
    assert.equal(shown.price, '-12.50');
    assert.equal(shown.fillqty, '500');
    assert.equal(shown.fillprice, '-12.25');
    assert.equal(shown.notes, '=HYPERLINK("http://evil") and ...');
    assert.equal(shown.action_type, 'PARTIAL FILL');
  });

  it("the server's file has the table's columns, one for one and in order", () => {
    assert.deepEqual(
      ORDER_ACTION_CSV_FIELDS.map((f) => f.id),
      orderActionColumns('UTC').map((c) => c.id),
    );
  });

  it('export UTC times, full notes (neutralised), exact numbers and the action data as JSON', () => {
    const file = readOrderActionsCsv(csvText(ORDER_ACTION_CSV_FIELDS, [action()]));
    assert.equal(file.rows.length, 1);
    const cell = (column: OrderActionsCsvColumn) => file.cell(file.rows[0]!, column);
    assert.equal(cell('Timestamp (UTC)'), '2026-03-15T09:30:01.123Z');
    assert.equal(cell('Client'), 'Acme Shipping (SGX_CLIENT_1)');
    assert.equal(cell('Notes'), `'${action().notes}`);
    assert.equal(cell('Order Price'), '-12.5');
    assert.equal(cell('Fill Price'), '-12.25');
    assert.equal(cell('Action Type'), 'PARTIAL_FILL');
    assert.equal(cell('Side'), 'Sell');
    assert.equal(cell('Fill Qty'), '500');
    assert.deepEqual(JSON.parse(cell('Action Data')!), { fillQty: '500', fillPrice: '-12.25' });
  });

  it('filter on ids, symbol, action type, user, notes and the side in words', () => {
    const a = action();
    for (const hit of [
      '41',
      'bo00000007',
      'SGX-12',
      'c5tc',
      'partial_fill',
      'partial fill',
      'BROKER',
      'hyperlink',
      'sell',
      'sgx_client_1',
      '',
    ]) {
      assert.equal(matchesOrderAction(a, hit), true, hit);
    }
    for (const miss of ['buy', 'ACCEPT', 'zzz']) assert.equal(matchesOrderAction(a, miss), false, miss);
  });
});
