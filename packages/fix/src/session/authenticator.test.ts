import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heartBtIntProblem } from './authenticator';

describe('heartBtIntProblem', () => {
  const range = { minSec: 5, maxSec: 120, allowZero: false };
  it('accepts the bounds and what lies between', () => {
    for (const hb of [5, 30, 120]) assert.equal(heartBtIntProblem(hb, range), undefined, String(hb));
  });
  it('refuses below, above and 0, naming the range', () => {
    assert.equal(heartBtIntProblem(4, range), 'HeartBtInt (108) of 4 is outside the allowed range 5-120 seconds');
    assert.equal(heartBtIntProblem(121, range), 'HeartBtInt (108) of 121 is outside the allowed range 5-120 seconds');
    assert.equal(heartBtIntProblem(0, range), 'HeartBtInt (108) of 0 is outside the allowed range 5-120 seconds');
  });
  it('accepts 0 only where the connector allows it, and says so when refusing', () => {
    const zero = { ...range, allowZero: true };
    assert.equal(heartBtIntProblem(0, zero), undefined);
    assert.equal(heartBtIntProblem(200, zero), 'HeartBtInt (108) of 200 is outside the allowed range 5-120 seconds or 0');
  });
});
