import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { columnsGivingWay, toColDefs, type BlotterColumn } from './columns';
import { orderActionColumns } from '../../screens/order-actions/orderActionColumns';

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

// Columns give way (hide, lowest giveWay first) only as far as the grid is too narrow.
describe('columns giving way', () => {
  const columns: BlotterColumn<Row>[] = [
    { id: 'id', header: 'ID', value: (r) => r.id, width: 60, giveWay: 1 },
    { id: 'symbol', header: 'Symbol', value: (r) => r.symbol, width: 150, grid: { flex: 1, minWidth: 100 } },
    { id: 'clordid', header: 'Client Order ID', value: () => null, width: 110, giveWay: 2 },
    { id: 'qty', header: 'Qty', value: () => null, width: 80 },
  ];
  const defs = toColDefs(columns);

  it('hides nothing when every column fits (a flex column at its minimum)', () => {
    assert.deepEqual(columnsGivingWay(defs, 350), []);
    assert.deepEqual(columnsGivingWay(defs, 2000), []);
  });

  it('hides giveWay 1 first, then 2, and never a column without giveWay', () => {
    assert.deepEqual(columnsGivingWay(defs, 349), ['id']);
    assert.deepEqual(columnsGivingWay(defs, 290), ['id']);
    assert.deepEqual(columnsGivingWay(defs, 289), ['id', 'clordid']);
    assert.deepEqual(columnsGivingWay(defs, 50), ['id', 'clordid']);
  });

  it('the Order Actions table at 1280 px keeps what matters and needs its two columns hidden, none at 1600', () => {
    const actions = toColDefs(orderActionColumns('UTC'));
    // The grid's width less the scrollbar allowance: 1280 and 1600 windows less page padding and scrollbar.
    assert.deepEqual(columnsGivingWay(actions, 1280 - 32 - 15 - 2 - 18), ['id', 'clordid']);
    assert.deepEqual(columnsGivingWay(actions, 1600 - 32 - 15 - 2 - 18), []);
  });
});
