import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvChunk, type CsvField } from './csv';

const fields: CsvField<{ id: number; note: string }>[] = [
  { id: 'id', header: 'ID', value: (r) => r.id },
  { id: 'note', header: 'Note', value: (r) => r.note },
];

describe('csvChunk', () => {
  it('pieces written one after the other make one file: the heading, then each row, no empty line', () => {
    const file = csvChunk(fields, [], true) + csvChunk(fields, [{ id: 1, note: 'a' }]) + csvChunk(fields, []) + csvChunk(fields, [{ id: 2, note: '=1+2' }]);
    assert.equal(file, `ID,Note\r\n1,a\r\n2,"'=1+2"\r\n`);
  });
});
