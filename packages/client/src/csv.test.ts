import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Papa from 'papaparse';
import { csvChunk, csvText, FORMULA_TRIGGER, type CsvField } from './csv';

const fields: CsvField<{ id: number; note: string }>[] = [
  { id: 'id', header: 'ID', value: (r) => r.id },
  { id: 'note', header: 'Note', value: (r) => r.note },
];

describe('csvChunk', () => {
  it('pieces written one after the other make one file: the heading, then each row, no empty line', () => {
    const file =
      csvChunk(fields, [], true) +
      csvChunk(fields, [{ id: 1, note: 'a' }]) +
      csvChunk(fields, []) +
      csvChunk(fields, [{ id: 2, note: '=1+2' }]);
    assert.equal(file, `ID,Note\r\n1,a\r\n2,"'=1+2"\r\n`);
  });
});

describe('csvText', () => {
  it('writes a cell starting with a full-width ＝ ＋ － ＠ as text, as the ASCII ones', () => {
    const rows = ['\uFF1DSUM(A1)', '\uFF0B1', '\uFF0D5', '\uFF20x', '=1', 'a\uFF1D1'].map((note, id) => ({ id, note }));
    assert.equal(csvText(fields, rows, false), `0,"'＝SUM(A1)"\r\n1,"'＋1"\r\n2,"'－5"\r\n3,"'＠x"\r\n4,"'=1"\r\n5,a＝1`);
  });

  it('quotes, doubles quotes and writes formulas as text; a CSV reader gets the values back', () => {
    const tricky = [
      '',
      'plain',
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\rhere',
      ' lead',
      'trail ',
      '\ufeffbom',
      '=SUM(A1)',
      '+1',
      '@x',
      '\tx',
      '-5',
      '-12.25',
      '-x',
      '8=FIX.4.4|35=8|58=a, "b"|',
      'é ü 中',
    ];
    // And random strings over the characters that matter.
    const alphabet = ['a', ',', '"', '\n', '\r', ' ', '=', '-', '1', '.', '@', '\t', '|', '\ufeff'];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 500; i++)
      tricky.push(Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    const rows = tricky.map((note, id) => ({ id, note }));
    const ours = csvText(fields, rows);
    const back = Papa.parse<string[]>(ours, { newline: '\r\n' }).data.slice(1);
    assert.deepEqual(
      back.map((r) => r[1]),
      tricky.map((t) => (FORMULA_TRIGGER.test(t) ? `'${t}` : t)),
    );
  });
});
