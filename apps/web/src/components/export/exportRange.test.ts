import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkExportRange, defaultExportRange, exportFileName } from './exportRange';

// The test runs in UTC unless TZ says otherwise; the rules are stated in local days either way.
describe('export date range', () => {
  it('defaults to the last 30 days, ending today', () => {
    assert.deepEqual(defaultExportRange(new Date(2026, 2, 15, 10, 0)), { start: '2026-02-13', end: '2026-03-15' });
  });

  it('asks for the start day from its first millisecond and the end day inclusive to 23:59:59.999', () => {
    const r = checkExportRange({ start: '2026-03-01', end: '2026-03-15' });
    assert.ok(r.ok);
    assert.equal(r.startIso, new Date(2026, 2, 1, 0, 0, 0, 0).toISOString());
    assert.equal(r.endIso, new Date(2026, 2, 15, 23, 59, 59, 999).toISOString());
    const oneDay = checkExportRange({ start: '2026-03-15', end: '2026-03-15' });
    assert.ok(oneDay.ok);
  });

  it('needs both dates, real days, in order', () => {
    assert.deepEqual(checkExportRange({ start: '', end: '2026-03-15' }), { ok: false, field: 'start', message: 'Start date is required' });
    assert.deepEqual(checkExportRange({ start: '2026-03-01', end: ' ' }), { ok: false, field: 'end', message: 'End date is required' });
    assert.equal(checkExportRange({ start: '2026-02-31', end: '2026-03-15' }).ok, false);
    assert.equal(checkExportRange({ start: '15/03/2026', end: '2026-03-15' }).ok, false);
    assert.deepEqual(checkExportRange({ start: '2026-03-16', end: '2026-03-15' }), {
      ok: false,
      field: 'end',
      message: 'End date must not be before the start date',
    });
  });

  it('names the file after the range', () => {
    assert.equal(exportFileName('order_actions', { start: '2026-02-13', end: '2026-03-15' }), 'order_actions_2026-02-13_to_2026-03-15.csv');
    assert.equal(exportFileName('fix_messages', { start: '2026-02-13', end: '2026-03-15' }), 'fix_messages_2026-02-13_to_2026-03-15.csv');
  });
});
