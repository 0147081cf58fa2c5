// settings.pipelineApplication: application messages handed on before earlier ones finished, numbers
// persisted in order once they did, and everything else waiting for the pipeline. A Session driven
// directly (no sockets) with an application whose fromApp calls finish when the test says so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredMessage } from '../store/message-store';
import { MemoryStoreFactory } from '../store/memory-store';
import { BusinessRejectError } from './application';
import { MemoryLogFactory } from './log';
import { Session } from './session';
import { sessionSettings } from './session-settings';
import { codec, ControlledApp, D, F, flush, ID, PIPELINED, rig } from './pipeline-rig.test-support';

describe('application pipelining', () => {
  it('records an inbound message with the time it arrived, not the time its processing ended', async () => {
    const saved: StoredMessage[] = [];
    const r = await rig(
      PIPELINED,
      new MemoryStoreFactory(),
      (s) =>
        new Proxy(s, {
          get(target, prop) {
            if (prop === 'saveInbound') return (m: StoredMessage, n?: number) => (saved.push(m), target.saveInbound(m, n));
            const v = Reflect.get(target, prop) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        }),
    );
    const arrived = r.clock.now();
    void r.receive(D(2, 'A'));
    await flush();
    r.clock.advance(750);
    r.app.call('D:A').finish();
    await r.session.idle();
    const d = saved.find((m) => m.msgType === 'D')!;
    assert.equal(d.receivedAt, arrived);
  });

  it('is off by default: the next message waits until fromApp of the previous one resolved', async () => {
    const r = await rig();
    void r.receive(D(2, 'A'));
    void r.receive(D(3, 'B'));
    await flush();
    assert.deepEqual(r.app.labels, ['D:A']);
    r.app.call('D:A').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'D:B']);
    r.app.call('D:B').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 4);
  });

  it('hands on messages in sequence without waiting, and persists each number only once it and every earlier one finished', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    await r.receive(D(3, 'B'));
    await r.receive(D(4, 'C'));
    assert.deepEqual(r.app.labels, ['D:A', 'D:B', 'D:C'], 'fromApp called in MsgSeqNum order before any finished');
    assert.equal(r.session.status().nextTargetMsgSeqNum, 5, 'the next message is in sequence');
    assert.equal(await r.durableTarget(), 2, 'nothing persisted while A is with the application');

    r.app.call('D:B').finish();
    await flush();
    assert.equal(await r.durableTarget(), 2, 'B finished first, but A is still open: a crash now must replay A and B');

    r.app.call('D:A').finish();
    await flush();
    assert.equal(await r.durableTarget(), 4, 'A and B persisted together, C still open');

    r.app.call('D:C').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 5);
    const audit = r.stores.audit(ID).filter((m) => m.direction === 'RX' && m.msgType === 'D');
    assert.deepEqual(
      audit.map((m) => m.msgSeqNum),
      [2, 3, 4],
      'audit records in sequence',
    );
  });

  it("writes the OrderID fromApp reports into the message's audit record, pipelined or not", async () => {
    for (const settings of [PIPELINED, {}]) {
      const r = await rig(settings);
      void r.receive(D(2, 'A'));
      await flush();
      void r.receive(D(3, 'B'));
      await flush();
      r.app.call('D:A').finish({ brokerOrderID: 'BO00000001' });
      await flush();
      r.app.call('D:B').finish();
      await r.session.idle();
      const audit = r.stores.audit(ID).filter((m) => m.direction === 'RX' && m.msgType === 'D');
      assert.deepEqual(
        audit.map((m) => [m.clOrdID, m.brokerOrderID]),
        [
          ['A', 'BO00000001'],
          ['B', undefined],
        ],
        JSON.stringify(settings),
      );
    }
  });

  it('a crash with messages still open restarts from the first unfinished number', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    await r.receive(D(3, 'B'));
    r.app.call('D:A').finish();
    await flush();
    // kill -9: nothing more happens to this session; a new process opens the same store.
    const restarted = await Session.create({
      id: ID,
      settings: sessionSettings('acceptor', PIPELINED),
      store: await r.stores.open(ID, new Date(r.clock.now())),
      app: new ControlledApp(),
      log: new MemoryLogFactory().create(ID),
      clock: r.clock,
      timers: r.clock,
      codec,
    });
    assert.equal(restarted.status().nextTargetMsgSeqNum, 3, 'B was never finished: the peer must resend it');
  });

  it('an admin message waits for the pipeline: its answer and its number come after the open orders', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    const testRequest = r.receive('35=1|34=3|112=PING');
    await flush();
    assert.deepEqual(r.transport.types(), [], 'no Heartbeat while A is open');
    r.app.call('D:A').finish();
    await testRequest;
    assert.deepEqual(r.transport.types(), ['0']);
    assert.match(r.transport.sent[0]!, /\|112=PING\|/);
    assert.equal(await r.durableTarget(), 4);
  });

  it('a message type that is not pipelined is a barrier: its fromApp waits for the open ones', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    void r.receive(F(3, 'A2', 'A'));
    await flush();
    assert.deepEqual(r.app.labels, ['D:A'], 'the cancel must see the order it refers to');
    r.app.call('D:A').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'F:A2']);
    void r.receive(D(4, 'B'));
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'F:A2'], 'and messages behind it wait for it');
    r.app.call('F:A2').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'F:A2', 'D:B']);
    r.app.call('D:B').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 5);
  });

  it('a gap behind open messages is handled once they finished, as without pipelining', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    const ahead = r.receive(D(4, 'C'));
    await flush();
    assert.deepEqual(r.transport.types(), [], 'no ResendRequest before A is finished');
    r.app.call('D:A').finish();
    await ahead;
    assert.equal(r.session.status().state, 'resend');
    assert.match(r.transport.take()[0]!, /\|35=2\|.*\|7=3\|16=0\|/);
    await r.receive(`${D(3, 'B')}`.replace('|11=', '|43=Y|122=20240102-08:59:59.000|11='));
    assert.deepEqual(r.app.labels, ['D:A', 'D:B', 'D:C'], 'the gap fill releases the queued message in order');
    r.app.call('D:B').finish();
    r.app.call('D:C').finish();
    await r.session.idle();
    assert.equal(r.session.status().state, 'inSession');
    assert.equal(await r.durableTarget(), 5);
  });

  it("the peer's resent messages filling our gap overlap like any others; a queued cancel behind them waits for them", async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    r.app.call('D:A').finish();
    await r.receive(F(5, 'C2', 'C'));
    assert.equal(r.session.status().state, 'resend');
    assert.match(r.transport.take()[0]!, /\|35=2\|.*\|7=3\|16=0\|/);
    const resent = (m: string) => m.replace('|11=', '|43=Y|122=20240102-08:59:59.000|11=');
    await r.receive(resent(D(3, 'B')));
    const filled = r.receive(resent(D(4, 'C')));
    await flush();
    assert.deepEqual(
      r.app.labels,
      ['D:A', 'D:B', 'D:C'],
      'C handed on while B is still with the application (after a restart: hundreds of resent orders)',
    );
    assert.equal(await r.durableTarget(), 3, 'nothing of the open ones persisted');
    r.app.call('D:C').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'D:B', 'D:C'], 'the queued cancel waits for every open order (B still open)');
    r.app.call('D:B').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'D:B', 'D:C', 'F:C2']);
    r.app.call('F:C2').finish();
    await filled;
    await r.session.idle();
    assert.equal(r.session.status().state, 'inSession');
    assert.equal(await r.durableTarget(), 6);
  });

  it('a failing fromApp is answered in order and its number consumed after the earlier ones', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    await r.receive(D(3, 'B'));
    r.app.call('D:B').fail(new BusinessRejectError('0', 'No thanks', 'B'));
    await flush();
    assert.deepEqual(r.transport.types(), [], 'B answered only after A');
    assert.equal(await r.durableTarget(), 2);
    r.app.call('D:A').finish();
    await r.session.idle();
    assert.deepEqual(r.transport.types(), ['j']);
    assert.match(r.transport.sent[0]!, /\|45=3\|58=No thanks\|372=D\|379=B\|380=0\|/);
    assert.equal(await r.durableTarget(), 4);
  });

  it('a session Reject of a malformed message behind open ones keeps its number in order', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    // Side (54) missing: the dictionary rejects it without the application seeing it.
    await r.receive('35=D|34=3|11=B|21=1|55=C5TC|60=20240102-09:00:00|38=10|40=1');
    assert.deepEqual(r.transport.types(), ['3']);
    assert.equal(r.session.status().nextTargetMsgSeqNum, 4);
    assert.equal(await r.durableTarget(), 2, 'not before A');
    r.app.call('D:A').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 4);
  });

  it('a disconnect waits for the open messages and persists their numbers', async () => {
    const r = await rig(PIPELINED);
    await r.receive(D(2, 'A'));
    const closed = r.session.connectionClosed(r.transport, 'peer went away');
    await flush();
    assert.equal(r.session.status().state, 'inSession');
    r.app.call('D:A').finish();
    await closed;
    assert.equal(r.session.status().state, 'disconnected');
    assert.equal(await r.durableTarget(), 3);
  });

  it('holds at most maxPipelinedMessages open; the next one waits', async () => {
    const r = await rig({ ...PIPELINED, maxPipelinedMessages: 2 });
    await r.receive(D(2, 'A'));
    await r.receive(D(3, 'B'));
    void r.receive(D(4, 'C'));
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'D:B']);
    r.app.call('D:A').finish();
    r.app.call('D:B').finish();
    await flush();
    assert.deepEqual(r.app.labels, ['D:A', 'D:B', 'D:C']);
    r.app.call('D:C').finish();
    await r.session.idle();
    assert.equal(await r.durableTarget(), 5);
  });

  it('refuses admin message types in the setting', () => {
    assert.throws(() => sessionSettings('acceptor', { pipelineApplication: ['D', '0'] }), /application message types only/);
    assert.throws(() => sessionSettings('acceptor', { maxPipelinedMessages: 0 }), /positive integer/);
  });
});
