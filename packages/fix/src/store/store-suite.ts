/**
 * The conformance suite every MessageStore implementation runs (memory, PostgreSQL, ...), so the session
 * can rely on the same behaviour whichever store a deployment uses.
 *
 *   runMessageStoreSuite('memory', async () => ({ factory: new MemoryStoreFactory() }));
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MsgType } from '@fixdesk/fix-codes';
import type { SessionID } from '../session/session-id';
import type { MessageStoreFactory, StoredMessage } from './message-store';

export interface StoreUnderTest {
  factory: MessageStoreFactory;
  /**
   * A fresh factory over the same durable data, as a restarted process would build it (drops every
   * in-process cache). Stores that cannot survive a restart leave it out and the crash case is skipped.
   */
  reopen?: () => Promise<MessageStoreFactory>;
  /** Releases the database, temp dirs, ... after the suite. */
  cleanup?: () => Promise<void>;
}

const SOH = '\x01';
let sessionCounter = 0;

function freshSession(): SessionID {
  sessionCounter += 1;
  return { beginString: 'FIX.4.4', senderCompID: 'BROKER', targetCompID: `CLIENT${process.pid}_${Date.now()}_${sessionCounter}` };
}

function message(
  id: SessionID,
  direction: 'TX' | 'RX',
  seq: number,
  msgType: string = MsgType.NewOrderSingle,
  extra: Partial<StoredMessage> = {},
): StoredMessage {
  const [sender, target] = direction === 'TX' ? [id.senderCompID, id.targetCompID] : [id.targetCompID, id.senderCompID];
  const body = `35=${msgType}${SOH}49=${sender}${SOH}56=${target}${SOH}34=${seq}${SOH}52=20240102-09:00:00.${String(seq % 1000).padStart(3, '0')}${SOH}`;
  return {
    direction,
    msgSeqNum: seq,
    msgType,
    senderCompID: sender,
    targetCompID: target,
    sendingTime: `20240102-09:00:00.${String(seq % 1000).padStart(3, '0')}`,
    clOrdID: msgType === MsgType.NewOrderSingle ? `ORD-${seq}` : undefined,
    raw: `8=FIX.4.4${SOH}9=${body.length}${SOH}${body}10=000${SOH}`,
    ...extra,
  };
}

export function runMessageStoreSuite(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`MessageStore conformance: ${name}`, () => {
    let sut: StoreUnderTest;
    const created = new Date('2024-01-02T09:00:00.000Z');

    before(async () => {
      sut = await makeStore();
    });
    after(async () => {
      await sut.cleanup?.();
    });

    it('starts a new session at 1/1 with the given creation time', async () => {
      const store = await sut.factory.open(freshSession(), created);
      const s = await store.sequenceState();
      assert.equal(s.nextSenderMsgSeqNum, 1);
      assert.equal(s.nextTargetMsgSeqNum, 1);
      assert.equal(s.creationTime.getTime(), created.getTime());
      await store.close();
    });

    it('saves an outbound message and advances the sender number in one step', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      await store.saveOutbound(message(id, 'TX', 1, MsgType.Logon));
      await store.saveOutbound(message(id, 'TX', 2));
      const s = await store.sequenceState();
      assert.equal(s.nextSenderMsgSeqNum, 3);
      assert.equal(s.nextTargetMsgSeqNum, 1);
      await store.close();
    });

    it('returns outbound messages by inclusive range, ascending, with limit, gaps absent', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      for (const seq of [1, 2, 3, 5, 6])
        await store.saveOutbound(message(id, 'TX', seq, seq === 1 ? MsgType.Logon : MsgType.NewOrderSingle));
      const all = await store.outboundRange(1, Number.MAX_SAFE_INTEGER, 100);
      assert.deepEqual(
        all.map((m) => m.msgSeqNum),
        [1, 2, 3, 5, 6],
      );
      assert.deepEqual(
        (await store.outboundRange(2, 5, 100)).map((m) => m.msgSeqNum),
        [2, 3, 5],
      );
      assert.deepEqual(
        (await store.outboundRange(2, 6, 2)).map((m) => m.msgSeqNum),
        [2, 3],
      );
      assert.deepEqual(await store.outboundRange(7, 9, 10), []);
      const first = all[0]!;
      assert.equal(first.msgType, MsgType.Logon);
      assert.equal(first.direction, 'TX');
      assert.equal(first.senderCompID, id.senderCompID);
      assert.equal(first.targetCompID, id.targetCompID);
      assert.equal(first.sendingTime, '20240102-09:00:00.001');
      assert.equal(all[1]!.clOrdID, 'ORD-2');
      await store.close();
    });

    it('keeps the raw message byte for byte (SOH and 8-bit characters)', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      const raw = `8=FIX.4.4${SOH}9=20${SOH}35=C${SOH}58=Gr\u00fc\u00dfe \u00e9\u00ff${SOH}10=123${SOH}`;
      await store.saveOutbound(message(id, 'TX', 1, MsgType.Email, { raw }));
      const [m] = await store.outboundRange(1, 1, 1);
      assert.equal(m?.raw, raw);
      await store.close();
    });

    it('records inbound messages, advancing the target number only when asked', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      await store.saveInbound(message(id, 'RX', 1, MsgType.Logon), 2);
      await store.saveInbound(message(id, 'RX', 5, MsgType.NewOrderSingle));
      let s = await store.sequenceState();
      assert.equal(s.nextTargetMsgSeqNum, 2);
      assert.equal(s.nextSenderMsgSeqNum, 1);
      await store.saveInbound(message(id, 'RX', 2, MsgType.NewOrderSingle), 3);
      s = await store.sequenceState();
      assert.equal(s.nextTargetMsgSeqNum, 3);
      assert.deepEqual(await store.outboundRange(1, 100, 100), [], 'inbound messages are never offered for resend');
      await store.close();
    });

    it('audits resent copies without touching sequence numbers or the resendable copy', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      await store.saveOutbound(message(id, 'TX', 1, MsgType.Logon));
      await store.saveOutbound(message(id, 'TX', 2, MsgType.NewOrderSingle, { clOrdID: 'ORIGINAL' }));
      await store.saveOutbound(message(id, 'TX', 3, MsgType.Heartbeat));
      await store.auditOutbound(message(id, 'TX', 2, MsgType.NewOrderSingle, { clOrdID: 'POSSDUP-COPY' }));
      await store.auditOutbound(message(id, 'TX', 1, MsgType.SequenceReset));
      const s = await store.sequenceState();
      assert.equal(s.nextSenderMsgSeqNum, 4);
      const got = await store.outboundRange(1, 3, 10);
      assert.deepEqual(
        got.map((m) => [m.msgSeqNum, m.msgType, m.clOrdID]),
        [
          [1, MsgType.Logon, undefined],
          [2, MsgType.NewOrderSingle, 'ORIGINAL'],
          [3, MsgType.Heartbeat, undefined],
        ],
      );
      await store.close();
    });

    it('sets the next numbers explicitly (operator action, SequenceReset)', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      await store.setNextSenderMsgSeqNum(42);
      await store.setNextTargetMsgSeqNum(17);
      const s = await store.sequenceState();
      assert.equal(s.nextSenderMsgSeqNum, 42);
      assert.equal(s.nextTargetMsgSeqNum, 17);
      await assert.rejects(store.setNextSenderMsgSeqNum(0));
      await assert.rejects(store.setNextTargetMsgSeqNum(-3));
      await assert.rejects(store.setNextTargetMsgSeqNum(1.5));
      await store.close();
    });

    it('a re-sent sequence number replaces the earlier copy for resend', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      await store.saveOutbound(message(id, 'TX', 1, MsgType.Logon));
      await store.saveOutbound(message(id, 'TX', 2, MsgType.NewOrderSingle, { clOrdID: 'FIRST' }));
      await store.setNextSenderMsgSeqNum(2);
      await store.saveOutbound(message(id, 'TX', 2, MsgType.NewOrderSingle, { clOrdID: 'SECOND' }));
      const got = await store.outboundRange(2, 2, 10);
      assert.equal(got.length, 1);
      assert.equal(got[0]!.clOrdID, 'SECOND');
      await store.close();
    });

    it('reset starts a new sequence and hides earlier outbound messages from resend', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      for (let seq = 1; seq <= 3; seq++) await store.saveOutbound(message(id, 'TX', seq));
      await store.saveInbound(message(id, 'RX', 1, MsgType.Logon), 2);
      const later = new Date('2024-01-03T09:00:00.000Z');
      await store.reset(later);
      let s = await store.sequenceState();
      assert.deepEqual([s.nextSenderMsgSeqNum, s.nextTargetMsgSeqNum], [1, 1]);
      assert.equal(s.creationTime.getTime(), later.getTime());
      assert.deepEqual(await store.outboundRange(1, 100, 100), []);
      await store.saveOutbound(message(id, 'TX', 1, MsgType.Logon, { sendingTime: '20240103-09:00:00.000' }));
      const again = await store.outboundRange(1, 100, 100);
      assert.deepEqual(
        again.map((m) => [m.msgSeqNum, m.sendingTime]),
        [[1, '20240103-09:00:00.000']],
      );
      s = await store.sequenceState();
      assert.equal(s.nextSenderMsgSeqNum, 2);
      await store.close();
    });

    it('keeps the state when the session closes its store and opens it again', async () => {
      const id = freshSession();
      let store = await sut.factory.open(id, created);
      await store.saveOutbound(message(id, 'TX', 1, MsgType.Logon));
      await store.saveInbound(message(id, 'RX', 1, MsgType.Logon), 2);
      await store.close();
      store = await sut.factory.open(id, new Date('2030-01-01T00:00:00Z'));
      const s = await store.sequenceState();
      assert.deepEqual([s.nextSenderMsgSeqNum, s.nextTargetMsgSeqNum], [2, 2]);
      assert.equal(s.creationTime.getTime(), created.getTime(), 'reopening keeps the original creation time');
      assert.equal((await store.outboundRange(1, 1, 1)).length, 1);
      await store.close();
    });

    it('keeps sessions apart', async () => {
      const a = freshSession();
      const b = freshSession();
      const sa = await sut.factory.open(a, created);
      const sb = await sut.factory.open(b, created);
      await sa.saveOutbound(message(a, 'TX', 1));
      await sa.saveOutbound(message(a, 'TX', 2));
      await sb.setNextTargetMsgSeqNum(9);
      assert.equal((await sa.sequenceState()).nextTargetMsgSeqNum, 1);
      assert.equal((await sb.sequenceState()).nextSenderMsgSeqNum, 1);
      assert.deepEqual(await sb.outboundRange(1, 10, 10), []);
      await sa.close();
      await sb.close();
    });

    it('writes issued without waiting land in issue order (group commit keeps per-session order)', async () => {
      const sessions = [freshSession(), freshSession(), freshSession()];
      const stores = await Promise.all(sessions.map((id) => sut.factory.open(id, created)));
      const writes: Promise<void>[] = [];
      for (let seq = 1; seq <= 40; seq++) {
        stores.forEach((store, i) => {
          writes.push(store.saveOutbound(message(sessions[i]!, 'TX', seq)));
          writes.push(store.saveInbound(message(sessions[i]!, 'RX', seq), seq + 1));
        });
      }
      await Promise.all(writes);
      for (const store of stores) {
        const s = await store.sequenceState();
        assert.deepEqual([s.nextSenderMsgSeqNum, s.nextTargetMsgSeqNum], [41, 41]);
        const got = await store.outboundRange(1, 40, 100);
        assert.deepEqual(
          got.map((m) => m.msgSeqNum),
          Array.from({ length: 40 }, (_, i) => i + 1),
        );
        await store.close();
      }
    });

    it('rejects calls after close and invalid sequence numbers', async () => {
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      await assert.rejects(store.saveOutbound(message(id, 'TX', 0)));
      await store.close();
      await assert.rejects(store.sequenceState());
      await assert.rejects(store.saveOutbound(message(id, 'TX', 1)));
    });

    it('survives a process restart (state and resendable messages read back from durable storage)', async (t) => {
      if (!sut.reopen) {
        t.skip('store is not durable across processes');
        return;
      }
      const id = freshSession();
      const store = await sut.factory.open(id, created);
      await store.saveOutbound(message(id, 'TX', 1, MsgType.Logon));
      await store.saveOutbound(message(id, 'TX', 2));
      await store.saveInbound(message(id, 'RX', 1, MsgType.Logon), 2);
      // No close: a kill -9 does not close anything.
      const restarted = await sut.reopen();
      const again = await restarted.open(id, new Date('2030-01-01T00:00:00Z'));
      const s = await again.sequenceState();
      assert.deepEqual([s.nextSenderMsgSeqNum, s.nextTargetMsgSeqNum], [3, 2]);
      assert.equal(s.creationTime.getTime(), created.getTime());
      assert.deepEqual(
        (await again.outboundRange(1, 2, 10)).map((m) => m.msgSeqNum),
        [1, 2],
      );
      await again.close();
    });
  });
}
