import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Papa from 'papaparse';
import { toCsvText, type CsvColumn } from './csv';

interface Row {
  id: number;
  notes: string | null;
  price: string;
}

const columns: CsvColumn<Row>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Notes', value: (r) => r.notes, format: (r) => (r.notes ?? '').slice(0, 5), csv: (r) => r.notes },
  { header: 'Price', value: (r) => r.price },
  { header: 'View', csvHeader: 'Raw', value: () => 'x' },
  { header: 'Button', value: () => 'b', noCsv: true },
];

const parse = (text: string) => Papa.parse<string[]>(text, { newline: '\r\n' }).data;

describe('CSV export', () => {
  it('writes the grid columns with their CSV text and headings, CRLF lines', () => {
    const text = toCsvText(columns, [{ id: 1, notes: 'a long note', price: '27000.50' }]);
    assert.equal(text, 'ID,Notes,Price,Raw\r\n1,a long note,27000.50,x');
  });

  it('escapes quotes, commas and newlines through the library, and reads back to the same values', () => {
    const notes = 'he said "fill, now"\nsecond line';
    const text = toCsvText(columns, [{ id: 2, notes, price: '1' }]);
    assert.equal(text.split('\r\n')[1], `2,"he said ""fill, now""\nsecond line",1,x`);
    assert.deepEqual(parse(text)[1], ['2', notes, '1', 'x']);
  });

  it('neutralises cells starting with = + - @ tab or carriage return (OWASP), not negative numbers', () => {
    const cases = ['=HYPERLINK("http://x")', '+1+2', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd', '-cmd|x'];
    for (const notes of cases) {
      const back = parse(toCsvText(columns, [{ id: 3, notes, price: '-5.25' }]))[1]!;
      assert.equal(back[1], `'${notes}`, JSON.stringify(notes));
      assert.equal(back[2], '-5.25', 'a negative price stays a number');
    }
    const text = toCsvText(columns, [{ id: 4, notes: '=1+1', price: '-10' }]);
    assert.equal(text.split('\r\n')[1], `4,"'=1+1",-10,x`);
  });

  it('leaves empty and null cells empty', () => {
    assert.equal(toCsvText(columns, [{ id: 5, notes: null, price: '' }]).split('\r\n')[1], '5,,,x');
  });
});
