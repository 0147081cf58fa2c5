import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { parseTimestamptz } from './timestamp-parser';

const general = pg.types.getTypeParser(1184, 'text') as (s: string) => Date;
const fast = (s: string) => parseTimestamptz(s, general) as Date;

describe('timestamptz text parser', () => {
  it('reads what PostgreSQL writes exactly as the driver does', () => {
    for (const s of [
      '2026-11-22 08:35:12.123456+00',
      '2026-11-22 08:35:12+00',
      '2026-11-22 08:35:12.1+00',
      '2026-11-22 08:35:12.999999+00',
      '2026-03-29 01:59:59.5+01',
      '2026-11-22 08:35:12.123-05',
      '2026-11-22 08:35:12+05:30',
      '1969-12-31 23:59:59.999+00',
      '2000-02-29 12:00:00+14',
      '2026-11-22 08:35:12.123+05:45:30',
    ]) {
      assert.equal(fast(s).getTime(), general(s).getTime(), s);
    }
  });

  it('agrees with the driver on random instants in random offsets', () => {
    for (let k = 0; k < 2000; k++) {
      const t = Math.floor(Math.random() * 4e12) - 1e12;
      const offMin = (Math.floor(Math.random() * 57) - 28) * 30;
      const d = new Date(t + offMin * 60_000);
      const p = (v: number, w = 2) => String(Math.abs(v)).padStart(w, '0');
      const frac = String(Math.floor(Math.random() * 1e6))
        .padStart(6, '0')
        .slice(0, 1 + Math.floor(Math.random() * 6));
      const off = `${offMin < 0 ? '-' : '+'}${p(Math.trunc(Math.abs(offMin) / 60))}${Math.abs(offMin) % 60 ? `:${p(Math.abs(offMin) % 60)}` : ''}`;
      const s = `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${frac}${off}`;
      assert.equal(fast(s).getTime(), general(s).getTime(), s);
    }
  });

  it('leaves unusual values to the general parser', () => {
    for (const s of ['infinity', '-infinity', '0044-03-15 12:00:00+00 BC', '0099-01-01 00:00:00+00']) {
      assert.deepEqual(fast(s), general(s), s);
    }
  });
});
