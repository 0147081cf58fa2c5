import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  daysUntil,
  heartbeatHealth,
  medianAndWorst,
  overallHealth,
  serviceHealthLabel,
  sessionExpectation,
  sessionSilenceHealth,
} from './service-health';

describe('service health rules', () => {
  it('the banner comes from the critical services only', () => {
    assert.equal(overallHealth([]).label, 'Unknown');
    assert.equal(overallHealth([{ critical: false, status: 'down' }]).label, 'Unknown');
    const ok = overallHealth([
      { critical: true, status: 'healthy' },
      { critical: true, status: 'healthy' },
      { critical: false, status: 'down' },
    ]);
    assert.deepEqual(ok, { level: 'operational', label: 'All Systems Operational', colour: 'green' });
    assert.deepEqual(
      overallHealth([
        { critical: true, status: 'down' },
        { critical: true, status: 'stale' },
      ]),
      { level: 'major', label: 'Major Outage', colour: 'red' },
    );
    assert.deepEqual(
      overallHealth([
        { critical: true, status: 'healthy' },
        { critical: true, status: 'degraded' },
      ]),
      { level: 'partial', label: 'Partial Outage', colour: 'yellow' },
    );
  });

  it('labels: Healthy, Degraded, Stale, Offline', () => {
    assert.deepEqual(['healthy', 'degraded', 'stale', 'down', 'offline'].map(serviceHealthLabel), [
      'Healthy',
      'Degraded',
      'Stale',
      'Offline',
      'Offline',
    ]);
  });

  it('a heartbeat older than 60 s (two of the longest 30 s interval) is stale; none at all too', () => {
    assert.equal(heartbeatHealth('healthy', 1_000, 61_000), 'healthy');
    assert.equal(heartbeatHealth('degraded', 1_000, 61_000), 'degraded');
    assert.equal(heartbeatHealth('healthy', 1_000, 61_001), 'stale');
    assert.equal(heartbeatHealth('healthy', undefined, 0), 'stale');
  });

  it('a FIX session silent past HeartBtInt x 1.5 is stale; HeartBtInt 0 promises nothing', () => {
    assert.equal(sessionSilenceHealth(30, 0, 45_000), 'healthy');
    assert.equal(sessionSilenceHealth(30, 0, 45_001), 'stale');
    assert.equal(sessionSilenceHealth(0, 0, 10_000_000), 'healthy');
    assert.equal(sessionSilenceHealth(30, undefined, 0), 'stale');
  });

  it('a client absent inside its hours is awaited for five minutes, then missing; outside them it is normal', () => {
    assert.equal(sessionExpectation(true, false, undefined), 'logged-on');
    assert.equal(sessionExpectation(false, false, undefined), 'outside-hours');
    assert.equal(sessionExpectation(false, true, 4 * 60_000), 'awaited');
    assert.equal(sessionExpectation(false, true, 5 * 60_000), 'missing');
  });

  it('p50 and worst; days to a certificate expiry', () => {
    assert.equal(medianAndWorst([]), undefined);
    assert.deepEqual(medianAndWorst([30, 10, 20, 1000]), { p50: 20, worst: 1000 });
    const now = new Date('2026-11-26T00:00:00Z');
    assert.equal(daysUntil('2026-12-06T12:00:00Z', now), 10);
    assert.equal(daysUntil(null, now), undefined);
    assert.equal(daysUntil('2026-11-25T00:00:00Z', now), -1);
  });
});
