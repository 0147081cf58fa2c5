// Drop copy sessions receive their copies (docs/adr/0017 points 3 to 5), over FIX with our own
// initiator: live, in the order the client's reports were made, once each; what was made while a drop
// copy session was away at its next logon, flagged PossResend, also when that logon resets the numbers
// and across a restart of the server.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS, createTestDatabase, type TestDatabase } from '@fixdesk/db/testing';
import { MemoryStoreFactory } from '@fixdesk/fix';
import pino from 'pino';
import { DropCopyOutbox } from '../../apps/server/src/orders/drop-copy-outbox';
import { startServer, type RunningServer } from '../../apps/server/src/server';
import { newOrderSingle, TestFixClient, ts, type ReceivedMessage } from '../support/fix-client';
import { seededDatabase } from '../support/seeded-database';
import { signIn, testConfig } from '../support/server';
import { until } from '../support/until';

// Warnings and errors go to stderr, which the runner prints: a failure under load then shows what the
// server saw (two fresh-clone CI runs side by side failed the burst below on PostgreSQL with hundreds
// of store writes fenced out, and a silent server said nothing of why).
const serverLog = pino({ level: 'warn' }, pino.destination(2));
const CLIENT = 'SGX_CLIENT_1';
/** Covers SGX_CLIENT_1 only, logged on from the start. */
const MIDDLE_OFFICE = 'MIDDLE_OFFICE_1';
/** Covers every client, logged on late. */
const BACK_OFFICE = 'BACK_OFFICE_1';
const ANY_TIME = { timezone: 'UTC', trading_days: 'M,T,W,T,F,S,S', start_time: '00:00', end_time: '23:59:59' };

/** The application messages a session received (reports and cancel rejects), in order. */
const appMessages = (c: TestFixClient) => c.received.filter((m) => m.msgType === '8' || m.msgType === '9');

/** What identifies a report, the same in the client's message and its copy. */
function identity(m: ReceivedMessage): string {
  return m.msgType === '8'
    ? `8 ${m.get(17)} ${m.get(150)}/${m.get(39)} ${m.get(11)} ${m.get(37)} ${m.get(14)} ${m.get(151)}`
    : `9 ${m.get(11)} ${m.get(41)} ${m.get(37)} ${m.get(39)} ${m.get(434)} ${m.get(58)}`;
}

/** The fields of a message on the wire, in order. */
const fieldsOf = (m: ReceivedMessage) => m.raw.split('\x01').filter(Boolean);

/** Checks each copy names the client as docs/adr/0017 point 4 says. */
function assertCopyOf(copy: ReceivedMessage, client: string) {
  const fields = fieldsOf(copy);
  if (copy.msgType === '8') {
    assert.equal(copy.get(797), 'Y', 'CopyMsgIndicator');
    const at = fields.findIndex((f) => f.startsWith('453='));
    assert.ok(at > 0, 'a Parties group');
    assert.deepEqual(fields.slice(at + 1, at + 4), [`448=${client}`, '447=D', '452=3'], 'the client first among the parties');
  } else {
    assert.equal(copy.get(1), client, 'Account names the client');
    assert.equal(copy.get(797), undefined);
  }
}

for (const kind of TEST_DB_KINDS) {
  describe(`drop copy sessions receive the copies on ${kind}`, () => {
    let database: TestDatabase;
    const config = testConfig();
    let server: RunningServer;
    let admin: string;
    let broker: string;
    let client: TestFixClient;
    let middle: TestFixClient;
    const backStore = new MemoryStoreFactory();
    let back: TestFixClient | undefined;

    const api = async (method: string, path: string, token: string, json?: unknown) => {
      const r = await fetch(server.url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      const body = (await r.json()) as { message?: string };
      assert.ok(r.ok, `${method} ${path}: ${r.status} ${body.message}`);
      return body;
    };
    const act = (orderId: string, action: string, json: unknown = {}) => api('POST', `/api/orders/${orderId}/${action}`, broker, json);

    /** A new order, answered Pending New; its OrderID. */
    async function newOrder(clOrdId: string): Promise<string> {
      await client.send('D', newOrderSingle(clOrdId));
      return (await client.waitForReport(clOrdId, (m) => m.get(150) === 'A')).get(37)!;
    }
    async function cancelRequest(clOrdId: string, origClOrdId: string, orderId: string) {
      await client.send('F', [
        [11, clOrdId],
        [37, orderId],
        [41, origClOrdId],
        [54, '1'],
        [55, 'C5TC'],
        [60, ts()],
      ]);
    }
    /** Waits until the drop copy session holds as many application messages as `n`. */
    const copiesReceived = (dc: TestFixClient, n: number, what: string, timeoutMs = 15_000) =>
      until(what, () => appMessages(dc).length >= n && appMessages(dc), timeoutMs);
    /** Waits until the drop copy session holds `n` application messages more than `before`, and no more a moment later: those. */
    async function exactlyNewCopies(dc: TestFixClient, before: number, n: number, what: string) {
      const copies = (await copiesReceived(dc, before + n, what)).slice(before);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(appMessages(dc).length, before + n);
      return copies;
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
      // As the server's first start leaves it (migrated and seeded): copied, not built again per file.
      database = await createTestDatabase(kind, { template: seededDatabase() });
      server = await startServer(config, { db: database.db, logger: serverLog, testClient: { ports: 'off' } });
      [admin, broker] = await Promise.all([signIn(server.url, 'admin'), signIn(server.url, 'broker')]);
      await api('POST', '/api/client-connectors', admin, {
        comp_id: MIDDLE_OFFICE,
        execution_id_prefix: 'MO1',
        session_type: 'drop_copy',
        drop_copy_of: [CLIENT],
        ...ANY_TIME,
      });
      await api('POST', '/api/client-connectors', admin, {
        comp_id: BACK_OFFICE,
        execution_id_prefix: 'BO1',
        session_type: 'drop_copy',
        drop_copy_of: [],
        ...ANY_TIME,
      });
      middle = new TestFixClient(MIDDLE_OFFICE);
      await middle.connect(server.ctx.fix.port);
      client = new TestFixClient(CLIENT);
      await client.connect(server.ctx.fix.port);
    });
    after(async () => {
      await client?.stop();
      await middle?.stop();
      await back?.stop();
      await server?.close();
      await database?.dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    });

    it("sends a logged-on drop copy session one copy of each of the client's reports, in order, as they are made", async () => {
      // After each step the middle office holds a copy of everything the client got: each path that makes
      // reports (the intake's reply reserved in its commit, a broker's action, an answer to the client's
      // request, a cancel reject) wakes the drop copy session itself.
      const inStep = (what: string) =>
        until(`the copy of ${what}`, () => appMessages(middle).length === appMessages(client).length, 10_000);
      // Order 1: new, accept, partial fill, a cancel request refused by the broker (a cancel reject), the fill,
      // then a cancel request on the filled order (refused at once: a cancel reject).
      const o1 = await newOrder('DCS-1');
      await inStep('the Pending New');
      await act(o1, 'accept');
      await client.waitForReport('DCS-1', (m) => m.get(150) === '0');
      await inStep('the accept');
      await act(o1, 'fill', { fillQty: 3, fillPrice: 26990 });
      await client.waitForReport('DCS-1', (m) => m.get(150) === 'F' && m.get(39) === '1');
      await inStep('the partial fill');
      await cancelRequest('DCS-1-C1', 'DCS-1', o1);
      await client.waitForReport('DCS-1-C1', (m) => m.get(150) === '6');
      await inStep('the Pending Cancel');
      await act(o1, 'cancel-request/refuse', { reason: 'Working the order' });
      await until('cancel reject', () => client.received.find((m) => m.msgType === '9' && m.get(11) === 'DCS-1-C1'));
      await inStep("the broker's cancel reject");
      await act(o1, 'fill', { fillQty: 7, fillPrice: 27000 });
      await client.waitForReport('DCS-1', (m) => m.get(150) === 'F' && m.get(39) === '2');
      await inStep('the fill');
      await cancelRequest('DCS-1-C2', 'DCS-1', o1);
      await until('too late to cancel', () => client.received.find((m) => m.msgType === '9' && m.get(11) === 'DCS-1-C2'));
      await inStep('the cancel reject of a filled order');
      // Order 2: new, accept, a cancel request confirmed: canceled.
      const o2 = await newOrder('DCS-2');
      await inStep('the second Pending New');
      await act(o2, 'accept');
      await client.waitForReport('DCS-2', (m) => m.get(150) === '0');
      await cancelRequest('DCS-2-C1', 'DCS-2', o2);
      await client.waitForReport('DCS-2-C1', (m) => m.get(150) === '6');
      await act(o2, 'cancel-request/confirm');
      await client.waitForReport('DCS-2-C1', (m) => m.get(150) === '4');

      const sentToClient = appMessages(client);
      assert.deepEqual(
        sentToClient.map((m) => (m.msgType === '8' ? m.get(150) : '9')),
        ['A', '0', 'F', '6', '9', 'F', '9', 'A', '0', '6', '4'],
      );
      const copies = await copiesReceived(middle, sentToClient.length, 'a copy of every report');
      // Once each: nothing more comes.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(appMessages(middle).length, sentToClient.length);
      assert.deepEqual(copies.map(identity), sentToClient.map(identity));
      for (const copy of copies) {
        assertCopyOf(copy, CLIENT);
        assert.equal(copy.get(97), undefined, 'a live copy is not flagged PossResend');
      }
      assert.equal(await rejectsFrom(MIDDLE_OFFICE), 0);
      // Each copy marked sent with the number it went under.
      await until('marks', async () => {
        const { rows: unsent } = await database.db.query(
          `SELECT 1 FROM drop_copies c JOIN client_connectors d ON d.id = c.drop_copy_connector_id WHERE d.comp_id = $1 AND c.sent_at IS NULL`,
          [MIDDLE_OFFICE],
        );
        return unsent.length === 0;
      });
      const { rows } = await database.db.query<{ sent_seq_num: number }>(
        `SELECT c.sent_seq_num FROM drop_copies c JOIN client_connectors d ON d.id = c.drop_copy_connector_id WHERE d.comp_id = $1 ORDER BY c.id`,
        [MIDDLE_OFFICE],
      );
      assert.deepEqual(
        rows.map((r) => r.sent_seq_num),
        copies.map((m) => m.seq),
      );
    });

    it('sends a drop copy session that logs on later what it missed, PossResend, once each; then new copies live', async () => {
      // The back office covers every client: it is owed a copy of everything the middle office got.
      back = new TestFixClient(BACK_OFFICE, backStore);
      await back.connect(server.ctx.fix.port);
      const expected = appMessages(middle).map(identity);
      const missed = await copiesReceived(back, expected.length, 'the missed copies');
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(appMessages(back).map(identity), expected);
      for (const copy of missed) {
        assertCopyOf(copy, CLIENT);
        assert.equal(copy.get(97), 'Y', 'PossResend');
      }
      // Made from now on: live, not flagged.
      const o3 = await newOrder('DCS-3');
      await copiesReceived(back, expected.length + 1, 'the live copy of a Pending New');
      await act(o3, 'accept');
      const live = (await copiesReceived(back, expected.length + 2, 'live copies')).slice(expected.length);
      assert.deepEqual(
        live.map((m) => [m.get(11), m.get(150), m.get(97)]),
        [
          ['DCS-3', 'A', undefined],
          ['DCS-3', '0', undefined],
        ],
      );
      assert.equal(await rejectsFrom(BACK_OFFICE), 0);
    });

    it('sends what was made while away at a logon that resets the numbers, PossResend, once each', async () => {
      await back!.stop();
      const before = appMessages(back!).length;
      const o4 = await newOrder('DCS-4');
      await act(o4, 'accept');
      await client.waitForReport('DCS-4', (m) => m.get(150) === '0');
      await act(o4, 'fill', { fillQty: 10, fillPrice: 27000 });
      await client.waitForReport('DCS-4', (m) => m.get(150) === 'F');
      await back!.connect(server.ctx.fix.port, { resetOnLogon: true });
      const copies = await exactlyNewCopies(back!, before, 3, 'copies after a reset');
      assert.deepEqual(
        copies.map((m) => [m.get(11), m.get(150), m.get(97)]),
        [
          ['DCS-4', 'A', 'Y'],
          ['DCS-4', '0', 'Y'],
          ['DCS-4', 'F', 'Y'],
        ],
      );
      // Under the new numbers: the Logon was 1.
      assert.deepEqual(
        copies.map((m) => m.seq),
        [2, 3, 4],
      );
      // The middle office was logged on all along: it got them live.
      assert.deepEqual(
        appMessages(middle)
          .filter((m) => m.get(11) === 'DCS-4')
          .map((m) => [m.get(150), m.get(97)]),
        [
          ['A', undefined],
          ['0', undefined],
          ['F', undefined],
        ],
      );
    });

    it("flags only what waited at the Logon: a copy made after the Logon was answered, before the logon's recovery ran, is live", async () => {
      await back!.stop();
      const before = appMessages(back!).length;
      await newOrder('DCS-LATE-1');
      // The recovery is held until a report is made after the Logon answer (the race a busy node runs).
      const recover = DropCopyOutbox.prototype.recover;
      DropCopyOutbox.prototype.recover = async function (this: DropCopyOutbox, compId: string) {
        if (compId === BACK_OFFICE) await newOrder('DCS-LATE-2');
        return recover.call(this, compId);
      };
      try {
        await back!.connect(server.ctx.fix.port);
        const copies = await exactlyNewCopies(back!, before, 2, 'the missed copy and the live one');
        assert.deepEqual(
          copies.map((m) => [m.get(11), m.get(150), m.get(97)]),
          [
            ['DCS-LATE-1', 'A', 'Y'],
            ['DCS-LATE-2', 'A', undefined],
          ],
        );
      } finally {
        DropCopyOutbox.prototype.recover = recover;
      }
    });

    it('sends a drop copy session that logs off during a burst every copy it missed at its next logon, in order, once each, over several reads', async () => {
      // The burst of 2,000 orders and their accepts on PostgreSQL; 260 on PGlite (2N copies:
      // more than one read of 500 either way; the path is the same SQL).
      const N = kind === 'postgres' ? 2000 : 260;
      // The burst outruns the seeded rate limit otherwise.
      await api('PUT', `/api/client-connectors/${CLIENT}`, admin, { max_orders_per_second: 100_000 });
      const backBefore = appMessages(back!).length;
      const middleBefore = appMessages(middle).length;
      const clientBefore = appMessages(client).length;
      const ids = Array.from({ length: N }, (_, i) => `DCS-B-${i}`);
      // A quarter of the orders while the back office is logged on, then it logs off mid-burst.
      const quarter = N / 4;
      await Promise.all(ids.slice(0, quarter).map((id) => client.send('D', newOrderSingle(id, { qty: '1' }))));
      await until('the first Pending News', () => appMessages(client).length >= clientBefore + quarter, 30_000);
      await back!.stop();
      const backAtLogoff = appMessages(back!).length;
      await Promise.all(ids.slice(quarter).map((id) => client.send('D', newOrderSingle(id, { qty: '1' }))));
      await until('every Pending New', () => appMessages(client).length >= clientBefore + N, 60_000);
      const orderIds = ids.map((id) => client.received.find((m) => m.get(11) === id && m.get(150) === 'A')!.get(37)!);
      // Accepted eight at a time, as a desk of brokers would: the accepts of different orders commit in
      // any order, each order's reports (and so its copies) in its own order.
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < orderIds.length) await act(orderIds[next++]!, 'accept');
        }),
      );
      await until('every accept', () => appMessages(client).length >= clientBefore + 2 * N, 60_000).catch((err: Error) => {
        const got = appMessages(client).length - clientBefore;
        throw new Error(
          `${err.message}: the client has ${got} of the ${2 * N} reports; logged on ${client.isLoggedOn}, ` +
            `${client.logons} logons, connections ended: ${client.logouts.join(' | ') || 'none'}`,
        );
      });
      const made = appMessages(client).slice(clientBefore);
      assert.equal(made.length, 2 * N);

      // Logged on all along: each copy, live, once; an order's copies in its reports' order.
      const live = (await copiesReceived(middle, middleBefore + 2 * N, 'the live copies of the burst', 60_000)).slice(middleBefore);
      assert.deepEqual(live.map(identity).sort(), made.map(identity).sort());
      for (const id of ids.slice(0, 20)) {
        assert.deepEqual(
          live.filter((m) => m.get(11) === id).map((m) => m.get(150)),
          ['A', '0'],
        );
      }

      // Logged off mid-burst: what it had not received comes at its next logon (more than one read of
      // 500), in the client's order, PossResend; with what came before, every copy once.
      const before = appMessages(back!).slice(backBefore, backAtLogoff);
      assert.ok(before.length > 0 && before.length < 2 * N, `${before.length} copies before the logoff`);
      await back!.connect(server.ctx.fix.port);
      const missed = (await copiesReceived(back!, backBefore + 2 * N, 'the copies of the burst', 60_000)).slice(backAtLogoff);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(appMessages(back!).length, backBefore + 2 * N, 'every copy once');
      assert.deepEqual([...before, ...missed].map(identity).sort(), made.map(identity).sort());
      const missedIds = new Set(missed.map(identity));
      // Each order's copies in the order of its reports (the client's), across the logoff too.
      const byOrder = (ms: readonly ReceivedMessage[]) => {
        const types = new Map<string, string>();
        for (const m of ms) types.set(m.get(11)!, (types.get(m.get(11)!) ?? '') + m.get(150));
        return [...types].map(([id, t]) => `${id}:${t}`).sort();
      };
      assert.deepEqual(byOrder([...before, ...missed]), byOrder(made));
      assert.ok(byOrder(made).every((o) => o.endsWith(':A0')));
      assert.ok(missedIds.size === missed.length);
      assert.ok(missed.every((m) => m.get(97) === 'Y'));
      assert.equal(await rejectsFrom(BACK_OFFICE), 0);
    });

    it('keeps the unsent copies across a restart of the server and sends them at the next logon', async () => {
      await back!.stop();
      const before = appMessages(back!).length;
      const o5 = await newOrder('DCS-5');
      await act(o5, 'accept');
      await client.waitForReport('DCS-5', (m) => m.get(150) === '0');
      await client.stop();
      await middle.stop();
      await server.close();
      server = await startServer(config, { db: database.db, logger: serverLog, testClient: { ports: 'off' } });
      broker = await signIn(server.url, 'broker');
      await back!.connect(server.ctx.fix.port);
      const copies = await exactlyNewCopies(back!, before, 2, 'copies after the restart');
      assert.deepEqual(
        copies.map((m) => [m.get(11), m.get(150), m.get(97)]),
        [
          ['DCS-5', 'A', 'Y'],
          ['DCS-5', '0', 'Y'],
        ],
      );
      for (const copy of copies) assertCopyOf(copy, CLIENT);
      // Nothing is left unsent for either: the middle office was logged on when they were made.
      await until('every copy marked sent', async () => {
        const { rows } = await database.db.query('SELECT 1 FROM drop_copies WHERE sent_at IS NULL');
        return rows.length === 0;
      });
    });
  });
}
