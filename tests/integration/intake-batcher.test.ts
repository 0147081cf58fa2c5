// The intake batcher's co-commit: a reply reserved on a session is persisted by the very commit that
// stores its order (one WAL flush for both), written only after it, and a reply that cannot join the
// commit never costs the order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getOrderBundle, storedSequenceNumbers, type Db, type IntakeEntry, type IntakeOutcome, type NewOrderRecord } from '@fixdesk/db';
import { createTestDatabase, TEST_DB_KINDS, type TestDatabase } from '@fixdesk/db/testing';
import type { SendReservation } from '@fixdesk/fix';
import pino from 'pino';
import { IntakeBatcher, type CoCommittedSend } from '../../apps/server/src/orders/intake-batcher';

const log = pino({ level: 'silent' });
const SESSION = { b: 'FIX.4.4', s: 'FIXDESK', t: 'CO_CLIENT' };

function record(clordid: string, connectorId: number): NewOrderRecord {
  return {
    clordid,
    clientConnectorId: connectorId,
    sendercompid: SESSION.t,
    targetcompid: SESSION.s,
    sessionDate: '2025-03-14',
    msgType: 'D',
    symbol: 'C5TC',
    securityType: 'FUT',
    maturityMonthYear: '202506',
    side: '1',
    ordType: '2',
    price: '27000',
    orderQty: '10',
    timeInForce: '0',
    exchange: 'SGX',
    currency: null,
    account: null,
    text: null,
    transactTime: new Date('2025-03-14T09:00:00Z'),
    legs: [],
    parties: [],
  };
}

/** A reservation as a session would hand it out, recording how it was settled. */
function fakeReservation(seq: number, clOrdID: string, creationTime: Date, written = true) {
  const events: string[] = [];
  const reservation: SendReservation = {
    msgSeqNum: seq,
    record: {
      direction: 'TX',
      msgSeqNum: seq,
      msgType: '8',
      senderCompID: SESSION.s,
      targetCompID: SESSION.t,
      sendingTime: '20250314-09:00:00.000',
      clOrdID,
      raw: `8=FIX.4.4\u00019=5\u000135=8\u000134=${seq}\u000111=${clOrdID}\u000110=000\u0001`,
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

/** A new database with the test client's connector (ExecID prefix) and its session row (next sender number). */
async function clientDatabase(
  kind: (typeof TEST_DB_KINDS)[number],
  prefix: string,
  nextSender: number,
  creationTime: Date,
): Promise<{ t: TestDatabase; connectorId: number }> {
  const t = await createTestDatabase(kind);
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days)
     VALUES ($1, $2, $3, '00:00:00', '23:59:59', 'M,T,W,T,F') RETURNING id`,
    [SESSION.t, prefix, SESSION.s],
  );
  await t.db.query(
    `INSERT INTO fix_session_state (begin_string, sender_comp_id, target_comp_id, next_sender_seq, next_target_seq, creation_time)
     VALUES ($1, $2, $3, $4, 1, $5)`,
    [SESSION.b, SESSION.s, SESSION.t, nextSender, creationTime],
  );
  return { t, connectorId: rows[0]!.id };
}

/**
 * The database with the planned intake's statements held back on demand: after `holdNext()`, the next
 * one waits until `release()` (to have a batch in flight while later ones are submitted).
 */
function holdingDb(db: Db): { db: Db; holdNext(): void; release(): void } {
  let gate: Promise<void> | undefined;
  let open = () => {};
  const held: Db = {
    ...db,
    query: async (sql, params, options) => {
      const wait = options?.name?.startsWith('fix_store_atomic') ? gate : undefined;
      if (wait) {
        gate = undefined;
        await wait;
      }
      return db.query(sql, params, options);
    },
  } as Db;
  return {
    db: held,
    holdNext: () => {
      gate = new Promise<void>((r) => (open = r));
    },
    release: () => open(),
  };
}

for (const kind of TEST_DB_KINDS)
  for (const planned of [true, false]) {
    describe(`intake batcher replies in the order's commit, on ${kind}, ${planned ? 'planned (one statement)' : 'in a transaction'}`, () => {
      let t: TestDatabase;
      let connectorId = 0;
      const creationTime = new Date('2025-03-14T08:00:00.000Z');

      before(async () => {
        ({ t, connectorId } = await clientDatabase(kind, 'COC', 5, creationTime));
      });
      after(async () => {
        await t?.dispose();
      });

      const storedNumbers = () => storedSequenceNumbers(t.db, { beginString: SESSION.b, senderCompID: SESSION.s, targetCompID: SESSION.t });
      const entry = (clordid: string): IntakeEntry => ({
        order: record(clordid, connectorId),
        execIdPrefix: 'COC',
        reportTime: new Date(),
      });

      it('stores the reply with the order, marks its report sent, and writes it only after the commit', async () => {
        const batcher = new IntakeBatcher(t.db, log, { planned });
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
                    const { rows } = await t.db.query<{ n: number }>(
                      `SELECT count(*)::int AS n FROM fix_messages WHERE clordid = 'CO-1' AND direction = 'TX'`,
                    );
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
        assert.equal((await storedNumbers()).nextSender, 6, 'read from the message stored, the session row untouched');
        const { rows: ers } = await t.db.query<{ sent_seq_num: number | null; sent_at: Date | null }>(
          `SELECT sent_seq_num, sent_at FROM execution_reports WHERE clordid = 'CO-1'`,
        );
        assert.equal(ers[0]!.sent_seq_num, 5);
        assert.ok(ers[0]!.sent_at, 'not left for the outbox to send again');
      });

      it('never lowers a next sender number the store already moved past', async () => {
        await t.db.query('UPDATE fix_session_state SET next_sender_seq = 20 WHERE target_comp_id = $1', [SESSION.t]);
        const batcher = new IntakeBatcher(t.db, log, { planned });
        const fake = fakeReservation(6, 'CO-2', creationTime);
        await batcher.submit(
          entry('CO-2'),
          () => {},
          (o) =>
            o.kind === 'stored'
              ? {
                  outbound: { beginString: SESSION.b, record: fake.reservation.record, storeCreationTime: creationTime },
                  reservation: fake.reservation,
                }
              : undefined,
        );
        assert.equal((await storedNumbers()).nextSender, 20);
      });

      it('a reply stored but never written (the connection went) leaves its report for the outbox at the next logon', async () => {
        const batcher = new IntakeBatcher(t.db, log, { planned });
        await t.db.query('UPDATE fix_session_state SET next_sender_seq = 40 WHERE target_comp_id = $1', [SESSION.t]);
        const lost = fakeReservation(40, 'CO-6', creationTime, false);
        await batcher.submit(
          entry('CO-6'),
          () => {},
          (o) =>
            o.kind === 'stored'
              ? {
                  outbound: { beginString: SESSION.b, record: lost.reservation.record, storeCreationTime: creationTime },
                  reservation: lost.reservation,
                }
              : undefined,
        );
        let row: { sent_at: Date | null } | undefined;
        for (let i = 0; i < 100 && row?.sent_at !== null; i++) {
          await new Promise((r) => setTimeout(r, 10));
          row = (await t.db.query<{ sent_at: Date | null }>(`SELECT sent_at FROM execution_reports WHERE clordid = 'CO-6'`)).rows[0];
        }
        assert.equal(row?.sent_at, null, 'unsent again: recover() sends it, PossResend');
      });

      it('a hook that throws leaves no reservation unsettled: the ones before it commit, its order goes in with its reply left to the outbox', async () => {
        const batcher = new IntakeBatcher(t.db, log, { planned });
        const first = fakeReservation(30, 'CO-4', creationTime);
        await t.db.query('UPDATE fix_session_state SET next_sender_seq = 30 WHERE target_comp_id = $1', [SESSION.t]);
        const replied: boolean[] = [];
        const [a, b] = await Promise.all([
          batcher.submit(
            entry('CO-4'),
            (_o, r) => replied.push(r),
            (o) =>
              o.kind === 'stored'
                ? {
                    outbound: { beginString: SESSION.b, record: first.reservation.record, storeCreationTime: creationTime },
                    reservation: first.reservation,
                  }
                : undefined,
          ),
          batcher.submit(
            entry('CO-5'),
            (_o, r) => replied.push(r),
            () => {
              throw new Error('character U+0141 cannot be encoded');
            },
          ),
        ]);
        assert.deepEqual([a.kind, b.kind], ['stored', 'stored']);
        assert.deepEqual(first.events, ['committed']);
        assert.deepEqual(replied, [true, false]);
        const { rows } = await t.db.query<{ clordid: string; sent_seq_num: number | null }>(
          `SELECT clordid, sent_seq_num FROM execution_reports WHERE clordid IN ('CO-4', 'CO-5') ORDER BY clordid`,
        );
        assert.deepEqual(rows, [
          { clordid: 'CO-4', sent_seq_num: 30 },
          { clordid: 'CO-5', sent_seq_num: null },
        ]);
      });

      it('a reply numbered before a store reset fails its session, and the order is still stored, its report left to the outbox', async () => {
        const batcher = new IntakeBatcher(t.db, log, { planned });
        const stale = fakeReservation(7, 'CO-3', new Date('2025-03-13T08:00:00.000Z'));
        let replied: boolean | undefined;
        const outcome = await batcher.submit(
          entry('CO-3'),
          (_o, r) => {
            replied = r;
          },
          (o) =>
            o.kind === 'stored'
              ? {
                  outbound: {
                    beginString: SESSION.b,
                    record: stale.reservation.record,
                    storeCreationTime: stale.reservation.storeCreationTime,
                  },
                  reservation: stale.reservation,
                }
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

// The planned path (docs/adr/0009): ids drawn ahead, ClOrdIDs known per client and day, one statement.
for (const kind of TEST_DB_KINDS) {
  describe(`planned intake on ${kind}`, () => {
    let t: TestDatabase;
    let connectorId = 0;
    const creationTime = new Date('2025-03-14T08:00:00.000Z');

    before(async () => {
      ({ t, connectorId } = await clientDatabase(kind, 'PLN', 1, creationTime));
    });
    after(async () => {
      await t?.dispose();
    });

    const entry = (clordid: string): IntakeEntry => ({ order: record(clordid, connectorId), execIdPrefix: 'PLN', reportTime: new Date() });
    const multileg = (clordid: string): IntakeEntry => ({
      order: {
        ...record(clordid, connectorId),
        msgType: 'AB',
        symbol: 'C5TC/P4TC',
        securityType: 'MLEG',
        maturityMonthYear: null,
        currency: 'US',
        legs: [
          { legIndex: 0, symbol: 'C5TC', securityType: 'FUT', maturityMonthYear: '202506', side: '1', ratioQty: '1', price: null },
          { legIndex: 1, symbol: 'P4TC', securityType: 'FUT', maturityMonthYear: '202507', side: '2', ratioQty: '2.5', price: null },
        ],
        parties: [
          { legIndex: null, partyId: 'DESK-1', partyIdSource: 'D', partyRole: 11 },
          { legIndex: 1, partyId: 'ACME', partyIdSource: null, partyRole: 1 },
        ],
      },
      execIdPrefix: 'PLN',
      reportTime: new Date('2025-03-14T09:00:01.123Z'),
    });

    it('answers outcomes equal to the rows the database holds (order, legs, report), and stores the parties', async () => {
      const batcher = new IntakeBatcher(t.db, log, { planned: true });
      const outcomes = await Promise.all([batcher.submit(multileg('PL-1'), () => {}), batcher.submit(multileg('PL-2'), () => {})]);
      for (const o of outcomes) {
        assert.equal(o.kind, 'stored');
        if (o.kind !== 'stored') continue;
        const bundle = (await getOrderBundle(t.db, o.order.id))!;
        const { client_name: _n, client_phone: _p, company_name: _c, ...row } = bundle.orders[0]!;
        assert.deepEqual(o.order, row);
        assert.deepEqual(o.legs, bundle.legs);
        assert.deepEqual(o.er, bundle.execReports[0]);
        assert.deepEqual(
          bundle.parties.map((p) => [p.leg_index, p.position, p.party_id, p.party_id_source, p.party_role]),
          [
            [null, 0, 'DESK-1', 'D', 11],
            [1, 1, 'ACME', null, 1],
          ],
        );
        assert.match(o.order.brokerorderid, /^BO\d{8,}$/);
        assert.match(o.er.execid, /^PLN-\d{9,}$/);
      }
      const [a, b] = outcomes as Array<Extract<IntakeOutcome, { kind: 'stored' }>>;
      assert.ok(a!.order.id < b!.order.id && a!.order.brokerorderid < b!.order.brokerorderid, 'ids grow in queue order');
    });

    it('refuses a ClOrdID already used that day as a duplicate, with the facts of the order it met', async () => {
      const batcher = new IntakeBatcher(t.db, log, { planned: true });
      const first = await batcher.submit(entry('PL-DUP'), () => {});
      const second = await batcher.submit(entry('PL-DUP'), () => {});
      assert.equal(first.kind, 'stored');
      assert.equal(second.kind, 'duplicate');
      if (first.kind !== 'stored' || second.kind !== 'duplicate') return;
      assert.equal(second.existing?.brokerorderid, first.order.brokerorderid);
      // A new batcher (a restart) knows it from the database.
      const again = await new IntakeBatcher(t.db, log, { planned: true }).submit(entry('PL-DUP'), () => {});
      assert.equal(again.kind, 'duplicate');
    });

    it('an order stored behind its back (stale ClOrdIDs) fails the whole statement, and the careful path refuses the duplicate', async () => {
      const batcher = new IntakeBatcher(t.db, log, { planned: true });
      await batcher.submit(entry('PL-WARM'), () => {}); // the day's ClOrdIDs are now known to the batcher
      // Another writer (e.g. the session's earlier owner) stores PL-STALE meanwhile.
      const other = await new IntakeBatcher(t.db, log, { planned: false }).submit(entry('PL-STALE'), () => {});
      assert.equal(other.kind, 'stored');
      await t.db.query('UPDATE fix_session_state SET next_sender_seq = 50 WHERE target_comp_id = $1', [SESSION.t]);
      const fake = fakeReservation(50, 'PL-FRESH', creationTime);
      const [fresh, stale] = await Promise.all([
        batcher.submit(
          entry('PL-FRESH'),
          () => {},
          (o) =>
            o.kind === 'stored'
              ? {
                  outbound: { beginString: SESSION.b, record: fake.reservation.record, storeCreationTime: creationTime },
                  reservation: fake.reservation,
                }
              : undefined,
        ),
        batcher.submit(entry('PL-STALE'), () => {}),
      ]);
      assert.equal(fresh.kind, 'stored', 'its neighbour is stored by the retry');
      assert.equal(stale.kind, 'duplicate');
      assert.equal(fake.events.length, 1);
      assert.match(fake.events[0]!, /^failed: /, 'the reply taken in the failed statement is given up (its session resynchronises)');
      const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM fix_messages WHERE clordid = 'PL-FRESH'`);
      assert.equal(rows[0]!.n, 0, 'nothing of the failed statement was kept');
      const { rows: orders } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM orders WHERE clordid IN ('PL-FRESH', 'PL-STALE')`,
      );
      assert.equal(orders[0]!.n, 2, 'one of each, no double');
      // The index was dropped: the next order plans again from what the database holds.
      const next = await batcher.submit(entry('PL-STALE'), () => {});
      assert.equal(next.kind, 'duplicate');
    });

    it('two batches in flight: the later may commit first, its outcome still reaches the caller after the earlier one', async () => {
      // The first batch's statement is held back until the second one has committed.
      const slow = holdingDb(t.db);
      const batcher = new IntakeBatcher(slow.db, log, { planned: true });
      await batcher.submit(entry('PL-P0'), () => {}); // the day's ClOrdIDs and the ids are at hand
      slow.holdNext();
      const order: string[] = [];
      const first = batcher.submit(entry('PL-P1'), () => order.push('P1 committed'));
      await new Promise((r) => setImmediate(r)); // the first batch is in flight
      const second = batcher.submit(entry('PL-P2'), () => order.push('P2 committed'));
      for (let i = 0; i < 200; i++) {
        const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE clordid = 'PL-P2'`);
        if (rows[0]!.n === 1) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE clordid IN ('PL-P1', 'PL-P2')`);
      assert.equal(rows[0]!.n, 1, 'the second batch committed while the first was still held');
      assert.deepEqual(order, [], 'but its outcome waits for the first');
      slow.release();
      const [a, b] = await Promise.all([first, second]);
      assert.deepEqual([a.kind, b.kind], ['stored', 'stored']);
      assert.deepEqual(order, ['P1 committed', 'P2 committed']);
      if (a.kind === 'stored' && b.kind === 'stored') assert.ok(a.order.id < b.order.id);
    });

    it('a batch that committed frees its place at once: with the first still held, a third batch is written too, and all settle in order', async () => {
      const slow = holdingDb(t.db);
      const batcher = new IntakeBatcher(slow.db, log, { planned: true });
      await batcher.submit(entry('PL-F0'), () => {});
      slow.holdNext();
      const order: string[] = [];
      const first = batcher.submit(entry('PL-F1'), () => order.push('F1'));
      await new Promise((r) => setImmediate(r)); // the first batch is in flight, held
      const second = batcher.submit(entry('PL-F2'), () => order.push('F2'));
      const stored = async (clordid: string) => {
        for (let i = 0; i < 200; i++) {
          const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE clordid = $1', [clordid]);
          if (rows[0]!.n === 1) return true;
          await new Promise((r) => setTimeout(r, 10));
        }
        return false;
      };
      assert.ok(await stored('PL-F2'), 'the second batch committed beside the held one');
      // Two places, one held: the second's place is free again although it has not settled.
      const third = batcher.submit(entry('PL-F3'), () => order.push('F3'));
      assert.ok(await stored('PL-F3'), 'the third batch was written while the first is still held');
      assert.deepEqual(order, [], 'no outcome before the first settles');
      slow.release();
      const outcomes = await Promise.all([first, second, third]);
      assert.deepEqual(
        outcomes.map((o) => o.kind),
        ['stored', 'stored', 'stored'],
      );
      assert.deepEqual(order, ['F1', 'F2', 'F3']);
      await batcher.idle();
    });

    it("a reply bound for the outbox in a batch still in flight keeps the client's later replies from being reserved", async () => {
      const slow = holdingDb(t.db);
      const batcher = new IntakeBatcher(slow.db, log, { planned: true });
      await batcher.submit(entry('PL-Q0'), () => {});
      slow.holdNext();
      await t.db.query('UPDATE fix_session_state SET next_sender_seq = 70 WHERE target_comp_id = $1', [SESSION.t]);
      const replied: Array<[string, boolean]> = [];
      // The first order's reply goes through the outbox (no session to reserve it on).
      const first = batcher.submit(entry('PL-Q1'), (_o, r) => replied.push(['Q1', r]));
      await new Promise((r) => setImmediate(r));
      const fake = fakeReservation(70, 'PL-Q2', creationTime);
      let asked = false;
      const second = batcher.submit(
        entry('PL-Q2'),
        (_o, r) => replied.push(['Q2', r]),
        (o, scope) => {
          asked = true;
          if (scope.queuedClients.has(SESSION.t)) return undefined;
          return o.kind === 'stored'
            ? {
                outbound: { beginString: SESSION.b, record: fake.reservation.record, storeCreationTime: creationTime },
                reservation: fake.reservation,
              }
            : undefined;
        },
      );
      await new Promise((r) => setTimeout(r, 50));
      slow.release();
      await Promise.all([first, second]);
      assert.ok(asked);
      assert.deepEqual(
        replied,
        [
          ['Q1', false],
          ['Q2', false],
        ],
        'both through the outbox, in order',
      );
      assert.deepEqual(fake.events, [], 'nothing reserved');
    });

    it('the same ClOrdID twice in a burst: the second waits for the first, which is stored, and is refused', async () => {
      // The first batch's statement is held: the second (a duplicate, so the careful path) must not
      // insert its order before the first one's statement has run.
      const slow = holdingDb(t.db);
      const batcher = new IntakeBatcher(slow.db, log, { planned: true });
      await batcher.submit(entry('PL-B0'), () => {});
      slow.holdNext();
      await t.db.query('UPDATE fix_session_state SET next_sender_seq = 80 WHERE target_comp_id = $1', [SESSION.t]);
      const fake = fakeReservation(80, 'PL-B1', creationTime);
      const first = batcher.submit(
        entry('PL-B1'),
        () => {},
        (o) =>
          o.kind === 'stored'
            ? {
                outbound: { beginString: SESSION.b, record: fake.reservation.record, storeCreationTime: creationTime },
                reservation: fake.reservation,
              }
            : undefined,
      );
      const second = batcher.submit(entry('PL-B1'), () => {});
      await new Promise((r) => setTimeout(r, 100));
      slow.release();
      const [a, b] = await Promise.all([first, second]);
      assert.deepEqual([a.kind, b.kind], ['stored', 'duplicate']);
      assert.deepEqual(fake.events, ['committed'], "the first one's statement did not fail");
    });

    it('a logon drops what the node knew of the client: the next order rereads the day', async () => {
      const batcher = new IntakeBatcher(t.db, log, { planned: true });
      await batcher.submit(entry('PL-L1'), () => {});
      await new IntakeBatcher(t.db, log, { planned: false }).submit(entry('PL-L2'), () => {});
      batcher.forgetClient(SESSION.t);
      const fake = fakeReservation(60, 'PL-L2', creationTime);
      await t.db.query('UPDATE fix_session_state SET next_sender_seq = 60 WHERE target_comp_id = $1', [SESSION.t]);
      const o = await batcher.submit(
        entry('PL-L2'),
        () => {},
        (x) =>
          x.kind === 'duplicate'
            ? {
                outbound: { beginString: SESSION.b, record: fake.reservation.record, storeCreationTime: creationTime },
                reservation: fake.reservation,
              }
            : undefined,
      );
      assert.equal(o.kind, 'duplicate');
      assert.deepEqual(fake.events, ['committed'], 'refused the careful way, its reply not given up');
    });
  });
}
