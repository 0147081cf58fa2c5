import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FAILURE_WINDOW_MS,
  FREE_FAILURES_PER_PAIR,
  MAX_DELAY_MS,
  MAX_FAILURES_PER_ADDRESS,
  pairDelayMs,
  throttle,
} from './sign-in-throttle';

const now = Date.UTC(2026, 10, 25, 12);
const none = { count: 0, oldest: null };

describe('sign-in throttle', () => {
  it('lets the first failures of a pair through, then doubles the wait, up to the cap', () => {
    for (let n = 0; n < FREE_FAILURES_PER_PAIR; n++) assert.equal(pairDelayMs(n), 0);
    assert.equal(pairDelayMs(FREE_FAILURES_PER_PAIR), 2000);
    assert.equal(pairDelayMs(FREE_FAILURES_PER_PAIR + 1), 4000);
    assert.equal(pairDelayMs(FREE_FAILURES_PER_PAIR + 30), MAX_DELAY_MS);
  });

  it('makes a pair past its free failures wait from its last failure', () => {
    const last = new Date(now - 1000);
    assert.deepEqual(throttle({ pair: { count: FREE_FAILURES_PER_PAIR, last }, address: none }, now), {
      allowed: false,
      retryAfterSeconds: 1,
    });
    assert.deepEqual(throttle({ pair: { count: FREE_FAILURES_PER_PAIR, last: new Date(now - 2000) }, address: none }, now), {
      allowed: true,
    });
    assert.deepEqual(throttle({ pair: { count: FREE_FAILURES_PER_PAIR - 1, last }, address: none }, now), { allowed: true });
  });

  it('stops an address at its ceiling until its oldest failure leaves the window', () => {
    const oldest = new Date(now - FAILURE_WINDOW_MS + 30_000);
    assert.deepEqual(throttle({ pair: { count: 0, last: null }, address: { count: MAX_FAILURES_PER_ADDRESS, oldest } }, now), {
      allowed: false,
      retryAfterSeconds: 30,
    });
    assert.deepEqual(throttle({ pair: { count: 0, last: null }, address: { count: MAX_FAILURES_PER_ADDRESS - 1, oldest } }, now), {
      allowed: true,
    });
  });
});
