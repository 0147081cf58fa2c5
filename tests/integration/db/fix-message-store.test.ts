import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SessionID } from '@fixdesk/fix';
import { runMessageStoreSuite } from '@fixdesk/fix/store-suite';
import { openDb, type Db } from '../../../packages/db/src/db';
import { persistReservedOutbound, PgMessageStoreFactory } from '../../../packages/db/src/fix-message-store';
import { migrate } from '../../../packages/db/src/migrate';
import { createTestDatabase, TEST_DB_KINDS } from '@fixdesk/db/testing';

// PGlite on disk in a temp dir: "reopen" opens the same directory again, as a restarted process would.
runMessageStoreSuite('PostgreSQL store on PGlite (temp dir)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fix-store-'));
  let db: Db = await openDb({ dataDir: dir });
  await migrate(db);
  return {
    factory: new PgMessageStoreFactory(db),
    reopen: async () => {
      // PGlite is single-process: the dead process's handle must be let go before the directory is
      // opened again. Everything a store call resolved was committed, which is all a crash keeps.
      await db.close();
      db = await openDb({ dataDir: dir });
      return new PgMessageStoreFactory(db);
    },
    cleanup: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

// The local PostgreSQL server, in a throwaway database per run.
runMessageStoreSuite('PostgreSQL store on PostgreSQL (throwaway database)', async () => {
  const t = await createTestDatabase('postgres');
  const extra: Db[] = [];
  return {
    factory: new PgMessageStoreFactory(t.db),
    reopen: async () => {
      // A new pool, as a restarted process would have; the old one is left as a crash leaves it.
      const db = await openDb({ databaseUrl: t.url, poolSize: 2 });
      extra.push(db);
      return new PgMessageStoreFactory(db);
    },
    cleanup: async () => {
      for (const db of extra) await db.close();
      await t.dispose();
    },
  };
});

// Behaviour of the group commit itself, beyond the shared suite.
describe('PgMessageStore group commit', () => {
  const created = new Date('2024-01-02T09:00:00.000Z');
  const soh = '\x01';
  const raw = (seq: number) => `8=FIX.4.4${soh}9=5${soh}35=D${soh}34=${seq}${soh}10=000${soh}`;
  const tx = (id: SessionID, seq: number) => ({
    direction: 'TX' as const,
    msgSeqNum: seq,
    msgType: 'D',
    senderCompID: id.senderCompID,
    targetCompID: id.targetCompID,
    sendingTime: '20240102-09:00:00.000',
    raw: raw(seq),
  });
  let n = 0;
  const session = (): SessionID => ({ beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: `GC_${process.pid}_${++n}` });

  for (const kind of TEST_DB_KINDS) {
    it(`keeps a reset between writes issued without waiting in its place (${kind})`, async () => {
      const t = await createTestDatabase(kind);
      try {
        const id = session();
        const store = await new PgMessageStoreFactory(t.db).open(id, created);
        const writes = [
          store.saveOutbound(tx(id, 1)),
          store.saveOutbound(tx(id, 2)),
          store.reset(new Date('2024-01-03T00:00:00Z')),
          store.saveOutbound(tx(id, 1)),
        ];
        await Promise.all(writes);
        const s = await store.sequenceState();
        assert.deepEqual([s.nextSenderMsgSeqNum, s.nextTargetMsgSeqNum], [2, 1]);
        assert.equal((await store.outboundRange(1, 10, 10)).length, 1, 'only the message after the reset is offered for resend');
        const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM fix_messages WHERE target_comp_id = $1', [
          id.targetCompID,
        ]);
        assert.equal(rows[0]!.n, 3, 'the audit keeps all three');
      } finally {
        await t.dispose();
      }
    });

    it(`stores an inbound message with the time it arrived, an outbound one with its SendingTime, both on our clock (${kind})`, async () => {
      const t = await createTestDatabase(kind);
      try {
        const id = session();
        const store = await new PgMessageStoreFactory(t.db).open(id, created);
        const arrived = Date.parse('2024-01-02T09:00:01.234Z');
        await store.saveInbound({ ...tx(id, 1), direction: 'RX', receivedAt: arrived }, 2);
        await store.saveOutbound({ ...tx(id, 1), sendingTime: '20240102-09:00:01.240' });
        const { rows } = await t.db.query<{ direction: string; created_at: Date }>(
          'SELECT direction, created_at FROM fix_messages WHERE target_comp_id = $1 ORDER BY id',
          [id.targetCompID],
        );
        assert.deepEqual(
          rows.map((r) => r.direction),
          ['RX', 'TX'],
        );
        assert.equal(rows[0]!.created_at.getTime(), arrived);
        assert.equal(rows[1]!.created_at.toISOString(), '2024-01-02T09:00:01.240Z');
      } finally {
        await t.dispose();
      }
    });

    it(`a bad write fails alone; its neighbours in the same flush commit (${kind})`, async () => {
      const t = await createTestDatabase(kind);
      try {
        const a = session();
        const b = session();
        const factory = new PgMessageStoreFactory(t.db);
        const [sa, sb] = await Promise.all([factory.open(a, created), factory.open(b, created)]);
        // An arrival time no timestamp can hold fails the whole statement it is batched in.
        const bad = sb.saveInbound({ ...tx(b, 1), direction: 'RX', receivedAt: 1e20 }, 2);
        const results = await Promise.allSettled([sa.saveOutbound(tx(a, 1)), bad, sa.saveInbound({ ...tx(a, 1), direction: 'RX' }, 2)]);
        assert.deepEqual(
          results.map((r) => r.status),
          ['fulfilled', 'rejected', 'fulfilled'],
        );
        const s = await sa.sequenceState();
        assert.deepEqual([s.nextSenderMsgSeqNum, s.nextTargetMsgSeqNum], [2, 2]);
        assert.equal((await sb.sequenceState()).nextTargetMsgSeqNum, 1);
      } finally {
        await t.dispose();
      }
    });

    it(`keeps a message with a NUL byte, which a text column cannot hold, with U+FFFD in its place (${kind})`, async () => {
      const t = await createTestDatabase(kind);
      try {
        const a = session();
        const store = await new PgMessageStoreFactory(t.db).open(a, created);
        await store.saveInbound({ ...tx(a, 1), direction: 'RX', clOrdID: 'X\u0000', raw: `8=FIX.4.4${soh}58=a\u0000b${soh}` }, 2);
        const { rows } = await t.db.query<{ raw_fix: string; clordid: string }>(
          `SELECT raw_fix, clordid FROM fix_messages WHERE direction = 'RX'`,
        );
        assert.deepEqual(rows, [{ raw_fix: `8=FIX.4.4${soh}58=a\uFFFDb${soh}`, clordid: 'X\uFFFD' }]);
        assert.equal((await store.sequenceState()).nextTargetMsgSeqNum, 2);
      } finally {
        await t.dispose();
      }
    });
  }
});

describe('the PostgreSQL store next to replies persisted in an order commit', () => {
  for (const kind of TEST_DB_KINDS) {
    it(`on ${kind}: a message sent with a lower number, committed later, never lowers the next sender number`, async () => {
      const t = await createTestDatabase(kind);
      try {
        const factory = new PgMessageStoreFactory(t.db);
        const id = { beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: 'ORDERLY' };
        const store = await factory.open(id, new Date('2026-01-01T00:00:00Z'));
        const { creationTime } = await store.sequenceState();
        // Number 2 went into an order's commit (the reply), number 1 (a Reject) is still being stored.
        await persistReservedOutbound(t.db, [
          {
            beginString: 'FIX.4.4',
            storeCreationTime: creationTime,
            record: {
              direction: 'TX',
              msgSeqNum: 2,
              msgType: '8',
              senderCompID: 'FIXDESK',
              targetCompID: 'ORDERLY',
              sendingTime: '20260101-00:00:01.000',
              raw: 'reply',
            },
          },
        ]);
        await store.saveOutbound({
          direction: 'TX',
          msgSeqNum: 1,
          msgType: '3',
          senderCompID: 'FIXDESK',
          targetCompID: 'ORDERLY',
          sendingTime: '20260101-00:00:00.500',
          raw: 'reject',
        });
        assert.equal((await store.sequenceState()).nextSenderMsgSeqNum, 3);
        // An operator's set is taken as it is.
        await store.setNextSenderMsgSeqNum(2);
        assert.equal((await store.sequenceState()).nextSenderMsgSeqNum, 2);
        assert.deepEqual(
          (await store.outboundRange(1, 2, 10)).map((m) => m.raw),
          ['reject', 'reply'],
        );
        // Numbers sent after the set count again, and a restarted process reads the same.
        await store.saveOutbound({ ...reject(2), raw: 'after the set' });
        assert.equal((await store.sequenceState()).nextSenderMsgSeqNum, 3);
        const reopened = await new PgMessageStoreFactory(t.db).open(id, new Date('2026-01-02T00:00:00Z'));
        assert.equal((await reopened.sequenceState()).nextSenderMsgSeqNum, 3);
      } finally {
        await t.dispose();
      }
    });

    it(`on ${kind}: a reply persisted in an order's commit moves the next sender number without writing the session's row`, async () => {
      const t = await createTestDatabase(kind);
      try {
        const id = { beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: 'UNLOCKED' };
        const store = await new PgMessageStoreFactory(t.db).open(id, new Date('2026-01-01T00:00:00Z'));
        const { creationTime } = await store.sequenceState();
        const before = await t.db.query('SELECT next_sender_seq, updated_at FROM fix_session_state WHERE target_comp_id = $1', [
          'UNLOCKED',
        ]);
        await persistReservedOutbound(t.db, [
          { beginString: 'FIX.4.4', storeCreationTime: creationTime, record: { ...reply(7), targetCompID: 'UNLOCKED' } },
        ]);
        assert.equal((await store.sequenceState()).nextSenderMsgSeqNum, 8);
        const after = await t.db.query('SELECT next_sender_seq, updated_at FROM fix_session_state WHERE target_comp_id = $1', ['UNLOCKED']);
        assert.deepEqual(after.rows, before.rows, 'the row is read, never written (so never locked) by the reply');
        // A reset starts a numbering of its own: the replies of the old one no longer count.
        await store.reset(new Date('2026-01-03T00:00:00Z'));
        assert.equal((await store.sequenceState()).nextSenderMsgSeqNum, 1);
      } finally {
        await t.dispose();
      }
    });
  }

  it("on postgres: a reply persisted in an order's commit does not wait for a transaction that holds the session's row", async () => {
    const t = await createTestDatabase('postgres');
    const holder = await openDb({ databaseUrl: t.url, poolSize: 1 });
    try {
      const id = { beginString: 'FIX.4.4', senderCompID: 'FIXDESK', targetCompID: 'HELD' };
      const store = await new PgMessageStoreFactory(t.db).open(id, new Date('2026-01-01T00:00:00Z'));
      const { creationTime } = await store.sequenceState();
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      // The store's flush of an inbound number, say: it holds the row until its commit.
      const holding = holder.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM fix_session_state WHERE target_comp_id = $1 FOR UPDATE', ['HELD']);
        locked();
        await released;
      });
      await isLocked;
      const persisted = persistReservedOutbound(t.db, [
        { beginString: 'FIX.4.4', storeCreationTime: creationTime, record: { ...reply(1), targetCompID: 'HELD' } },
      ]);
      const outcome = await Promise.race([
        persisted.then(() => 'persisted'),
        new Promise((r) => setTimeout(() => r('still waiting'), 5000)),
      ]);
      release();
      await holding;
      await persisted;
      assert.equal(outcome, 'persisted');
      assert.equal((await store.sequenceState()).nextSenderMsgSeqNum, 2);
    } finally {
      await holder.close();
      await t.dispose();
    }
  });
});

function reply(seq: number) {
  return {
    direction: 'TX' as const,
    msgSeqNum: seq,
    msgType: '8',
    senderCompID: 'FIXDESK',
    targetCompID: 'ORDERLY',
    sendingTime: '20260101-00:00:01.000',
    raw: `reply ${seq}`,
  };
}

function reject(seq: number) {
  return { ...reply(seq), msgType: '3', raw: `reject ${seq}` };
}
