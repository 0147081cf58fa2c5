import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dateRangeOf } from './date-range';
import { HttpError } from './errors';

describe('a list query date filter', () => {
  it('reads either pair of parameter names; a bare end date takes its whole day, a date-time is kept', () => {
    assert.deepEqual(dateRangeOf({ from: '2026-03-02', to: '2026-03-04' }, ['from', 'to']), {
      start: new Date('2026-03-02T00:00:00.000Z'),
      end: new Date('2026-03-04T23:59:59.999Z'),
    });
    assert.deepEqual(dateRangeOf({ start: '2026-03-02T10:15:00Z', end: '2026-03-02T11:00:00Z' }, ['start', 'end']), {
      start: new Date('2026-03-02T10:15:00Z'),
      end: new Date('2026-03-02T11:00:00Z'),
    });
    assert.deepEqual(dateRangeOf({}, ['start', 'end']), { start: undefined, end: undefined });
  });

  it('refuses a date that is not one, naming its parameter', () => {
    assert.throws(
      () => dateRangeOf({ to: '2026-02-30x' }, ['from', 'to']),
      (e: unknown) => e instanceof HttpError && e.statusCode === 400 && e.field === 'to' && e.message.startsWith('To must be a date'),
    );
    assert.throws(
      () => dateRangeOf({ start: '0099-01-01' }, ['start', 'end']),
      (e: unknown) => e instanceof HttpError && e.field === 'start',
    );
  });

  it('needs both ends for what requires them (an export), naming the missing one', () => {
    for (const [q, missing] of [
      [{ start: '2026-03-02' }, 'end'],
      [{ end: '2026-03-02' }, 'start'],
      [{}, 'start'],
    ] as const) {
      assert.throws(
        () => dateRangeOf(q, ['start', 'end'], 'an export'),
        (e: unknown) =>
          e instanceof HttpError &&
          e.statusCode === 400 &&
          e.field === missing &&
          e.message === 'Start and end dates are required for an export',
      );
    }
    assert.ok(dateRangeOf({ start: '2026-03-02', end: '2026-03-02' }, ['start', 'end'], 'an export').end);
  });
});
