import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatLocalTime, formatLocalTimeMicros, timeZoneLabel } from './localTime';

describe('audit times in the user zone', () => {
  it('shows the time in the given zone with milliseconds and the zone named', () => {
    assert.equal(formatLocalTime('2026-03-15T09:30:01.123Z', 'UTC'), '2026-03-15 09:30:01.123 UTC');
    assert.equal(formatLocalTime('2026-03-15T09:30:01.123Z', 'Europe/Paris'), '2026-03-15 10:30:01.123 CET');
    assert.equal(formatLocalTime('2026-07-15T09:30:01.005Z', 'Europe/Paris'), '2026-07-15 11:30:01.005 CEST');
    assert.equal(formatLocalTime('2026-03-15T23:30:00.000Z', 'Asia/Singapore'), '2026-03-16 07:30:00.000 GMT+8');
  });

  it('passes unreadable text through and shows nothing for nothing', () => {
    assert.equal(formatLocalTime(null, 'UTC'), '');
    assert.equal(formatLocalTime('soon', 'UTC'), 'soon');
  });

  it('names the zone', () => {
    assert.equal(timeZoneLabel('UTC'), 'UTC');
    assert.equal(timeZoneLabel('Europe/Paris', new Date('2026-01-10T00:00:00Z')), 'Europe/Paris (CET)');
  });

  it('keeps the microseconds the server sends', () => {
    assert.equal(formatLocalTimeMicros('2026-03-15T09:30:01.123456Z', 'Europe/Paris'), '2026-03-15 10:30:01.123456 CET');
    assert.equal(formatLocalTimeMicros('2026-03-15T09:30:01.123Z', 'UTC'), '2026-03-15 09:30:01.123 UTC');
    assert.equal(formatLocalTimeMicros(null, 'UTC'), '');
  });
});
