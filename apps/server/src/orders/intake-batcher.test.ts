// The intake batcher's co-commit: a reply reserved on a session is persisted by the very commit that
// stores its order (one WAL flush for both), written only after it, and a reply that cannot join the
// commit never costs the order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IntakeEntry, IntakeOutcome, NewOrderRecord } from '@fixdesk/db';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import type { SendReservation } from '@fixdesk/fix';
import pino from 'pino';
import { IntakeBatcher, type CoCommittedSend } from './intake-batcher';

const log = pino({ level: 'silent' });
const SESSION = { b: 'FIX.4.4', s: 'FIXDESK', t: 'CO_CLIENT' };

function record(clordid: string, connectorId: number): NewOrderRecord {
  return {
    clordid, clientConnectorId: connectorId, sendercompid: SESSION.t, targetcompid: SESSION.s, sessionDate: '2025-03-14', msgType: 'D',
    symbol: 'C5TC', securityType: 'FUT', maturityMonthYear: '202506', side: '1', ordType: '2', price: '27000', orderQty: '10',
    timeInForce: '0', exchange: 'SGX', currency: null, account: null, text: null, transactTime: new Date('2025-03-14T09:00:00Z'),
    legs: [], parties: [],
  };
}

/** A reservation as a session would hand it out, recording how it was settled. */
function fakeReservation(seq: number, clOrdID: string, creationTime: Date, written = true) {
  const events: string[] = [];
  const reservation: SendReservation = {
    msgSeqNum: seq,
    record: {
      direction: 'TX', msgSeqNum: seq, msgType: '8', senderCompID: SESSION.s, targetCompID: SESSION.t, sendingTime: '20250314-09:00:00.000',
      clOrdID, raw: `8=FIX.4.4\u00019=5\u000135=8\u000134=${seq}\u000111=${clOrdID}\u000110=000\u0001`,
    },
    storeCreationTime: creationTime,
    committed: async () => {
      events.push('committed');
      return written;
    },
    failed: (err) => {
      events.push(`failed: ${err instanceof Error ? err.message : String(err)}`);
    },
  };
  return { reservation, events };
}

for (const kind of TEST_DB_KINDS) {
  describe(`intake batcher replies in the order's commit, on ${kind}`, () => {
    let t: TestDatabase;
    let connectorId = 0;
    const creationTime = new Date('2025-03-14T08:00:00.000Z');

    before(async () => {
      t = await createTestDatabase(kind);
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days)
         VALUES ($1, 'COC', $2, '00:00:00', '23:59:59', 'M,T,W,T,F') RETURNING id`,
        [SESSION.t, SESSION.s],
      );
      connectorId = rows[0]!.id;
      await t.db.query(
        `INSERT INTO fix_session_state (begin_string, sender_comp_id, target_comp_id, next_sender_seq, next_target_seq, creation_time)
         VALUES ($1, $2, $3, 5, 1, $4)`,
        [SESSION.b, SESSION.s, SESSION.t, creationTime],
      );
    });
    after(async () => {
      await t?.dispose();
    });

    const entry = (clordid: string): IntakeEntry => ({ order: record(clordid, connectorId), execIdPrefix: 'COC', reportTime: new Date() });

    it('stores the reply with the order, marks its report sent, and writes it only after the commit', async () => {
      const batcher = new IntakeBatcher(t.db, log);
      const fake = fakeReservation(5, 'CO-1', creationTime);
      let replied: boolean | undefined;
      let seenInDbWhenCommitted: number | undefined;
      let committedRun: Promise<boolean> | undefined;
      const outcome = await batcher.submit(
        entry('CO-1'),
        (_o, r) => {
          replied = r;
        },
        (o: IntakeOutcome): CoCommittedSend | undefined => {
          assert.equal(o.kind, 'stored');
          if (o.kind !== 'stored') return undefined;
          const committed = fake.reservation.committed;
          return {
            outbound: { beginString: SESSION.b, record: fake.reservation.record, storeCreationTime: creationTime },
            reservation: {
              ...fake.reservation,
              committed: () =>
                (committedRun = (async () => {
                  // The bytes go out only once the order and the reply are both durable.
                  const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM fix_messages WHERE clordid = 'CO-1' AND direction = 'TX'`);
                  seenInDbWhenCommitted = rows[0]!.n;
                  return committed();
                })()),
            },
          };
        },
      );
      assert.equal(outcome.kind, 'stored');
      await batcher.idle();
      await committedRun;
      assert.equal(replied, true, 'the caller learns the reply is taken care of (no outbox send)');
      assert.deepEqual(fake.events, ['committed']);
      assert.equal(seenInDbWhenCommitted, 1);
      const { rows: msgs } = await t.db.query<{ msg_seq_num: number; poss_dup: boolean }>(
        `SELECT msg_seq_num, poss_dup FROM fix_messages WHERE clordid = 'CO-1' AND direction = 'TX'`,
      );
      assert.deepEqual(msgs, [{ msg_seq_num: 5, poss_dup: false }], 'resendable under its number');
      const { rows: st } = await t.db.query<{ next_sender_seq: number }>('SELECT next_sender_seq FROM fix_session_state WHERE target_comp_id = $1', [SESSION.t]);
      assert.equal(st[0]!.next_sender_seq, 6);
      const { rows: ers } = await t.db.query<{ sent_seq_num: number | null; sent_at: Date | null }>(
        `SELECT sent_seq_num, sent_at FROM execution_reports WHERE clordid = 'CO-1'`,
      );
      assert.equal(ers[0]!.sent_seq_num, 5);
      assert.ok(ers[0]!.sent_at, 'not left for the outbox to send again');
    });

    it('never lowers a next sender number the store already moved past', async () => {
      await t.db.query('UPDATE fix_session_state SET next_sender_seq = 20 WHERE target_comp_id = $1', [SESSION.t]);
      const batcher = new IntakeBatcher(t.db, log);
      const fake = fakeReservation(6, 'CO-2', creationTime);
      await batcher.submit(entry('CO-2'), () => {}, (o) =>
        o.kind === 'stored' ? { outbound: { beginString: SESSION.b, record: fake.reservation.record, storeCreationTime: creationTime }, reservation: fake.reservation } : undefined,
      );
      const { rows } = await t.db.query<{ next_sender_seq: number }>('SELECT next_sender_seq FROM fix_session_state WHERE target_comp_id = $1', [SESSION.t]);
      assert.equal(rows[0]!.next_sender_seq, 20);
    });

    it('a reply stored but never written (the connection went) leaves its report for the outbox at the next logon', async () => {
      const batcher = new IntakeBatcher(t.db, log);
      await t.db.query('UPDATE fix_session_state SET next_sender_seq = 40 WHERE target_comp_id = $1', [SESSION.t]);
      const lost = fakeReservation(40, 'CO-6', creationTime, false);
      await batcher.submit(entry('CO-6'), () => {}, (o) =>
        o.kind === 'stored' ? { outbound: { beginString: SESSION.b, record: lost.reservation.record, storeCreationTime: creationTime }, reservation: lost.reservation } : undefined,
      );
      let row: { sent_at: Date | null } | undefined;
      for (let i = 0; i < 100 && row?.sent_at !== null; i++) {
        await new Promise((r) => setTimeout(r, 10));
        row = (await t.db.query<{ sent_at: Date | null }>(`SELECT sent_at FROM execution_reports WHERE clordid = 'CO-6'`)).rows[0];
      }
      assert.equal(row?.sent_at, null, 'unsent again: recover() sends it, PossResend');
    });

    it('a hook that throws leaves no reservation unsettled: the ones before it commit, its order goes in with its reply left to the outbox', async () => {
      const batcher = new IntakeBatcher(t.db, log);
      const first = fakeReservation(30, 'CO-4', creationTime);
      await t.db.query('UPDATE fix_session_state SET next_sender_seq = 30 WHERE target_comp_id = $1', [SESSION.t]);
      const replied: boolean[] = [];
      const [a, b] = await Promise.all([
        batcher.submit(entry('CO-4'), (_o, r) => replied.push(r), (o) =>
          o.kind === 'stored' ? { outbound: { beginString: SESSION.b, record: first.reservation.record, storeCreationTime: creationTime }, reservation: first.reservation } : undefined,
        ),
        batcher.submit(entry('CO-5'), (_o, r) => replied.push(r), () => {
          throw new Error('character U+0141 cannot be encoded');
        }),
      ]);
      assert.deepEqual([a.kind, b.kind], ['stored', 'stored']);
      assert.deepEqual(first.events, ['committed']);
      assert.deepEqual(replied, [true, false]);
      const { rows } = await t.db.query<{ clordid: string; sent_seq_num: number | null }>(
        `SELECT clordid, sent_seq_num FROM execution_reports WHERE clordid IN ('CO-4', 'CO-5') ORDER BY clordid`,
      );
      assert.deepEqual(rows, [{ clordid: 'CO-4', sent_seq_num: 30 }, { clordid: 'CO-5', sent_seq_num: null }]);
    });

    it('a reply numbered before a store reset fails its session, and the order is still stored, its report left to the outbox', async () => {
      const batcher = new IntakeBatcher(t.db, log);
      const stale = fakeReservation(7, 'CO-3', new Date('2025-03-13T08:00:00.000Z'));
      let replied: boolean | undefined;
      const outcome = await batcher.submit(
        entry('CO-3'),
        (_o, r) => {
          replied = r;
        },
        (o) =>
          o.kind === 'stored'
            ? { outbound: { beginString: SESSION.b, record: stale.reservation.record, storeCreationTime: stale.reservation.storeCreationTime }, reservation: stale.reservation }
            : undefined,
      );
      assert.equal(outcome.kind, 'stored');
      assert.equal(replied, false, 'the outbox sends it');
      assert.equal(stale.events.length, 1);
      assert.match(stale.events[0]!, /^failed: .*reset/);
      const { rows: orders } = await t.db.query(`SELECT 1 FROM orders WHERE clordid = 'CO-3'`);
      assert.equal(orders.length, 1, 'the order is not lost');
      const { rows: msgs } = await t.db.query(`SELECT 1 FROM fix_messages WHERE clordid = 'CO-3'`);
      assert.equal(msgs.length, 0, 'nothing stored under the void number');
      const { rows: ers } = await t.db.query<{ sent_at: Date | null }>(`SELECT sent_at FROM execution_reports WHERE clordid = 'CO-3'`);
      assert.equal(ers[0]!.sent_at, null);
    });
  });
}
