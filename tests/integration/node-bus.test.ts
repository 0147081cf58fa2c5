// The node bus on PostgreSQL LISTEN/NOTIFY (docs/adr/0012): messages of the other nodes only, in
// order; a missed number or a dropped listening connection tells the receiver to resync.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openDb } from '@fixdesk/db';
import { createTestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { PgNodeBus } from '../../apps/server/src/cluster/node-bus';
import { LISTENER_APPLICATION_NAME } from '../../packages/db/src/db';
import { until } from '../support/until';

const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

describe('node bus on PostgreSQL', () => {
  it("delivers the other nodes' messages in order, and calls for a resync after a missed number or a dropped connection", async () => {
    const t = await createTestDatabase('postgres', { migrate: false });
    const dbB = await openDb({ databaseUrl: t.url, poolSize: 2 });
    const a = new PgNodeBus(t.db, 'node-a', silent);
    const b = new PgNodeBus(dbB, 'node-b', silent);
    try {
      const gotB: unknown[] = [];
      const gotA: unknown[] = [];
      let gapsB = 0;
      await b.subscribe(
        'test_channel',
        (m) => gotB.push(m.x),
        () => gapsB++,
      );
      await a.subscribe(
        'test_channel',
        (m) => gotA.push(m.x),
        () => {},
      );
      for (let i = 1; i <= 5; i++) a.publish('test_channel', { x: i });
      await until('five messages', () => gotB.length === 5, 3_000);
      assert.deepEqual(gotB, [1, 2, 3, 4, 5]);
      assert.deepEqual(gotA, [], 'a node does not hear itself');
      assert.equal(gapsB, 0);

      // A message that could not be sent (too large for NOTIFY): its number is missing at the next one.
      a.publish('test_channel', { x: 'y'.repeat(9_000) });
      a.publish('test_channel', { x: 7 });
      await until('the message after the gap', () => gotB.length === 6, 3_000);
      assert.equal(gotB[5], 7);
      assert.equal(gapsB, 1);

      // node B's listening connection drops: it listens again and resyncs, and hears what follows.
      await t.db.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database() AND pid <> pg_backend_pid()',
        [LISTENER_APPLICATION_NAME],
      );
      await until('the resync after the reconnect', () => gapsB === 2, 3_000);
      a.publish('test_channel', { x: 8 });
      await until('a message after the reconnect', () => gotB.length === 7, 3_000);
      assert.equal(gotB[6], 8);
    } finally {
      await a.close();
      await b.close();
      await dbB.close();
      await t.dispose();
    }
  });
});
