import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClientTradingStop } from '@fixdesk/protocol';
import { applyTradingStatus, countWorkingOrders, stoppedBannerText, stoppedTooltip } from './killSwitch';

const stop: ClientTradingStop = { stopped_at: '2026-11-28T12:40:01.250Z', stopped_by: 'broker', reason: 'Runaway algo' };

describe('kill switch helpers', () => {
  it('applies a client_trading_status to its row only, and keeps the list when nothing changes', () => {
    const rows = [
      { comp_id: 'SGX_CLIENT_1', trading_stop: null, x: 1 },
      { comp_id: 'EEX_CLIENT_1', trading_stop: null, x: 2 },
    ];
    const stopped = applyTradingStatus(rows, { comp_id: 'SGX_CLIENT_1', trading_stop: stop });
    assert.notEqual(stopped, rows);
    assert.deepEqual(stopped[0], { comp_id: 'SGX_CLIENT_1', trading_stop: stop, x: 1 });
    assert.equal(stopped[1], rows[1], 'the other row is the same object');
    assert.equal(
      applyTradingStatus(stopped, { comp_id: 'SGX_CLIENT_1', trading_stop: { ...stop } }),
      stopped,
      'the same stop again: no change',
    );
    assert.equal(applyTradingStatus(rows, { comp_id: 'UNKNOWN', trading_stop: stop }), rows);
    assert.equal(applyTradingStatus(stopped, { comp_id: 'SGX_CLIENT_1', trading_stop: null })[0]!.trading_stop, null, 'a resume clears it');
  });

  it('words the banner and the tooltip with who, when (in the zone) and why', () => {
    assert.equal(
      stoppedBannerText('SGX_CLIENT_1', stop, 'UTC', new Date('2026-11-29T09:00:00Z')),
      'SGX_CLIENT_1 stopped by broker at 2026-11-28 12:40:01 UTC: Runaway algo',
    );
    // Stopped today: the time of day is enough (the strip keeps its room for the reason).
    assert.equal(
      stoppedBannerText('SGX_CLIENT_1', stop, 'UTC', new Date('2026-11-28T23:59:00Z')),
      'SGX_CLIENT_1 stopped by broker at 12:40:01 UTC: Runaway algo',
    );
    assert.equal(
      stoppedBannerText('SGX_CLIENT_1', { ...stop, stopped_by: '' }, 'UTC', new Date('2026-11-28T13:00:00Z')),
      'SGX_CLIENT_1 stopped by the desk at 12:40:01 UTC: Runaway algo',
    );
    assert.match(stoppedTooltip(stop, 'Europe/Paris'), /^Stopped by broker at 2026-11-28 13:40:01 (CET|GMT\+1): Runaway algo\./);
  });

  it("counts the client's working orders the way the server cancels them", () => {
    const orders = [
      { sendercompid: 'SGX_CLIENT_1', ordstatus: 'A', refusal: undefined },
      { sendercompid: 'SGX_CLIENT_1', ordstatus: '0', refusal: undefined },
      { sendercompid: 'SGX_CLIENT_1', ordstatus: '1', refusal: undefined },
      { sendercompid: 'SGX_CLIENT_1', ordstatus: '6', refusal: undefined },
      { sendercompid: 'SGX_CLIENT_1', ordstatus: 'E', refusal: undefined },
      { sendercompid: 'SGX_CLIENT_1', ordstatus: '2', refusal: undefined },
      { sendercompid: 'SGX_CLIENT_1', ordstatus: '4', refusal: undefined },
      { sendercompid: 'SGX_CLIENT_1', ordstatus: '8', refusal: { ordRejReason: 99, text: 'x' } },
      { sendercompid: 'EEX_CLIENT_1', ordstatus: '0', refusal: undefined },
    ] as Parameters<typeof countWorkingOrders>[0] extends Iterable<infer O> ? O[] : never;
    assert.equal(countWorkingOrders(orders, 'SGX_CLIENT_1'), 5);
    assert.equal(countWorkingOrders(orders, 'EEX_CLIENT_1'), 1);
    assert.equal(countWorkingOrders([], 'SGX_CLIENT_1'), 0);
  });
});
