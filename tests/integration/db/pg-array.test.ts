import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pgArray } from '../../../packages/db/src/pg-array';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';

describe('pgArray', () => {
  it('writes scalars, nulls and quoted strings', () => {
    assert.equal(pgArray([]), '{}');
    assert.equal(pgArray([1, 2.5, null, undefined]), '{1,2.5,NULL,NULL}');
    assert.equal(pgArray([true, false]), '{t,f}');
    assert.equal(pgArray(['a', '', 'NULL', 'x y', 'a"b', 'c\\d']), '{"a","","NULL","x y","a\\"b","c\\\\d"}');
    assert.equal(pgArray([new Date('2025-03-14T09:00:01.123Z')]), '{"2025-03-14T09:00:01.123Z"}');
    assert.throws(() => pgArray([Number.NaN]), RangeError);
    assert.throws(() => pgArray([new Date(Number.NaN)]), RangeError);
  });
});

for (const kind of TEST_DB_KINDS) {
  describe(`pgArray read back by ${kind}`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await createTestDatabase(kind, { migrate: false });
    });
    after(async () => {
      await t?.dispose();
    });

    it('gives back every value as the driver would have sent it', async () => {
      const texts = [
        'plain',
        '',
        'NULL',
        'null',
        ' spaced ',
        'quote " here',
        'back \\ slash',
        '{braces},comma',
        '8=FIX.4.4\u00019=5\u000135=8\u0001',
        'é ü ß',
        null,
      ];
      const { rows } = await t.db.query<{ t: Array<string | null>; n: string[]; i: number[]; d: Date[]; b: boolean[] }>(
        'SELECT $1::text[] AS t, $2::numeric[]::text[] AS n, $3::int[] AS i, $4::timestamptz[] AS d, $5::boolean[] AS b',
        [
          pgArray(texts),
          pgArray(['14325.50', '0.000001', null]),
          pgArray([1, -2, 2_147_483_647]),
          pgArray([new Date('2025-03-14T09:00:01.123Z')]),
          pgArray([true, false]),
        ],
      );
      assert.deepEqual(rows[0]!.t, texts);
      assert.deepEqual(rows[0]!.n, ['14325.50', '0.000001', null]);
      assert.deepEqual(rows[0]!.i, [1, -2, 2_147_483_647]);
      assert.equal(rows[0]!.d[0]!.toISOString(), '2025-03-14T09:00:01.123Z');
      assert.deepEqual(rows[0]!.b, [true, false]);
    });
  });
}
