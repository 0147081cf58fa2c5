// Refusals copied to drop copy sessions (docs/adr/0017 point 2), over FIX with our own initiator on both
// databases: a refusal at intake (150=8, no order row), a duplicate ClOrdID refused at the commit and the
// kill switch's refusal each reach the drop copy session as a copy of what the client got (797=Y, the same
// ExecID, ClOrdID and OrderID, the client first among the Parties), live and once; made while the drop copy
// session was logged off, at its next logon flagged PossResend, in the client's order; and again on its
// ResendRequest (PossDupFlag), from the FIX store. The refused order's timeline lists its copy. And the
// intake batcher's paths a client logged on here does not take: a batch written without replies.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { IntakeEntry, RefusalTerms } from '@fixdesk/db';
import { TEST_DB_KINDS, createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import { MemoryStoreFactory } from '@fixdesk/fix';
import type { OrderTimeline } from '@fixdesk/protocol';
import pino from 'pino';
import { IntakeBatcher } from '../../apps/server/src/orders/intake-batcher';
import { startServer, type RunningServer } from '../../apps/server/src/server';
import { newOrderSingle, TestFixClient, type ReceivedMessage } from '../support/fix-client';
import { signIn, testConfig } from '../support/server';
import { until } from '../support/until';

const silent = pino({ level: 'silent' });
const CLIENT = 'SGX_CLIENT_1';
const MIDDLE_OFFICE = 'MIDDLE_OFFICE_R';
const ANY_TIME = { timezone: 'UTC', trading_days: 'M,T,W,T,F,S,S', start_time: '00:00', end_time: '23:59:59' };

/** What a refusal tells: the same in the client's message and in its copy. */
const REFUSAL_TAGS = [17, 150, 39, 11, 37, 103, 58, 55, 54, 38, 40, 44, 14, 151, 60];
const reports = (c: TestFixClient) => c.received.filter((m) => m.msgType === '8');
const identity = (m: ReceivedMessage) => REFUSAL_TAGS.map((t) => `${t}=${m.get(t) ?? ''}`).join('|');

/** A copy names the client as docs/adr/0017 point 4 says. */
function assertCopyOf(copy: ReceivedMessage, client: string) {
  assert.equal(copy.get(797), 'Y', 'CopyMsgIndicator');
  const fields = copy.raw.split('\x01').filter(Boolean);
  const at = fields.findIndex((f) => f.startsWith('453='));
  assert.ok(at > 0, 'a Parties group');
  assert.deepEqual(fields.slice(at + 1, at + 4), [`448=${client}`, '447=D', '452=3'], 'the client first among the parties');
}

for (const kind of TEST_DB_KINDS) {
  describe(`refusals copied to a drop copy session on ${kind}`, () => {
    let database: TestDatabase;
    const config = testConfig();
    let server: RunningServer;
    let admin: string;
    let broker: string;
    let client: TestFixClient;
    const middleStore = new MemoryStoreFactory();
    let middle: TestFixClient;

    const api = async <T = unknown>(method: string, path: string, token: string, json?: unknown): Promise<T> => {
      const r = await fetch(server.url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      const body = (await r.json()) as { message?: string; data?: T };
      assert.ok(r.ok, `${method} ${path}: ${r.status} ${body.message}`);
      return body.data as T;
    };
    /** Sends a NewOrderSingle and waits for the report the client gets first for it. */
    async function order(
      clOrdId: string,
      o: Parameters<typeof newOrderSingle>[1] = {},
      pred: (m: ReceivedMessage) => boolean = () => true,
    ) {
      const before = reports(client).length;
      await client.send('D', newOrderSingle(clOrdId, o));
      return until(`a report for ${clOrdId}`, () =>
        reports(client)
          .slice(before)
          .find((m) => m.get(11) === clOrdId && pred(m)),
      );
    }
    /** The copies a drop copy session received of these client reports (by ExecID), waiting for all of them. */
    async function copiesOf(dc: TestFixClient, made: readonly ReceivedMessage[], from = 0): Promise<ReceivedMessage[]> {
      const ids = new Set(made.map((m) => m.get(17)));
      return until(
        `the copies of ${[...ids].join(', ')}`,
        () => {
          const got = reports(dc)
            .slice(from)
            .filter((m) => ids.has(m.get(17)));
          return got.length >= made.length && got;
        },
        15_000,
      );
    }
    /** The session Rejects (35=3) a session sent us: a copy its dictionary refused would be one. */
    async function rejectsFrom(compId: string): Promise<number> {
      const { rows } = await database.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM fix_messages WHERE sender_comp_id = $1 AND direction = 'RX' AND msg_type = '3'`,
        [compId],
      );
      return rows[0]!.n;
    }

    before(async () => {
      database = await createTestDatabase(kind, { migrate: false });
      server = await startServer(config, { db: database.db, logger: silent, testClient: { ports: 'off' } });
      [admin, broker] = await Promise.all([signIn(server.url, 'admin'), signIn(server.url, 'broker')]);
      await api('POST', '/api/client-connectors', admin, {
        comp_id: MIDDLE_OFFICE,
        execution_id_prefix: 'MOR',
        session_type: 'drop_copy',
        drop_copy_of: [CLIENT],
        ...ANY_TIME,
      });
      middle = new TestFixClient(MIDDLE_OFFICE, middleStore);
      await middle.connect(server.ctx.fix.port);
      client = new TestFixClient(CLIENT);
      await client.connect(server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await middle?.stop();
      await server?.close();
      await database?.dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    });

    it('copies a refusal at intake live, once, as the client got it; the refused order’s timeline lists the copy', async () => {
      const refusal = await order('DCR-1', { symbol: 'NO_SUCH_SYMBOL' });
      assert.deepEqual([refusal.get(150), refusal.get(39), refusal.get(37)], ['8', '8', 'NONE']);
      const [copy] = await copiesOf(middle, [refusal]);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(reports(middle).filter((m) => m.get(17) === refusal.get(17)).length, 1, 'once');
      assert.equal(identity(copy!), identity(refusal));
      assertCopyOf(copy!, CLIENT);
      assert.equal(copy!.get(97), undefined, 'a live copy is not flagged PossResend');
      // The refused order's timeline: its refusal, copied to the middle office under the number it went out with.
      const { rows } = await database.db.query<{ id: number }>('SELECT id FROM refused_orders WHERE execid = $1', [refusal.get(17)]);
      const timeline = await until('the copy marked sent on the timeline', async () => {
        const t = await api<OrderTimeline>('GET', `/api/orders/${rows[0]!.id}/timeline`, broker);
        const state = t.entries.find((e) => e.kind === 'state' && e.execId === refusal.get(17));
        return state?.kind === 'state' && state.copies?.[0]?.seqNum != null && state;
      });
      assert.deepEqual(
        timeline.copies?.map((c) => [c.session, c.seqNum]),
        [[MIDDLE_OFFICE, copy!.seq]],
      );
    });

    it('copies a duplicate ClOrdID refused at the commit, after the Pending New of the order holding it', async () => {
      const pendingNew = await order('DCR-2', {}, (m) => m.get(150) === 'A');
      const duplicate = await order('DCR-2', { qty: '3' }, (m) => m.get(150) === '8');
      assert.equal(duplicate.get(103), '6', 'OrdRejReason: duplicate order');
      const copies = await copiesOf(middle, [pendingNew, duplicate]);
      assert.deepEqual(
        copies.map((m) => [m.get(17), m.get(150), m.get(11)]),
        [pendingNew, duplicate].map((m) => [m.get(17), m.get(150), m.get(11)]),
      );
      assert.equal(identity(copies[1]!), identity(duplicate));
      for (const c of copies) assertCopyOf(c, CLIENT);
    });

    it("copies the kill switch: the cancel of the client's working order and the refusal of its next order", async () => {
      const before = reports(client).length;
      await api('POST', `/api/client-connectors/${CLIENT}/stop`, broker, { reason: 'Drop copy test' });
      const canceled = await until('the kill switch cancel', () =>
        reports(client)
          .slice(before)
          .find((m) => m.get(11) === 'DCR-2' && m.get(150) === '4'),
      );
      const stopped = await order('DCR-3', {}, (m) => m.get(150) === '8');
      assert.match(stopped.get(58) ?? '', /kill switch/);
      await api('POST', `/api/client-connectors/${CLIENT}/resume`, broker, { reason: 'Drop copy test over' });
      const copies = await copiesOf(middle, [canceled, stopped]);
      assert.deepEqual(
        copies.map((m) => m.get(17)),
        [canceled.get(17), stopped.get(17)],
      );
      assert.equal(identity(copies[1]!), identity(stopped));
      assert.equal(await rejectsFrom(MIDDLE_OFFICE), 0);
    });

    it('sends the refusals made while it was logged off at its next logon, PossResend, in the client’s order, once; again on a ResendRequest, PossDup', async () => {
      await middle.stop();
      const atLogoff = reports(middle).length;
      const made = [
        await order('DCR-4', { qty: '0' }, (m) => m.get(150) === '8'),
        await order('DCR-5', {}, (m) => m.get(150) === 'A'),
        await order('DCR-5', { side: '2' }, (m) => m.get(150) === '8'),
        await order('DCR-6', { symbol: 'NO_SUCH_SYMBOL' }, (m) => m.get(150) === '8'),
      ];
      await middle.connect(server.ctx.fix.port);
      const copies = await copiesOf(middle, made, atLogoff);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(reports(middle).length, atLogoff + made.length, 'every copy once, nothing else');
      assert.deepEqual(
        copies.map((m) => [m.get(17), m.get(11), m.get(150), m.get(97)]),
        made.map((m) => [m.get(17), m.get(11), m.get(150), 'Y']),
      );
      for (const [i, c] of copies.entries()) if (made[i]!.get(150) === '8') assert.equal(identity(c), identity(made[i]!));
      // The drop copy session asks again for everything from the first of them: resent from the store, PossDupFlag.
      await middle.stop();
      const beforeResend = reports(middle).length;
      const store = await middleStore.open(middle.sessionID, new Date());
      await store.setNextTargetMsgSeqNum(copies[0]!.seq);
      await middle.connect(server.ctx.fix.port);
      const resent = await copiesOf(middle, made, beforeResend);
      assert.deepEqual(
        resent.map((m) => [m.seq, m.get(17), m.get(43), m.get(797)]),
        copies.map((m) => [m.seq, m.get(17), 'Y', 'Y']),
      );
      assert.equal(await rejectsFrom(MIDDLE_OFFICE), 0);
      await until('every copy marked sent', async () => {
        const { rows } = await database.db.query('SELECT 1 FROM drop_copies WHERE sent_at IS NULL');
        return rows.length === 0;
      });
    });
  });
}

// The batcher without reply hooks (a client not logged on here, a retry): each batch one self-committing
// statement, planned or careful; a duplicate it meets gets its copies in a statement of its own.
for (const kind of TEST_DB_KINDS) {
  describe(`refusal copies of batches written without replies on ${kind}`, () => {
    let t: TestDatabase;
    let connectorId = 0;
    const log = pino({ level: 'silent' });
    const terms = (clOrdId: string, ordRejReason: string): RefusalTerms => ({
      clOrdId,
      side: '1',
      symbol: 'C5TC',
      orderQty: '10',
      ordType: '2',
      price: '27000',
      account: null,
      ordRejReason,
      text: `refused ${clOrdId}`,
    });
    const order = (clordid: string): IntakeEntry => ({
      execIdPrefix: 'NRC',
      reportTime: new Date(),
      order: {
        clordid,
        clientConnectorId: connectorId,
        sendercompid: 'NR_CLIENT',
        targetcompid: 'FIXDESK',
        sessionDate: '2026-11-30',
        msgType: 'D',
        symbol: 'C5TC',
        securityType: 'FUT',
        maturityMonthYear: '202701',
        side: '1',
        ordType: '2',
        price: '27000',
        orderQty: '10',
        timeInForce: '0',
        exchange: 'SGX',
        currency: null,
        account: null,
        text: null,
        transactTime: new Date(),
        legs: [],
        parties: [],
      },
    });
    const refusal = (clOrdId: string): IntakeEntry => ({
      order: null,
      execIdPrefix: 'NRC',
      reportTime: new Date(),
      refusal: { client: 'NR_CLIENT', terms: terms(clOrdId, '1') },
    });
    const copies = async (execId: string) =>
      (
        await t.db.query<{ clordid: string; reason: string }>(
          `SELECT refusal ->> 'clOrdId' AS clordid, refusal ->> 'ordRejReason' AS reason FROM drop_copies
            WHERE source = 'refusal' AND refusal ->> 'execId' = $1`,
          [execId],
        )
      ).rows;

    before(async () => {
      t = await createTestDatabase(kind);
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, start_time, end_time, trading_days, session_type, drop_copy_of)
         VALUES ('NR_CLIENT', 'NRC', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F', 'order_entry', '{}'),
                ('NR_DROP', 'NRD', 'FIXDESK', '00:00:00', '23:59:59', 'M,T,W,T,F', 'drop_copy', '{NR_CLIENT}') RETURNING id`,
      );
      connectorId = rows[0]!.id;
    });
    after(async () => {
      await t?.dispose();
    });

    for (const planned of [true, false]) {
      it(`${planned ? 'planned' : 'careful'}: a refusal's copy in the batch's statement, a duplicate's right after it, none for a resend of the order held`, async () => {
        const batcher = new IntakeBatcher(t.db, log, { planned });
        const id = `NR-${planned}`;
        const [stored, refused] = await Promise.all([batcher.submit(order(id), () => {}), batcher.submit(refusal(`${id}-R`), () => {})]);
        assert.equal(stored.kind, 'stored');
        assert.equal(refused.kind, 'refusal');
        if (refused.kind !== 'refusal') return;
        assert.deepEqual(await copies(refused.execId), [{ clordid: `${id}-R`, reason: '1' }]);
        // The same ClOrdID again: refused by the batch, copied once the batch committed (before its settlement).
        let copiedBeforeSettled: unknown;
        const duplicate = await batcher.submit(
          order(id),
          (o) => void (copiedBeforeSettled = o.kind === 'duplicate' && copies(o.execId)),
          undefined,
          'NR_CLIENT',
          () => terms(id, '6'),
        );
        assert.equal(duplicate.kind, 'duplicate');
        if (duplicate.kind !== 'duplicate') return;
        assert.deepEqual(await copiedBeforeSettled, [{ clordid: id, reason: '6' }]);
        // A possible resend of the very order held is no refusal: no copy.
        const resend = await batcher.submit(
          order(id),
          () => {},
          undefined,
          'NR_CLIENT',
          () => undefined,
        );
        assert.equal(resend.kind, 'duplicate');
        if (resend.kind === 'duplicate') assert.deepEqual(await copies(resend.execId), []);
      });
    }
  });
}
