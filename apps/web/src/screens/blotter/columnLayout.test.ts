import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { columnLayoutKey, parseSavedLayout, serializeLayout, toSavedLayout } from './columnLayout';

describe('the remembered column layout', () => {
  it('is kept per user', () => {
    assert.notEqual(columnLayoutKey(1), columnLayoutKey(2));
  });
  it('reads back what it wrote: order, widths, hidden columns, sort', () => {
    const saved = toSavedLayout([
      { colId: 'symbol', width: 150, hide: false, sort: 'asc', sortIndex: 0 },
      { colId: 'id', width: 62, hide: true, sort: null },
    ]);
    assert.deepEqual(parseSavedLayout(serializeLayout(saved), ['id', 'symbol']), [
      { colId: 'symbol', width: 150, hide: false, sort: 'asc', sortIndex: 0 },
      { colId: 'id', width: 62, hide: true, sort: null, sortIndex: null },
    ]);
  });
  it('drops unknown or repeated columns and absurd widths, and ignores unreadable text', () => {
    const text = JSON.stringify({
      v: 1,
      columns: [
        { colId: 'gone', width: 90 },
        { colId: 'id', width: 1e9, sort: 'sideways' },
        { colId: 'id', width: 80 },
      ],
    });
    assert.deepEqual(parseSavedLayout(text, ['id']), [{ colId: 'id', hide: false, sort: null, sortIndex: null }]);
    assert.equal(parseSavedLayout('{not json', ['id']), null);
    assert.equal(parseSavedLayout(JSON.stringify({ v: 99, columns: [] }), ['id']), null);
    assert.equal(parseSavedLayout(null, ['id']), null);
  });
});
