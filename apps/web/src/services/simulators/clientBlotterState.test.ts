import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClientExecution, ClientOrder } from '@fixdesk/protocol';
import { applyTestClientMessage, EMPTY_BLOTTER, executionsOf } from './clientBlotterState';

const order = (id: string, timestamp: string, ordstatus: string | null = null) =>
  ({ id, clordid: id, timestamp, ordstatus }) as ClientOrder;
const exec = (id: string, orderKey: string) => ({ id, orderKey }) as ClientExecution;

describe('the FIX Client blotter state', () => {
  it('adds orders newest first, replaces them in place and ignores other clients', () => {
    let s = applyTestClientMessage(EMPTY_BLOTTER, 'SGX', {
      type: 'test_client_order',
      comp_id: 'SGX',
      order: order('A', '2026-01-01T10:00:00Z'),
    });
    s = applyTestClientMessage(s, 'SGX', { type: 'test_client_order', comp_id: 'SGX', order: order('B', '2026-01-01T10:00:05Z') });
    s = applyTestClientMessage(s, 'SGX', { type: 'test_client_order', comp_id: 'EEX', order: order('C', '2026-01-01T10:00:09Z') });
    assert.deepEqual(
      s.orders.map((o) => o.id),
      ['B', 'A'],
    );
    s = applyTestClientMessage(s, 'SGX', {
      type: 'test_client_execution',
      comp_id: 'SGX',
      execution: exec('E1', 'A'),
      order: order('A', '2026-01-01T10:00:00Z', '0'),
    });
    assert.deepEqual(
      s.orders.map((o) => [o.id, o.ordstatus]),
      [
        ['B', null],
        ['A', '0'],
      ],
    );
    const again = applyTestClientMessage(s, 'SGX', {
      type: 'test_client_execution',
      comp_id: 'SGX',
      execution: exec('E1', 'A'),
      order: order('A', '2026-01-01T10:00:00Z', '0'),
    });
    assert.equal(again.executions.length, 1, 'a report arriving twice is kept once');
    assert.deepEqual(
      executionsOf(s, 'A').map((e) => e.id),
      ['E1'],
    );
    assert.deepEqual(executionsOf(s, null), []);
  });
});
