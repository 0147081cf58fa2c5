import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, dayIn, isDay, periodsOf, rangeIsLive, resolveRange, startOfDay } from './insightsRange';

const NOW = Date.parse('2026-11-30T05:00:00Z');

test('today in UTC is the UTC day, drawn by hour', () => {
  assert.deepEqual(resolveRange('today', 'UTC', NOW), {
    from: '2026-11-30T00:00:00.000Z',
    to: '2026-12-01T00:00:00.000Z',
    firstDay: '2026-11-30',
    lastDay: '2026-11-30',
  });
});

test('a day in Singapore runs from 16:00 UTC to 16:00 UTC', () => {
  assert.equal(dayIn(NOW, 'Asia/Singapore'), '2026-11-30');
  assert.deepEqual(resolveRange('yesterday', 'Asia/Singapore', NOW), {
    from: '2026-11-28T16:00:00.000Z',
    to: '2026-11-29T16:00:00.000Z',
    firstDay: '2026-11-29',
    lastDay: '2026-11-29',
  });
  // 23:30 UTC is already the next day there.
  assert.equal(dayIn(Date.parse('2026-11-29T23:30:00Z'), 'Asia/Singapore'), '2026-11-30');
});

test('the last 7 and 30 days end with today, whole days', () => {
  const week = resolveRange('7d', 'UTC', NOW);
  assert.ok(!('error' in week));
  assert.equal(week.from, '2026-11-24T00:00:00.000Z');
  assert.equal(week.to, '2026-12-01T00:00:00.000Z');
  const month = resolveRange('30d', 'UTC', NOW);
  assert.ok(!('error' in month));
  assert.equal(month.firstDay, '2026-11-01');
});

test("London's day of the clocks going back is 25 hours", () => {
  const start = startOfDay('2026-10-25', 'Europe/London');
  const end = startOfDay('2026-10-26', 'Europe/London');
  assert.equal(new Date(start).toISOString(), '2026-10-24T23:00:00.000Z');
  assert.equal((end - start) / 3_600_000, 25);
});

test('custom days: both needed, in order, at most 367 days', () => {
  assert.deepEqual(resolveRange('custom', 'UTC', NOW, { firstDay: '2026-11-02', lastDay: '2026-11-04' }), {
    from: '2026-11-02T00:00:00.000Z',
    to: '2026-11-05T00:00:00.000Z',
    firstDay: '2026-11-02',
    lastDay: '2026-11-04',
  });
  assert.ok('error' in resolveRange('custom', 'UTC', NOW, { firstDay: '', lastDay: '2026-11-04' }));
  assert.ok('error' in resolveRange('custom', 'UTC', NOW, { firstDay: '2026-11-05', lastDay: '2026-11-04' }));
  assert.ok('error' in resolveRange('custom', 'UTC', NOW, { firstDay: '2025-01-01', lastDay: '2026-11-04' }));
  assert.equal(isDay('2026-02-31'), false);
  assert.equal(addDays('2026-12-31', 1), '2027-01-01');
});

test('a range is live while now falls in it', () => {
  const today = resolveRange('today', 'UTC', NOW);
  const yesterday = resolveRange('yesterday', 'UTC', NOW);
  assert.ok(!('error' in today) && !('error' in yesterday));
  assert.equal(rangeIsLive(today, NOW), true);
  assert.equal(rangeIsLive(yesterday, NOW), false);
});

test('the periods of a range: 24 hours of a day, the days of a week, in the zone', () => {
  const today = resolveRange('today', 'UTC', NOW);
  assert.ok(!('error' in today));
  const hours = periodsOf(today, 'UTC', 'hour');
  assert.equal(hours.length, 24);
  assert.equal(hours[0], '2026-11-30T00:00');
  assert.equal(hours[23], '2026-11-30T23:00');
  const week = resolveRange('7d', 'Asia/Singapore', NOW);
  assert.ok(!('error' in week));
  assert.deepEqual(periodsOf(week, 'Asia/Singapore', 'day'), [
    '2026-11-24',
    '2026-11-25',
    '2026-11-26',
    '2026-11-27',
    '2026-11-28',
    '2026-11-29',
    '2026-11-30',
  ]);
});
