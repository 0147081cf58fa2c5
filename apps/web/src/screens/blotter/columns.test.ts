import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toColDefs, type BlotterColumn } from './columns';

interface Row {
  id: number;
  symbol: string;
}

describe('grid column definitions', () => {
  it('declare no column filters (spec 000 §2 gives the blotter none; AG Grid Community could not open them)', () => {
    const columns: BlotterColumn<Row>[] = [
      { id: 'id', header: 'ID', value: (r) => r.id, width: 60, numeric: true },
      { id: 'symbol', header: 'Symbol', value: (r) => r.symbol, width: 120, grid: { tooltipValueGetter: (p) => p.data?.symbol } },
    ];
    for (const def of toColDefs(columns)) {
      assert.equal(def.filter, false, `${def.colId} has no filter`);
      assert.equal(def.floatingFilter, undefined);
    }
    // A column table cannot declare a filter, directly or through its AG Grid extras.
    // @ts-expect-error no filter kind on a column
    const direct: BlotterColumn<Row> = { id: 'x', header: 'X', value: (r) => r.id, width: 10, filter: 'text' };
    // @ts-expect-error no filter through the AG Grid extras
    const extra: BlotterColumn<Row> = { id: 'y', header: 'Y', value: (r) => r.id, width: 10, grid: { filter: 'agTextColumnFilter' } };
    assert.ok(direct && extra);
  });
});
