import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Order } from '@fixdesk/protocol';
import { NO_ORDER_FILTERS, passesOrderFilters } from './orderFilters';

const order = (o: Partial<Order>): Order =>
  ({
    id: 7,
    brokerorderid: 'BO00000007',
    clordid: 'CL-77',
    symbol: 'C5TC',
    client_name: 'Straits Shipping Capital',
    sendercompid: 'SGX_CLIENT_1',
    ordstatus: '0',
    refusal: null,
    ...o,
  }) as Order;
const none = NO_ORDER_FILTERS;

describe('the Orders grid filters', () => {
  it('matches the quick text in the client, symbol and ids, ignoring case', () => {
    for (const text of ['straits', 'sgx_client', 'c5tc', 'bo00000007', 'cl-77', '7'])
      assert.equal(passesOrderFilters(order({}), { ...none, text }), true, text);
    assert.equal(passesOrderFilters(order({}), { ...none, text: 'pmx' }), false);
  });
  it('keeps working orders only when asked', () => {
    for (const ordstatus of ['A', '0', '1', '6', 'E'])
      assert.equal(passesOrderFilters(order({ ordstatus }), { ...none, workingOnly: true }), true, ordstatus);
    for (const ordstatus of ['2', '3', '4', '8', 'C'])
      assert.equal(passesOrderFilters(order({ ordstatus }), { ...none, workingOnly: true }), false, ordstatus);
  });
  it('hides orders refused at intake when asked', () => {
    const refused = order({ refusal: { ordRejReason: 1, text: 'Unknown symbol' } as Order['refusal'] });
    assert.equal(passesOrderFilters(refused, none), true);
    assert.equal(passesOrderFilters(refused, { ...none, hideRefused: true }), false);
  });
  it('keeps the chosen clients and statuses only (a legacy F counts as Done for Day)', () => {
    assert.equal(passesOrderFilters(order({}), { ...none, clients: ['SGX_CLIENT_1'] }), true);
    assert.equal(passesOrderFilters(order({}), { ...none, clients: ['EEX_CLIENT_1'] }), false);
    assert.equal(passesOrderFilters(order({ ordstatus: '0' }), { ...none, statuses: ['0', '1'] }), true);
    assert.equal(passesOrderFilters(order({ ordstatus: '2' }), { ...none, statuses: ['0', '1'] }), false);
    assert.equal(passesOrderFilters(order({ ordstatus: 'F' }), { ...none, statuses: ['3'] }), true);
    assert.equal(
      passesOrderFilters(order({ ordstatus: '0', sendercompid: 'EEX_CLIENT_1' }), { ...none, clients: ['SGX_CLIENT_1'], statuses: ['0'] }),
      false,
      'both must hold',
    );
  });
});
