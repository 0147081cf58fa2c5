// kill -9 of both FIX engines on the PostgreSQL message store (PGlite and the local PostgreSQL server):
// sockets torn down and the session objects discarded without close or Logout, then new engines on
// the same database (a new pool for PostgreSQL, as a restarted process would have). Both sides must
// carry on from the stored numbers, and a ResendRequest must be answered from the store with the
// original messages (PossDupFlag=Y, OrigSendingTime = the original SendingTime, the body as sent).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openDb, PgMessageStoreFactory, type Db } from '@fixdesk/db';
import { createTestDatabase, TEST_DB_KINDS } from '@fixdesk/db/testing';
import { ManualClock, Tag, type Acceptor, type Initiator } from '@fixdesk/fix';
import { bodyOf, BROKER, BrokerApp, CLIENT, ClientApp, executionReport, order, startBroker, startClient } from '@fixdesk/fix/test-support';
import { until } from '../support/until';

const SOH = '\x01';

function fieldOf(raw: string, tag: number): string | undefined {
  return raw
    .split(SOH)
    .find((f) => f.startsWith(`${tag}=`))
    ?.slice(String(tag).length + 1);
}

describe('kill -9 of both FIX engines on the PostgreSQL store', () => {
  for (const kind of TEST_DB_KINDS) {
    it(`${kind}: both sides carry on from the stored numbers; resends come from the store with the original SendingTime`, async () => {
      const t = await createTestDatabase(kind);
      const pools: Db[] = [];
      // A restarted process: a new pool on PostgreSQL; PGlite lives in this process, so its handle stays.
      const restartedDb = async (): Promise<Db> => {
        if (!t.url) return t.db;
        const db = await openDb({ databaseUrl: t.url, poolSize: 2 });
        pools.push(db);
        return db;
      };
      const clock = new ManualClock(Date.UTC(2024, 0, 2, 9, 0, 0));
      const brokerApp = new BrokerApp();
      const clientApp = new ClientApp();
      let broker = await startBroker(clock, new PgMessageStoreFactory(t.db), brokerApp);
      const port = broker.port;
      let client = await startClient(clock, new PgMessageStoreFactory(t.db), clientApp, port);
      try {
        await until('logon', () => client.status().loggedOn);
        await client.send(order('ORD1'));
        clock.advance(1000);
        await client.send(order('ORD2'));
        await until('two acks', () => clientApp.reports.length === 2);
        const originals = clientApp.reports.map((r) => ({ ...r }));

        // Both die at once: sockets destroyed, no Logout, no store close, the objects dropped.
        await broker.crash();
        client.crash();
        broker = undefined as unknown as Acceptor;
        client = undefined as unknown as Initiator;

        // The broker comes back first, on the same database, with a fill for the absent client.
        clock.advance(5000);
        const brokerStores = new PgMessageStoreFactory(await restartedDb());
        broker = await startBroker(clock, brokerStores, brokerApp, port);
        await broker.send(BROKER, executionReport('ORD2', 99));
        assert.deepEqual(
          [broker.session(BROKER)!.status().nextSenderMsgSeqNum, broker.session(BROKER)!.status().nextTargetMsgSeqNum],
          [5, 4],
          'broker: Logon and two acks before the crash, the fill after it; Logon and two orders received',
        );

        // The client comes back having lost what it received (its target number set back to 1), so it
        // asks for everything: the broker answers from its store.
        const clientStores = new PgMessageStoreFactory(await restartedDb());
        const clientStore = await clientStores.open(CLIENT, new Date(clock.now()));
        const stored = await clientStore.sequenceState();
        assert.deepEqual([stored.nextSenderMsgSeqNum, stored.nextTargetMsgSeqNum], [4, 4], 'client: what its store kept across the crash');
        await clientStore.setNextTargetMsgSeqNum(1);
        await clientStore.close();
        clientApp.reports = [];
        client = await startClient(clock, clientStores, clientApp, port);
        await until(
          'full replay',
          () => client.status().loggedOn && client.status().state === 'inSession' && clientApp.reports.length === 3,
        );

        const brokerStore = await brokerStores.open(BROKER, new Date(clock.now()));
        const sentBefore = await brokerStore.outboundRange(2, 4, 10);
        assert.deepEqual(
          clientApp.reports.map((r) => [r.clOrdID, r.seq, r.possDup]),
          [
            ['ORD1', 2, true],
            ['ORD2', 3, true],
            ['ORD2', 4, true],
          ],
        );
        for (const [i, r] of clientApp.reports.entries()) {
          const original = sentBefore[i]!;
          assert.equal(
            r.origSendingTime,
            fieldOf(original.raw, Tag.SendingTime),
            `seq ${r.seq}: OrigSendingTime is the original SendingTime`,
          );
          assert.equal(r.body, bodyOf(original.raw), `seq ${r.seq}: the stored body, byte for byte`);
        }
        assert.equal(clientApp.reports[0]!.origSendingTime, fieldOf(sentBefore[0]!.raw, Tag.SendingTime));
        assert.equal(originals[0]!.body, clientApp.reports[0]!.body, 'the replay carries what was first sent');
        assert.deepEqual(brokerApp.orders, ['ORD1', 'ORD2'], 'no order delivered twice');

        // And on they go from the stored numbers: after the restart the client's Logon was 4, its
        // ResendRequest 5, this order 6; the broker's Logon 5 and this ack 6 (or later: on a loaded
        // machine a session-level message of the broker's may come first; it is named if so).
        await client.send(order('ORD3'));
        await until('ack after recovery', () => clientApp.reports.length === 4);
        const ack = clientApp.reports[3]!;
        const sentSince = (await brokerStore.outboundRange(6, ack.seq - 1, 10)).map((m) => fieldOf(m.raw, Tag.MsgType));
        assert.ok(
          sentSince.every((t) => t === '0' || t === '1'),
          `between the broker's Logon and the ack only heartbeats or test requests: ${sentSince.join()}`,
        );
        assert.deepEqual([ack.clOrdID, ack.seq, ack.possDup], ['ORD3', 6 + sentSince.length, false]);
        await until('numbers agree', () => broker.session(BROKER)!.status().nextTargetMsgSeqNum === client.status().nextSenderMsgSeqNum);
        assert.ok(client.status().nextSenderMsgSeqNum >= 7);
        // And the other way (polled: on a loaded machine a message of the broker's may still be on its way).
        await until(
          'numbers agree the other way',
          () => broker.session(BROKER)!.status().nextSenderMsgSeqNum === client.status().nextTargetMsgSeqNum,
        );
      } finally {
        await client?.stop(200);
        await broker?.stop(200);
        for (const db of pools) await db.close();
        await t.dispose();
      }
    });
  }
});
