import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from '@fixdesk/db';
import pino from 'pino';
import { NodeWatch } from './node-watch';

/** A database whose live node leases are whatever `live` holds at each look. */
function fakeDb(live: { current: string[] }): Db {
  const query = async () => ({
    rows: live.current.map((id) => ({ name: `node:${id}`, acquired_at: new Date(0), settled: true })),
    rowCount: live.current.length,
  });
  return { query } as unknown as Db;
}

describe('NodeWatch', () => {
  it('tells of another node whose lease ran out, never of its own node (a late renewal of its own lease)', async () => {
    const live = { current: ['self:1', 'other:2'] };
    const told: string[][] = [];
    const watch = new NodeWatch(fakeDb(live), 'self:1', 3_000, (gone) => void told.push(gone), pino({ level: 'silent' }));
    await watch.check();
    // Its own renewal came late: its lease lapsed, and it is still running.
    live.current = ['other:2'];
    await watch.check();
    assert.deepEqual(told, []);
    live.current = ['self:1'];
    await watch.check();
    assert.deepEqual(told, [['other:2']]);
  });
});
